/* The Linux loader emulation over rooted trees built from the fixture
 * libraries (tests/fixtures/gen-elf.sh): the search order, $ORIGIN, RPATH
 * inheritance, LD_LIBRARY_PATH, RUNPATH, DF_1_NODEFLIB, the ELF class
 * filter, files that stop the load, the loader's own directories, a corrupt
 * cache, shadowed copies and limits. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include "platform/platform.h"
#include "resolve/resolve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

static void sh(const char *cmd)
{
        assert_int_equal(system(cmd), 0);
}

/* mkdir -p of the directory part of a host path. */
static void mkparent(const char *path)
{
        char cmd[1200];

        snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
        sh(cmd);
}

/* Copy fixture elf/NAME into the tree at REL (directories made). */
static void put(const char *name, const char *rel)
{
        char *src = tu_fixture(name);
        char dst[512], cmd[2048];

        snprintf(dst, sizeof(dst), "%s%s", root, rel);
        snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\" && cp '%s' '%s'", dst, src, dst);
        assert_int_equal(system(cmd), 0);
        free(src);
}

/* n bytes at REL of the tree at dir (directories made). */
static void put_bytes(const char *dir, const char *rel, const char *b, size_t n)
{
        char dst[512];
        FILE *f;

        snprintf(dst, sizeof(dst), "%s%s", dir, rel);
        mkparent(dst);
        f = fopen(dst, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(b, 1, n, f), n);
        fclose(f);
}

static void put_text(const char *rel, const char *text)
{
        put_bytes(root, rel, text, strlen(text));
}

/* A 32-bit i386 ET_DYN header: ld.so passes over it. */
static void put_elf32(const char *rel)
{
        static const unsigned char h[52] = {0x7f, 'E', 'L', 'F', 1, 1, 1, 0, 0,  0, 0,  0, 0, 0, 0,  0,
                                            3,    0,   3,   0,   1, 0, 0, 0, 0,  0, 0,  0, 0, 0, 0,  0,
                                            0,    0,   0,   0,   0, 0, 0, 0, 52, 0, 32, 0, 0, 0, 40, 0};
        char dst[512];
        FILE *f;

        snprintf(dst, sizeof(dst), "%s%s", root, rel);
        mkparent(dst);
        f = fopen(dst, "wb");
        assert_non_null(f);
        fwrite(h, 1, sizeof(h), f);
        fclose(f);
}

static int setup(void **state)
{
        (void)state;
        snprintf(root, sizeof(root), "/tmp/cc-lnx-XXXXXX");
        assert_non_null(mkdtemp(root));
        put("elf/libfx_dep.so.2", "/opt/x/libfx_dep.so.2");   /* RUNPATH $ORIGIN:/opt/fx/lib, nodeflib */
        put("elf/libfx_base.so.1", "/opt/x/libfx_base.so.1"); /* found through $ORIGIN */
        put("elf/libfx_base.so.1", "/llp/libfx_base.so.1");   /* LD_LIBRARY_PATH beats RUNPATH */
        put("elf/libfx_other.so.3", "/opt/fx/lib/libfx_other.so.3");
        put("elf/libfx_rpath.so", "/opt/r/sub/libfx_rpath.so"); /* RPATH /opt/old/lib:$ORIGIN/../lib */
        put("elf/libfx_base.so.1", "/opt/r/lib/libfx_base.so.1");
        put("elf/libfx_plain.so", "/opt/r/lib/libfx_plain.so");
        put_elf32("/l32/libfx_base.so.1");
        put_text("/bad/libfx_base.so.1", "not an ELF file\n");
        put_text("/etc/ld.so.cache", "this is not a cache");
        {
                char cmd[600];

                snprintf(cmd, sizeof(cmd), "ln -s /opt/x '%s/opt/xlink'", root);
                sh(cmd);
        }
        return 0;
}

static int teardown(void **state)
{
        char cmd[600];

        (void)state;
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
        sh(cmd);
        return 0;
}

struct fx {
        cudnnctl_machine *m;
        cc_lnx_ctx *c;
        cc_lnx_obj obj;
        int have_obj;
};

