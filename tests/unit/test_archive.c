/* cc_archive_is / cc_archive_inspect over the archives of every era made by
 * tests/fixtures/gen-archives.sh, and over hostile ones.
 *
 * Content facts of members come from cc_inspect_bytes; of those, only the
 * "versions" entries with source "header" (the cudnn_version.h contract) are
 * asserted here. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect.h"

#ifndef CC_HAVE_LIBARCHIVE
#define CC_HAVE_LIBARCHIVE 0
#endif

/* ---- cc_archive_is (no libarchive needed) ------------------------------ */

static void test_is(void **state)
{
        static const struct {
                const char *bytes;
                size_t len;
                int want;
        } cases[] = {
            {"PK\x03\x04rest", 8, 1},
            {"PK\x05\x06", 4, 1},
            {"PK\x03", 3, 0},
            {"\x1f\x8b\x08", 3, 1},
            {"\x1f", 1, 0},
            {"\xfd\x37\x7a\x58\x5a\x00", 6, 1},
            {"\xfd\x37\x7a\x58\x5a", 5, 0},
            {"BZh9", 4, 1},
            {"\x28\xb5\x2f\xfd", 4, 1},
            {"\177ELF", 4, 0},
            {"MZ", 2, 0},
            {"", 0, 0},
        };
        uint8_t tar[512];
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++)
                assert_int_equal(cc_archive_is((const uint8_t *)cases[i].bytes, cases[i].len), cases[i].want);
        assert_int_equal(cc_archive_is(NULL, 10), 0);
        memset(tar, 0, sizeof(tar));
        memcpy(tar + 257, "ustar", 5);
        assert_int_equal(cc_archive_is(tar, sizeof(tar)), 1);
        assert_int_equal(cc_archive_is(tar, 262), 1);
        assert_int_equal(cc_archive_is(tar, 261), 0); /* "ustar" cut short */
        memcpy(tar + 257, "ustaX", 5);
        assert_int_equal(cc_archive_is(tar, sizeof(tar)), 0);
}

#if CC_HAVE_LIBARCHIVE

/* ---- helpers ------------------------------------------------------------- */

static cc_value *inspect_flags(const char *rel, unsigned flags)
{
        char *path = tu_fixture(rel);
        cc_error err = {0};
        cc_value *obj = cc_v_object(&err);

        assert_non_null(obj);
        if (!tu_exists(path))
                fail_msg("fixture %s is missing", path);
        assert_int_equal(cc_archive_inspect(path, flags, obj, &err), 0);
        assert_int_equal(err.code, 0);
        free(path);
        return obj;
}

static cc_value *inspect(const char *rel)
{
        return inspect_flags(rel, 0);
}

static const char *str_at(const cc_value *v, const char *path)
{
        return cc_v_as_str(cc_v_path(v, path));
}

static void assert_str_or_null(const cc_value *v, const char *path, const char *want)
{
        const cc_value *x = cc_v_path(v, path);

        if (want == NULL) {
                if (cc_v_type(x) != CUDNNCTL_NULL)
                        fail_msg("%s: expected null", path);
                return;
        }
        if (cc_v_as_str(x) == NULL)
                fail_msg("%s: expected \"%s\", got no string", path, want);
        assert_string_equal(cc_v_as_str(x), want);
}

static const cc_value *member(const cc_value *obj, const char *path)
{
        const cc_value *ms = cc_v_path(obj, "archive/members");
        size_t i;

        for (i = 0; i < cc_v_len(ms); i++)
                if (strcmp(cc_v_get_str(cc_v_at(ms, i), "path"), path) == 0)
                        return cc_v_at(ms, i);
        fail_msg("no member %s", path);
        return NULL;
}

/* The number of "versions" entries with this source and version. */
static int versions_with(const cc_value *obj, const char *source, const char *version)
{
        const cc_value *vs = cc_v_get(obj, "versions");
        size_t i;
        int n = 0;

        assert_int_equal(cc_v_type(vs), CUDNNCTL_ARRAY);
        for (i = 0; i < cc_v_len(vs); i++) {
                const cc_value *e = cc_v_at(vs, i);

                if (strcmp(cc_v_get_str(e, "source"), source) == 0 &&
                    (version == NULL || strcmp(cc_v_get_str(e, "version"), version) == 0))
                        n++;
        }
        return n;
}

/* The reason an unsafe path was reported for, or NULL. */
static const char *unsafe_reason(const cc_value *obj, const char *path)
{
        const cc_value *us = cc_v_path(obj, "archive/unsafe_paths");
        size_t i;

        for (i = 0; i < cc_v_len(us); i++)
                if (strcmp(cc_v_get_str(cc_v_at(us, i), "path"), path) == 0)
                        return cc_v_get_str(cc_v_at(us, i), "reason");
        return NULL;
}

