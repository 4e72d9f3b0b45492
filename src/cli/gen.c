/* `cudnnctl __gen WHAT`: files made from the option tables, so that they
 * cannot say other than what the parser takes. The build writes the manual
 * page and the shell completions with it (CMakeLists.txt); the tests read
 * the tables and the exit-status mapping through `table` and `exit-map`. */
#include "cli.h"

#include <string.h>

/* The library's error codes, as the manual page and the tests name them. */
static const struct {
        int code;
        const char *name;
        const char *what;
} codes[] = {
    {CUDNNCTL_ERR_IO, "IO", "an input/output error"},
    {CUDNNCTL_ERR_FORMAT, "FORMAT", "a malformed input"},
    {CUDNNCTL_ERR_TRUNCATED, "TRUNCATED", "a truncated input"},
    {CUDNNCTL_ERR_LIMIT, "LIMIT", "an input over a limit"},
    {CUDNNCTL_ERR_UNSUPPORTED, "UNSUPPORTED", "something not supported"},
    {CUDNNCTL_ERR_NOTFOUND, "NOTFOUND", "something not found"},
    {CUDNNCTL_ERR_USAGE, "USAGE", "a value that cannot be used"},
    {CUDNNCTL_ERR_NOMEM, "NOMEM", "out of memory"},
};
static const char *const source_what[CLI_NSOURCES] = {
    "the machine or the files the command examines",
    "what the command line names to set the command up (--root, --env, --set, --facts)",
    "the tool's own work (its compiled-in tables, its private directory, its child processes)",
};

/* ---- roff ------------------------------------------------------------------ */

