/* cudnnctl frameworks: which cuDNN each Python framework was built with and
 * which copy it actually loads. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_JSON = 1, OPT_PYTHON, OPT_GPU, OPT_NO_GPU, OPT_TIMEOUT, OPT_EXPECT, OPT_VERBOSE, OPT_HELP };
enum { MAX_PYTHON = 16 };

static const struct cli_opt opts[] = {
    {"json", 0, 0, OPT_JSON},         {"python", 0, 1, OPT_PYTHON},
    {"gpu", 0, 0, OPT_GPU},           {"no-gpu", 0, 0, OPT_NO_GPU},
    {"timeout", 0, 1, OPT_TIMEOUT},   {"expect", 0, 1, OPT_EXPECT},
    {"verbose", 'v', 0, OPT_VERBOSE}, CLI_MACHINE_OPTS,
    {"help", 'h', 0, OPT_HELP},       {NULL, 0, 0, 0},
};

int cmd_frameworks(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        struct cli_machine cm = {0};
        cudnnctl_frameworks_options o;
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        const char *python[MAX_PYTHON];
        int json = 0, verbose = 0, id, status = CLI_OK, r;

        memset(&o, 0, sizeof(o));
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
                case OPT_GPU:
                        o.gpu = CUDNNCTL_GPU_ON;
                        break;
                case OPT_NO_GPU:
                        o.gpu = CUDNNCTL_GPU_OFF;
                        break;
                case OPT_EXPECT:
                        o.expect = p.arg;
                        break;
                case OPT_VERBOSE:
                        verbose = 1;
                        break;
                case OPT_TIMEOUT:
                        if (cli_timeout_ms(cmd, p.arg, &o.timeout_ms) < 0)
                                goto usage;
                        break;
                case OPT_HELP:
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
        if (cudnnctl_frameworks(m, &o, &doc, &err) < 0) {
                cli_error(cmd, "%s", err.msg);
                status = err.code == CUDNNCTL_ERR_NOMEM         ? CLI_FAILURE
                         : err.code == CUDNNCTL_ERR_UNSUPPORTED ? CLI_USAGE
                                                                : CLI_FAILURE;
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