static void assert_contains(const char *s, const char *needle)
{
        if (s == NULL || strstr(s, needle) == NULL)
                fail_msg("\"%s\" does not contain \"%s\"", s ? s : "(null)", needle);
}

/* ---- archives of every era ------------------------------------------------ */

struct era_case {
        const char *file;
        const char *format, *layout, *top_dir, *system, *arch;
        int entries;
        /* from the file name */
        const char *name_era, *name_version, *name_platform, *name_cuda, *name_format;
        /* from the content */
        const char *header_version;
        const char *archive_name_version; /* "versions" entry of source archive-name */
        struct {
                const char *path, *install_to;
        } m[4];
};

#define LTOP "cudnn-linux-x86_64-8.9.7.29_cuda12-archive/"
#define STOP "cudnn-linux-sbsa-9.1.0.70_cuda12-archive/"
#define WTOP "cudnn-windows-x86_64-9.1.0.70_cuda12-archive/"
#define W19 "cudnn-windows-x86_64-9.19.0.56_cuda13-archive/"

static const struct era_case eras[] = {
    {"archives/cudnn-11.4-linux-x64-v8.2.2.26.tgz",
     "tar.gz",
     "legacy-cuda",
     "cuda",
     "linux",
     "x86_64",
     34,
     "legacy",
     "8.2.2.26",
     "linux-x64",
     "11.4",
     "tgz",
     "8.2.2",
     "8.2.2",
     {{"cuda/include/cudnn_version.h", "include"},
      {"cuda/lib64/libcudnn.so.8.2.2", "lib"},
      {"cuda/lib64/libcudnn_ops_infer.so", "lib"},
      {"cuda/NVIDIA_SLA_cuDNN_Support.txt", NULL}}},
    {"archives/cudnn-11.4-windows-x64-v8.2.2.26.zip",
     "zip",
     "legacy-cuda",
     "cuda",
     "windows",
     "x86_64",
     36,
     "legacy",
     "8.2.2.26",
     "windows-x64",
     "11.4",
     "zip",
     "8.2.2",
     "8.2.2",
     {{"cuda/bin/cudnn64_8.dll", "bin"},
      {"cuda/lib/x64/cudnn_adv_train64_8.lib", "lib/x64"},
      {"cuda/include/cudnn.h", "include"},
      {"cuda/bin/", NULL}}},
    {"archives/cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz",
     "tar.xz",
     "redist",
     "cudnn-linux-x86_64-8.9.7.29_cuda12-archive",
     "linux",
     "x86_64",
     34,
     "redist",
     "8.9.7.29",
     "linux-x86_64",
     "12",
     "tar.xz",
     "8.9.7",
     "8.9.7",
     {{LTOP "lib/libcudnn_cnn_train.so.8.9.7", "lib"},
      {LTOP "lib/libcudnn.so", "lib"},
      {LTOP "include/cudnn_backend.h", "include"},
      {LTOP "LICENSE", NULL}}},
    {"archives/cudnn-linux-sbsa-9.1.0.70_cuda12-archive.tar.xz",
     "tar.xz",
     "redist",
     "cudnn-linux-sbsa-9.1.0.70_cuda12-archive",
     "linux",
     "aarch64",
     35,
     "redist",
     "9.1.0.70",
     "linux-sbsa",
     "12",
     "tar.xz",
     "9.1.0",
     "9.1.0",
     {{STOP "lib/libcudnn_graph.so.9.1.0", "lib"},
      {STOP "lib/libcudnn_engines_runtime_compiled.so.9", "lib"},
      {STOP "include/cudnn_graph.h", "include"},
      {STOP "include/", NULL}}},
    {"archives/cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip",
     "zip",
     "redist",
     "cudnn-windows-x86_64-9.1.0.70_cuda12-archive",
     "windows",
     "x86_64",
     37,
     "redist",
     "9.1.0.70",
     "windows-x86_64",
     "12",
     "zip",
     "9.1.0",
     "9.1.0",
     {{WTOP "bin/cudnn_graph64_9.dll", "bin"},
      {WTOP "lib/x64/cudnn.lib", "lib/x64"},
      {WTOP "include/cudnn_version.h", "include"},
      {WTOP "LICENSE", NULL}}},
    {"archives/cudnn-windows-x86_64-9.19.0.56_cuda13-archive.zip",
     "zip",
     "redist",
     "cudnn-windows-x86_64-9.19.0.56_cuda13-archive",
     "windows",
     "x86_64",
     38,
     "redist",
     "9.19.0.56",
     "windows-x86_64",
     "13",
     "zip",
     "9.19.0",
     "9.19.0",
     {{W19 "bin/x64/cudnn64_9.dll", "bin/x64"},
      {W19 "bin/x64/cudnn_engines_precompiled64_9.dll", "bin/x64"},
      {W19 "lib/x64/cudnn_graph64_9.lib", "lib/x64"},
      {W19 "include/cudnn_adv.h", "include"}}},
    {"archives/nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl",
     "zip",
     "wheel",
     NULL,
     "linux",
     "x86_64",
     25,
     "wheel",
     "9.1.0.70",
     "manylinux2014_x86_64",
     "12",
     "whl",
     "9.1.0",
     "9.1.0",
     {{"nvidia/cudnn/lib/libcudnn_graph.so.9", "lib"},
      {"nvidia/cudnn/include/cudnn_version.h", "include"},
      {"nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA", NULL},
      {"nvidia/cudnn/__init__.py", NULL}}},
};

