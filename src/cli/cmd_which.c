/* cudnnctl which NAME: where the loader finds a library, and what it shadows. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_ALL = 1, OPT_FROM };

static const struct cli_opt opts[] = {
    {.name = "from",
     .arg = "FILE",
     .id = OPT_FROM,
     .help = "resolve as this program or library would (its RPATH/RUNPATH and $ORIGIN,\n"
             "its application directory)",
     .flags = CLI_FILE},
    {.name = "all",
     .short_name = 'a',
     .id = OPT_ALL,
     .help = "also print every place tried, and search the whole machine: the installation of\n"
             "every copy (by the ids of 'cudnnctl list') and the copies on no search path"},
    {.like = &cli_opt_json},
    {.group = &cli_machine_group},
    {.group = &cli_resolve_group},
    {0},
};

static int cmd_which(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

const struct cli_cmd cli_cmd_which = {
    .name = "which",
    .fn = cmd_which,
    .summary = "where the loader finds a library, step by step, and the copies it shadows",
    .opts = opts,
    .args = "NAME...",
    .about = "Answers which copy a program loads, as ld.so or the Windows loader would search for it: the\n"
             "winner, how it was found (RPATH, LD_LIBRARY_PATH, RUNPATH, ld.so.cache, default directories;\n"
             "application directory, KnownDLLs, System32, Windows directory, current directory, PATH...),\n"
             "every place tried in order, every copy it shadows with its versions, and copies that are on\n"
             "the machine but on no search path (with --all, or when a NAME is found nowhere: otherwise only\n"
             "the directories of the copies found are read, for the installation and version they belong to).\n"
             "A NAME is a file name (libcudnn.so.9, cudnn64_8.dll) or a\n"
             "short cuDNN name (cudnn, cudnn_ops, cudnn_cnn_infer): then the names of every major are tried.",
    .more = "Exit status 3: not found; 1: found, but the loader stops on a bad copy.",
};

static int cmd_which(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        struct cli_machine cm = {0};
        struct cli_resolve cr;
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        const char **names = NULL;
        size_t nnames = 0;
        int json = 0, all = 0, id, status = CLI_OK, r;

        cli_resolve_init(&cr);
        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, cmd)) != CLI_END) {
                if ((r = cli_machine_opt(&cm, id, p.arg, cmd)) != 0 ||
                    (r = cli_resolve_opt(&cr, id, p.arg, cmd)) != 0) {
                        if (r < 0)
                                goto usage;
                        continue;
                }
                switch (id) {
                case CLI_OPT_JSON:
                        json = 1;
                        break;
                case OPT_ALL:
                        all = 1;
                        cr.o.everywhere = 1;
                        break;
                case OPT_FROM:
                        cr.o.from = p.arg;
                        break;
                case CLI_OPT_HELP:
                        cli_usage(cmd);
                        cli_machine_free(&cm);
                        cli_resolve_free(&cr);
                        free((void *)names);
                        return CLI_OK;
                case CLI_POSITIONAL: {
                        const char **nn = realloc((void *)names, (nnames + 1) * sizeof(*nn));

                        if (nn == NULL) {
                                cli_error(cmd, "out of memory");
                                goto usage;
                        }
                        names = nn;
                        names[nnames++] = p.arg;
                        break;
                }
                default:
                        goto usage;
                }
        }
        if (nnames == 0) {
                cli_error(cmd, "no NAME given (see 'cudnnctl which --help')");
                goto usage;
        }
        status = cli_machine_open(&cm, cmd, &m);
        if (status != CLI_OK)
                goto done;
        if (cudnnctl_which(m, names, nnames, &cr.o, &doc, &err) < 0) {
                status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
                goto done;
        }
        status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_which_text, all);
        if (status == CLI_OK) {
                const char *verdict = cudnnctl_value_str(cudnnctl_value_get(doc, "verdict"));

                if (verdict != NULL && strcmp(verdict, "not-found") == 0)
                        status = CLI_NOTFOUND;
                else if (verdict != NULL && strcmp(verdict, "fails") == 0)
                        status = CLI_PROBLEM;
        }
done:
        cudnnctl_value_free(doc);
        cudnnctl_machine_free(m);
        cli_machine_free(&cm);
        cli_resolve_free(&cr);
        free((void *)names);
        return status;
usage:
        cli_machine_free(&cm);
        cli_resolve_free(&cr);
        free((void *)names);
        return CLI_USAGE;
}
