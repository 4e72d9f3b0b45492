/* cc_source_open / cc_source_read over the install sources of every era and
 * system (tests/fixtures/gen-install-sources.sh: each archive and the
 * directory it unpacks to), the hostile archives of gen-archives.sh and
 * hostile_archives.py (with the independent model's verdicts in its
 * manifest), hostile directories, and the real cuDNN 9.19 of this machine
 * where it is installed. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/json.h"
#include "formats/sha256.h"
#include "install/source.h"

#ifndef CC_HAVE_LIBARCHIVE
#define CC_HAVE_LIBARCHIVE 0
#endif

#define SRC "install-sources/"

/* ---- helpers ------------------------------------------------------------- */

static void dump(const cc_source *s)
{
        size_t i;

        fprintf(stderr, "source %s: layout %s version %s major %d cuda %d system %s machine %s\n", s->path, s->layout,
                s->version ? s->version : "-", s->major, s->cuda_major, s->system ? s->system : "-",
                s->machine ? s->machine : "-");
        for (i = 0; i < s->stops.n; i++)
                fprintf(stderr, "  stop: %s\n", s->stops.v[i]);
        for (i = 0; i < s->warnings.n; i++)
                fprintf(stderr, "  warning: %s\n", s->warnings.v[i]);
}

static void open_ok(const char *rel, cc_source *s)
{
        char *path = tu_fixture(rel);
        cc_error err = {0};

        if (!tu_exists(path))
                fail_msg("fixture %s is missing", path);
        if (cc_source_open(path, s, &err) != 0)
                fail_msg("%s: %s", path, err.msg);
        free(path);
}

static const cc_src_member *by_name(const cc_source *s, const char *name)
{
        size_t i;

        for (i = 0; i < s->n; i++)
                if (strcmp(s->m[i].name, name) == 0)
                        return &s->m[i];
        dump(s);
        fail_msg("%s: no member %s", s->path, name);
        return NULL;
}

static int has_stop(const cc_source *s, const char *part)
{
        size_t i;

        for (i = 0; i < s->stops.n; i++)
                if (strstr(s->stops.v[i], part) != NULL)
                        return 1;
        return 0;
}

static void assert_str_eq_or_null(const char *got, const char *want)
{
        if (want == NULL) {
                if (got != NULL)
                        fail_msg("expected NULL, got \"%s\"", got);
                return;
        }
        if (got == NULL)
                fail_msg("expected \"%s\", got NULL", want);
        assert_string_equal(got, want);
}

/* ---- every era ----------------------------------------------------------- */

struct era {
        const char *archive; /* below install-sources/archives/ */
        const char *dir;     /* below install-sources/dirs/ */
        const char *layout;
        const char *version;
        int major, cuda_major;
        const char *system, *machine;
        int windows;                 /* needs mingw-w64 */
        const char *pairs[8][2];     /* member name (archive) -> dest */
        const char *dir_pairs[4][2]; /* member name (directory) -> dest */
        size_t installed;            /* members with a dest */
};

