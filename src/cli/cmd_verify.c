/* cudnnctl verify [INSTALL]: the three layers of proof for one installation. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_NO_COMPILE = 1, OPT_RECOMPILE, OPT_CUDA };

static const struct cli_opt opts[] = {
    {.like = &cli_opt_gpu, .help = "GPU work is required: not being able to run it is a failure"},
    {.like = &cli_opt_no_gpu},
    {.like = &cli_opt_json},
    {.like = &cli_opt_verbose, .help = "the evidence of every check"},
    {.like = &cli_opt_timeout},
    {.name = "no-compile", .id = OPT_NO_COMPILE, .help = "leave out layer 3"},
    {.name = "recompile",
     .id = OPT_RECOMPILE,
     .help = "compile layer 3's program afresh, not run the build kept while its inputs are unchanged"},
    {.name = "cuda",
     .arg = "MAJOR.MINOR",
     .id = OPT_CUDA,
     .help = "of the Windows installer's layout (bin\\12.9\\, bin\\13.0\\...), the build for this CUDA\n"
             "version (MAJOR: its newest); default: the one of CUDA_PATH's toolkit, else every one"},
    {.group = &cli_machine_group},
    {0},
};

static int cmd_verify(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

const struct cli_cmd cli_cmd_verify = {
    .name = "verify",
    .fn = cmd_verify,
    .summary = "prove one installation: header vs library, run-time probes, GPU work, compile and run",
    .opts = opts,
    .args = "[INSTALL]",
    .args_kind = CLI_FILE,
    .about = "The three layers of proof for one cuDNN installation, each check passed, FAILED or n/c (could\n"
             "not be checked, with the reason):\n"
             "  1. static: the header's version macros against the library's version (file names, the\n"
             "     constants cuDNN exports, dist-info), and the set of libraries its major needs;\n"
             "  2. run time, in child processes with a time limit (a crash or hang there is a finding,\n"
             "     not the tool's): the NVIDIA driver (libcuda/nvcuda, NVML, /proc/driver/nvidia), the\n"
             "     CUDA runtime cuDNN pairs with, and cuDNN loaded by full path: cudnnGetVersion,\n"
             "     cudnnGetCudartVersion, cudnnGetProperty, every sub-library version check, where every\n"
             "     mapped cuDNN module came from, cudnnCreate; then, with a GPU, a convolution, batch\n"
             "     normalization + activation, softmax, an RNN and (cuDNN 9) a backend-graph convolution on\n"
             "     the GPU, each compared with a CPU reference in double precision from fresh random inputs;\n"
             "  3. compile: the minimal cudnnCreate/cudnnGetVersion program built with the machine's C\n"
             "     compiler against its headers and library, run, and compared with the other layers.\n"
             "INSTALL is an id from 'cudnnctl list', a prefix, a directory or library inside it, or a\n"
             "package name; without it, the installation a plain program loads.",
    .more = "With --root nothing from the tree is loaded or run: only layer 1 is checked.\n"
            "Of the Windows installer's layout (bin\\12.9\\, include\\12.9\\, lib\\12.9\\x64\\ per CUDA build)\n"
            "each CUDA variant is a set of its own: the one of the toolkit a plain program uses\n"
            "(CUDA_PATH's, else the only one found), the one --cuda names, or else every one.\n"
            "Exit status 1: a check failed; 3: INSTALL (or any cuDNN, or --cuda's build) not found.",
};

/* "12.9" or "13". */
static int cuda_version_ok(const char *s)
{
        size_t n = strspn(s, "0123456789");

        if (n == 0 || n > 3 || s[0] == '0')
                return 0;
        if (s[n] == '\0')
                return 1;
        return s[n] == '.' && strspn(s + n + 1, "0123456789") > 0 && strspn(s + n + 1, "0123456789") <= 3 &&
               s[n + 1 + strspn(s + n + 1, "0123456789")] == '\0';
}

static int cmd_verify(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
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
                case CLI_OPT_GPU:
                        vo.gpu = CUDNNCTL_GPU_ON;
                        break;
                case CLI_OPT_NO_GPU:
                        vo.gpu = CUDNNCTL_GPU_OFF;
                        break;
                case OPT_NO_COMPILE:
                        vo.no_compile = 1;
                        break;
                case OPT_RECOMPILE:
                        vo.recompile = 1;
                        break;
                case OPT_CUDA:
                        vo.cuda = p.arg;
                        break;
                case CLI_OPT_VERBOSE:
                        verbose = 1;
                        break;
                case CLI_OPT_TIMEOUT:
                        if (cli_timeout_ms(cmd, p.arg, &vo.timeout_ms) < 0)
                                goto usage;
                        break;
                case CLI_OPT_HELP:
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
        if (vo.cuda != NULL && !cuda_version_ok(vo.cuda)) {
                cli_error(cmd, "--cuda '%s': not a CUDA version (MAJOR.MINOR or MAJOR: 12.9, 13)", vo.cuda);
                goto usage;
        }
        status = cli_machine_open(&cm, cmd, &m);
        if (status != CLI_OK)
                goto done;
        if (cudnnctl_verify(m, &vo, &doc, &err) < 0) {
                status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
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
