/* cudnnctl verify [INSTALL]: the three layers of proof for one installation. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_JSON = 1, OPT_GPU, OPT_NO_GPU, OPT_TIMEOUT, OPT_NO_COMPILE, OPT_VERBOSE, OPT_HELP };

static const struct cli_opt opts[] = {
    {"json", 0, 0, OPT_JSON},
    {"gpu", 0, 0, OPT_GPU},
    {"no-gpu", 0, 0, OPT_NO_GPU},
    {"timeout", 0, 1, OPT_TIMEOUT},
    {"no-compile", 0, 0, OPT_NO_COMPILE},
    {"verbose", 'v', 0, OPT_VERBOSE},
    CLI_MACHINE_OPTS,
    {"help", 'h', 0, OPT_HELP},
    {NULL, 0, 0, 0},
};

int cmd_verify(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        struct cli_machine cm = {0};
        cudnnctl_verify_options vo;
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        int json = 0, verbose = 0, id, status = CLI_OK, r;

        memset(&vo, 0, sizeof(vo));
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
                case OPT_GPU:
                        vo.gpu = CUDNNCTL_GPU_ON;
                        break;
                case OPT_NO_GPU:
                        vo.gpu = CUDNNCTL_GPU_OFF;
                        break;
                case OPT_NO_COMPILE:
                        vo.no_compile = 1;
                        break;
                case OPT_VERBOSE:
                        verbose = 1;
                        break;
                case OPT_TIMEOUT:
                        if (cli_timeout_ms(cmd, p.arg, &vo.timeout_ms) < 0)
                                goto usage;
                        break;
                case OPT_HELP:
                        cli_usage(cmd);
                        cli_machine_free(&cm);
                        return CLI_OK;
                case CLI_POSITIONAL:
                        if (vo.install != NULL) {
                                cli_error(cmd, "one INSTALL at a time ('%s' and '%s')", vo.install, p.arg);
                                goto usage;
                        }
                        vo.install = p.arg;
                        break;
                default:
                        goto usage;
                }
        }
        status = cli_machine_open(&cm, cmd, &m);
        if (status != CLI_OK)
                goto done;
        if (cudnnctl_verify(m, &vo, &doc, &err) < 0) {
                cli_error(cmd, "%s", err.msg);
                status = err.code == CUDNNCTL_ERR_NOMEM      ? CLI_FAILURE
                         : err.code == CUDNNCTL_ERR_NOTFOUND ? CLI_NOTFOUND
                         : err.code == CUDNNCTL_ERR_USAGE    ? CLI_USAGE
                                                             : CLI_PROBLEM;
                goto done;
        }
        status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_verify_text, verbose);
        if (status == CLI_OK && cudnnctl_value_int(cudnnctl_value_path(doc, "summary/failed")) > 0)
                status = CLI_PROBLEM;
done:
        cudnnctl_value_free(doc);
        cudnnctl_machine_free(m);
        cli_machine_free(&cm);
        return status;
usage:
        cli_machine_free(&cm);
        return CLI_USAGE;
}
