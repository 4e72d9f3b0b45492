/* cudnnctl doctor: the check-up of the whole stack, or the checks re-run on
 * facts from another machine (--facts FILE). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_NO_COMPILE = 1, OPT_NO_FRAMEWORKS, OPT_FACTS };

static const struct cli_opt opts[] = {
    {.like = &cli_opt_json, .help = "print the facts and the findings as JSON (docs/json.md)"},
    {.like = &cli_opt_gpu, .help = "GPU work is required for the installation a plain program loads"},
    {.like = &cli_opt_no_gpu},
    {.like = &cli_opt_verbose, .help = "whole evidence values and each finding's source"},
    {.like = &cli_opt_timeout},
    {.name = "no-compile", .id = OPT_NO_COMPILE, .help = "leave out the compile-and-run proof"},
    {.name = "no-frameworks",
     .id = OPT_NO_FRAMEWORKS,
     .help = "leave out the Python frameworks ('cudnnctl frameworks')"},
    {.name = "facts",
     .arg = "FILE",
     .id = OPT_FACTS,
     .help = "re-run the checks on the facts of a 'doctor --json' document (from\n"
             "another machine; - reads standard input); nothing here is read",
     .flags = CLI_FILE},
    {.group = &cli_machine_group},
    {0},
};

static int cmd_doctor(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

const struct cli_cmd cli_cmd_doctor = {
    .name = "doctor",
    .fn = cmd_doctor,
    .summary = "check-up of the whole stack: driver, toolkits, cuDNN, loader, headers, proof, hygiene",
    .opts = opts,
    .about = "Gathers the facts of the whole stack (every cuDNN installation, what the loader finds,\n"
             "each installation's dependencies, the proof of up to four installations in child\n"
             "processes, the CUDA toolkits, the driver, the search paths, what each Python framework\n"
             "was built with and loads), runs one check per known\n"
             "failure, and prints one line per area, then the findings, most severe first, each with\n"
             "its evidence and the fix for this machine. Finding ids are the failure catalog's slugs\n"
             "(README: 'Findings').",
    .more = "With --root (or a --system other than this one's) nothing is loaded or run: the driver's\n"
            "version comes from its files and what only a probe can tell is reported as not checked.\n"
            "Exit status 0: no errors (warnings and notes may be there); 1: errors found; 2: bad\n"
            "command line or an unreadable --facts file.",
};

enum { MAX_FACTS = 256 << 20 };

static int cmd_doctor(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        struct cli_machine cm = {0};
        cudnnctl_doctor_options o;
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL, *in = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        const char *facts = NULL;
        int json = 0, verbose = 0, id, status = CLI_OK, r;

        memset(&o, 0, sizeof(o));
        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, cmd)) != CLI_END) {
                if ((r = cli_machine_opt(&cm, id, p.arg, cmd)) != 0) {
                        if (r < 0)
                                goto usage;
                        continue;
                }
                switch (id) {
                case CLI_OPT_JSON:
                        json = 1;
                        break;
                case CLI_OPT_GPU:
                        o.gpu = CUDNNCTL_GPU_ON;
                        break;
                case CLI_OPT_NO_GPU:
                        o.gpu = CUDNNCTL_GPU_OFF;
                        break;
                case OPT_NO_COMPILE:
                        o.no_compile = 1;
                        break;
                case OPT_NO_FRAMEWORKS:
                        o.no_frameworks = 1;
                        break;
                case CLI_OPT_VERBOSE:
                        verbose = 1;
                        break;
                case OPT_FACTS:
                        facts = p.arg;
                        break;
                case CLI_OPT_TIMEOUT:
                        if (cli_timeout_ms(cmd, p.arg, &o.timeout_ms) < 0)
                                goto usage;
                        break;
                case CLI_OPT_HELP:
                        cli_usage(cmd);
                        cli_machine_free(&cm);
                        return CLI_OK;
                case CLI_POSITIONAL:
                        cli_error(cmd, "takes no arguments ('%s'); 'cudnnctl verify INSTALL' proves one installation",
                                  p.arg);
                        goto usage;
                default:
                        goto usage;
                }
        }
        if (facts != NULL) {
                size_t len = 0;
                char *text;

                if (cm.o.root != NULL || cm.nset > 0 || cm.o.env_file != NULL) {
                        cli_error(cmd, "--facts re-runs the checks on recorded facts: --root, --env and --set do not "
                                       "apply");
                        goto usage;
                }
                text = cli_read_input(cmd, "--facts ", facts, MAX_FACTS, &len, &status);
                if (text == NULL) {
                        if (status != CLI_FAILURE)
                                status = CLI_USAGE; /* documented: an unreadable --facts file is 2 */
                        goto done;
                }
                if (cudnnctl_json_parse(text, len, &in, &err) < 0) {
                        free(text);
                        cli_error(cmd, "--facts %s: %s", facts, err.msg);
                        status = cli_exit_status(&err, CLI_SRC_ARGS);
                        goto done;
                }
                free(text);
                if (cudnnctl_doctor_recheck(in, &doc, &err) < 0) {
                        cli_error(cmd, "--facts %s: %s", facts, err.msg);
                        status = cli_exit_status(&err, CLI_SRC_ARGS);
                        goto done;
                }
        } else {
                status = cli_machine_open(&cm, cmd, &m);
                if (status != CLI_OK)
                        goto done;
                if (cudnnctl_doctor(m, &o, &doc, &err) < 0) {
                        status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
                        goto done;
                }
        }
        status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_doctor_text, verbose);
        if (status == CLI_OK && cudnnctl_value_int(cudnnctl_value_path(doc, "summary/errors")) > 0)
                status = CLI_PROBLEM;
done:
        cudnnctl_value_free(in);
        cudnnctl_value_free(doc);
        cudnnctl_machine_free(m);
        cli_machine_free(&cm);
        return status;
usage:
        cli_machine_free(&cm);
        return CLI_USAGE;
}
