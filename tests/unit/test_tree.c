/* File trees (live and rooted, Linux and Windows rules), environments and
 * glob patterns. Trees are built in a temporary directory. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include "machine/env.h"
#include "machine/machine.h"
#include "machine/tree.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

static void mkpath(const char *rel)
{
        char p[512];
        char *s;

        snprintf(p, sizeof(p), "%s/%s", root, rel);
        for (s = p + strlen(root) + 1; *s; s++) {
                if (*s == '/') {
                        *s = '\0';
                        mkdir(p, 0755);
                        *s = '/';
                }
        }
        mkdir(p, 0755);
}

static void mkfile(const char *rel, const char *content)
{
        char p[512];
        FILE *f;

        snprintf(p, sizeof(p), "%s/%s", root, rel);
        f = fopen(p, "w");
        assert_non_null(f);
        fputs(content, f);
        fclose(f);
}

static void mklink(const char *target, const char *rel)
{
        char p[512];

        snprintf(p, sizeof(p), "%s/%s", root, rel);
        assert_int_equal(symlink(target, p), 0);
}

static int setup(void **state)
{
        (void)state;
        snprintf(root, sizeof(root), "/tmp/cc-tree-XXXXXX");
        assert_non_null(mkdtemp(root));
        mkpath("usr/lib/x86_64-linux-gnu");
        mkpath("opt/a/lib");
        mkpath("Windows/System32");
        mkpath("Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.4/bin");
        mkfile("usr/lib/x86_64-linux-gnu/libcudnn.so.9.1.0", "real");
        mklink("libcudnn.so.9.1.0", "usr/lib/x86_64-linux-gnu/libcudnn.so.9");
        mklink("/usr/lib/x86_64-linux-gnu", "opt/a/abs");     /* absolute: inside the root */
        mklink("../../usr/lib", "opt/a/rel");                 /* relative */
        mklink("../../../../../../../../../usr", "opt/a/up"); /* climbs above the root: stops there */
        mklink("loop2", "opt/a/loop1");
        mklink("loop1", "opt/a/loop2");
        mklink("missing-target", "opt/a/dangling");
        mkfile("opt/a/lib/file", "x");
        mkfile("Windows/System32/CUDNN64_8.DLL", "dll");
        mkfile("Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.4/bin/cudnn64_8.dll", "dll");
        mkfile("etc.conf", "A=1\n");
        return 0;
}

static int teardown(void **state)
{
        char cmd[600];

        (void)state;
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
        return system(cmd) == 0 ? 0 : -1;
}

static cc_tree *open_tree(int system)
{
        cc_tree *t = NULL;
        cc_error err = {0};

        assert_int_equal(cc_tree_open(root, system, &t, &err), 0);
        return t;
}

static void expect_canonical(cc_tree *t, const char *vpath, const char *want)
{
        cc_error err = {0};
        char *c = cc_tree_canonical(t, vpath, &err);

        if (want == NULL) {
                assert_null(c);
                assert_int_equal(err.code, CC_ERR_NOTFOUND);
                return;
        }
        assert_non_null(c);
        assert_string_equal(c, want);
        free(c);
}

static void test_links_stay_inside(void **state)
{
        cc_tree *t = open_tree(CC_SYS_LINUX);

        (void)state;
        expect_canonical(t, "/usr/lib/x86_64-linux-gnu/libcudnn.so.9", "/usr/lib/x86_64-linux-gnu/libcudnn.so.9.1.0");
        expect_canonical(t, "/opt/a/abs/libcudnn.so.9", "/usr/lib/x86_64-linux-gnu/libcudnn.so.9.1.0");
        expect_canonical(t, "/opt/a/rel/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu");
        /* ".." above the root stops at the root, like the kernel at "/" */
        expect_canonical(t, "/opt/a/up/lib", "/usr/lib");
        expect_canonical(t, "/../../../usr", "/usr");
        expect_canonical(t, "/opt/a/lib/../lib/./file", "/opt/a/lib/file");
        expect_canonical(t, "/opt/a/nothing", NULL);
        expect_canonical(t, "/", "/");
        cc_tree_free(t);
}

