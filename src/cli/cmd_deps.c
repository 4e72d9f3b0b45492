/* cudnnctl deps FILE|NAME: the dependency tree, resolved like the loader. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_JSON = 1, OPT_MISSING, OPT_MAX_DEPTH, OPT_NO_RUNTIME, OPT_HELP };

static const struct cli_opt opts[] = {
    {"json", 0, 0, OPT_JSON},
    {"missing", 0, 0, OPT_MISSING},
    {"max-depth", 0, 1, OPT_MAX_DEPTH},
    {"no-runtime", 0, 0, OPT_NO_RUNTIME},
    CLI_MACHINE_OPTS,
    CLI_RESOLVE_OPTS,
    {"help", 'h', 0, OPT_HELP},
    {NULL, 0, 0, 0},
};

static int deps_text(const cudnnctl_value *doc, int missing, int color, char **out, cudnnctl_error *err)
{
        return cudnnctl_deps_text(doc, missing, color, out, err);
}

int cmd_deps(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
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
        while ((id = cli_next(&p, opts, cmd)) != CLI_END) {
                if ((r = cli_machine_opt(&cm, id, p.arg, cmd)) != 0 ||
                    (r = cli_resolve_opt(&cr, id, p.arg, cmd)) != 0) {
                        if (r < 0)
                                goto usage;
                        continue;
                }
                switch (id) {
                case OPT_JSON:
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
                case OPT_HELP:
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
                cli_error(cmd, "%s", err.msg);
                status = err.code == CUDNNCTL_ERR_NOMEM      ? CLI_FAILURE
                         : err.code == CUDNNCTL_ERR_NOTFOUND ? CLI_NOTFOUND
                         : err.code == CUDNNCTL_ERR_USAGE    ? CLI_USAGE
                                                             : CLI_PROBLEM;
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
