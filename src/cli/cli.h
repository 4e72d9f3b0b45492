/* The cudnnctl program: argument parsing and rendering only; every fact comes
 * from libcudnnctl. */
#ifndef CUDNNCTL_CLI_H
#define CUDNNCTL_CLI_H

#include <stdio.h>

#include "cudnnctl/cudnnctl.h"

/* Exit statuses (their meanings: cli_statuses[] in status.c, printed by
 * --help and the manual page, and in the README). */
enum {
        CLI_OK = 0,       /* done; nothing wrong found */
        CLI_PROBLEM = 1,  /* done; a problem was found (an input could not be read or parsed...) */
        CLI_USAGE = 2,    /* bad command line */
        CLI_NOTFOUND = 3, /* what was asked for does not exist */
        CLI_FAILURE = 4,  /* the tool itself failed: out of memory, cannot write output */
};

struct cli_cmd;

struct cli_status_doc {
        int status;
        const char *meaning;
};
extern const struct cli_status_doc cli_statuses[];
extern const size_t cli_nstatuses;

/* What a failed library call was working on. The library's error code says
 * what went wrong (cudnnctl_error.code); this says whose fault that is, so
 * that an unreadable file is a problem found when the command examines it, a
 * bad command line when the command line named it to set the command up,
 * and the tool's own failure when it is the tool's own data or workspace. */
enum cli_source {
        CLI_SRC_MACHINE, /* the machine or the files the command examines */
        CLI_SRC_ARGS,    /* what the command line names to set it up: --root, --env, --set, --facts */
        CLI_SRC_TOOL,    /* the tool's own work: compiled-in tables, its private directory, its children */
};
#define CLI_NSOURCES 3
/* The exit status of a failed library call: the one mapping every command
 * uses (the table is in status.c and in the README's "Exit status"). */
int cli_exit_status(const cudnnctl_error *err, enum cli_source src);
/* Print err's message (one line) and return cli_exit_status(err, src). */
int cli_fail(const struct cli_cmd *cmd, const cudnnctl_error *err, enum cli_source src);

struct cli_env {
        const char *prog; /* "cudnnctl" */
        int color_ok;     /* stdout is a terminal and NO_COLOR is not set */
};

/* ---- option tables ---------------------------------------------------------
 *
 * Each command declares its options once, in one table next to its code:
 * the parser, --help, the manual page and the shell completions are all made
 * from it, in its order. An entry is one of
 *   {.name = "max-dirs", .arg = "N", .id = OPT_MAX_DIRS, .help = "..."}
 *                               an option of this command (with .short_name,
 *                               .flags, .values where it has them), handled
 *                               in the command's switch by its id;
 *   {.like = &cli_opt_json}     a shared option (its own help, or .help here
 *                               when this command's differs);
 *   {.group = &cli_machine_group}
 *                               a shared group, all its options at this place,
 *                               handled by the group's function
 *                               (cli_machine_opt, cli_resolve_opt);
 * and the table ends with {0}. -h/--help is every command's (cli_opt_help,
 * id CLI_OPT_HELP) and is not in the tables. */

/* flags */
#define CLI_REPEAT 0x01u  /* may be given again: "[--set VAR=VALUE]..." */
#define CLI_OR_PREV 0x02u /* the usage line joins it to the option before: "[--gpu|--no-gpu]" */
#define CLI_IN_ARGS 0x04u /* the command's operand synopsis names it: not again in the usage line */
/* what the argument is, for the completions (none of these: a word) */
#define CLI_FILE 0x10u
#define CLI_DIR 0x20u
#define CLI_PROGRAM 0x40u
#define CLI_KIND_MASK 0x70u

struct cli_optgroup;

struct cli_opt {
        const char *name;                 /* long name without "--" */
        char short_name;                  /* 0 if none */
        const char *arg;                  /* the argument as help names it ("DIR", "on|off"); NULL: takes none */
        int id;                           /* what cli_next returns for it */
        const char *help;                 /* lines separated by '\n' */
        unsigned flags;                   /* CLI_REPEAT... and the argument's kind */
        const char *values;               /* the argument's only values, space-separated ("linux windows"), or NULL */
        const struct cli_opt *like;       /* a shared option, see above */
        const struct cli_optgroup *group; /* a shared group, see above */
};