static void check_era(const struct era_case *c)
{
        cc_value *obj = inspect(c->file);
        const cc_value *ms;
        int64_t sum = 0;
        size_t i;

        assert_null(cc_v_get(obj, "error"));
        assert_string_equal(str_at(obj, "archive/format"), c->format);
        assert_string_equal(str_at(obj, "archive/layout"), c->layout);
        assert_str_or_null(obj, "archive/top_dir", c->top_dir);
        assert_string_equal(str_at(obj, "archive/system"), c->system);
        assert_string_equal(str_at(obj, "archive/arch"), c->arch);
        assert_int_equal(cc_v_as_int(cc_v_path(obj, "archive/entries")), c->entries);
        assert_int_equal(cc_v_len(cc_v_path(obj, "archive/members")), c->entries);
        assert_int_equal(cc_v_type(cc_v_path(obj, "archive/truncated")), CUDNNCTL_BOOL);
        assert_false(cc_v_as_bool(cc_v_path(obj, "archive/truncated")));
        assert_int_equal(cc_v_len(cc_v_path(obj, "archive/unsafe_paths")), 0);

        /* total_size is the sum of the regular files' sizes */
        ms = cc_v_path(obj, "archive/members");
        for (i = 0; i < cc_v_len(ms); i++)
                if (strcmp(cc_v_get_str(cc_v_at(ms, i), "type"), "file") == 0)
                        sum += cc_v_as_int(cc_v_get(cc_v_at(ms, i), "size"));
        assert_true(sum > 0);
        assert_int_equal(cc_v_as_int(cc_v_path(obj, "archive/total_size")), sum);

        /* what the file name says */
        assert_string_equal(str_at(obj, "archive/name/era"), c->name_era);
        assert_string_equal(str_at(obj, "archive/name/version"), c->name_version);
        assert_string_equal(str_at(obj, "archive/name/platform"), c->name_platform);
        assert_string_equal(str_at(obj, "archive/name/cuda"), c->name_cuda);
        assert_string_equal(str_at(obj, "archive/name/format"), c->name_format);
        assert_int_equal(versions_with(obj, "archive-name", c->archive_name_version), 1);
        assert_int_equal(versions_with(obj, "archive-name", NULL), 1);

        /* what the content says (header facts: cc_inspect_bytes) */
        assert_true(versions_with(obj, "header", c->header_version) >= 1);
        assert_int_equal(versions_with(obj, "header", NULL), versions_with(obj, "header", c->header_version));

        for (i = 0; i < CC_ARRAY_LEN(c->m) && c->m[i].path != NULL; i++)
                assert_str_or_null(member(obj, c->m[i].path), "install_to", c->m[i].install_to);
        cc_v_free(obj);
}

static void test_eras(void **state)
{
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(eras); i++) {
                print_message("  %s\n", eras[i].file);
                check_era(&eras[i]);
        }
}

static void test_legacy_members(void **state)
{
        cc_value *obj = inspect("archives/cudnn-11.4-linux-x64-v8.2.2.26.tgz");
        const cc_value *m;
        const cc_value *ver;

        (void)state;
        m = member(obj, "cuda/lib64/libcudnn.so");
        assert_string_equal(cc_v_get_str(m, "type"), "symlink");
        assert_string_equal(cc_v_get_str(m, "link"), "libcudnn.so.8");
        assert_int_equal(cc_v_type(cc_v_get(m, "facts")), CUDNNCTL_NULL); /* links are not read */
        m = member(obj, "cuda/lib64/libcudnn.so.8");
        assert_string_equal(cc_v_get_str(m, "link"), "libcudnn.so.8.2.2");
        m = member(obj, "cuda/lib64/libcudnn.so.8.2.2");
        assert_string_equal(cc_v_get_str(m, "type"), "file");
        assert_int_equal(cc_v_type(cc_v_get(m, "link")), CUDNNCTL_NULL);
        assert_true(cc_v_as_int(cc_v_get(m, "size")) > 0);
        assert_int_equal(cc_v_type(cc_v_get(m, "facts")), CUDNNCTL_OBJECT);
        m = member(obj, "cuda/include/");
        assert_string_equal(cc_v_get_str(m, "type"), "dir");
        assert_int_equal(cc_v_type(cc_v_get(m, "install_to")), CUDNNCTL_NULL);
        assert_int_equal(cc_v_type(cc_v_get(m, "facts")), CUDNNCTL_NULL);
        m = member(obj, "cuda/NVIDIA_SLA_cuDNN_Support.txt");
        assert_int_equal(cc_v_type(cc_v_get(m, "facts")), CUDNNCTL_NULL); /* not interesting */
        m = member(obj, "cuda/include/cudnn_version.h");
        assert_int_equal(cc_v_type(cc_v_get(m, "facts")), CUDNNCTL_OBJECT);

        /* the library names: one entry per version, the most specific */
        assert_int_equal(versions_with(obj, "library-name", NULL), 1);
        assert_int_equal(versions_with(obj, "library-name", "8.2.2"), 1);
        /* a header entry lifted from the member's facts names its member */
        ver = cc_v_get(obj, "versions");
        for (size_t i = 0; i < cc_v_len(ver); i++)
                if (strcmp(cc_v_get_str(cc_v_at(ver, i), "source"), "header") == 0)
                        assert_string_equal(cc_v_get_str(cc_v_at(ver, i), "member"), "cuda/include/cudnn_version.h");
        assert_string_equal(str_at(obj, "versions/0/source"), "archive-name");
        assert_string_equal(str_at(obj, "versions/0/detail"), "8.2.2.26");
        cc_v_free(obj);
}

