/* The frameworks' verdicts as pure functions of facts: interpreters and
 * their frameworks, list documents and the plain program's copy written
 * here as JSON, the "cudnn" block and the verdicts cc_fw_judge must give
 * (version rule, one directory, installation mapping, expected copy, CUDA
 * build, GPU call, probe failures), hostile shapes, and the text of the
 * judged document. */
#include "testutil.h"

#include "formats/json.h"
#include "frameworks/frameworks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SITE "/venv/lib/python3.12/site-packages"
#define WHEEL_LIB SITE "/nvidia/cudnn/lib"
#define TORCH_LIB SITE "/torch/lib"

/* The installations a list found: the distro's (with the merged-/usr alias),
 * the wheel's, an archive copy with two directories and an alias, the copy
 * torch bundles. */
#define LIST                                                                                                           \
        "{\"installations\":["                                                                                         \
        "{\"id\":1,\"prefix\":\"/usr\",\"version\":\"9.19.0\",\"provenance\":{\"kind\":\"distro-package\"},"           \
        "\"directories\":[{\"path\":\"/usr/lib/x86_64-linux-gnu\",\"aliases\":[\"/lib/x86_64-linux-gnu\"]}]},"         \
        "{\"id\":2,\"prefix\":\"" SITE "/nvidia/cudnn\",\"version\":\"9.1.0.70\",\"provenance\":{\"kind\":"            \
        "\"pip-wheel\"},\"directories\":[{\"path\":\"" WHEEL_LIB "\",\"aliases\":[]}]},"                               \
        "{\"id\":3,\"prefix\":\"/opt/cudnn\",\"version\":\"9.3.0\",\"provenance\":{\"kind\":\"archive-copy\"},"        \
        "\"directories\":[{\"path\":\"/opt/cudnn/lib\",\"aliases\":[\"/opt/cudnn-9.3/lib\"]},"                         \
        "{\"path\":\"/opt/cudnn/lib64\",\"aliases\":[]}]},"                                                            \
        "{\"id\":4,\"prefix\":\"" SITE "/torch\",\"version\":\"9.1.0\",\"provenance\":{\"kind\":\"copy\"},"            \
        "\"directories\":[{\"path\":\"" TORCH_LIB "\",\"aliases\":[]}]}]}"

/* A Windows list: the installer's layout. */
#define WIN_LIST                                                                                                       \
        "{\"installations\":[{\"id\":5,\"prefix\":\"C:\\\\Program Files\\\\NVIDIA\\\\CUDNN\\\\v9.3\","                 \
        "\"version\":\"9.3.0\",\"provenance\":{\"kind\":\"windows-installer\"},\"directories\":[{\"path\":"            \
        "\"C:\\\\Program Files\\\\NVIDIA\\\\CUDNN\\\\v9.3\\\\bin\\\\12.9\\\\\",\"aliases\":[]}]}]}"

#define CUDNN_FILE(path) "{\"path\":\"" path "\",\"family\":\"cudnn\"}"
/* The mapped files (JSON objects joined with ","). */
#define MODULES(files) "\"modules\":{\"when\":\"after-gpu-call\",\"total\":120,\"files\":[" files "]}"
#define BUILD(v) "\"build\":{\"cuda\":\"12.4\",\"cudnn\":\"" v "\",\"cuda_build\":true}"
#define RUNTIME(v) "\"runtime\":{\"cudnn\":\"" v "\",\"cudnn_source\":\"torch.backends.cudnn.version()\"}"
#define GPU_OK "\"gpu_call\":{\"what\":\"conv2d on cuda:0\",\"ok\":true}"
/* torch's own distribution, requiring the cuDNN wheel pinned to `pin`. */
#define TORCH_REQUIRES(pin)                                                                                            \
        "\"distributions\":[{\"name\":\"torch\",\"version\":\"2.5.1\",\"location\":\"" SITE "\",\"requires\":["        \
        "\"filelock\",\"nvidia-cudnn-cu12==" pin "; platform_system == 'Linux' and platform_machine == 'x86_64'\"]}]"
#define WHEEL(name, version, extra)                                                                                    \
        "{\"name\":\"" name "\",\"version\":\"" version "\",\"location\":\"" SITE "\",\"shadowed\":false" extra "}"

static char *xprintf(const char *fmt, ...) CC_PRINTF(1, 2);

static char *xprintf(const char *fmt, ...)
{
        va_list ap;
        char *s;
        int n;

        va_start(ap, fmt);
        n = vsnprintf(NULL, 0, fmt, ap);
        va_end(ap);
        assert_true(n >= 0);
        s = malloc((size_t)n + 1);
        assert_non_null(s);
        va_start(ap, fmt);
        vsnprintf(s, (size_t)n + 1, fmt, ap);
        va_end(ap);
        return s;
}

static cc_value *parse(const char *text)
{
        cc_value *v = NULL;
        cc_error err = {0};

        if (cc_json_parse(text, strlen(text), 0, &v, &err) < 0)
                fail_msg("bad test JSON: %s: %s", err.msg, text);
        return v;
}

/* The facts of one framework that probed fine (state, info, its own
 * distribution), then `members`, which may replace any of those (of two
 * equal keys the last wins). */
static char *fw_facts(const char *name, const char *members)
{
        return xprintf("{\"name\":\"%s\",\"origin\":\"" SITE "/%s\",\"state\":\"ok\",\"info\":{\"version\":\"1.0\","
                       "\"file\":\"" SITE "/%s/__init__.py\"},\"distributions\":[{\"name\":\"%s\",\"version\":\"1.0\","
                       "\"location\":\"" SITE "\",\"requires\":[]}]%s%s}",
                       name, name, name, name, members && members[0] ? "," : "", members ? members : "");
}

/* One interpreter with distributions `dists` (a JSON array) and the
 * frameworks `fws` (JSON objects, comma-separated). */
static char *interpreters(const char *dists, const char *fws)
{
        return xprintf("[{\"path\":\"/venv/bin/python3\",\"sources\":[\"VIRTUAL_ENV\"],\"aliases\":[],"
                       "\"state\":\"probed\",\"python\":{\"version\":\"3.12.3\",\"virtual_env\":true},"
                       "\"distributions\":%s,\"found\":{},\"frameworks\":[%s]}]",
                       dists ? dists : "[]", fws);
}

/* cc_fw_judge on the texts (list and plain may be NULL); the judged
 * interpreters. */
static cc_value *judge(const char *interps, const char *list, const char *plain, const char *expect, int windows)
{
        cc_value *its = parse(interps), *l = list ? parse(list) : NULL, *p = plain ? parse(plain) : NULL;
        cc_error err = {0};

        if (cc_fw_judge(its, l, p, expect, windows, &err) < 0)
                fail_msg("cc_fw_judge failed: %s (facts %s)", err.msg, interps);
        cc_v_free(l);
        cc_v_free(p);
        return its;
}

/* Judge one framework (name, members) in an interpreter with dists. */
static cc_value *judge_one(const char *name, const char *members, const char *dists, const char *list,
                           const char *plain, const char *expect, int windows)
{
        char *f = fw_facts(name, members), *its = interpreters(dists, f);
        cc_value *v = judge(its, list, plain, expect, windows);

        free(f);
        free(its);
        return v;
}

static const cc_value *first_fw(const cc_value *its)
{
        return cc_v_at(cc_v_get(cc_v_at(its, 0), "frameworks"), 0);
}

static const cc_value *verdict_of(const cc_value *fw, const char *id)
{
        const cc_value *vs = cc_v_get(fw, "verdicts");
        size_t i;

        for (i = 0; i < cc_v_len(vs); i++)
                if (strcmp(cc_v_get_str(cc_v_at(vs, i), "id"), id) == 0)
                        return cc_v_at(vs, i);
        return NULL;
}

/* The verdict `id` of fw has `status`, and its summary each of the key
 * words ("|" between them; NULL: none). */
static void expect_verdict(const char *label, const cc_value *fw, const char *id, const char *status, const char *words)
{
        const cc_value *v = verdict_of(fw, id);
        const char *st, *sum, *w;

        if (v == NULL)
                fail_msg("%s: no %s verdict", label, id);
        st = cc_v_get_str(v, "status");
        sum = cc_v_get_str(v, "summary");
        assert_non_null(st);
        assert_non_null(sum);
        if (strcmp(st, status) != 0)
                fail_msg("%s: %s is %s, not %s: %s", label, id, st, status, sum);
        for (w = words; w != NULL && *w;) {
                size_t n = strcspn(w, "|");
                char word[256];

                assert_true(n < sizeof(word));
                memcpy(word, w, n);
                word[n] = '\0';
                if (strstr(sum, word) == NULL)
                        fail_msg("%s: the %s summary lacks '%s': %s", label, id, word, sum);
                w += n + (w[n] == '|');
        }
}

static void expect_str(const char *label, const char *what, const char *got, const char *want)
{
        if (want == NULL && got != NULL)
                fail_msg("%s: %s is '%s', not null", label, what, got);
        if (want != NULL && (got == NULL || strcmp(got, want) != 0))
                fail_msg("%s: %s is '%s', not '%s'", label, what, got ? got : "(null)", want);
}

/* ---- the version rule ------------------------------------------------------ */

struct rule_case {
        const char *label;
        const char *name;    /* the framework */
        const char *build;   /* the build's cuDNN, or NULL */
        const char *runtime; /* what the framework reports at run time, or NULL */
        const char *rerr;    /* the run-time query's error, or NULL */
        const char *status;
        const char *words; /* key words of the summary, "|" between */
};

