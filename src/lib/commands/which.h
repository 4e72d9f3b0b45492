/* which, for the commands that need only where the loader finds a name. */
#ifndef CC_WHICH_H
#define CC_WHICH_H

#include "../machine/machine.h"

/* cudnnctl_which's resolutions alone: no installation is looked for (no
 * discovery, no "searched", no versions, installations or copies elsewhere
 * on the results), for a caller that reads only a result's path and how it
 * was found (verify's CUDA runtime). */
int cc_which_resolve(cc_machine *m, const char *const *queries, size_t nq, const cudnnctl_which_options *opts,
                     cc_value **out, cc_error *err);

#endif
