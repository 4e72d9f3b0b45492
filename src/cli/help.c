/* --help: the usage line and the option list made from a command's table,
 * around the prose the command's own file keeps next to that table. */
#include "cli.h"

#include <string.h>

enum {
        USAGE_WIDTH = 100, /* usage lines are wrapped here */
        LABEL_WIDTH = 18,  /* an option's help starts at column 2 + this */
};

size_t cli_usage_items(const struct cli_cmd *cmd, int no_groups, struct cli_uitem *items, size_t max)
{
        struct cli_optiter it;
        struct cli_optref r;
        size_t n = 0;

        cli_optiter_init(&it, cmd->opts);
        while (cli_optiter_next(&it, &r)) {
                if (r.o == &cli_opt_help || (r.flags & CLI_IN_ARGS) || (no_groups && r.group != NULL))
                        continue;
                if ((r.flags & CLI_OR_PREV) && n > 0 && items[n - 1].n < CLI_MAX_CHOICES) {
                        items[n - 1].choice[items[n - 1].n++] = r;
                        continue;
                }
                if (n == max)
                        break;
                items[n].choice[0] = r;
                items[n].n = 1;
                items[n].repeat = (r.flags & CLI_REPEAT) != 0;
                n++;
        }
        return n;
}

/* Append to buf (size, *len so far); -1 when it does not fit. */
static int append(char *buf, size_t size, size_t *len, const char *s)
{
        size_t n = strlen(s);

        if (*len + n >= size)
                return -1;
        memcpy(buf + *len, s, n + 1);
        *len += n;
        return 0;
}

/* "[--gpu|--no-gpu]", "[--set VAR=VALUE]..." */
static int item_text(const struct cli_uitem *u, char *buf, size_t size)
{
        size_t k, len = 0;

        buf[0] = '\0';
        if (append(buf, size, &len, "[") < 0)
                return -1;
        for (k = 0; k < u->n; k++) {
                const struct cli_opt *o = u->choice[k].o;

                if ((k && append(buf, size, &len, "|") < 0) || append(buf, size, &len, "--") < 0 ||
                    append(buf, size, &len, o->name) < 0 ||
                    (o->arg && (append(buf, size, &len, " ") < 0 || append(buf, size, &len, o->arg) < 0)))
                        return -1;
        }
        return append(buf, size, &len, u->repeat ? "]..." : "]");
}

int cli_usage_line(const struct cli_cmd *cmd, int no_groups, char *buf, size_t size)
{
        struct cli_uitem items[64];
        size_t n = cli_usage_items(cmd, no_groups, items, 64), i, len = 0;
        char item[256];

        buf[0] = '\0';
        if (append(buf, size, &len, cmd->name) < 0)
                return -1;
        for (i = 0; i < n; i++)
                if (item_text(&items[i], item, sizeof(item)) < 0 || append(buf, size, &len, " ") < 0 ||
                    append(buf, size, &len, item) < 0)
                        return -1;
        if (cmd->args != NULL && (append(buf, size, &len, " ") < 0 || append(buf, size, &len, cmd->args) < 0))
                return -1;
        return 0;
}

void cli_opt_label(const struct cli_optref *r, char *buf, size_t size)
{
        const struct cli_opt *o = r->o;

        if (o->short_name)
                snprintf(buf, size, "-%c, --%s%s%s", o->short_name, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        else
                snprintf(buf, size, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* The usage line wrapped at USAGE_WIDTH, continuation lines under the
 * first option. */
static void print_usage_line(const struct cli_cmd *cmd)
{
        struct cli_uitem items[64];
        size_t n = cli_usage_items(cmd, 0, items, 64), i;
        size_t indent = strlen("usage: cudnnctl ") + strlen(cmd->name) + 1, col;
        char item[256];

        printf("usage: cudnnctl %s", cmd->name);
        col = indent - 1;
        for (i = 0; i <= n; i++) {
                const char *s = item;

                if (i == n) {
                        if (cmd->args == NULL)
                                break;
                        s = cmd->args;
                } else if (item_text(&items[i], item, sizeof(item)) < 0) {
                        continue; /* cannot happen with the tables as they are */
                }
                if (col + 1 + strlen(s) > USAGE_WIDTH && col > indent) {
                        printf("\n%*s%s", (int)indent, "", s);
                        col = indent + strlen(s);
                } else {
                        printf(" %s", s);
                        col += 1 + strlen(s);
                }
        }
        printf("\n");
}

/* Lines of text, each indented by `indent` spaces after the first. */
static void print_lines(const char *s, int indent)
{
        const char *nl;

        while ((nl = strchr(s, '\n')) != NULL) {
                printf("%.*s\n%*s", (int)(nl - s), s, indent, "");
                s = nl + 1;
        }
        printf("%s\n", s);
}

static void print_statuses(FILE *f)
{
        size_t i;

        fprintf(f, "exit status:\n");
        for (i = 0; i < cli_nstatuses; i++)
                fprintf(f, "  %d  %s\n", cli_statuses[i].status, cli_statuses[i].meaning);
}

void cli_usage(const struct cli_cmd *cmd)
{
        struct cli_optiter it;
        struct cli_optref r;
        const struct cli_optgroup *group = NULL;
        char label[128];

        print_usage_line(cmd);
        printf("\n%s\n\n", cmd->about);
        cli_optiter_init(&it, cmd->opts);
        while (cli_optiter_next(&it, &r)) {
                if (r.group != group && r.group != NULL && r.group->title != NULL)
                        printf("%s\n", r.group->title);
                group = r.group;
                cli_opt_label(&r, label, sizeof(label));
                if (strlen(label) + 2 <= LABEL_WIDTH)
                        printf("  %-*s", LABEL_WIDTH, label);
                else
                        printf("  %s  ", label);
                print_lines(r.help, 2 + LABEL_WIDTH);
        }
        if (cmd->more != NULL)
                printf("\n%s\n", cmd->more);
        printf("\n");
        print_statuses(stdout);
}

const char cli_about[] = "Pairs, verifies and diagnoses NVIDIA cuDNN with the CUDA toolkit, driver, GPU and\n"
                         "frameworks.";

void cli_main_usage(FILE *f)
{
        size_t i;

        fprintf(f, "usage: cudnnctl [--version] [--help] COMMAND [ARGS]\n\n%s Commands:\n\n", cli_about);
        for (i = 0; i < cli_ncommands; i++)
                fprintf(f, "  %-10s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
        fprintf(f, "\n'cudnnctl COMMAND --help' or 'cudnnctl help COMMAND' describes one command.\n\n");
        print_statuses(f);
}
