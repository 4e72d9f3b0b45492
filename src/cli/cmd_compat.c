/* cudnnctl compat: questions to the knowledge base (which cuDNN for a CUDA
 * version, which driver, does a cuDNN build run on a GPU, what a framework
 * build needs) and cross-checks between the values given. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_CUDA = 1, OPT_CUDNN, OPT_DRIVER, OPT_GPU, OPT_TORCH, OPT_TF, OPT_OS, OPT_OFFLINE, OPT_INDEX };

static const struct cli_opt opts[] = {
    {.name = "cuda", .arg = "V", .id = OPT_CUDA, .help = "a CUDA version (11.4, 12.8.1)"},
    {.name = "cudnn", .arg = "V", .id = OPT_CUDNN, .help = "a cuDNN release (8.2.2, 9.19.0.56)"},
    {.name = "driver",
     .arg = "V",
     .id = OPT_DRIVER,
     .help = "an NVIDIA driver version (470.57.02), of --os or this system"},
    {.name = "gpu",
     .arg = "sm_XY|NAME",
     .id = OPT_GPU,
     .help = "a compute capability (sm_90, 9.0) or a GPU name (H200, RTX 4090)"},
    {.name = "torch",
     .arg = "V",
     .id = OPT_TORCH,
     .help = "a PyTorch release, optionally with its variant (2.4.1, 2.4.1+cu121)"},
    {.name = "tf", .arg = "V", .id = OPT_TF, .help = "a TensorFlow release (2.15)"},
    {.name = "os",
     .arg = "linux|windows",
     .id = OPT_OS,
     .help = "linux or windows (default: both where the answer differs)",
     .values = "linux windows"},
    {.name = "offline",
     .id = OPT_OFFLINE,
     .help = "keep to the tables: do not read NVIDIA's redist index for a cuDNN release they\n"
             "do not know"},
    {.name = "index",
     .arg = "URL",
     .id = OPT_INDEX,
     .help = "the redist index to read for such a release (default: NVIDIA's,\n"
             "https://developer.download.nvidia.com/compute/cudnn/redist/)"},
    {.like = &cli_opt_timeout, .help = "no connection or no data for this long ends the index's request (default 10)"},
    {.like = &cli_opt_json},
    {.like = &cli_opt_verbose, .help = "every release row behind an answer"},
    {0},
};

static int cmd_compat(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

const struct cli_cmd cli_cmd_compat = {
    .name = "compat",
    .fn = cmd_compat,
    .summary = "questions to the knowledge base: cuDNN <-> CUDA <-> driver <-> GPU <-> frameworks",
    .opts = opts,
    .about = "Answers from the compiled-in tables (kb/*.tsv), for whatever combination is given: which\n"
             "cuDNN releases pair with a CUDA version (and their CUDA build), the driver a CUDA version\n"
             "needs (its own minimum and the minor-version-compatibility floor; Linux and Windows unless\n"
             "--os), the newest CUDA a driver supports, whether a driver runs a CUDA version, the CUDA\n"
             "builds of a cuDNN release and whether it is on a known-bad list, the compute capability of\n"
             "a GPU and whether a cuDNN build runs on it, what a PyTorch or TensorFlow build needs, and\n"
             "cross-checks between the values given (--cuda 11.4 --cudnn 8.2.2 --gpu sm_90: no, with\n"
             "why). Every answer is yes, no or unknown, with its reason and source; what the tables do\n"
             "not hold is unknown, never guessed. Nothing on this machine is read. A cuDNN release the\n"
             "tables do not know is looked up in NVIDIA's redist index (unless --offline): listed there,\n"
             "it is a release newer than the tables, whose support they cannot answer; not listed, it is\n"
             "no release.",
    .more = "Exit status 0: every answer is yes; 1: some answer is no; 3: the tables cannot answer\n"
            "some question (and none is no); 2: a value given is not a version.",
};

static int cmd_compat(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        cudnnctl_compat_options co;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        const char *timeout = NULL;
        int json = 0, verbose = 0, offline = 0, id, status;

        memset(&co, 0, sizeof(co));
        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, cmd)) != CLI_END) {
                switch (id) {
                case CLI_OPT_JSON:
                        json = 1;
                        break;
                case CLI_OPT_VERBOSE:
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
                case OPT_OFFLINE:
                        offline = 1;
                        break;
                case OPT_INDEX:
                        co.index = p.arg;
                        break;
                case CLI_OPT_TIMEOUT:
                        timeout = p.arg;
                        break;
                case CLI_OPT_HELP:
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
        if (timeout != NULL && cli_timeout_ms(cmd, timeout, &co.timeout_ms) < 0)
                return CLI_USAGE;
        co.check_index = !offline;
        /* a value that is not a version is a usage error; the rest is the tables' */
        if (cudnnctl_compat(&co, &doc, &err) < 0)
                return cli_fail(cmd, &err, CLI_SRC_TOOL);
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