static const struct era eras[] = {
    {"cudnn-10.2-linux-x64-v7.6.5.32.tgz",
     "cudnn-10.2-linux-x64-v7.6.5.32",
     "legacy-cuda",
     "7.6.5",
     7,
     10,
     "linux",
     "x86_64",
     0,
     {{"cuda/include/cudnn.h", "include/cudnn.h"},
      {"cuda/lib64/libcudnn.so.7.6.5", "lib/libcudnn.so.7.6.5"},
      {"cuda/lib64/libcudnn.so.7", "lib/libcudnn.so.7"},
      {"cuda/lib64/libcudnn.so", "lib/libcudnn.so"},
      {"cuda/lib64/libcudnn_static.a", "lib/libcudnn_static.a"},
      {"cuda/NVIDIA_SLA_cuDNN_Support.txt", NULL}},
     {{"cuda/lib64/libcudnn.so.7", "lib/libcudnn.so.7"}},
     5},
    {"cudnn-11.4-linux-x64-v8.2.2.26.tgz",
     "cudnn-11.4-linux-x64-v8.2.2.26",
     "legacy-cuda",
     "8.2.2",
     8,
     11,
     "linux",
     "x86_64",
     0,
     {{"cuda/include/cudnn_version.h", "include/cudnn_version.h"},
      {"cuda/lib64/libcudnn.so.8.2.2", "lib/libcudnn.so.8.2.2"},
      {"cuda/lib64/libcudnn_ops_infer.so.8", "lib/libcudnn_ops_infer.so.8"},
      {"cuda/lib64/libcudnn_adv_train.so", "lib/libcudnn_adv_train.so"},
      {"cuda/lib64/libcudnn_static_v8.a", "lib/libcudnn_static_v8.a"},
      {"cuda/lib64", NULL}},
     {{"cuda/lib64/libcudnn_cnn_infer.so.8.2.2", "lib/libcudnn_cnn_infer.so.8.2.2"}},
     9 + 7 * 3 + 2},
    {"cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz",
     "cudnn-linux-x86_64-9.19.0.56_cuda13-archive",
     "redist",
     "9.19.0",
     9,
     13,
     "linux",
     "x86_64",
     0,
     {{"cudnn-linux-x86_64-9.19.0.56_cuda13-archive/lib/libcudnn.so.9.19.0", "lib/libcudnn.so.9.19.0"},
      {"cudnn-linux-x86_64-9.19.0.56_cuda13-archive/lib/libcudnn_graph.so.9", "lib/libcudnn_graph.so.9"},
      {"cudnn-linux-x86_64-9.19.0.56_cuda13-archive/lib/libcudnn_engines_runtime_compiled.so",
       "lib/libcudnn_engines_runtime_compiled.so"},
      {"cudnn-linux-x86_64-9.19.0.56_cuda13-archive/include/cudnn_version_v9.h", "include/cudnn_version_v9.h"},
      {"cudnn-linux-x86_64-9.19.0.56_cuda13-archive/LICENSE", NULL}},
     {{"lib/libcudnn_heuristic.so.9.19.0", "lib/libcudnn_heuristic.so.9.19.0"}, {"LICENSE", NULL}},
     14 + 8 * 3 + 1},
    {"cudnn-linux-sbsa-9.19.0.56_cuda13-archive.tar.xz",
     "cudnn-linux-sbsa-9.19.0.56_cuda13-archive",
     "redist",
     "9.19.0",
     9,
     13,
     "linux",
     "aarch64",
     0,
     {{"cudnn-linux-sbsa-9.19.0.56_cuda13-archive/lib/libcudnn_ops.so.9.19.0", "lib/libcudnn_ops.so.9.19.0"}},
     {{"lib/libcudnn_ops.so.9", "lib/libcudnn_ops.so.9"}},
     14 + 8 * 3 + 1},
    {"nvidia_cudnn_cu13-9.19.0.56-py3-none-manylinux_2_27_x86_64.whl",
     "nvidia_cudnn_cu13-9.19.0.56-py3-none-manylinux_2_27_x86_64",
     "wheel",
     "9.19.0",
     9,
     13,
     "linux",
     "x86_64",
     0,
     {{"nvidia/cudnn/lib/libcudnn.so.9", "lib/libcudnn.so.9"},
      {"nvidia/cudnn/include/cudnn_version.h", "include/cudnn_version.h"},
      {"nvidia/cudnn/__init__.py", NULL},
      {"nvidia_cudnn_cu13-9.19.0.56.dist-info/METADATA", NULL}},
     {{"nvidia/cudnn/lib/libcudnn_adv.so.9", "lib/libcudnn_adv.so.9"}},
     14 + 8},
    {"cudnn-11.4-windows-x64-v8.2.2.26.zip",
     "cudnn-11.4-windows-x64-v8.2.2.26",
     "legacy-cuda",
     "8.2.2",
     8,
     11,
     "windows",
     "x86_64",
     1,
     {{"cuda/bin/cudnn64_8.dll", "bin/cudnn64_8.dll"},
      {"cuda/bin/cudnn_ops_infer64_8.dll", "bin/cudnn_ops_infer64_8.dll"},
      {"cuda/lib/x64/cudnn.lib", "lib/x64/cudnn.lib"},
      {"cuda/lib/x64/cudnn_adv_train64_8.lib", "lib/x64/cudnn_adv_train64_8.lib"},
      {"cuda/include/cudnn.h", "include/cudnn.h"}},
     {{"cuda/lib/x64/cudnn_ops_infer.lib", "lib/x64/cudnn_ops_infer.lib"}},
     9 + 7 + 7 + 6 + 1},
    {"cudnn-windows-x86_64-9.19.0.56_cuda12-archive.zip",
     "cudnn-windows-x86_64-9.19.0.56_cuda12-archive",
     "redist",
     "9.19.0",
     9,
     12,
     "windows",
     "x86_64",
     1,
     {{"cudnn-windows-x86_64-9.19.0.56_cuda12-archive/bin/cudnn64_9.dll", "bin/cudnn64_9.dll"},
      {"cudnn-windows-x86_64-9.19.0.56_cuda12-archive/bin/cudnn_engines_precompiled64_9.dll",
       "bin/cudnn_engines_precompiled64_9.dll"},
      {"cudnn-windows-x86_64-9.19.0.56_cuda12-archive/lib/x64/cudnn.lib", "lib/x64/cudnn.lib"},
      {"cudnn-windows-x86_64-9.19.0.56_cuda12-archive/include/cudnn_graph.h", "include/cudnn_graph.h"}},
     {{"bin/cudnn_graph64_9.dll", "bin/cudnn_graph64_9.dll"}, {"lib/x64/cudnn_ops.lib", "lib/x64/cudnn_ops.lib"}},
     14 + 8 + 8 + 7 + 1},
};

