/* cudnnctl install SOURCE: a cuDNN release into a target, in one
 * transaction that a crash, a full disk or kill -9 cannot leave half done. */
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

enum { OPT_INTO = 1, OPT_CUDA, OPT_DRY_RUN, OPT_YES, OPT_FORCE, OPT_LOG, OPT_NO_VERIFY, OPT_MANIFEST };

static const struct cli_opt opts[] = {
    {.name = "into",
     .arg = "DIR",
     .id = OPT_INTO,
     .flags = CLI_DIR,
     .help = "install into this directory: a CUDA toolkit (merged as NVIDIA's guide does, with the\n"
             "toolkit's own lib64/lib names) or any prefix"},
    {.name = "cuda",
     .arg = "VERSION",
     .id = OPT_CUDA,
     .help = "install into this machine's CUDA toolkit of that version (13.0, 12)"},
    {.name = "dry-run",
     .short_name = 'n',
     .id = OPT_DRY_RUN,
     .help = "print the whole plan and every check, and write nothing"},
    {.name = "yes", .short_name = 'y', .id = OPT_YES, .help = "do not ask before writing"},
    {.name = "force",
     .id = OPT_FORCE,
     .help = "install a build for another CUDA major, and replace files that are not cuDNN's or\n"
             "were changed by hand (kept in the backup)"},
    {.name = "log",
     .arg = "FILE",
     .id = OPT_LOG,
     .flags = CLI_FILE,
     .help = "also write the log (a line per check and per file) to FILE"},
    {.name = "manifest",
     .arg = "FILE",
     .id = OPT_MANIFEST,
     .flags = CLI_FILE,
     .help = "check the archive against NVIDIA's redistrib JSON (redistrib_VERSION.json) rather\n"
             "than a .sha256/.md5 file beside it or the knowledge base: it must list the archive\n"
             "by name, with its size and digest"},
    {.name = "no-verify",
     .id = OPT_NO_VERIFY,
     .help = "do not run verify on the installed release (it runs by default: a failure there\n"
             "does not undo the install; `cudnnctl rollback` does)"},
    {.like = &cli_opt_verbose, .help = "list every operation, not only what replaces or removes a file"},
    {.like = &cli_opt_json},
    {.group = &cli_machine_group},
    {0},
};

