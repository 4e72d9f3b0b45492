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

enum {
        OPT_INTO = 1,
        OPT_CUDA,
        OPT_DRY_RUN,
        OPT_YES,
        OPT_FORCE,
        OPT_LOG,
        OPT_NO_VERIFY,
        OPT_MANIFEST,
        OPT_SOURCE,
        OPT_INDEX,
        OPT_CACHE,
        OPT_OFFLINE,
};

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
     .help = "install into this machine's CUDA toolkit of that version (13.0, 12); with --into, only\n"
             "the CUDA version of the build: of a SOURCE with a build per CUDA version (the Windows\n"
             "installer's bin/12.9/, bin/13.0/...) the one installed (default: the target's CUDA); with\n"
             "SOURCE a VERSION, the build for that CUDA major is fetched"},
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
    {.name = "source",
     .arg = "SRC",
     .id = OPT_SOURCE,
     .values = "redist pypi",
     .help = "with SOURCE a VERSION: fetch NVIDIA's archive (redist, default) or the PyPI wheel"},
    {.name = "index", .arg = "URL", .id = OPT_INDEX, .help = "with SOURCE a VERSION: the index to fetch from"},
    {.name = "cache",
     .arg = "DIR",
     .id = OPT_CACHE,
     .flags = CLI_DIR,
     .help = "with SOURCE a VERSION: fetch's cache (default ~/.cache/cudnnctl)"},
    {.name = "offline", .id = OPT_OFFLINE, .help = "with SOURCE a VERSION: take it from the cache only"},
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
    .args = "SOURCE|VERSION",
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
             "~/.local/share/cudnnctl/cudnn/...; on Windows %ProgramFiles%\\NVIDIA\\CUDNN\\vMAJOR.MINOR.\n"
             "A VERSION that is not a path (9, 9.19, 9.19.0.56) is 'cudnnctl fetch VERSION' first (the\n"
             "build for --cuda's major, this system and machine), then the install of the file fetched,\n"
             "checked against the manifest it was fetched by. --dry-run downloads nothing.",
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

static void fetch_note(void *ctx, const char *line)
{
        (void)ctx;
        fprintf(stderr, "cudnnctl install: %s\n", line);
}

static void fetch_progress(void *ctx, uint64_t done, uint64_t total)
{
        (void)ctx;
        if (total)
                fprintf(stderr, "\r  downloading %3d%% %9.1f of %.1f MB\033[K", (int)(done * 100 / total),
                        (double)done / 1e6, (double)total / 1e6);
        if (total && done >= total)
                fputc('\n', stderr);
        fflush(stderr);
}

static char *str_copy(const char *s)
{
        size_t n = strlen(s) + 1;
        char *p = malloc(n);

        if (p != NULL)
                memcpy(p, s, n);
        return p;
}

/* SOURCE given as a release: fetch it. 0 with *path (and *manifest, for
 * an archive of the redist directory) set, or *stop = 1 when a dry run
 * would have to download it (said on stdout); else the exit status. */
