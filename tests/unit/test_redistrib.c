/* The redistrib manifest reader (src/lib/formats/redistrib.c): both shapes
 * NVIDIA publishes (a file per platform in the 8.x manifests, CUDA variants
 * per platform in 9.x), CUDA's many-product manifests, and refusals with
 * their one-line reasons. */
#include "testutil.h"

#include "formats/redistrib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHA_A "a6d9887267e28590c9db95ce65cbe96a668df0352338b7d337e0532ded33485c"
#define SHA_B "35163c5c542be0c511738b27e25235193cbeedc5e0e006e44b1cdeaf1922e83e"
#define MD5_A "56a15f6a9b85b0be2f005a1e3715d506"
#define MD5_B "fe41922f07a13da7b1593639adb0e32c"

/* A 9.x manifest: CUDA variants per platform, sizes as strings, the
 * product's metadata (license_path, cuda_variant) beside the platforms. */
static const char V9[] =
    "{\n"
    "  \"release_date\": \"2026-01-20\",\n"
    "  \"release_label\": \"9.19.0\",\n"
    "  \"release_product\": \"cudnn\",\n"
    "  \"cudnn\": {\n"
    "    \"name\": \"NVIDIA CUDA Deep Neural Network library\",\n"
    "    \"license\": \"cudnn\",\n"
    "    \"license_path\": \"cudnn/LICENSE.txt\",\n"
    "    \"version\": \"9.19.0.56\",\n"
    "    \"cuda_variant\": [\"12\", \"13\"],\n"
    "    \"linux-x86_64\": {\n"
    "      \"cuda12\": {\"relative_path\": "
    "\"cudnn/linux-x86_64/cudnn-linux-x86_64-9.19.0.56_cuda12-archive.tar.xz\", \"sha256\": \"" SHA_A "\", "
    "\"md5\": \"" MD5_A "\", \"size\": \"903887852\"},\n"
    "      \"cuda13\": {\"relative_path\": "
    "\"cudnn/linux-x86_64/cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz\", \"sha256\": \"" SHA_B "\", "
    "\"md5\": \"" MD5_B "\", \"size\": \"18446744073709551615\"}\n"
    "    },\n"
    "    \"windows-x86_64\": {\n"
    "      \"cuda12\": {\"relative_path\": \"cudnn/windows-x86_64/cudnn-windows-x86_64-9.19.0.56_cuda12-archive.zip\", "
    "\"sha256\": \"" SHA_A "\", \"md5\": \"" MD5_A "\", \"size\": \"1\"}\n"
    "    }\n"
    "  }\n"
    "}\n";

/* An 8.x manifest: one file per platform; digests in capitals, a size as
 * a JSON integer, only an md5 for one platform. */
static const char V8[] =
    "{\"release_date\": \"2022-08-09\", \"release_label\": \"8.5.0\", \"release_product\": \"cudnn\",\n"
    " \"cudnn\": {\"name\": \"NVIDIA CUDA Deep Neural Network library\", \"license\": \"cudnn\",\n"
    "  \"version\": \"8.5.0.96\",\n"
    "  \"linux-x86_64\": {\"relative_path\": "
    "\"cudnn/linux-x86_64/cudnn-linux-x86_64-8.5.0.96_cuda11-archive.tar.xz\",\n"
    "   \"sha256\": \"A6D9887267E28590C9DB95CE65CBE96A668DF0352338B7D337E0532DED33485C\", "
    "\"md5\": \"" MD5_A "\", \"size\": 12345},\n"
    "  \"linux-sbsa\": {\"relative_path\": "
    "\"cudnn/linux-sbsa/cudnn-linux-sbsa-8.5.0.96_cuda11-archive.tar.xz\", "
    "\"md5\": \"FE41922F07A13DA7B1593639ADB0E32C\", \"size\": \"0\"}}}";