static int have_windows_fixtures(void)
{
        char *p = tu_fixture(SRC "archives/cudnn-11.4-windows-x64-v8.2.2.26.zip");
        int r = tu_exists(p);

        free(p);
        return r;
}

static void check_facts(const cc_source *s, const struct era *e)
{
        if (s->stops.n != 0) {
                dump(s);
                fail_msg("%s: unexpected stops", s->path);
        }
        assert_string_equal(s->layout, e->layout);
        assert_str_eq_or_null(s->version, e->version);
        assert_int_equal(s->major, e->major);
        assert_int_equal(s->cuda_major, e->cuda_major);
        assert_str_eq_or_null(s->system, e->system);
        assert_str_eq_or_null(s->machine, e->machine);
        assert_non_null(s->versions);
}

static size_t count_dests(const cc_source *s)
{
        size_t i, n = 0;

        for (i = 0; i < s->n; i++) {
                const char *d = s->m[i].dest;

                if (d == NULL)
                        continue;
                n++;
                /* below one of the three roots, relative, no empty or dot components */
                if (!(strncmp(d, "include/", 8) == 0 || strncmp(d, "lib/", 4) == 0 || strncmp(d, "bin/", 4) == 0) ||
                    strstr(d, "//") != NULL || strstr(d, "/.") != NULL)
                        fail_msg("%s: member %s has dest %s", s->path, s->m[i].name, d);
                assert_true(s->m[i].type == CC_SRC_FILE || s->m[i].type == CC_SRC_LINK);
        }
        return n;
}

/* The installed members of an archive and of its unpacked directory are the
 * same: dest, type, size, link target. */
static void same_installed(const cc_source *a, const cc_source *d)
{
        size_t i, k;

        for (i = 0; i < a->n; i++) {
                const cc_src_member *m = &a->m[i], *o = NULL;

                if (m->dest == NULL)
                        continue;
                for (k = 0; k < d->n && o == NULL; k++)
                        if (d->m[k].dest != NULL && strcmp(d->m[k].dest, m->dest) == 0)
                                o = &d->m[k];
                if (o == NULL)
                        fail_msg("%s: %s is not in the directory %s", a->path, m->dest, d->path);
                assert_int_equal(o->type, m->type);
                if (m->type == CC_SRC_FILE)
                        assert_int_equal(o->size, m->size);
                if (m->type == CC_SRC_LINK)
                        assert_string_equal(o->link, m->link);
        }
}

static void test_eras(void **state)
{
        size_t i, k;
        int win = have_windows_fixtures();

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(eras); i++) {
                const struct era *e = &eras[i];
                cc_source a, d;
                char rel[512];

                if (e->windows && !win)
                        continue;
                snprintf(rel, sizeof(rel), SRC "dirs/%s", e->dir);
                open_ok(rel, &d);
                check_facts(&d, e);
                assert_int_equal(d.is_archive, 0);
                assert_int_equal(count_dests(&d), e->installed);
                for (k = 0; k < CC_ARRAY_LEN(e->dir_pairs) && e->dir_pairs[k][0] != NULL; k++)
                        assert_str_eq_or_null(by_name(&d, e->dir_pairs[k][0])->dest, e->dir_pairs[k][1]);
                if (CC_HAVE_LIBARCHIVE) {
                        snprintf(rel, sizeof(rel), SRC "archives/%s", e->archive);
                        open_ok(rel, &a);
                        check_facts(&a, e);
                        assert_int_equal(a.is_archive, 1);
                        assert_int_equal(count_dests(&a), e->installed);
                        for (k = 0; k < CC_ARRAY_LEN(e->pairs) && e->pairs[k][0] != NULL; k++)
                                assert_str_eq_or_null(by_name(&a, e->pairs[k][0])->dest, e->pairs[k][1]);
                        same_installed(&a, &d);
                        same_installed(&d, &a);
                        assert_true(a.bytes == d.bytes);
                        assert_true(a.bytes > 0);
                        cc_source_free(&a);
                }
                cc_source_free(&d);
        }
}