static void test_loops_and_dangling(void **state)
{
        cc_tree *t = open_tree(CC_SYS_LINUX);
        cc_tree_res r;
        cc_error err = {0};
        cc_stat st;
        char *target;

        (void)state;
        assert_int_equal(cc_tree_resolve(t, "/opt/a/loop1", 1, &r, &err), 0);
        assert_int_equal(r.st.type, CC_FT_NONE);
        assert_non_null(strstr(r.why, "too many levels of symbolic links"));
        cc_tree_res_free(&r);
        /* without following the last component it is a link */
        assert_int_equal(cc_tree_lstat(t, "/opt/a/loop1", &st, &err), 0);
        assert_int_equal(st.type, CC_FT_LINK);
        assert_int_equal(cc_tree_stat(t, "/opt/a/dangling", &st, &err), 0);
        assert_int_equal(st.type, CC_FT_NONE);
        target = cc_tree_readlink(t, "/opt/a/dangling", &err);
        assert_non_null(target);
        assert_string_equal(target, "missing-target");
        free(target);
        /* a file in the middle of a path */
        assert_int_equal(cc_tree_resolve(t, "/opt/a/lib/file/x", 1, &r, &err), 0);
        assert_int_equal(r.st.type, CC_FT_NONE);
        assert_non_null(strstr(r.why, "not a directory"));
        cc_tree_res_free(&r);
        /* relative paths are refused: they need a current directory first */
        assert_int_equal(cc_tree_resolve(t, "opt/a", 1, &r, &err), -1);
        assert_int_equal(err.code, CC_ERR_USAGE);
        cc_tree_free(t);
}

static void test_windows_names(void **state)
{
        cc_tree *t = open_tree(CC_SYS_WINDOWS);
        cc_error err = {0};
        cc_tree_res r;
        char *a;

        (void)state;
        /* case-insensitive, either separator, spelled as on disk */
        expect_canonical(t, "C:\\windows\\system32\\cudnn64_8.dll", "C:\\Windows\\System32\\CUDNN64_8.DLL");
        expect_canonical(t, "c:/WINDOWS/System32/Cudnn64_8.Dll", "C:\\Windows\\System32\\CUDNN64_8.DLL");
        expect_canonical(t, "\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\V11.4\\BIN\\cudnn64_8.dll",
                         "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.4\\bin\\cudnn64_8.dll");
        /* other drives and UNC paths are outside the tree */
        assert_int_equal(cc_tree_resolve(t, "D:\\x.dll", 1, &r, &err), 0);
        assert_int_equal(r.st.type, CC_FT_NONE);
        assert_non_null(strstr(r.why, "outside the tree"));
        assert_int_equal(cc_tree_resolve(t, "\\\\server\\share\\x.dll", 1, &r, &err), 0);
        assert_int_equal(r.st.type, CC_FT_NONE);
        /* string helpers */
        assert_true(cc_tree_is_abs(t, "C:\\x"));
        assert_true(cc_tree_is_abs(t, "\\x"));
        assert_false(cc_tree_is_abs(t, "x\\y"));
        assert_true(cc_tree_path_eq(t, "C:\\Windows/System32", "c:/windows\\SYSTEM32"));
        a = cc_tree_abs(t, "C:\\Users\\me", "bin\\..\\x.dll", &err);
        assert_non_null(a);
        assert_string_equal(a, "C:\\Users\\me\\bin\\..\\x.dll");
        free(a);
        a = cc_tree_dirname(t, "C:\\Windows\\System32\\x.dll", &err);
        assert_string_equal(a, "C:\\Windows\\System32");
        free(a);
        a = cc_tree_dirname(t, "C:\\x.dll", &err);
        assert_string_equal(a, "C:\\");
        free(a);
        cc_tree_free(t);
}

static void test_linux_strings(void **state)
{
        cc_tree *t = open_tree(CC_SYS_LINUX);
        cc_error err = {0};
        char *a;

        (void)state;
        a = cc_tree_abs(t, "/home/me", "./lib//x/", &err);
        assert_string_equal(a, "/home/me/lib/x");
        free(a);
        a = cc_tree_abs(t, "/home/me", "/abs/./y", &err);
        assert_string_equal(a, "/abs/y");
        free(a);
        assert_null(cc_tree_abs(t, NULL, "rel", &err));
        assert_int_equal(err.code, CC_ERR_USAGE);
        {
                /* paths kept as they are (the quick way) and those rebuilt */
                static const char *const cases[][2] = {{"/", "/"},
                                                       {"/a", "/a"},
                                                       {"/a/b.so.9", "/a/b.so.9"},
                                                       {"/.a/..b/...", "/.a/..b/..."},
                                                       {"/a/..", "/a/.."},
                                                       {"/a/", "/a"},
                                                       {"/a//b", "/a/b"},
                                                       {"//a", "/a"},
                                                       {"/./a", "/a"},
                                                       {"/a/.", "/a"},
                                                       {"/a/./b/", "/a/b"},
                                                       {"///", "/"},
                                                       {"/a/b/.//", "/a/b"},
                                                       {"/lib/x.", "/lib/x."}};
                size_t i;

                for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                        a = cc_tree_abs(t, NULL, cases[i][0], &err);
                        assert_non_null(a);
                        assert_string_equal(a, cases[i][1]);
                        free(a);
                }
        }
        a = cc_tree_dirname(t, "/a", &err);
        assert_string_equal(a, "/");
        free(a);
        assert_false(cc_tree_path_eq(t, "/A", "/a"));
        cc_tree_free(t);
}

