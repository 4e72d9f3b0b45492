/* cudnnctl inspect PATH...: static facts, text or JSON. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_ROOT = 1, OPT_SYSTEM, OPT_NO_MEMBERS, OPT_MAX_ENTRIES, OPT_SYMBOLS };

/* --root and --system are inspect's own: a tree to read paths in, with no
 * environment (it opens no machine). */
static const struct cli_opt opts[] = {
    {.like = &cli_opt_json, .help = "print JSON (docs/json.md, schema_version 1)"},
    {.name = "root",
     .arg = "DIR",
     .id = OPT_ROOT,
     .help = "read PATHs inside DIR, as if DIR were / (links are followed inside DIR)",
     .flags = CLI_DIR},
    {.name = "system",
     .arg = "SYS",
     .id = OPT_SYSTEM,
     .help = "with --root: the tree is a linux or windows one (C:\\ is DIR; names\n"
             "match case-insensitively)",
     .values = "linux windows"},
    {.name = "no-members", .id = OPT_NO_MEMBERS, .help = "list archive members without reading their content"},
    {.name = "max-entries",
     .arg = "N",
     .id = OPT_MAX_ENTRIES,
     .help = "stop a directory walk after N entries (default 20000); a walk cut\n"
             "short is said on standard error and exits 1"},
    {.name = "symbols", .id = OPT_SYMBOLS, .help = "list every exported symbol, not only their number and cuDNN's"},
    {0},
};