static int fetch_source(const struct cli_cmd *cmd, cudnnctl_fetch_options *fo, int json, char **path, char **manifest,
                        int *stop)
{
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        const char *st, *p, *m;
        int status = CLI_OK;

        *stop = 0;
        if (!json && cli_isatty(2) && !fo->dry_run)
                fo->progress = fetch_progress;
        fo->note = fetch_note;
        if (cudnnctl_fetch(fo, &doc, &err) < 0)
                return cli_fail(cmd, &err, CLI_SRC_MACHINE);
        st = cudnnctl_value_str(cudnnctl_value_get(doc, "status"));
        p = cudnnctl_value_str(cudnnctl_value_get(doc, "path"));
        m = cudnnctl_value_str(cudnnctl_value_get(doc, "manifest"));
        if (st != NULL && strcmp(st, "would-download") == 0) {
                char *text = NULL;

                *stop = 1;
                if (json) {
                        if (cudnnctl_to_json(doc, 1, &text, &err) < 0 || cli_write(text) < 0 || cli_write("\n") < 0)
                                status = CLI_FAILURE;
                        cudnnctl_free(text);
                } else {
                        const cudnnctl_value *size = cudnnctl_value_get(doc, "size");
                        const char *sha = cudnnctl_value_str(cudnnctl_value_get(doc, "sha256"));

                        printf("would download cuDNN %s (%s)\n  from %s\n  size %lld bytes, sha256 %s\n  into %s\n"
                               "and install it (the plan needs the file: 'cudnnctl fetch' it, then --dry-run again)\n",
                               cudnnctl_value_str(cudnnctl_value_get(doc, "version")),
                               cudnnctl_value_str(cudnnctl_value_get(doc, "file")),
                               cudnnctl_value_str(cudnnctl_value_get(doc, "url")), (long long)cudnnctl_value_int(size),
                               sha ? sha : "(not given by the index)", p);
                }
                cudnnctl_value_free(doc);
                return status;
        }
        *path = p ? str_copy(p) : NULL;
        *manifest = m ? str_copy(m) : NULL;
        cudnnctl_value_free(doc);
        if (*path == NULL || (m != NULL && *manifest == NULL)) {
                cli_error(cmd, "out of memory");
                return CLI_FAILURE;
        }
        if (!json)
                fprintf(stderr, "cudnnctl install: %s %s\n", st ? st : "fetched", *path);
        return CLI_OK;
}

/* Whether SOURCE names a release rather than a file: it is not a path that
 * exists, and it reads as a version. */
static int is_release(const char *source)
{
        cudnnctl_ver v;
        FILE *f;

        if (cudnnctl_ver_parse(source, &v) < 0)
                return 0;
        f = fopen(source, "rb");
        if (f != NULL) {
                fclose(f);
                return 0;
        }
        return 1;
}

static const char *result_status(const cudnnctl_value *doc)
{
        return cudnnctl_value_str(cudnnctl_value_path(doc, "result/status"));
}

static int cmd_install(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        struct cli_machine cm = {0};
        cudnnctl_install_options o;
        cudnnctl_fetch_options fo;
        char *fetched = NULL, *fetched_manifest = NULL;
        cudnnctl_value *fetch_facts = NULL;
        const char *fetch_src = NULL;
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        int json = 0, verbose = 0, yes = 0, id, status = CLI_OK, r;

        memset(&o, 0, sizeof(o));
        memset(&fo, 0, sizeof(fo));
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
                case OPT_SOURCE:
                        fetch_src = p.arg;
                        break;
                case OPT_INDEX:
                        fo.index = p.arg;
                        break;
                case OPT_CACHE:
                        fo.cache = p.arg;
                        break;
                case OPT_OFFLINE:
                        fo.offline = 1;
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
        if (is_release(o.source)) {
                int stop = 0;

                fo.version = o.source;
                fo.dry_run = o.dry_run;
                if (fetch_src != NULL && cli_fetch_source(cmd, fetch_src, &fo.source) < 0)
                        goto usage;
                if (o.cuda != NULL && cli_fetch_cuda_major(cmd, o.cuda, &fo.cuda_major) < 0)
                        goto usage;
                if (cm.o.system == CUDNNCTL_SYSTEM_WINDOWS)
                        fo.system = "windows";
                else if (cm.o.system == CUDNNCTL_SYSTEM_LINUX)
                        fo.system = "linux";
                status = cli_fetch_facts(cmd, &cm, &fo, &fetch_facts);
                if (status != CLI_OK)
                        goto done;
                status = fetch_source(cmd, &fo, json, &fetched, &fetched_manifest, &stop);
                if (status != CLI_OK || stop)
                        goto done;
                o.source = fetched;
                if (o.manifest == NULL)
                        o.manifest = fetched_manifest;
        } else if (fo.index != NULL || fo.cache != NULL || fo.offline || fetch_src != NULL) {
                cli_error(cmd,
                          "--source, --index, --cache and --offline are for a SOURCE that is a VERSION; '%s' is a "
                          "path",
                          o.source);
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
        free(fetched);
        free(fetched_manifest);
        cudnnctl_value_free(fetch_facts);
        return status;
usage:
        cli_machine_free(&cm);
        free(fetched);
        free(fetched_manifest);
        cudnnctl_value_free(fetch_facts);
        return CLI_USAGE;
}
