/* fetch's index readers (src/lib/fetch/index.c): NVIDIA's redist listing,
 * the manifests' cudnn files as downloads, PyPI's simple API in JSON (PEP
 * 691) and HTML (PEP 503), wheel names, URLs resolved against a page, and
 * the version order (9.10 after 9.9). */
#include "testutil.h"

#include "fetch/index.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHA_A "a6d9887267e28590c9db95ce65cbe96a668df0352338b7d337e0532ded33485c"
#define SHA_B "35163c5c542be0c511738b27e25235193cbeedc5e0e006e44b1cdeaf1922e83e"

static void test_listing(void **state)
{
        static const char page[] = "<html><body><pre><a href=\"../\">../</a>\n<a href=\"cudnn/\">cudnn/</a>\n"
                                   "<a href='redistrib_9.9.0.json'>redistrib_9.9.0.json</a> 01-Jan-2025\n"
                                   "<a href='redistrib_9.10.0.json'>redistrib_9.10.0.json</a>\n"
                                   "<a href='redistrib_8.3.1.json'>redistrib_8.3.1.json</a>\n"
                                   "redistrib_.json redistrib_9.json redistrib_1.2.3.4.5.6.json redistrib_9.1.0.jsonx"
                                   "<a href='redistrib_9.19.0.json'>x</a></pre></body></html>";
        cc_strv v = {0};
        cc_error err = {0};

        (void)state;
        assert_int_equal(cc_index_redist_listing(page, sizeof(page) - 1, &v, &err), 0);
        /* each once, newest first; 9.1.0 (followed by "jsonx") is taken as named */
        assert_true(v.n >= 4);
        assert_string_equal(v.v[0], "9.19.0");
        assert_string_equal(v.v[1], "9.10.0");
        assert_true(cc_strv_contains(&v, "9.9.0"));
        assert_true(cc_strv_contains(&v, "8.3.1"));
        assert_false(cc_strv_contains(&v, "9"));
        cc_strv_free(&v);
        assert_int_equal(cc_index_redist_listing("<html>Access denied</html>", 26, &v, &err), -1);
        assert_int_equal(err.code, CC_ERR_FORMAT);
        assert_non_null(strstr(err.msg, "redistrib_VERSION.json"));
        cc_strv_free(&v);
}

static void test_redist_files(void **state)
{
        static const char m[] =
            "{\"release_label\": \"9.19.0\", \"cudnn\": {\"name\": \"n\", \"version\": \"9.19.0.56\",\n"
            " \"cuda_variant\": [\"12\", \"13\"],\n"
            " \"linux-x86_64\": {\"cuda12\": {\"relative_path\": "
            "\"cudnn/linux-x86_64/cudnn-linux-x86_64-9.19.0.56_cuda12-archive.tar.xz\", \"sha256\": \"" SHA_A
            "\", \"size\": \"903887852\"},\n"
            "  \"cuda13\": {\"relative_path\": "
            "\"cudnn/linux-x86_64/cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz\","
            " \"sha256\": \"" SHA_B "\", \"size\": \"10\"}},\n"
            " \"linux-ppc64le\": {\"relative_path\": \"cudnn/p/x.tar.xz\", \"sha256\": \"" SHA_A
            "\", \"size\": \"1\"},\n"
            " \"windows-x86_64\": {\"relative_path\": "
            "\"cudnn/windows-x86_64/cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip\", \"sha256\": \"" SHA_A
            "\", \"size\": 5}}}";
        cc_fetch_file *f = NULL;
        size_t n = 0;
        cc_error err = {0};

        (void)state;
        assert_int_equal(cc_index_redist_files(m, sizeof(m) - 1, "http://127.0.0.1:8/redist/", &f, &n, &err), 0);
        assert_int_equal(n, 3); /* ppc64le left out */
        assert_string_equal(
            f[0].url,
            "http://127.0.0.1:8/redist/cudnn/linux-x86_64/cudnn-linux-x86_64-9.19.0.56_cuda12-archive.tar.xz");
        assert_string_equal(f[0].name, "cudnn-linux-x86_64-9.19.0.56_cuda12-archive.tar.xz");
        assert_int_equal(f[0].cuda_major, 12);
        assert_int_equal(f[0].size, 903887852);
        assert_string_equal(f[0].system, "linux");
        assert_string_equal(f[0].arch, "x86_64");
        assert_int_equal(f[1].cuda_major, 13);
        assert_string_equal(f[1].sha256, SHA_B);
        /* one file for the platform: the CUDA major from the name */
        assert_string_equal(f[2].system, "windows");
        assert_int_equal(f[2].cuda_major, 12);
        cc_fetch_file_free(f, n);
        /* a manifest lacking a size is refused, naming where */
        {
                static const char bad[] = "{\"cudnn\": {\"version\": \"9.1.0.70\", \"linux-x86_64\": {\"cuda12\": "
                                          "{\"relative_path\": \"a/b.tar.xz\", \"sha256\": \"" SHA_A "\"}}}}";

                assert_int_equal(cc_index_redist_files(bad, sizeof(bad) - 1, "http://h/", &f, &n, &err), -1);
                assert_non_null(strstr(err.msg, "cudnn/linux-x86_64/cuda12: no \"size\""));
        }
        assert_int_equal(cc_index_redist_files("<html>", 6, "http://h/", &f, &n, &err), -1);
        assert_null(f);
}