static const struct rule_case rule_cases[] = {
    {"same major, newer minor", "torch", "9.1.0", "9.3.0", NULL, "pass", "9.3.0 fits the build's 9.1.0|same major"},
    {"same release", "torch", "9.1.0", "9.1.0", NULL, "pass", "fits"},
    {"older minor", "torch", "9.5.0", "9.1.0", NULL, "fail", "older than the build's 9.5.0|minor 1 < 5"},
    {"other major (older)", "torch", "9.1.0", "8.9.7", NULL, "fail", "another major than the build's 9.1.0"},
    {"other major (newer)", "tensorflow", "8.9.4", "9.3.0", NULL, "fail", "another major"},
    {"build major only", "torch", "9", "9.1.0", NULL, "pass", "fits the build's 9"},
    {"build 8 with cuDNN 9", "torch", "8", "9.1.0", NULL, "fail", "another major than the build's 8"},
    {"torch before 7: other minor", "torch", "6.0.21", "6.5.18", NULL, "fail",
     "before cuDNN 7 PyTorch needs the same minor|6.5.18"},
    {"torch before 7: same minor", "torch", "6.0.21", "6.0.20", NULL, "pass", "fits"},
    {"torch 7: newer minor", "torch", "7.0.5", "7.6.5", NULL, "pass", "fits"},
    {"tensorflow before 7: newer minor", "tensorflow", "6.0.21", "6.5.18", NULL, "pass", "fits"},
    {"build not read", "torch", NULL, "9.1.0", NULL, "unknown", "the build's cuDNN version was not read"},
    {"run time not known", "torch", "9.1.0", NULL, NULL, "unknown", "the loaded cuDNN's version is not known"},
    {"neither", "torch", NULL, NULL, NULL, "unknown", "was not read; the loaded cuDNN's version is not known"},
    {"torch refuses", "torch", "9.5.0", NULL,
     "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (9, 5, 0) but found runtime version "
     "(9, 1, 0). PyTorch already comes bundled with cuDNN.",
     "fail", "PyTorch refuses the cuDNN it loads|cuDNN version incompatibility|(9, 5, 0)"},
    {"refusal wins over versions", "torch", "9.1.0", "9.3.0", "cuDNN version incompatibility: found 9.3.0", "fail",
     "refuses"},
    {"another run-time error", "torch", "9.1.0", NULL, "RuntimeError: CUDA driver initialization failed", "unknown",
     "not known"},
    {"jax: known-bad 9.10.0", "jax", "9.8.0", "9.10.0", NULL, "warn", "fits, but|9.10.0 ABI break"},
    {"jax: conditional known-bad", "jax", "9.8.0", "9.9.0", NULL, "note", "fits, but|when cuBLASLt"},
    {"jax: past the lists", "jax", "9.8.0", "9.12.0", NULL, "pass", "fits|JAX"},
    {"jax: older minor", "jax", "9.8.0", "9.7.0", NULL, "fail", "older"},
    {"jax: patch ignored", "jax", "9.12.3", "9.12.0", NULL, "pass", "fits"},
    {"onnxruntime: common rule, older", "onnxruntime", "9.1.0", "9.0.0", NULL, "fail", "older than the build's 9.1.0"},
    {"onnxruntime: common rule, newer", "onnxruntime", "9.1.0", "9.6.0", NULL, "pass", "fits the build's 9.1.0"},
    {"cupy: common rule, other major", "cupy", "8.9.0", "9.1.0", NULL, "fail", "another major"},
    {"cupy: common rule, newer", "cupy", "8.6.0", "8.9.7", NULL, "pass", "fits"},
    {"cupy: 9.10.0 is no JAX", "cupy", "9.1.0", "9.10.0", NULL, "pass", "fits"},
    {"not a version", "torch", "abc", "9.1.0", NULL, "unknown", "cannot compare build abc with run time 9.1.0"},
};

static void version_rule(void **state)
{
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(rule_cases); i++) {
                const struct rule_case *c = &rule_cases[i];
                char *members =
                    xprintf("\"build\":{\"cuda\":\"12.4\",\"cuda_build\":true%s%s%s},"
                            "\"runtime\":{\"cudnn_source\":\"the framework\"%s%s%s%s%s%s}",
                            c->build ? ",\"cudnn\":\"" : "", c->build ? c->build : "", c->build ? "\"" : "",
                            c->runtime ? ",\"cudnn\":\"" : "", c->runtime ? c->runtime : "", c->runtime ? "\"" : "",
                            c->rerr ? ",\"cudnn_error\":\"" : "", c->rerr ? c->rerr : "", c->rerr ? "\"" : "");
                cc_value *its = judge_one(c->name, members, NULL, NULL, NULL, NULL, 0);
                const cc_value *fw = first_fw(its);

                expect_verdict(c->label, fw, "version-rule", c->status, c->words);
                expect_str(c->label, "cudnn.version", cc_v_get_str(cc_v_get(fw, "cudnn"), "version"), c->runtime);
                cc_v_free(its);
                free(members);
        }
}

/* A CPU-only build has no cuDNN to compare; a build whose CUDA is not known
 * (TensorFlow's probe leaves null) is compared all the same. */
static void version_rule_cuda_build(void **state)
{
        cc_value *its;

        (void)state;
        its = judge_one("torch", "\"build\":{\"cuda\":null,\"cuda_build\":false}", NULL, NULL, NULL, NULL, 0);
        expect_verdict("cpu-only", first_fw(its), "version-rule", "unknown", "CPU-only");
        cc_v_free(its);
        its = judge_one("tensorflow", "\"build\":{\"cudnn\":\"9.1.0\",\"cuda_build\":null}," RUNTIME("9.3.0"), NULL,
                        NULL, NULL, NULL, 0);
        expect_verdict("cuda_build null", first_fw(its), "version-rule", "pass", "fits");
        expect_verdict("cuda_build null", first_fw(its), "cuda-build", "unknown", NULL);
        cc_v_free(its);
}

/* ---- the run-time version's source ---------------------------------------- */

struct source_case {
        const char *label;
        const char *runtime; /* the framework's "runtime" object, or NULL */
        const char *loaded;  /* "loaded_cudnn", or NULL */
        const char *list;    /* NULL: no list */
        const char *version; /* the "cudnn" block's */
        const char *source;  /* its version_source */
};

#define LOADED(v) "[{\"path\":\"/opt/cudnn/lib/libcudnn.so.9\",\"version\":" v ",\"cudart_version\":12090}]"

static const struct source_case source_cases[] = {
    {"the framework's own answer first", "{\"cudnn\":\"9.1.0\",\"cudnn_source\":\"torch.backends.cudnn.version()\"}",
     LOADED("91900"), LIST, "9.1.0", "torch.backends.cudnn.version()"},
    {"then the mapped library (9.x)", "{\"cudnn_error\":\"no\"}", LOADED("91900"), LIST, "9.19.0",
     "cudnnGetVersion() of the mapped library"},
    {"then the mapped library (8.x)", NULL, LOADED("8902"), LIST, "8.9.2", "cudnnGetVersion() of the mapped library"},
    {"the first mapped library that answers", "{\"cudnn\":90100}",
     "[{\"path\":\"/a\"},{\"version\":\"91900\"},{\"version\":12},{\"version\":91000},{\"version\":90300}]", LIST,
     "9.10.0", "cudnnGetVersion() of the mapped library"},
    {"then the installation", "{\"cudnn\":null}", "[]", LIST, "9.3.0", "the installation of the mapped library"},
    {"an unreadable answer: the installation", NULL, "[{\"error\":\"undefined symbol\"}]", LIST, "9.3.0",
     "the installation of the mapped library"},
    {"nothing at all", NULL, NULL, NULL, NULL, NULL},
    {"no installation version", NULL, NULL,
     "{\"installations\":[{\"id\":3,\"directories\":[{\"path\":\"/opt/cudnn/lib\"}]}]}", NULL, NULL},
};

static void version_source(void **state)
{
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(source_cases); i++) {
                const struct source_case *c = &source_cases[i];
                char *members =
                    xprintf(BUILD("9.1.0") ",%s%s%s%s%s%s" MODULES(CUDNN_FILE("/opt/cudnn/lib/libcudnn.so.9")),
                            c->runtime ? "\"runtime\":" : "", c->runtime ? c->runtime : "", c->runtime ? "," : "",
                            c->loaded ? "\"loaded_cudnn\":" : "", c->loaded ? c->loaded : "", c->loaded ? "," : "");
                cc_value *its;
                const cc_value *cu;

                its = judge_one("torch", members, NULL, c->list, NULL, NULL, 0);
                cu = cc_v_get(first_fw(its), "cudnn");
                assert_true(cc_v_as_bool(cc_v_get(cu, "loaded")));
                expect_str(c->label, "version", cc_v_get_str(cu, "version"), c->version);
                expect_str(c->label, "version_source", cc_v_get_str(cu, "version_source"), c->source);
                expect_str(c->label, "directory", cc_v_get_str(cu, "directory"), "/opt/cudnn/lib");
                cc_v_free(its);
                free(members);
        }
}

/* ---- the cudnn block, one directory, installations ------------------------ */