static int word_char(char c)
{
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* One line of text for roff: a leading control character made literal,
 * backslashes escaped, and the hyphens of an option ("--no-gpu", "-v": a
 * word that starts with '-') as \- (the minus sign a reader can copy, where
 * no line is broken); other hyphens ("check-up") as they are. in_opt: s is
 * an option's name ("no-gpu"). */
static void roff_text(FILE *f, const char *s, size_t n, int in_opt)
{
        size_t i;

        if (n > 0 && (s[0] == '.' || s[0] == '\''))
                fputs("\\&", f);
        for (i = 0; i < n; i++) {
                char c = s[i];

                if (c == '-' && (in_opt || i == 0 || !word_char(s[i - 1])))
                        in_opt = 1;
                else if (!word_char(c))
                        in_opt = 0;
                if (c == '\\')
                        fputs("\\e", f);
                else if (c == '-' && in_opt)
                        fputs("\\-", f);
                else
                        fputc(c, f);
        }
}

static void roff_str(FILE *f, const char *s)
{
        roff_text(f, s, strlen(s), 0);
}

/* Prose of the help (lines wrapped for a terminal) as filled roff text: a
 * blank line is a new paragraph, "  1. text" a numbered item whose indented
 * lines continue it. */
static void roff_prose(FILE *f, const char *s)
{
        int in_item = 0;

        fputs(".PP\n", f);
        while (*s) {
                const char *nl = strchr(s, '\n');
                size_t n = nl ? (size_t)(nl - s) : strlen(s), lead = strspn(s, " ");

                if (n == 0) {
                        fputs(".PP\n", f);
                        in_item = 0;
                } else if (lead > 0 && lead < n && s[lead] >= '0' && s[lead] <= '9' && s[lead + 1] == '.') {
                        fprintf(f, ".IP %c. 4\n", s[lead]);
                        roff_text(f, s + lead + 3, n - lead - 3, 0);
                        fputc('\n', f);
                        in_item = 1;
                } else {
                        if (lead == 0 && in_item) {
                                fputs(".PP\n", f);
                                in_item = 0;
                        }
                        roff_text(f, s + lead, n - lead, 0);
                        fputc('\n', f);
                }
                s += n + (nl ? 1 : 0);
        }
}

static void roff_opt(FILE *f, const struct cli_opt *o)
{
        fputs("\\fB\\-\\-", f);
        roff_text(f, o->name, strlen(o->name), 1);
        fputs("\\fR", f);
        if (o->arg) {
                fputs("\\ \\fI", f);
                roff_str(f, o->arg);
                fputs("\\fR", f);
        }
}

static void man_usage(FILE *f, const struct cli_cmd *cmd)
{
        struct cli_uitem items[64];
        size_t n = cli_usage_items(cmd, 0, items, 64), i, k;

        /* left-adjusted: a justified usage line spreads its brackets apart;
         * not hyphenated: an option broken across lines is not the option */
        fprintf(f, ".PP\n.ad l\n.nh\n\\fBcudnnctl %s\\fR", cmd->name);
        for (i = 0; i < n; i++) {
                fputs("\n[", f);
                for (k = 0; k < items[i].n; k++) {
                        if (k)
                                fputc('|', f);
                        roff_opt(f, items[i].choice[k].o);
                }
                fputs(items[i].repeat ? "]..." : "]", f);
        }
        if (cmd->args != NULL) {
                fputc('\n', f);
                roff_str(f, cmd->args);
        }
        fputs("\n.br\n.hy\n.ad\n", f);
}

static void man_options(FILE *f, const struct cli_cmd *cmd)
{
        struct cli_optiter it;
        struct cli_optref r;
        const struct cli_optgroup *group = NULL;

        cli_optiter_init(&it, cmd->opts);
        while (cli_optiter_next(&it, &r)) {
                const char *h = r.help;

                if (r.group != group && r.group != NULL && r.group->title != NULL) {
                        fputs(".PP\n", f);
                        roff_str(f, r.group->title);
                        fputc('\n', f);
                }
                group = r.group;
                fputs(".TP\n", f);
                if (r.o->short_name)
                        fprintf(f, "\\fB\\-%c\\fR, ", r.o->short_name);
                roff_opt(f, r.o);
                fputc('\n', f);
                /* the help's lines were wrapped for a terminal: one filled line */
                while (*h) {
                        const char *nl = strchr(h, '\n');
                        size_t len = nl ? (size_t)(nl - h) : strlen(h);

                        roff_text(f, h, len, 0);
                        fputc('\n', f);
                        h += len + (nl ? 1 : 0);
                }
        }
}

static const char man_description[] =
    "Every command reads the machine without changing it: libraries are inspected as files, and\n"
    "what only loading can tell (cuDNN's own version calls, GPU work, the frameworks) is asked in\n"
    "child processes with a time limit, so that a crash or hang there is a finding, not the tool's.\n"
    "\n"
    "The commands that read the machine take --root DIR: DIR is the / of every lookup (a container\n"
    "image, a mounted disk, a test fixture) and links inside it are followed inside it. With --root\n"
    "the environment starts empty and is given with --env FILE (KEY=VALUE lines) and --set\n"
    "VAR=VALUE (repeatable; PWD, or CD for Windows, is the current directory); without it, --set\n"
    "overrides the process's own environment. --system windows emulates Windows over the tree: C:\\\n"
    "is DIR, paths in the environment are Windows paths, names match case-insensitively.\n"
    "\n"
    "Text output is for people; --json output follows a documented, versioned schema.";

static const struct {
        const char *name, *what;
} man_env[] = {
    {"NO_COLOR", "When set and not empty, the text output has no colour (colour is used on a terminal only)."},
    {"TERM", "When dumb, the text output has no colour."},
    {"TMPDIR", "Where the private directories of the probes and the compiled test program are made (TMP and TEMP "
               "on Windows); they are removed however the command ends."},
    {"PATH, LD_LIBRARY_PATH, LD_PRELOAD",
     "Searched the way the loader searches them (which, deps, list, doctor); PATH also for python3 and python "
     "(frameworks) and the C compiler (verify)."},
    {"CUDA_PATH, CUDA_PATH_V*, CUDA_HOME, CUDA_ROOT, CUDNN_PATH, CUDNN_HOME",
     "Where CUDA toolkits and cuDNN installations are looked for."},
    {"VIRTUAL_ENV, CONDA_PREFIX, HOME",
     "Python environments and user site-packages (USERPROFILE, APPDATA and LOCALAPPDATA on Windows)."},
    {"CC", "The C compiler of verify's compile-and-run layer."},
    {"CUDA_VISIBLE_DEVICES, PYTHONPATH, SHELL, PSModulePath",
     "Recorded by the doctor: a CUDA_VISIBLE_DEVICES that hides every GPU is a finding, and the shell decides how "
     "fixes are written."},
};

static const struct {
        const char *name, *what;
} man_files[] = {
    {"/etc/ld.so.cache, /etc/ld.so.conf, /etc/ld.so.preload",
     "The Linux loader's cache, its directories and its preloaded objects (under --root when given)."},
    {"/usr/local/cuda*, /opt", "Where CUDA toolkits and cuDNN archives are usually unpacked."},
    {"/var/lib/dpkg/status, /var/lib/dpkg/info/*.list", "The package that owns an installation's files."},
    {"/proc/driver/nvidia/version", "The NVIDIA kernel driver's version."},
};

static int gen_man(FILE *f)
{
        size_t i;

        fprintf(f,
                ".\\\" cudnnctl(1), made by 'cudnnctl __gen man' from the program's option tables: do not edit.\n"
                ".TH CUDNNCTL 1 \"\" \"cudnnctl %s\" \"User Commands\"\n"
                ".SH NAME\n"
                "cudnnctl \\- pair, verify and diagnose NVIDIA cuDNN with the CUDA toolkit, driver, GPU and "
                "frameworks\n"
                ".SH SYNOPSIS\n"
                ".B cudnnctl\n"
                "[\\fB\\-\\-version\\fR] [\\fB\\-\\-help\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]\n"
                ".br\n"
                ".B cudnnctl help\n"
                "\\fICOMMAND\\fR\n"
                ".br\n"
                "\\fBcudnnctl\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR\n"
                ".SH DESCRIPTION\n",
                cudnnctl_version());
        roff_prose(f, cli_about);
        roff_prose(f, man_description);
        fputs(".SH COMMANDS\n", f);
        for (i = 0; i < cli_ncommands; i++) {
                const struct cli_cmd *cmd = cli_commands[i];

                fprintf(f, ".SS %s\n", cmd->name);
                man_usage(f, cmd);
                roff_prose(f, cmd->about);
                man_options(f, cmd);
                if (cmd->more != NULL)
                        roff_prose(f, cmd->more);
        }
        fputs(".SH EXIT STATUS\n", f);
        for (i = 0; i < cli_nstatuses; i++) {
                fprintf(f, ".TP\n.B %d\n", cli_statuses[i].status);
                roff_str(f, cli_statuses[i].meaning);
                fputc('\n', f);
        }
        fputs(".PP\nA failure the library reports is one status by one rule for every command, after what the "
              "failing step was working on:\n",
              f);
        for (i = 0; i < CLI_NSOURCES; i++) {
                fprintf(f, ".IP (%c) 4\n", (int)('a' + i));
                roff_str(f, source_what[i]);
                fputc('\n', f);
        }
        fputs(".PP\nWhat list, which, deps, verify, inspect and the doctor cannot read of the machine is (a); "
              "what fails in frameworks, compat and explain themselves is (c): what an interpreter or a table "
              "says is in their output, not a failure.\n",
              f);
        for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
                cudnnctl_error e = {0};
                int s;

                e.code = codes[i].code;
                fprintf(f, ".TP\n%s\n", codes[i].what);
                for (s = 0; s < CLI_NSOURCES; s++)
                        fprintf(f, "%s%d for (%c)", s ? ", " : "", cli_exit_status(&e, (enum cli_source)s), 'a' + s);
                fputc('\n', f);
        }
        fputs(".SH ENVIRONMENT\n", f);
        for (i = 0; i < sizeof(man_env) / sizeof(man_env[0]); i++) {
                fputs(".TP\n.B ", f);
                roff_str(f, man_env[i].name);
                fputc('\n', f);
                roff_str(f, man_env[i].what);
                fputc('\n', f);
        }
        fputs(".PP\nWith \\fB\\-\\-root\\fR the environment of the machine read starts empty: \\fB\\-\\-env\\fR and "
              "\\fB\\-\\-set\\fR give it.\n"
              ".SH FILES\n",
              f);
        for (i = 0; i < sizeof(man_files) / sizeof(man_files[0]); i++) {
                fputs(".TP\n.I ", f);
                roff_str(f, man_files[i].name);
                fputc('\n', f);
                roff_str(f, man_files[i].what);
                fputc('\n', f);
        }
        fputs(".SH SEE ALSO\n"
              ".BR ld.so (8),\n"
              ".BR ldconfig (8),\n"
              ".BR ldd (1),\n"
              ".BR readelf (1),\n"
              ".BR nvidia\\-smi (1)\n"
              ".PP\n"
              "The README and docs/json.md of the cudnnctl sources.\n",
              f);
        return 0;
}

