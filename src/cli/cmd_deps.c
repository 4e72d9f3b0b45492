/* cudnnctl deps FILE|NAME: the dependency tree, resolved like the loader. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_MISSING = 1, OPT_MAX_DEPTH, OPT_NO_RUNTIME };

static const struct cli_opt opts[] = {
    {.name = "missing", .id = OPT_MISSING, .help = "print only what cannot be found, and the path to it"},
    {.like = &cli_opt_json},
    {.name = "max-depth", .arg = "N", .id = OPT_MAX_DEPTH, .help = "stop N levels down (default 32)"},
    {.name = "no-runtime", .id = OPT_NO_RUNTIME, .help = "leave out what cuDNN loads at run time"},
    {.group = &cli_machine_group},
    {.group = &cli_resolve_group},
    {0},
};

static int cmd_deps(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

const struct cli_cmd cli_cmd_deps = {
    .name = "deps",
    .fn = cmd_deps,
    .summary = "the dependency tree of a library or program, resolved like the loader",
    .opts = opts,
    .args = "FILE|NAME",
    .args_kind = CLI_FILE,
    .about = "Resolves every DT_NEEDED entry (Linux) or import and delay import (Windows) the way the\n"
             "loader does, breadth first like ld.so, and adds what cuDNN loads at run time rather than\n"
             "through DT_NEEDED or imports (its sub-libraries, cuBLAS/cuBLASLt, NVRTC, zlib or\n"
             "zlibwapi.dll, libcuda/nvcuda.dll), marked as such. Cycles and depth are bounded.",
    .more = "The summary names the cuDNN directories and versions the process would load: more than\n"
            "one is a mixed set.\n"
            "\n"
            "Exit status 1: something cannot be found, or the cuDNN set is mixed; 3: a NAME given as the\n"
            "target is not found.",
};

static int deps_text(const cudnnctl_value *doc, int missing, int color, char **out, cudnnctl_error *err)
{
        return cudnnctl_deps_text(doc, missing, color, out, err);
}

static int cmd_deps(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        struct cli_machine cm = {0};
        struct cli_resolve cr;
        cudnnctl_deps_options dopt;
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        const char *target = NULL;
        int json = 0, missing = 0, id, status = CLI_OK, r;

        memset(&dopt, 0, sizeof(dopt));
        cli_resolve_init(&cr);
        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, cmd)) != CLI_END) {
                if ((r = cli_machine_opt(&cm, id, p.arg, cmd)) != 0 ||
                    (r = cli_resolve_opt(&cr, id, p.arg, cmd)) != 0) {
                        if (r < 0)
                                goto usage;
                        continue;
                }
                switch (id) {
                case CLI_OPT_JSON:
                        json = 1;
                        break;
                case OPT_MISSING:
                        missing = 1;
                        break;
                case OPT_NO_RUNTIME:
                        dopt.no_runtime = 1;
                        break;
                case OPT_MAX_DEPTH: {
                        char *end;
                        long v;

                        errno = 0;
                        v = strtol(p.arg, &end, 10);
                        if (errno || *end || v < 1 || v > 256) {
                                cli_error(cmd, "--max-depth takes 1 to 256, not '%s'", p.arg);
                                goto usage;
                        }
                        dopt.max_depth = (int)v;
                        break;
                }
                case CLI_OPT_HELP:
                        cli_usage(cmd);
                        cli_machine_free(&cm);
                        cli_resolve_free(&cr);
                        return CLI_OK;
                case CLI_POSITIONAL:
                        if (target != NULL) {
                                cli_error(cmd, "one FILE or NAME at a time ('%s' and '%s')", target, p.arg);
                                goto usage;
                        }
                        target = p.arg;
                        break;
                default:
                        goto usage;
                }
        }
        if (target == NULL) {
                cli_error(cmd, "no FILE or NAME given (see 'cudnnctl deps --help')");
                goto usage;
        }
        status = cli_machine_open(&cm, cmd, &m);
        if (status != CLI_OK)
                goto done;
        dopt.resolve = cr.o;
        if (cudnnctl_deps(m, target, &dopt, &doc, &err) < 0) {
                status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
                goto done;
        }
        status = cli_print_doc(cmd, doc, json, env->color_ok, deps_text, missing);
        if (status == CLI_OK) {
                const char *ts = cudnnctl_value_str(cudnnctl_value_get(doc, "target_status"));

                if (ts != NULL && strcmp(ts, "missing") == 0)
                        status = CLI_NOTFOUND;
                else if (cudnnctl_value_int(cudnnctl_value_path(doc, "summary/missing")) > 0 ||
                         cudnnctl_value_int(cudnnctl_value_path(doc, "summary/runtime_missing")) > 0 ||
                         cudnnctl_value_int(cudnnctl_value_path(doc, "summary/unreadable")) > 0 ||
                         cudnnctl_value_bool(cudnnctl_value_path(doc, "summary/cudnn/mixed")))
                        status = CLI_PROBLEM;
        }
done:
        cudnnctl_value_free(doc);
        cudnnctl_machine_free(m);
        cli_machine_free(&cm);
        cli_resolve_free(&cr);
        return status;
usage:
        cli_machine_free(&cm);
        cli_resolve_free(&cr);
        return CLI_USAGE;
}
