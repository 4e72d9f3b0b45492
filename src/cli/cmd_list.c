/* cudnnctl list: every cuDNN installation on the machine. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>

enum { OPT_MAX_DIRS = 1 };

static const struct cli_opt opts[] = {
    {.like = &cli_opt_json},
    {.like = &cli_opt_verbose, .help = "every file of every installation"},
    {.name = "max-dirs", .arg = "N", .id = OPT_MAX_DIRS, .help = "examine at most N directories (default 20000)"},
    {.group = &cli_machine_group},
    {0},
};

static int cmd_list(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

const struct cli_cmd cli_cmd_list = {
    .name = "list",
    .fn = cmd_list,
    .summary = "every cuDNN installation on the machine, its provenance and versions",
    .opts = opts,
    .about = "Finds every cuDNN on the machine without loading it: under CUDA_PATH, CUDA_PATH_V*, CUDA_HOME,\n"
             "CUDNN_PATH, CUDNN_HOME, /usr/local/cuda*, /opt, the loader's directories (LD_LIBRARY_PATH,\n"
             "ld.so.conf, ld.so.cache), the distribution's locations, every Python site-packages that can\n"
             "be found without running Python (virtual and conda environments, user sites, each python3 on\n"
             "PATH), and on Windows the CUDA and cuDNN folders in Program Files, System32 and PATH, and\n"
             "CUDA_PATH* as the registry's environments have them (a shell opened earlier lacks them). Files\n"
             "are grouped into installations (one prefix: libraries, headers, import libraries), each with\n"
             "its provenance (CUDA toolkit, distro package and the package that owns it, pip wheel, conda\n"
             "package, archive copy, Windows installer) and its version from every source, kept apart.\n"
             "Symbolic link chains are shown as they are; broken and flattened chains are marked.",
    .more = "Exit status 3: no cuDNN was found.",
};

static int cmd_list(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        struct cli_machine cm = {0};
        cudnnctl_list_options lo = {0};
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        int json = 0, verbose = 0, id, status = CLI_OK, r;

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
                case CLI_OPT_HELP:
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
                status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
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