static void test_wheel(void **state)
{
        cc_value *obj = inspect("archives/nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl");
        const cc_value *m;

        (void)state;
        assert_string_equal(str_at(obj, "archive/name/package"), "nvidia_cudnn_cu12");
        assert_int_equal(versions_with(obj, "dist-info-name", "9.1.0"), 1);
        assert_int_equal(versions_with(obj, "library-name", "9"), 1); /* wheels: libcudnn*.so.9 only */
        m = member(obj, "nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA");
        assert_int_equal(cc_v_type(cc_v_get(m, "facts")), CUDNNCTL_OBJECT); /* read and inspected */
        m = member(obj, "nvidia_cudnn_cu12-9.1.0.70.dist-info/RECORD");
        assert_int_equal(cc_v_type(cc_v_get(m, "facts")), CUDNNCTL_NULL);
        assert_int_equal(cc_v_type(cc_v_get(m, "install_to")), CUDNNCTL_NULL);
        cc_v_free(obj);
}

static void test_mislabelled(void **state)
{
        cc_value *obj = inspect("archives/mislabelled/cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz");

        (void)state;
        assert_null(cc_v_get(obj, "error"));
        /* the name and the content disagree: both are kept */
        assert_string_equal(str_at(obj, "archive/name/version"), "8.9.7.29");
        assert_int_equal(versions_with(obj, "archive-name", "8.9.7"), 1);
        assert_int_equal(versions_with(obj, "archive-name", NULL), 1);
        assert_int_equal(versions_with(obj, "library-name", "9.1.0"), 1);
        assert_int_equal(versions_with(obj, "library-name", NULL), 1);
        assert_true(versions_with(obj, "header", "9.1.0") >= 1);
        assert_int_equal(versions_with(obj, "header", "8.9.7"), 0);
        assert_int_equal(cc_v_as_int(cc_v_path(obj, "archive/entries")), 35);
        cc_v_free(obj);
}

static void test_flat_and_empty(void **state)
{
        cc_value *obj = inspect("archives/flat.tar.gz");

        (void)state;
        assert_null(cc_v_get(obj, "error"));
        assert_string_equal(str_at(obj, "archive/layout"), "flat");
        assert_int_equal(cc_v_type(cc_v_path(obj, "archive/top_dir")), CUDNNCTL_NULL);
        assert_int_equal(cc_v_type(cc_v_path(obj, "archive/name")), CUDNNCTL_NULL);
        assert_str_or_null(member(obj, "libcudnn.so.9.1.0"), "install_to", "lib");
        assert_str_or_null(member(obj, "libcudnn.so.9"), "install_to", "lib");
        assert_str_or_null(member(obj, "cudnn_version.h"), "install_to", "include");
        assert_str_or_null(member(obj, "README"), "install_to", NULL);
        assert_int_equal(versions_with(obj, "archive-name", NULL), 0);
        cc_v_free(obj);

        obj = inspect("archives/empty.zip"); /* valid, nothing in it */
        assert_null(cc_v_get(obj, "error"));
        assert_string_equal(str_at(obj, "archive/format"), "zip");
        assert_int_equal(cc_v_as_int(cc_v_path(obj, "archive/entries")), 0);
        assert_string_equal(str_at(obj, "archive/layout"), "unknown");
        assert_string_equal(str_at(obj, "archive/system"), "unknown");
        assert_int_equal(cc_v_len(cc_v_get(obj, "versions")), 0);
        cc_v_free(obj);
}

