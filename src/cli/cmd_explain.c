/* cudnnctl explain CODE-or-TEXT: what an error means, its likely causes, the
 * commands that show which one applies, the fix. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_MAJOR = 1, OPT_SYSTEM, OPT_FILE };
enum { MAX_INPUT = 64 << 20 };

static const struct cli_opt opts[] = {
    {.name = "major",
     .arg = "8|9",
     .id = OPT_MAJOR,
     .help = "read bare cuDNN status numbers in that numbering (default: inferred;\n"
             "cuDNN 9 numbers its statuses from 1000 on)",
     .values = "8 9"},
    {.name = "system",
     .arg = "SYS",
     .id = OPT_SYSTEM,
     .help = "linux or windows: that system's messages first (default: no preference)",
     .values = "linux windows"},
    {.like = &cli_opt_json},
    {.like = &cli_opt_verbose, .help = "the source of every match"},
    {.name = "file",
     .short_name = 'f',
     .arg = "FILE",
     .id = OPT_FILE,
     .help = "the text to explain is in FILE ('-': standard input; so is a lone '-')",
     .flags = CLI_FILE | CLI_IN_ARGS},
    {0},
};

static int cmd_explain(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

const struct cli_cmd cli_cmd_explain = {
    .name = "explain",
    .fn = cmd_explain,
    .summary = "what an error means: a cuDNN status, a CUDA or Windows error, a pasted message or log",
    .opts = opts,
    .args = "CODE-or-TEXT... | --file FILE | -",
    .about = "Explains a cuDNN status by name or number in either numbering (CUDNN_STATUS_NOT_INITIALIZED,\n"
             "NOT_INITIALIZED, 1001, 1, '(6 vs. 0)'), a CUDA error (cudaErrorInsufficientDriver, 'error 35'),\n"
             "a Windows loader error (126, 'WinError 126', 'Error code 193', 0x7E), a finding id of the\n"
             "doctor (framework-cpu-only) or a whole pasted message or log (several lines: every\n"
             "message recognised is reported, most specific first):\n"
             "what it means, the likely causes from the failure catalog, which cudnnctl command shows\n"
             "which cause applies on this machine, the fix and the source. Versions in a message are\n"
             "read and checked (\"PyTorch was compiled against (8, 5, 0) but found runtime version\n"
             "(8, 3, 3)\": same major, runtime minor >= build minor). Nothing on this machine is read.",
    .more = "Exit status 3: nothing recognised (one line on standard error, with the closest status\n"
            "names when the input looks like one), or no such --file; 1: the --file or standard input\n"
            "cannot be read (a directory, larger than 64 MiB, a read error).",
};

/* The input as it goes into one line of an error message. */
static void echo(const char *s, size_t len, char *out, size_t size)
{
        size_t i, o = 0;

        for (i = 0; i < len && o + 5 < size; i++) {
                unsigned char c = (unsigned char)s[i];

                if (i == 60) {
                        memcpy(out + o, "...", 3);
                        o += 3;
                        break;
                }
                out[o++] = (c < 0x20 || c >= 0x7F) ? '?' : (char)c;
        }
        out[o] = '\0';
}

