/* The compile-and-link layer of verify (probe/compile.c): against the real
 * cuDNN under /usr/local/cuda (skipped when it is not there) and against
 * fixture trees, fake libcudnn libraries and fake "compilers" built in a
 * temporary directory by each test. */
#define _GNU_SOURCE
#include "testutil.h"

#include "platform/platform.h"
#include "probe/compile.h"
#include "probe/compile_cache.h"

#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CUDA "/usr/local/cuda"
#define CUDA_INC CUDA "/include"
#define CUDA_LIB CUDA "/lib"

/* ---- helpers ------------------------------------------------------------------ */

static char scratch[256];

static int have_cuda(void)
{
        if (tu_exists(CUDA_INC "/cudnn.h") && tu_exists(CUDA_LIB "/libcudnn.so.9") &&
            tu_exists(CUDA_INC "/cuda_runtime_api.h"))
                return 1;
        print_message("skipped: no cuDNN under " CUDA " (include/cudnn.h, lib/libcudnn.so.9)\n");
        return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        (void)st;
        (void)flag;
        (void)ftw;
        return remove(path);
}

static int setup(void **state)
{
        (void)state;
        snprintf(scratch, sizeof(scratch), "/tmp/cc-test-compile-XXXXXX");
        assert_non_null(mkdtemp(scratch));
        /* hermetic: the compiler comes from the options or PATH, not the CI's $CC */
        unsetenv("CC");
        return 0;
}