static void test_glob(void **state)
{
        static const struct {
                const char *pat, *name;
                int nocase, want;
        } cases[] = {
            {"*.conf", "x86_64-linux-gnu.conf", 0, 1},
            {"*.conf", "x.conf.bak", 0, 0},
            {"v*", "v11.4", 0, 1},
            {"v*", "V11.4", 1, 1},
            {"v*", "V11.4", 0, 0},
            {"lib?.so", "libz.so", 0, 1},
            {"lib?.so", "libzz.so", 0, 0},
            {"[a-c]x", "bx", 0, 1},
            {"[!a-c]x", "bx", 0, 0},
            {"[^a-c]x", "dx", 0, 1},
            {"[]]", "]", 0, 1},
            {"[", "[", 0, 1},
            {"*a*b*c", "xxaxxbxxc", 0, 1},
            {"*a*b*c", "xxaxxcxxb", 0, 0},
            {"", "", 0, 1},
            {"*", "", 0, 1},
        };
        cc_tree *t = open_tree(CC_SYS_LINUX);
        cc_tree *w = open_tree(CC_SYS_WINDOWS);
        cc_strv out = {0};
        cc_error err = {0};
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++)
                assert_int_equal(cc_glob_match(cases[i].pat, cases[i].name, cases[i].nocase), cases[i].want);
        assert_int_equal(cc_tree_glob(t, "/opt/*/lib/f*", 100, &out, &err), 0);
        assert_int_equal(out.n, 1);
        assert_string_equal(out.v[0], "/opt/a/lib/file");
        cc_strv_free(&out);
        /* a pattern through an absolute link inside the root */
        assert_int_equal(cc_tree_glob(t, "/opt/a/abs/libcudnn.so.*", 100, &out, &err), 0);
        assert_int_equal(out.n, 2);
        cc_strv_free(&out);
        assert_int_equal(
            cc_tree_glob(w, "C:\\program files\\NVIDIA GPU Computing Toolkit\\CUDA\\V*\\bin", 100, &out, &err), 0);
        assert_int_equal(out.n, 1);
        cc_strv_free(&out);
        /* the limit */
        assert_int_equal(cc_tree_glob(t, "/opt/a/*", 2, &out, &err), -1);
        assert_int_equal(err.code, CC_ERR_LIMIT);
        cc_strv_free(&out);
        cc_tree_free(t);
        cc_tree_free(w);
}

static void test_env(void **state)
{
        static const char good[] = "# comment\n\nexport PATH=/usr/bin:/bin\nA=\"quoted value\"\r\nB='x'\nEMPTY=\nA=2\n";
        cc_env e = {0}, w = {0};
        cc_error err = {0};
        char buf[64];
        int i;

        (void)state;
        assert_int_equal(cc_env_load_text(&e, "env.txt", good, sizeof(good) - 1, &err), 0);
        assert_string_equal(cc_env_get(&e, "PATH"), "/usr/bin:/bin");
        assert_string_equal(cc_env_get(&e, "A"), "2");
        assert_string_equal(cc_env_get(&e, "B"), "x");
        assert_string_equal(cc_env_get(&e, "EMPTY"), "");
        assert_null(cc_env_get(&e, "path"));
        /* a bad line names the file and line, and adds nothing */
        assert_int_equal(cc_env_load_text(&e, "bad.env", "C=1\nno equals sign\n", 18, &err), -1);
        assert_string_equal(err.msg, "bad.env:2: not VAR=VALUE");
        assert_null(cc_env_get(&e, "C"));
        assert_int_equal(cc_env_load_text(&e, "nul.env", "D=a\0b\n", 6, &err), -1);
        assert_non_null(strstr(err.msg, "nul.env:1"));
        assert_int_equal(cc_env_set(&e, "=x", &err), -1);
        assert_int_equal(cc_env_set(&e, "noequals", &err), -1);
        assert_int_equal(cc_env_unset(&e, "A", &err), 1);
        assert_null(cc_env_get(&e, "A"));
        assert_string_equal(cc_env_get(&e, "B"), "x");
        assert_int_equal(cc_env_unset(&e, "A", &err), 0);
        /* many variables: the index keeps lookups right */
        for (i = 0; i < 3000; i++) {
                snprintf(buf, sizeof(buf), "V%d=%d", i, i * 7);
                assert_int_equal(cc_env_set(&e, buf, &err), 0);
        }
        assert_string_equal(cc_env_get(&e, "V2999"), "20993");
        assert_string_equal(cc_env_get(&e, "V0"), "0");
        assert_int_equal(cc_env_unset(&e, "V5", &err), 1);
        assert_string_equal(cc_env_get(&e, "V2999"), "20993");
        cc_env_free(&e);
        /* Windows: keys are case-insensitive */
        w.nocase = 1;
        assert_int_equal(cc_env_set(&w, "Path=C:\\x", &err), 0);
        assert_int_equal(cc_env_set(&w, "PATH=C:\\y", &err), 0);
        assert_string_equal(cc_env_get(&w, "path"), "C:\\y");
        assert_int_equal(w.kv.n, 1);
        cc_env_free(&w);
}