/* A legacy directory given as its cuda/ itself, and the link chain kept. */
static void test_legacy_cuda_dir(void **state)
{
        cc_source s;
        const cc_src_member *m;
        struct era e = eras[1];

        (void)state;
        e.cuda_major = -1; /* "cuda" says nothing of it, nor do these stubs' needs */
        open_ok(SRC "dirs/cudnn-11.4-linux-x64-v8.2.2.26/cuda", &s);
        check_facts(&s, &e);
        m = by_name(&s, "lib64/libcudnn.so.8");
        assert_int_equal(m->type, CC_SRC_LINK);
        assert_string_equal(m->link, "libcudnn.so.8.2.2");
        assert_string_equal(m->dest, "lib/libcudnn.so.8");
        m = by_name(&s, "lib64/libcudnn.so.8.2.2");
        assert_int_equal(m->type, CC_SRC_FILE);
        assert_int_equal(m->mode & 0111, 0111); /* gcc's output is executable */
        assert_null(by_name(&s, "lib64")->dest);
        cc_source_free(&s);
}

static void test_installer_dir(void **state)
{
        cc_source s;
        size_t i;
        int said = 0;

        (void)state;
        if (!have_windows_fixtures())
                skip();
        open_ok(SRC "dirs/installer-9.19", &s);
        if (s.stops.n != 0)
                dump(&s);
        assert_int_equal(s.stops.n, 0);
        assert_string_equal(s.layout, "installer");
        assert_string_equal(by_name(&s, "bin/13.0/cudnn64_9.dll")->dest, "bin/cudnn64_9.dll");
        assert_string_equal(by_name(&s, "include/13.0/cudnn_version.h")->dest, "include/cudnn_version.h");
        assert_string_equal(by_name(&s, "lib/13.0/x64/cudnn.lib")->dest, "lib/x64/cudnn.lib");
        assert_string_equal(s.version, "9.19.0");
        assert_int_equal(s.cuda_major, 13);
        assert_string_equal(s.system, "windows");
        for (i = 0; i < s.warnings.n; i++)
                said |= strstr(s.warnings.v[i], "13.0") != NULL;
        assert_true(said);
        cc_source_free(&s);

        open_ok(SRC "dirs/installer-two", &s);
        assert_true(has_stop(&s, "more than one CUDA version (12.9, 13.0)"));
        assert_int_equal(s.stops.n, 1); /* not one more per file that collides with its twin */
        cc_source_free(&s);
}

/* ---- hostile sources ------------------------------------------------------- */

static void test_hostile_dirs(void **state)
{
        cc_source s;

        (void)state;
        open_ok(SRC "dirs/escape", &s);
        if (!has_stop(&s, "unsafe member lib/libcudnn.so.9:"))
                dump(&s);
        assert_true(has_stop(&s, "unsafe member lib/libcudnn.so.9:"));
        cc_source_free(&s);
        if (!have_windows_fixtures())
                return;
        open_ok(SRC "dirs/mixed", &s);
        assert_true(has_stop(&s, "holds libraries of both Linux and Windows"));
        cc_source_free(&s);
        open_ok(SRC "dirs/winnames", &s);
        if (!has_stop(&s, "include/aux.h") || !has_stop(&s, "include/cudnn_extra.h."))
                dump(&s);
        assert_true(has_stop(&s, "include/aux.h"));
        assert_true(has_stop(&s, "include/cudnn_extra.h."));
        cc_source_free(&s);
}

