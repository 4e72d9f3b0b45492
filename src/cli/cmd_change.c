/* cudnnctl uninstall, rollback, recover, history, use: the writing
 * commands besides install, each one transaction of the same engine. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#include <io.h>
#define cli_isatty(fd) _isatty(fd)
#else
#include <unistd.h>
#define cli_isatty(fd) isatty(fd)
#endif

enum { OPT_DRY_RUN = 1, OPT_YES, OPT_FORCE, OPT_NONE, OPT_CUDA, OPT_USER, OPT_SHELL, OPT_WRITE };

static const struct cli_opt opt_dry_run = {
    .name = "dry-run", .short_name = 'n', .id = OPT_DRY_RUN, .help = "print what would be done, and write nothing"};
static const struct cli_opt opt_yes = {
    .name = "yes", .short_name = 'y', .id = OPT_YES, .help = "do not ask before writing"};

static const struct cli_opt uninstall_opts[] = {
    {.like = &opt_dry_run},
    {.like = &opt_yes},
    {.name = "force", .id = OPT_FORCE, .help = "also remove files changed since they were installed"},
    {.like = &cli_opt_json},
    {.group = &cli_machine_group},
    {0},
};

static const struct cli_opt rollback_opts[] = {
    {.like = &opt_dry_run}, {.like = &opt_yes}, {.like = &cli_opt_json}, {.group = &cli_machine_group}, {0},
};

static const struct cli_opt recover_opts[] = {
    {.like = &opt_yes},
    {.like = &cli_opt_json},
    {.group = &cli_machine_group},
    {0},
};

static const struct cli_opt history_opts[] = {
    {.like = &cli_opt_json},
    {.group = &cli_machine_group},
    {0},
};

static const struct cli_opt use_opts[] = {
    {.name = "none", .id = OPT_NONE, .help = "take cudnnctl's setting away (the file it wrote)"},
    {.name = "cuda",
     .arg = "V",
     .id = OPT_CUDA,
     .help = "of a layout with a directory per CUDA build: that build (13, 12.9)"},
    {.name = "user",
     .id = OPT_USER,
     .help = "this user's shells instead: print the lines for the shell's start file (~/.bashrc,\n"
             "~/.zshrc, ~/.config/fish/config.fish, ~/.profile); Windows: this user's Path"},
    {.name = "shell",
     .arg = "NAME",
     .id = OPT_SHELL,
     .help = "with --user: sh, bash, zsh or fish (default: the shell this was started from)",
     .values = "sh bash zsh fish auto"},
    {.name = "write",
     .id = OPT_WRITE,
     .help = "with --user: write them into the start file as a marked block (replacing one written\n"
             "before; with --none: taking it out), one transaction 'rollback' undoes"},
    {.like = &opt_dry_run},
    {.like = &opt_yes},
    {.like = &cli_opt_json},
    {.group = &cli_machine_group},
    {0},
};

static int cmd_change(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

const struct cli_cmd cli_cmd_use = {
    .name = "use",
    .fn = cmd_change,
    .summary = "make one installation the machine's default cuDNN (and undo it)",
    .opts = use_opts,
    .args = "[INSTALL]",
    .args_kind = CLI_FILE,
    .about = "Linux: writes INSTALL's library directory into /etc/ld.so.conf.d/00-cudnnctl.conf (the first\n"
             "file there, so ldconfig puts it before the others), as one transaction of the engine\n"
             "install uses, then runs ldconfig (as root; 'ldconfig -r' for a --root tree) and shows what a\n"
             "plain program then loads for libcudnn.so.MAJOR. --none takes the file away. 'cudnnctl\n"
             "rollback /etc/ld.so.conf.d' undoes either. INSTALL is as 'cudnnctl env' takes it.\n"
             "Windows: edits the machine's Path in the registry (--user: this user's) directly, never through\n"
             "setx: read and written back as REG_EXPAND_SZ with %VARS% unexpanded, whole, other cuDNN\n"
             "directories taken off, the old value kept in the transaction for 'rollback'; then\n"
             "WM_SETTINGCHANGE tells new shells.",
    .more = "Exit status 1: stopped, or the transaction failed (and was undone); 3: INSTALL not found.",
};

const struct cli_cmd cli_cmd_uninstall = {
    .name = "uninstall",
    .fn = cmd_change,
    .summary = "remove what an install placed and put back what it replaced",
    .opts = uninstall_opts,
    .args = "INSTALL",
    .args_kind = CLI_DIR,
    .about = "Removes exactly the files an install placed (by its manifest, DIR/.cudnnctl/installed/ID.json)\n"
             "and puts back the files it replaced, from that install's backup, in one transaction. A file\n"
             "changed since it was installed is kept and named, unless --force. INSTALL is the target\n"
             "directory (when it holds one install) or the manifest.",
    .more = "Exit status 1: stopped, or the transaction failed (and was undone).",
};

const struct cli_cmd cli_cmd_rollback = {
    .name = "rollback",
    .fn = cmd_change,
    .summary = "undo the last install, uninstall, use or doctor fix of a target",
    .opts = rollback_opts,
    .args = "[DIR]",
    .args_kind = CLI_DIR,
    .about = "Undoes the last committed install, uninstall, use or doctor fix in DIR (without DIR: the\n"
             "last target this machine changed), from the backups that transaction kept, in one\n"
             "transaction of its own (after a use: ldconfig again).",
    .more = "Exit status 1: stopped (a backup is gone), or the transaction failed (and was undone);\n"
            "3: nothing to roll back.",
};

const struct cli_cmd cli_cmd_recover = {
    .name = "recover",
    .fn = cmd_change,
    .summary = "finish undoing an interrupted install, uninstall or rollback",
    .opts = recover_opts,
    .args = "[DIR]",
    .args_kind = CLI_DIR,
    .about = "Puts DIR (without DIR: the last target this machine changed) back as it was before a\n"
             "transaction that was interrupted (killed, a power loss, a full disk), from its journal in\n"
             "DIR/.cudnnctl. Every writing command does this first by itself on its target.",
    .more = NULL,
};

const struct cli_cmd cli_cmd_history = {
    .name = "history",
    .fn = cmd_change,
    .summary = "the transactions of a target: installs, uninstalls, rollbacks",
    .opts = history_opts,
    .args = "[DIR]",
    .args_kind = CLI_DIR,
    .about = "Lists the transactions recorded in DIR/.cudnnctl (without DIR: the last target this machine\n"
             "changed), oldest first, with what each did and whether it was rolled back.",
    .more = NULL,
};

static const char *use_cuda, *use_shell; /* use's --cuda, --shell, --none, --user, --write */
#ifdef _WIN32
static const int use_registry = 1; /* use edits the registry's Path, user's or machine's, directly */
#else
static const int use_registry = 0;
#endif
static int use_none, use_user, use_write;

