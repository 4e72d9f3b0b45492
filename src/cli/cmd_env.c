/* cudnnctl env INSTALL and cudnnctl exec INSTALL -- COMMAND: one
 * installation first for one shell or one program. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_SHELL = 1, OPT_UNSET, OPT_OUTPUT, OPT_CUDA };

static const struct cli_opt env_opts[] = {
    {.name = "shell",
     .arg = "NAME",
     .id = OPT_SHELL,
     .help = "write for this shell: sh, bash, zsh, fish, cmd (a batch file), powershell; auto\n"
             "(the default): the shell this was started from (sh when it is none of them)",
     .values = "sh bash zsh fish cmd powershell auto"},
    {.name = "unset",
     .id = OPT_UNSET,
     .help = "the commands that undo it: what the shell had before its first env, or without an\n"
             "env before, INSTALL's directories taken off and CUDNN_PATH/CUDNN_HOME unset"},
    {.name = "output",
     .short_name = 'o',
     .arg = "FILE",
     .id = OPT_OUTPUT,
     .help = "write the commands to FILE (a .bat for cmd)",
     .flags = CLI_FILE},
    {.name = "cuda",
     .arg = "V",
     .id = OPT_CUDA,
     .help = "of a layout with a directory per CUDA build (bin\\13.0): that build (13, 12.9)"},
    {.like = &cli_opt_json, .help = "the changes as a document instead of commands"},
    {.group = &cli_machine_group},
    {0},
};

static const struct cli_opt exec_opts[] = {
    {.name = "cuda",
     .arg = "V",
     .id = OPT_CUDA,
     .help = "of a layout with a directory per CUDA build (bin\\13.0): that build (13, 12.9)"},
    {0},
};

static int cmd_env(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);
static int cmd_exec(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

#define ABOUT_WHAT                                                                                                     \
        "INSTALL's library directory first on LD_LIBRARY_PATH (Windows: its DLL directory, and the\n"                  \
        "bin directory of the CUDA toolkit whose cuBLAS it loads, first on PATH); the directories of\n"                \
        "other cuDNN installations, and empty or relative entries, taken off (a directory that also\n"                 \
        "holds CUDA's own libraries stays, after it); CUDNN_PATH and CUDNN_HOME set to its prefix\n"                   \
        "(build systems and cudnn-frontend read them). INSTALL is an id from 'cudnnctl list', a\n"                     \
        "release (9.19, 9.19.0.56), a prefix, a directory or library inside it, or a package name.\n"

const struct cli_cmd cli_cmd_env = {
    .name = "env",
    .fn = cmd_env,
    .summary = "the commands that make one installation the cuDNN of this shell (and undo it)",
    .opts = env_opts,
    .args = "[INSTALL]",
    .args_kind = CLI_FILE,
    .about = "Prints the commands that make INSTALL the cuDNN of the current shell only:\n" ABOUT_WHAT
             "Nothing else changes: a new shell is as before. The values replaced are kept in the shell\n"
             "(CUDNNCTL_SAVED_*, with CUDNNCTL_ENV naming the installation) for --unset.\n"
             "  eval \"$(cudnnctl env 9.19)\"                      sh, bash, zsh\n"
             "  cudnnctl env 9.19 --shell fish | source\n"
             "  cudnnctl env 9.19 --shell powershell | Invoke-Expression\n"
             "  cudnnctl env 9.19 --shell cmd -o cudnn919.bat     then: call cudnn919.bat",
    .more = "Exit status 3: INSTALL not found (or, with --unset and no INSTALL, no env to undo).",
};

const struct cli_cmd cli_cmd_exec = {
    .name = "exec",
    .fn = cmd_exec,
    .summary = "run one command with one installation as its cuDNN",
    .opts = exec_opts,
    .args = "INSTALL [--] COMMAND [ARG]...",
    .args_kind = CLI_PROGRAM,
    .about = "Runs COMMAND with the environment 'cudnnctl env INSTALL' gives a shell:\n" ABOUT_WHAT
             "Everything after COMMAND is its own. Its exit status is passed through.\n"
             "On Windows, Python 3.8 and later ignore PATH for the DLLs of extension modules: such a\n"
             "program loads the cuDNN with os.add_dll_directory() before importing, or through\n"
             "CUDNN_PATH where its framework reads it (said on standard error when COMMAND is Python).",
    .more = "Exit status: COMMAND's; 3 when INSTALL is not found; 127 when COMMAND cannot be found, 126\n"
            "when it cannot be run.",
};

static int print_or_write(const struct cli_cmd *cmd, const char *text, const char *output)
{
        cudnnctl_error err = {0};

        if (output == NULL) {
                if (fputs(text, stdout) == EOF || fflush(stdout) != 0) {
                        cli_error(cmd, "cannot write to standard output");
                        return CLI_FAILURE;
                }
                return CLI_OK;
        }
        if (cudnnctl_write_text(output, text, &err) < 0)
                return cli_fail(cmd, &err, CLI_SRC_ARGS);
        return CLI_OK;
}

static int cmd_env(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        struct cli_machine cm = {0};
        cudnnctl_env_options eo;
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        const char *shell = "auto", *output = NULL;
        char *text = NULL;
        int json = 0, id, status = CLI_OK, r;

        memset(&eo, 0, sizeof(eo));
        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, cmd)) != CLI_END) {
                if ((r = cli_machine_opt(&cm, id, p.arg, cmd)) != 0) {
                        if (r < 0)
                                goto usage;
                        continue;
                }
                switch (id) {
                case OPT_SHELL:
                        shell = p.arg;
                        break;
                case OPT_UNSET:
                        eo.unset = 1;
                        break;
                case OPT_OUTPUT:
                        output = p.arg;
                        break;
                case OPT_CUDA:
                        eo.cuda = p.arg;
                        break;
                case CLI_OPT_JSON:
                        json = 1;
                        break;
                case CLI_OPT_HELP:
                        cli_usage(cmd);
                        cli_machine_free(&cm);
                        return CLI_OK;
                case CLI_POSITIONAL:
                        if (eo.install != NULL) {
                                cli_error(cmd, "one INSTALL at a time ('%s' and '%s')", eo.install, p.arg);
                                goto usage;
                        }
                        eo.install = p.arg;
                        break;
                default:
                        goto usage;
                }
        }
        if (eo.install == NULL && !eo.unset) {
                cli_error(cmd, "no INSTALL given (see 'cudnnctl env --help')");
                goto usage;
        }
        if (strcmp(shell, "auto") == 0) {
                shell = cudnnctl_env_parent_shell();
                if (shell == NULL)
                        shell = "sh";
        }
        status = cli_machine_open(&cm, cmd, &m);
        if (status != CLI_OK)
                goto done;
        if (cudnnctl_env(m, &eo, &doc, &err) < 0) {
                status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
                goto done;
        }
        if (json) {
                status = cli_print_doc(cmd, doc, 1, 0, NULL, 0);
                goto done;
        }
        if (cudnnctl_env_script(doc, shell, &text, &err) < 0) {
                status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
                goto done;
        }
        status = print_or_write(cmd, text, output);
done:
        free(text);
        cudnnctl_value_free(doc);
        cudnnctl_machine_free(m);
        cli_machine_free(&cm);
        return status;
usage:
        cli_machine_free(&cm);
        return CLI_USAGE;
}

static int is_python(const char *prog)
{
        const char *b = prog, *s;

        for (s = prog; *s; s++)
                if (*s == '/' || *s == '\\')
                        b = s + 1;
        return strncmp(b, "python", 6) == 0 || strcmp(b, "py") == 0 || strcmp(b, "py.exe") == 0;
}

static int cmd_exec(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        cudnnctl_machine_options mo;
        cudnnctl_env_options eo;
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        const char **command = NULL;
        int id, status = CLI_OK, child = 0, i;

        memset(&eo, 0, sizeof(eo));
        cli_parser_init(&p, argc, argv);
        while (command == NULL && (id = cli_next(&p, cmd)) != CLI_END) {
                switch (id) {
                case OPT_CUDA:
                        eo.cuda = p.arg;
                        break;
                case CLI_OPT_HELP:
                        cli_usage(cmd);
                        return CLI_OK;
                case CLI_POSITIONAL:
                        if (eo.install == NULL) {
                                eo.install = p.arg;
                                break;
                        }
                        /* COMMAND: it and everything after it are the command's */
                        command = calloc((size_t)(argc - p.i) + 2, sizeof(*command));
                        if (command == NULL) {
                                cli_error(cmd, "out of memory");
                                return CLI_FAILURE;
                        }
                        command[0] = p.arg;
                        for (i = p.i; i < argc; i++)
                                command[i - p.i + 1] = argv[i];
                        break;
                default:
                        return CLI_USAGE;
                }
        }
        if (command == NULL) {
                cli_error(cmd, eo.install == NULL ? "no INSTALL and no COMMAND given (see 'cudnnctl exec --help')"
                                                  : "no COMMAND given (see 'cudnnctl exec --help')");
                return CLI_USAGE;
        }
        memset(&mo, 0, sizeof(mo));
        if (cudnnctl_machine_open(&mo, &m, &err) < 0) {
                status = cli_fail(cmd, &err, CLI_SRC_TOOL);
                goto done;
        }
        if (cudnnctl_env(m, &eo, &doc, &err) < 0) {
                status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
                goto done;
        }
        if (is_python(command[0])) {
                const cudnnctl_value *notes = cudnnctl_value_get(doc, "notes");
                size_t k;

                for (k = 0; k < cudnnctl_value_len(notes); k++) {
                        const char *n = cudnnctl_value_str(cudnnctl_value_at(notes, k));

                        if (n != NULL && strstr(n, "os.add_dll_directory") != NULL)
                                fprintf(stderr, "cudnnctl exec: note: %s\n", n);
                }
        }
        fflush(stdout);
        fflush(stderr);
        if (cudnnctl_exec(doc, command, &child, &err) < 0) {
                cli_error(cmd, "%s", err.msg);
                status = child;
                goto done;
        }
        status = child;
done:
        free(command);
        cudnnctl_value_free(doc);
        cudnnctl_machine_free(m);
        return status;
}
