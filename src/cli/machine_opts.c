/* The options every command that reads the machine takes: --root, --system,
 * --env, --set. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

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
        if (cudnnctl_machine_open(&cm->o, m, &err) < 0) {
                cli_error(cmd, "%s", err.msg);
                if (err.code == CUDNNCTL_ERR_NOMEM)
                        return CLI_FAILURE;
                if (err.code == CUDNNCTL_ERR_NOTFOUND)
                        return CLI_NOTFOUND;
                return CLI_USAGE;
        }
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
        if (rc < 0) {
                cli_error(cmd, "%s", err.msg);
                return CLI_FAILURE;
        }
        if (cli_write(s) < 0 || (json && cli_write("\n") < 0)) {
                cudnnctl_free(s);
                return CLI_FAILURE;
        }
        cudnnctl_free(s);
        return CLI_OK;
}