static void test_no_members_flag(void **state)
{
        cc_value *obj = inspect_flags("archives/cudnn-linux-sbsa-9.1.0.70_cuda12-archive.tar.xz",
                                      CUDNNCTL_INSPECT_NO_ARCHIVE_MEMBERS);
        const cc_value *m;

        (void)state;
        assert_null(cc_v_get(obj, "error"));
        assert_int_equal(cc_v_as_int(cc_v_path(obj, "archive/entries")), 35);
        m = member(obj, STOP "include/cudnn_version.h");
        assert_int_equal(cc_v_type(cc_v_get(m, "facts")), CUDNNCTL_NULL);
        assert_non_null(cc_v_get_str(m, "facts_skipped"));
        assert_int_equal(versions_with(obj, "header", NULL), 0); /* nothing was read */
        assert_int_equal(versions_with(obj, "archive-name", "9.1.0"), 1);
        assert_int_equal(versions_with(obj, "library-name", "9.1.0"), 1);
        assert_string_equal(str_at(obj, "archive/system"), "linux"); /* from the names */
        assert_string_equal(str_at(obj, "archive/arch"), "unknown"); /* needs content */
        cc_v_free(obj);
}

/* ---- hostile archives ----------------------------------------------------- */

static void test_unsafe_paths(void **state)
{
        static const struct {
                const char *file, *path, *reason;
        } cases[] = {
            {"archives/hostile/traversal.tar.gz", "../../etc/x", "\"..\""},
            {"archives/hostile/traversal.tar.gz", "cuda/../../y", "\"..\""},
            {"archives/hostile/traversal.tar.gz", "cuda\\bin\\evil.dll", "backslash"},
            {"archives/hostile/absolute.tar.gz", "/etc/cudnn-evil", "absolute"},
            {"archives/hostile/symlink-escape.tar.gz", "cuda/lib64/evil", "outside the archive"},
            {"archives/hostile/symlink-escape.tar.gz", "cuda/lib64/abs", "absolute"},
            {"archives/hostile/symlink-escape.tar.gz", "cuda/lib64/hard", "hard link"},
            {"archives/hostile/winpaths.zip", "C:/Windows/System32/cudnn64_9.dll", "drive letter"},
            {"archives/hostile/nonutf8.tar.gz", "cuda/include/\xff\xfe-bad.h", "UTF-8"},
        };
        static const struct {
                const char *file, *path;
        } safe[] = {
            {"archives/hostile/traversal.tar.gz", "cuda/include/cudnn.h"},
            {"archives/hostile/absolute.tar.gz", "cuda/include/cudnn.h"},
            {"archives/hostile/symlink-escape.tar.gz", "cuda/lib64/libcudnn.so"},
            {"archives/hostile/symlink-escape.tar.gz", "cuda/lib64/ok"}, /* ../include: inside */
            {"archives/hostile/nonutf8.tar.gz", "cuda/include/caf\xc3\xa9.h"},
            {"archives/hostile/winpaths.zip", "cudnn/include/cudnn.h"},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                cc_value *obj = inspect(cases[i].file);
                const cc_value *m = member(obj, cases[i].path);

                assert_null(cc_v_get(obj, "error"));
                assert_contains(unsafe_reason(obj, cases[i].path), cases[i].reason);
                /* an install never places an unsafe member */
                assert_int_equal(cc_v_type(cc_v_get(m, "install_to")), CUDNNCTL_NULL);
                cc_v_free(obj);
        }
        for (i = 0; i < CC_ARRAY_LEN(safe); i++) {
                cc_value *obj = inspect(safe[i].file);

                (void)member(obj, safe[i].path);
                assert_null(unsafe_reason(obj, safe[i].path));
                cc_v_free(obj);
        }
}

static void test_unsafe_counts(void **state)
{
        static const struct {
                const char *file;
                int unsafe, entries;
        } cases[] = {
            {"archives/hostile/traversal.tar.gz", 3, 4},      {"archives/hostile/absolute.tar.gz", 1, 2},
            {"archives/hostile/symlink-escape.tar.gz", 3, 8}, {"archives/hostile/winpaths.zip", 1, 3},
            {"archives/hostile/nonutf8.tar.gz", 1, 3},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                cc_value *obj = inspect(cases[i].file);

                assert_int_equal(cc_v_len(cc_v_path(obj, "archive/unsafe_paths")), cases[i].unsafe);
                assert_int_equal(cc_v_as_int(cc_v_path(obj, "archive/entries")), cases[i].entries);
                cc_v_free(obj);
        }
}