static void test_no_library(void **state)
{
        char tmpl[] = "/tmp/cudnnctl-test-src-XXXXXX", p[600];
        cc_source s;
        cc_error err = {0};
        FILE *f;

        (void)state;
        assert_non_null(mkdtemp(tmpl));
        snprintf(p, sizeof(p), "%s/include", tmpl);
        assert_int_equal(mkdir(p, 0755), 0);
        snprintf(p, sizeof(p), "%s/include/cudnn_version.h", tmpl);
        f = fopen(p, "w");
        assert_non_null(f);
        fputs("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n", f);
        fclose(f);
        assert_int_equal(cc_source_open(tmpl, &s, &err), 0);
        assert_true(has_stop(&s, "no cuDNN library in"));
        assert_string_equal(s.version, "9.1.0");
        cc_source_free(&s);
        unlink(p);
        snprintf(p, sizeof(p), "%s/include", tmpl);
        rmdir(p);
        rmdir(tmpl);
        /* missing: an error, not a source */
        assert_int_equal(cc_source_open("/nonexistent/cudnn.tgz", &s, &err), -1);
        assert_non_null(strstr(err.msg, "/nonexistent/cudnn.tgz"));
        cc_err_clear(&err);
}

#if CC_HAVE_LIBARCHIVE

static void test_hostile_archives(void **state)
{
        static const struct {
                const char *rel, *stop;
        } cases[] = {
            {"archives/hostile/traversal.tar.gz", "unsafe member ../../etc/x (entry 2):"},
            {"archives/hostile/absolute.tar.gz", "unsafe member /etc/cudnn-evil (entry 1):"},
            {"archives/hostile/symlink-escape.tar.gz", "unsafe member cuda/lib64/evil (entry 6):"},
            {"archives/hostile/symlink-escape.tar.gz", "unsafe member cuda/lib64/hard (entry 8):"},
            {"archives/hostile/winpaths.zip", "unsafe member C:/Windows/System32/cudnn64_9.dll (entry 2):"},
            {"archives/hostile/many-entries.tar.gz", "more than 100000 entries"},
            {"archives/hostile/corrupt.zip", "damaged"},
            {"archives/hostile/truncated.tar.xz", "damaged"},
            {"archives/bombs/zeros-1g.tar.xz", "limit reached"},
            {"archives/bombs/zeros-1g.tar.gz", "limit reached"},
            {"archives/bombs/zeros-1g.tar.bz2", "limit reached"},
            {"archives/empty.zip", "no cuDNN library in"},
            {"archives/mislabelled/cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz", NULL},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                cc_source s;

                open_ok(cases[i].rel, &s);
                if (cases[i].stop == NULL) {
                        /* the name says 8.9.7, the content 9.1.0: the header wins, the rest is said */
                        assert_int_equal(s.stops.n, 0);
                        assert_string_equal(s.version, "9.1.0");
                        assert_true(s.warnings.n > 0);
                } else if (!has_stop(&s, cases[i].stop)) {
                        dump(&s);
                        fail_msg("%s: no stop with \"%s\"", cases[i].rel, cases[i].stop);
                }
                cc_source_free(&s);
        }
        /* not archives at all: an error */
        for (i = 0; i < 2; i++) {
                char *p = tu_fixture(i ? "archives/hostile/empty.tgz" : "archives/hostile/not-an-archive.tar.gz");
                cc_source s;
                cc_error err = {0};

                assert_int_equal(cc_source_open(p, &s, &err), -1);
                assert_true(err.code != 0);
                cc_err_clear(&err);
                free(p);
        }
}

/* Every archive of hostile_archives.py: one stop per member its own model
 * (written apart from archmodel.c) finds a problem with. */
static void test_model_archives(void **state)
{
        char *mp = tu_fixture("archives/model/manifest.json");
        size_t len, i, checked = 0;
        uint8_t *text = tu_read(mp, &len);
        cc_value *man = NULL;
        cc_error err = {0};

        (void)state;
        /* names that are not UTF-8 are written as lone surrogates (\udcXX):
         * the counts are what this test reads, so they become \u00XX */
        for (i = 0; i + 6 <= len; i++)
                if (memcmp(text + i, "\\udc", 4) == 0)
                        memcpy(text + i, "\\u00", 4);
        if (cc_json_parse((const char *)text, len, 64, &man, &err) != 0)
                fail_msg("%s: %s", mp, err.msg);
        for (i = 0; i < cc_v_len(man); i++) {
                const cc_value *a = cc_v_at(man, i);
                const cc_value *ms = cc_v_get(a, "members");
                char rel[300];
                size_t k, bad = 0, stops = 0;
                cc_source s;

                for (k = 0; k < cc_v_len(ms); k++)
                        bad += cc_v_len(cc_v_get(cc_v_at(ms, k), "problems")) > 0;
                snprintf(rel, sizeof(rel), "archives/model/%s", cc_v_get_str(a, "archive"));
                open_ok(rel, &s);
                for (k = 0; k < s.stops.n; k++)
                        stops += strncmp(s.stops.v[k], "unsafe member ", 14) == 0;
                if (stops != bad) {
                        dump(&s);
                        fail_msg("%s: %zu unsafe members, the model says %zu", rel, stops, bad);
                }
                if (bad > 0)
                        assert_true(s.stops.n > 0);
                checked += bad > 0;
                cc_source_free(&s);
        }
        assert_true(checked > 20);
        cc_v_free(man);
        free(text);
        free(mp);
}