static void cudnn_block(void **state)
{
        cc_value *its;
        const cc_value *cu, *d;

        (void)state;
        its = judge_one(
            "torch",
            BUILD("9.1.0") "," RUNTIME("9.3.0") "," MODULES(CUDNN_FILE(
                "/opt/cudnn/lib/libcudnn.so.9") ","
                                                "{\"path\":\"/usr/local/cuda/lib64/"
                                                "libcublasLt.so.12\",\"family\":\"cublas\"}"
                                                "," CUDNN_FILE("/opt/cudnn/lib/libcudnn_graph.so.9") "," CUDNN_FILE(
                                                    "/opt/cudnn/lib//libcudnn_ops.so.9")),
            NULL, LIST, NULL, NULL, 0);
        cu = cc_v_get(first_fw(its), "cudnn");
        assert_true(cc_v_as_bool(cc_v_get(cu, "loaded")));
        assert_string_equal(cc_v_get_str(cu, "version"), "9.3.0");
        assert_string_equal(cc_v_get_str(cu, "version_source"), "torch.backends.cudnn.version()");
        assert_string_equal(cc_v_get_str(cu, "directory"), "/opt/cudnn/lib");
        assert_int_equal(cc_v_as_int(cc_v_get(cu, "installation")), 3);
        assert_int_equal(cc_v_len(cc_v_get(cu, "directories")), 1);
        d = cc_v_at(cc_v_get(cu, "directories"), 0);
        assert_string_equal(cc_v_get_str(d, "path"), "/opt/cudnn/lib");
        assert_int_equal(cc_v_as_int(cc_v_get(d, "installation")), 3);
        assert_string_equal(cc_v_get_str(d, "prefix"), "/opt/cudnn");
        assert_string_equal(cc_v_get_str(d, "version"), "9.3.0");
        assert_string_equal(cc_v_get_str(d, "provenance"), "archive-copy");
        /* the cuBLAS file is not cuDNN's; the doubled slash is the same directory */
        assert_int_equal(cc_v_len(cc_v_get(d, "files")), 3);
        assert_string_equal(cc_v_as_str(cc_v_at(cc_v_get(d, "files"), 0)), "libcudnn.so.9");
        assert_string_equal(cc_v_as_str(cc_v_at(cc_v_get(d, "files"), 2)), "libcudnn_ops.so.9");
        expect_verdict("one directory", first_fw(its), "one-directory", "pass",
                       "every cuDNN library comes from /opt/cudnn/lib");
        /* nothing to expect: unknown, the worst there is */
        assert_string_equal(cc_v_get_str(verdict_of(first_fw(its), "expected-copy"), "status"), "unknown");
        assert_string_equal(cc_v_get_str(first_fw(its), "verdict"), "unknown");
        cc_v_free(its);

        /* a directory no installation holds */
        its = judge_one("torch", BUILD("9.1.0") "," MODULES(CUDNN_FILE("/srv/x/libcudnn.so.9")), NULL, LIST, NULL, NULL,
                        0);
        cu = cc_v_get(first_fw(its), "cudnn");
        d = cc_v_at(cc_v_get(cu, "directories"), 0);
        assert_int_equal(cc_v_type(cc_v_get(cu, "installation")), CUDNNCTL_NULL);
        assert_int_equal(cc_v_type(cc_v_get(d, "installation")), CUDNNCTL_NULL);
        assert_null(cc_v_get(d, "prefix"));
        assert_null(cc_v_get_str(cu, "version"));
        cc_v_free(its);
}

static void one_directory(void **state)
{
        cc_value *its;
        const cc_value *cu;

        (void)state;
        its = judge_one("torch",
                        BUILD("9.1.0") ",\"modules\":{\"when\":\"after-import\",\"total\":3,\"files\":["
                                       "{\"path\":\"/usr/lib/libcublas.so.12\",\"family\":\"cublas\"}]}",
                        NULL, LIST, NULL, NULL, 0);
        cu = cc_v_get(first_fw(its), "cudnn");
        assert_false(cc_v_as_bool(cc_v_get(cu, "loaded")));
        assert_int_equal(cc_v_len(cc_v_get(cu, "directories")), 0);
        assert_null(cc_v_get(cu, "directory"));
        expect_verdict("no files", first_fw(its), "one-directory", "unknown",
                       "no cuDNN library is mapped after import");
        cc_v_free(its);

        its = judge_one("torch", BUILD("9.1.0") "," MODULES(), NULL, LIST, NULL, NULL, 0);
        expect_verdict("none after the GPU call", first_fw(its), "one-directory", "unknown",
                       "no cuDNN library is mapped after the GPU call");
        cc_v_free(its);

        its = judge_one("torch",
                        BUILD("9.1.0") "," MODULES(CUDNN_FILE("/opt/cudnn/lib/libcudnn.so.9") "," CUDNN_FILE(
                            WHEEL_LIB "/libcudnn_ops.so.9") "," CUDNN_FILE("/opt/cudnn/lib/libcudnn_graph.so.9")),
                        NULL, LIST, NULL, NULL, 0);
        cu = cc_v_get(first_fw(its), "cudnn");
        assert_int_equal(cc_v_len(cc_v_get(cu, "directories")), 2);
        /* the first one mapped is "the" directory; the version, its installation's */
        assert_string_equal(cc_v_get_str(cu, "directory"), "/opt/cudnn/lib");
        assert_string_equal(cc_v_get_str(cu, "version"), "9.3.0");
        assert_int_equal(cc_v_as_int(cc_v_get(cc_v_at(cc_v_get(cu, "directories"), 1), "installation")), 2);
        expect_verdict("two directories", first_fw(its), "one-directory", "fail",
                       "cuDNN libraries from 2 directories in one process|/opt/cudnn/lib (2 files, 9.3.0)|" WHEEL_LIB
                       " (1 file, 9.1.0.70)");
        assert_string_equal(cc_v_get_str(first_fw(its), "verdict"), "fail");
        cc_v_free(its);
}

struct map_case {
        const char *label;
        const char *list;
        const char *file; /* the mapped file's path (JSON-escaped) */
        int windows;
        int64_t installation;  /* 0: none */
        const char *directory; /* the cudnn block's (unescaped) */
        const char *file_name;
};

static const struct map_case map_cases[] = {
    {"a directory of the list", LIST, "/opt/cudnn/lib/libcudnn.so.9", 0, 3, "/opt/cudnn/lib", "libcudnn.so.9"},
    {"an installation's second directory", LIST, "/opt/cudnn/lib64/libcudnn.so.9", 0, 3, "/opt/cudnn/lib64",
     "libcudnn.so.9"},
    {"an alias", LIST, "/opt/cudnn-9.3/lib/libcudnn.so.9", 0, 3, "/opt/cudnn-9.3/lib", "libcudnn.so.9"},
    {"merged /usr alias", LIST, "/lib/x86_64-linux-gnu/libcudnn.so.9.19.0", 0, 1, "/lib/x86_64-linux-gnu",
     "libcudnn.so.9.19.0"},
    {"Linux paths keep their case", LIST, "/OPT/cudnn/lib/libcudnn.so.9", 0, 0, "/OPT/cudnn/lib", "libcudnn.so.9"},
    {"a path ending in a separator", LIST, "/opt/cudnn/lib/", 0, 3, "/opt/cudnn/lib", ""},
    {"Windows: case and slashes", WIN_LIST, "c:/program files/nvidia/cudnn/v9.3/bin/12.9/cudnn64_9.dll", 1, 5,
     "c:/program files/nvidia/cudnn/v9.3/bin/12.9", "cudnn64_9.dll"},
    {"Windows: backslashes", WIN_LIST,
     "C:\\\\PROGRAM FILES\\\\NVIDIA\\\\CUDNN\\\\V9.3\\\\BIN\\\\12.9\\\\cudnn_graph64_9.dll", 1, 5,
     "C:\\PROGRAM FILES\\NVIDIA\\CUDNN\\V9.3\\BIN\\12.9", "cudnn_graph64_9.dll"},
    {"Windows: another CUDA's folder", WIN_LIST,
     "C:\\\\Program Files\\\\NVIDIA\\\\CUDNN\\\\v9.3\\\\bin\\\\13.0\\\\cudnn64_9.dll", 1, 0,
     "C:\\Program Files\\NVIDIA\\CUDNN\\v9.3\\bin\\13.0", "cudnn64_9.dll"},
    {"Windows paths on Linux: no match", WIN_LIST, "c:/program files/nvidia/cudnn/v9.3/bin/12.9/cudnn64_9.dll", 0, 0,
     "c:/program files/nvidia/cudnn/v9.3/bin/12.9", "cudnn64_9.dll"},
    {"no list", NULL, "/opt/cudnn/lib/libcudnn.so.9", 0, 0, "/opt/cudnn/lib", "libcudnn.so.9"},
};

static void installation_mapping(void **state)
{
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(map_cases); i++) {
                const struct map_case *c = &map_cases[i];
                char *members = xprintf(BUILD("9.1.0") ",\"modules\":{\"when\":\"after-import\",\"files\":["
                                                       "{\"path\":\"%s\",\"family\":\"cudnn\"}]}",
                                        c->file);
                cc_value *its = judge_one("torch", members, NULL, c->list, NULL, NULL, c->windows);
                const cc_value *cu = cc_v_get(first_fw(its), "cudnn"), *d = cc_v_at(cc_v_get(cu, "directories"), 0);

                expect_str(c->label, "directory", cc_v_get_str(cu, "directory"), c->directory);
                expect_str(c->label, "file", cc_v_as_str(cc_v_at(cc_v_get(d, "files"), 0)), c->file_name);
                if (c->installation == 0 && cc_v_type(cc_v_get(cu, "installation")) != CUDNNCTL_NULL)
                        fail_msg("%s: installation %lld, not none", c->label,
                                 (long long)cc_v_as_int(cc_v_get(cu, "installation")));
                if (c->installation != 0 && cc_v_as_int(cc_v_get(cu, "installation")) != c->installation)
                        fail_msg("%s: installation %lld, not %lld", c->label,
                                 (long long)cc_v_as_int(cc_v_get(cu, "installation")), (long long)c->installation);
                if (c->installation == 5)
                        expect_str(c->label, "provenance", cc_v_get_str(d, "provenance"), "windows-installer");
                cc_v_free(its);
                free(members);
        }
}