/* Run the command once (dry is the dry-run flag). */
static int run(const struct cli_cmd *cmd, cudnnctl_machine *m, const char *arg, int dry, int force,
               cudnnctl_value **doc, cudnnctl_error *err)
{
        if (cmd == &cli_cmd_uninstall) {
                cudnnctl_uninstall_options o = {.install = arg, .dry_run = dry, .force = force};

                return cudnnctl_uninstall(m, &o, doc, err);
        }
        if (cmd == &cli_cmd_rollback) {
                cudnnctl_rollback_options o = {.target = arg, .dry_run = dry};

                return cudnnctl_rollback(m, &o, doc, err);
        }
        if (cmd == &cli_cmd_recover)
                return cudnnctl_recover(m, arg, doc, err);
        if (cmd == &cli_cmd_use) {
                cudnnctl_use_options o = {.install = arg,
                                          .cuda = use_cuda,
                                          .none = use_none,
                                          .dry_run = dry,
                                          .user = use_user,
                                          .shell = use_shell,
                                          .write = use_write};

                return cudnnctl_use(m, &o, doc, err);
        }
        return cudnnctl_history(m, arg, doc, err);
}

static const char *status_of(const cudnnctl_value *doc)
{
        return cudnnctl_value_str(cudnnctl_value_path(doc, "result/status"));
}