static int cmd_explain(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        cudnnctl_explain_options eo = {0, 0, 0};
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        const char *file = NULL;
        char *input = NULL;
        size_t len = 0, nwords = 0;
        int json = 0, verbose = 0, id, status = CLI_OK, i;
        const char **words = calloc((size_t)argc + 1, sizeof(char *));

        if (words == NULL) {
                cli_error(cmd, "out of memory");
                return CLI_FAILURE;
        }
        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, cmd)) != CLI_END) {
                switch (id) {
                case CLI_OPT_JSON:
                        json = 1;
                        break;
                case CLI_OPT_VERBOSE:
                        verbose = 1;
                        break;
                case OPT_MAJOR:
                        if (strcmp(p.arg, "8") == 0)
                                eo.major = 8;
                        else if (strcmp(p.arg, "9") == 0)
                                eo.major = 9;
                        else {
                                cli_error(cmd, "--major takes 8 or 9, not '%s'", p.arg);
                                goto usage;
                        }
                        break;
                case OPT_SYSTEM:
                        if (strcmp(p.arg, "linux") == 0)
                                eo.system = CUDNNCTL_SYSTEM_LINUX;
                        else if (strcmp(p.arg, "windows") == 0)
                                eo.system = CUDNNCTL_SYSTEM_WINDOWS;
                        else {
                                cli_error(cmd, "--system takes linux or windows, not '%s'", p.arg);
                                goto usage;
                        }
                        break;
                case OPT_FILE:
                        file = p.arg;
                        break;
                case CLI_OPT_HELP:
                        cli_usage(cmd);
                        free((void *)words);
                        return CLI_OK;
                case CLI_POSITIONAL:
                        words[nwords++] = p.arg;
                        break;
                default:
                        goto usage;
                }
        }
        if (file != NULL && nwords > 0) {
                cli_error(cmd, "give the text either as arguments or with --file, not both");
                goto usage;
        }
        if (file == NULL && nwords == 1 && strcmp(words[0], "-") == 0)
                file = "-";
        if (file != NULL) {
                input = cli_read_input(cmd, "", file, MAX_INPUT, &len, &status);
                if (input == NULL)
                        goto done;
        } else if (nwords > 0) {
                size_t total = 0, o = 0;

                for (i = 0; i < (int)nwords; i++)
                        total += strlen(words[i]) + 1;
                input = malloc(total + 1);
                if (input == NULL) {
                        cli_error(cmd, "out of memory");
                        status = CLI_FAILURE;
                        goto done;
                }
                for (i = 0; i < (int)nwords; i++) {
                        size_t n = strlen(words[i]);

                        if (i > 0)
                                input[o++] = ' ';
                        memcpy(input + o, words[i], n);
                        o += n;
                }
                input[o] = '\0';
                len = o;
        } else {
                cli_error(cmd, "what to explain: a status, an error code or a message (see 'cudnnctl explain --help')");
                goto usage;
        }
        eo.input_len = len;
        /* The input was read above (over the library's 64 MiB it was
         * refused there); what fails here is the compiled-in catalog's. */
        if (cudnnctl_explain(len ? input : "", &eo, &doc, &err) < 0) {
                status = cli_fail(cmd, &err, CLI_SRC_TOOL);
                goto done;
        }
        if (cudnnctl_value_len(cudnnctl_value_get(doc, "matches")) == 0) {
                const cudnnctl_value *sugg = cudnnctl_value_get(doc, "suggestions");
                const cudnnctl_value *notes = cudnnctl_value_get(doc, "notes");
                char what[80], line[400] = "";
                size_t k;

                echo(input, len, what, sizeof(what));
                for (k = 0; k < cudnnctl_value_len(notes); k++)
                        snprintf(line + strlen(line), sizeof(line) - strlen(line), "; %s",
                                 cudnnctl_value_str(cudnnctl_value_at(notes, k)));
                for (k = 0; k < cudnnctl_value_len(sugg); k++)
                        snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s", k ? ", " : "; did you mean ",
                                 cudnnctl_value_str(cudnnctl_value_at(sugg, k)));
                if (len == 0)
                        cli_error(cmd, "not recognised: the input is empty");
                else
                        cli_error(cmd, "'%s' is not recognised%s%s", what, line, cudnnctl_value_len(sugg) ? "?" : "");
                if (json)
                        status = cli_print_doc(cmd, doc, 1, 0, cudnnctl_explain_text, verbose);
                if (status == CLI_OK)
                        status = CLI_NOTFOUND;
                goto done;
        }
        status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_explain_text, verbose);
done:
        cudnnctl_value_free(doc);
        free(input);
        free((void *)words);
        return status;
usage:
        free((void *)words);
        return CLI_USAGE;
}
