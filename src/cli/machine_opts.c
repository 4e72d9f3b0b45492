/* The options every command that reads the machine takes (--root, --system,
 * --env, --set), opening that machine, and printing a result document. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

const struct cli_opt cli_opt_root = {.name = "root",
                                     .arg = "DIR",
                                     .id = CLI_OPT_ROOT,
                                     .help = "read the tree inside DIR as if DIR were / (C:\\ with --system windows);\n"
                                             "the environment then starts empty",
                                     .flags = CLI_DIR};
const struct cli_opt cli_opt_system = {.name = "system",
                                       .arg = "SYS",
                                       .id = CLI_OPT_SYSTEM,
                                       .help = "emulate linux or windows (default: this system)",
                                       .values = "linux windows"};
const struct cli_opt cli_opt_env = {.name = "env",
                                    .arg = "FILE",
                                    .id = CLI_OPT_ENV,
                                    .help = "environment variables from FILE (KEY=VALUE lines)",
                                    .flags = CLI_FILE};
const struct cli_opt cli_opt_set = {.name = "set",
                                    .arg = "VAR=VALUE",
                                    .id = CLI_OPT_SET,
                                    .help =
                                        "set one environment variable (repeatable; PWD / CD: the current directory)",
                                    .flags = CLI_REPEAT};

static const struct cli_opt machine_opts[] = {
    {.like = &cli_opt_root}, {.like = &cli_opt_system}, {.like = &cli_opt_env}, {.like = &cli_opt_set}, {0}};
const struct cli_optgroup cli_machine_group = {"machine", NULL, machine_opts};

int cli_machine_opt(struct cli_machine *cm, int id, const char *arg, const struct cli_cmd *cmd)
{
        switch (id) {
        case CLI_OPT_ROOT:
                cm->o.root = arg;
                return 1;
        case CLI_OPT_SYSTEM:
                if (strcmp(arg, "linux") == 0) {
                        cm->o.system = CUDNNCTL_SYSTEM_LINUX;
                } else if (strcmp(arg, "windows") == 0) {
                        cm->o.system = CUDNNCTL_SYSTEM_WINDOWS;
                } else {
                        cli_error(cmd, "--system takes linux or windows, not '%s'", arg);
                        return -1;
                }
                return 1;
        case CLI_OPT_ENV:
                cm->o.env_file = arg;
                return 1;
        case CLI_OPT_SET: {
                const char **n;

                if (strchr(arg, '=') == NULL || arg[0] == '=') {
                        cli_error(cmd, "--set takes VAR=VALUE, not '%s'", arg);
                        return -1;
                }
                n = realloc((void *)cm->set, (cm->nset + 1) * sizeof(*n));
                if (n == NULL) {
                        cli_error(cmd, "out of memory");
                        return -1;
                }
                n[cm->nset++] = arg;
                cm->set = n;
                return 1;
        }
        default:
                return 0;
        }
}

int cli_machine_open(struct cli_machine *cm, const struct cli_cmd *cmd, cudnnctl_machine **m)
{
        cudnnctl_error err = {0};

        cm->o.set = cm->set;
        cm->o.nset = cm->nset;
        /* what fails here is what the command line named: --root, --env, --set */
        if (cudnnctl_machine_open(&cm->o, m, &err) < 0)
                return cli_fail(cmd, &err, CLI_SRC_ARGS);
        return CLI_OK;
}

void cli_machine_free(struct cli_machine *cm)
{
        free((void *)cm->set);
        cm->set = NULL;
        cm->nset = 0;
}

int cli_print_doc(const struct cli_cmd *cmd, const cudnnctl_value *doc, int json, int color,
                  int (*text)(const cudnnctl_value *, int, int, char **, cudnnctl_error *), int verbose)
{
        cudnnctl_error err = {0};
        char *s = NULL;
        int rc;

        if (json)
                rc = cudnnctl_to_json(doc, 1, &s, &err);
        else
                rc = text(doc, verbose, color, &s, &err);
        if (rc < 0)
                return cli_fail(cmd, &err, CLI_SRC_TOOL);
        if (cli_write(s) < 0 || (json && cli_write("\n") < 0)) {
                cudnnctl_free(s);
                return CLI_FAILURE;
        }
        cudnnctl_free(s);
        return CLI_OK;
}