#endif

/* ---- reading ------------------------------------------------------------------ */

struct digests {
        const cc_source *s;
        cc_sha256 h;
        size_t cur;
        long last;
        char **hex; /* per member */
        size_t begins, fail_at;
        uint64_t got;
};

static int d_begin(void *ctx, size_t i, cc_error *err)
{
        struct digests *d = ctx;

        (void)err;
        assert_true((long)i > d->last); /* the source's order */
        d->last = (long)i;
        d->cur = i;
        d->got = 0;
        d->begins++;
        cc_sha256_init(&d->h);
        return 0;
}

static int d_data(void *ctx, const void *p, size_t n, cc_error *err)
{
        struct digests *d = ctx;

        if (d->fail_at != 0 && d->begins == d->fail_at)
                return cc_err(err, CC_ERR_IO, "the sink is full");
        cc_sha256_update(&d->h, p, n);
        d->got += n;
        return 0;
}

static int d_end(void *ctx, cc_error *err)
{
        struct digests *d = ctx;
        char hex[65];

        (void)err;
        assert_true(d->got == d->s->m[d->cur].size);
        cc_sha256_final_hex(&d->h, hex);
        d->hex[d->cur] = strdup(hex);
        return 0;
}

/* Read every installed file of s; hex[i] holds each digest (caller frees). */
static char **read_all(const cc_source *s)
{
        struct digests d;
        cc_src_sink sink = {&d, d_begin, d_data, d_end};
        unsigned char *want = calloc(s->n + 1, 1);
        cc_error err = {0};
        size_t i;

        memset(&d, 0, sizeof(d));
        d.s = s;
        d.last = -1;
        d.hex = calloc(s->n + 1, sizeof(char *));
        assert_non_null(want);
        assert_non_null(d.hex);
        for (i = 0; i < s->n; i++)
                want[i] = s->m[i].dest != NULL; /* links and non-files are not delivered */
        if (cc_source_read(s, want, &sink, &err) != 0)
                fail_msg("%s: %s", s->path, err.msg);
        for (i = 0; i < s->n; i++)
                assert_true((d.hex[i] != NULL) == (s->m[i].dest != NULL && s->m[i].type == CC_SRC_FILE));
        free(want);
        return d.hex;
}

static void free_hex(char **hex, size_t n)
{
        size_t i;

        for (i = 0; i < n; i++)
                free(hex[i]);
        free(hex);
}

static void file_hex(const char *path, char hex[65])
{
        size_t n;
        uint8_t *b = tu_read(path, &n);
        cc_sha256 h;

        cc_sha256_init(&h);
        cc_sha256_update(&h, b, n);
        cc_sha256_final_hex(&h, hex);
        free(b);
}

/* A directory's bytes are the files' bytes; an archive's are its unpacked
 * directory's, member for member (by dest). */
static void test_read(void **state)
{
        size_t i, k, j;
        int win = have_windows_fixtures();

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(eras); i++) {
                const struct era *e = &eras[i];
                cc_source a, d;
                char rel[512], **dh, **ah;

                if (e->windows && !win)
                        continue;
                snprintf(rel, sizeof(rel), SRC "dirs/%s", e->dir);
                open_ok(rel, &d);
                dh = read_all(&d);
                for (k = 0; k < d.n; k++) {
                        char path[1024], hex[65];

                        if (dh[k] == NULL)
                                continue;
                        snprintf(path, sizeof(path), "%s/%s", d.path, d.m[k].name);
                        file_hex(path, hex);
                        assert_string_equal(dh[k], hex);
                }
                if (CC_HAVE_LIBARCHIVE) {
                        snprintf(rel, sizeof(rel), SRC "archives/%s", e->archive);
                        open_ok(rel, &a);
                        ah = read_all(&a);
                        for (k = 0; k < a.n; k++) {
                                if (ah[k] == NULL)
                                        continue;
                                for (j = 0; j < d.n; j++)
                                        if (d.m[j].dest != NULL && strcmp(d.m[j].dest, a.m[k].dest) == 0)
                                                break;
                                assert_true(j < d.n);
                                assert_non_null(dh[j]);
                                assert_string_equal(ah[k], dh[j]);
                        }
                        free_hex(ah, a.n);
                        cc_source_free(&a);
                }
                free_hex(dh, d.n);
                cc_source_free(&d);
        }
}