static void open_fx(struct fx *f, const char *const *set, size_t nset, const char *requester)
{
        cudnnctl_machine_options o = {0};
        cudnnctl_error err = {0};

        memset(f, 0, sizeof(*f));
        o.root = root;
        o.set = set;
        o.nset = nset;
        assert_int_equal(cudnnctl_machine_open(&o, &f->m, &err), 0);
        assert_int_equal(cc_lnx_ctx_open(f->m, NULL, &f->c, &err), 0);
        if (requester) {
                assert_int_equal(cc_lnx_obj_load(f->c, requester, &f->obj, NULL, NULL, &err), 0);
                f->have_obj = 1;
        }
}

static void close_fx(struct fx *f)
{
        cc_lnx_obj_free(&f->obj);
        cc_lnx_ctx_free(f->c);
        cudnnctl_machine_free(f->m);
}

static void resolve(struct fx *f, const char *name, cc_resolution *r)
{
        cc_error err = {0};

        assert_int_equal(cc_lnx_resolve(f->c, name, f->have_obj ? &f->obj : NULL, f->have_obj, 1, r, &err), 0);
}

static int has_note(const cc_resolution *r, const char *needle)
{
        size_t i;

        for (i = 0; i < r->notes.n; i++)
                if (strstr(r->notes.v[i], needle) != NULL)
                        return 1;
        return 0;
}

static size_t count_outcome(const cc_resolution *r, int outcome)
{
        size_t i, n = 0;

        for (i = 0; i < r->ntries; i++)
                n += r->tries[i].outcome == outcome;
        return n;
}

static void test_loader_facts(void **state)
{
        struct fx f;
        cc_error err = {0};
        cc_value *facts;

        (void)state;
        open_fx(&f, NULL, 0, NULL);
        facts = cc_lnx_ctx_facts(f.c, &err);
        assert_non_null(facts);
        /* no loader in the tree: glibc's defaults, and it says so */
        assert_non_null(strstr(cc_v_get_str(facts, "default_dirs_source"), "could not be read"));
        assert_string_equal(cc_v_as_str(cc_v_at(cc_v_get(facts, "default_dirs"), 0)), "/lib64");
        /* the corrupt cache is reported and ignored */
        assert_non_null(cc_v_get_str(cc_v_get(facts, "ld_so_cache"), "error"));
        assert_non_null(strstr(cc_v_get_str(cc_v_get(facts, "ld_so_cache"), "error"), "ignores"));
        cc_v_free(facts);
        close_fx(&f);
}

static void test_runpath_origin(void **state)
{
        struct fx f;
        cc_resolution r;

        (void)state;
        open_fx(&f, NULL, 0, "/opt/x/libfx_dep.so.2");
        resolve(&f, "libfx_base.so.1", &r);
        assert_true(r.found);
        assert_int_equal(r.how, CC_HOW_RUNPATH);
        assert_string_equal(r.path, "/opt/x/libfx_base.so.1");
        assert_non_null(strstr(r.origin, "RUNPATH of /opt/x/libfx_dep.so.2"));
        /* nodeflib: no cache, no default directories */
        assert_true(has_note(&r, "nodefaultlib"));
        cc_resolution_free(&r);
        /* the second RUNPATH element */
        resolve(&f, "libfx_other.so.3", &r);
        assert_true(r.found);
        assert_string_equal(r.path, "/opt/fx/lib/libfx_other.so.3");
        cc_resolution_free(&r);
        close_fx(&f);
}

