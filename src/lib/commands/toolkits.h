/* The CUDA toolkits of a machine, as the doctor finds them (doctor.c). */
#ifndef CC_TOOLKITS_H
#define CC_TOOLKITS_H

#include "../machine/machine.h"

/* An array of toolkits ({prefix, aliases, version, version_source, nvcc}:
 * facts/host/toolkits of docs/json.md) from CUDA_PATH, CUDA_HOME,
 * CUDA_ROOT, CUDA_PATH_V*, and the usual directories. */
cc_value *cc_toolkit_facts(cc_machine *m, cc_error *err);

#endif
