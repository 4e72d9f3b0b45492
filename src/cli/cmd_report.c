/* cudnnctl report DOC...: many machines' doctor --json documents as one table. */
#include "cli.h"

#include "cudnnctl/report.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_HTML = 1 };

static const struct cli_opt opts[] = {
    {.name = "html",
     .arg = "FILE",
     .id = OPT_HTML,
     .help = "also write the report as one self-contained HTML page to FILE",
     .flags = CLI_FILE},
    {.like = &cli_opt_json},
    {.like = &cli_opt_verbose, .help = "every node's name, not the first few"},
    {0},
};

static int cmd_report(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

const struct cli_cmd cli_cmd_report = {
    .name = "report",
    .fn = cmd_report,
    .summary = "many machines' doctor --json documents as one table of nodes grouped by identical stacks",
    .opts = opts,
    .args = "[DOC|DIR|-]...",
    .args_kind = CLI_FILE,
    .about = "Reads doctor --json documents: files, directories (every *.json file in one, by name, not\n"
             "below) or '-' (standard input, one document per line; the default without arguments). A\n"
             "node is named by its document's facts.host.name, else by its file. Nodes with the same\n"
             "driver, GPUs, cuDNN installations (version and kind), CUDA toolkits, frameworks (and the\n"
             "cuDNN each loads), findings and area states are one group: one row of the table, with the\n"
             "worst severity of each doctor area. Then the findings by how many nodes have each. A\n"
             "document that cannot be read or is not a doctor document is listed as unreadable.",
    .more = "Exit status 0: every node is healthy (notes allowed); 1: a node has an error or a warning,\n"
            "or a document is unreadable; 2: bad command line; 4: out of memory or the page not written.",
};

static int cmd_report(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        cudnnctl_report *r = NULL;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        const char **docs = NULL, *html = NULL;
        size_t ndocs = 0, i;
        int json = 0, verbose = 0, id, status = CLI_OK, stdin_used = 0;

        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, cmd)) != CLI_END) {
                switch (id) {
                case CLI_OPT_JSON:
                        json = 1;
                        break;
                case CLI_OPT_VERBOSE:
                        verbose = 1;
                        break;
                case OPT_HTML:
                        html = p.arg;
                        break;
                case CLI_OPT_HELP:
                        cli_usage(cmd);
                        free((void *)docs);
                        return CLI_OK;
                case CLI_POSITIONAL: {
                        const char **nd = realloc((void *)docs, (ndocs + 1) * sizeof(*nd));

                        if (nd == NULL) {
                                cli_error(cmd, "out of memory");
                                free((void *)docs);
                                return CLI_FAILURE;
                        }
                        docs = nd;
                        docs[ndocs++] = p.arg;
                        break;
                }
                default:
                        free((void *)docs);
                        return CLI_USAGE;
                }
        }
        for (i = 0; i < ndocs; i++)
                if (strcmp(docs[i], "-") == 0 && stdin_used++) {
                        cli_error(cmd, "'-' (standard input) given twice");
                        free((void *)docs);
                        return CLI_USAGE;
                }
        r = cudnnctl_report_new(&err);
        if (r == NULL) {
                status = cli_fail(cmd, &err, CLI_SRC_TOOL);
                goto done;
        }
        for (i = 0; i < (ndocs ? ndocs : 1); i++)
                if (cudnnctl_report_add_path(r, ndocs ? docs[i] : "-", &err) < 0) {
                        status = cli_fail(cmd, &err, CLI_SRC_TOOL);
                        goto done;
                }
        if (cudnnctl_report_finish(r, &doc, &err) < 0) {
                status = cli_fail(cmd, &err, CLI_SRC_TOOL);
                goto done;
        }
        if (html != NULL) {
                char *page = NULL;

                if (cudnnctl_report_html(doc, &page, &err) < 0) {
                        status = cli_fail(cmd, &err, CLI_SRC_TOOL);
                        goto done;
                }
                if (cudnnctl_write_text(html, page, &err) < 0) {
                        cudnnctl_free(page);
                        cli_error(cmd, "%s", err.msg);
                        status = CLI_FAILURE;
                        goto done;
                }
                cudnnctl_free(page);
        }
        status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_report_text, verbose);
        if (status == CLI_OK) {
                const char *verdict = cudnnctl_value_str(cudnnctl_value_path(doc, "summary/verdict"));
                const cudnnctl_value *un = cudnnctl_value_get(doc, "unreadable");

                if ((verdict != NULL && strcmp(verdict, "healthy") != 0) || cudnnctl_value_len(un) > 0)
                        status = CLI_PROBLEM;
        }
done:
        cudnnctl_value_free(doc);
        cudnnctl_report_free(r);
        free((void *)docs);
        return status;
}