static int copy_file(const char *from, const char *to)
{
        size_t n;
        uint8_t *b = tu_read(from, &n);
        FILE *f = fopen(to, "wb");
        int ok = f != NULL && fwrite(b, 1, n, f) == n;

        if (f != NULL)
                fclose(f);
        free(b);
        return ok ? 0 : -1;
}

/* A file cut short between open and read, and a sink that fails. */
static void test_read_errors(void **state)
{
        char tmpl[] = "/tmp/cudnnctl-test-src-XXXXXX", p[600], *from;
        const char *files[] = {"include/cudnn_version.h", "lib/libcudnn.so.9.19.0", "lib/libcudnn_ops.so.9.19.0"};
        cc_source s;
        cc_error err = {0};
        struct digests d;
        cc_src_sink sink = {&d, d_begin, d_data, d_end};
        unsigned char *want;
        size_t i;

        (void)state;
        assert_non_null(mkdtemp(tmpl));
        snprintf(p, sizeof(p), "%s/include", tmpl);
        assert_int_equal(mkdir(p, 0755), 0);
        snprintf(p, sizeof(p), "%s/lib", tmpl);
        assert_int_equal(mkdir(p, 0755), 0);
        for (i = 0; i < CC_ARRAY_LEN(files); i++) {
                char rel[300];

                snprintf(rel, sizeof(rel), SRC "dirs/cudnn-linux-x86_64-9.19.0.56_cuda13-archive/%s", files[i]);
                from = tu_fixture(rel);
                snprintf(p, sizeof(p), "%s/%s", tmpl, files[i]);
                assert_int_equal(copy_file(from, p), 0);
                free(from);
        }
        assert_int_equal(cc_source_open(tmpl, &s, &err), 0);
        if (s.stops.n != 0)
                dump(&s);
        assert_int_equal(s.stops.n, 0);
        want = calloc(s.n, 1);
        assert_non_null(want);
        for (i = 0; i < s.n; i++)
                want[i] = s.m[i].type == CC_SRC_FILE;

        /* the sink fails at the second file: nothing after it is begun */
        memset(&d, 0, sizeof(d));
        d.s = &s;
        d.last = -1;
        d.hex = calloc(s.n, sizeof(char *));
        d.fail_at = 2;
        assert_int_equal(cc_source_read(&s, want, &sink, &err), -1);
        assert_non_null(strstr(err.msg, "the sink is full"));
        assert_int_equal(d.begins, 2);
        cc_err_clear(&err);
        free_hex(d.hex, s.n);

        /* cut short after open: an error naming the file */
        snprintf(p, sizeof(p), "%s/lib/libcudnn_ops.so.9.19.0", tmpl);
        assert_int_equal(truncate(p, 100), 0);
        memset(&d, 0, sizeof(d));
        d.s = &s;
        d.last = -1;
        d.hex = calloc(s.n, sizeof(char *));
        assert_int_equal(cc_source_read(&s, want, &sink, &err), -1);
        assert_non_null(strstr(err.msg, "lib/libcudnn_ops.so.9.19.0"));
        cc_err_clear(&err);
        free_hex(d.hex, s.n);
        free(want);
        cc_source_free(&s);

        for (i = 0; i < CC_ARRAY_LEN(files); i++) {
                snprintf(p, sizeof(p), "%s/%s", tmpl, files[i]);
                unlink(p);
        }
        snprintf(p, sizeof(p), "%s/include", tmpl);
        rmdir(p);
        snprintf(p, sizeof(p), "%s/lib", tmpl);
        rmdir(p);
        assert_int_equal(rmdir(tmpl), 0);
}

/* ---- the real cuDNN 9.19 of this machine ---------------------------------------- */

/* A link is made again, a file copied: never a hard link, which would
 * change the change time of the machine's own file (another test, the
 * compile probe's reuse of a build, reads that time). */
