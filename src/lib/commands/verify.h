/* verify, for the library's other commands. */
#ifndef CC_VERIFY_H
#define CC_VERIFY_H

#include "../machine/machine.h"
#include "../platform/platform.h"

/* The driver probe's answer, shared between verify runs (it asks the same
 * question in the same environment): the first run that needs it starts
 * the probe and keeps a copy of its answer, later runs reuse it. With a
 * lock (s), runs in threads of their own share it: a run that comes while
 * another is probing waits for that answer. Zeroed: one thread. */
typedef struct cc_vf_driver {
        cc_sync *s;       /* NULL: the runs are in one thread */
        cc_value *answer; /* a copy of the first answer, or NULL */
        int probing;      /* a run is probing now */
} cc_vf_driver;
/* Free the answer and the lock; d zeroed. */
void cc_vf_driver_free(cc_vf_driver *d);

/* cudnnctl_verify on a machine already listed: `listed` is the list
 * document of m (copied; the installation is chosen from it), or NULL to
 * list again. `driver`, when not NULL, shares the driver probe between
 * runs (above). */
int cc_verify_listed(cc_machine *m, const cudnnctl_verify_options *opts, const cc_value *listed, cc_vf_driver *driver,
                     cc_value **out, cc_error *err);

#endif
