/* cudnnctl doctor: the check-up of the whole stack, or the checks re-run on
 * facts from another machine (--facts FILE). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#include <io.h>
#define cli_isatty(fd) _isatty(fd)
#else
#include <unistd.h>
#define cli_isatty(fd) isatty(fd)
#endif

enum {
        OPT_NO_COMPILE = 1,
        OPT_RECOMPILE,
        OPT_NO_FRAMEWORKS,
        OPT_FACTS,
        OPT_FIX,
        OPT_DRY_RUN,
        OPT_YES,
        OPT_FROM,
        OPT_QUIET
};

static const struct cli_opt opts[] = {
    {.like = &cli_opt_json, .help = "print the facts and the findings as JSON (docs/json.md)"},
    {.like = &cli_opt_gpu, .help = "GPU work is required for the installation a plain program loads"},
    {.like = &cli_opt_no_gpu},
    {.like = &cli_opt_verbose, .help = "whole evidence values and each finding's source"},
    {.like = &cli_opt_timeout},
    {.name = "quiet",
     .short_name = 'q',
     .id = OPT_QUIET,
     .help = "no progress on standard error (shown on a terminal)"},
    {.name = "no-compile", .id = OPT_NO_COMPILE, .help = "leave out the compile-and-run proof"},
    {.name = "recompile",
     .id = OPT_RECOMPILE,
     .help = "compile the proof's program afresh, not run the build kept while its inputs are unchanged"},
    {.name = "no-frameworks",
     .id = OPT_NO_FRAMEWORKS,
     .help = "leave out the Python frameworks ('cudnnctl frameworks')"},
    {.name = "facts",
     .arg = "FILE",
     .id = OPT_FACTS,
     .help = "re-run the checks on the facts of a 'doctor --json' document (from\n"
             "another machine; - reads standard input); nothing here is read",
     .flags = CLI_FILE},
    {.name = "fix",
     .id = OPT_FIX,
     .help = "carry out the fixes that are changes of files (the findings ID... given, else\n"
             "every one), each directory one transaction 'cudnnctl rollback DIR' undoes, then\n"
             "check again; the other fixes are printed as the command that does it, or as text"},
    {.name = "dry-run", .short_name = 'n', .id = OPT_DRY_RUN, .help = "with --fix: print the plan, write nothing"},
    {.name = "yes", .short_name = 'y', .id = OPT_YES, .help = "with --fix: do not ask before writing"},
    {.name = "from",
     .arg = "RELEASE",
     .id = OPT_FROM,
     .help = "with --fix: a cuDNN archive, wheel or unpacked release; a directory holding\n"
             "two releases keeps this one and gets the libraries of it that it lacks",
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
    .args = "[ID...]",
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

/* Progress on standard error, for a terminal: each part of the work as it
 * is done, and a child still running after a second. */
static void progress(void *ctx, int event, const char *what)
{
        (void)ctx;
        fprintf(stderr, event == CUDNNCTL_PROGRESS_WAITING ? "  ... waiting for %s\n" : "  - %s\n", what);
        fflush(stderr);
}

void cli_progress(int quiet, cudnnctl_progress_fn *fn, void **ctx)
{
        *fn = !quiet && cli_isatty(2) ? progress : NULL;
        *ctx = NULL;
}

static int cmd_doctor(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        struct cli_machine cm = {0};
        cudnnctl_doctor_options o;
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL, *in = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        const char *facts = NULL, *from = NULL;
        const char **ids = NULL;
        size_t nids = 0;
        int json = 0, verbose = 0, id, status = CLI_OK, r, fix = 0, dry = 0, yes = 0, quiet = 0;

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
                case OPT_RECOMPILE:
                        o.recompile = 1;
                        break;
                case OPT_NO_FRAMEWORKS:
                        o.no_frameworks = 1;
                        break;
                case OPT_QUIET:
                        quiet = 1;
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
                case OPT_FIX:
                        fix = 1;
                        break;
                case OPT_DRY_RUN:
                        dry = 1;
                        break;
                case OPT_YES:
                        yes = 1;
                        break;
                case OPT_FROM:
                        from = p.arg;
                        break;
                case CLI_POSITIONAL: {
                        const char **nv = realloc(ids, (nids + 1) * sizeof(*ids));

                        if (nv == NULL) {
                                cli_error(cmd, "out of memory");
                                free(ids);
                                cli_machine_free(&cm);
                                return CLI_FAILURE;
                        }
                        ids = nv;
                        ids[nids++] = p.arg;
                        break;
                }
                default:
                        goto usage;
                }
        }
        if (!fix && from != NULL) {
                cli_error(cmd, "--from goes with --fix");
                goto usage;
        }
        if (!fix && (nids > 0 || dry || yes)) {
                cli_error(cmd,
                          nids > 0 ? "takes no arguments without --fix ('%s'); 'cudnnctl verify INSTALL' proves "
                                     "one installation"
                                   : "--dry-run and --yes go with --fix%s",
                          nids > 0 ? ids[0] : "");
                goto usage;
        }
        if (fix) {
                cudnnctl_fix_options fo;

                if (facts != NULL) {
                        cli_error(cmd, "--fix changes this machine (or --root's tree): not with --facts");
                        goto usage;
                }
                memset(&fo, 0, sizeof(fo));
                fo.ids = ids;
                fo.nids = nids;
                fo.timeout_ms = o.timeout_ms;
                fo.from = from;
                status = cli_machine_open(&cm, cmd, &m);
                if (status != CLI_OK)
                        goto done;
                if (!dry && !yes) {
                        char answer[16];

                        if (!cli_isatty(0)) {
                                cli_error(cmd, "standard input is not a terminal: give --yes to go ahead without a "
                                               "prompt (or --dry-run to see what would be done)");
                                status = CLI_USAGE;
                                goto done;
                        }
                        fo.dry_run = 1;
                        if (cudnnctl_doctor_fix(m, &fo, &doc, &err) < 0) {
                                status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
                                goto done;
                        }
                        status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_fix_text, verbose);
                        cudnnctl_value_free(doc);
                        doc = NULL;
                        if (status != CLI_OK)
                                goto done;
                        fprintf(stderr, "Go ahead? [y/N] ");
                        fflush(stderr);
                        if (fgets(answer, sizeof(answer), stdin) == NULL || (answer[0] != 'y' && answer[0] != 'Y')) {
                                fprintf(stderr, "nothing was written\n");
                                status = CLI_PROBLEM;
                                goto done;
                        }
                }
                fo.dry_run = dry;
                if (cudnnctl_doctor_fix(m, &fo, &doc, &err) < 0) {
                        status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
                        goto done;
                }
                status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_fix_text, verbose);
                if (status == CLI_OK && cudnnctl_value_len(cudnnctl_value_get(doc, "left")) > 0)
                        status = CLI_PROBLEM;
                goto done;
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
                cli_progress(quiet, &o.progress, &o.progress_ctx);
                if (cudnnctl_doctor(m, &o, &doc, &err) < 0) {
                        status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
                        goto done;
                }
        }
        status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_doctor_text, verbose);
        if (status == CLI_OK && cudnnctl_value_int(cudnnctl_value_path(doc, "summary/errors")) > 0)
                status = CLI_PROBLEM;
done:
        free(ids);
        cudnnctl_value_free(in);
        cudnnctl_value_free(doc);
        cudnnctl_machine_free(m);
        cli_machine_free(&cm);
        return status;
usage:
        free(ids);
        cli_machine_free(&cm);
        return CLI_USAGE;
}