static int link_or_copy(const char *from, const char *to)
{
        char buf[1024];
        ssize_t n;

        n = readlink(from, buf, sizeof(buf) - 1);
        if (n >= 0) {
                buf[n] = '\0';
                return symlink(buf, to);
        }
        return copy_file(from, to);
}

static void test_real_cudnn(void **state)
{
        static const char *const dirs[][2] = {{"/usr/local/cuda/lib", "lib"}, {"/usr/local/cuda/include", "include"}};
        char tmpl[] = "/tmp/cudnnctl-test-src-XXXXXX", top[600], p[1200], q[1600];
        cc_source s;
        cc_error err = {0};
        size_t i;
        int rc, ok = 0;

        (void)state;
        if (!tu_exists("/usr/local/cuda/include/cudnn_version.h") || !tu_exists("/usr/local/cuda/lib/libcudnn.so.9"))
                skip();
        assert_non_null(mkdtemp(tmpl));
        snprintf(top, sizeof(top), "%s/cudnn-linux-x86_64-9.19.0.56_cuda13-archive", tmpl);
        assert_int_equal(mkdir(top, 0755), 0);
        for (i = 0; i < CC_ARRAY_LEN(dirs); i++) {
                DIR *dh = opendir(dirs[i][0]);
                struct dirent *de;

                assert_non_null(dh);
                snprintf(p, sizeof(p), "%s/%s", top, dirs[i][1]);
                assert_int_equal(mkdir(p, 0755), 0);
                while ((de = readdir(dh)) != NULL) {
                        if (strncmp(de->d_name, i == 0 ? "libcudnn" : "cudnn", i == 0 ? 8 : 5) != 0)
                                continue;
                        snprintf(p, sizeof(p), "%s/%s", dirs[i][0], de->d_name);
                        snprintf(q, sizeof(q), "%s/%s/%s", top, dirs[i][1], de->d_name);
                        assert_int_equal(link_or_copy(p, q), 0);
                }
                closedir(dh);
        }
        rc = cc_source_open(top, &s, &err);
        if (rc == 0) {
                const cc_src_member *g = NULL, *l = NULL;

                for (i = 0; i < s.n; i++) {
                        if (strcmp(s.m[i].name, "lib/libcudnn_graph.so.9") == 0)
                                g = &s.m[i];
                        if (strcmp(s.m[i].name, "lib/libcudnn.so") == 0)
                                l = &s.m[i];
                }
                ok = s.stops.n == 0 && strcmp(s.layout, "redist") == 0 && s.version != NULL &&
                     strcmp(s.version, "9.19.0") == 0 && s.major == 9 && s.cuda_major == 13 && s.system != NULL &&
                     strcmp(s.system, "linux") == 0 && s.machine != NULL && strcmp(s.machine, "x86_64") == 0 &&
                     g != NULL && g->dest != NULL && strcmp(g->dest, "lib/libcudnn_graph.so.9") == 0 && l != NULL &&
                     l->type == CC_SRC_LINK;
                if (!ok)
                        dump(&s);
        }
        /* the copy goes before any assertion */
        for (i = 0; i < CC_ARRAY_LEN(dirs); i++) {
                DIR *dh;
                struct dirent *de;

                snprintf(p, sizeof(p), "%s/%s", top, dirs[i][1]);
                dh = opendir(p);
                while (dh != NULL && (de = readdir(dh)) != NULL) {
                        if (de->d_name[0] == '.')
                                continue;
                        snprintf(q, sizeof(q), "%s/%s", p, de->d_name);
                        unlink(q);
                }
                if (dh != NULL)
                        closedir(dh);
                rmdir(p);
        }
        rmdir(top);
        assert_int_equal(rmdir(tmpl), 0);
        if (rc != 0)
                fail_msg("%s", err.msg);
        cc_source_free(&s);
        assert_true(ok);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_eras),
                cmocka_unit_test(test_legacy_cuda_dir),
                cmocka_unit_test(test_installer_dir),
                cmocka_unit_test(test_hostile_dirs),
                cmocka_unit_test(test_no_library),
#if CC_HAVE_LIBARCHIVE
                cmocka_unit_test(test_hostile_archives),
                cmocka_unit_test(test_model_archives),
#endif
                cmocka_unit_test(test_read),
                cmocka_unit_test(test_read_errors),
                cmocka_unit_test(test_real_cudnn),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
