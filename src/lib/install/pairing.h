/* The pairing pre-checks of an install: the machine's NVIDIA driver against
 * the CUDA major the release was built for, and the machine's GPUs against
 * the compute capabilities the release supports (the knowledge base: kb/
 * drivers.tsv, driver_floors.tsv, archs.tsv, gpus.tsv).
 *
 * Both are read from files, the way the static doctor reads them, and never
 * by loading the driver (no probe child, no nvidia-smi): what an install has
 * to decide before it writes must be cheap and must work on a machine
 * without a driver. Under --root every file is read through the machine's
 * tree.
 *   - The driver (Linux): libcuda.so.<version> in the driver's library
 *     directories and the kernel module's /proc/driver/nvidia/version; they
 *     must agree. Windows: the version resource of
 *     C:\Windows\System32\nvcuda.dll (32.0.15.8088 is driver 580.88).
 *   - The GPUs (Linux): /proc/driver/nvidia/gpus/<bus>/information, its
 *     "Model:" name mapped to a compute capability by kb/gpus.tsv. On
 *     Windows only a probe could tell: not checked, and said so.
 *
 * The rule for the driver: a release built for CUDA major N needs a driver
 * that runs CUDA N.x at all, i.e. the minor-version-compatibility floor of
 * N (CUDA 11 and later; the release's archive name gives no minor for the
 * 8.3+ and wheel eras). Where the archive name gives the minor ("cudnn-11.4-
 * ..."), that release's minimum and the floor are both applied, as `compat`
 * does. A major without minor-version compatibility (CUDA 10 and older)
 * needs its minor's own minimum. */
#ifndef CC_INSTALL_PAIRING_H
#define CC_INSTALL_PAIRING_H

#include "../common.h"
#include "../machine/machine.h"
#include "plan.h"
#include "source.h"

/* Add the checks "driver" and "gpu" to the plan p (made by
 * cc_install_plan for src), each ok, warn or stop with a one-line reason; a
 * stop sets p->stop and the document's summary. force turns the stops into
 * warnings (a driver too old, a GPU the release does not support). What
 * could not be read or the tables do not answer is a warning, never a
 * guess. -1 only on an internal error (memory, a plan without its
 * document). */
int cc_pairing_checks(cc_machine *m, const cc_source *src, int force, cc_plan *p, cc_error *err);

#endif