static int cmd_change(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        struct cli_machine cm = {0};
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        const char *arg = NULL;
        int json = 0, dry = 0, yes = 0, force = 0, id, status = CLI_OK, r;
        int writes = cmd != &cli_cmd_history;
        int (*text)(const cudnnctl_value *, int, int, char **, cudnnctl_error *) =
            cmd == &cli_cmd_history ? cudnnctl_history_text : cudnnctl_change_text;

        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, cmd)) != CLI_END) {
                if ((r = cli_machine_opt(&cm, id, p.arg, cmd)) != 0) {
                        if (r < 0)
                                goto usage;
                        continue;
                }
                switch (id) {
                case OPT_DRY_RUN:
                        dry = 1;
                        break;
                case OPT_YES:
                        yes = 1;
                        break;
                case OPT_FORCE:
                        force = 1;
                        break;
                case OPT_NONE:
                        use_none = 1;
                        break;
                case OPT_CUDA:
                        use_cuda = p.arg;
                        break;
                case OPT_USER:
                        use_user = 1;
                        break;
                case OPT_SHELL:
                        use_shell = p.arg;
                        break;
                case OPT_WRITE:
                        use_write = 1;
                        break;
                case CLI_OPT_JSON:
                        json = 1;
                        break;
                case CLI_OPT_HELP:
                        cli_usage(cmd);
                        cli_machine_free(&cm);
                        return CLI_OK;
                case CLI_POSITIONAL:
                        if (arg != NULL) {
                                cli_error(cmd, "one %s only", cmd->args);
                                goto usage;
                        }
                        arg = p.arg;
                        break;
                default:
                        goto usage;
                }
        }
        if (cmd == &cli_cmd_use && (arg == NULL) == !use_none) {
                cli_error(cmd, arg == NULL ? "no INSTALL given, and no --none (see 'cudnnctl use --help')"
                                           : "INSTALL or --none, not both");
                goto usage;
        }
        if (cmd == &cli_cmd_uninstall && arg == NULL) {
                cli_error(cmd, "no INSTALL given (see 'cudnnctl uninstall --help')");
                goto usage;
        }
        if (cmd == &cli_cmd_use && use_registry && (use_write || use_shell != NULL)) {
                cli_error(cmd, "--write and --shell are for a shell's start file: on Windows use writes the "
                               "registry's Path (--user: this user's)");
                goto usage;
        }
        if (cmd == &cli_cmd_use && !use_user && (use_write || use_shell != NULL)) {
                cli_error(cmd, "--write and --shell go with --user");
                goto usage;
        }
        if (cmd == &cli_cmd_use && use_user && !use_registry) {
                if (use_shell == NULL || strcmp(use_shell, "auto") == 0)
                        use_shell = cudnnctl_env_parent_shell();
                if (use_shell == NULL || strcmp(use_shell, "cmd") == 0 || strcmp(use_shell, "powershell") == 0)
                        use_shell = "sh";
                writes = use_write;
        }
        status = cli_machine_open(&cm, cmd, &m);
        if (status != CLI_OK)
                goto done;
        if (writes && !dry && !yes) {
                char answer[16];

                if (!cli_isatty(0)) {
                        cli_error(cmd, "standard input is not a terminal: give --yes to go ahead without a prompt%s",
                                  cmd == &cli_cmd_recover ? "" : " (or --dry-run to see what would be done)");
                        status = CLI_USAGE;
                        goto done;
                }
                if (cmd != &cli_cmd_recover) {
                        if (run(cmd, m, arg, 1, force, &doc, &err) < 0) {
                                status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
                                goto done;
                        }
                        status = cli_print_doc(cmd, doc, json, env->color_ok, text, 0);
                        r = status_of(doc) != NULL && strcmp(status_of(doc), "planned") != 0;
                        cudnnctl_value_free(doc);
                        doc = NULL;
                        if (status != CLI_OK || r) {
                                status = status != CLI_OK ? status : CLI_PROBLEM;
                                goto done;
                        }
                }
                fprintf(stderr, "Go ahead? [y/N] ");
                fflush(stderr);
                if (fgets(answer, sizeof(answer), stdin) == NULL || (answer[0] != 'y' && answer[0] != 'Y')) {
                        fprintf(stderr, "nothing was written\n");
                        status = CLI_PROBLEM;
                        goto done;
                }
        }
        if (run(cmd, m, arg, dry, force, &doc, &err) < 0) {
                status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
                goto done;
        }
        if (cmd == &cli_cmd_use && use_user && !use_registry && !use_write && !json) {
                /* the lines themselves, for the user to add */
                const char *lines = cudnnctl_value_str(cudnnctl_value_get(doc, "lines"));
                const char *file = cudnnctl_value_str(cudnnctl_value_get(doc, "file"));

                if (lines != NULL && (fputs(lines, stdout) == EOF || fflush(stdout) != 0)) {
                        cli_error(cmd, "cannot write to standard output");
                        status = CLI_FAILURE;
                        goto done;
                }
                fprintf(stderr, "cudnnctl use: %s %s (or give --write to do it as one transaction)\n",
                        lines != NULL ? "add these lines to" : "take the cudnnctl block out of", file ? file : "?");
                goto done;
        }
        status = cli_print_doc(cmd, doc, json, env->color_ok, text, 0);
        if (status == CLI_OK && writes && cmd != &cli_cmd_recover) {
                const char *st = status_of(doc);

                if (st == NULL || strcmp(st, "stopped") == 0 || strcmp(st, "failed") == 0)
                        status = CLI_PROBLEM;
        }
done:
        cudnnctl_value_free(doc);
        cudnnctl_machine_free(m);
        cli_machine_free(&cm);
        return status;
usage:
        cli_machine_free(&cm);
        return CLI_USAGE;
}