static void test_symlink_escape_layout(void **state)
{
        cc_value *obj = inspect("archives/hostile/symlink-escape.tar.gz");

        (void)state;
        assert_string_equal(str_at(obj, "archive/layout"), "legacy-cuda");
        assert_string_equal(cc_v_get_str(member(obj, "cuda/lib64/hard"), "type"), "hardlink");
        assert_string_equal(cc_v_get_str(member(obj, "cuda/lib64/hard"), "link"), "../outside");
        assert_str_or_null(member(obj, "cuda/lib64/ok"), "install_to", "lib");
        assert_str_or_null(member(obj, "cuda/lib64/evil"), "install_to", NULL);
        cc_v_free(obj);
}

static void test_damaged(void **state)
{
        static const struct {
                const char *file;
                const char *msg; /* in "error", besides the archive's name */
                int entries;     /* members read before the damage */
                const char *format;
        } cases[] = {
            {"archives/hostile/corrupt.zip", "damaged", 2, "zip"},
            {"archives/hostile/cut.zip", "damaged", 2, "zip"},
            {"archives/hostile/truncated.tar.xz", "damaged", 35, "tar.xz"},
            {"archives/hostile/empty.tgz", "empty file", 0, NULL},
            {"archives/hostile/not-an-archive.tar.gz", "cannot read", 0, NULL},
            {"archives/hostile/does-not-exist.tgz", "cannot read", 0, NULL},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                char *path = tu_fixture(cases[i].file);
                cc_error err = {0};
                cc_value *obj = cc_v_object(&err);
                const char *e;

                print_message("  %s\n", cases[i].file);
                assert_int_equal(cc_archive_inspect(path, 0, obj, &err), 0);
                e = cc_v_get_str(obj, "error");
                assert_contains(e, cc_basename(cases[i].file));
                assert_contains(e, cases[i].msg);
                assert_null(strchr(e, '\n'));
                assert_int_equal(cc_v_as_int(cc_v_path(obj, "archive/entries")), cases[i].entries);
                assert_int_equal(cc_v_len(cc_v_path(obj, "archive/members")), cases[i].entries);
                assert_str_or_null(obj, "archive/format", cases[i].format);
                cc_v_free(obj);
                free(path);
        }
}

static void test_damaged_keeps_members(void **state)
{
        cc_value *obj = inspect("archives/hostile/corrupt.zip");
        const cc_value *m;

        (void)state;
        /* the first member was read whole and inspected; the damaged one says so */
        m = member(obj, "cuda/include/cudnn_version.h");
        assert_int_equal(cc_v_type(cc_v_get(m, "facts")), CUDNNCTL_OBJECT);
        assert_true(versions_with(obj, "header", "9.1.0") >= 1);
        m = member(obj, "cuda/include/cudnn.h");
        assert_int_equal(cc_v_type(cc_v_get(m, "facts")), CUDNNCTL_NULL);
        assert_contains(cc_v_get_str(m, "facts_skipped"), "damaged");
        assert_string_equal(str_at(obj, "archive/layout"), "legacy-cuda");
        cc_v_free(obj);

        obj = inspect("archives/hostile/truncated.tar.xz");
        assert_string_equal(str_at(obj, "archive/layout"), "redist");
        assert_string_equal(str_at(obj, "archive/system"), "linux");
        assert_true(versions_with(obj, "header", "9.1.0") >= 1);
        assert_int_equal(versions_with(obj, "library-name", "9.1.0"), 1);
        cc_v_free(obj);
}

static void test_caps(void **state)
{
        cc_value *obj = inspect("archives/hostile/many-entries.tar.gz");
        const cc_value *m;

        (void)state;
        assert_null(cc_v_get(obj, "error"));
        assert_int_equal(cc_v_as_int(cc_v_path(obj, "archive/entries")), 100000);
        assert_int_equal(cc_v_len(cc_v_path(obj, "archive/members")), 100000);
        assert_true(cc_v_as_bool(cc_v_path(obj, "archive/truncated")));
        assert_contains(str_at(obj, "archive/truncated_reason"), "100000");
        assert_string_equal(str_at(obj, "archive/members/99999/path"), "many/f099999");
        cc_v_free(obj);

        /* a 65 MiB library is listed but not read; the header after it is */
        obj = inspect("archives/hostile/oversized.tar.xz");
        assert_null(cc_v_get(obj, "error"));
        assert_false(cc_v_as_bool(cc_v_path(obj, "archive/truncated")));
        m = member(obj, "top/lib/libcudnn_graph.so.9.1.0");
        assert_int_equal(cc_v_as_int(cc_v_get(m, "size")), 65 * 1024 * 1024 + 1);
        assert_int_equal(cc_v_type(cc_v_get(m, "facts")), CUDNNCTL_NULL);
        assert_contains(cc_v_get_str(m, "facts_skipped"), "64 MiB");
        m = member(obj, "top/include/cudnn_version.h");
        assert_int_equal(cc_v_type(cc_v_get(m, "facts")), CUDNNCTL_OBJECT);
        assert_true(versions_with(obj, "header", "9.1.0") >= 1);
        cc_v_free(obj);
}

