/* The cudnnctl program: argument parsing and rendering only; every fact comes
 * from libcudnnctl. */
#ifndef CUDNNCTL_CLI_H
#define CUDNNCTL_CLI_H

#include <stdio.h>

#include "cudnnctl/cudnnctl.h"

/* Exit statuses (documented in the README and in --help). */
enum {
        CLI_OK = 0,       /* done; nothing wrong found */
        CLI_PROBLEM = 1,  /* done; a problem was found (an input could not be read or parsed...) */
        CLI_USAGE = 2,    /* bad command line */
        CLI_NOTFOUND = 3, /* what was asked for does not exist */
        CLI_FAILURE = 4,  /* the tool itself failed: out of memory, cannot write output */
};

struct cli_env {
        const char *prog; /* "cudnnctl" */
        int color_ok;     /* stdout is a terminal and NO_COLOR is not set */
};

struct cli_cmd {
        const char *name;
        int (*fn)(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);
        const char *summary; /* one line for the command list */
        const char *usage;   /* the whole -h text after "usage: cudnnctl " */
};

extern const struct cli_cmd cli_commands[];
extern const size_t cli_ncommands;

/* Options: a small permuting parser ("--name", "--name=value", "--name value",
 * "-x", "--" ends options). */
struct cli_opt {
        const char *name; /* long name without "--" */
        char short_name;  /* 0 if none */
        int has_arg;
        int id;
};

struct cli_parser {
        int argc;
        char **argv;
        int i;           /* next argv index */
        int done;        /* saw "--" */
        const char *arg; /* the option's argument or the positional argument */
};

#define CLI_POSITIONAL (-1)
#define CLI_END (-2)
#define CLI_ERROR (-3)

void cli_parser_init(struct cli_parser *p, int argc, char **argv);
/* The next option id, CLI_POSITIONAL (p->arg is the word), CLI_END, or
 * CLI_ERROR (after printing one line to stderr). */
int cli_next(struct cli_parser *p, const struct cli_opt *opts, const struct cli_cmd *cmd);

/* Print "cudnnctl CMD: message" to stderr. */
void cli_error(const struct cli_cmd *cmd, const char *fmt, ...)
#if defined(__MINGW32__)
    __attribute__((format(gnu_printf, 2, 3)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Print the command's usage to stdout (for -h). */
void cli_usage(const struct cli_cmd *cmd);
/* --timeout SECONDS: 1 to 3600 into *ms; -1 (after printing why) otherwise. */
int cli_timeout_ms(const struct cli_cmd *cmd, const char *arg, int *ms);
/* The whole of file PATH, or of standard input for "-", NUL-terminated, its
 * length in *len; at most MAX bytes (a positive number of MiB). NULL after
 * printing "WHAT PATH: why" (WHAT: "" or an option and a space); *status
 * then says why as an exit status: CLI_NOTFOUND (no such file), CLI_PROBLEM
 * (it cannot be read: a directory, over MAX, no permission, a read error) or
 * CLI_FAILURE (out of memory). Free the result. */
char *cli_read_input(const struct cli_cmd *cmd, const char *what, const char *path, size_t max, size_t *len,
                     int *status);
/* Write a string to stdout; returns -1 on a write error. */
int cli_write(const char *s);

/* --root DIR, --system linux|windows, --env FILE, --set VAR=VALUE: the
 * machine a command reads. Put CLI_MACHINE_OPTS in an option table. */
enum { CLI_OPT_ROOT = 1000, CLI_OPT_SYSTEM, CLI_OPT_ENV, CLI_OPT_SET };
#define CLI_MACHINE_OPTS                                                                                               \
        {"root", 0, 1, CLI_OPT_ROOT}, {"system", 0, 1, CLI_OPT_SYSTEM}, {"env", 0, 1, CLI_OPT_ENV},                    \
        {                                                                                                              \
                "set", 0, 1, CLI_OPT_SET                                                                               \
        }
#define CLI_MACHINE_HELP                                                                                               \
        "  --root DIR        read the tree inside DIR as if DIR were / (C:\\ with --system windows);\n"                \
        "                    the environment then starts empty\n"                                                      \
        "  --system SYS      emulate linux or windows (default: this system)\n"                                        \
        "  --env FILE        environment variables from FILE (KEY=VALUE lines)\n"                                      \
        "  --set VAR=VALUE   set one environment variable (repeatable; PWD / CD: the current directory)\n"

struct cli_machine {
        cudnnctl_machine_options o;
        const char **set;
        size_t nset;
};

/* 1 if id was a machine option (taken), 0 if not, -1 on a bad value (printed). */
int cli_machine_opt(struct cli_machine *cm, int id, const char *arg, const struct cli_cmd *cmd);
/* Open the machine; on failure prints one line and returns the exit status. */
int cli_machine_open(struct cli_machine *cm, const struct cli_cmd *cmd, cudnnctl_machine **m);
void cli_machine_free(struct cli_machine *cm);
/* Print a result document as JSON or through its text renderer. */
int cli_print_doc(const struct cli_cmd *cmd, const cudnnctl_value *doc, int json, int color,
                  int (*text)(const cudnnctl_value *, int, int, char **, cudnnctl_error *), int verbose);

/* --win-mode, --win-search, --safe-search, --add-dll-dir, --set-dll-dir:
 * how the Windows loader is asked (which, deps). */
enum { CLI_OPT_WIN_MODE = 1100, CLI_OPT_WIN_SEARCH, CLI_OPT_SAFE_SEARCH, CLI_OPT_ADD_DLL_DIR, CLI_OPT_SET_DLL_DIR };
#define CLI_RESOLVE_OPTS                                                                                               \
        {"win-mode", 0, 1, CLI_OPT_WIN_MODE}, {"win-search", 0, 1, CLI_OPT_WIN_SEARCH},                                \
            {"safe-search", 0, 1, CLI_OPT_SAFE_SEARCH}, {"add-dll-dir", 0, 1, CLI_OPT_ADD_DLL_DIR},                    \
        {                                                                                                              \
                "set-dll-dir", 0, 1, CLI_OPT_SET_DLL_DIR                                                               \
        }
#define CLI_RESOLVE_HELP                                                                                               \
        "Windows loader (with --system windows or on Windows):\n"                                                      \
        "  --win-mode MODE   standard (LoadLibrary, the default), altered (LOAD_WITH_ALTERED_SEARCH_PATH),\n"          \
        "                    search (LOAD_LIBRARY_SEARCH_* flags, see --win-search), python (how\n"                    \
        "                    Python >= 3.8 loads extension modules: PATH is not searched)\n"                           \
        "  --win-search LIST dll-dir,app,user,system32,default (LOAD_LIBRARY_SEARCH_* flags)\n"                        \
        "  --safe-search on|off  SafeDllSearchMode (default: the registry's, on when unknown)\n"                       \
        "  --add-dll-dir DIR AddDllDirectory / os.add_dll_directory (repeatable)\n"                                    \
        "  --set-dll-dir DIR SetDllDirectory\n"

struct cli_resolve {
        cudnnctl_which_options o;
        const char **dirs;
        size_t ndirs;
};

void cli_resolve_init(struct cli_resolve *cr);
int cli_resolve_opt(struct cli_resolve *cr, int id, const char *arg, const struct cli_cmd *cmd);
void cli_resolve_free(struct cli_resolve *cr);

int cmd_inspect(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);
int cmd_list(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);
int cmd_which(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);
int cmd_deps(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);
int cmd_verify(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);
int cmd_compat(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);
int cmd_doctor(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);
int cmd_explain(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);
int cmd_frameworks(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

#endif
