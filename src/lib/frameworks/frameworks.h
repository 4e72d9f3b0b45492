/* cudnnctl frameworks: which cuDNN each Python framework was built with and
 * which files it actually loads (frameworks.c gathers, judge.c decides). */
#ifndef CC_FRAMEWORKS_H
#define CC_FRAMEWORKS_H

#include "../probe/progress.h"
#include "../machine/machine.h"

/* The interpreters' facts (the "interpreters" array of the frameworks
 * document), gathered on the live machine. `list` is the list document
 * (for the environments discovery found). */
cc_value *cc_fw_gather(cc_machine *m, const cudnnctl_frameworks_options *o, const cc_value *list, cc_error *err);

/* The same in two halves, so a caller can do other work while the
 * children run: cc_fw_start reads the machine (in the calling thread) and
 * starts the children; cc_fw_finish waits for them and gives what
 * cc_fw_gather gives (and frees run). Between the two, the machine's tree
 * is not read by the run. NULL from cc_fw_start: err says why. pg (or
 * NULL) names the children still running after a second. */
typedef struct cc_fw_run cc_fw_run;
cc_fw_run *cc_fw_start(cc_machine *m, const cudnnctl_frameworks_options *o, const cc_value *list, cc_progress *pg,
                       cc_error *err);
cc_value *cc_fw_finish(cc_fw_run *run, cc_error *err);

/* How many children run at once (CPUs, at most 8; CUDNNCTL_JOBS=N; 1 on
 * Windows). 1 also makes the doctor run its areas one after another. */
int cc_fw_jobs(const cc_machine *m);
/* 1 if a framework child's run (a PROBE) failed for want of GPU memory:
 * its GPU call's error, its query error or its last output says so. */
int cc_fw_out_of_gpu_memory(const cc_value *r);

/* Decide, from facts alone (so the doctor can decide again on facts from
 * another machine): for every framework of every interpreter in
 * `interpreters`, its "cudnn" (the copy it loads: version, directory,
 * installation) and its "verdicts" (cuda-build, version-rule,
 * one-directory, expected-copy, gpu-call), replacing earlier ones.
 * `list` is the list document, `plain` the which result of the cuDNN
 * shim a plain program loads (or NULL), `expect` what --expect named (or
 * NULL), `windows` whether the machine is Windows. */
int cc_fw_judge(cc_value *interpreters, const cc_value *list, const cc_value *plain, const char *expect, int windows,
                cc_error *err);

/* The "summary" of a frameworks document (or of the doctor's frameworks
 * facts): interpreters, probed, frameworks, failed, warnings, notes. */
int cc_fw_summary(cc_value *doc, cc_error *err);

/* The name people know a framework module by: "torch" -> "PyTorch"; the
 * module name itself when it is none of the five; "a framework" for NULL. */
const char *cc_fw_label(const char *name);

/* Parse a version as "M", "M.m" or "M.m.p[.b]" into parts; returns the
 * number of parts (0: not a version). */
int cc_fw_version_parts(const char *s, int parts[4]);

#endif