/* ---- the expected copy ------------------------------------------------------ */

struct expect_case {
        const char *label;
        const char *dists;   /* the interpreter's distributions, or NULL */
        const char *members; /* the framework's facts beyond the build */
        const char *list;
        const char *plain;  /* which's result for the plain program, or NULL */
        const char *expect; /* --expect, or NULL */
        int windows;
        const char *status;
        const char *words;    /* key words of the summary, "|" between */
        const char *expected; /* the verdict's "expected", or NULL */
        const char *kind;     /* its "expected_kind" */
};

#define LOADS(dir) MODULES(CUDNN_FILE(dir "/libcudnn.so.9") "," CUDNN_FILE(dir "/libcudnn_graph.so.9"))
#define PLAIN(path, inst) "{\"name\":\"libcudnn.so.9\",\"found\":true,\"path\":\"" path "\",\"installation\":" inst "}"
#define NO_REQ "\"distributions\":[{\"name\":\"torch\",\"version\":\"2.5.1\",\"location\":\"" SITE "\"}]"

static const struct expect_case expect_cases[] = {
    /* --expect */
    {"--expect by id, loaded", NULL, LOADS(WHEEL_LIB), LIST, NULL, "2", 0, "pass",
     "PyTorch loads installation 2 (" SITE "/nvidia/cudnn, cuDNN 9.1.0.70), named by --expect: " WHEEL_LIB, WHEEL_LIB,
     "expect"},
    {"--expect by id, another loaded", NULL, LOADS(WHEEL_LIB), LIST, NULL, "3", 0, "warn",
     "PyTorch loads cuDNN 9.1.0.70 from " WHEEL_LIB ", not installation 3 (/opt/cudnn, cuDNN 9.3.0)|in /opt/cudnn/lib",
     "/opt/cudnn/lib", "expect"},
    {"--expect by prefix", NULL, LOADS("/opt/cudnn/lib"), LIST, NULL, "/opt/cudnn/", 0, "pass",
     "installation 3|named by --expect", "/opt/cudnn/lib", "expect"},
    {"--expect by prefix, another loaded", NULL, LOADS(TORCH_LIB), LIST, NULL, "/opt/cudnn", 0, "warn",
     "not installation 3", "/opt/cudnn/lib", "expect"},
    {"--expect by library directory", NULL, LOADS("/opt/cudnn/lib"), LIST, NULL, "/opt/cudnn/lib", 0, "pass",
     "installation 3", "/opt/cudnn/lib", "expect"},
    {"--expect: an installation's other directory", NULL, LOADS("/opt/cudnn/lib64"), LIST, NULL, "3", 0, "pass",
     "installation 3", "/opt/cudnn/lib", "expect"},
    {"--expect: loaded through an alias", NULL, LOADS("/opt/cudnn-9.3/lib"), LIST, NULL, "3", 0, "pass",
     "installation 3", "/opt/cudnn/lib", "expect"},
    {"--expect names nothing (id)", NULL, LOADS(WHEEL_LIB), LIST, NULL, "7", 0, "unknown",
     "--expect 7 names no installation list found", NULL, NULL},
    {"--expect names nothing (path)", NULL, LOADS(WHEEL_LIB), LIST, NULL, "/nowhere", 0, "unknown",
     "--expect /nowhere names no installation", NULL, NULL},
    {"--expect without a list", NULL, LOADS(WHEEL_LIB), NULL, NULL, "1", 0, "unknown", "names no installation", NULL,
     NULL},
    {"--expect wins over the wheel", "[" WHEEL("nvidia-cudnn-cu12", "9.1.0.70", "") "]",
     TORCH_REQUIRES("9.1.0.70") "," LOADS(WHEEL_LIB), LIST, NULL, "/usr", 0, "warn", "not installation 1 (/usr",
     "/usr/lib/x86_64-linux-gnu", "expect"},
    {"--expect on Windows", NULL,
     MODULES("{\"path\":\"c:\\\\program files\\\\nvidia\\\\cudnn\\\\v9.3\\\\bin\\\\12.9\\\\cudnn64_9.dll\","
             "\"family\":\"cudnn\"}"),
     WIN_LIST, NULL, "c:/PROGRAM FILES/nvidia/cudnn/v9.3", 1, "pass", "installation 5",
     "C:\\Program Files\\NVIDIA\\CUDNN\\v9.3\\bin\\12.9\\", "expect"},
    /* the wheel the framework requires */
    {"pinned wheel loaded", "[" WHEEL("nvidia-cudnn-cu12", "9.1.0.70", "") "]",
     TORCH_REQUIRES("9.1.0.70") "," LOADS(WHEEL_LIB), LIST, NULL, NULL, 0, "pass",
     "PyTorch loads the wheel PyTorch requires (nvidia-cudnn-cu12 9.1.0.70, pinned 9.1.0.70): " WHEEL_LIB, WHEEL_LIB,
     "wheel"},
    {"pinned wheel, another copy loaded", "[" WHEEL("nvidia-cudnn-cu12", "9.1.0.70", "") "]",
     TORCH_REQUIRES("9.1.0.70") "," LOADS("/opt/cudnn/lib"), LIST, NULL, NULL, 0, "warn",
     "PyTorch loads cuDNN 9.3.0 from /opt/cudnn/lib, not the wheel PyTorch requires|in " WHEEL_LIB, WHEEL_LIB, "wheel"},
    {"pin differs from the installed wheel", "[" WHEEL("nvidia-cudnn-cu12", "9.5.1.17", "") "]",
     TORCH_REQUIRES("9.1.0.70") "," LOADS(WHEEL_LIB), LIST, NULL, NULL, 0, "warn",
     "PyTorch pins nvidia-cudnn-cu12==9.1.0.70 but 9.5.1.17 is installed", NULL, NULL},
    {"unpinned requirement", "[" WHEEL("nvidia-cudnn-cu12", "9.5.1.17", "") "]",
     "\"distributions\":[{\"name\":\"torch\",\"location\":\"" SITE "\",\"requires\":[\"nvidia-cudnn-cu12>=9.1; "
     "extra == 'cuda'\"]}]," LOADS(WHEEL_LIB),
     LIST, NULL, NULL, 0, "pass", "the wheel PyTorch requires (nvidia-cudnn-cu12 9.5.1.17)", WHEEL_LIB, "wheel"},
    {"shadowed wheel ignored, the name normalized",
     "[{\"name\":\"nvidia-cudnn-cu12\",\"version\":\"9.5.1.17\",\"location\":\"/usr/lib/python3/dist-packages\","
     "\"shadowed\":true}," WHEEL("nvidia_cudnn_cu12", "9.1.0.70", "") "]",
     TORCH_REQUIRES("9.1.0.70") "," LOADS(WHEEL_LIB), LIST, NULL, NULL, 0, "pass", "pinned 9.1.0.70", WHEEL_LIB,
     "wheel"},
    {"the wheel's real location",
     "[" WHEEL("nvidia-cudnn-cu12", "9.1.0.70",
               ",\"location\":\"/home/u/venv/lib/"
               "python3.12/site-packages\","
               "\"real_location\":\"" SITE "\"") "]",
     TORCH_REQUIRES("9.1.0.70") "," LOADS(WHEEL_LIB), LIST, NULL, NULL, 0, "pass", "pinned", WHEEL_LIB, "wheel"},
    {"the wheel on Windows",
     "[{\"name\":\"nvidia-cudnn-cu12\",\"version\":\"9.1.0.70\",\"location\":\"C:\\\\venv\\\\Lib\\\\site-packages\"}]",
     TORCH_REQUIRES("9.1.0.70") "," MODULES(
         "{\"path\":\"c:\\\\venv\\\\lib\\\\site-packages\\\\nvidia\\\\cudnn\\\\bin\\\\"
         "cudnn64_9.dll\",\"family\":\"cudnn\"}"),
     NULL, NULL, NULL, 1, "pass", "the wheel PyTorch requires", "C:\\venv\\Lib\\site-packages\\nvidia\\cudnn\\bin",
     "wheel"},
    /* the copy the framework bundles */
    {"bundled copy", NULL, NO_REQ "," LOADS(TORCH_LIB), LIST, PLAIN("/usr/lib/x86_64-linux-gnu/libcudnn.so.9", "1"),
     NULL, 0, "pass", "PyTorch loads the copy PyTorch bundles: " TORCH_LIB, TORCH_LIB, "bundled"},
    {"bundled copy, the required wheel missing", "[" WHEEL("nvidia-cudnn-cu11", "8.9.2.26", "") "]",
     TORCH_REQUIRES("9.1.0.70") "," LOADS(TORCH_LIB), LIST, NULL, NULL, 0, "pass", "the copy PyTorch bundles",
     TORCH_LIB, "bundled"},
    {"only a shadowed wheel: bundled",
     "[{\"name\":\"nvidia-cudnn-cu12\",\"version\":\"9.1.0.70\",\"location\":\"" SITE "\",\"shadowed\":true}]",
     TORCH_REQUIRES("9.1.0.70") "," LOADS(TORCH_LIB), LIST, NULL, NULL, 0, "pass", "bundles", TORCH_LIB, "bundled"},
    /* what a plain program loads */
    {"plain program, another copy", NULL, NO_REQ "," LOADS("/opt/cudnn/lib"), LIST,
     PLAIN("/usr/lib/x86_64-linux-gnu/libcudnn.so.9", "1"), NULL, 0, "note",
     "PyTorch loads cuDNN 9.3.0 from /opt/cudnn/lib; the copy a plain program loads (cuDNN 9.19.0) is in "
     "/usr/lib/x86_64-linux-gnu",
     "/usr/lib/x86_64-linux-gnu", "plain"},
    {"plain program, the same copy", NULL, NO_REQ "," LOADS("/usr/lib/x86_64-linux-gnu"), LIST,
     PLAIN("/usr/lib/x86_64-linux-gnu/libcudnn.so.9", "1"), NULL, 0, "pass",
     "PyTorch loads the copy a plain program loads (cuDNN 9.19.0): /usr/lib/x86_64-linux-gnu",
     "/usr/lib/x86_64-linux-gnu", "plain"},
    {"plain program through the merged /usr alias", NULL, NO_REQ "," LOADS("/usr/lib/x86_64-linux-gnu"), LIST,
     PLAIN("/lib/x86_64-linux-gnu/libcudnn.so.9", "1"), NULL, 0, "pass", "a plain program loads (cuDNN 9.19.0)",
     "/lib/x86_64-linux-gnu", "plain"},
    {"plain program outside every installation", NULL, NO_REQ "," LOADS("/opt/cudnn/lib"), LIST,
     PLAIN("/srv/cudnn/libcudnn.so.9", "null"), NULL, 0, "note", "; the copy a plain program loads is in /srv/cudnn",
     "/srv/cudnn", "plain"},
    {"plain program, nothing mapped", NULL, NO_REQ "," MODULES(), LIST,
     PLAIN("/usr/lib/x86_64-linux-gnu/libcudnn.so.9", "1"), NULL, 0, "unknown",
     "PyTorch maps no cuDNN library; expected: the copy a plain program loads", "/usr/lib/x86_64-linux-gnu", "plain"},
    {"nothing to expect", NULL, NO_REQ "," LOADS("/opt/cudnn/lib"), LIST, NULL, NULL, 0, "unknown",
     "no copy to expect: no pinned wheel, no bundled copy", NULL, NULL},
    {"a plain program that found nothing", NULL, NO_REQ "," LOADS("/opt/cudnn/lib"), LIST,
     "{\"name\":\"libcudnn.so.9\",\"found\":false}", NULL, 0, "unknown", "no copy to expect", NULL, NULL},
};