static void test_ld_library_path_first(void **state)
{
        static const char *const set[] = {"LD_LIBRARY_PATH=/l32:/llp"};
        struct fx f;
        cc_resolution r;
        size_t i;

        (void)state;
        open_fx(&f, set, 1, "/opt/x/libfx_dep.so.2");
        resolve(&f, "libfx_base.so.1", &r);
        assert_true(r.found);
        assert_int_equal(r.how, CC_HOW_LD_LIBRARY_PATH);
        assert_string_equal(r.path, "/llp/libfx_base.so.1");
        /* the 32-bit copy first is passed over, as ld.so passes over it */
        assert_int_equal(count_outcome(&r, CC_TRY_SKIPPED), 1);
        for (i = 0; i < r.ntries; i++)
                if (r.tries[i].outcome == CC_TRY_SKIPPED) {
                        assert_string_equal(r.tries[i].path, "/l32/libfx_base.so.1");
                        assert_non_null(strstr(r.tries[i].detail, "32-bit"));
                }
        /* the RUNPATH copy is shadowed */
        assert_int_equal(count_outcome(&r, CC_TRY_SHADOWED), 1);
        for (i = r.ntried; i < r.ntries; i++)
                if (r.tries[i].outcome == CC_TRY_SHADOWED)
                        assert_string_equal(r.tries[i].path, "/opt/x/libfx_base.so.1");
        cc_resolution_free(&r);
        close_fx(&f);
}

static void test_not_elf_stops(void **state)
{
        static const char *const set[] = {"LD_LIBRARY_PATH=/bad:/llp"};
        struct fx f;
        cc_resolution r;

        (void)state;
        open_fx(&f, set, 1, NULL);
        resolve(&f, "libfx_base.so.1", &r);
        assert_false(r.found);
        assert_int_equal(r.tries[r.ntried - 1].outcome, CC_TRY_FAILED);
        assert_string_equal(r.tries[r.ntried - 1].path, "/bad/libfx_base.so.1");
        assert_non_null(strstr(r.tries[r.ntried - 1].detail, "invalid ELF header"));
        assert_true(has_note(&r, "does not go on searching"));
        /* the good copy after it is still shown, as shadowed */
        assert_int_equal(count_outcome(&r, CC_TRY_SHADOWED), 1);
        cc_resolution_free(&r);
        close_fx(&f);
}

static void test_rpath_and_inheritance(void **state)
{
        static const char *const set[] = {"LD_LIBRARY_PATH=/llp"};
        cudnnctl_error err = {0};
        struct fx f;
        cc_lnx_obj chain[2];
        cc_resolution r;

        (void)state;
        open_fx(&f, set, 1, "/opt/r/sub/libfx_rpath.so");
        /* DT_RPATH comes before LD_LIBRARY_PATH: $ORIGIN/../lib from /opt/r/sub */
        resolve(&f, "libfx_base.so.1", &r);
        assert_true(r.found);
        assert_int_equal(r.how, CC_HOW_RPATH);
        assert_string_equal(r.path, "/opt/r/sub/../lib/libfx_base.so.1");
        assert_string_equal(r.realpath, "/opt/r/lib/libfx_base.so.1");
        /* the first RPATH element /opt/old/lib was tried first */
        assert_string_equal(cc_basename(r.tries[0].path), "libfx_base.so.1");
        assert_true(strncmp(r.tries[0].path, "/opt/old/lib/", 13) == 0);
        cc_resolution_free(&r);
        /* a requester without RUNPATH inherits the DT_RPATH of its loader */
        memset(chain, 0, sizeof(chain));
        assert_int_equal(cc_lnx_obj_load(f.c, "/opt/r/lib/libfx_plain.so", &chain[0], NULL, NULL, &err), 0);
        chain[1] = f.obj;
        assert_int_equal(cc_lnx_resolve(f.c, "libfx_base.so.1", chain, 2, 0, &r, &err), 0);
        assert_true(r.found);
        assert_int_equal(r.how, CC_HOW_RPATH);
        assert_non_null(strstr(r.origin, "inherited"));
        cc_resolution_free(&r);
        cc_lnx_obj_free(&chain[0]);
        close_fx(&f);
}