static void test_v9_variants(void **state)
{
        cc_redist_file *v = NULL;
        cc_error err = {0};
        size_t n = 0;

        (void)state;
        assert_int_equal(cc_redist_parse(V9, strlen(V9), &v, &n, &err), 0);
        assert_int_equal(n, 3);
        assert_string_equal(v[0].product, "cudnn");
        assert_string_equal(v[0].version, "9.19.0.56");
        assert_string_equal(v[0].platform, "linux-x86_64");
        assert_string_equal(v[0].variant, "cuda12");
        assert_string_equal(v[0].relative_path,
                            "cudnn/linux-x86_64/cudnn-linux-x86_64-9.19.0.56_cuda12-archive.tar.xz");
        assert_string_equal(v[0].sha256, SHA_A);
        assert_string_equal(v[0].md5, MD5_A);
        assert_true(v[0].size == 903887852u);
        assert_string_equal(v[1].variant, "cuda13");
        assert_true(v[1].size == UINT64_MAX); /* the largest size that fits */
        assert_string_equal(v[2].platform, "windows-x86_64");
        assert_string_equal(v[2].variant, "cuda12");
        cc_redist_free(v, n);
}

static void test_v8_one_file(void **state)
{
        cc_redist_file *v = NULL;
        cc_error err = {0};
        size_t n = 0;

        (void)state;
        assert_int_equal(cc_redist_parse(V8, strlen(V8), &v, &n, &err), 0);
        assert_int_equal(n, 2);
        assert_string_equal(v[0].variant, "");
        assert_string_equal(v[0].platform, "linux-x86_64");
        assert_string_equal(v[0].sha256, SHA_A); /* lowercased */
        assert_true(v[0].size == 12345);
        assert_string_equal(v[1].platform, "linux-sbsa");
        assert_string_equal(v[1].sha256, ""); /* none given */
        assert_string_equal(v[1].md5, MD5_B);
        assert_true(v[1].size == 0);
        cc_redist_free(v, n);
}

/* CUDA's manifests: many products, no release_product. */
static void test_many_products(void **state)
{
        static const char T[] =
            "{\"release_date\": \"2024-04-09\", \"release_label\": \"12.4.1\",\n"
            " \"cuda_cudart\": {\"name\": \"CUDA Runtime (cudart)\", \"license\": \"CUDA Toolkit\", \"version\": "
            "\"12.4.127\",\n"
            "  \"linux-x86_64\": {\"relative_path\": \"cuda_cudart/linux-x86_64/cuda_cudart-linux-x86_64-12.4.127-"
            "archive.tar.xz\", \"sha256\": \"" SHA_A "\", \"md5\": \"" MD5_A "\", \"size\": \"1099680\"}},\n"
            " \"cuda_nvcc\": {\"name\": \"CUDA NVCC\", \"license\": \"CUDA Toolkit\", \"version\": \"12.4.131\",\n"
            "  \"windows-x86_64\": {\"relative_path\": \"cuda_nvcc/windows-x86_64/cuda_nvcc-windows-x86_64-12.4.131-"
            "archive.zip\", \"sha256\": \"" SHA_B "\", \"md5\": \"" MD5_B "\", \"size\": \"7\"}}}";
        cc_redist_file *v = NULL;
        cc_error err = {0};
        size_t n = 0;

        (void)state;
        assert_int_equal(cc_redist_parse(T, strlen(T), &v, &n, &err), 0);
        assert_int_equal(n, 2);
        assert_string_equal(v[0].product, "cuda_cudart");
        assert_string_equal(v[1].product, "cuda_nvcc");
        assert_string_equal(v[1].version, "12.4.131");
        cc_redist_free(v, n);
}

/* A 9.x manifest whose one file (linux-x86_64, cuda13) is the object given. */
static char *manifest_with(const char *file)
{
        static char buf[4096];

        snprintf(buf, sizeof(buf),
                 "{\"release_label\": \"9.19.0\", \"cudnn\": {\"name\": \"cuDNN\", \"version\": \"9.19.0.56\", "
                 "\"linux-x86_64\": {\"cuda13\": %s}}}",
                 file);
        return buf;
}

#define FILE_OK_PATH "\"relative_path\": \"cudnn/linux-x86_64/c.tar.xz\""