static void expected_copy(void **state)
{
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(expect_cases); i++) {
                const struct expect_case *c = &expect_cases[i];
                char *members = xprintf(BUILD("9.1.0") ",%s", c->members);
                cc_value *its = judge_one("torch", members, c->dists, c->list, c->plain, c->expect, c->windows);
                const cc_value *v;

                expect_verdict(c->label, first_fw(its), "expected-copy", c->status, c->words);
                v = verdict_of(first_fw(its), "expected-copy");
                expect_str(c->label, "expected", cc_v_get_str(v, "expected"), c->expected);
                expect_str(c->label, "expected_kind", cc_v_get_str(v, "expected_kind"), c->kind);
                cc_v_free(its);
                free(members);
        }
}

/* JAX requires no cuDNN wheel itself: its CUDA plugin does. */
static void jax_plugin_requirement(void **state)
{
        const char *dists = "[{\"name\":\"jax-cuda13-plugin\",\"version\":\"0.11.2\",\"location\":\"" SITE
                            "\",\"requires\":[\"nvidia-cudnn-cu13<10.0,>=9.8; extra == 'with-cuda'\"]},"
                            "{\"name\":\"nvidia-cudnn-cu13\",\"version\":\"9.19.0.56\",\"location\":\"" SITE "\"}]";
        cc_value *its;

        (void)state;
        its =
            judge_one("jax", BUILD("9.12.0") "," RUNTIME("9.19.0") "," MODULES(CUDNN_FILE(WHEEL_LIB "/libcudnn.so.9")),
                      dists, LIST, NULL, NULL, 0);
        expect_verdict("jax plugin", first_fw(its), "expected-copy", "pass",
                       "the wheel JAX requires|nvidia-cudnn-cu13");
        expect_str("jax plugin", "expected_kind",
                   cc_v_get_str(verdict_of(first_fw(its), "expected-copy"), "expected_kind"), "wheel");
        cc_v_free(its);
        /* the same requirement on another framework's plugin-like name is not taken */
        its = judge_one("torch",
                        BUILD("9.12.0") "," RUNTIME("9.19.0") "," MODULES(CUDNN_FILE(WHEEL_LIB "/libcudnn.so.9")),
                        dists, LIST, NULL, NULL, 0);
        assert_null(cc_v_get_str(verdict_of(first_fw(its), "expected-copy"), "expected_kind"));
        assert_string_equal(cc_v_get_str(verdict_of(first_fw(its), "expected-copy"), "status"), "unknown");
        cc_v_free(its);
}

/* ---- the CUDA build and the GPU call ------------------------------------- */

struct build_case {
        const char *label;
        const char *name;
        const char *build; /* "build" (JSON) or NULL */
        const char *extra; /* more members, or NULL */
        int windows;
        const char *status;
        const char *words; /* key words of the summary, "|" between */
        const char *fix;   /* a word of the fix, or NULL: none */
};

static const struct build_case build_cases[] = {
    {"CUDA build", "torch", "{\"cuda\":\"12.4\",\"cuda_build\":true}", NULL, 0, "pass",
     "PyTorch was built with CUDA 12.4", NULL},
    {"CUDA build, CUDA not read", "cupy", "{\"cuda_build\":true}", NULL, 0, "pass", "CuPy was built with CUDA", NULL},
    {"CPU-only torch", "torch", "{\"cuda\":null,\"cuda_build\":false}", ",\"info\":{\"version\":\"2.5.1+cpu\"}", 0,
     "fail", "PyTorch 2.5.1+cpu is a CPU-only build: it never loads cuDNN", "download.pytorch.org/whl/cuXYZ"},
    {"the distribution's torch", "torch", "{\"cuda_build\":false}",
     ",\"distributions\":[{\"name\":\"torch\",\"location\":\"/usr/lib/python3/dist-packages\"}]", 0, "fail", "CPU-only",
     "python3-torch"},
    {"TensorFlow on Windows", "tensorflow", "{\"cuda_build\":false}", NULL, 1, "fail", "TensorFlow", "WSL2"},
    {"TensorFlow on Linux", "tensorflow", "{\"cuda_build\":false}", NULL, 0, "fail", "TensorFlow",
     "tensorflow[and-cuda]"},
    {"JAX without the plugin", "jax", "{\"cuda_build\":false}", NULL, 0, "fail", "JAX", "jax[cuda12]"},
    {"ONNX Runtime without CUDA", "onnxruntime", "{\"cuda_build\":false}", NULL, 0, "fail", "ONNX Runtime",
     "onnxruntime-gpu"},
    {"CuPy without CUDA", "cupy", "{\"cuda_build\":false}", NULL, 0, "fail", "CuPy", "a CUDA build"},
    {"not read", "torch", NULL, NULL, 0, "unknown", "whether PyTorch was built with CUDA was not read", NULL},
    {"null", "tensorflow", "{\"cuda_build\":null}", NULL, 0, "unknown", "not read", NULL},
    {"not a bool", "torch", "{\"cuda_build\":\"yes\"}", NULL, 0, "unknown", "not read", NULL},
    {"an unknown framework", "mxnet", "{\"cuda_build\":false}", NULL, 0, "fail", "mxnet", "a CUDA build"},
};

static void cuda_build(void **state)
{
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(build_cases); i++) {
                const struct build_case *c = &build_cases[i];
                char *members =
                    xprintf("%s%s%s", c->build ? "\"build\":" : "", c->build ? c->build : "", c->extra ? c->extra : "");
                cc_value *its =
                    judge_one(c->name, members[0] == ',' ? members + 1 : members, NULL, NULL, NULL, NULL, c->windows);
                const cc_value *v = verdict_of(first_fw(its), "cuda-build");

                expect_verdict(c->label, first_fw(its), "cuda-build", c->status, c->words);
                if (c->fix == NULL && cc_v_get(v, "fix") != NULL)
                        fail_msg("%s: a fix where none belongs: %s", c->label, cc_v_get_str(v, "fix"));
                if (c->fix != NULL &&
                    (cc_v_get_str(v, "fix") == NULL || strstr(cc_v_get_str(v, "fix"), c->fix) == NULL))
                        fail_msg("%s: the fix lacks '%s': %s", c->label, c->fix, cc_v_get_str(v, "fix"));
                if (strcmp(c->status, "fail") == 0)
                        expect_str(c->label, "verdict", cc_v_get_str(first_fw(its), "verdict"), "fail");
                cc_v_free(its);
                free(members);
        }
}

struct gpu_case {
        const char *label;
        const char *members;
        const char *status;
        const char *words; /* key words of the summary, "|" between */
};

static const struct gpu_case gpu_cases[] = {
    {"done", "\"gpu_call\":{\"what\":\"torch.nn.functional.conv2d on cuda:0\",\"ok\":true}", "pass",
     "torch.nn.functional.conv2d on cuda:0: done"},
    {"failed", "\"gpu_call\":{\"what\":\"conv2d\",\"ok\":false,\"error\":\"CUDNN_STATUS_NOT_INITIALIZED\"}", "fail",
     "conv2d: CUDNN_STATUS_NOT_INITIALIZED"},
    {"failed without a word", "\"gpu_call\":{\"what\":\"conv2d\",\"ok\":false}", "fail", "conv2d: failed"},
    {"wrong result", "\"gpu_call\":{\"what\":\"jax.lax.conv\",\"ok\":false,\"error\":\"the result is 0.0, not 27.0\"}",
     "fail", "not 27.0"},
    {"died in the GPU call",
     "\"gpu_call\":{\"what\":\"conv2d\",\"ok\":true},\"probe\":{\"ran\":true,\"how\":\"crashed with signal 11 "
     "(SIGSEGV)\",\"died_in\":\"gpu-call\"}",
     "fail", "the GPU call crashed or hung: crashed with signal 11 (SIGSEGV)"},
    {"died elsewhere", "\"gpu_call\":{\"what\":\"conv2d\",\"ok\":true},\"probe\":{\"died_in\":\"modules\"}", "pass",
     "done"},
    {"no call", "\"devices\":[]", "unknown", "no GPU call: PyTorch sees no GPU, or GPU work was not asked for"},
};