static void test_direct_and_missing(void **state)
{
        static const char *const set[] = {"PWD=/opt/x"};
        struct fx f;
        cc_resolution r;

        (void)state;
        open_fx(&f, set, 1, NULL);
        resolve(&f, "./libfx_base.so.1", &r);
        assert_true(r.found);
        assert_int_equal(r.how, CC_HOW_DIRECT);
        assert_string_equal(r.realpath, "/opt/x/libfx_base.so.1");
        cc_resolution_free(&r);
        /* through a symlinked directory: the same file, not a second copy */
        resolve(&f, "/opt/xlink/libfx_base.so.1", &r);
        assert_true(r.found);
        assert_string_equal(r.realpath, "/opt/x/libfx_base.so.1");
        cc_resolution_free(&r);
        resolve(&f, "libnothere.so.1", &r);
        assert_false(r.found);
        assert_int_equal(r.how, CC_HOW_NOT_FOUND);
        assert_int_equal(r.ntried, r.ntries);
        assert_true(r.ntried > 0);
        assert_int_equal(count_outcome(&r, CC_TRY_MISSING), r.ntries);
        cc_resolution_free(&r);
        close_fx(&f);
}

static void test_long_paths(void **state)
{
        cc_buf b = {0};
        cc_error err = {0};
        const char *set[1];
        struct fx f;
        cc_resolution r;
        int i;

        (void)state;
        /* 32 KiB of LD_LIBRARY_PATH, the copy at the end */
        assert_int_equal(cc_buf_puts(&b, "LD_LIBRARY_PATH=", &err), 0);
        for (i = 0; b.len < 32768; i++)
                assert_int_equal(cc_buf_printf(&b, &err, "/n%d:", i), 0);
        assert_int_equal(cc_buf_puts(&b, "/llp", &err), 0);
        set[0] = b.data;
        open_fx(&f, set, 1, NULL);
        resolve(&f, "libfx_base.so.1", &r);
        assert_true(r.found);
        assert_string_equal(r.path, "/llp/libfx_base.so.1");
        cc_resolution_free(&r);
        close_fx(&f);
        cc_buf_free(&b);
        /* more elements than the emulation follows: a note, not a failure */
        assert_int_equal(cc_buf_puts(&b, "LD_LIBRARY_PATH=", &err), 0);
        for (i = 0; i < 20000; i++)
                assert_int_equal(cc_buf_puts(&b, ":", &err), 0);
        set[0] = b.data;
        open_fx(&f, set, 1, NULL);
        resolve(&f, "libfx_base.so.1", &r);
        assert_true(has_note(&r, "only the first"));
        assert_true(has_note(&r, "is empty"));
        cc_resolution_free(&r);
        close_fx(&f);
        cc_buf_free(&b);
}

static void test_expand_names(void **state)
{
        cc_strv v = {0};
        cc_error err = {0};

        (void)state;
        assert_int_equal(cc_expand_name("cudnn", CC_SYS_LINUX, &v, &err), 0);
        assert_true(v.n >= 5);
        assert_string_equal(v.v[0], "libcudnn.so.9");
        assert_string_equal(v.v[1], "libcudnn.so.8");
        cc_strv_free(&v);
        assert_int_equal(cc_expand_name("cudnn_ops", CC_SYS_WINDOWS, &v, &err), 0);
        assert_int_equal(v.n, 1);
        assert_string_equal(v.v[0], "cudnn_ops64_9.dll");
        cc_strv_free(&v);
        assert_int_equal(cc_expand_name("CUDNN_CNN_INFER", CC_SYS_WINDOWS, &v, &err), 0);
        assert_string_equal(v.v[0], "cudnn_cnn_infer64_8.dll");
        cc_strv_free(&v);
        assert_int_equal(cc_expand_name("libcudnn.so.9", CC_SYS_LINUX, &v, &err), 0);
        assert_int_equal(v.n, 1);
        cc_strv_free(&v);
        assert_int_equal(cc_expand_name("zlibwapi", CC_SYS_WINDOWS, &v, &err), 0);
        assert_string_equal(v.v[0], "zlibwapi");
        cc_strv_free(&v);
        assert_int_equal(cc_expand_name("", CC_SYS_LINUX, &v, &err), -1);
        cc_strv_free(&v);
}

/* The x86-64 level that picks the glibc-hwcaps subdirectories is the one
 * this machine's ld.so names "supported" in its --help (glibc 2.33 and
 * later; elsewhere there is nothing to compare with). */
