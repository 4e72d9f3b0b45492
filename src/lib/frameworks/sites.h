/* Whether a Python interpreter could import a deep-learning framework
 * (torch, tensorflow, jax, onnxruntime, cupy), decided from its files
 * alone (nothing is run), so that the tool can skip starting the
 * interpreters that surely have none. Conservative: whatever layout is not
 * understood answers "may have one". */
#ifndef CC_FRAMEWORKS_SITES_H
#define CC_FRAMEWORKS_SITES_H

#include "../machine/machine.h"

/* python: the interpreter's path on the machine (a pyenv shim is followed
 * to the version it would run). 1: the interpreter may have a framework
 * (start it); 0: none of its import directories holds one (*reason says
 * which were looked at); -1: out of memory (err). Unsure cases answer 1,
 * with the reason. *reason (caller frees) is set for 0 and 1, NULL on -1. */
int cc_fw_sites_verdict(cc_machine *m, const char *python, char **reason, cc_error *err);

#endif
