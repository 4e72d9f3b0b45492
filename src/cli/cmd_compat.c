/* cudnnctl compat: questions to the knowledge base (which cuDNN for a CUDA
 * version, which driver, does a cuDNN build run on a GPU, what a framework
 * build needs) and cross-checks between the values given. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_JSON = 1, OPT_CUDA, OPT_CUDNN, OPT_DRIVER, OPT_GPU, OPT_TORCH, OPT_TF, OPT_OS, OPT_VERBOSE, OPT_HELP };

static const struct cli_opt opts[] = {
    {"json", 0, 0, OPT_JSON},     {"cuda", 0, 1, OPT_CUDA}, {"cudnn", 0, 1, OPT_CUDNN},
    {"driver", 0, 1, OPT_DRIVER}, {"gpu", 0, 1, OPT_GPU},   {"torch", 0, 1, OPT_TORCH},
    {"tf", 0, 1, OPT_TF},         {"os", 0, 1, OPT_OS},     {"verbose", 'v', 0, OPT_VERBOSE},
    {"help", 'h', 0, OPT_HELP},   {NULL, 0, 0, 0},
};

int cmd_compat(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        cudnnctl_compat_options co;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        int json = 0, verbose = 0, id, status;

        memset(&co, 0, sizeof(co));
        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, opts, cmd)) != CLI_END) {
                switch (id) {
                case OPT_JSON:
                        json = 1;
                        break;
                case OPT_VERBOSE:
                        verbose = 1;
                        break;
                case OPT_CUDA:
                        co.cuda = p.arg;
                        break;
                case OPT_CUDNN:
                        co.cudnn = p.arg;
                        break;
                case OPT_DRIVER:
                        co.driver = p.arg;
                        break;
                case OPT_GPU:
                        co.gpu = p.arg;
                        break;
                case OPT_TORCH:
                        co.torch = p.arg;
                        break;
                case OPT_TF:
                        co.tf = p.arg;
                        break;
                case OPT_OS:
                        if (strcmp(p.arg, "linux") == 0) {
                                co.system = CUDNNCTL_SYSTEM_LINUX;
                        } else if (strcmp(p.arg, "windows") == 0) {
                                co.system = CUDNNCTL_SYSTEM_WINDOWS;
                        } else {
                                cli_error(cmd, "--os '%s': not linux or windows", p.arg);
                                return CLI_USAGE;
                        }
                        break;
                case OPT_HELP:
                        cli_usage(cmd);
                        return CLI_OK;
                case CLI_POSITIONAL:
                        cli_error(cmd, "unexpected argument '%s' (see 'cudnnctl compat --help')", p.arg);
                        return CLI_USAGE;
                default:
                        return CLI_USAGE;
                }
        }
        if (co.cuda == NULL && co.cudnn == NULL && co.driver == NULL && co.gpu == NULL && co.torch == NULL &&
            co.tf == NULL) {
                cli_error(cmd, "nothing asked: give --cuda, --cudnn, --driver, --gpu, --torch or --tf");
                return CLI_USAGE;
        }
        if (cudnnctl_compat(&co, &doc, &err) < 0) {
                cli_error(cmd, "%s", err.msg);
                return err.code == CUDNNCTL_ERR_USAGE ? CLI_USAGE : CLI_FAILURE;
        }
        status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_compat_text, verbose);
        if (status == CLI_OK) {
                const char *v = cudnnctl_value_str(cudnnctl_value_path(doc, "summary/verdict"));

                if (v != NULL && strcmp(v, "no") == 0)
                        status = CLI_PROBLEM;
                else if (v != NULL && strcmp(v, "unknown") == 0)
                        status = CLI_NOTFOUND;
        }
        cudnnctl_value_free(doc);
        return status;
}
