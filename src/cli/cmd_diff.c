/* cudnnctl diff A.json B.json: what differs between two doctor documents. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_ALL = 1 };

/* A doctor document is a few hundred KiB; anything near this is not one. */
enum { MAX_DOC = 64 << 20 };

static const struct cli_opt opts[] = {
    {.like = &cli_opt_json, .help = "print the differences as JSON (docs/json.md)"},
    {.name = "all",
     .id = OPT_ALL,
     .help = "also the facts that differ from run to run (durations, the compile proof's\n"
             "temporary directory) and the host name; they never change the exit status"},
    {0},
};

static int cmd_diff(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

const struct cli_cmd cli_cmd_diff = {
    .name = "diff",
    .fn = cmd_diff,
    .summary = "what differs between two 'doctor --json' documents (two nodes, or before and after)",
    .opts = opts,
    .args = "BEFORE.json AFTER.json",
    .args_kind = CLI_FILE,
    .about = "Compares two 'cudnnctl doctor --json' documents ('-' reads one from standard input) and\n"
             "lists what differs, grouped by area: the driver and GPUs; CUDA toolkits (by prefix); each\n"
             "cuDNN installation (matched by prefix, its aliases and its provenance: added, removed,\n"
             "version changed, files changed); what a plain program loads; each framework of each\n"
             "interpreter (its version, build and the cuDNN it loads); search paths and environment\n"
             "variables; findings that appear or disappear. Versions are compared as versions. Facts\n"
             "that differ from one run to the next on the same machine (durations, temporary paths)\n"
             "are left out unless --all.",
    .more = "Exit status 0: nothing that matters differs; 1: something does; 2: bad command line, or a\n"
            "file that cannot be read or is not a doctor document (its name and what is wrong on one line).",
};

/* One document read, parsed and checked; NULL after printing why (*status set). */
static cudnnctl_value *load(const struct cli_cmd *cmd, const char *path, int *status)
{
        cudnnctl_error err = {0};
        cudnnctl_value *doc = NULL;
        size_t len = 0;
        char *text = cli_read_input(cmd, "", path, MAX_DOC, &len, status);

        if (text == NULL) {
                if (*status != CLI_FAILURE)
                        *status = CLI_USAGE;
                return NULL;
        }
        if (cudnnctl_json_parse(text, len, &doc, &err) < 0) {
                free(text);
                cli_error(cmd, "%s: %s", path, err.msg);
                *status = cli_exit_status(&err, CLI_SRC_ARGS);
                return NULL;
        }
        free(text);
        if (cudnnctl_diff_check(doc, &err) < 0) {
                cli_error(cmd, "%s: %s", path, err.msg);
                *status = cli_exit_status(&err, CLI_SRC_ARGS);
                cudnnctl_value_free(doc);
                return NULL;
        }
        return doc;
}

static int cmd_diff(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        cudnnctl_diff_options o;
        cudnnctl_value *a = NULL, *b = NULL, *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        const char *files[2] = {NULL, NULL};
        size_t nfiles = 0;
        int json = 0, id, status = CLI_OK;

        memset(&o, 0, sizeof(o));
        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, cmd)) != CLI_END) {
                switch (id) {
                case CLI_OPT_JSON:
                        json = 1;
                        break;
                case OPT_ALL:
                        o.all = 1;
                        break;
                case CLI_OPT_HELP:
                        cli_usage(cmd);
                        return CLI_OK;
                case CLI_POSITIONAL:
                        if (nfiles == 2) {
                                cli_error(cmd, "takes two documents: '%s' is a third", p.arg);
                                return CLI_USAGE;
                        }
                        files[nfiles++] = p.arg;
                        break;
                default:
                        return CLI_USAGE;
                }
        }
        if (nfiles != 2) {
                cli_error(cmd, "needs two doctor documents, BEFORE and AFTER (see 'cudnnctl diff --help')");
                return CLI_USAGE;
        }
        if (strcmp(files[0], "-") == 0 && strcmp(files[1], "-") == 0) {
                cli_error(cmd, "standard input ('-') can be only one of the two documents");
                return CLI_USAGE;
        }
        a = load(cmd, files[0], &status);
        if (a == NULL)
                goto done;
        b = load(cmd, files[1], &status);
        if (b == NULL)
                goto done;
        o.before_name = files[0];
        o.after_name = files[1];
        if (cudnnctl_diff(a, b, &o, &doc, &err) < 0) {
                status = cli_fail(cmd, &err, CLI_SRC_ARGS);
                goto done;
        }
        status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_diff_text, 0);
        if (status == CLI_OK && cudnnctl_value_int(cudnnctl_value_path(doc, "summary/differences")) > 0)
                status = CLI_PROBLEM;
done:
        cudnnctl_value_free(a);
        cudnnctl_value_free(b);
        cudnnctl_value_free(doc);
        return status;
}
