/* verify, for the library's other commands. */
#ifndef CC_VERIFY_H
#define CC_VERIFY_H

#include "../machine/machine.h"

/* cudnnctl_verify on a machine already listed: `listed` is the list
 * document of m (copied; the installation is chosen from it), or NULL to
 * list again. `driver`, when not NULL, shares the driver probe between
 * runs: the first run stores a copy of its answer in *driver (the caller
 * frees it), later runs reuse it instead of starting the probe again (it
 * asks the same question in the same environment). */
int cc_verify_listed(cc_machine *m, const cudnnctl_verify_options *opts, const cc_value *listed, cc_value **driver,
                     cc_value **out, cc_error *err);

#endif