static void test_wheel_names(void **state)
{
        char v[64], sys[8], arch[8];
        int cu = 0;

        (void)state;
        assert_int_equal(
            cc_wheel_name("nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl", v, sizeof(v), &cu, sys, arch),
            0);
        assert_string_equal(v, "9.1.0.70");
        assert_int_equal(cu, 12);
        assert_string_equal(sys, "linux");
        assert_string_equal(arch, "x86_64");
        assert_int_equal(cc_wheel_name("nvidia_cudnn_cu13-9.19.0.56-py3-none-manylinux_2_27_aarch64.whl", v, sizeof(v),
                                       &cu, sys, arch),
                         0);
        assert_string_equal(arch, "sbsa");
        assert_int_equal(
            cc_wheel_name("nvidia_cudnn_cu11-8.9.6.50-py3-none-win_amd64.whl", v, sizeof(v), &cu, sys, arch), 0);
        assert_string_equal(sys, "windows");
        assert_int_equal(cu, 11);
        /* not cuDNN wheels of a platform it ships for, or not a release */
        assert_int_equal(cc_wheel_name("nvidia_cudnn_cu12-9.1.0.70-py3-none-any.whl", v, sizeof(v), &cu, sys, arch),
                         -1);
        assert_int_equal(cc_wheel_name("nvidia-cudnn-cu12-0.0.1.tar.gz", v, sizeof(v), &cu, sys, arch), -1);
        /* not a wheel's characters: never a cache file name or a line of a message */
        assert_int_equal(cc_wheel_name("nvidia_cudnn_cu12-9.1.0.70-py3-no\nne-manylinux2014_x86_64.whl", v, sizeof(v),
                                       &cu, sys, arch),
                         -1);
        assert_int_equal(cc_wheel_name("nvidia_cudnn_cu12-9.1.0.70-py3-none-../manylinux2014_x86_64.whl", v, sizeof(v),
                                       &cu, sys, arch),
                         -1);
        assert_int_equal(
            cc_wheel_name("nvidia_cudnn_cu12-9.1.0rc1-py3-none-manylinux2014_x86_64.whl", v, sizeof(v), &cu, sys, arch),
            -1);
        assert_int_equal(
            cc_wheel_name("nvidia_cublas_cu12-12.1-py3-none-manylinux2014_x86_64.whl", v, sizeof(v), &cu, sys, arch),
            -1);
        assert_int_equal(
            cc_wheel_name("nvidia_cudnn_cu12-9.1.0.70-manylinux2014_x86_64.whl", v, sizeof(v), &cu, sys, arch), -1);
}

static int pypi(const char *text, int json, cc_fetch_file **f, size_t *n, cc_error *err)
{
        return cc_index_pypi_page(text, strlen(text), json, "http://h/", f, n, err);
}

static void test_pypi_json(void **state)
{
        static const char page[] =
            "{\"meta\": {\"api-version\": \"1.1\"}, \"name\": \"nvidia-cudnn-cu12\", \"files\": [\n"
            " {\"filename\": \"nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl\",\n"
            "  \"url\": \"https://files.pythonhosted.org/packages/x/nvidia_cudnn_cu12-9.1.0.70-py3-none-"
            "manylinux2014_x86_64.whl\", \"hashes\": {\"sha256\": \"" SHA_A
            "\"}, \"size\": 664800000, \"yanked\": false},\n"
            " {\"filename\": \"nvidia_cudnn_cu12-9.2.0.1-py3-none-manylinux2014_x86_64.whl\", \"url\": \"x.whl\",\n"
            "  \"hashes\": {}, \"yanked\": \"broken build\"},\n"
            " {\"filename\": \"nvidia_cudnn_cu12-9.1.1.17-py3-none-win_amd64.whl\", \"url\": \"../../f/w.whl#x\",\n"
            "  \"hashes\": {\"sha256\": \"" SHA_B "\"}},\n"
            " {\"filename\": \"nvidia-cudnn-cu12-0.0.1.tar.gz\", \"url\": \"s.tgz\", \"hashes\": {}}]}";
        cc_fetch_file *f = NULL;
        size_t n = 0;
        cc_error err = {0};

        (void)state;
        assert_int_equal(
            cc_index_pypi_page(page, sizeof(page) - 1, 1, "http://127.0.0.1:9/simple/nvidia-cudnn-cu12/", &f, &n, &err),
            0);
        assert_int_equal(n, 2); /* the yanked wheel and the sdist left out */
        assert_string_equal(f[0].version, "9.1.0.70");
        assert_int_equal(f[0].size, 664800000);
        assert_string_equal(f[0].sha256, SHA_A);
        assert_string_equal(f[1].url, "http://127.0.0.1:9/f/w.whl");
        assert_int_equal(f[1].size, 0);
        cc_fetch_file_free(f, n);
        assert_int_equal(pypi("{\"meta\": {\"api-version\": \"2.0\"}, \"files\": []}", 1, &f, &n, &err), -1);
        assert_non_null(strstr(err.msg, "api-version"));
        assert_int_equal(pypi("{\"name\": 1}", 1, &f, &n, &err), -1);
        assert_non_null(strstr(err.msg, "files"));
        assert_int_equal(pypi("<html>", 1, &f, &n, &err), -1);
        assert_int_equal(pypi("{\"files\": [{\"filename\": \"nvidia_cudnn_cu12-9.1.0.70-py3-none-win_amd64.whl\", "
                              "\"url\": \"u\", \"hashes\": {\"sha256\": \"12\"}}]}",
                              1, &f, &n, &err),
                         -1);
        assert_non_null(strstr(err.msg, "64 hex"));
}

