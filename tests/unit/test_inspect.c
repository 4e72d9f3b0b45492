/* inspect over generated fixtures, hostile files, and the real cuDNN 9.19 /
 * CUDA 13.0 of this machine image (skipped where absent). */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include "value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[256];

static cc_value *inspect(const char *path, const char *root)
{
        cudnnctl_inspect_options o = {0};
        cudnnctl_error err = {0};
        cudnnctl_value *v = NULL;

        o.root = root;
        if (cudnnctl_inspect(path, &o, &v, &err) < 0)
                fail_msg("inspect %s: %s", path, err.msg);
        return v;
}

/* The version of the first entry with that component and source, or NULL. */
static const char *version_from(const cc_value *r, const char *component, const char *source)
{
        const cc_value *vs = cc_v_get(r, "versions");
        size_t i;

        for (i = 0; i < cc_v_len(vs); i++) {
                const cc_value *e = cc_v_at(vs, i);

                if (strcmp(cc_v_get_str(e, "component"), component) == 0 &&
                    strcmp(cc_v_get_str(e, "source"), source) == 0)
                        return cc_v_get_str(e, "version");
        }
        return NULL;
}

static void write_file(const char *name, const void *data, size_t n)
{
        char p[512];
        FILE *f;

        snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
        f = fopen(p, "wb");
        assert_non_null(f);
        if (n)
                assert_int_equal(fwrite(data, 1, n, f), n);
        fclose(f);
}

static const char *tp(const char *name)
{
        static char p[512];

        snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
        return p;
}

static void test_real_graph_library(void **state)
{
        const char *p = "/usr/local/cuda/lib/libcudnn_graph.so.9";
        cc_value *r;

        (void)state;
        if (!tu_exists(p))
                skip();
        r = inspect(p, NULL);
        assert_string_equal(cc_v_get_str(r, "kind"), "elf");
        assert_string_equal(version_from(r, "cudnn", "exported-constant"), "9.19.0");
        assert_string_equal(cc_v_as_str(cc_v_path(r, "cudnn/version_constants/0/symbol")), "cudnn_graph_version");
        assert_int_equal(cc_v_as_int(cc_v_path(r, "cudnn/version_constants/0/raw")), 0x091300);
        assert_string_equal(cc_v_as_str(cc_v_path(r, "elf/soname")), "libcudnn_graph.so.9");
        assert_string_equal(cc_v_as_str(cc_v_path(r, "file_name/role")), "cudnn_graph");
        assert_int_equal(cc_v_as_int(cc_v_path(r, "file_name/major")), 9);
        assert_null(cc_v_get(r, "error"));
        cc_v_free(r);
}

static void test_real_version_header(void **state)
{
        const char *p = "/usr/local/cuda/include/cudnn_version.h";
        cc_value *r;
        const cc_value *ms;
        size_t i;
        int seen = 0;

        (void)state;
        if (!tu_exists(p))
                skip();
        r = inspect(p, NULL);
        assert_string_equal(cc_v_get_str(r, "kind"), "header");
        assert_string_equal(version_from(r, "cudnn", "header"), "9.19.0");
        assert_string_equal(cc_v_get_str(r, "max_compute_capability"), "12.1");
        ms = cc_v_path(r, "header/macros");
        for (i = 0; i < cc_v_len(ms); i++) {
                const cc_value *m = cc_v_at(ms, i);

                if (strcmp(cc_v_get_str(m, "name"), "CUDNN_VERSION") == 0) {
                        assert_int_equal(cc_v_as_int(cc_v_get(m, "value")), 91900);
                        seen = 1;
                }
        }
        assert_true(seen);
        cc_v_free(r);
}

static void test_real_cuda_headers(void **state)
{
        cc_value *r;

        (void)state;
        if (!tu_exists("/usr/local/cuda/include/cuda.h"))
                skip();
        r = inspect("/usr/local/cuda/include/cuda.h", NULL);
        assert_string_equal(version_from(r, "cuda", "header"), "13.0");
        cc_v_free(r);
        r = inspect("/usr/local/cuda/include/cuda_runtime_api.h", NULL);
        assert_string_equal(version_from(r, "cudart", "header"), "13.0");
        cc_v_free(r);
        /* cudnn.h takes its version from the cudnn_version.h it includes. */
        r = inspect("/usr/local/cuda/include/cudnn_graph.h", NULL);
        assert_string_equal(version_from(r, "cudnn", "header-sublibrary"), "9.19.0");
        cc_v_free(r);
}

static void test_real_distinfo(void **state)
{
        const char *p = "/usr/local/cuda/dist-info/nvidia_cudnn_cu13-9.19.0.56.dist-info";
        cc_value *r;

        (void)state;
        if (!tu_exists(p))
                skip();
        r = inspect(p, NULL);
        assert_string_equal(cc_v_get_str(r, "kind"), "dist-info");
        assert_string_equal(version_from(r, "cudnn", "dist-info"), "9.19.0.56");
        assert_string_equal(cc_v_as_str(cc_v_path(r, "distribution/name")), "nvidia-cudnn-cu13");
        assert_true(cc_v_as_int(cc_v_path(r, "distribution/files")) > 0);
        cc_v_free(r);
        /* A trailing separator names the same directory. */
        r = inspect("/usr/local/cuda/dist-info/nvidia_cudnn_cu13-9.19.0.56.dist-info/", NULL);
        assert_string_equal(cc_v_get_str(r, "kind"), "dist-info");
        cc_v_free(r);
        /* A directory below a dist-info is not one. */
        r = inspect("/usr/local/cuda/dist-info/nvidia_cudnn_cu13-9.19.0.56.dist-info/licenses/", NULL);
        assert_string_equal(cc_v_get_str(r, "kind"), "directory");
        cc_v_free(r);
}

