/* The option parser over a command's table, the table walk that the help,
 * the manual page and the completions share, and the options that several
 * commands take. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const struct cli_opt cli_opt_help = {.name = "help", .short_name = 'h', .id = CLI_OPT_HELP, .help = "this text"};
const struct cli_opt cli_opt_json = {.name = "json", .id = CLI_OPT_JSON, .help = "print JSON (docs/json.md)"};
/* Each command says what it adds (its table's .help). */
const struct cli_opt cli_opt_verbose = {
    .name = "verbose", .short_name = 'v', .id = CLI_OPT_VERBOSE, .help = "more detail"};
const struct cli_opt cli_opt_timeout = {.name = "timeout",
                                        .arg = "SECONDS",
                                        .id = CLI_OPT_TIMEOUT,
                                        .help = "time limit of each probe child (default 60; GPU work gets 5x)"};
const struct cli_opt cli_opt_gpu = {.name = "gpu", .id = CLI_OPT_GPU, .help = "GPU work is required"};
const struct cli_opt cli_opt_no_gpu = {.name = "no-gpu",
                                       .id = CLI_OPT_NO_GPU,
                                       .help = "no GPU work (default: when a usable GPU is there)",
                                       .flags = CLI_OR_PREV};

/* The shared group an option is a member of, for a command that takes some
 * of a group's options one by one (frameworks: the machine options, with
 * help of its own): they are still that group's. */
static const struct cli_optgroup *group_of(const struct cli_opt *o)
{
        static const struct cli_optgroup *const groups[] = {&cli_machine_group, &cli_resolve_group};
        const struct cli_opt *e;
        size_t i;

        for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
                for (e = groups[i]->opts; e->name != NULL || e->like != NULL; e++)
                        if (e == o || e->like == o)
                                return groups[i];
        return NULL;
}

void cli_optiter_init(struct cli_optiter *it, const struct cli_opt *table)
{
        memset(it, 0, sizeof(*it));
        it->top = table;
}

static int opt_end(const struct cli_opt *e)
{
        return e->name == NULL && e->like == NULL && e->group == NULL;
}

int cli_optiter_next(struct cli_optiter *it, struct cli_optref *r)
{
        const struct cli_opt *e;

        for (;;) {
                if (it->sub != NULL) {
                        if (!opt_end(it->sub)) {
                                e = it->sub++;
                                break;
                        }
                        it->sub = NULL;
                        it->group = NULL;
                }
                if (it->top == NULL || opt_end(it->top)) {
                        if (it->help_done)
                                return 0;
                        it->help_done = 1;
                        r->o = &cli_opt_help;
                        r->help = cli_opt_help.help;
                        r->flags = cli_opt_help.flags;
                        r->group = NULL;
                        return 1;
                }
                e = it->top++;
                if (e->group == NULL)
                        break;
                /* groups hold options and .like entries, not groups */
                it->group = e->group;
                it->sub = e->group->opts;
        }
        r->o = e->like != NULL ? e->like : e;
        r->help = e->help != NULL ? e->help : r->o->help;
        r->flags = r->o->flags | e->flags;
        r->group = it->group != NULL ? it->group : e->like != NULL ? group_of(e->like) : NULL;
        return 1;
}

void cli_parser_init(struct cli_parser *p, int argc, char **argv)
{
        p->argc = argc;
        p->argv = argv;
        p->i = 1;
        p->done = 0;
        p->arg = NULL;
}

void cli_error(const struct cli_cmd *cmd, const char *fmt, ...)
{
        char small[512], *msg = small, *esc;
        va_list ap;
        int n;

        fflush(stdout);
        va_start(ap, fmt);
        n = vsnprintf(small, sizeof(small), fmt, ap);
        va_end(ap);
        if (n >= (int)sizeof(small) && (msg = malloc((size_t)n + 1)) != NULL) {
                va_start(ap, fmt);
                vsnprintf(msg, (size_t)n + 1, fmt, ap);
                va_end(ap);
        }
        /* What the message carries (paths, names, text read from files) is
         * escaped as on standard output: one line, nothing the terminal acts on. */
        esc = cudnnctl_escape(msg != NULL && n >= 0 ? msg : "(message lost: out of memory)");
        if (cmd != NULL)
                fprintf(stderr, "cudnnctl %s: %s\n", cmd->name, esc ? esc : "(out of memory)");
        else
                fprintf(stderr, "cudnnctl: %s\n", esc ? esc : "(out of memory)");
        cudnnctl_free(esc);
        if (msg != small)
                free(msg);
}

int cli_write(const char *s)
{
        size_t n = strlen(s);

        return fwrite(s, 1, n, stdout) == n ? 0 : -1;
}