static void test_machine(void **state)
{
        cudnnctl_machine_options o = {0};
        cudnnctl_machine *m = NULL;
        cudnnctl_error err = {0};
        const char *set[] = {"LD_LIBRARY_PATH=/opt/a/lib", "PWD=/opt/a"};
        char path[512];
        char *a;

        (void)state;
        /* a rooted machine starts with an empty environment */
        o.root = root;
        assert_int_equal(cudnnctl_machine_open(&o, &m, &err), 0);
        assert_null(cc_machine_getenv(m, "PATH"));
        assert_string_equal(m->cwd, "/");
        cudnnctl_machine_free(m);
        o.set = set;
        o.nset = 2;
        snprintf(path, sizeof(path), "%s/etc.conf", root);
        o.env_file = path;
        assert_int_equal(cudnnctl_machine_open(&o, &m, &err), 0);
        assert_string_equal(cc_machine_getenv(m, "LD_LIBRARY_PATH"), "/opt/a/lib");
        assert_string_equal(cc_machine_getenv(m, "A"), "1");
        assert_string_equal(m->cwd, "/opt/a");
        a = cc_machine_abs(m, "lib/file", &err);
        assert_string_equal(a, "/opt/a/lib/file");
        free(a);
        cudnnctl_machine_free(m);
        /* errors: a bad root, a relative PWD, --system windows without a root on Linux */
        o.root = "/nonexistent/root";
        assert_int_equal(cudnnctl_machine_open(&o, &m, &err), -1);
        assert_int_equal(err.code, CUDNNCTL_ERR_NOTFOUND);
        o.root = root;
        set[1] = "PWD=relative";
        assert_int_equal(cudnnctl_machine_open(&o, &m, &err), -1);
        assert_int_equal(err.code, CUDNNCTL_ERR_USAGE);
        memset(&o, 0, sizeof(o));
        o.system = CUDNNCTL_SYSTEM_WINDOWS;
        assert_int_equal(cudnnctl_machine_open(&o, &m, &err), -1);
        assert_non_null(strstr(err.msg, "--root"));
        /* the live machine: the process's environment and directory */
        memset(&o, 0, sizeof(o));
        setenv("CC_TREE_TEST_VAR", "yes", 1);
        assert_int_equal(cudnnctl_machine_open(&o, &m, &err), 0);
        assert_string_equal(cc_machine_getenv(m, "CC_TREE_TEST_VAR"), "yes");
        assert_true(m->live);
        cudnnctl_machine_free(m);
}

static void test_pathlist(void **state)
{
        cc_strv v = {0};
        cc_error err = {0};

        (void)state;
        assert_int_equal(cc_split_pathlist("a::b:", ':', 100, &v, &err), 0);
        assert_int_equal(v.n, 4);
        assert_string_equal(v.v[1], "");
        assert_string_equal(v.v[3], "");
        cc_strv_free(&v);
        assert_int_equal(cc_split_pathlist("a;b;c", ';', 2, &v, &err), -1);
        assert_int_equal(err.code, CC_ERR_LIMIT);
        cc_strv_free(&v);
}