/* ---- the tests' view ------------------------------------------------------
 * One line per command and per option, tab-separated:
 *   command NAME USAGE USAGE-WITHOUT-SHARED-GROUPS SUMMARY OPERAND-KIND
 *   option COMMAND --LONG -S|"" ARG|"" KIND FLAGS VALUES GROUP|"" */
static const char *kind_name(unsigned flags)
{
        switch (flags & CLI_KIND_MASK) {
        case CLI_FILE:
                return "file";
        case CLI_DIR:
                return "dir";
        case CLI_PROGRAM:
                return "program";
        default:
                return "word";
        }
}

static int gen_table(FILE *f)
{
        size_t i;

        for (i = 0; i < cli_ncommands; i++) {
                const struct cli_cmd *cmd = cli_commands[i];
                struct cli_optiter it;
                struct cli_optref r;
                char usage[1024], short_usage[1024];

                if (cli_usage_line(cmd, 0, usage, sizeof(usage)) < 0 ||
                    cli_usage_line(cmd, 1, short_usage, sizeof(short_usage)) < 0)
                        return -1;
                fprintf(f, "command\t%s\t%s\t%s\t%s\t%s\n", cmd->name, usage, short_usage, cmd->summary,
                        kind_name(cmd->args_kind));
                cli_optiter_init(&it, cmd->opts);
                while (cli_optiter_next(&it, &r)) {
                        char sh[3] = "";

                        if (r.o->short_name)
                                snprintf(sh, sizeof(sh), "-%c", r.o->short_name);
                        fprintf(f, "option\t%s\t--%s\t%s\t%s\t%s\t%s%s%s\t%s\t%s\n", cmd->name, r.o->name, sh,
                                r.o->arg ? r.o->arg : "", r.o->arg ? kind_name(r.flags) : "none",
                                (r.flags & CLI_REPEAT) ? "repeat," : "", (r.flags & CLI_OR_PREV) ? "or-prev," : "",
                                (r.flags & CLI_IN_ARGS) ? "in-args," : "", r.o->values ? r.o->values : "",
                                r.group ? r.group->name : "");
                }
        }
        return 0;
}