static void gpu_call(void **state)
{
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(gpu_cases); i++) {
                const struct gpu_case *c = &gpu_cases[i];
                char *members = xprintf(BUILD("9.1.0") ",%s", c->members);
                cc_value *its = judge_one("torch", members, NULL, NULL, NULL, NULL, 0);

                expect_verdict(c->label, first_fw(its), "gpu-call", c->status, c->words);
                cc_v_free(its);
                free(members);
        }
}

/* ---- the probe, the worst verdict, many interpreters ----------------------- */

static void probe_failed(void **state)
{
        cc_value *its;
        const cc_value *fw;

        (void)state;
        its = judge_one("torch",
                        "\"state\":\"import-failed\",\"error\":\"import torch failed: ImportError: libcudnn.so.9: "
                        "cannot open shared object file\"," BUILD("9.1.0") "," GPU_OK,
                        NULL, LIST, NULL, NULL, 0);
        fw = first_fw(its);
        expect_verdict("import failed", fw, "probe", "fail", "import torch failed: ImportError: libcudnn.so.9");
        assert_int_equal(cc_v_len(cc_v_get(fw, "verdicts")), 1);
        assert_string_equal(cc_v_get_str(fw, "verdict"), "fail");
        assert_non_null(cc_v_get(fw, "cudnn"));
        cc_v_free(its);

        its = judge_one("torch", "\"state\":null", NULL, NULL, NULL, NULL, 0);
        expect_verdict("no state", first_fw(its), "probe", "fail", "the probe gave no answer");
        assert_string_equal(cc_v_get_str(first_fw(its), "verdict"), "fail");
        cc_v_free(its);

        /* a crash after mapping two directories: the mix is reported too */
        its = judge_one("torch",
                        "\"state\":\"crashed\",\"error\":\"the torch probe crashed with signal 11 (SIGSEGV)\"," MODULES(
                            CUDNN_FILE("/opt/cudnn/lib/libcudnn.so.9") "," CUDNN_FILE(WHEEL_LIB "/libcudnn_ops.so.9")),
                        NULL, LIST, NULL, NULL, 0);
        fw = first_fw(its);
        expect_verdict("crashed", fw, "probe", "fail", "the torch probe crashed");
        expect_verdict("crashed", fw, "one-directory", "fail", "2 directories");
        assert_int_equal(cc_v_len(cc_v_get(fw, "verdicts")), 2);
        cc_v_free(its);
}

static void worst_and_rejudge(void **state)
{
        static const char *const ids[] = {"cuda-build", "version-rule", "one-directory", "expected-copy", "gpu-call"};
        char *a = fw_facts("torch", BUILD("9.1.0") "," RUNTIME("9.3.0") "," LOADS(TORCH_LIB) "," GPU_OK "," NO_REQ);
        char *b = fw_facts("jax", "\"build\":{\"cudnn\":\"9.8.0\",\"cuda_build\":true},\"runtime\":{\"cudnn\":"
                                  "\"9.10.0\"}," LOADS(WHEEL_LIB) "," GPU_OK);
        char *c = fw_facts("cupy", "\"build\":{\"cudnn\":\"9.1.0\",\"cuda_build\":true}," LOADS("/opt/cudnn/lib"));
        char *fws = xprintf("%s,%s", a, b), *one = interpreters(NULL, fws), *two = interpreters(NULL, c);
        char *both = xprintf("[%.*s,%s", (int)strlen(one) - 2, one + 1, two + 1);
        cc_value *its = judge(both, LIST, PLAIN("/usr/lib/x86_64-linux-gnu/libcudnn.so.9", "1"), NULL, 0);
        cc_error err = {0};
        size_t i;

        (void)state;
        assert_int_equal(cc_v_len(its), 2);
        /* every check, in order */
        for (i = 0; i < CC_ARRAY_LEN(ids); i++)
                assert_string_equal(cc_v_get_str(cc_v_at(cc_v_get(first_fw(its), "verdicts"), i), "id"), ids[i]);
        assert_int_equal(cc_v_len(cc_v_get(first_fw(its), "verdicts")), CC_ARRAY_LEN(ids));
        assert_string_equal(cc_v_get_str(first_fw(its), "verdict"), "pass");
        /* known-bad: warn; the plain program's other copy is a note, no worse */
        assert_string_equal(cc_v_get_str(cc_v_at(cc_v_get(cc_v_at(its, 0), "frameworks"), 1), "verdict"), "warn");
        /* no GPU call and a plain program's other copy: note beats unknown */
        {
                const cc_value *cupy = cc_v_at(cc_v_get(cc_v_at(its, 1), "frameworks"), 0);

                assert_string_equal(cc_v_get_str(verdict_of(cupy, "expected-copy"), "status"), "note");
                assert_string_equal(cc_v_get_str(verdict_of(cupy, "gpu-call"), "status"), "unknown");
                /* the run-time version from the installation of the mapped library */
                assert_string_equal(cc_v_get_str(verdict_of(cupy, "version-rule"), "status"), "pass");
                assert_string_equal(cc_v_get_str(cupy, "verdict"), "note");
        }
        /* judging again replaces the verdicts, and --expect changes them */
        assert_int_equal(cc_fw_judge(its, NULL, NULL, "3", 0, &err), 0);
        assert_int_equal(cc_v_len(cc_v_get(first_fw(its), "verdicts")), CC_ARRAY_LEN(ids));
        assert_string_equal(cc_v_get_str(verdict_of(first_fw(its), "expected-copy"), "status"), "unknown");
        assert_int_equal(cc_v_type(cc_v_get(first_fw(its), "cudnn")), CUDNNCTL_OBJECT);
        assert_int_equal(cc_v_type(cc_v_get(cc_v_get(first_fw(its), "cudnn"), "installation")), CUDNNCTL_NULL);
        assert_string_equal(cc_v_get_str(first_fw(its), "verdict"), "unknown");
        /* judging nothing */
        assert_int_equal(cc_fw_judge(NULL, NULL, NULL, NULL, 0, &err), 0);
        cc_v_free(its);
        free(a);
        free(b);
        free(c);
        free(fws);
        free(one);
        free(two);
        free(both);
}

/* ---- hostile facts ----------------------------------------------------------- */

/* Every framework object with a name has a verdict and verdicts. */
static void all_judged(const cc_value *its, const char *label)
{
        size_t i, k;

        for (i = 0; i < cc_v_len(its); i++) {
                const cc_value *fws = cc_v_get(cc_v_at(its, i), "frameworks");

                if (cc_v_type(fws) != CUDNNCTL_ARRAY)
                        continue;
                for (k = 0; k < cc_v_len(fws); k++) {
                        const cc_value *fw = cc_v_at(fws, k), *vs = cc_v_get(fw, "verdicts");
                        size_t n;

                        if (cc_v_type(fw) != CUDNNCTL_OBJECT)
                                continue;
                        if (cc_v_get_str(fw, "verdict") == NULL || cc_v_len(vs) == 0)
                                fail_msg("%s: framework %zu of interpreter %zu has no verdicts", label, k, i);
                        for (n = 0; n < cc_v_len(vs); n++) {
                                const char *sum = cc_v_get_str(cc_v_at(vs, n), "summary");

                                /* a missing string went through printf's %s */
                                if (sum == NULL || strstr(sum, "(null)") != NULL)
                                        fail_msg("%s: framework %zu of interpreter %zu: summary '%s'", label, k, i,
                                                 sum ? sum : "");
                        }
                }
        }
}

/* The text has no control character but the new line. */
static void clean_text(const char *text, const char *label)
{
        const unsigned char *p;

        for (p = (const unsigned char *)text; *p; p++)
                if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
                        fail_msg("%s: a raw control character 0x%02x at byte %zu of:\n%s", label, *p,
                                 (size_t)(p - (const unsigned char *)text), text);
}

/* The frameworks document around judged interpreters (taken), summed up,
 * and its text with and without --verbose (colour off), checked clean. */
static cc_value *document(cc_value *its, const char *plain, char **text, char **verbose, const char *label)
{
        cc_value *doc = cc_v_object(NULL);
        cc_error err = {0};

        assert_non_null(doc);
        assert_int_equal(cc_v_set(doc, "interpreters", its, &err), 0);
        assert_int_equal(cc_v_set(doc, "plain_program", plain ? parse(plain) : cc_v_null(&err), &err), 0);
        assert_int_equal(cc_fw_summary(doc, &err), 0);
        if (cudnnctl_frameworks_text(doc, 0, 0, text, &err) < 0 ||
            cudnnctl_frameworks_text(doc, 1, 0, verbose, &err) < 0)
                fail_msg("%s: cudnnctl_frameworks_text: %s", label, err.msg);
        clean_text(*text, label);
        clean_text(*verbose, label);
        if (strstr(*verbose, "(null)") != NULL)
                fail_msg("%s: '(null)' in the text:\n%s", label, *verbose);
        return doc;
}