struct cli_optgroup {
        const char *name;           /* for the tests' table dump: "machine" */
        const char *title;          /* a line before its options in --help, or NULL */
        const struct cli_opt *opts; /* options or .like entries, ended by {0} */
};

/* One option of a table with .like and .group resolved. */
struct cli_optref {
        const struct cli_opt *o;          /* name, short_name, arg, id, values */
        const char *help;                 /* this command's help of it */
        unsigned flags;                   /* the shared option's and the entry's */
        const struct cli_optgroup *group; /* the shared group it is of, or NULL */
};
struct cli_optiter {
        const struct cli_opt *top; /* the command's table, at the next entry */
        const struct cli_opt *sub; /* inside a group, at its next entry; or NULL */
        const struct cli_optgroup *group;
        int help_done;
};
/* Every option of a table in order, -h/--help last:
 *   cli_optiter_init(&it, cmd->opts); while (cli_optiter_next(&it, &r)) ... */
void cli_optiter_init(struct cli_optiter *it, const struct cli_opt *table);
int cli_optiter_next(struct cli_optiter *it, struct cli_optref *r);

/* Shared options and groups (args.c, machine_opts.c, resolve_opts.c). */
enum {
        CLI_OPT_HELP = 900,
        CLI_OPT_JSON,
        CLI_OPT_VERBOSE,
        CLI_OPT_TIMEOUT,
        CLI_OPT_GPU,
        CLI_OPT_NO_GPU,
};
extern const struct cli_opt cli_opt_help, cli_opt_json, cli_opt_verbose, cli_opt_timeout, cli_opt_gpu, cli_opt_no_gpu;

/* One subcommand. The help of `cudnnctl NAME --help` is: the usage line made
 * from the table, `about`, the options from the table, `more`, the exit
 * statuses. */
struct cli_cmd {
        const char *name;
        int (*fn)(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);
        const char *summary;        /* one line for the command list */
        const struct cli_opt *opts; /* its option table */
        const char *args;           /* its operands for the usage line ("NAME...", "[INSTALL]"), or NULL */
        unsigned args_kind;         /* CLI_FILE...: what its operands are, for the completions */
        const char *about;          /* what it does: the help before the options */
        const char *more;           /* the help after the options (its exit statuses...), or NULL */
};

/* The commands, in the order of `cudnnctl --help` (main.c). */
extern const struct cli_cmd *const cli_commands[];
extern const size_t cli_ncommands;
extern const struct cli_cmd cli_cmd_doctor, cli_cmd_frameworks, cli_cmd_inspect, cli_cmd_list, cli_cmd_which,
    cli_cmd_deps, cli_cmd_verify, cli_cmd_compat, cli_cmd_explain;
extern const struct cli_cmd cli_cmd_who_uses;
extern const struct cli_cmd cli_cmd_report;
extern const struct cli_cmd cli_cmd_diff;
extern const struct cli_cmd cli_cmd_install, cli_cmd_uninstall, cli_cmd_rollback, cli_cmd_recover, cli_cmd_history;
extern const struct cli_cmd cli_cmd_fetch;
extern const struct cli_cmd cli_cmd_plan;
extern const struct cli_cmd cli_cmd_env, cli_cmd_exec, cli_cmd_use;
/* The options fetch and install VERSION share (cmd_fetch.c): --source
 * redist|pypi and --cuda MAJOR into their values; -1 after printing why. */
int cli_fetch_source(const struct cli_cmd *cmd, const char *arg, int *source);
int cli_fetch_cuda_major(const struct cli_cmd *cmd, const char *arg, int *major);
/* The machine's facts (a doctor document) for fetch's choice, set as
 * fo->facts (*facts: the caller frees), when the fetch is for this machine
 * and its release or CUDA variant is left open; else *facts NULL. */