static const struct {
        const char *name, *text, *reason; /* text: a whole manifest, or (starting with '@') a file object */
} BAD[] = {
    {"truncated", "{\"cudnn\": {\"version\": \"9.19.0.56\", \"linux-x86_64\": {\"cuda13\": {\"relative_pa", "at byte"},
    {"empty", "", "at byte"},
    {"top level array", "[1, 2]", "not a JSON object"},
    {"top level string", "\"cudnn\"", "not a JSON object"},
    {"no product", "{\"release_label\": \"9.19.0\"}", "no product with a file"},
    {"release_label a number", "{\"release_label\": 9, \"cudnn\": {}}", "\"release_label\" is not a string"},
    {"product a number", "{\"cudnn\": 5}", "cudnn: not a product object"},
    {"product an array", "{\"cudnn\": [1]}", "cudnn: not a product object"},
    {"no version", "{\"cudnn\": {\"linux-x86_64\": {}}}", "cudnn: no \"version\""},
    {"version a number", "{\"cudnn\": {\"version\": 9.19}}", "cudnn: \"version\" is not a string"},
    {"name an object", "{\"cudnn\": {\"version\": \"9\", \"name\": {}}}", "cudnn: \"name\" is not a string"},
    {"no platform", "{\"cudnn\": {\"version\": \"9\", \"name\": \"x\"}}", "cudnn: no platform with a file"},
    {"platform a number", "{\"cudnn\": {\"version\": \"9\", \"linux-x86_64\": 3}}",
     "cudnn/linux-x86_64: not a file or an object of CUDA variants"},
    {"platform null", "{\"cudnn\": {\"version\": \"9\", \"linux-x86_64\": null}}",
     "cudnn/linux-x86_64: not a file or an object of CUDA variants"},
    {"platform empty", "{\"cudnn\": {\"version\": \"9\", \"linux-x86_64\": {}}}",
     "cudnn/linux-x86_64: an empty object"},
    {"variant a string", "{\"cudnn\": {\"version\": \"9\", \"linux-x86_64\": {\"cuda13\": \"x\"}}}",
     "cudnn/linux-x86_64/cuda13: not a file object"},
    {"variant without a path", "@{\"sha256\": \"" SHA_A "\", \"size\": \"1\"}",
     "cudnn/linux-x86_64/cuda13: no \"relative_path\""},
    {"path a number", "@{\"relative_path\": 7, \"sha256\": \"" SHA_A "\", \"size\": \"1\"}",
     "\"relative_path\" is not a string"},
    {"path absolute", "@{\"relative_path\": \"/etc/passwd\", \"sha256\": \"" SHA_A "\", \"size\": \"1\"}",
     "\"relative_path\" is not a relative path"},
    {"path dotdot", "@{\"relative_path\": \"cudnn/../../x.tar.xz\", \"sha256\": \"" SHA_A "\", \"size\": \"1\"}",
     "\"relative_path\" is not a relative path"},
    {"path backslash", "@{\"relative_path\": \"cudnn\\\\x.zip\", \"sha256\": \"" SHA_A "\", \"size\": \"1\"}",
     "\"relative_path\" is not a relative path"},
    {"path newline", "@{\"relative_path\": \"a\\nb.tar.xz\", \"sha256\": \"" SHA_A "\", \"size\": \"1\"}",
     "\"relative_path\" is not a relative path"},
    {"path empty", "@{\"relative_path\": \"\", \"sha256\": \"" SHA_A "\", \"size\": \"1\"}",
     "\"relative_path\" is not a relative path"},
    {"path with NUL", "@{\"relative_path\": \"c.tar.xz\\u0000.txt\", \"sha256\": \"" SHA_A "\", \"size\": \"1\"}",
     "\\u0000"},
    {"sha256 short", "@{" FILE_OK_PATH ", \"sha256\": \"feed\", \"size\": \"1\"}", "\"sha256\" is not 64 hex digits"},
    {"sha256 not hex",
     "@{" FILE_OK_PATH ", \"sha256\": \"g6d9887267e28590c9db95ce65cbe96a668df0352338b7d337e0532ded33485c\", "
     "\"size\": \"1\"}",
     "\"sha256\" is not 64 hex digits"},
    {"sha256 a number", "@{" FILE_OK_PATH ", \"sha256\": 12, \"size\": \"1\"}", "\"sha256\" is not 64 hex digits"},
    {"md5 long", "@{" FILE_OK_PATH ", \"md5\": \"" MD5_A "0\", \"size\": \"1\"}", "\"md5\" is not 32 hex digits"},
    {"no digest", "@{" FILE_OK_PATH ", \"size\": \"1\"}", "no \"sha256\" or \"md5\""},
    {"no size", "@{" FILE_OK_PATH ", \"sha256\": \"" SHA_A "\"}", "no \"size\""},
    {"size negative", "@{" FILE_OK_PATH ", \"sha256\": \"" SHA_A "\", \"size\": -1}", "\"size\" is not a byte count"},
    {"size a fraction", "@{" FILE_OK_PATH ", \"sha256\": \"" SHA_A "\", \"size\": 1.5}",
     "\"size\" is not a byte count"},
    {"size over int64", "@{" FILE_OK_PATH ", \"sha256\": \"" SHA_A "\", \"size\": 99999999999999999999999}",
     "\"size\" is not a byte count"},
    {"size string over 64 bits", "@{" FILE_OK_PATH ", \"sha256\": \"" SHA_A "\", \"size\": \"18446744073709551616\"}",
     "\"size\" is not a byte count"},
    {"size string signed", "@{" FILE_OK_PATH ", \"sha256\": \"" SHA_A "\", \"size\": \"+5\"}",
     "\"size\" is not a byte count"},
    {"size string empty", "@{" FILE_OK_PATH ", \"sha256\": \"" SHA_A "\", \"size\": \"\"}",
     "\"size\" is not a byte count"},
    {"size a bool", "@{" FILE_OK_PATH ", \"sha256\": \"" SHA_A "\", \"size\": true}", "\"size\" is not a byte count"},
    {"too deep", "{\"a\":[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]}", "deep"},
};