static void test_json(void **state)
{
        /* the whole tree renders, also with names that are not UTF-8 */
        static const char *const files[] = {
            "archives/hostile/nonutf8.tar.gz",
            "archives/cudnn-11.4-windows-x64-v8.2.2.26.zip",
            "archives/hostile/truncated.tar.xz",
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(files); i++) {
                cc_value *obj = inspect(files[i]);
                cc_error err = {0};
                char *json = NULL;

                assert_int_equal(cudnnctl_to_json(obj, 1, &json, &err), 0);
                assert_non_null(strstr(json, "\"archive\""));
                assert_true(cc_utf8_valid(json, strlen(json)));
                cudnnctl_free(json);
                cc_v_free(obj);
        }
}

/* ---- the extraction model's verdicts (fixtures/hostile_archives.py) ---------- */

static const cc_value *unsafe_entry(const cc_value *obj, int64_t entry)
{
        const cc_value *us = cc_v_path(obj, "archive/unsafe_paths");
        size_t i;

        for (i = 0; i < cc_v_len(us); i++)
                if (cc_v_as_int(cc_v_get(cc_v_at(us, i), "entry")) == entry)
                        return cc_v_at(us, i);
        return NULL;
}

static int has_problem(const cc_value *u, const char *name)
{
        const cc_value *ps = cc_v_get(u, "problems");
        size_t i;

        for (i = 0; i < cc_v_len(ps); i++)
                if (strcmp(cc_v_as_str(cc_v_at(ps, i)), name) == 0)
                        return 1;
        return 0;
}

static void test_model_verdicts(void **state)
{
        cc_value *obj = inspect("archives/model/through-abs-link.tar.gz");
        const cc_value *u;

        (void)state;
        /* the link by itself, and the file written through it */
        u = unsafe_entry(obj, 1);
        assert_non_null(u);
        assert_string_equal(cc_v_get_str(u, "path"), "cuda/lib64");
        assert_true(has_problem(u, "symlink-escape"));
        u = unsafe_entry(obj, 2);
        assert_non_null(u);
        assert_string_equal(cc_v_get_str(u, "path"), "cuda/lib64/cron.d/evil");
        assert_true(has_problem(u, "escape") && has_problem(u, "through-symlink"));
        assert_int_equal(cc_v_len(cc_v_get(u, "problems")), 2);
        assert_contains(cc_v_get_str(u, "reason"), "written through the symbolic link entry 1 \"cuda/lib64\"");
        assert_int_equal(cc_v_type(cc_v_get(member(obj, "cuda/lib64/cron.d/evil"), "install_to")), CUDNNCTL_NULL);
        cc_v_free(obj);

        /* devices, FIFOs and modes: the member types and modes are listed */
        obj = inspect("archives/model/specials.tar.gz");
        assert_string_equal(cc_v_get_str(member(obj, "dev/null"), "type"), "chardev");
        assert_string_equal(cc_v_get_str(member(obj, "dev/sda"), "type"), "blockdev");
        assert_string_equal(cc_v_get_str(member(obj, "fifo"), "type"), "fifo");
        assert_int_equal(cc_v_as_int(cc_v_get(member(obj, "suid"), "mode")), 04755);
        assert_true(has_problem(unsafe_entry(obj, 1), "special"));
        assert_true(has_problem(unsafe_entry(obj, 4), "mode"));
        assert_contains(cc_v_get_str(unsafe_entry(obj, 4), "reason"), "setuid");
        assert_contains(cc_v_get_str(unsafe_entry(obj, 6), "reason"), "sticky, world-writable");
        assert_int_equal(cc_v_len(cc_v_path(obj, "archive/unsafe_paths")), 7);
        cc_v_free(obj);

        /* names that one case-insensitive system merges: both, said so */
        obj = inspect("archives/model/case.tar.gz");
        assert_true(has_problem(unsafe_entry(obj, 2), "case-collision"));
        assert_contains(cc_v_get_str(unsafe_entry(obj, 2), "reason"), "(on Windows and macOS)");
        assert_contains(cc_v_get_str(unsafe_entry(obj, 6), "reason"), "(on macOS)");
        assert_contains(cc_v_get_str(unsafe_entry(obj, 4), "reason"),
                        "lands outside the target (on Windows and macOS)");
        cc_v_free(obj);
}

/* ---- the bound on the bytes decompressed ---------------------------------------- */

