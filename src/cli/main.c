/* cudnnctl: the command table and the shared set-up and tear-down of every
 * command (help, version, final flush and write-error check). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <io.h>
#include <windows.h>
#define cli_isatty(fd) _isatty(fd)
#else
#include <unistd.h>
#define cli_isatty(fd) isatty(fd)
#endif

#define EXIT_STATUS_HELP                                                                                               \
        "exit status:\n"                                                                                               \
        "  0  done, nothing wrong found\n"                                                                             \
        "  1  done, a problem was found (an input could not be read or parsed)\n"                                      \
        "  2  bad command line\n"                                                                                      \
        "  3  what was asked for does not exist\n"                                                                     \
        "  4  the tool itself failed (out of memory, cannot write its output)\n"

const struct cli_cmd cli_commands[] = {
    {"inspect", cmd_inspect, "static facts of libraries, headers, archives and directories (never loads them)",
     "inspect [--json] [--root DIR] [--no-members] [--max-entries N] PATH...\n"
     "\n"
     "Reads each PATH without loading or running it and prints what it is: for an ELF or PE\n"
     "library its format, machine, SONAME, needed libraries, RPATH/RUNPATH, imports and delay\n"
     "imports, exports, cuDNN entry points, the version constants cuDNN exports and the whole\n"
     "Windows version resource; for a C header its version macros, evaluated; for a pip\n"
     "dist-info its package and version; for an archive (zip, tgz, tar.xz, wheel) its layout,\n"
     "what it holds and where an install would put it; for a directory every cuDNN file in it.\n"
     "The kind is read from the content, never from the name. Versions are listed once per\n"
     "source (file name, exported constant, header, version resource, dist-info), so\n"
     "disagreements stay visible.\n"
     "\n"
     "  --json            print JSON (docs/json.md, schema_version 1)\n"
     "  --root DIR        read PATHs inside DIR, as if DIR were /\n"
     "  --no-members      list archive members without reading their content\n"
     "  --max-entries N   stop a directory walk after N entries (default 20000)\n"
     "  -h, --help        this text\n"
     "\n" EXIT_STATUS_HELP},
};
const size_t cli_ncommands = sizeof(cli_commands) / sizeof(cli_commands[0]);

static void main_usage(FILE *f)
{
        size_t i;

        fprintf(f, "usage: cudnnctl [--version] [--help] COMMAND [ARGS]\n\n"
                   "Pairs, verifies and diagnoses NVIDIA cuDNN with the CUDA toolkit, driver, GPU and\n"
                   "frameworks. Commands:\n\n");
        for (i = 0; i < cli_ncommands; i++)
                fprintf(f, "  %-10s %s\n", cli_commands[i].name, cli_commands[i].summary);
        fprintf(f, "\n'cudnnctl COMMAND --help' or 'cudnnctl help COMMAND' describes one command.\n\n%s",
                EXIT_STATUS_HELP);
}

static const struct cli_cmd *find_cmd(const char *name)
{
        size_t i;

        for (i = 0; i < cli_ncommands; i++)
                if (strcmp(cli_commands[i].name, name) == 0)
                        return &cli_commands[i];
        return NULL;
}

static int finish(int status)
{
        if (fflush(stdout) != 0 || ferror(stdout)) {
                fprintf(stderr, "cudnnctl: cannot write the output (disk full or pipe closed?)\n");
                return CLI_FAILURE;
        }
        return status;
}

static int run(int argc, char **argv)
{
        struct cli_env env;
        const struct cli_cmd *cmd;
        const char *nc = getenv("NO_COLOR");
        const char *term = getenv("TERM");

        env.prog = "cudnnctl";
        env.color_ok = cli_isatty(1) && (nc == NULL || nc[0] == '\0') && !(term != NULL && strcmp(term, "dumb") == 0);
        if (argc < 2) {
                main_usage(stderr);
                return CLI_USAGE;
        }
        if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
                printf("cudnnctl %s (JSON schema %d, archives: %s)\n", cudnnctl_version(), CUDNNCTL_JSON_SCHEMA_VERSION,
                       cudnnctl_have_archives() ? "libarchive" : "not supported");
                return finish(CLI_OK);
        }
        if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
                main_usage(stdout);
                return finish(CLI_OK);
        }
        if (strcmp(argv[1], "help") == 0) {
                if (argc < 3) {
                        main_usage(stdout);
                        return finish(CLI_OK);
                }
                cmd = find_cmd(argv[2]);
                if (cmd == NULL) {
                        cli_error(NULL, "unknown command '%s' (see 'cudnnctl --help')", argv[2]);
                        return CLI_USAGE;
                }
                cli_usage(cmd);
                return finish(CLI_OK);
        }
        if (argv[1][0] == '-') {
                cli_error(NULL, "unknown option '%s' (see 'cudnnctl --help')", argv[1]);
                return CLI_USAGE;
        }
        cmd = find_cmd(argv[1]);
        if (cmd == NULL) {
                cli_error(NULL, "unknown command '%s' (see 'cudnnctl --help')", argv[1]);
                return CLI_USAGE;
        }
        return finish(cmd->fn(argc - 1, argv + 1, cmd, &env));
}

#if defined(_WIN32)
/* Arguments arrive as UTF-16; everything inside is UTF-8. */
int wmain(int argc, wchar_t **wargv);

int wmain(int argc, wchar_t **wargv)
{
        char **argv = calloc((size_t)argc + 1, sizeof(char *));
        int i, rc;

        if (argv == NULL)
                return CLI_FAILURE;
        for (i = 0; i < argc; i++) {
                int n = WideCharToMultiByte(CP_UTF8, 0, wargv[i], -1, NULL, 0, NULL, NULL);

                argv[i] = malloc(n > 0 ? (size_t)n : 1);
                if (argv[i] == NULL)
                        return CLI_FAILURE;
                if (n <= 0)
                        argv[i][0] = '\0';
                else
                        WideCharToMultiByte(CP_UTF8, 0, wargv[i], -1, argv[i], n, NULL, NULL);
        }
        SetConsoleOutputCP(CP_UTF8);
        rc = run(argc, argv);
        for (i = 0; i < argc; i++)
                free(argv[i]);
        free(argv);
        return rc;
}
#else
int main(int argc, char **argv)
{
        return run(argc, argv);
}
#endif