static void test_refused(void **state)
{
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(BAD) / sizeof(BAD[0]); i++) {
                const char *t = BAD[i].text[0] == '@' ? manifest_with(BAD[i].text + 1) : BAD[i].text;
                cc_redist_file *v = (cc_redist_file *)&i; /* must be reset */
                cc_error err = {0};
                size_t n = 99;

                if (cc_redist_parse(t, strlen(t), &v, &n, &err) == 0)
                        fail_msg("%s: accepted", BAD[i].name);
                if (strstr(err.msg, BAD[i].reason) == NULL)
                        fail_msg("%s: \"%s\", not \"%s\"", BAD[i].name, err.msg, BAD[i].reason);
                assert_null(v);
                assert_int_equal(n, 0);
                assert_null(strchr(err.msg, '\n'));
        }
}

/* A key with control characters is named escaped, on one line. */
static void test_reason_one_line(void **state)
{
        static const char T[] = "{\"cu\\ndnn\": {\"version\": \"9\", \"linux\\u0007x\": 1}}";
        cc_redist_file *v = NULL;
        cc_error err = {0};
        size_t n = 0;

        (void)state;
        assert_int_equal(cc_redist_parse(T, strlen(T), &v, &n, &err), -1);
        assert_string_equal(err.msg, "cu\\x0adnn/linux\\x07x: not a file or an object of CUDA variants");
}

/* An escaped backslash before "u0000" is no NUL: the text is taken. */
static void test_escaped_backslash_is_not_nul(void **state)
{
        const char *t = manifest_with("{\"relative_path\": \"c.tar.xz\", \"sha256\": \"" SHA_A
                                      "\", \"size\": \"1\", \"note\": \"\\\\u0000\"}");
        cc_redist_file *v = NULL;
        cc_error err = {0};
        size_t n = 0;

        (void)state;
        assert_int_equal(cc_redist_parse(t, strlen(t), &v, &n, &err), 0);
        assert_int_equal(n, 1);
        cc_redist_free(v, n);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_v9_variants),     cmocka_unit_test(test_v8_one_file),
            cmocka_unit_test(test_many_products),   cmocka_unit_test(test_refused),
            cmocka_unit_test(test_reason_one_line), cmocka_unit_test(test_escaped_backslash_is_not_nul),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