/* A framework whose every member has the wrong type or shape. */
#define WRONG_TYPES                                                                                                    \
        "{\"name\":\"torch\",\"state\":\"ok\",\"info\":{\"file\":5,\"version\":[]},"                                   \
        "\"build\":{\"cudnn\":9,\"cuda\":{},\"cuda_build\":\"yes\"},"                                                  \
        "\"runtime\":{\"cudnn\":[],\"cudnn_error\":5,\"cudnn_source\":{}},"                                            \
        "\"modules\":{\"when\":5,\"total\":\"x\",\"files\":[null,5,{},{\"path\":5,\"family\":\"cudnn\"},"              \
        "{\"path\":\"/a/libcudnn.so.9\",\"family\":5},{\"path\":\"\",\"family\":\"cudnn\"},"                           \
        "{\"path\":\"libcudnn.so.9\",\"family\":\"cudnn\"},{\"path\":\"/\",\"family\":\"cudnn\"},"                     \
        "{\"path\":\"//\",\"family\":\"cudnn\"}]},"                                                                    \
        "\"loaded_cudnn\":[null,5,{\"version\":\"9\"},{\"version\":-1},{\"version\":9223372036854775807},"             \
        "{\"version\":1.5},{\"version\":null}],"                                                                       \
        "\"gpu_call\":{\"ok\":\"true\",\"what\":5,\"error\":[]},\"probe\":{\"died_in\":5,\"how\":[]},"                 \
        "\"distributions\":[5,{\"requires\":\"x\"},{\"requires\":[5,null,\"nvidia-cudnn\",\"nvidia-cudnn-cu12==\","    \
        "\"nvidia-cudnn-cu12==9.1;\",\"nvidia-cudnn-cu12; x == '==1'\",\"nvidia-cudnn-cu12-"                           \
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"     \
        "==1\"]}]}"

static const char *const hostile_interps[] = {
    "null",
    "5",
    "{}",
    "[]",
    "[null,1,\"x\",[],{}]",
    "{\"frameworks\":[{\"name\":\"torch\"}]}",
    "[{\"frameworks\":{\"torch\":{\"name\":\"torch\",\"state\":\"ok\"}}}]",
    "[{\"frameworks\":[null,5,\"torch\",[],{},{\"name\":\"torch\",\"state\":\"ok\"}]}]",
    "[{\"frameworks\":[{\"name\":5,\"state\":\"ok\"},{\"name\":null},{\"name\":\"\"}]}]",
    "[{\"frameworks\":[{\"name\":\"torch\"},{\"name\":\"torch\",\"state\":5}]}]",
    "[{\"frameworks\":[{\"name\":\"torch\",\"state\":\"ok\",\"info\":[],\"build\":\"x\",\"runtime\":5,\"modules\":[],"
    "\"loaded_cudnn\":{},\"gpu_call\":[],\"probe\":\"x\",\"distributions\":{},\"cudnn\":7,\"verdicts\":\"x\"}]}]",
    "[{\"distributions\":[null,5,{\"name\":5},{\"name\":\"nvidia-cudnn-cu12\",\"location\":5},{\"name\":\"nvidia-"
    "cudnn-cu12\",\"shadowed\":\"yes\",\"location\":\"/x\",\"version\":5}],\"frameworks\":[" WRONG_TYPES "]}]",
    "[{\"distributions\":{},\"frameworks\":[" WRONG_TYPES "," WRONG_TYPES "]},{\"frameworks\":[" WRONG_TYPES "]}]",
    "[{\"frameworks\":[{\"name\":\"jax\",\"state\":\"crashed\",\"error\":5,\"modules\":{\"files\":[{\"path\":\"/a/"
    "libcudnn.so\",\"family\":\"cudnn\"},{\"path\":\"/b/libcudnn.so\",\"family\":\"cudnn\"}]}}]}]",
    "[{\"frameworks\":[{\"name\":\"torch\",\"state\":\"ok\",\"gpu_call\":{\"ok\":false},\"probe\":{\"died_in\":\"gpu-"
    "call\"}},{\"name\":\"cupy\",\"state\":\"ok\",\"gpu_call\":{\"ok\":false,\"what\":null}}]}]",
};

static const char *const hostile_lists[] = {
    NULL,
    "5",
    "[]",
    "{\"installations\":5}",
    "{\"installations\":{\"a\":{\"id\":1}}}",
    "{\"installations\":[null,5,{},{\"id\":\"1\",\"prefix\":5,\"directories\":[null,5,{},{\"path\":5,\"aliases\":[5,"
    "null]},{\"path\":\"/a\",\"aliases\":\"x\"}]}]}",
    "{\"installations\":[{\"directories\":[{}]},{\"id\":1,\"directories\":[{\"aliases\":[\"/a\"]}],\"provenance\":5}]}",
    "{\"installations\":[{\"id\":1,\"directories\":[{\"path\":\"/a\"}],\"provenance\":{\"kind\":7},\"version\":[]}]}",
};

static const char *const hostile_plains[] = {
    NULL, "5", "{}", "[]", "{\"path\":5}", "{\"path\":\"\"}", "{\"path\":\"libcudnn.so.9\"}", "{\"path\":\"/\"}",
};

static const char *const hostile_expects[] = {NULL, "", "1", "0", "-1", "1x", "/", "/a"};

static void hostile_facts(void **state)
{
        size_t i, k;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(hostile_interps); i++)
                for (k = 0; k < CC_ARRAY_LEN(hostile_lists) * CC_ARRAY_LEN(hostile_plains); k++) {
                        const char *list = hostile_lists[k % CC_ARRAY_LEN(hostile_lists)];
                        const char *plain = hostile_plains[k / CC_ARRAY_LEN(hostile_lists)];
                        const char *expect = hostile_expects[(i + k) % CC_ARRAY_LEN(hostile_expects)];
                        char label[64], *text = NULL, *verbose = NULL;
                        cc_value *its, *doc;

                        snprintf(label, sizeof(label), "hostile %zu/%zu", i, k);
                        its = judge(hostile_interps[i], list, plain, expect, (int)(k % 2));
                        all_judged(its, label);
                        doc = document(its, plain, &text, &verbose, label);
                        assert_non_null(strstr(text, "\n"));
                        cc_v_free(doc);
                        free(text);
                        free(verbose);
                }
}

/* --expect against installations without an id, a prefix or a directory
 * path: an empty name or 0 is no id, and an installation without a library
 * directory is said to be one. */
static void hostile_expect(void **state)
{
        static const struct {
                const char *expect, *words;
        } cases[] = {
            {"", "--expect  names no installation"},
            {"0", "--expect 0 names no installation"},
            {"1", "--expect 1 names an installation without a library directory"},
            {"/a", "--expect /a names no installation"},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                cc_value *its = judge_one("torch", BUILD("9.1.0") "," LOADS("/a"), NULL, hostile_lists[6], NULL,
                                          cases[i].expect, (int)(i % 2));

                expect_verdict(cases[i].expect, first_fw(its), "expected-copy", "unknown", cases[i].words);
                /* the copy it loads is the installation's by an alias, with nothing to say about it */
                assert_int_equal(cc_v_as_int(cc_v_get(cc_v_get(first_fw(its), "cudnn"), "installation")), 1);
                cc_v_free(its);
        }
}

/* ---- the text ------------------------------------------------------------------ */