static void test_fixture_prefixes(void **state)
{
        static const struct {
                const char *rel;
                int major;
                int min_libs;
        } cases[] = {
            {"elf/cudnn7", 7, 1},
            {"elf/cudnn8", 8, 7},
            {"elf/cudnn9", 9, 8},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                char *p = tu_fixture(cases[i].rel);
                cc_value *r = inspect(p, NULL);

                assert_string_equal(cc_v_get_str(r, "kind"), "directory");
                assert_int_equal(cc_v_len(cc_v_path(r, "directory/majors")), 1);
                assert_int_equal(cc_v_as_int(cc_v_path(r, "directory/majors/0")), cases[i].major);
                assert_true(cc_v_as_int(cc_v_path(r, "directory/counts/libraries")) >= cases[i].min_libs);
                assert_true(cc_v_as_int(cc_v_path(r, "directory/counts/symlinks")) >= 1);
                cc_v_free(r);
                free(p);
        }
}

static void test_root_option(void **state)
{
        char *root = tu_fixture("elf");
        cc_value *r;

        (void)state;
        r = inspect("/cudnn9/lib", root);
        assert_string_equal(cc_v_get_str(r, "path"), "/cudnn9/lib");
        assert_string_equal(cc_v_get_str(r, "kind"), "directory");
        cc_v_free(r);
        r = inspect("/does/not/exist", root);
        assert_string_equal(cc_v_get_str(r, "kind"), "missing");
        assert_non_null(cc_v_get_str(r, "error"));
        cc_v_free(r);
        free(root);
}

static void test_hostile(void **state)
{
        static const uint8_t elf_trunc[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0};
        static const uint8_t mz_only[] = {'M', 'Z', 0, 0};
        static const uint8_t junk[] = {0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3};
        static const struct {
                const char *name;
                const uint8_t *data;
                size_t n;
                const char *kind;
                int has_error;
        } cases[] = {
            {"empty.so", NULL, 0, "empty", 1},
            {"trunc.so", elf_trunc, sizeof(elf_trunc), "elf", 1},
            {"mz.dll", mz_only, sizeof(mz_only), "pe", 1},
            {"junk.bin", junk, sizeof(junk), "unknown", 0},
        };
        size_t i;
        cc_value *r;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                write_file(cases[i].name, cases[i].data, cases[i].n);
                r = inspect(tp(cases[i].name), NULL);
                assert_string_equal(cc_v_get_str(r, "kind"), cases[i].kind);
                assert_int_equal(cc_v_get_str(r, "error") != NULL, cases[i].has_error);
                cc_v_free(r);
        }
        /* A dangling link and a link loop. */
        assert_int_equal(symlink("nowhere", tp("dangling.so")), 0);
        r = inspect(tp("dangling.so"), NULL);
        assert_string_equal(cc_v_get_str(r, "kind"), "symlink");
        assert_string_equal(cc_v_get_str(r, "link"), "nowhere");
        assert_non_null(cc_v_get_str(r, "error"));
        cc_v_free(r);
        assert_int_equal(symlink("loop-b", tp("loop-a")), 0);
        assert_int_equal(symlink("loop-a", tp("loop-b")), 0);
        r = inspect(tp("loop-a"), NULL);
        assert_non_null(cc_v_get_str(r, "error"));
        cc_v_free(r);
        /* A directory with all of the above still gives a report. */
        r = inspect(tmpdir, NULL);
        assert_string_equal(cc_v_get_str(r, "kind"), "directory");
        cc_v_free(r);
}

static void test_dir_cap(void **state)
{
        cudnnctl_inspect_options o = {0};
        cudnnctl_error err = {0};
        cudnnctl_value *v = NULL;
        char *p = tu_fixture("elf/cudnn9");

        (void)state;
        o.max_dir_entries = 3;
        assert_int_equal(cudnnctl_inspect(p, &o, &v, &err), 0);
        assert_true(cc_v_len(cc_v_path(v, "directory/skipped")) >= 1);
        cc_v_free(v);
        free(p);
}

static void test_text(void **state)
{
        char *text = NULL;
        cudnnctl_error err = {0};
        cc_value *r;
        char *p = tu_fixture("elf/cudnn9");

        (void)state;
        r = inspect(p, NULL);
        assert_int_equal(cudnnctl_inspect_text(r, 0, &text, &err), 0);
        assert_non_null(strstr(text, "[directory]"));
        assert_non_null(strstr(text, "libcudnn_graph.so.9.1.0"));
        assert_null(strstr(text, "\033["));
        cudnnctl_free(text);
        assert_int_equal(cudnnctl_inspect_text(r, 1, &text, &err), 0);
        assert_non_null(strstr(text, "\033[1m"));
        cudnnctl_free(text);
        cc_v_free(r);
        free(p);
}

static int setup(void **state)
{
        (void)state;
        snprintf(tmpdir, sizeof(tmpdir), "/tmp/cc-inspect-XXXXXX");
        return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
        char cmd[512];

        (void)state;
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
        return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_real_graph_library),
            cmocka_unit_test(test_real_version_header),
            cmocka_unit_test(test_real_cuda_headers),
            cmocka_unit_test(test_real_distinfo),
            cmocka_unit_test(test_fixture_prefixes),
            cmocka_unit_test(test_root_option),
            cmocka_unit_test(test_hostile),
            cmocka_unit_test(test_dir_cap),
            cmocka_unit_test(test_text),
        };
        return cmocka_run_group_tests(tests, setup, teardown);
}
