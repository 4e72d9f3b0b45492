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
/* Write a string to stdout; returns -1 on a write error. */
int cli_write(const char *s);

int cmd_inspect(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

#endif
