/* cudnnctl frameworks: which cuDNN each Python framework was built with and
 * which copy it actually loads. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_PYTHON = 1, OPT_EXPECT, OPT_QUIET };
enum { MAX_PYTHON = 16 };

static const struct cli_opt opts[] = {
    {.name = "python",
     .arg = "PATH",
     .id = OPT_PYTHON,
     .help = "an interpreter (a path, or a name searched on PATH); repeatable",
     .flags = CLI_PROGRAM | CLI_REPEAT},
    {.like = &cli_opt_json},
    {.like = &cli_opt_gpu, .help = "the GPU call is wanted (default: when the framework sees a GPU)"},
    {.like = &cli_opt_no_gpu, .help = "no GPU call: what is mapped after import"},
    {.like = &cli_opt_timeout, .help = "time limit of each child (default 60)"},
    {.name = "quiet",
     .short_name = 'q',
     .id = OPT_QUIET,
     .help = "no progress on standard error (shown on a terminal)"},
    {.name = "expect",
     .arg = "INSTALL",
     .id = OPT_EXPECT,
     .help = "the installation the frameworks should load: an id from 'cudnnctl list',\n"
             "its prefix or its library directory"},
    {.like = &cli_opt_verbose, .help = "every verdict, the devices, the mapped files, what the probe printed"},
    {.like = &cli_opt_root, .help = "does not apply (an error): the interpreters run on this machine"},
    {.like = &cli_opt_system, .help = "this system only (another is an error: the interpreters run here)"},
    {.like = &cli_opt_env},
    {.like = &cli_opt_set, .help = "run the interpreters with VAR set (LD_LIBRARY_PATH=..., PATH=...); repeatable"},
    {0},
};

static int cmd_frameworks(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

const struct cli_cmd cli_cmd_frameworks = {
    .name = "frameworks",
    .fn = cmd_frameworks,
    .summary = "which cuDNN PyTorch, TensorFlow, JAX, ONNX Runtime and CuPy were built with and load",
    .opts = opts,
    .about = "Runs each Python interpreter (every --python given; else the active virtual and conda\n"
             "environments, python3 and python on PATH, the system's python3, and the environments\n"
             "'cudnnctl list' found) with the tool's own probe script, in child processes with a time\n"
             "limit and no network. For each framework it can import: the cuDNN and CUDA it was built\n"
             "with, the cuDNN it reports at run time, and the CUDA and cuDNN files actually mapped into\n"
             "the process after one small convolution on the GPU (after import when there is none),\n"
             "with the installation each belongs to. Verdicts: a CUDA build at all; the build's cuDNN\n"
             "against the loaded one (same major, minor at least the build's, and the framework's own\n"
             "rules); every cuDNN file from one directory; the copy the user expects (--expect, else the\n"
             "wheel the framework requires or bundles, else what a plain program loads); the GPU call.\n"
             "A framework whose import hangs, crashes or floods the output is reported, and the rest go on.",
    .more = "Exit status 0: no framework fails a verdict; 1: one does; 3: no framework found.",
};

static int cmd_frameworks(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        struct cli_machine cm = {0};
        cudnnctl_frameworks_options o;
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        const char *python[MAX_PYTHON];
        int json = 0, verbose = 0, id, status = CLI_OK, r, quiet = 0;

        memset(&o, 0, sizeof(o));
        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, cmd)) != CLI_END) {
                if ((r = cli_machine_opt(&cm, id, p.arg, cmd)) != 0) {
                        if (r < 0)
                                goto usage;
                        continue;
                }
                switch (id) {
                case CLI_OPT_JSON:
                        json = 1;
                        break;
                case OPT_PYTHON:
                        if (o.npython >= MAX_PYTHON) {
                                cli_error(cmd, "at most %d --python options", MAX_PYTHON);
                                goto usage;
                        }
                        if (p.arg[0] == '\0') {
                                cli_error(cmd, "--python needs a path or a program name");
                                goto usage;
                        }
                        python[o.npython++] = p.arg;
                        break;
                case CLI_OPT_GPU:
                        o.gpu = CUDNNCTL_GPU_ON;
                        break;
                case CLI_OPT_NO_GPU:
                        o.gpu = CUDNNCTL_GPU_OFF;
                        break;
                case OPT_EXPECT:
                        o.expect = p.arg;
                        break;
                case OPT_QUIET:
                        quiet = 1;
                        break;
                case CLI_OPT_VERBOSE:
                        verbose = 1;
                        break;
                case CLI_OPT_TIMEOUT:
                        if (cli_timeout_ms(cmd, p.arg, &o.timeout_ms) < 0)
                                goto usage;
                        break;
                case CLI_OPT_HELP:
                        cli_usage(cmd);
                        cli_machine_free(&cm);
                        return CLI_OK;
                case CLI_POSITIONAL:
                        cli_error(cmd, "takes no arguments ('%s'); give interpreters with --python PATH", p.arg);
                        goto usage;
                default:
                        goto usage;
                }
        }
        o.python = python;
        if (cm.o.root != NULL) {
                cli_error(cmd, "runs Python interpreters, so it looks at this machine only: --root does not apply");
                goto usage;
        }
        status = cli_machine_open(&cm, cmd, &m);
        if (status != CLI_OK)
                goto done;
        /* What the interpreters do is reported in the document; the call
         * itself fails only in the tool's own work (its private directory for
         * the probe script, starting children) or for what it cannot do. */
        cli_progress(quiet, &o.progress, &o.progress_ctx);
        if (cudnnctl_frameworks(m, &o, &doc, &err) < 0) {
                status = cli_fail(cmd, &err, CLI_SRC_TOOL);
                goto done;
        }
        status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_frameworks_text, verbose);
        if (status == CLI_OK && cudnnctl_value_int(cudnnctl_value_path(doc, "summary/failed")) > 0)
                status = CLI_PROBLEM;
        if (status == CLI_OK && cudnnctl_value_int(cudnnctl_value_path(doc, "summary/frameworks")) == 0)
                status = CLI_NOTFOUND;
done:
        cudnnctl_value_free(doc);
        cudnnctl_machine_free(m);
        cli_machine_free(&cm);
        return status;
usage:
        cli_machine_free(&cm);
        return CLI_USAGE;
}
