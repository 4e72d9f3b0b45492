/* cudnnctl inspect PATH...: static facts, text or JSON. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_JSON = 1, OPT_ROOT, OPT_SYSTEM, OPT_NO_MEMBERS, OPT_MAX_ENTRIES, OPT_HELP };

static const struct cli_opt opts[] = {
    {"json", 0, 0, OPT_JSON},
    {"root", 0, 1, OPT_ROOT},
    {"system", 0, 1, OPT_SYSTEM},
    {"no-members", 0, 0, OPT_NO_MEMBERS},
    {"max-entries", 0, 1, OPT_MAX_ENTRIES},
    {"help", 'h', 0, OPT_HELP},
    {NULL, 0, 0, 0},
};

static int parse_count(const char *s, size_t *out)
{
        char *end;
        unsigned long long v;

        if (s == NULL || *s < '0' || *s > '9')
                return -1;
        errno = 0;
        v = strtoull(s, &end, 10);
        if (errno != 0 || *end != '\0' || v == 0 || v > 100000000ULL)
                return -1;
        *out = (size_t)v;
        return 0;
}

/* JSON: the document prefix and suffix around the results. */
static int json_open(void)
{
        char head[256];

        snprintf(head, sizeof(head),
                 "{\n  \"schema_version\": %d,\n  \"tool\": \"cudnnctl\",\n  \"tool_version\": \"%s\",\n"
                 "  \"command\": \"inspect\",\n  \"results\": [",
                 CUDNNCTL_JSON_SCHEMA_VERSION, cudnnctl_version());
        return cli_write(head);
}

int cmd_inspect(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        cudnnctl_inspect_options io = {0};
        struct cli_parser p;
        const char **paths = NULL;
        size_t npaths = 0, i, failed = 0;
        int json = 0, id, status = CLI_OK;

        paths = calloc((size_t)argc + 1, sizeof(*paths));
        if (paths == NULL) {
                cli_error(cmd, "out of memory");
                return CLI_FAILURE;
        }
        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, opts, cmd)) != CLI_END) {
                switch (id) {
                case CLI_POSITIONAL:
                        paths[npaths++] = p.arg;
                        break;
                case OPT_JSON:
                        json = 1;
                        break;
                case OPT_ROOT:
                        io.root = p.arg;
                        break;
                case OPT_SYSTEM:
                        if (strcmp(p.arg, "linux") == 0) {
                                io.system = CUDNNCTL_SYSTEM_LINUX;
                        } else if (strcmp(p.arg, "windows") == 0) {
                                io.system = CUDNNCTL_SYSTEM_WINDOWS;
                        } else {
                                cli_error(cmd, "--system takes linux or windows, not '%s'", p.arg);
                                free((void *)paths);
                                return CLI_USAGE;
                        }
                        break;
                case OPT_NO_MEMBERS:
                        io.flags |= CUDNNCTL_INSPECT_NO_ARCHIVE_MEMBERS;
                        break;
                case OPT_MAX_ENTRIES:
                        if (parse_count(p.arg, &io.max_dir_entries) < 0) {
                                cli_error(cmd, "--max-entries needs a positive number, not '%s'", p.arg);
                                free((void *)paths);
                                return CLI_USAGE;
                        }
                        break;
                case OPT_HELP:
                        cli_usage(cmd);
                        free((void *)paths);
                        return CLI_OK;
                default:
                        free((void *)paths);
                        return CLI_USAGE;
                }
        }
        if (npaths == 0) {
                cli_error(cmd, "no PATH given (see 'cudnnctl inspect --help')");
                free((void *)paths);
                return CLI_USAGE;
        }
        if (json && json_open() < 0)
                status = CLI_FAILURE;
        for (i = 0; i < npaths && status != CLI_FAILURE; i++) {
                cudnnctl_error err = {0};
                cudnnctl_value *facts = NULL;
                char *text = NULL;
                const char *perr;

                if (cudnnctl_inspect(paths[i], &io, &facts, &err) < 0) {
                        cli_error(cmd, "%s: %s", paths[i], err.msg);
                        status = err.code == CUDNNCTL_ERR_NOMEM ? CLI_FAILURE : CLI_PROBLEM;
                        failed++;
                        continue;
                }
                perr = cudnnctl_value_str(cudnnctl_value_get(facts, "error"));
                if (perr != NULL) {
                        cli_error(cmd, "%s: %s", paths[i], perr);
                        failed++;
                        if (status == CLI_OK)
                                status = CLI_PROBLEM;
                }
                if (json) {
                        if (cudnnctl_to_json(facts, 1, &text, &err) < 0) {
                                cli_error(cmd, "%s: %s", paths[i], err.msg);
                                status = CLI_FAILURE;
                        } else {
                                /* Indent the pretty document by 4 to nest it in "results". */
                                char *line = text, *nl;

                                if (cli_write(i ? ",\n    " : "\n    ") < 0)
                                        status = CLI_FAILURE;
                                while (status != CLI_FAILURE && (nl = strchr(line, '\n')) != NULL) {
                                        *nl = '\0';
                                        if (cli_write(line) < 0 || (nl[1] != '\0' && cli_write("\n    ") < 0))
                                                status = CLI_FAILURE;
                                        line = nl + 1;
                                }
                        }
                } else {
                        if (cudnnctl_inspect_text(facts, env->color_ok, &text, &err) < 0) {
                                cli_error(cmd, "%s: %s", paths[i], err.msg);
                                status = CLI_FAILURE;
                        } else if ((i && cli_write("\n") < 0) || cli_write(text) < 0) {
                                status = CLI_FAILURE;
                        }
                }
                cudnnctl_free(text);
                cudnnctl_value_free(facts);
        }
        if (json) {
                char tail[128];

                snprintf(tail, sizeof(tail), "\n  ],\n  \"failed\": %zu\n}\n", failed);
                if (cli_write(tail) < 0)
                        status = CLI_FAILURE;
        }
        free((void *)paths);
        return status;
}
