/* cudnnctl list: every cuDNN installation on the machine. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>

enum { OPT_JSON = 1, OPT_VERBOSE, OPT_MAX_DIRS, OPT_HELP };

static const struct cli_opt opts[] = {
    {"json", 0, 0, OPT_JSON}, {"verbose", 'v', 0, OPT_VERBOSE}, {"max-dirs", 0, 1, OPT_MAX_DIRS},
    CLI_MACHINE_OPTS,         {"help", 'h', 0, OPT_HELP},       {NULL, 0, 0, 0},
};

int cmd_list(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        struct cli_machine cm = {0};
        cudnnctl_list_options lo = {0};
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        int json = 0, verbose = 0, id, status = CLI_OK, r;

        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, opts, cmd)) != CLI_END) {
                if ((r = cli_machine_opt(&cm, id, p.arg, cmd)) != 0) {
                        if (r < 0)
                                goto usage;
                        continue;
                }
                switch (id) {
                case OPT_JSON:
                        json = 1;
                        break;
                case OPT_VERBOSE:
                        verbose = 1;
                        break;
                case OPT_MAX_DIRS: {
                        char *end;
                        unsigned long long v;

                        errno = 0;
                        v = strtoull(p.arg, &end, 10);
                        if (p.arg[0] < '0' || p.arg[0] > '9' || errno || *end || v == 0 || v > 100000000ULL) {
                                cli_error(cmd, "--max-dirs needs a positive number, not '%s'", p.arg);
                                goto usage;
                        }
                        lo.max_dirs = (size_t)v;
                        break;
                }
                case OPT_HELP:
                        cli_usage(cmd);
                        cli_machine_free(&cm);
                        return CLI_OK;
                case CLI_POSITIONAL:
                        cli_error(cmd, "unexpected argument '%s' (see 'cudnnctl list --help')", p.arg);
                        goto usage;
                default:
                        goto usage;
                }
        }
        status = cli_machine_open(&cm, cmd, &m);
        if (status != CLI_OK)
                goto done;
        if (cudnnctl_list(m, &lo, &doc, &err) < 0) {
                cli_error(cmd, "%s", err.msg);
                status = CLI_FAILURE;
                goto done;
        }
        status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_list_text, verbose);
        if (status == CLI_OK && cudnnctl_value_len(cudnnctl_value_get(doc, "installations")) == 0)
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
