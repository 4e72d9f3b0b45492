/* cudnnctl fetch VERSION: a release's archive or wheel into the cache,
 * checked while it streams; the path on standard output. */
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

enum { OPT_CUDA = 1, OPT_SYSTEM, OPT_ARCH, OPT_SOURCE, OPT_INDEX, OPT_CACHE, OPT_OFFLINE, OPT_DRY_RUN };

static const struct cli_opt opts[] = {
    {.name = "cuda",
     .arg = "MAJOR",
     .id = OPT_CUDA,
     .help = "the build for this CUDA major (11, 12, 13; default: the plan's for this machine, else the\n"
             "newest the release has)"},
    {.name = "system",
     .arg = "SYS",
     .id = OPT_SYSTEM,
     .values = "linux windows",
     .help = "the build for this system (default: this one)"},
    {.name = "arch",
     .arg = "ARCH",
     .id = OPT_ARCH,
     .values = "x86_64 sbsa aarch64",
     .help = "the build for this machine (default: this one; sbsa: Arm servers, aarch64: Jetson)"},
    {.name = "source",
     .arg = "SRC",
     .id = OPT_SOURCE,
     .values = "redist pypi",
     .help = "redist: NVIDIA's archives (default); pypi: the nvidia-cudnn-cuNN wheels"},
    {.name = "index",
     .arg = "URL",
     .id = OPT_INDEX,
     .help = "the index to read instead of the source's own (a mirror: the directory of the\n"
             "redistrib_*.json files, or a PyPI simple index)"},
    {.name = "cache",
     .arg = "DIR",
     .id = OPT_CACHE,
     .flags = CLI_DIR,
     .help = "the cache (default ~/.cache/cudnnctl; %LOCALAPPDATA%\\cudnnctl on Windows)"},
    {.name = "offline", .id = OPT_OFFLINE, .help = "the cache only: no request at all"},
    {.name = "dry-run",
     .short_name = 'n',
     .id = OPT_DRY_RUN,
     .help = "say what would be downloaded, from where, its size and SHA-256; download nothing"},
    {.like = &cli_opt_timeout, .help = "no connection or no data for this long fails a request (default 30)"},
    {.like = &cli_opt_json},
    {0},
};

static int cmd_fetch(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env);

const struct cli_cmd cli_cmd_fetch = {
    .name = "fetch",
    .fn = cmd_fetch,
    .summary = "download a cuDNN release into the cache, its SHA-256 checked while it streams",
    .opts = opts,
    .args = "VERSION",
    .about = "Downloads the archive (NVIDIA's redistributables) or the wheel (PyPI) of a cuDNN release\n"
             "into the cache and prints its path. VERSION may be partial (9, 9.19): the newest release\n"
             "that matches, for this system and machine and the CUDA major asked for. For this machine,\n"
             "without --cuda or with a partial VERSION, its driver, GPUs and toolkits decide as 'cudnnctl\n"
             "plan' does: the plan's CUDA build, and only releases the driver runs and every GPU is\n"
             "supported by. The size and the SHA-256 that the manifest or the index gives are checked\n"
             "while the file streams; it is written as NAME.part and renamed to NAME only when both\n"
             "match (a mismatch removes it). A download broken off is resumed by the next run. A file\n"
             "already in the cache, whole, is the answer at once. Proxies come from http_proxy,\n"
             "https_proxy and no_proxy.",
    .more = "Exit status 3: no release matches, or the server has no such page or file (HTTP 404);\n"
            "1: a request failed (time-out, closed early), the index or manifest cannot be read, or\n"
            "the file's size or SHA-256 does not match.",
};

struct ui {
        int bar;
        int drawn;
        int json;
};

static void progress(void *ctx, uint64_t done, uint64_t total)
{
        struct ui *u = ctx;

        if (!u->bar)
                return;
        if (total)
                fprintf(stderr, "\r  %3d%% %9.1f of %.1f MB\033[K", (int)(done * 100 / total), (double)done / 1e6,
                        (double)total / 1e6);
        else
                fprintf(stderr, "\r  %9.1f MB\033[K", (double)done / 1e6);
        u->drawn = 1;
        fflush(stderr);
}

static void note(void *ctx, const char *line)
{
        struct ui *u = ctx;

        if (u->drawn) {
                fputc('\n', stderr);
                u->drawn = 0;
        }
        fprintf(stderr, "cudnnctl fetch: %s\n", line);
}

/* The fetch options that install VERSION shares: their values checked. */
int cli_fetch_source(const struct cli_cmd *cmd, const char *arg, int *source)
{
        if (strcmp(arg, "redist") == 0)
                *source = CUDNNCTL_FETCH_REDIST;
        else if (strcmp(arg, "pypi") == 0)
                *source = CUDNNCTL_FETCH_PYPI;
        else {
                cli_error(cmd, "--source '%s': redist or pypi", arg);
                return -1;
        }
        return 0;
}

int cli_fetch_cuda_major(const struct cli_cmd *cmd, const char *arg, int *major)
{
        cudnnctl_ver v;

        if (cudnnctl_ver_parse(arg, &v) < 0 || v.part[0] < 1 || v.part[0] > 99) {
                cli_error(cmd, "--cuda '%s': a CUDA major (11, 12, 13)", arg);
                return -1;
        }
        *major = (int)v.part[0];
        return 0;
}