static int cmd_install(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

const struct cli_cmd cli_cmd_install = {
    .name = "install",
    .fn = cmd_install,
    .summary = "install a cuDNN archive, wheel or directory, checked first and undoable",
    .opts = opts,
    .args = "SOURCE",
    .args_kind = CLI_FILE,
    .about = "Installs a cuDNN release: an archive of any era (the 7.x-8.2 .tgz with cuda/include and\n"
             "cuda/lib64, the 8.3+ and 9.x .tar.xz, the Windows .zip files), an nvidia-cudnn-cuXX wheel,\n"
             "or an unpacked directory of any of those. Everything is planned and checked first (the\n"
             "source's layout, safety and checksum, its CUDA major against the toolkit's, its system and\n"
             "machine, the target's permissions and free space, what it replaces); a check that says stop\n"
             "ends it before anything is written. Another release of the same major in the target is\n"
             "replaced as a whole, so that no sub-library of it stays beside the new one; other majors\n"
             "are left. The write is one transaction (a journal in DIR/.cudnnctl): killed at any moment,\n"
             "the next cudnnctl command on the target puts it back as it was. Without --into or --cuda the\n"
             "release goes side by side into /opt/cudnn/VERSION-cudaMAJOR (as root), else\n"
             "~/.local/share/cudnnctl/cudnn/...; on Windows %ProgramFiles%\\NVIDIA\\CUDNN\\vMAJOR.MINOR.",
    .more = "Exit status 1: a check said stop, or the transaction failed (and was undone).\n"
            "Without --yes, a terminal is asked before writing; other input is refused.",
};

static void progress(void *ctx, uint64_t done, uint64_t total, const char *member)
{
        const char *base = member ? strrchr(member, '/') : NULL;
        const char *name = base ? base + 1 : member ? member : "";

        (void)ctx;
        if (total == 0) /* read and staged in one pass: the total is not known yet */
                fprintf(stderr, "\r  staging %6.1f MB %.60s\033[K", (double)done / 1e6, name);
        else
                fprintf(stderr, "\r  staging %3d%% %.60s\033[K", (int)(done * 100 / total), name);
        if (total != 0 && done >= total)
                fputc('\n', stderr);
        fflush(stderr);
}

static const char *result_status(const cudnnctl_value *doc)
{
        return cudnnctl_value_str(cudnnctl_value_path(doc, "result/status"));
}

static int cmd_install(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        struct cli_machine cm = {0};
        cudnnctl_install_options o;
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        int json = 0, verbose = 0, yes = 0, id, status = CLI_OK, r;

        memset(&o, 0, sizeof(o));
        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, cmd)) != CLI_END) {
                if ((r = cli_machine_opt(&cm, id, p.arg, cmd)) != 0) {
                        if (r < 0)
                                goto usage;
                        continue;
                }
                switch (id) {
                case OPT_INTO:
                        o.into = p.arg;
                        break;
                case OPT_CUDA:
                        o.cuda = p.arg;
                        break;
                case OPT_DRY_RUN:
                        o.dry_run = 1;
                        break;
                case OPT_YES:
                        yes = 1;
                        break;
                case OPT_FORCE:
                        o.force = 1;
                        break;
                case OPT_LOG:
                        o.log_file = p.arg;
                        break;
                case OPT_NO_VERIFY:
                        o.no_verify = 1;
                        break;
                case OPT_MANIFEST:
                        o.manifest = p.arg;
                        break;
                case CLI_OPT_VERBOSE:
                        verbose = 1;
                        break;
                case CLI_OPT_JSON:
                        json = 1;
                        break;
                case CLI_OPT_HELP:
                        cli_usage(cmd);
                        cli_machine_free(&cm);
                        return CLI_OK;
                case CLI_POSITIONAL:
                        if (o.source != NULL) {
                                cli_error(cmd, "one SOURCE only ('%s' and '%s')", o.source, p.arg);
                                goto usage;
                        }
                        o.source = p.arg;
                        break;
                default:
                        goto usage;
                }
        }
        if (o.source == NULL) {
                cli_error(cmd, "no SOURCE given (see 'cudnnctl install --help')");
                goto usage;
        }
        if (o.into != NULL && o.cuda != NULL) {
                cli_error(cmd, "--into and --cuda both name the target: give one");
                goto usage;
        }
        status = cli_machine_open(&cm, cmd, &m);
        if (status != CLI_OK)
                goto done;
        if (!o.dry_run && !yes) {
                /* Ask a person; refuse anyone else. The plan shown is made
                 * again (and checked again) by the real run. */
                char answer[16];

                if (!cli_isatty(0)) {
                        cli_error(cmd, "standard input is not a terminal: give --yes to install without a prompt "
                                       "(or --dry-run to see the plan)");
                        status = CLI_USAGE;
                        goto done;
                }
                o.dry_run = 1;
                if (cudnnctl_install(m, &o, &doc, &err) < 0) {
                        status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
                        goto done;
                }
                status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_install_text, verbose);
                if (status != CLI_OK)
                        goto done;
                r = result_status(doc) != NULL && strcmp(result_status(doc), "stopped") == 0;
                cudnnctl_value_free(doc);
                doc = NULL;
                if (r) {
                        status = CLI_PROBLEM;
                        goto done;
                }
                fprintf(stderr, "Install? [y/N] ");
                fflush(stderr);
                if (fgets(answer, sizeof(answer), stdin) == NULL || (answer[0] != 'y' && answer[0] != 'Y')) {
                        fprintf(stderr, "nothing was written\n");
                        status = CLI_PROBLEM;
                        goto done;
                }
                o.dry_run = 0;
        }
        if (!o.dry_run && !json && cli_isatty(2)) {
                o.progress = progress;
        }
        if (cudnnctl_install(m, &o, &doc, &err) < 0) {
                status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
                goto done;
        }
        status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_install_text, verbose);
        if (status == CLI_OK) {
                const char *st = result_status(doc);

                if (st == NULL || strcmp(st, "stopped") == 0 || strcmp(st, "failed") == 0)
                        status = CLI_PROBLEM;
        }
done:
        cudnnctl_value_free(doc);
        cudnnctl_machine_free(m);
        cli_machine_free(&cm);
        return status;
usage:
        cli_machine_free(&cm);
        return CLI_USAGE;
}