/* A path whose directory was looked up before is resolved from the cached
 * directory (the loader's searches): every answer the same as the general
 * walk's, for files, links in the same directory and elsewhere, chains,
 * loops, dangling links, directories, names that are not there and a file
 * in the middle of a path. */
static void test_fast_same_as_walk(void **state)
{
        static const char *const dirs[] = {"/f/d0", "/f/d1", "/f/ld", "/f/d0/sub", "/f/nodir", "/f/d0/file", "/f/abs"};
        static const char *const names[] = {"file", "same", "chain", "abs",     "rel", "relup",  "reldot", "dangling",
                                            "loop", "sub",  "ldir",  "missing", "..",  "file/x", "tdir",   "root"};
        cc_tree *slow = open_tree(CC_SYS_LINUX), *fast = open_tree(CC_SYS_LINUX);
        size_t i, j, compared = 0, fast_absent = 0;
        int pass, follow;

        (void)state;
        cc_tree_set_fast(slow, 0);
        mkpath("f/d0/sub");
        mkpath("f/d1");
        mkfile("f/d0/file", "zero");
        mkfile("f/d1/file", "one!");
        mkfile("f/d0/sub/file", "sub");
        mklink("file", "f/d0/same");
        mklink("same", "f/d0/chain");
        mklink("/f/d1/file", "f/d0/abs");
        mklink("../d1/file", "f/d0/rel");
        mklink("sub/../file", "f/d0/relup");
        mklink("./file", "f/d0/reldot");
        mklink("gone", "f/d0/dangling");
        mklink("loop", "f/d0/loop");
        mklink("../d1", "f/d0/ldir");
        mklink("d1", "f/ld");
        mklink("sub/", "f/d0/tdir");
        mklink("/", "f/d0/root");
        mklink("/f/d0", "f/abs");
        for (pass = 0; pass < 2; pass++) /* the first pass fills the cache of directories */
                for (i = 0; i < CC_ARRAY_LEN(dirs); i++)
                        for (j = 0; j < CC_ARRAY_LEN(names); j++)
                                for (follow = 0; follow < 2; follow++) {
                                        char p[256];
                                        cc_tree_res a, b;
                                        cc_error ea = {0}, eb = {0};
                                        int ra, rb;

                                        snprintf(p, sizeof(p), "%s/%s", dirs[i], names[j]);
                                        ra = cc_tree_resolve(slow, p, follow, &a, &ea);
                                        rb = cc_tree_resolve(fast, p, follow, &b, &eb);
                                        assert_int_equal(ra, rb);
                                        if (ra < 0)
                                                continue;
                                        if (a.st.type != b.st.type || a.st.size != b.st.size ||
                                            strcmp(a.why, b.why) != 0 || a.why_kind != b.why_kind)
                                                fail_msg("%s (follow %d): type %d/%d size %llu/%llu why '%s'/'%s'", p,
                                                         follow, a.st.type, b.st.type, (unsigned long long)a.st.size,
                                                         (unsigned long long)b.st.size, a.why, b.why);
                                        assert_int_equal(a.host == NULL, b.host == NULL);
                                        if (a.host != NULL) {
                                                assert_string_equal(a.host, b.host);
                                                assert_string_equal(a.canonical, b.canonical);
                                        }
                                        /* "plainly absent" is said only of what is not there */
                                        assert_false(a.no_entry);
                                        if (b.no_entry) {
                                                cc_tree_res l;

                                                /* not even a dangling link in its place */
                                                assert_int_equal(b.st.type, CC_FT_NONE);
                                                assert_int_equal(cc_tree_resolve(slow, p, 0, &l, &ea), 0);
                                                assert_int_equal(l.st.type, CC_FT_NONE);
                                                cc_tree_res_free(&l);
                                                fast_absent++;
                                        }
                                        cc_tree_res_free(&a);
                                        cc_tree_res_free(&b);
                                        compared++;
                                }
        assert_true(compared > 300);
        assert_true(fast_absent > 0);
        cc_tree_free(slow);
        cc_tree_free(fast);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_links_stay_inside),
            cmocka_unit_test(test_loops_and_dangling),
            cmocka_unit_test(test_windows_names),
            cmocka_unit_test(test_linux_strings),
            cmocka_unit_test(test_glob),
            cmocka_unit_test(test_env),
            cmocka_unit_test(test_machine),
            cmocka_unit_test(test_pathlist),
            cmocka_unit_test(test_fast_same_as_walk),
        };

        return cmocka_run_group_tests(tests, setup, teardown);
}