static void test_isa_level_as_ldso(void **state)
{
        FILE *f;
        char line[256];
        int ldso = 0, listed = 0;

        (void)state;
#if defined(__x86_64__)
        f = popen("/lib64/ld-linux-x86-64.so.2 --help 2>/dev/null", "r");
        if (f == NULL)
                skip();
        while (fgets(line, sizeof(line), f) != NULL) {
                int v;

                if (sscanf(line, " x86-64-v%d (supported", &v) == 1) {
                        if (v > ldso)
                                ldso = v;
                        listed = 1;
                } else if (strstr(line, "x86-64-v") != NULL) {
                        listed = 1; /* named, not supported */
                }
        }
        pclose(f);
        if (!listed)
                skip();
        /* ld.so lists v2 and up; a machine below v2 is at the baseline, 1 */
        assert_int_equal(cc_host_x86_64_level(), ldso ? ldso : 1);
#else
        (void)f;
        (void)line;
        (void)ldso;
        (void)listed;
        skip();
#endif
}

/* The "glibc" fact of the loader emulation over the tree at dir (NULL: unknown). */
static char *glibc_of(const char *dir)
{
        cudnnctl_machine_options o = {0};
        cudnnctl_error err = {0};
        cudnnctl_machine *m = NULL;
        cc_lnx_ctx *c = NULL;
        cc_value *facts;
        const char *g;
        char *out;

        o.root = dir;
        assert_int_equal(cudnnctl_machine_open(&o, &m, &err), 0);
        assert_int_equal(cc_lnx_ctx_open(m, NULL, &c, &err), 0);
        facts = cc_lnx_ctx_facts(c, &err);
        assert_non_null(facts);
        g = cc_v_get_str(facts, "glibc");
        out = g ? strdup(g) : NULL;
        cc_v_free(facts);
        cc_lnx_ctx_free(c);
        cudnnctl_machine_free(m);
        return out;
}

/* glibc's release, whose rules the emulation follows (glibc-hwcaps, legacy
 * hwcap directories): the loader's own banner first, else libc.so.6's in
 * the first default directory, else unknown. */
static void test_glibc_release(void **state)
{
        static const char ldso[] = "\0/lib/x86_64-linux-gnu/\0/usr/lib/x86_64-linux-gnu/\0/lib/\0/usr/lib/\0"
                                   "ld.so (GNU libc) stable release version 2.31.\0";
        static const char ldso_bare[] = "\0/lib/x86_64-linux-gnu/\0/usr/lib/x86_64-linux-gnu/\0/lib/\0/usr/lib/\0";
        static const char libc[] = "GNU C Library (GNU libc) stable release version 2.40.\0";
        char dir[64], cmd[128], *g;

        (void)state;
        snprintf(dir, sizeof(dir), "/tmp/cc-glibc-XXXXXX");
        assert_non_null(mkdtemp(dir));
        put_bytes(dir, "/lib64/ld-linux-x86-64.so.2", ldso, sizeof(ldso));
        put_bytes(dir, "/lib/x86_64-linux-gnu/libc.so.6", libc, sizeof(libc));
        g = glibc_of(dir);
        assert_non_null(g);
        assert_string_equal(g, "2.31"); /* the loader's, not libc's */
        free(g);
        put_bytes(dir, "/lib64/ld-linux-x86-64.so.2", ldso_bare, sizeof(ldso_bare));
        g = glibc_of(dir);
        assert_non_null(g);
        assert_string_equal(g, "2.40"); /* no banner in the loader: libc's */
        free(g);
        snprintf(cmd, sizeof(cmd), "rm -f '%s/lib/x86_64-linux-gnu/libc.so.6'", dir);
        sh(cmd);
        assert_null(glibc_of(dir));
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
        sh(cmd);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_loader_facts),
            cmocka_unit_test(test_runpath_origin),
            cmocka_unit_test(test_ld_library_path_first),
            cmocka_unit_test(test_not_elf_stops),
            cmocka_unit_test(test_rpath_and_inheritance),
            cmocka_unit_test(test_direct_and_missing),
            cmocka_unit_test(test_long_paths),
            cmocka_unit_test(test_expand_names),
            cmocka_unit_test(test_isa_level_as_ldso),
            cmocka_unit_test(test_glibc_release),
        };

        return cmocka_run_group_tests(tests, setup, teardown);
}