static void test_pypi_html(void **state)
{
        static const char page[] =
            "<!DOCTYPE html><html><body><h1>Links for nvidia-cudnn-cu12</h1>\n"
            "<a "
            "href=\"https://files.example/p/nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl#sha256=" SHA_A
            "\" data-requires-python=\"&gt;=3\">nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl</a><br/>\n"
            "<a href=\"/p/nvidia_cudnn_cu12-9.2.0.1-py3-none-win_amd64.whl\" data-yanked>"
            "nvidia_cudnn_cu12-9.2.0.1-py3-none-win_amd64.whl</a>\n"
            "<A HREF='../../p/nvidia_cudnn_cu12-9.10.2.21-py3-none-win_amd64.whl?a=1&amp;b=2'>"
            "nvidia_cudnn_cu12-9.10.2.21-py3-none-win_amd64.whl</A>\n"
            "<a name=\"x\">no link</a><abbr>a</abbr></body></html>";
        cc_fetch_file *f = NULL;
        size_t n = 0;
        cc_error err = {0};

        (void)state;
        assert_int_equal(
            cc_index_pypi_page(page, sizeof(page) - 1, 0, "http://127.0.0.1:9/simple/nvidia-cudnn-cu12/", &f, &n, &err),
            0);
        assert_int_equal(n, 2);
        assert_string_equal(f[0].sha256, SHA_A);
        assert_string_equal(f[0].url,
                            "https://files.example/p/nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl");
        assert_string_equal(f[1].version, "9.10.2.21");
        assert_string_equal(f[1].sha256, "");
        assert_string_equal(f[1].url,
                            "http://127.0.0.1:9/p/nvidia_cudnn_cu12-9.10.2.21-py3-none-win_amd64.whl?a=1&b=2");
        cc_fetch_file_free(f, n);
        assert_int_equal(pypi("no links", 0, &f, &n, &err), -1);
        assert_non_null(strstr(err.msg, "PEP 503"));
}

static void test_urls_and_versions(void **state)
{
        static const struct {
                const char *base, *ref, *want;
        } U[] = {
            {"http://h:1/a/b/", "c.json", "http://h:1/a/b/c.json"},
            {"http://h:1/a/b/index.html", "./c", "http://h:1/a/b/c"},
            {"http://h:1/a/b/", "../../../x", "http://h:1/x"},
            {"http://h:1/a/b/", "/r/x", "http://h:1/r/x"},
            {"https://h/a/", "//o/x", "https://o/x"},
            {"http://h", "x", "http://h/x"},
            {"http://h/a/", "https://other/y", "https://other/y"},
            /* a scheme in capitals is the same scheme, handed on in lowercase */
            {"http://h/a/", "HTTPS://Other/Y", "https://Other/Y"},
            {"http://h/a/", "hTtP://o/", "http://o/"},
        };
        cc_error err = {0};
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(U) / sizeof(U[0]); i++) {
                char *u = cc_url_resolve(U[i].base, U[i].ref, &err);

                assert_non_null(u);
                assert_string_equal(u, U[i].want);
                free(u);
        }
        assert_null(cc_url_resolve("relative/", "x", &err));
        assert_true(cc_version_cmp("9.10.0", "9.9.0") > 0);
        assert_true(cc_version_cmp("9.19.0.56", "9.19.0") > 0);
        assert_int_equal(cc_version_cmp("9.1.0", "9.1.0"), 0);
        assert_int_equal(cc_version_matches("9", "9.19.0.56"), 1);
        assert_int_equal(cc_version_matches("9.1", "9.19.0.56"), 0);
        assert_int_equal(cc_version_matches("9.19.0.56", "9.19.0.56"), 1);
        assert_int_equal(cc_version_matches("9.19.0.56", "9.19.0"), 0);
        assert_int_equal(cc_version_matches("x", "9"), -1);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_listing),     cmocka_unit_test(test_redist_files),
            cmocka_unit_test(test_wheel_names), cmocka_unit_test(test_pypi_json),
            cmocka_unit_test(test_pypi_html),   cmocka_unit_test(test_urls_and_versions),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
