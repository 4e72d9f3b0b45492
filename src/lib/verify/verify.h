/* verify, for the library's other commands. */
#ifndef CC_VERIFY_H
#define CC_VERIFY_H

#include "../machine/machine.h"

/* cudnnctl_verify on a machine already listed: `listed` is the list
 * document of m (copied; the installation is chosen from it), or NULL to
 * list again. */
int cc_verify_listed(cc_machine *m, const cudnnctl_verify_options *opts, const cc_value *listed, cc_value **out,
                     cc_error *err);

#endif
