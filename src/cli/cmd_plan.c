/* cudnnctl plan: which cuDNN to install on this machine (or another one's
 * facts), where, and the exact command, with every reason. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_FOR = 1, OPT_CUDA, OPT_CUDNN, OPT_DRIVER, OPT_GPU, OPT_FACTS, OPT_OFFLINE, OPT_INDEX };

static const struct cli_opt opts[] = {
    {.name = "for",
     .arg = "FRAMEWORK",
     .id = OPT_FOR,
     .help = "plan for this framework (default: the GPU frameworks found)",
     .values = "torch tensorflow jax onnxruntime cupy"},
    {.name = "cuda", .arg = "V", .id = OPT_CUDA, .help = "the build must serve this CUDA version (13.0, 12)"},
    {.name = "cudnn", .arg = "V", .id = OPT_CUDNN, .help = "the release must be this one (9, 9.19, 9.19.0)"},
    {.name = "driver", .arg = "V", .id = OPT_DRIVER, .help = "plan for this NVIDIA driver instead of the machine's"},
    {.name = "gpu",
     .arg = "sm_XY|NAME",
     .id = OPT_GPU,
     .help = "plan for this GPU instead of the machine's (repeatable)",
     .flags = CLI_REPEAT},
    {.name = "facts",
     .arg = "FILE",
     .id = OPT_FACTS,
     .help = "plan from the facts of a 'doctor --json' document (another machine; - reads\n"
             "standard input); nothing here is read",
     .flags = CLI_FILE},
    {.name = "offline",
     .id = OPT_OFFLINE,
     .help = "keep to the tables: do not read NVIDIA's redist index for releases newer than\n"
             "they know"},
    {.name = "index",
     .arg = "URL",
     .id = OPT_INDEX,
     .help = "the redist index to read for newer releases (default: NVIDIA's,\n"
             "https://developer.download.nvidia.com/compute/cudnn/redist/)"},
    {.like = &cli_opt_timeout, .help = "no connection or no data for this long ends the index's request (default 10)"},
    {.like = &cli_opt_json, .help = "print the plan as JSON (docs/json.md)"},
    {.like = &cli_opt_verbose, .help = "the source of every reason"},
    {.group = &cli_machine_group},
    {0},
};

static int cmd_plan(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

const struct cli_cmd cli_cmd_plan = {
    .name = "plan",
    .fn = cmd_plan,
    .summary = "which cuDNN to install here, where, and the exact command, with every reason",
    .opts = opts,
    .about = "From the machine's facts (the driver and the newest CUDA it runs, the GPUs and their compute\n"
             "capabilities, the CUDA toolkits, the cuDNN installed, the Python frameworks and what each\n"
             "was built with or pins) and the knowledge base: the newest cuDNN release and CUDA build that\n"
             "the driver runs, that supports every GPU, that matches the toolkit's CUDA major and fits\n"
             "the framework; where it goes (the toolkit, the side-by-side store, or the framework's own\n"
             "environment when the framework loads a pinned nvidia-cudnn-cuXX wheel) and the command.\n"
             "Every reason is shown: why not a newer release, why this build, why a wheel. With no\n"
             "driver the driver comes first; when nothing in the tables fits it says what to change.\n"
             "The machine's facts are gathered as 'cudnnctl doctor' gathers them, without its compile proof.\n"
             "NVIDIA's redist index is read (unless --offline) for releases newer than the tables: they are\n"
             "named, not planned, since their driver, GPU and framework support is not in the tables.",
    .more = "Exit status 0: a plan to install; 1: the driver must change first, or nothing fits; 2: bad\n"
            "command line or an unreadable --facts file.",
};

enum { MAX_FACTS = 256 << 20 };

static int cmd_plan(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        struct cli_machine cm = {0};
        cudnnctl_plan_options po;
        cudnnctl_doctor_options dopt;
        cudnnctl_machine *m = NULL;
        cudnnctl_value *facts = NULL, *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        const char *facts_file = NULL, **gpus = NULL, *timeout = NULL;
        size_t ngpus = 0;
        int json = 0, verbose = 0, id, status = CLI_OK, r;

        memset(&po, 0, sizeof(po));
        memset(&dopt, 0, sizeof(dopt));
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
                case CLI_OPT_VERBOSE:
                        verbose = 1;
                        break;
                case OPT_FOR:
                        if (strcmp(p.arg, "torch") != 0 && strcmp(p.arg, "tensorflow") != 0 &&
                            strcmp(p.arg, "jax") != 0 && strcmp(p.arg, "onnxruntime") != 0 &&
                            strcmp(p.arg, "cupy") != 0) {
                                cli_error(cmd, "--for takes torch, tensorflow, jax, onnxruntime or cupy, not '%s'",
                                          p.arg);
                                goto usage;
                        }
                        po.framework = p.arg;
                        break;
                case OPT_CUDA:
                        po.cuda = p.arg;
                        break;
                case OPT_CUDNN:
                        po.cudnn = p.arg;
                        break;
                case OPT_DRIVER:
                        po.driver = p.arg;
                        break;
                case OPT_GPU: {
                        const char **n = realloc((void *)gpus, (ngpus + 1) * sizeof(*n));

                        if (n == NULL) {
                                cli_error(cmd, "out of memory");
                                status = CLI_FAILURE;
                                goto done;
                        }
                        n[ngpus++] = p.arg;
                        gpus = n;
                        break;
                }
                case OPT_FACTS:
                        facts_file = p.arg;
                        break;
                case OPT_OFFLINE:
                        po.offline = 1;
                        break;
                case OPT_INDEX:
                        po.index = p.arg;
                        break;
                case CLI_OPT_TIMEOUT:
                        timeout = p.arg;
                        break;
                case CLI_OPT_HELP:
                        cli_usage(cmd);
                        goto done;
                case CLI_POSITIONAL:
                        cli_error(cmd, "takes no arguments ('%s')", p.arg);
                        goto usage;
                default:
                        goto usage;
                }
        }
        po.gpus = gpus;
        po.ngpus = ngpus;
        if (timeout != NULL && cli_timeout_ms(cmd, timeout, &po.timeout_ms) < 0)
                goto usage;
        if (facts_file != NULL) {
                size_t len = 0;
                char *text;

                if (cm.o.root != NULL || cm.nset > 0 || cm.o.env_file != NULL) {
                        cli_error(cmd, "--facts plans from recorded facts: --root, --env and --set do not apply");
                        goto usage;
                }
                text = cli_read_input(cmd, "--facts ", facts_file, MAX_FACTS, &len, &status);
                if (text == NULL) {
                        if (status != CLI_FAILURE)
                                status = CLI_USAGE;
                        goto done;
                }
                if (cudnnctl_json_parse(text, len, &facts, &err) < 0) {
                        free(text);
                        cli_error(cmd, "--facts %s: %s", facts_file, err.msg);
                        status = cli_exit_status(&err, CLI_SRC_ARGS);
                        goto done;
                }
                free(text);
                if (cudnnctl_value_str(cudnnctl_value_get(facts, "command")) == NULL ||
                    strcmp(cudnnctl_value_str(cudnnctl_value_get(facts, "command")), "doctor") != 0) {
                        cli_error(cmd, "--facts %s: not a 'cudnnctl doctor --json' document", facts_file);
                        status = CLI_USAGE;
                        goto done;
                }
        } else {
                status = cli_machine_open(&cm, cmd, &m);
                if (status != CLI_OK)
                        goto done;
                dopt.no_compile = 1;
                if (cudnnctl_doctor(m, &dopt, &facts, &err) < 0) {
                        status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
                        goto done;
                }
        }
        if (cudnnctl_plan(facts, &po, &doc, &err) < 0) {
                status = cli_fail(cmd, &err, CLI_SRC_ARGS);
                goto done;
        }
        status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_plan_text, verbose);
        if (status == CLI_OK) {
                const char *v = cudnnctl_value_str(cudnnctl_value_get(doc, "verdict"));

                if (v == NULL || strcmp(v, "install") != 0)
                        status = CLI_PROBLEM;
        }
        goto done;
usage:
        status = CLI_USAGE;
done:
        cudnnctl_value_free(doc);
        cudnnctl_value_free(facts);
        cudnnctl_machine_free(m);
        cli_machine_free(&cm);
        free((void *)gpus);
        return status;
}