int cli_next(struct cli_parser *p, const struct cli_cmd *cmd)
{
        struct cli_optiter it;
        struct cli_optref r;
        const char *w;

        p->arg = NULL;
        if (p->i >= p->argc)
                return CLI_END;
        w = p->argv[p->i++];
        if (p->done || w[0] != '-' || w[1] == '\0') {
                p->arg = w;
                return CLI_POSITIONAL;
        }
        if (strcmp(w, "--") == 0) {
                p->done = 1;
                return cli_next(p, cmd);
        }
        if (w[1] == '-') {
                const char *name = w + 2;
                const char *eq = strchr(name, '=');
                size_t len = eq ? (size_t)(eq - name) : strlen(name);

                cli_optiter_init(&it, cmd->opts);
                while (cli_optiter_next(&it, &r)) {
                        const struct cli_opt *o = r.o;

                        if (strlen(o->name) != len || strncmp(o->name, name, len) != 0)
                                continue;
                        if (o->arg == NULL) {
                                if (eq != NULL) {
                                        cli_error(cmd, "option --%s takes no value", o->name);
                                        return CLI_ERROR;
                                }
                                return o->id;
                        }
                        if (eq != NULL) {
                                p->arg = eq + 1;
                        } else if (p->i < p->argc) {
                                p->arg = p->argv[p->i++];
                        } else {
                                cli_error(cmd, "option --%s needs a value", o->name);
                                return CLI_ERROR;
                        }
                        return o->id;
                }
                cli_error(cmd, "unknown option '%s' (see 'cudnnctl %s --help')", w, cmd->name);
                return CLI_ERROR;
        }
        if (w[2] == '\0') {
                cli_optiter_init(&it, cmd->opts);
                while (cli_optiter_next(&it, &r)) {
                        if (r.o->short_name != w[1])
                                continue;
                        if (r.o->arg != NULL) {
                                if (p->i >= p->argc) {
                                        cli_error(cmd, "option -%c needs a value", w[1]);
                                        return CLI_ERROR;
                                }
                                p->arg = p->argv[p->i++];
                        }
                        return r.o->id;
                }
        }
        cli_error(cmd, "unknown option '%s' (see 'cudnnctl %s --help')", w, cmd->name);
        return CLI_ERROR;
}

int cli_timeout_ms(const struct cli_cmd *cmd, const char *arg, int *ms)
{
        char *end;
        long v;

        errno = 0;
        v = strtol(arg, &end, 10);
        if (errno || end == arg || *end || v < 1 || v > 3600) {
                cli_error(cmd, "--timeout takes 1 to 3600 seconds, not '%s'", arg);
                return -1;
        }
        *ms = (int)v * 1000;
        return 0;
}

char *cli_read_input(const struct cli_cmd *cmd, const char *what, const char *path, size_t max, size_t *len,
                     int *status)
{
        int is_stdin = strcmp(path, "-") == 0;
        const char *name = is_stdin ? "standard input" : path;
        FILE *f = is_stdin ? stdin : fopen(path, "rb");
        char *buf = NULL;
        size_t cap = 0, n = 0;

        *status = CLI_PROBLEM;
        if (f == NULL) {
                if (errno == ENOENT || errno == ENOTDIR)
                        *status = CLI_NOTFOUND;
                cli_error(cmd, "%s%s: %s", what, name, strerror(errno));
                return NULL;
        }
        for (;;) {
                size_t got;

                if (n == cap) {
                        char *nb;

                        if (cap >= max) {
                                cli_error(cmd, "%s%s: larger than %zu MiB", what, name, max >> 20);
                                goto fail;
                        }
                        cap = cap ? cap * 2 : 65536;
                        if (cap > max)
                                cap = max;
                        nb = realloc(buf, cap + 1);
                        if (nb == NULL) {
                                *status = CLI_FAILURE;
                                cli_error(cmd, "%s%s: out of memory", what, name);
                                goto fail;
                        }
                        buf = nb;
                }
                errno = 0;
                got = fread(buf + n, 1, cap - n, f);
                n += got;
                if (got == 0)
                        break;
        }
        if (ferror(f)) {
                /* fopen succeeds on a directory; reading it fails with EISDIR */
                cli_error(cmd, "%s%s: cannot read it: %s", what, name,
                          errno == EISDIR ? "it is a directory"
                          : errno         ? strerror(errno)
                                          : "read error");
                goto fail;
        }
        if (!is_stdin)
                fclose(f);
        buf[n] = '\0';
        *len = n;
        return buf;
fail:
        if (!is_stdin)
                fclose(f);
        free(buf);
        return NULL;
}