static int teardown(void **state)
{
        (void)state;
        nftw(scratch, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
        return 0;
}

/* scratch/rel (caller frees). */
static char *sp(const char *rel)
{
        char *p = malloc(strlen(scratch) + strlen(rel) + 2);

        assert_non_null(p);
        sprintf(p, "%s/%s", scratch, rel);
        return p;
}

static char *mkd(const char *rel)
{
        char *p = sp(rel);

        assert_int_equal(mkdir(p, 0755), 0);
        return p;
}

static void write_text(const char *path, const char *text, int exec)
{
        FILE *f = fopen(path, "w");

        assert_non_null(f);
        assert_int_equal(fputs(text, f) >= 0, 1);
        assert_int_equal(fclose(f), 0);
        if (exec)
                assert_int_equal(chmod(path, 0755), 0);
}

/* Link every entry of src into dst whose name starts (want = 1) or does not
 * start (want = 0) with prefix, except the name `skip`. */
static void link_entries(const char *src, const char *dst, const char *prefix, int want, const char *skip)
{
        DIR *d = opendir(src);
        struct dirent *e;
        char a[1024], b[1024];

        assert_non_null(d);
        while ((e = readdir(d)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                        continue;
                if ((strncmp(e->d_name, prefix, strlen(prefix)) == 0) != want)
                        continue;
                if (skip != NULL && strcmp(e->d_name, skip) == 0)
                        continue;
                snprintf(a, sizeof(a), "%s/%s", src, e->d_name);
                snprintf(b, sizeof(b), "%s/%s", dst, e->d_name);
                assert_int_equal(symlink(a, b), 0);
        }
        closedir(d);
}

static cc_value *probe(const cc_compile_opts *o)
{
        cc_value *v = NULL;
        cc_error err = {0};

        if (cc_compile_probe(o, &v, &err) < 0)
                fail_msg("cc_compile_probe: %s", err.msg);
        assert_non_null(v);
        if (getenv("CC_TEST_VERBOSE") != NULL) {
                cc_buf b = {0};

                assert_int_equal(cc_json_write(v, 1, &b, &err), 0);
                print_message("%s\n", b.data);
                cc_buf_free(&b);
        }
        return v;
}

static const char *str_at(const cc_value *v, const char *path)
{
        const char *s = cc_v_as_str(cc_v_path(v, path));

        if (s == NULL)
                fail_msg("no string at %s", path);
        return s;
}

static void assert_status(const cc_value *v, const char *status)
{
        const char *s = cc_v_get_str(v, "status");

        if (s == NULL || strcmp(s, status) != 0)
                fail_msg("status %s (reason: %s), expected %s", s ? s : "(none)",
                         cc_v_get_str(v, "reason") ? cc_v_get_str(v, "reason") : "(none)", status);
}

static void assert_reason_has(const cc_value *v, const char *needle)
{
        const char *r = cc_v_get_str(v, "reason");

        if (r == NULL || strstr(r, needle) == NULL)
                fail_msg("reason \"%s\" lacks \"%s\"", r ? r : "(none)", needle);
}

static int array_has(const cc_value *arr, const char *needle, int substring)
{
        size_t i;

        for (i = 0; i < cc_v_len(arr); i++) {
                const char *s = cc_v_as_str(cc_v_at(arr, i));

                if (s != NULL && (substring ? strstr(s, needle) != NULL : strcmp(s, needle) == 0))
                        return 1;
        }
        return 0;
}

static const char *const cuda_dirs[] = {CUDA_INC};

static void real_opts(cc_compile_opts *o)
{
        memset(o, 0, sizeof(*o));
        o->include_dir = CUDA_INC;
        o->lib_dir = CUDA_LIB;
        o->cuda_include_dirs = cuda_dirs;
        o->ncuda_include_dirs = 1;
        o->major = 9;
        o->timeout_ms = 60000;
}

/* What the real cuDNN 9.19 without a driver prints. */
static void assert_real_printed(const cc_value *v)
{
        const char *from;

        assert_string_equal(str_at(v, "printed/header_version"), "9.19.0");
        assert_int_equal(cc_v_as_int(cc_v_path(v, "printed/CUDNN_VERSION")), 91900);
        assert_int_equal(cc_v_as_int(cc_v_path(v, "printed/runtime_version")), 91900);
        assert_true(cc_v_as_int(cc_v_path(v, "printed/cudart_version")) > 0);
        assert_int_equal(cc_v_as_int(cc_v_path(v, "printed/create_status")), 1001);
        assert_string_equal(str_at(v, "printed/create_status_name"), "CUDNN_STATUS_NOT_INITIALIZED");
        assert_true(cc_v_as_bool(cc_v_path(v, "printed/complete")));
        from = str_at(v, "printed/loaded_from");
        if (strncmp(from, "/usr/local/cuda", 15) != 0 || strstr(from, "/lib/libcudnn.so") == NULL)
                fail_msg("loaded_from %s is not under /usr/local/cuda*/lib", from);
        assert_int_equal(cc_v_as_int(cc_v_path(v, "run/exit")), 2);
}

/* A fake libcudnn.so.9 in dir (as libcudnn.so too) whose cudnnGetVersion
 * says 4242; with crash, cudnnCreate dies of SIGSEGV. */
static void build_fake_cudnn(const char *dir, int crash)
{
        char *src, *cmd;
        const char *body = "#include <signal.h>\n"
                           "#include <stddef.h>\n"
                           "size_t cudnnGetVersion(void) { return 4242; }\n"
                           "size_t cudnnGetCudartVersion(void) { return 1; }\n"
                           "int cudnnCreate(void **h) { if (CRASH) raise(SIGSEGV); *h = NULL; return 4; }\n"
                           "int cudnnDestroy(void *h) { (void)h; return 0; }\n"
                           "const char *cudnnGetErrorString(int s) { (void)s; return \"FAKE_STATUS\"; }\n";

        src = malloc(strlen(dir) + 16);
        assert_non_null(src);
        sprintf(src, "%s/fake.c", dir);
        write_text(src, body, 0);
        assert_true(asprintf(&cmd,
                             "cc -shared -fPIC -DCRASH=%d -Wl,-soname,libcudnn.so.9 -o %s/libcudnn.so.9 %s && "
                             "ln -s libcudnn.so.9 %s/libcudnn.so",
                             crash, dir, src, dir) > 0);
        if (system(cmd) != 0)
                fail_msg("could not build the fake libcudnn: %s", cmd);
        free(cmd);
        free(src);
}

/* ---- the real cuDNN ----------------------------------------------------------- */

static void test_real_default_compiler(void **state)
{
        cc_compile_opts o;
        cc_value *v;

        (void)state;
        if (!have_cuda())
                skip();
        real_opts(&o);
        v = probe(&o);
        assert_status(v, "passed");
        assert_int_equal(cc_v_type(cc_v_get(v, "reason")), CUDNNCTL_NULL);
        assert_real_printed(v);
        assert_string_equal(str_at(v, "link/method"), "-lcudnn");
        assert_string_equal(str_at(v, "link/rpath"), CUDA_LIB);
        assert_string_equal(str_at(v, "link/rpath_tag"), "DT_RPATH");
        assert_true(array_has(cc_v_get(v, "command"), "-Wl,--disable-new-dtags", 0));
        assert_true(array_has(cc_v_get(v, "command"), "-lcudnn", 0));
        assert_true(array_has(cc_v_get(v, "include_dirs"), CUDA_INC, 0));
        assert_int_equal(cc_v_as_int(cc_v_path(v, "compile/exit")), 0);
        assert_non_null(strstr(str_at(v, "source"), "cudnnCreate(&handle)"));
        assert_non_null(strstr(str_at(v, "run/output"), "runtime_version=91900\n"));
        assert_int_equal(cc_v_len(cc_v_get(v, "missing_headers")), 0);
        assert_true(array_has(cc_v_path(v, "header_scan/files"), "cudnn_version.h", 0));
        assert_string_equal(str_at(v, "compiler_from"), "PATH");
        assert_true(strcmp(str_at(v, "compiler/kind"), "gcc") == 0 || strcmp(str_at(v, "compiler/kind"), "clang") == 0);
        assert_true(strlen(str_at(v, "compiler/version")) > 0);
        assert_true(array_has(cc_v_get(v, "notes"), "CUDNN_STATUS_NOT_INITIALIZED", 1));
        cc_v_free(v);
}

static void test_real_clang_and_cc_with_args(void **state)
{
        cc_compile_opts o;
        cc_value *v;

        (void)state;
        if (!have_cuda())
                skip();
        real_opts(&o);
        if (tu_exists("/usr/bin/clang")) {
                o.compiler = "clang";
                v = probe(&o);
                assert_status(v, "passed");
                assert_string_equal(str_at(v, "compiler/kind"), "clang");
                assert_string_equal(str_at(v, "compiler_from"), "option");
                assert_non_null(strstr(str_at(v, "compiler/version"), "clang"));
                assert_real_printed(v);
                cc_v_free(v);
        }
        /* $CC with arguments, split on blanks */
        o.compiler = NULL;
        assert_int_equal(setenv("CC", "gcc -O0", 1), 0);
        v = probe(&o);
        unsetenv("CC");
        assert_status(v, "passed");
        assert_string_equal(str_at(v, "compiler_from"), "CC");
        assert_string_equal(str_at(v, "compiler/kind"), "gcc");
        assert_int_equal(cc_v_len(cc_v_path(v, "compiler/command")), 2);
        assert_string_equal(str_at(v, "compiler/command/1"), "-O0");
        assert_string_equal(str_at(v, "command/1"), "-O0");
        assert_real_printed(v);
        cc_v_free(v);
}

/* DT_RPATH wins over LD_LIBRARY_PATH: a fake libcudnn.so.9 first on
 * LD_LIBRARY_PATH does not replace the installation under test. */
static void test_rpath_beats_ld_library_path(void **state)
{
        cc_compile_opts o;
        cc_value *v;
        char *fake = mkd("fake");
        char *old = getenv("LD_LIBRARY_PATH") ? strdup(getenv("LD_LIBRARY_PATH")) : NULL;

        (void)state;
        if (!have_cuda()) {
                free(fake);
                skip();
        }
        build_fake_cudnn(fake, 0);
        assert_int_equal(setenv("LD_LIBRARY_PATH", fake, 1), 0);
        real_opts(&o);
        v = probe(&o);
        if (old != NULL)
                setenv("LD_LIBRARY_PATH", old, 1);
        else
                unsetenv("LD_LIBRARY_PATH");
        assert_status(v, "passed");
        assert_real_printed(v);
        cc_v_free(v);
        free(old);
        free(fake);
}

/* Only libcudnn.so.9 (a pip wheel's layout): the file is linked by path. */
static void test_only_versioned_so(void **state)
{
        cc_compile_opts o;
        cc_value *v;
        char *lib = mkd("wheel-lib");
        char *link = sp("wheel-lib/libcudnn.so.9");
        const cc_value *cmd;

        (void)state;
        if (!have_cuda()) {
                free(lib);
                free(link);
                skip();
        }
        assert_int_equal(symlink(CUDA_LIB "/libcudnn.so.9", link), 0);
        real_opts(&o);
        o.lib_dir = lib;
        v = probe(&o);
        assert_status(v, "passed");
        assert_string_equal(str_at(v, "link/method"), "path");
        assert_string_equal(str_at(v, "link/library"), link);
        cmd = cc_v_get(v, "command");
        assert_true(array_has(cmd, link, 0));
        assert_false(array_has(cmd, "-lcudnn", 0));
        assert_true(array_has(cc_v_get(v, "notes"), "a plain -lcudnn fails here", 1));
        assert_true(array_has(cc_v_get(v, "notes"), "no libcudnn.so", 1));
        assert_int_equal(cc_v_as_int(cc_v_path(v, "printed/runtime_version")), 91900);
        assert_string_equal(str_at(v, "printed/header_version"), "9.19.0");
        cc_v_free(v);
        free(lib);
        free(link);
}

/* A library directory with no libcudnn at all: the linker's own error. */
static void test_no_library(void **state)
{
        cc_compile_opts o;
        cc_value *v;
        char *lib = mkd("empty-lib");

        (void)state;
        if (!have_cuda()) {
                free(lib);
                skip();
        }
        real_opts(&o);
        o.lib_dir = lib;
        v = probe(&o);
        assert_status(v, "failed");
        assert_string_equal(str_at(v, "failed_at"), "link");
        assert_reason_has(v, "linking failed");
        assert_reason_has(v, "-lcudnn");
        assert_true(array_has(cc_v_get(v, "notes"), "there is no libcudnn.so*", 1));
        assert_null(cc_v_get(v, "run"));
        cc_v_free(v);
        free(lib);
}

/* The program crashes inside cudnnCreate: the lines before stay facts. */
static void test_program_crash_keeps_lines(void **state)
{
        cc_compile_opts o;
        cc_value *v;
        char *lib = mkd("crash-lib");

        (void)state;
        if (!have_cuda()) {
                free(lib);
                skip();
        }
        build_fake_cudnn(lib, 1);
        real_opts(&o);
        o.lib_dir = lib;
        v = probe(&o);
        assert_status(v, "failed");
        assert_string_equal(str_at(v, "failed_at"), "run");
        assert_reason_has(v, "signal 11");
        assert_reason_has(v, "after printing loaded_from");
        assert_int_equal(cc_v_as_int(cc_v_path(v, "printed/runtime_version")), 4242);
        assert_string_equal(str_at(v, "printed/header_version"), "9.19.0");
        assert_non_null(strstr(str_at(v, "printed/loaded_from"), "/crash-lib/libcudnn.so.9"));
        assert_int_equal(cc_v_type(cc_v_path(v, "printed/create_status")), CUDNNCTL_NULL);
        assert_false(cc_v_as_bool(cc_v_path(v, "printed/complete")));
        cc_v_free(v);
        free(lib);
}

/* ---- headers ------------------------------------------------------------------ */

static void test_no_headers(void **state)
{
        cc_compile_opts o;
        cc_value *v;
        char *inc = mkd("no-header-inc");

        (void)state;
        memset(&o, 0, sizeof(o));
        o.include_dir = inc;
        o.lib_dir = scratch;
        o.compiler = "gcc";
        v = probe(&o);
        assert_status(v, "not-checked");
        assert_reason_has(v, "no cudnn.h in");
        assert_reason_has(v, inc);
        assert_null(cc_v_get(v, "compile"));
        cc_v_free(v);

        o.include_dir = NULL;
        v = probe(&o);
        assert_status(v, "not-checked");
        assert_reason_has(v, "no include directory");
        cc_v_free(v);
        free(inc);
}

/* cudnn.h present, cudnn_version.h missing (a cuDNN 8+ install that copied
 * only cudnn.h); the CUDA headers in a directory of their own. */
static void test_missing_cudnn_version_h(void **state)
{
        cc_compile_opts o;
        cc_value *v;
        char *inc = mkd("inc-split"), *cuda = mkd("cuda-inc");
        const char *dirs[1];
        char want[512];

        (void)state;
        if (!have_cuda()) {
                free(inc);
                free(cuda);
                skip();
        }
        link_entries(CUDA_INC, inc, "cudnn", 1, "cudnn_version.h");
        link_entries(CUDA_INC, cuda, "cudnn", 0, NULL);
        dirs[0] = cuda;
        real_opts(&o);
        o.include_dir = inc;
        o.cuda_include_dirs = dirs;
        v = probe(&o);
        assert_status(v, "failed");
        assert_string_equal(str_at(v, "failed_at"), "compile");
        assert_int_equal(cc_v_len(cc_v_get(v, "missing_headers")), 1);
        assert_string_equal(str_at(v, "missing_headers/0"), "cudnn_version.h");
        assert_string_equal(str_at(v, "header_scan/missing/0/header"), "cudnn_version.h");
        assert_string_equal(str_at(v, "header_scan/missing/0/included_by"), "cudnn.h");
        snprintf(want, sizeof(want), "cudnn.h includes cudnn_version.h, which is not in %s", inc);
        assert_reason_has(v, want);
        assert_reason_has(v, "copy every cudnn*.h");
        assert_non_null(strstr(str_at(v, "compile/output"), "cudnn_version.h"));
        assert_int_equal(cc_v_len(cc_v_get(v, "include_dirs")), 2);
        cc_v_free(v);
        free(inc);
        free(cuda);
}

/* The CUDA include directory is not given: cuda_runtime_api.h is missing. */
static void test_missing_cuda_headers(void **state)
{
        cc_compile_opts o;
        cc_value *v;
        char *inc = mkd("inc-cudnn-only");

        (void)state;
        if (!have_cuda()) {
                free(inc);
                skip();
        }
        link_entries(CUDA_INC, inc, "cudnn", 1, NULL);
        real_opts(&o);
        o.include_dir = inc;
        o.cuda_include_dirs = NULL;
        o.ncuda_include_dirs = 0;
        v = probe(&o);
        assert_status(v, "failed");
        assert_true(array_has(cc_v_get(v, "missing_headers"), "cuda_runtime_api.h", 0));
        assert_reason_has(v, "cuda_runtime_api.h not found: the CUDA toolkit's headers are not installed or not in "
                             "the include path");
        assert_int_equal(cc_v_len(cc_v_get(v, "include_dirs")), 1);
        cc_v_free(v);
        free(inc);
}

/* ---- compilers ---------------------------------------------------------------- */

static void test_compiler_not_found(void **state)
{
        cc_compile_opts o;
        cc_value *v;

        (void)state;
        memset(&o, 0, sizeof(o));
        o.include_dir = CUDA_INC;
        o.lib_dir = CUDA_LIB;
        o.compiler = "/nonexistent/bin/cc";
        v = probe(&o);
        assert_status(v, "not-checked");
        assert_reason_has(v, "/nonexistent/bin/cc");
        assert_reason_has(v, "does not exist");
        assert_null(cc_v_get(v, "compile"));
        cc_v_free(v);

        o.compiler = NULL;
        o.path_env = "/nonexistent/bin:/nonexistent/usr/bin";
        v = probe(&o);
        assert_status(v, "not-checked");
        assert_string_equal(cc_v_get_str(v, "reason"), "no C compiler found on PATH (looked for cc, gcc, clang)");
        cc_v_free(v);
}

/* A "compiler" that hangs is stopped at the time limit. */
static void test_compiler_hangs(void **state)
{
        cc_compile_opts o;
        cc_value *v;
        char *cc = sp("sleepy-cc");
        int64_t t0;

        (void)state;
        write_text(cc, "#!/bin/sh\nexec sleep 30\n", 1);
        memset(&o, 0, sizeof(o));
        o.include_dir = CUDA_INC;
        o.lib_dir = CUDA_LIB;
        o.compiler = cc;
        o.timeout_ms = 300;
        if (!have_cuda()) {
                free(cc);
                skip();
        }
        t0 = cc_monotonic_us();
        v = probe(&o);
        assert_true(cc_monotonic_us() - t0 < 10 * 1000 * 1000);
        assert_status(v, "failed");
        assert_reason_has(v, "did not finish within 300 ms");
        assert_true(cc_v_as_bool(cc_v_path(v, "compile/timed_out")));
        assert_string_equal(str_at(v, "failed_at"), "compile");
        assert_int_equal(cc_v_type(cc_v_path(v, "compiler/version")), CUDNNCTL_NULL);
        cc_v_free(v);
        free(cc);
}

/* Fake compilers that print what gcc, ld and cl print: the reason and the
 * missing headers come from their output. */
static void test_compiler_messages(void **state)
{
        static const struct {
                const char *says;
                const char *status, *failed_at, *reason, *missing;
        } cases[] = {
            {"/usr/bin/ld: cannot find -lcudnn: No such file or directory\n"
             "collect2: error: ld returned 1 exit status\n",
             "failed", "link", "linking failed: /usr/bin/ld: cannot find -lcudnn", NULL},
            {"/x/include/cudnn.h:58:10: fatal error: cuda_runtime_api.h: No such file or directory\n"
             "compilation terminated.\n",
             "failed", "compile", "cuda_runtime_api.h not found: the CUDA toolkit's headers", "cuda_runtime_api.h"},
            {"In file included from cudnn_probe.c:5:\n"
             "/x/include/cudnn.h:59:10: fatal error: 'cudnn_version.h' file not found\n",
             "failed", "compile", "cudnn.h includes cudnn_version.h", "cudnn_version.h"},
            {"C:\\cudnn\\include\\cudnn.h(62): fatal error C1083: Cannot open include file: 'cudnn_ops.h': No "
             "such file or directory\n",
             "failed", "compile", "cudnn.h includes cudnn_ops.h", "cudnn_ops.h"},
            {"cc: error: unrecognized command-line option '-Wl,--disable-new-dtags'\n", "failed", "compile", "too old",
             NULL},
            {"cudnn_probe.c:1:1: error: expected ';' before 'int'\n", "failed", "compile",
             "compiling failed: cudnn_probe.c:1:1: error: expected ';'", NULL},
        };
        char *cc = sp("talking-cc"), *script;
        cc_compile_opts o;
        size_t i;

        (void)state;
        if (!have_cuda()) {
                free(cc);
                skip();
        }
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                cc_value *v;

                /* --version answers; a compile prints the case's text and fails */
                assert_true(asprintf(&script,
                                     "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'fake 1.0'; exit 0; fi\n"
                                     "cat >&2 <<'EOF'\n%sEOF\nexit 1\n",
                                     cases[i].says) > 0);
                unlink(cc);
                write_text(cc, script, 1);
                free(script);
                real_opts(&o);
                o.compiler = cc;
                v = probe(&o);
                assert_status(v, cases[i].status);
                assert_string_equal(str_at(v, "failed_at"), cases[i].failed_at);
                assert_reason_has(v, cases[i].reason);
                if (cases[i].missing != NULL) {
                        assert_int_equal(cc_v_len(cc_v_get(v, "missing_headers")), 1);
                        assert_string_equal(str_at(v, "missing_headers/0"), cases[i].missing);
                } else {
                        assert_int_equal(cc_v_len(cc_v_get(v, "missing_headers")), 0);
                }
                assert_string_equal(str_at(v, "compiler/version"), "fake 1.0");
                assert_int_equal(cc_v_as_int(cc_v_path(v, "compile/exit")), 1);
                cc_v_free(v);
        }
        free(cc);
}

/* ---- reuse of a build that passed (compile_cache.c) ----------------------------- */

static void test_depfile_tokens(void **state)
{
        static const char text[] = "cudnn_probe: cudnn_probe.c /usr/include/stdio.h \\\n"
                                   " /opt/my\\ headers/cudnn.h /x/$$HOME.h\t/y.h\\\r\n /z.h\n";
        static const char win[] = "C:\\t\\cudnn_probe.exe: cudnn_probe.c C:\\cuda\\include\\cudnn.h\n";
        cc_strv t = {0};
        cc_error err = {0};

        (void)state;
        assert_int_equal(cc_ccache_depfile(text, sizeof(text) - 1, &t, &err), 0);
        assert_int_equal(t.n, 6);
        assert_string_equal(t.v[0], "cudnn_probe.c");
        assert_string_equal(t.v[1], "/usr/include/stdio.h");
        assert_string_equal(t.v[2], "/opt/my headers/cudnn.h");
        assert_string_equal(t.v[3], "/x/$HOME.h");
        assert_string_equal(t.v[4], "/y.h");
        assert_string_equal(t.v[5], "/z.h");
        cc_strv_free(&t);
        assert_int_equal(cc_ccache_depfile(win, sizeof(win) - 1, &t, &err), 0);
        assert_int_equal(t.n, 2);
        assert_string_equal(t.v[1], "C:\\cuda\\include\\cudnn.h");
        cc_strv_free(&t);
        /* a NUL byte separates (no name holds one) */
        assert_int_equal(cc_ccache_depfile("a: x\0y", 7, &t, &err), 0);
        assert_int_equal(t.n, 2);
        assert_string_equal(t.v[0], "x");
        assert_string_equal(t.v[1], "y");
        cc_strv_free(&t);
        /* nothing but a target, and nothing at all */
        assert_int_equal(cc_ccache_depfile("a:", 2, &t, &err), 0);
        assert_int_equal(t.n, 0);
        assert_int_equal(cc_ccache_depfile("", 0, &t, &err), 0);
        assert_int_equal(t.n, 0);
}

/* Append text to the file at path (created when missing). */
static void append_text(const char *path, const char *text)
{
        FILE *f = fopen(path, "ab");

        assert_non_null(f);
        assert_true(fputs(text, f) >= 0);
        assert_int_equal(fclose(f), 0);
}

/* An entry's list of inputs: whole lines of a stamp, a tab and an absolute path. */
static void test_inputs_list(void **state)
{
        static const struct {
                const char *text;
                int want;
                size_t n;
        } cases[] = {
            {"", 1, 0},
            {"1 2 3\t/a\n4 5 6\t/b c\td\n", 1, 2},
            {"1\tC:\\x\\y.h\n1\t\\\\srv\\s\\z.h\n", 1, 2},
            {"1 2 3\t/a", 0, 0},           /* the last line cut */
            {"\t/a\n", 0, 0},              /* no stamp */
            {"1 2 3\trelative.h\n", 0, 0}, /* not absolute */
            {"1 2 3\t\n", 0, 0},           /* no path */
            {"1 2 3 /a\n", 0, 0},          /* no tab */
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                cc_strv st = {0}, pa = {0};
                cc_error err = {0};

                assert_int_equal(cc_ccache_inputs(cases[i].text, strlen(cases[i].text), &st, &pa, &err), cases[i].want);
                if (cases[i].want == 1) {
                        assert_int_equal(pa.n, cases[i].n);
                        assert_int_equal(st.n, cases[i].n);
                }
                cc_strv_free(&st);
                cc_strv_free(&pa);
        }
        {
                cc_strv st = {0}, pa = {0};
                cc_error err = {0};

                assert_int_equal(cc_ccache_inputs("1 2 3\t/a\0b\n", 11, &st, &pa, &err), 0); /* a NUL */
                assert_int_equal(cc_ccache_inputs("1 2 3\t/a\n4 5 6\t/b c\td\n", 22, &st, &pa, &err), 1);
                assert_string_equal(st.v[1], "4 5 6");
                assert_string_equal(pa.v[1], "/b c\td");
                cc_strv_free(&st);
                cc_strv_free(&pa);
        }
}

static int notes_have(const cc_value *v, const char *needle)
{
        const cc_value *n = cc_v_get(v, "cache_notes");
        size_t i;

        if (array_has(n, needle, 1))
                return 1;
        print_message("no cache note has \"%s\"; kind %s; the notes:\n", needle,
                      cc_v_as_str(cc_v_path(v, "compiler/kind")));
        for (i = 0; i < cc_v_len(n); i++)
                print_message("  %s\n", cc_v_as_str(cc_v_at(n, i)));
        return 0;
}

static int no_notes(const cc_value *v)
{
        const cc_value *n = cc_v_get(v, "cache_notes");
        size_t i;

        for (i = 0; i < cc_v_len(n); i++)
                print_message("unexpected cache note: %s\n", cc_v_as_str(cc_v_at(n, i)));
        return n == NULL;
}

/* The number of entries (directories not starting with '.') in cache/compile-v1. */
static int entries(const char *cache)
{
        char dir[512];
        DIR *d;
        struct dirent *e;
        int n = 0;

        snprintf(dir, sizeof(dir), "%s/compile-v1", cache);
        d = opendir(dir);
        if (d == NULL)
                return 0;
        while ((e = readdir(d)) != NULL)
                n += e->d_name[0] != '.';
        closedir(d);
        return n;
}

/* A build that passed is kept and run again; a header changed, a program
 * tampered with, a failed build and a cache others may write to are not. */
static void test_reuse_kept_build(void **state)
{
        cc_compile_opts o;
        cc_value *v;
        char *inc = mkd("inc-own"), *cache = mkd("cache"), *ver, *cmd, *edir = NULL, *exe;

        (void)state;
        if (!have_cuda()) {
                free(inc);
                free(cache);
                skip();
        }
        link_entries(CUDA_INC, inc, "cudnn_version.h", 0, NULL);
        ver = sp("inc-own/cudnn_version.h");
        assert_true(asprintf(&cmd, "cp " CUDA_INC "/cudnn_version.h %s", ver) > 0);
        assert_int_equal(system(cmd), 0);
        free(cmd);
        real_opts(&o);
        o.include_dir = inc;
        o.cache_dir = cache;
        /* just written: its change time is too recent for its stamp to tell a
         * rewrite within the clock's granularity, so the build is not kept */
        v = probe(&o);
        assert_status(v, "passed");
        assert_null(cc_v_get(v, "reused"));
        assert_true(notes_have(v, "cudnn_version.h changed in the last seconds"));
        assert_int_equal(entries(cache), 0);
        cc_v_free(v);
        sleep(3);

        v = probe(&o); /* compiled and kept */
        assert_status(v, "passed");
        assert_null(cc_v_get(v, "reused"));
        assert_true(no_notes(v));
        assert_true(array_has(cc_v_get(v, "command"), "-MD", 0));
        assert_int_equal(entries(cache), 1);
        cc_v_free(v);

        v = probe(&o); /* run again, not compiled */
        assert_status(v, "passed");
        assert_non_null(cc_v_get(v, "reused"));
        assert_true(cc_v_as_int(cc_v_path(v, "reused/inputs")) > 10);
        assert_int_equal(cc_v_as_int(cc_v_path(v, "compile/exit")), 0);
        assert_non_null(strstr(str_at(v, "reused/compiler_version"), str_at(v, "compiler/version")));
        assert_real_printed(v); /* the run is this one's */
        edir = strdup(str_at(v, "reused/entry"));
        cc_v_free(v);

        /* the program in the entry is not the one built: compiled again */
        assert_true(asprintf(&exe, "%s/cudnn_probe", edir) > 0);
        append_text(exe, "x");
        v = probe(&o);
        assert_status(v, "passed");
        assert_null(cc_v_get(v, "reused"));
        assert_true(notes_have(v, "its program is not the one built"));
        cc_v_free(v);
        v = probe(&o); /* the new build was kept in its place */
        assert_non_null(cc_v_get(v, "reused"));
        cc_v_free(v);

        /* a header changed: compiled again, and said why */
        append_text(ver, "/* changed */\n");
        v = probe(&o);
        assert_status(v, "passed");
        assert_null(cc_v_get(v, "reused"));
        assert_true(notes_have(v, "cudnn_version.h changed since it was built"));
        cc_v_free(v);

        /* a build that fails is compiled each time and never kept */
        append_text(ver, "#error broken on purpose\n");
        sleep(3);
        v = probe(&o);
        assert_status(v, "failed");
        assert_null(cc_v_get(v, "reused"));
        cc_v_free(v);
        v = probe(&o);
        assert_status(v, "failed");
        assert_null(cc_v_get(v, "reused"));
        assert_int_equal(entries(cache), 1);
        cc_v_free(v);

        /* a cache directory others may write to is not used */
        assert_true(asprintf(&cmd, "cp " CUDA_INC "/cudnn_version.h %s && touch -d '1 hour ago' %s", ver, ver) > 0);
        assert_int_equal(system(cmd), 0);
        free(cmd);
        sleep(3);
        assert_true(asprintf(&cmd, "chmod 0777 %s/compile-v1", cache) > 0);
        assert_int_equal(system(cmd), 0);
        free(cmd);
        v = probe(&o);
        assert_status(v, "passed");
        assert_null(cc_v_get(v, "reused"));
        assert_true(notes_have(v, "writable by others"));
        cc_v_free(v);

        free(exe);
        free(edir);
        free(ver);
        free(inc);
        free(cache);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test_setup_teardown(test_real_default_compiler, setup, teardown),
            cmocka_unit_test_setup_teardown(test_real_clang_and_cc_with_args, setup, teardown),
            cmocka_unit_test_setup_teardown(test_rpath_beats_ld_library_path, setup, teardown),
            cmocka_unit_test_setup_teardown(test_only_versioned_so, setup, teardown),
            cmocka_unit_test_setup_teardown(test_no_library, setup, teardown),
            cmocka_unit_test_setup_teardown(test_program_crash_keeps_lines, setup, teardown),
            cmocka_unit_test_setup_teardown(test_no_headers, setup, teardown),
            cmocka_unit_test_setup_teardown(test_missing_cudnn_version_h, setup, teardown),
            cmocka_unit_test_setup_teardown(test_missing_cuda_headers, setup, teardown),
            cmocka_unit_test_setup_teardown(test_compiler_not_found, setup, teardown),
            cmocka_unit_test_setup_teardown(test_compiler_hangs, setup, teardown),
            cmocka_unit_test_setup_teardown(test_compiler_messages, setup, teardown),
            cmocka_unit_test(test_depfile_tokens),
            cmocka_unit_test(test_inputs_list),
            cmocka_unit_test_setup_teardown(test_reuse_kept_build, setup, teardown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