/* CODE MACHINE ARGS TOOL: the status of each library error code by source. */
static int gen_exit_map(FILE *f)
{
        size_t i;

        for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
                cudnnctl_error e = {0};
                int s;

                e.code = codes[i].code;
                fprintf(f, "%s", codes[i].name);
                for (s = 0; s < CLI_NSOURCES; s++)
                        fprintf(f, "\t%d", cli_exit_status(&e, (enum cli_source)s));
                fputc('\n', f);
        }
        return 0;
}

int cli_gen(int argc, char **argv)
{
        static const struct {
                const char *what;
                int (*fn)(FILE *);
        } gens[] = {
            {"man", gen_man},
            {"bash", cli_gen_bash},
            {"zsh", cli_gen_zsh},
            {"fish", cli_gen_fish},
            {"powershell", cli_gen_powershell},
            {"table", gen_table},
            {"exit-map", gen_exit_map},
        };
        size_t i;

        if (argc == 1)
                for (i = 0; i < sizeof(gens) / sizeof(gens[0]); i++)
                        if (strcmp(argv[0], gens[i].what) == 0)
                                return gens[i].fn(stdout) < 0 ? CLI_FAILURE : CLI_OK;
        fprintf(stderr, "usage: cudnnctl __gen man|bash|zsh|fish|powershell|table|exit-map\n");
        return CLI_USAGE;
}