struct cli_machine;
int cli_fetch_facts(const struct cli_cmd *cmd, struct cli_machine *cm, cudnnctl_fetch_options *fo,
                    cudnnctl_value **facts);
/* The program's own description, for --help and the manual page. */
extern const char cli_about[];

/* ---- parsing ----------------------------------------------------------------
 * A small permuting parser over a command's table ("--name", "--name=value",
 * "--name value", "-x", "-x value", "--" ends options). */
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
/* The next option id (CLI_OPT_HELP for -h/--help), CLI_POSITIONAL (p->arg is
 * the word), CLI_END, or CLI_ERROR (after printing one line to stderr). */
int cli_next(struct cli_parser *p, const struct cli_cmd *cmd);

/* Print "cudnnctl CMD: message" to stderr. */
void cli_error(const struct cli_cmd *cmd, const char *fmt, ...)
#if defined(__MINGW32__)
    __attribute__((format(gnu_printf, 2, 3)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
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

/* ---- help (help.c) ------------------------------------------------------- */

/* One item of a usage line: "[--gpu|--no-gpu]" is one item of two choices. */
enum { CLI_MAX_CHOICES = 4 };
struct cli_uitem {
        struct cli_optref choice[CLI_MAX_CHOICES];
        size_t n;
        int repeat;
};
/* The option items of cmd's usage line, in table order; without the
 * options of shared groups when no_groups. Returns how many (at most max). */
size_t cli_usage_items(const struct cli_cmd *cmd, int no_groups, struct cli_uitem *items, size_t max);
/* The usage line after "cudnnctl " as one line of text (no_groups: as
 * above), NUL-terminated in buf; -1 if it does not fit. */
int cli_usage_line(const struct cli_cmd *cmd, int no_groups, char *buf, size_t size);
/* The label of an option in a list: "-v, --verbose", "--root DIR". */
void cli_opt_label(const struct cli_optref *r, char *buf, size_t size);
/* Print the whole help of cmd to stdout (-h, --help, `cudnnctl help CMD`). */
void cli_usage(const struct cli_cmd *cmd);
/* Print the program's help (the command list) to f. */
void cli_main_usage(FILE *f);

/* ---- generated files (gen.c, gen_complete.c): `cudnnctl __gen WHAT` ---- */
int cli_gen(int argc, char **argv);
int cli_gen_bash(FILE *f);
int cli_gen_zsh(FILE *f);
int cli_gen_fish(FILE *f);
int cli_gen_powershell(FILE *f);

/* ---- the machine a command reads (machine_opts.c) -------------------------
 * --root DIR, --system linux|windows, --env FILE, --set VAR=VALUE. */
enum { CLI_OPT_ROOT = 1000, CLI_OPT_SYSTEM, CLI_OPT_ENV, CLI_OPT_SET };
extern const struct cli_opt cli_opt_root, cli_opt_system, cli_opt_env, cli_opt_set;
extern const struct cli_optgroup cli_machine_group;

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

/* ---- how the Windows loader is asked (resolve_opts.c; which, deps) -------
 * --win-mode, --win-search, --safe-search, --add-dll-dir, --set-dll-dir. */
enum { CLI_OPT_WIN_MODE = 1100, CLI_OPT_WIN_SEARCH, CLI_OPT_SAFE_SEARCH, CLI_OPT_ADD_DLL_DIR, CLI_OPT_SET_DLL_DIR };
extern const struct cli_optgroup cli_resolve_group;

struct cli_resolve {
        cudnnctl_which_options o;
        const char **dirs;
        size_t ndirs;
};

void cli_resolve_init(struct cli_resolve *cr);
int cli_resolve_opt(struct cli_resolve *cr, int id, const char *arg, const struct cli_cmd *cmd);
void cli_resolve_free(struct cli_resolve *cr);

/* The progress function for a command that takes seconds: on a terminal
 * (standard error), unless quiet; else none. */
void cli_progress(int quiet, cudnnctl_progress_fn *fn, void **ctx);

#endif