static void test_decompression_bound(void **state)
{
        static const char *const bombs[] = {
            "archives/bombs/zeros-1g.tar.bz2",
            "archives/bombs/zeros-1g.tar.gz",
            "archives/bombs/zeros-1g.tar.xz",
        };
        cc_value *obj;
        const cc_value *m;
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(bombs); i++) {
                print_message("  %s\n", bombs[i]);
                obj = inspect(bombs[i]);
                assert_null(cc_v_get(obj, "error"));
                /* 1 GiB declared in a few KiB: listed up to that member, not decompressed */
                assert_true(cc_v_as_bool(cc_v_path(obj, "archive/truncated")));
                assert_int_equal(cc_v_as_int(cc_v_path(obj, "archive/entries")), 1);
                assert_contains(str_at(obj, "archive/truncated_reason"), "limit reached");
                assert_contains(str_at(obj, "archive/truncated_reason"), "libcudnn_zeros.so.9, 1 GiB");
                assert_true(cc_v_as_int(cc_v_path(obj, "archive/decompressed")) > 0);
                assert_true(cc_v_as_int(cc_v_path(obj, "archive/decompressed")) < (int64_t)(256 << 20));
                m = member(obj, "top/lib/libcudnn_zeros.so.9");
                assert_int_equal(cc_v_as_int(cc_v_get(m, "size")), (int64_t)1 << 30);
                assert_contains(cc_v_get_str(m, "facts_skipped"), "64 MiB");
                cc_v_free(obj);
        }
        /* 128 MiB passes under the 256 MiB floor: the header after it is read */
        obj = inspect("archives/bombs/zeros-128m.tar.bz2");
        assert_false(cc_v_as_bool(cc_v_path(obj, "archive/truncated")));
        assert_int_equal(cc_v_as_int(cc_v_path(obj, "archive/entries")), 2);
        assert_true(cc_v_as_int(cc_v_path(obj, "archive/decompressed")) > (int64_t)(128 << 20));
        assert_true(versions_with(obj, "header", "9.1.0") >= 1);
        cc_v_free(obj);
}

/* The same reading from memory (the fuzz target's way), with its own floor. */
static void test_mem(void **state)
{
        char *path = tu_fixture("archives/bombs/zeros-128m.tar.bz2");
        cc_error err = {0};
        cc_value *obj = cc_v_object(&err);
        uint8_t *data;
        size_t size;

        (void)state;
        data = tu_read(path, &size);
        assert_int_equal(cc_archive_inspect_mem("zeros-128m.tar.bz2", data, size, 0, 0, obj, &err), 0);
        assert_int_equal(cc_v_as_int(cc_v_path(obj, "archive/entries")), 2);
        assert_false(cc_v_as_bool(cc_v_path(obj, "archive/truncated")));
        cc_v_free(obj);
        obj = cc_v_object(&err);
        assert_int_equal(cc_archive_inspect_mem("zeros-128m.tar.bz2", data, size, 0, 1 << 20, obj, &err), 0);
        assert_int_equal(cc_v_as_int(cc_v_path(obj, "archive/entries")), 1);
        assert_true(cc_v_as_bool(cc_v_path(obj, "archive/truncated")));
        assert_contains(str_at(obj, "archive/truncated_reason"), "1 MiB");
        cc_v_free(obj);
        free(data);
        free(path);

        path = tu_fixture("archives/model/hardlinks.tar.gz");
        data = tu_read(path, &size);
        obj = cc_v_object(&err);
        assert_int_equal(cc_archive_inspect_mem("hardlinks.tar.gz", data, size, 0, 0, obj, &err), 0);
        assert_null(cc_v_get(obj, "error"));
        assert_int_equal(cc_v_as_int(cc_v_path(obj, "archive/entries")), 8);
        assert_true(has_problem(unsafe_entry(obj, 2), "hardlink"));
        assert_null(unsafe_entry(obj, 8)); /* a hard link to an earlier, safe file */
        cc_v_free(obj);
        free(data);
        free(path);
}

#else /* !CC_HAVE_LIBARCHIVE */

static void test_without_libarchive(void **state)
{
        cc_error err = {0};
        cc_value *obj = cc_v_object(&err);

        (void)state;
        assert_int_equal(cc_archive_inspect("x.tgz", 0, obj, &err), 0);
        assert_string_equal(cc_v_get_str(obj, "error"), "this build cannot read archives (built without libarchive)");
        cc_v_free(obj);
}

#endif

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_is),
#if CC_HAVE_LIBARCHIVE
                cmocka_unit_test(test_eras),
                cmocka_unit_test(test_legacy_members),
                cmocka_unit_test(test_wheel),
                cmocka_unit_test(test_mislabelled),
                cmocka_unit_test(test_flat_and_empty),
                cmocka_unit_test(test_no_members_flag),
                cmocka_unit_test(test_unsafe_paths),
                cmocka_unit_test(test_unsafe_counts),
                cmocka_unit_test(test_symlink_escape_layout),
                cmocka_unit_test(test_damaged),
                cmocka_unit_test(test_damaged_keeps_members),
                cmocka_unit_test(test_caps),
                cmocka_unit_test(test_json),
                cmocka_unit_test(test_model_verdicts),
                cmocka_unit_test(test_decompression_bound),
                cmocka_unit_test(test_mem),
#else
                cmocka_unit_test(test_without_libarchive),
#endif
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
