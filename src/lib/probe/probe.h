/* Probes: everything that loads CUDA or cuDNN code runs in a child process
 * (this program re-executed as `cudnnctl __probe KIND ...`) with a time
 * limit. The child reports on its original standard output, one JSON object
 * per line, flushed as it goes; whatever the loaded libraries print goes to
 * its standard error. A crash, a hang or noise is a fact in the result, never
 * the tool's failure.
 *
 * Child protocol, one object per line:
 *   {"t":"begin","step":S}       a call that may crash or hang starts
 *   {"t":"end","step":S}         it returned
 *   {"t":"fact","k":KEY,"v":V}   a fact (later facts with the same key replace)
 *   {"t":"gpu","v":OBJ}          one GPU work result (gpuwork.h)
 *   {"t":"done"}                 the report is complete: always the last line
 * A child whose last line is not "done" did not finish its report, whatever
 * its exit status says (a library that calls exit(0) in its constructor, or
 * closes every file descriptor): the result says complete false and the
 * probe failed. The framework probe (fwprobe.py) ends its report the same way.
 */
#ifndef CC_PROBE_PROBE_H
#define CC_PROBE_PROBE_H

#include "../value.h"

/* Status names, NULL when the number is not known. major: the cuDNN major
 * whose numbering applies (0: unknown, then guessed from the range). */
const char *cc_cudnn_status_name(int major, long code);
const char *cc_cu_result_name(long code);  /* CUresult */
const char *cc_cuda_error_name(long code); /* cudaError_t */

/* The child side: argv after "__probe" (argv[0] is the kind: driver,
 * cudart, cudnn). Returns the child's exit status. */
int cc_probe_child(int argc, char **argv);

typedef struct cc_probe_ctl {
        const char *exe;            /* the program to re-execute; NULL: this one */
        int timeout_ms;             /* <= 0: 60000 */
        const char *const *env_set; /* extra "VAR=VALUE" for the child */
        size_t nenv_set;
        const char *const *env_unset;
        size_t nenv_unset;
        /* Another program speaking the same protocol (the framework probe:
         * an interpreter and its script): argv[0..nargv) then args, instead
         * of `exe __probe args`. */
        const char *const *argv;
        size_t nargv;
        const char *cwd; /* NULL: the parent's */
} cc_probe_ctl;

/* Run one probe child with args (args[0] is the kind) and gather what it
 * said into a new object:
 *   ran        true when the child started
 *   how        cc_spawn_describe's line ("exited with status 0", "killed by signal 11 (SIGSEGV)")
 *   exit, signal, crashed, timed_out, wall_ms
 *   complete   true when the child's last line was {"t":"done"}; when not,
 *              and the child neither crashed nor timed out, how says
 *              "exited with status N before its report was complete"
 *   died_in    the step that began and never ended, when the child did not finish
 *   facts      {KEY: V...} from the fact lines
 *   gpu        [results...] from the gpu lines
 *   printed_bytes  how much the loaded libraries printed (standard output and error)
 *   output_tail    the last 2 KiB of it
 *   protocol_cut   the child said more than the 1 MiB kept (later lines lost)
 *   bad_lines                     protocol lines that were not understood
 * NULL only when out of memory, or when the child cannot be started at all
 * (err says why). */
cc_value *cc_probe_run(const cc_probe_ctl *c, const char *const *args, size_t nargs, cc_error *err);

#endif