int cli_fetch_facts(const struct cli_cmd *cmd, struct cli_machine *cm, cudnnctl_fetch_options *fo,
                    cudnnctl_value **facts)
{
        cudnnctl_doctor_options dopt;
        cudnnctl_machine *m = NULL;
        cudnnctl_error err = {0};
        cudnnctl_ver v;
        int status;

        *facts = NULL;
        /* for another system or machine, or a release and variant both
         * given: nothing of this machine decides */
        if (fo->system != NULL || fo->arch != NULL ||
            (fo->cuda_major != 0 && cudnnctl_ver_parse(fo->version, &v) == 0 && v.n >= 3))
                return CLI_OK;
        if ((status = cli_machine_open(cm, cmd, &m)) != CLI_OK)
                return status;
        memset(&dopt, 0, sizeof(dopt));
        /* the driver, the GPUs and the toolkits decide; the frameworks
         * (seconds of Python) are plan's question, not fetch's */
        dopt.no_compile = 1;
        dopt.no_frameworks = 1;
        if (cudnnctl_doctor(m, &dopt, facts, &err) < 0)
                status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
        cudnnctl_machine_free(m);
        fo->facts = *facts;
        return status;
}

static int cmd_fetch(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        cudnnctl_fetch_options o;
        cudnnctl_value *doc = NULL, *facts = NULL;
        cudnnctl_error err = {0};
        struct cli_machine cm = {0};
        struct cli_parser p;
        struct ui u = {0};
        const char *cuda = NULL, *source = NULL, *timeout = NULL;
        int json = 0, id, status = CLI_OK;

        (void)env;
        memset(&o, 0, sizeof(o));
        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, cmd)) != CLI_END) {
                switch (id) {
                case OPT_CUDA:
                        cuda = p.arg;
                        break;
                case OPT_SYSTEM:
                        o.system = p.arg;
                        break;
                case OPT_ARCH:
                        o.arch = p.arg;
                        break;
                case OPT_SOURCE:
                        source = p.arg;
                        break;
                case OPT_INDEX:
                        o.index = p.arg;
                        break;
                case OPT_CACHE:
                        o.cache = p.arg;
                        break;
                case OPT_OFFLINE:
                        o.offline = 1;
                        break;
                case OPT_DRY_RUN:
                        o.dry_run = 1;
                        break;
                case CLI_OPT_TIMEOUT:
                        timeout = p.arg;
                        break;
                case CLI_OPT_JSON:
                        json = 1;
                        break;
                case CLI_OPT_HELP:
                        cli_usage(cmd);
                        return CLI_OK;
                case CLI_POSITIONAL:
                        if (o.version != NULL) {
                                cli_error(cmd, "one VERSION only ('%s' and '%s')", o.version, p.arg);
                                return CLI_USAGE;
                        }
                        o.version = p.arg;
                        break;
                default:
                        return CLI_USAGE;
                }
        }
        if (o.version == NULL) {
                cli_error(cmd, "no VERSION given (see 'cudnnctl fetch --help')");
                return CLI_USAGE;
        }
        if ((cuda != NULL && cli_fetch_cuda_major(cmd, cuda, &o.cuda_major) < 0) ||
            (source != NULL && cli_fetch_source(cmd, source, &o.source) < 0) ||
            (timeout != NULL && cli_timeout_ms(cmd, timeout, &o.timeout_ms) < 0))
                return CLI_USAGE;
        if ((status = cli_fetch_facts(cmd, &cm, &o, &facts)) != CLI_OK)
                goto done;
        u.json = json;
        u.bar = !json && cli_isatty(2);
        o.progress = progress;
        o.note = note;
        o.ctx = &u;
        if (cudnnctl_fetch(&o, &doc, &err) < 0) {
                if (u.drawn)
                        fputc('\n', stderr);
                status = cli_fail(cmd, &err, CLI_SRC_MACHINE);
                goto done;
        }
        if (u.drawn)
                fputc('\n', stderr);
        if (json) {
                char *text = NULL;

                if (cudnnctl_to_json(doc, 1, &text, &err) < 0) {
                        status = cli_fail(cmd, &err, CLI_SRC_TOOL);
                        goto done;
                }
                if (cli_write(text) < 0 || cli_write("\n") < 0)
                        status = CLI_FAILURE;
                cudnnctl_free(text);
        } else {
                const char *st = cudnnctl_value_str(cudnnctl_value_get(doc, "status"));
                const char *path = cudnnctl_value_str(cudnnctl_value_get(doc, "path"));
                const char *url = cudnnctl_value_str(cudnnctl_value_get(doc, "url"));
                const char *sha = cudnnctl_value_str(cudnnctl_value_get(doc, "sha256"));
                const cudnnctl_value *size = cudnnctl_value_get(doc, "size");
                int64_t cu = cudnnctl_value_int(cudnnctl_value_get(doc, "cuda_major"));
                char line[1024];

                snprintf(line, sizeof(line), "cuDNN %s for %s-%s",
                         cudnnctl_value_str(cudnnctl_value_get(doc, "version")),
                         cudnnctl_value_str(cudnnctl_value_get(doc, "system")),
                         cudnnctl_value_str(cudnnctl_value_get(doc, "arch")));
                if (cu)
                        snprintf(line + strlen(line), sizeof(line) - strlen(line), ", CUDA %lld", (long long)cu);
                if (st != NULL && strcmp(st, "would-download") == 0) {
                        printf("would download %s\n  from %s\n  size %s%lld bytes, sha256 %s\n  into %s\n", line,
                               url ? url : "?", cudnnctl_value_type(size) == CUDNNCTL_INT ? "" : "(unknown) ",
                               (long long)cudnnctl_value_int(size), sha ? sha : "(not given by the index)",
                               path ? path : "?");
                } else {
                        fprintf(stderr, "%s: %s%s%s\n", line, st ? st : "?",
                                st && strcmp(st, "downloaded") == 0 && url ? " from " : "",
                                st && strcmp(st, "downloaded") == 0 && url ? url : "");
                        printf("%s\n", path ? path : "");
                }
        }
done:
        cudnnctl_value_free(doc);
        cudnnctl_value_free(facts);
        return status;
}
