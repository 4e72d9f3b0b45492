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

/* The commands, in the order `cudnnctl --help` lists them. Each one's
 * options, help and code are in its own cmd_*.c. */
const struct cli_cmd *const cli_commands[] = {
    &cli_cmd_doctor,    &cli_cmd_frameworks, &cli_cmd_inspect, &cli_cmd_list,    &cli_cmd_which, &cli_cmd_deps,
    &cli_cmd_verify,    &cli_cmd_compat,     &cli_cmd_plan,    &cli_cmd_explain, &cli_cmd_fetch, &cli_cmd_install,
    &cli_cmd_uninstall, &cli_cmd_rollback,   &cli_cmd_recover, &cli_cmd_history, &cli_cmd_env,   &cli_cmd_exec,
    &cli_cmd_use,       &cli_cmd_who_uses,   &cli_cmd_diff,    &cli_cmd_report,
};
const size_t cli_ncommands = sizeof(cli_commands) / sizeof(cli_commands[0]);

static const struct cli_cmd *find_cmd(const char *name)
{
        size_t i;

        for (i = 0; i < cli_ncommands; i++)
                if (strcmp(cli_commands[i]->name, name) == 0)
                        return cli_commands[i];
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
                cli_main_usage(stderr);
                return CLI_USAGE;
        }
        if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
                printf("cudnnctl %s (JSON schema %d, archives: %s)\n", cudnnctl_version(), CUDNNCTL_JSON_SCHEMA_VERSION,
                       cudnnctl_have_archives() ? "libarchive" : "not supported");
                return finish(CLI_OK);
        }
        if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
                cli_main_usage(stdout);
                return finish(CLI_OK);
        }
        if (strcmp(argv[1], "help") == 0) {
                if (argc < 3) {
                        cli_main_usage(stdout);
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
        /* The probe child: this program re-executed to load CUDA/cuDNN code
         * (not a command; it reports on its standard output, see probe.h). */
        if (strcmp(argv[1], "__probe") == 0)
                return argc > 2 ? cudnnctl_probe_child(argc - 2, argv + 2) : CLI_USAGE;
        /* The manual page, the shell completions and the tests' dump of the
         * option tables, made from the tables themselves (CMakeLists.txt). */
        if (strcmp(argv[1], "__gen") == 0)
                return finish(cli_gen(argc - 2, argv + 2));
        if (argv[1][0] == '-') {
                cli_error(NULL, "unknown option '%s' (see 'cudnnctl --help')", argv[1]);
                return CLI_USAGE;
        }
        cmd = find_cmd(argv[1]);
        if (cmd == NULL) {
                cli_error(NULL, "unknown command '%s' (see 'cudnnctl --help')", argv[1]);
                return CLI_USAGE;
        }
        /* However the command ends (Ctrl+C, SIGTERM, SIGHUP, a closed pipe,
         * an error, exit), no probe child or what it started keeps running
         * and no temporary directory stays. Not for the probe child above:
         * its parent does that for it. */
        {
                cudnnctl_error err = {0};

                if (cudnnctl_cleanup_install(&err) < 0)
                        return cli_fail(NULL, &err, CLI_SRC_TOOL);
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