static void text(void **state)
{
        /* torch 2.5.1 on an H200, loading the archive copy while a plain program loads the distro's */
        char *torch =
            xprintf("%s,%s,%s,%s,%s,%s", BUILD("9.1.0"), RUNTIME("9.3.0"), LOADS("/opt/cudnn/lib"), GPU_OK, NO_REQ,
                    "\"info\":{\"version\":\"2.5.1\",\"file\":\"" SITE "/torch/__init__.py\"},"
                    "\"devices\":[{\"index\":0,\"name\":\"NVIDIA H200\",\"capability\":\"9.0\"}]");
        char *a = fw_facts("torch", torch);
        char *b = fw_facts("tensorflow", "\"build\":{\"cuda_build\":false},\"info\":{\"version\":\"2.18.0\"}");
        char *c = fw_facts("jax", "\"state\":\"import-failed\",\"error\":\"import jax failed: ModuleNotFoundError\","
                                  "\"output_tail\":\"Traceback\\n  line one\\n\"");
        char *d = fw_facts("onnxruntime", "\"build\":{\"cudnn\":\"9.1\",\"cuda_build\":true}," GPU_OK ","
                                          "\"loaded_cudnn\":[{\"version\":90300}]," LOADS(SITE "/onnxruntime/capi"));
        char *fws = xprintf("%s,%s,%s,%s", a, b, c, d), *its_text = interpreters(NULL, fws);
        const char *plain = PLAIN("/usr/lib/x86_64-linux-gnu/libcudnn.so.9", "1");
        cc_value *its = judge(its_text, LIST, plain, NULL, 0), *doc;
        char *out = NULL, *verbose = NULL;

        (void)state;
        doc = document(its, plain, &out, &verbose, "text");
        assert_non_null(strstr(out, "Python /venv/bin/python3 (3.12.3, virtual environment; VIRTUAL_ENV)\n"));
        assert_non_null(strstr(out, "  note  torch 2.5.1\n"));
        assert_non_null(strstr(out, "      built      cuDNN 9.1.0, CUDA 12.4\n"));
        assert_non_null(
            strstr(out, "      loads      cuDNN 9.3.0 from /opt/cudnn/lib (installation 3, archive-copy)\n"));
        /* passing verdicts stay out, but for the one directory; the note stays */
        assert_non_null(strstr(out, " ok  one-directory  every cuDNN library comes from /opt/cudnn/lib\n"));
        assert_null(strstr(out, "version-rule   build 9.1.0"));
        assert_non_null(
            strstr(out, "note expected-copy  PyTorch loads cuDNN 9.3.0 from /opt/cudnn/lib; the copy a plain"));
        assert_non_null(strstr(out, "  FAIL  tensorflow 2.18.0\n"));
        assert_non_null(strstr(out, "      built      cuDNN unknown, CUDA none (CPU-only)\n"));
        assert_non_null(strstr(out, "FAIL cuda-build     TensorFlow 2.18.0 is a CPU-only build"));
        assert_non_null(strstr(out, "           fix:           pip install 'tensorflow[and-cuda]'"));
        assert_non_null(strstr(out, "  FAIL  jax 1.0\n      error      import jax failed: ModuleNotFoundError\n"));
        assert_non_null(strstr(out, "FAIL probe          import jax failed"));
        assert_non_null(strstr(out, "\na plain program loads /usr/lib/x86_64-linux-gnu/libcudnn.so.9\n"));
        assert_non_null(strstr(out, "   ok   onnxruntime 1.0\n      built      cuDNN 9.1, CUDA unknown\n"
                                    "      loads      cuDNN 9.3.0 from " SITE "/onnxruntime/capi\n"
                                    "       ok  one-directory"));
        assert_non_null(strstr(out, "\n1 interpreter, 4 frameworks: 2 failing, 0 with warnings, 1 note\n"));
        assert_null(strstr(out, "NVIDIA H200"));
        assert_null(strstr(out, "mapped after-gpu-call"));
        assert_non_null(strstr(out, "      loads      no cuDNN library mapped (the files were not read)\n"));
        /* --verbose: every verdict, the devices, the files, what the probe printed */
        assert_non_null(strstr(verbose, " ok  version-rule   build 9.1.0, run time 9.3.0: cuDNN 9.3.0 fits"));
        assert_non_null(strstr(verbose, " ok  gpu-call       conv2d on cuda:0: done\n"));
        assert_non_null(strstr(verbose, "      devices    NVIDIA H200 (sm 9.0)\n"));
        assert_non_null(strstr(verbose, "      mapped after-gpu-call: 2 CUDA/cuDNN files of 120\n"));
        assert_non_null(strstr(verbose, "        cudnn       /opt/cudnn/lib/libcudnn_graph.so.9\n"));
        assert_non_null(strstr(verbose, "      printed    (the last lines)\n        Traceback\n          line one\n"));
        free(out);
        /* colour: the marks, and the names bold */
        assert_int_equal(cudnnctl_frameworks_text(doc, 0, 1, &out, NULL), 0);
        assert_non_null(strstr(out, "  \033[31mFAIL \033[0m \033[1mtensorflow\033[0m 2.18.0\n"));
        assert_non_null(strstr(out, "      \033[32m ok  \033[0mone-directory  every"));
        cc_v_free(doc);
        free(out);
        free(verbose);
        free(torch);
        free(a);
        free(b);
        free(c);
        free(d);
        free(fws);
        free(its_text);
}

/* Control characters in any string of the facts come out escaped. */
static void text_escapes(void **state)
{
#define EVIL "\\n\\u001b[31m\\r\\u007f"
        char *a =
            fw_facts("torch", "\"build\":{\"cuda\":\"12" EVIL "\",\"cudnn\":\"9.1.0" EVIL "\",\"cuda_build\":true},"
                              "\"runtime\":{\"cudnn\":\"9.1.0" EVIL "\"},\"info\":{\"version\":\"2.5" EVIL "\"},"
                              "\"gpu_call\":{\"what\":\"conv" EVIL "\",\"ok\":false,\"error\":\"bad" EVIL "\"},"
                              "\"devices\":[{\"name\":\"H200" EVIL "\",\"capability\":\"9" EVIL "\"}],"
                              "\"modules\":{\"when\":\"now" EVIL "\",\"total\":2,\"files\":[{\"path\":\"/x" EVIL
                              "/libcudnn.so.9\",\"family\":\"cudnn\"},{\"path\":\"/opt/cudnn/lib/"
                              "libcudnn.so.9\",\"family\":\"cudnn\"},{\"path\":\"/y/libcublas.so\","
                              "\"family\":\"cublas" EVIL "\"}]},"
                              "\"output_tail\":\"a" EVIL "\"");
        char *b = fw_facts("jax" EVIL, "\"state\":\"bad" EVIL "\",\"error\":\"err" EVIL "\"");
        char *fws = xprintf("%s,%s", a, b);
        char *its_text = xprintf("[{\"path\":\"/p" EVIL "\",\"sources\":[\"s" EVIL "\"],\"aliases\":[\"/a" EVIL "\"],"
                                 "\"python\":{\"version\":\"3" EVIL "\"},\"frameworks\":[%s]},"
                                 "{\"path\":\"/q\",\"state\":\"st" EVIL "\",\"error\":\"e" EVIL "\"}]",
                                 fws);
        const char *list = "{\"installations\":[{\"id\":3,\"prefix\":\"/opt" EVIL "\",\"version\":\"9" EVIL "\","
                           "\"provenance\":{\"kind\":\"k" EVIL "\"},\"directories\":[{\"path\":\"/opt/cudnn/lib\"}]}]}";
        const char *plain = "{\"path\":\"/usr/lib/libcudnn" EVIL ".so\"}";
        cc_value *its = judge(its_text, list, plain, "3", 0), *doc;
        char *out = NULL, *verbose = NULL;

        (void)state;
        /* the facts keep every byte; only the text escapes them */
        assert_non_null(strstr(cc_v_get_str(cc_v_get(first_fw(its), "cudnn"), "version"), "\n\033[31m"));
        doc = document(its, plain, &out, &verbose, "escapes");
        assert_non_null(strstr(out, "torch 2.5\\x0a\\x1b[31m\\x0d\\x7f\n"));
        assert_non_null(strstr(out, "cuDNN 9.1.0\\x0a\\x1b[31m\\x0d\\x7f from /x\\x0a\\x1b[31m\\x0d\\x7f"));
        assert_non_null(strstr(out, "(installation 3, k\\x0a\\x1b[31m\\x0d\\x7f)"));
        assert_non_null(strstr(out, "st\\x0a\\x1b[31m\\x0d\\x7f"));
        assert_non_null(strstr(verbose, "        cublas\\x0a\\x1b[31m\\x0d\\x7f /y/libcublas.so\n"));
        assert_non_null(strstr(verbose, "H200\\x0a\\x1b[31m\\x0d\\x7f (sm 9\\x0a"));
        cc_v_free(doc);
        free(out);
        free(verbose);
        free(a);
        free(b);
        free(fws);
        free(its_text);
#undef EVIL
}

static void no_interpreter_text(void **state)
{
        char *out = NULL, *verbose = NULL;
        cc_value *doc = document(judge("[]", NULL, NULL, NULL, 0), NULL, &out, &verbose, "empty");
        cc_value *one;

        (void)state;
        assert_non_null(strstr(out, "no Python interpreter found (give one with --python PATH)\n"));
        assert_non_null(strstr(out, "\n0 interpreters, 0 frameworks: 0 failing, 0 with warnings, 0 notes\n"));
        assert_null(strstr(out, "plain program"));
        cc_v_free(doc);
        free(out);
        free(verbose);
        one = judge("[{\"path\":\"/usr/bin/python3\",\"state\":\"probed\",\"python\":{\"version\":\"3.11.2\"},"
                    "\"frameworks\":[]}]",
                    NULL, NULL, NULL, 0);
        doc = document(one, NULL, &out, &verbose, "no framework");
        assert_non_null(strstr(out, "Python /usr/bin/python3 (3.11.2)\n  no framework found"));
        cc_v_free(doc);
        free(out);
        free(verbose);
}

static void version_parts(void **state)
{
        int p[4];

        (void)state;
        assert_int_equal(cc_fw_version_parts("9.1.0.70", p), 4);
        assert_int_equal(p[0], 9);
        assert_int_equal(p[1], 1);
        assert_int_equal(p[2], 0);
        assert_int_equal(p[3], 70);
        assert_int_equal(cc_fw_version_parts("9", p), 1);
        assert_int_equal(p[0], 9);
        assert_int_equal(p[1], 0);
        assert_int_equal(cc_fw_version_parts("8.9", p), 2);
        assert_int_equal(p[1], 9);
        assert_int_equal(p[2], 0);
        assert_int_equal(cc_fw_version_parts(NULL, p), 0);
        assert_int_equal(cc_fw_version_parts("", p), 0);
        assert_int_equal(cc_fw_version_parts("abc", p), 0);
        assert_int_equal(cc_fw_version_parts("9.1.0\n", p), 0);
        assert_int_equal(cc_fw_version_parts("1.2.3.4.5", p), 0);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(version_rule),
            cmocka_unit_test(version_rule_cuda_build),
            cmocka_unit_test(version_source),
            cmocka_unit_test(cudnn_block),
            cmocka_unit_test(one_directory),
            cmocka_unit_test(installation_mapping),
            cmocka_unit_test(expected_copy),
            cmocka_unit_test(jax_plugin_requirement),
            cmocka_unit_test(cuda_build),
            cmocka_unit_test(gpu_call),
            cmocka_unit_test(probe_failed),
            cmocka_unit_test(worst_and_rejudge),
            cmocka_unit_test(hostile_facts),
            cmocka_unit_test(hostile_expect),
            cmocka_unit_test(text),
            cmocka_unit_test(text_escapes),
            cmocka_unit_test(no_interpreter_text),
            cmocka_unit_test(version_parts),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
