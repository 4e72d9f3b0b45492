/* cudnnctl which NAME: where the loader finds a library, and what it shadows. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_JSON = 1, OPT_ALL, OPT_FROM, OPT_HELP };

static const struct cli_opt opts[] = {
    {"json", 0, 0, OPT_JSON}, {"all", 'a', 0, OPT_ALL},   {"from", 0, 1, OPT_FROM}, CLI_MACHINE_OPTS,
    CLI_RESOLVE_OPTS,         {"help", 'h', 0, OPT_HELP}, {NULL, 0, 0, 0},
};

int cmd_which(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        struct cli_machine cm = {0};
        struct cli_resolve cr;
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        const char **names = NULL;
        size_t nnames = 0;
        int json = 0, all = 0, id, status = CLI_OK, r;

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
                case OPT_ALL:
                        all = 1;
                        break;
                case OPT_FROM:
                        cr.o.from = p.arg;
                        break;
                case OPT_HELP:
                        cli_usage(cmd);
                        cli_machine_free(&cm);
                        cli_resolve_free(&cr);
                        free((void *)names);
                        return CLI_OK;
                case CLI_POSITIONAL: {
                        const char **nn = realloc((void *)names, (nnames + 1) * sizeof(*nn));

                        if (nn == NULL) {
                                cli_error(cmd, "out of memory");
                                goto usage;
                        }
                        names = nn;
                        names[nnames++] = p.arg;
                        break;
                }
                default:
                        goto usage;
                }
        }
        if (nnames == 0) {
                cli_error(cmd, "no NAME given (see 'cudnnctl which --help')");
                goto usage;
        }
        status = cli_machine_open(&cm, cmd, &m);
        if (status != CLI_OK)
                goto done;
        if (cudnnctl_which(m, names, nnames, &cr.o, &doc, &err) < 0) {
                cli_error(cmd, "%s", err.msg);
                status = err.code == CUDNNCTL_ERR_NOMEM      ? CLI_FAILURE
                         : err.code == CUDNNCTL_ERR_NOTFOUND ? CLI_NOTFOUND
                         : err.code == CUDNNCTL_ERR_USAGE    ? CLI_USAGE
                                                             : CLI_PROBLEM;
                goto done;
        }
        status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_which_text, all);
        if (status == CLI_OK) {
                const char *verdict = cudnnctl_value_str(cudnnctl_value_get(doc, "verdict"));

                if (verdict != NULL && strcmp(verdict, "not-found") == 0)
                        status = CLI_NOTFOUND;
                else if (verdict != NULL && strcmp(verdict, "fails") == 0)
                        status = CLI_PROBLEM;
        }
done:
        cudnnctl_value_free(doc);
        cudnnctl_machine_free(m);
        cli_machine_free(&cm);
        cli_resolve_free(&cr);
        free((void *)names);
        return status;
usage:
        cli_machine_free(&cm);
        cli_resolve_free(&cr);
        free((void *)names);
        return CLI_USAGE;
}
