/* cudnnctl who-uses PATH|INSTALL: the processes that have a library of it mapped. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_MAX_FILES = 1 };

static const struct cli_opt opts[] = {
    {.name = "max-files",
     .arg = "N",
     .id = OPT_MAX_FILES,
     .help = "library files asked about at most, below a directory (default 4096)"},
    {.like = &cli_opt_json},
    {.like = &cli_opt_verbose, .help = "also how each mapping was seen, and every file asked about"},
    {.like = &cli_opt_root, .help = "does not apply (an error): the processes run on this machine"},
    {0},
};

static int cmd_who_uses(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

const struct cli_cmd cli_cmd_who_uses = {
    .name = "who-uses",
    .fn = cmd_who_uses,
    .summary = "the processes that have a library of a file, directory or installation loaded",
    .opts = opts,
    .args = "PATH|INSTALL...",
    .args_kind = CLI_FILE,
    .about = "Lists the running processes that have a library mapped, with pid, name and command line:\n"
             "what keeps a DLL from being replaced on Windows, and what goes on running the old file after\n"
             "a replace on Linux. PATH: a library file (a link counts as the file it leads to) or a\n"
             "directory (every library file below it); INSTALL: an installation as 'cudnnctl list' names\n"
             "it, its id or its prefix (every library file of it). Linux reads /proc/*/maps, comparing\n"
             "files by device and inode (a renamed file or another link to it matches), a deleted file\n"
             "of the same path marked as such, and /proc/*/map_files where readable; Windows takes a\n"
             "module snapshot of each process and asks the Restart Manager. Another user's processes can\n"
             "be read only with privilege: they are counted, and root (an administrator) sees all.",
    .more = "Exit status 0: no process maps them; 1: a process does (in use); 3: no such file,\n"
            "directory or installation. Like doctor's 1, 1 says there is something to see to before\n"
            "replacing the files: 'cudnnctl who-uses FILE && cp NEW FILE' replaces only when unused.",
};

static int cmd_who_uses(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        cudnnctl_machine_options mo;
        cudnnctl_who_uses_options o;
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        const char **targets = NULL, *root = NULL;
        size_t ntargets = 0;
        int json = 0, verbose = 0, id, status = CLI_OK;
        char *end;

        memset(&o, 0, sizeof(o));
        memset(&mo, 0, sizeof(mo));
        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, cmd)) != CLI_END) {
                switch (id) {
                case CLI_OPT_JSON:
                        json = 1;
                        break;
                case CLI_OPT_VERBOSE:
                        verbose = 1;
                        break;
                case OPT_MAX_FILES: {
                        unsigned long v = strtoul(p.arg, &end, 10);

                        if (p.arg[0] < '0' || p.arg[0] > '9' || *end != '\0' || v < 1 || v > 1000000) {
                                cli_error(cmd, "--max-files: '%s' is not a number from 1 to 1000000", p.arg);
                                goto usage;
                        }
                        o.max_files = (size_t)v;
                        break;
                }
                case CLI_OPT_ROOT:
                        root = p.arg; /* refused below, after --help had its say */
                        break;
                case CLI_OPT_HELP:
                        cli_usage(cmd);
                        free((void *)targets);
                        return CLI_OK;
                case CLI_POSITIONAL: {
                        const char **nt = realloc((void *)targets, (ntargets + 1) * sizeof(*nt));

                        if (nt == NULL) {
                                cli_error(cmd, "out of memory");
                                free((void *)targets);
                                return CLI_FAILURE;
                        }
                        targets = nt;
                        targets[ntargets++] = p.arg;
                        break;
                }
                default:
                        goto usage;
                }
        }
        if (root != NULL) {
                cli_error(cmd, "looks at the processes running on this machine: --root does not apply");
                goto usage;
        }
        if (ntargets == 0) {
                cli_error(cmd, "no PATH or INSTALL given (see 'cudnnctl who-uses --help')");
                goto usage;
        }
        if (cudnnctl_machine_open(&mo, &m, &err) < 0) {
                status = cli_fail(cmd, &err, CLI_SRC_TOOL);
                goto done;
        }
        if (cudnnctl_who_uses(m, targets, ntargets, &o, &doc, &err) < 0) {
                status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
                goto done;
        }
        status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_who_uses_text, verbose);
        if (status == CLI_OK) {
                const char *verdict = cudnnctl_value_str(cudnnctl_value_get(doc, "verdict"));

                if (verdict != NULL && strcmp(verdict, "in-use") == 0)
                        status = CLI_PROBLEM;
        }
done:
        cudnnctl_value_free(doc);
        cudnnctl_machine_free(m);
        free((void *)targets);
        return status;
usage:
        free((void *)targets);
        return CLI_USAGE;
}