static int cmd_inspect(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

const struct cli_cmd cli_cmd_inspect = {
    .name = "inspect",
    .fn = cmd_inspect,
    .summary = "static facts of libraries, headers, archives and directories (never loads them)",
    .opts = opts,
    .args = "PATH...",
    .args_kind = CLI_FILE,
    .about = "Reads each PATH without loading or running it and prints what it is: for an ELF or PE\n"
             "library its format, machine, SONAME, needed libraries, RPATH/RUNPATH, imports and delay\n"
             "imports, the number of exports (every name with --symbols), cuDNN entry points, the\n"
             "version constants cuDNN exports and the whole Windows version resource; for a C header\n"
             "its version macros, evaluated; for a pip dist-info its package and version; for an\n"
             "archive (zip, tgz, tar.xz, wheel) its layout, what it holds and where an install would\n"
             "put it; for a directory every cuDNN file in it (a bounded walk). A file reached twice\n"
             "(a hard link) is read once: the later path says which it is the same file as.\n"
             "The kind is read from the content, never from the name. Versions are listed once per\n"
             "source (file name, exported constant, header, version resource, dist-info), so\n"
             "disagreements stay visible.",
    .more = "Exit status 1: a PATH cannot be read or parsed, or a walk was cut short; every other PATH\n"
            "still gets its result.",
};

static int parse_count(const char *s, size_t *out)
{
        char *end;
        unsigned long long v;

        if (s == NULL || *s < '0' || *s > '9')
                return -1;
        errno = 0;
        v = strtoull(s, &end, 10);
        if (errno != 0 || *end != '\0' || v == 0 || v > 100000000ULL)
                return -1;
        *out = (size_t)v;
        return 0;
}

/* JSON: the document prefix and suffix around the results. */
static int json_open(void)
{
        char head[256];

        snprintf(head, sizeof(head),
                 "{\n  \"schema_version\": %d,\n  \"tool\": \"cudnnctl\",\n  \"tool_version\": \"%s\",\n"
                 "  \"command\": \"inspect\",\n  \"results\": [",
                 CUDNNCTL_JSON_SCHEMA_VERSION, cudnnctl_version());
        return cli_write(head);
}

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0. */
static size_t utf8_len(const unsigned char *s)
{
        size_t n, i;
        unsigned cp;

        if (s[0] < 0x80)
                return 1;
        if (s[0] >= 0xC2 && s[0] <= 0xDF)
                n = 2, cp = s[0] & 0x1Fu;
        else if (s[0] >= 0xE0 && s[0] <= 0xEF)
                n = 3, cp = s[0] & 0x0Fu;
        else if (s[0] >= 0xF0 && s[0] <= 0xF4)
                n = 4, cp = s[0] & 0x07u;
        else
                return 0;
        for (i = 1; i < n; i++) {
                if ((s[i] & 0xC0) != 0x80)
                        return 0;
                cp = (cp << 6) | (s[i] & 0x3Fu);
        }
        if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
                return 0;
        return n;
}

/* One JSON string literal, written as the library writes them (invalid
 * UTF-8 as U+FFFD, control characters escaped). */
static int write_json_str(const char *str)
{
        const unsigned char *s = (const unsigned char *)str;
        char buf[8];

        if (cli_write("\"") < 0)
                return -1;
        while (*s) {
                size_t n = utf8_len(s);

                if (n == 0) {
                        if (cli_write("\\ufffd") < 0)
                                return -1;
                        s++;
                        continue;
                }
                if (*s == '"' || *s == '\\') {
                        buf[0] = '\\';
                        buf[1] = (char)*s;
                        buf[2] = '\0';
                } else if (*s < 0x20) {
                        snprintf(buf, sizeof(buf), "\\u%04x", *s);
                } else {
                        memcpy(buf, s, n);
                        buf[n] = '\0';
                }
                if (cli_write(buf) < 0)
                        return -1;
                s += n;
        }
        return cli_write("\"");
}

/* The result of a path whose facts could not be written (the library
 * failed on it): still one object in "results", with the error. */
static int write_error_result(const char *path, const char *msg)
{
        if (cli_write("{\n      \"path\": ") < 0 || write_json_str(path) < 0 ||
            cli_write(",\n      \"kind\": \"unreadable\",\n      \"error\": ") < 0 || write_json_str(msg) < 0)
                return -1;
        return cli_write("\n    }");
}

static int cmd_inspect(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        cudnnctl_inspect_options io = {0};
        struct cli_parser p;
        const char **paths = NULL;
        size_t npaths = 0, i, failed = 0, incomplete = 0;
        int json = 0, id, status = CLI_OK;

        paths = calloc((size_t)argc + 1, sizeof(*paths));
        if (paths == NULL) {
                cli_error(cmd, "out of memory");
                return CLI_FAILURE;
        }
        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, cmd)) != CLI_END) {
                switch (id) {
                case CLI_POSITIONAL:
                        paths[npaths++] = p.arg;
                        break;
                case CLI_OPT_JSON:
                        json = 1;
                        break;
                case OPT_ROOT:
                        io.root = p.arg;
                        break;
                case OPT_SYSTEM:
                        if (strcmp(p.arg, "linux") == 0) {
                                io.system = CUDNNCTL_SYSTEM_LINUX;
                        } else if (strcmp(p.arg, "windows") == 0) {
                                io.system = CUDNNCTL_SYSTEM_WINDOWS;
                        } else {
                                cli_error(cmd, "--system takes linux or windows, not '%s'", p.arg);
                                free((void *)paths);
                                return CLI_USAGE;
                        }
                        break;
                case OPT_NO_MEMBERS:
                        io.flags |= CUDNNCTL_INSPECT_NO_ARCHIVE_MEMBERS;
                        break;
                case OPT_SYMBOLS:
                        io.flags |= CUDNNCTL_INSPECT_SYMBOLS;
                        break;
                case OPT_MAX_ENTRIES:
                        if (parse_count(p.arg, &io.max_dir_entries) < 0) {
                                cli_error(cmd, "--max-entries needs a positive number, not '%s'", p.arg);
                                free((void *)paths);
                                return CLI_USAGE;
                        }
                        break;
                case CLI_OPT_HELP:
                        cli_usage(cmd);
                        free((void *)paths);
                        return CLI_OK;
                default:
                        free((void *)paths);
                        return CLI_USAGE;
                }
        }
        if (npaths == 0) {
                cli_error(cmd, "no PATH given (see 'cudnnctl inspect --help')");
                free((void *)paths);
                return CLI_USAGE;
        }
        /* One run for all the paths: a file reached twice (hard links, a
         * path given twice) is read once. */
        io.run = cudnnctl_inspect_run_new(NULL);
        if (io.run == NULL) {
                cli_error(cmd, "out of memory");
                free((void *)paths);
                return CLI_FAILURE;
        }
        if (json && json_open() < 0)
                status = CLI_FAILURE;
        /* Every path gets its result, whatever happened to the others; only
         * a failed write or running out of memory stops the loop. */
        for (i = 0; i < npaths && status != CLI_FAILURE; i++) {
                cudnnctl_error err = {0};
                cudnnctl_value *facts = NULL;
                char *text = NULL;
                const char *perr, *trunc;

                if (cudnnctl_inspect(paths[i], &io, &facts, &err) < 0) {
                        cli_error(cmd, "%s: %s", paths[i], err.msg);
                        failed++;
                        /* The other paths still get their results: only the
                         * tool's own failure stops, anything else about this
                         * one is a PATH that could not be read (1). */
                        if (cli_exit_status(&err, CLI_SRC_MACHINE) == CLI_FAILURE) {
                                status = CLI_FAILURE;
                                break;
                        }
                        if (status == CLI_OK)
                                status = CLI_PROBLEM;
                        if (json &&
                            (cli_write(i ? ",\n    " : "\n    ") < 0 || write_error_result(paths[i], err.msg) < 0))
                                status = CLI_FAILURE;
                        continue;
                }
                perr = cudnnctl_value_str(cudnnctl_value_get(facts, "error"));
                if (perr != NULL) {
                        cli_error(cmd, "%s: %s", paths[i], perr);
                        failed++;
                        if (status == CLI_OK)
                                status = CLI_PROBLEM;
                }
                /* A limit that cut a directory walk short is said, and is a
                 * problem: what is reported is not all there is. */
                trunc = cudnnctl_value_str(cudnnctl_value_path(facts, "directory/truncated_reason"));
                if (trunc != NULL) {
                        cli_error(cmd, "%s: incomplete: %s", paths[i], trunc);
                        incomplete++;
                        if (status == CLI_OK)
                                status = CLI_PROBLEM;
                }
                if (json) {
                        if (cli_write(i ? ",\n    " : "\n    ") < 0) {
                                status = CLI_FAILURE;
                        } else if (cudnnctl_to_json(facts, 1, &text, &err) < 0) {
                                cli_error(cmd, "%s: %s", paths[i], err.msg);
                                if (perr == NULL)
                                        failed++;
                                if (cli_exit_status(&err, CLI_SRC_MACHINE) == CLI_FAILURE)
                                        status = CLI_FAILURE;
                                else if (status == CLI_OK)
                                        status = CLI_PROBLEM;
                                if (write_error_result(paths[i], err.msg) < 0)
                                        status = CLI_FAILURE;
                        } else {
                                /* Indent the pretty document by 4 to nest it in "results". */
                                char *line = text, *nl;

                                while (status != CLI_FAILURE && (nl = strchr(line, '\n')) != NULL) {
                                        *nl = '\0';
                                        if (cli_write(line) < 0 || (nl[1] != '\0' && cli_write("\n    ") < 0))
                                                status = CLI_FAILURE;
                                        line = nl + 1;
                                }
                        }
                } else {
                        if (cudnnctl_inspect_text(facts, env->color_ok, &text, &err) < 0) {
                                cli_error(cmd, "%s: %s", paths[i], err.msg);
                                status = CLI_FAILURE;
                        } else if ((i && cli_write("\n") < 0) || cli_write(text) < 0) {
                                status = CLI_FAILURE;
                        }
                }
                cudnnctl_free(text);
                cudnnctl_value_free(facts);
        }
        if (json) {
                char tail[160];

                snprintf(tail, sizeof(tail), "\n  ],\n  \"failed\": %zu,\n  \"incomplete\": %zu\n}\n", failed,
                         incomplete);
                if (cli_write(tail) < 0)
                        status = CLI_FAILURE;
        }
        cudnnctl_inspect_run_free(io.run);
        free((void *)paths);
        return status;
}
