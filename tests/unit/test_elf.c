/* Unit tests for the ELF reader: the generated fixtures (gen-elf.sh), the real
 * cuDNN 9 library when present, and malformed images built here. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/elf.h"
#include "formats/loadnames.h"

/* ---- helpers ----------------------------------------------------------- */

static uint32_t get_u32(const uint8_t *b, int big)
{
        if (big)
                return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
        return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

/* Read a 4-byte packed cuDNN version constant through cc_elf_read_vaddr. */
static uint32_t read_version_const(const cc_elf *e, const uint8_t *d, size_t n, const char *name)
{
        const cc_elf_sym *s = cc_elf_find_sym(e, name);
        cc_error err = {0};
        uint8_t b[4];

        if (s == NULL)
                fail_msg("symbol %s not exported", name);
        assert_int_equal(s->type, CC_STT_OBJECT);
        assert_int_equal(s->size, 4);
        if (cc_elf_read_vaddr(e, d, n, s->value, b, 4, &err) != 0)
                fail_msg("read_vaddr(%s): %s", name, err.msg);
        return get_u32(b, e->big_endian);
}

static int has_warning(const cc_elf *e, const char *needle)
{
        size_t i;

        for (i = 0; i < e->warnings.n; i++)
                if (strstr(e->warnings.v[i], needle) != NULL)
                        return 1;
        return 0;
}

/* Load a fixture (relative to $CC_FIXTURES) and parse it; fails the test on error. */
static cc_elf *load(const char *rel, uint8_t **data, size_t *size)
{
        char *path = tu_fixture(rel);
        cc_error err = {0};
        cc_elf *e = NULL;

        *data = tu_read(path, size);
        if (cc_elf_parse(*data, *size, &e, &err) != 0)
                fail_msg("%s: %s", path, err.msg);
        free(path);
        assert_non_null(e);
        return e;
}

#define PACK(M, m, p) ((uint32_t)(((M) << 16) | ((m) << 8) | (p)))

/* ---- fixtures ------------------------------------------------------------- */

struct fx_case {
        const char *file;
        int optional; /* skip if missing (the 32-bit gcc build) */
        int bits, big;
        uint16_t machine;
        const char *soname;
        const char *needed[4];
        const char *rpath, *runpath;
        int nodeflib;
        const char *exports[6];
        const char *not_exported[3];
        const char *vconst;
        uint32_t vvalue;
};

static const struct fx_case fx_cases[] = {
    {"elf/libfx_dep.so.2",
     0,
     64,
     0,
     CC_EM_X86_64,
     "libfx_dep.so.2",
     {"libfx_base.so.1", "libfx_other.so.3"},
     NULL,
     "$ORIGIN:/opt/fx/lib",
     1,
     {"fx_dep_fn", "fx_dep_weak", "fx_dep_protected"},
     {"fx_dep_hidden", "fx_dep_static", "fx_base_fn"},
     NULL,
     0},
    {"elf/libfx_rpath.so",
     0,
     64,
     0,
     CC_EM_X86_64,
     "libfx_rpath.so",
     {"libfx_other.so.3", "libfx_base.so.1"},
     "/opt/old/lib:$ORIGIN/../lib",
     NULL,
     0,
     {"fx_dep_fn"},
     {"fx_dep_hidden"},
     NULL,
     0},
    {"elf/libfx_base.so.1",
     0,
     64,
     0,
     CC_EM_X86_64,
     "libfx_base.so.1",
     {NULL},
     NULL,
     NULL,
     0,
     {"fx_base_fn", "fx_base_data"},
     {NULL},
     NULL,
     0},
    {"elf/libfx_plain.so", 0, 64, 0, CC_EM_X86_64, NULL, {NULL}, NULL, NULL, 0, {"fx_plain_fn"}, {NULL}, NULL, 0},
    {"elf/libfx_ver.so",
     0,
     64,
     0,
     CC_EM_X86_64,
     "libfx_ver.so.9",
     {NULL},
     NULL,
     NULL,
     0,
     {"cudnnGetVersion", "cudnnCreate", "cudnnGetCudartVersion", "cudnnOpsInferVersionCheck",
      "cudnn_ops_infer_version"},
     {NULL},
     "cudnn_graph_version",
     PACK(9, 1, 2)},
    /* section headers removed: symbols counted through DT_GNU_HASH */
    {"elf/libfx_ver-nosect.so",
     0,
     64,
     0,
     CC_EM_X86_64,
     "libfx_ver.so.9",
     {NULL},
     NULL,
     NULL,
     0,
     {"cudnnGetVersion", "cudnnCreate", "cudnnGetCudartVersion", "cudnnOpsInferVersionCheck"},
     {NULL},
     "cudnn_graph_version",
     PACK(9, 1, 2)},
    {"elf/libfx32.so.1",
     1,
     32,
     0,
     CC_EM_386,
     "libfx32.so.1",
     {NULL},
     NULL,
     "/opt/fx32",
     0,
     {"cudnnGetVersion", "cudnnCreate"},
     {NULL},
     "cudnn_ops_infer_version",
     PACK(9, 1, 2)},
    /* cuDNN-shaped installation prefixes */
    {"elf/cudnn7/lib64/libcudnn.so.7",
     0,
     64,
     0,
     CC_EM_X86_64,
     "libcudnn.so.7",
     {NULL},
     NULL,
     NULL,
     0,
     {"cudnnGetVersion", "cudnnGetCudartVersion", "cudnnCreate"},
     {NULL},
     NULL,
     0},
    {"elf/cudnn8/lib64/libcudnn.so.8",
     0,
     64,
     0,
     CC_EM_X86_64,
     "libcudnn.so.8",
     {NULL},
     NULL,
     "$ORIGIN",
     0,
     {"cudnnGetVersion", "cudnnCreate"},
     {NULL},
     NULL,
     0},
    {"elf/cudnn8/lib64/libcudnn_cnn_train.so.8.2.2",
     0,
     64,
     0,
     CC_EM_X86_64,
     "libcudnn_cnn_train.so.8",
     {"libcudnn_cnn_infer.so.8", "libcudnn_ops_train.so.8", "libcudnn_ops_infer.so.8"},
     NULL,
     NULL,
     0,
     {"cudnnCnnTrainVersionCheck"},
     {NULL},
     NULL,
     0},
    {"elf/cudnn9/lib/libcudnn_graph.so.9",
     0,
     64,
     0,
     CC_EM_X86_64,
     "libcudnn_graph.so.9",
     {NULL},
     NULL,
     "$ORIGIN",
     0,
     {"cudnnGraphVersionCheck", "cudnnGetVersion"},
     {NULL},
     "cudnn_graph_version",
     PACK(9, 1, 0)},
    {"elf/cudnn9/lib/libcudnn_ops.so.9.1.0",
     0,
     64,
     0,
     CC_EM_X86_64,
     "libcudnn_ops.so.9",
     {"libcudnn_graph.so.9"},
     NULL,
     "$ORIGIN",
     0,
     {"cudnnOpsVersionCheck"},
     {NULL},
     "cudnn_ops_infer_version",
     PACK(9, 1, 0)},
    {"elf/cudnn9/lib/libcudnn_adv.so",
     0,
     64,
     0,
     CC_EM_X86_64,
     "libcudnn_adv.so.9",
     {"libcudnn_ops.so.9", "libcudnn_graph.so.9"},
     NULL,
     "$ORIGIN",
     0,
     {"cudnnAdvVersionCheck"},
     {NULL},
     "cudnn_adv_infer_version",
     PACK(9, 1, 0)},
    {"elf/cudnn9/lib/libcudnn.so.9",
     0,
     64,
     0,
     CC_EM_X86_64,
     "libcudnn.so.9",
     {NULL},
     NULL,
     "$ORIGIN",
     0,
     {"cudnnGetVersion", "cudnnCreate"},
     {NULL},
     NULL,
     0},
/* crafted byte by byte: both classes, both byte orders, with and without sections */
#define CRAFTED(f, b, be, m)                                                                                           \
        {                                                                                                              \
                "elf/crafted-" f ".so", 0, b, be, m, "libcrafted-" f ".so", {"libcudnn_graph.so.9", "libz.so.1"},      \
                    NULL, "$ORIGIN", 1, {"cudnnGetVersion", "cudnnCreate", "cudnn_graph_version"}, {NULL},             \
                    "cudnn_graph_version", PACK(9, 1, 2)                                                               \
        }
    CRAFTED("le64-x86_64", 64, 0, CC_EM_X86_64),
    CRAFTED("le32-i386", 32, 0, CC_EM_386),
    CRAFTED("be64-ppc64", 64, 1, CC_EM_PPC64),
    CRAFTED("be32-ppc", 32, 1, 20),
    CRAFTED("be64-s390x", 64, 1, CC_EM_S390),
    CRAFTED("le64-aarch64-nosect-gnuhash", 64, 0, CC_EM_AARCH64),
    CRAFTED("le32-arm-nosect-sysvhash", 32, 0, CC_EM_ARM),
    CRAFTED("be32-nosect-gnuhash", 32, 1, 20),
    CRAFTED("le64-riscv", 64, 0, CC_EM_RISCV),
#undef CRAFTED
};

static void test_fixtures(void **state)
{
        size_t i, k;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(fx_cases); i++) {
                const struct fx_case *t = &fx_cases[i];
                char *path = tu_fixture(t->file);
                uint8_t *d;
                size_t n, nneeded = 0;
                cc_elf *e;

                if (t->optional && !tu_exists(path)) {
                        printf("# skipped %s (not generated)\n", t->file);
                        free(path);
                        continue;
                }
                free(path);
                printf("# %s\n", t->file);
                e = load(t->file, &d, &n);
                assert_int_equal(e->bits, t->bits);
                assert_int_equal(e->big_endian, t->big);
                assert_int_equal(e->machine, t->machine);
                assert_int_equal(e->type, CC_ET_DYN);
                assert_true(e->has_dynamic);
                assert_null(e->interp);
                if (t->soname)
                        assert_string_equal(e->soname, t->soname);
                else
                        assert_null(e->soname);
                if (t->rpath)
                        assert_string_equal(e->rpath, t->rpath);
                else
                        assert_null(e->rpath);
                if (t->runpath)
                        assert_string_equal(e->runpath, t->runpath);
                else
                        assert_null(e->runpath);
                while (nneeded < CC_ARRAY_LEN(t->needed) && t->needed[nneeded])
                        nneeded++;
                assert_int_equal(e->needed.n, nneeded);
                for (k = 0; k < nneeded; k++)
                        assert_string_equal(e->needed.v[k], t->needed[k]);
                assert_int_equal((e->flags_1 & CC_DF_1_NODEFLIB) != 0, t->nodeflib);
                for (k = 0; k < CC_ARRAY_LEN(t->exports) && t->exports[k]; k++)
                        if (cc_elf_find_sym(e, t->exports[k]) == NULL)
                                fail_msg("%s: %s not exported", t->file, t->exports[k]);
                for (k = 0; k < CC_ARRAY_LEN(t->not_exported) && t->not_exported[k]; k++)
                        if (cc_elf_find_sym(e, t->not_exported[k]) != NULL)
                                fail_msg("%s: %s exported", t->file, t->not_exported[k]);
                for (k = 0; k < e->nsyms; k++) {
                        assert_int_not_equal(e->syms[k].shndx, 0);
                        assert_true(e->syms[k].bind == 1 || e->syms[k].bind == 2);
                }
                if (t->vconst) {
                        uint32_t v = read_version_const(e, d, n, t->vconst);
                        cudnnctl_ver ver;

                        assert_int_equal(v, t->vvalue);
                        assert_int_equal(cudnnctl_cudnn_decode_packed(v, &ver), 0);
                        assert_int_equal(ver.part[0], (long)(t->vvalue >> 16));
                }
                if (e->warnings.n)
                        fail_msg("%s: unexpected warning: %s", t->file, e->warnings.v[0]);
                cc_elf_free(e);
                free(d);
        }
}

static void test_fixture_exports_exact(void **state)
{
        static const char *const want[] = {"fx_dep_fn", "fx_dep_weak", "fx_dep_protected"};
        const cc_elf_sym *s;
        uint8_t *d;
        size_t n, i, j;
        cc_elf *e = load("elf/libfx_dep.so.2", &d, &n);

        (void)state;
        assert_int_equal(e->nsyms, CC_ARRAY_LEN(want));
        for (i = 0; i < CC_ARRAY_LEN(want); i++) {
                for (j = 0; j < e->nsyms; j++)
                        if (strcmp(e->syms[j].name, want[i]) == 0)
                                break;
                assert_true(j < e->nsyms);
        }
        s = cc_elf_find_sym(e, "fx_dep_weak");
        assert_non_null(s);
        assert_int_equal(s->bind, 2);
        assert_int_equal(s->type, CC_STT_FUNC);
        cc_elf_free(e);
        free(d);
}

/* The same symbols, with and without section headers. */
static void test_nosect_matches_sections(void **state)
{
        uint8_t *d1, *d2;
        size_t n1, n2, i;
        cc_elf *a = load("elf/libfx_ver.so", &d1, &n1);
        cc_elf *b = load("elf/libfx_ver-nosect.so", &d2, &n2);

        (void)state;
        assert_int_equal(a->nsyms, b->nsyms);
        for (i = 0; i < a->nsyms; i++) {
                assert_string_equal(a->syms[i].name, b->syms[i].name);
                assert_int_equal(a->syms[i].value, b->syms[i].value);
        }
        cc_elf_free(a);
        cc_elf_free(b);
        free(d1);
        free(d2);
}

static void test_bss_not_file_backed(void **state)
{
        uint8_t *d, buf[4];
        size_t n;
        cc_error err = {0};
        cc_elf *e = load("elf/libfx_ver.so", &d, &n);
        const cc_elf_sym *s = cc_elf_find_sym(e, "fx_bss_word");

        (void)state;
        assert_non_null(s);
        assert_int_equal(cc_elf_read_vaddr(e, d, n, s->value, buf, 4, &err), -1);
        assert_int_equal(err.code, CC_ERR_NOTFOUND);
        assert_int_equal(cc_elf_read_vaddr(e, d, n, 0xfffffffffff0ull, buf, 4, &err), -1);
        assert_int_equal(err.code, CC_ERR_NOTFOUND);
        cc_elf_free(e);
        free(d);
}

static void test_executable_and_object(void **state)
{
        uint8_t *d;
        size_t n;
        cc_elf *e = load("elf/fx_exe", &d, &n);

        (void)state;
        assert_non_null(e->interp);
        assert_true(e->interp[0] == '/');
        assert_true(e->needed.n >= 1);
        assert_null(e->soname);
        cc_elf_free(e);
        free(d);

        e = load("elf/fx_obj.o", &d, &n);
        assert_int_equal(e->type, CC_ET_REL);
        assert_false(e->has_dynamic);
        assert_int_equal(e->nsyms, 0);
        assert_int_equal(e->nloads, 0);
        assert_null(e->interp);
        cc_elf_free(e);
        free(d);
}

/* Every seed (valid and malformed) parses or fails cleanly. */
static void test_seed_corpus(void **state)
{
        static const char *const bad[] = {"bad-empty",          "bad-magic-only",       "bad-class",
                                          "bad-data",           "bad-truncated-header", "bad-truncated-half",
                                          "bad-phoff-past-end", "bad-huge-phnum",       "bad-phentsize",
                                          "bad-strtab-no-nul",  "bad-needed-offset",    "bad-dynamic-size"};
        static const char *const warn_only[] = {"bad-shoff-past-end", "bad-huge-shnum", "bad-gnuhash-counts"};
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(bad); i++) {
                char rel[128];
                char *path;
                uint8_t *d;
                size_t n;
                cc_elf *e = NULL;
                cc_error err = {0};

                snprintf(rel, sizeof(rel), "seeds/elf/%s", bad[i]);
                path = tu_fixture(rel);
                d = tu_read(path, &n);
                if (cc_elf_parse(d, n, &e, &err) != -1)
                        fail_msg("%s parsed", bad[i]);
                assert_null(e);
                assert_true(err.msg[0] != '\0');
                assert_null(strchr(err.msg, '\n'));
                free(d);
                free(path);
        }
        for (i = 0; i < CC_ARRAY_LEN(warn_only); i++) {
                char rel[128];
                char *path;
                uint8_t *d;
                size_t n;
                cc_elf *e = NULL;
                cc_error err = {0};

                snprintf(rel, sizeof(rel), "seeds/elf/%s", warn_only[i]);
                path = tu_fixture(rel);
                d = tu_read(path, &n);
                if (cc_elf_parse(d, n, &e, &err) != 0)
                        fail_msg("%s: %s", warn_only[i], err.msg);
                assert_true(e->warnings.n > 0);
                assert_int_equal(e->needed.n, 2);
                cc_elf_free(e);
                free(d);
                free(path);
        }
}

/* ---- the real cuDNN 9 -------------------------------------------------------- */

static void test_real_cudnn_graph(void **state)
{
        const char *path = "/usr/local/cuda/lib/libcudnn_graph.so.9";
        cc_error err = {0};
        cudnnctl_ver v;
        char buf[32];
        uint8_t *d;
        size_t n;
        cc_elf *e = NULL;
        uint32_t packed;

        (void)state;
        if (!tu_exists(path))
                skip();
        d = tu_read(path, &n);
        if (cc_elf_parse(d, n, &e, &err) != 0)
                fail_msg("%s: %s", path, err.msg);
        assert_string_equal(e->soname, "libcudnn_graph.so.9");
        assert_int_equal(e->bits, 64);
        packed = read_version_const(e, d, n, "cudnn_graph_version");
        assert_int_equal(cudnnctl_cudnn_decode_packed(packed, &v), 0);
        cudnnctl_ver_str(&v, buf, sizeof(buf));
        assert_string_equal(buf, "9.19.0");
        assert_non_null(cc_elf_find_sym(e, "cudnnGraphVersionCheck"));
        cc_elf_free(e);
        free(d);
}

static int keep_all(void *ctx, const char *name)
{
        (void)ctx;
        (void)name;
        return 1;
}

/* cc_elf_parse_kept: the symbols with the prefix are those the full walk
 * finds with it, in the same order; the others are not counted. */
static void test_parse_kept(void **state)
{
        /* a cuDNN library, system libraries whose string tables hold no "cudnn"
         * (their symbols are not looked at one by one), a fixture */
        static const char *const paths[] = {"/usr/local/cuda/lib/libcudnn_graph.so.9",
                                            "/lib/x86_64-linux-gnu/libc.so.6", "/lib/x86_64-linux-gnu/libstdc++.so.6",
                                            NULL};
        cc_error err = {0};
        uint8_t *d;
        size_t n, i, k, p;
        cc_elf *all = NULL, *kept = NULL;

        (void)state;
        for (p = 0; p < CC_ARRAY_LEN(paths); p++) {
                const char *path = paths[p];

                if (path == NULL) {
                        /* a fixture without one name of the prefix */
                        all = load("elf/libfx_dep.so.2", &d, &n);
                } else {
                        if (!tu_exists(path))
                                continue;
                        d = tu_read(path, &n);
                        if (cc_elf_parse(d, n, &all, &err) != 0)
                                fail_msg("%s: %s", path, err.msg);
                }
                if (cc_elf_parse_kept(d, n, 0, "cudnn", keep_all, NULL, &kept, &err) != 0)
                        fail_msg("%s: %s", path ? path : "libfx_dep.so.2", err.msg);
                assert_true(kept->exports_uncounted);
                assert_false(all->exports_uncounted);
                for (i = k = 0; i < all->nsyms; i++) {
                        if (strncmp(all->syms[i].name, "cudnn", 5) != 0)
                                continue;
                        assert_true(k < kept->nsyms);
                        assert_string_equal(kept->syms[k].name, all->syms[i].name);
                        assert_int_equal(kept->syms[k].value, all->syms[i].value);
                        k++;
                }
                assert_int_equal(k, kept->nsyms);
                assert_int_equal(kept->nexports, kept->nsyms);
                if (path != NULL && strstr(path, "cudnn") != NULL)
                        assert_true(kept->nsyms > 0 && kept->nsyms < all->nexports);
                else
                        assert_int_equal(kept->nsyms, 0);
                /* the same header facts */
                assert_int_equal(kept->needed.n, all->needed.n);
                cc_elf_free(all);
                cc_elf_free(kept);
                all = kept = NULL;
                free(d);
        }
        assert_int_equal(cc_elf_parse_kept((const uint8_t *)"", 0, 0, "", keep_all, NULL, &kept, &err), -1);
        assert_int_equal(err.code, CC_ERR_USAGE);
}

/* ---- malformed images built here ----------------------------------------------- */

/* A small ELF64 little-endian ET_DYN: one PT_LOAD mapping the whole image at
 * vaddr 0 (memsz 0x100 larger: a .bss tail), PT_DYNAMIC, .dynstr, .dynsym,
 * a SysV or GNU hash, .dynamic and section headers. */
#define IMG_MAX 4096
struct img {
        uint8_t b[IMG_MAX];
        size_t size;
        size_t dynstr, dynstr_len, dynsym, hash, rodata, dynamic, ndyn, shoff, shnum;
        size_t off_needed, off_soname, off_runpath, off_sym1, off_sym2;
};

static void p16(uint8_t *p, uint16_t v)
{
        p[0] = (uint8_t)v;
        p[1] = (uint8_t)(v >> 8);
}

static void p32(uint8_t *p, uint32_t v)
{
        p16(p, (uint16_t)v);
        p16(p + 2, (uint16_t)(v >> 16));
}

static void p64(uint8_t *p, uint64_t v)
{
        p32(p, (uint32_t)v);
        p32(p + 4, (uint32_t)(v >> 32));
}

static size_t al8(size_t x)
{
        return (x + 7) & ~(size_t)7;
}

static size_t addstr(struct img *m, const char *s)
{
        size_t o = m->dynstr_len;

        memcpy(m->b + m->dynstr + o, s, strlen(s) + 1);
        m->dynstr_len += strlen(s) + 1;
        return o;
}

static void sym64(uint8_t *p, uint32_t name, uint8_t info, uint16_t shndx, uint64_t value, uint64_t size)
{
        p32(p, name);
        p[4] = info;
        p[5] = 0;
        p16(p + 6, shndx);
        p64(p + 8, value);
        p64(p + 16, size);
}

static void dyn(struct img *m, uint64_t tag, uint64_t val)
{
        p64(m->b + m->dynamic + m->ndyn * 16, tag);
        p64(m->b + m->dynamic + m->ndyn * 16 + 8, val);
        m->ndyn++;
}

static void shdr64(uint8_t *p, uint32_t type, uint64_t off, uint64_t size, uint32_t link, uint64_t entsize)
{
        memset(p, 0, 64);
        p32(p + 4, type);
        p64(p + 16, off); /* sh_addr == offset here */
        p64(p + 24, off);
        p64(p + 32, size);
        p32(p + 40, link);
        p64(p + 56, entsize);
}

static void build(struct img *m, int sections, int gnu)
{
        size_t o;

        memset(m, 0, sizeof(*m));
        o = 64 + 2 * 56;
        m->dynstr = o;
        m->dynstr_len = 1;
        m->off_needed = addstr(m, "libneeded.so.1");
        m->off_soname = addstr(m, "libsoname.so.7");
        m->off_runpath = addstr(m, "$ORIGIN/run");
        m->off_sym1 = addstr(m, "fx_func");
        m->off_sym2 = addstr(m, "fx_version");
        o = al8(m->dynstr + m->dynstr_len);
        m->dynsym = o;
        o += 3 * 24;
        m->hash = o;
        if (gnu) {
                /* nbuckets 1, symoffset 1, bloom 1 word, shift 6; bucket[0] = 1; chain 2 */
                p32(m->b + o, 1);
                p32(m->b + o + 4, 1);
                p32(m->b + o + 8, 1);
                p32(m->b + o + 12, 6);
                p64(m->b + o + 16, ~(uint64_t)0);
                p32(m->b + o + 24, 1);
                p32(m->b + o + 28, 0x1000);
                p32(m->b + o + 32, 0x2001);
                o += 36;
        } else {
                /* nbucket 1, nchain 3, bucket[0] 2, chain 0 0 1 */
                p32(m->b + o, 1);
                p32(m->b + o + 4, 3);
                p32(m->b + o + 8, 2);
                p32(m->b + o + 12, 0);
                p32(m->b + o + 16, 0);
                p32(m->b + o + 20, 1);
                o += 24;
        }
        o = al8(o);
        m->rodata = o;
        p32(m->b + o, PACK(9, 1, 2));
        o += 8;
        sym64(m->b + m->dynsym + 24, (uint32_t)m->off_sym1, 0x12, 1, m->rodata + 4, 1);
        sym64(m->b + m->dynsym + 48, (uint32_t)m->off_sym2, 0x11, 1, m->rodata, 4);
        m->dynamic = o;
        dyn(m, 1, m->off_needed);
        dyn(m, 14, m->off_soname);
        dyn(m, 29, m->off_runpath);
        dyn(m, gnu ? 0x6ffffef5 : 4, m->hash);
        dyn(m, 5, m->dynstr);
        dyn(m, 6, m->dynsym);
        dyn(m, 10, m->dynstr_len);
        dyn(m, 11, 24);
        dyn(m, 0x6ffffffb, CC_DF_1_NODEFLIB);
        dyn(m, 0, 0);
        o += m->ndyn * 16;
        o = al8(o);
        m->shoff = sections ? o : 0;
        m->shnum = sections ? 4 : 0;
        if (sections) {
                /* 0 null, 1 .dynstr, 2 .dynsym, 3 .dynamic */
                shdr64(m->b + o, 0, 0, 0, 0, 0);
                shdr64(m->b + o + 64, 3, m->dynstr, m->dynstr_len, 0, 0);
                shdr64(m->b + o + 128, 11, m->dynsym, 3 * 24, 1, 24);
                shdr64(m->b + o + 192, 6, m->dynamic, m->ndyn * 16, 1, 16);
                o += 4 * 64;
        }
        m->size = o;
        memcpy(m->b,
               "\x7f"
               "ELF\x02\x01\x01",
               7);
        p16(m->b + 16, CC_ET_DYN);
        p16(m->b + 18, CC_EM_X86_64);
        p32(m->b + 20, 1);
        p64(m->b + 32, 64);
        p64(m->b + 40, m->shoff);
        p16(m->b + 52, 64);
        p16(m->b + 54, 56);
        p16(m->b + 56, 2);
        p16(m->b + 58, 64);
        p16(m->b + 60, (uint16_t)m->shnum);
        /* PT_LOAD */
        p32(m->b + 64, 1);
        p64(m->b + 64 + 8, 0);
        p64(m->b + 64 + 16, 0);
        p64(m->b + 64 + 32, m->size);
        p64(m->b + 64 + 40, m->size + 0x100);
        /* PT_DYNAMIC */
        p32(m->b + 120, 2);
        p64(m->b + 120 + 8, m->dynamic);
        p64(m->b + 120 + 16, m->dynamic);
        p64(m->b + 120 + 32, m->ndyn * 16);
        p64(m->b + 120 + 40, m->ndyn * 16);
}

/* The value field of the i-th dynamic entry. */
static uint8_t *dynval(struct img *m, size_t i)
{
        return m->b + m->dynamic + i * 16 + 8;
}

/* Parse m->b[0..size) from a heap copy of exactly that size, so ASan sees any
 * over-read. */
static int parse_img(const struct img *m, size_t size, cc_elf **e, cc_error *err)
{
        uint8_t *copy = malloc(size ? size : 1);
        int rc;

        assert_non_null(copy);
        memcpy(copy, m->b, size);
        rc = cc_elf_parse(copy, size, e, err);
        free(copy);
        return rc;
}

static void check_good(const cc_elf *e)
{
        assert_string_equal(e->soname, "libsoname.so.7");
        assert_string_equal(e->runpath, "$ORIGIN/run");
        assert_null(e->rpath);
        assert_int_equal(e->needed.n, 1);
        assert_string_equal(e->needed.v[0], "libneeded.so.1");
        assert_int_equal(e->flags_1, CC_DF_1_NODEFLIB);
}

static void test_built_valid(void **state)
{
        static const int variants[][2] = {{1, 0}, {1, 1}, {0, 0}, {0, 1}};
        struct img m;
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(variants); i++) {
                cc_error err = {0};
                cc_elf *e = NULL;
                const cc_elf_sym *s;
                uint8_t buf[4];

                build(&m, variants[i][0], variants[i][1]);
                if (cc_elf_parse(m.b, m.size, &e, &err) != 0)
                        fail_msg("variant %zu: %s", i, err.msg);
                check_good(e);
                assert_int_equal(e->warnings.n, 0);
                assert_int_equal(e->nsyms, 2);
                assert_string_equal(e->syms[0].name, "fx_func");
                assert_string_equal(e->syms[1].name, "fx_version");
                assert_int_equal(e->nloads, 1);
                s = cc_elf_find_sym(e, "fx_version");
                assert_non_null(s);
                assert_int_equal(cc_elf_read_vaddr(e, m.b, m.size, s->value, buf, 4, &err), 0);
                assert_int_equal(get_u32(buf, 0), PACK(9, 1, 2));
                /* the .bss tail is mapped but not file-backed */
                assert_int_equal(cc_elf_read_vaddr(e, m.b, m.size, m.size + 0x10, buf, 4, &err), -1);
                assert_int_equal(err.code, CC_ERR_NOTFOUND);
                /* straddling the end of the file bytes */
                assert_int_equal(cc_elf_read_vaddr(e, m.b, m.size, m.size - 2, buf, 4, &err), -1);
                assert_int_equal(cc_elf_read_vaddr(e, m.b, m.size, m.size - 4, buf, 4, &err), 0);
                /* beyond every segment */
                assert_int_equal(cc_elf_read_vaddr(e, m.b, m.size, UINT64_MAX, buf, 4, &err), -1);
                assert_int_equal(cc_elf_read_vaddr(e, m.b, m.size - 100, 0x0, buf, 4, &err), 0);
                assert_int_equal(cc_elf_read_vaddr(e, m.b, m.size - 100, m.size - 8, buf, 4, &err), -1);
                assert_int_equal(err.code, CC_ERR_TRUNCATED);
                cc_elf_free(e);
        }
}

static void expect_fail(const struct img *m, size_t size, int code, const char *needle)
{
        cc_error err = {0};
        cc_elf *e = (cc_elf *)&err; /* must be reset to NULL */

        if (parse_img(m, size, &e, &err) != -1)
                fail_msg("parsed, expected failure with \"%s\"", needle);
        assert_null(e);
        if (code)
                assert_int_equal(err.code, code);
        if (strstr(err.msg, needle) == NULL)
                fail_msg("error \"%s\" does not mention \"%s\"", err.msg, needle);
}

static cc_elf *expect_warn(const struct img *m, const char *needle)
{
        cc_error err = {0};
        cc_elf *e = NULL;

        if (parse_img(m, m->size, &e, &err) != 0)
                fail_msg("failed: %s", err.msg);
        if (!has_warning(e, needle))
                fail_msg("no warning mentions \"%s\" (%zu warnings)", needle, e->warnings.n);
        return e;
}

static void test_empty_and_magic(void **state)
{
        static const uint8_t magic[] = {0x7f, 'E', 'L', 'F'};
        static const uint8_t notelf[] = {'M', 'Z', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        cc_error err = {0};
        cc_elf *e = NULL;
        uint8_t one = 0;

        (void)state;
        assert_int_equal(cc_elf_parse(&one, 0, &e, &err), -1);
        assert_int_equal(err.code, CC_ERR_TRUNCATED);
        assert_null(e);
        assert_int_equal(cc_elf_parse(NULL, 0, &e, &err), -1);
        assert_int_equal(cc_elf_parse(magic, sizeof(magic), &e, &err), -1);
        assert_int_equal(err.code, CC_ERR_TRUNCATED);
        assert_int_equal(cc_elf_parse(notelf, sizeof(notelf), &e, &err), -1);
        assert_int_equal(err.code, CC_ERR_FORMAT);
        assert_int_equal(cc_elf_parse(magic, sizeof(magic), NULL, &err), -1);
        assert_int_equal(err.code, CC_ERR_USAGE);
        assert_true(cc_elf_is(magic, sizeof(magic)));
        assert_false(cc_elf_is(magic, 3));
        assert_false(cc_elf_is(notelf, sizeof(notelf)));
        assert_false(cc_elf_is(NULL, 10));
}

static void test_truncated_everywhere(void **state)
{
        static const int variants[][2] = {{1, 0}, {0, 1}};
        struct img m;
        size_t v, len;

        (void)state;
        for (v = 0; v < CC_ARRAY_LEN(variants); v++) {
                size_t dyn_end;

                build(&m, variants[v][0], variants[v][1]);
                dyn_end = m.dynamic + m.ndyn * 16;
                for (len = 0; len < m.size; len++) {
                        cc_error err = {0};
                        cc_elf *e = NULL;
                        int rc = parse_img(&m, len, &e, &err);

                        if (len < dyn_end) {
                                if (rc != -1)
                                        fail_msg("length %zu parsed", len);
                                assert_null(e);
                                assert_true(err.msg[0] != '\0');
                        } else {
                                /* only section headers are cut off */
                                if (rc != 0)
                                        fail_msg("length %zu: %s", len, err.msg);
                                check_good(e);
                                assert_true(e->warnings.n > 0);
                                cc_elf_free(e);
                        }
                }
        }
}

static void test_header_fields(void **state)
{
        struct img m;
        cc_elf *e;

        (void)state;
        build(&m, 1, 0);
        m.b[4] = 3;
        expect_fail(&m, m.size, CC_ERR_FORMAT, "class");
        build(&m, 1, 0);
        m.b[5] = 0;
        expect_fail(&m, m.size, CC_ERR_FORMAT, "data encoding");
        build(&m, 1, 0);
        m.b[6] = 2;
        expect_fail(&m, m.size, CC_ERR_FORMAT, "version");
        build(&m, 1, 0);
        p16(m.b + 54, 32);
        expect_fail(&m, m.size, CC_ERR_FORMAT, "e_phentsize");
        build(&m, 1, 0);
        p64(m.b + 32, 0x7fffffff);
        expect_fail(&m, m.size, CC_ERR_TRUNCATED, "program headers");
        build(&m, 1, 0);
        p64(m.b + 32, UINT64_MAX - 8);
        expect_fail(&m, m.size, CC_ERR_TRUNCATED, "program headers");
        build(&m, 1, 0);
        p16(m.b + 56, 0xfffe);
        expect_fail(&m, m.size, CC_ERR_TRUNCATED, "program headers");
        /* PN_XNUM without section headers */
        build(&m, 0, 0);
        p16(m.b + 56, 0xffff);
        expect_fail(&m, m.size, CC_ERR_FORMAT, "PN_XNUM");
        /* PN_XNUM with the real count in section 0's sh_info */
        build(&m, 1, 0);
        p16(m.b + 56, 0xffff);
        p32(m.b + m.shoff + 44, 2);
        {
                cc_error err = {0};

                e = NULL;
                if (parse_img(&m, m.size, &e, &err) != 0)
                        fail_msg("PN_XNUM: %s", err.msg);
                check_good(e);
                assert_int_equal(e->warnings.n, 0);
                cc_elf_free(e);
        }
        build(&m, 1, 0);
        p16(m.b + 56, 0xffff);
        p32(m.b + m.shoff + 44, 0x7fffffff);
        expect_fail(&m, m.size, CC_ERR_LIMIT, "program headers");

        /* section header problems are warnings: the loader does not need them */
        build(&m, 1, 0);
        p64(m.b + 40, 0x7fffffff);
        e = expect_warn(&m, "section headers");
        check_good(e);
        assert_int_equal(e->nsyms, 2); /* through DT_HASH */
        cc_elf_free(e);
        build(&m, 1, 0);
        p64(m.b + 40, UINT64_MAX - 16);
        e = expect_warn(&m, "section headers");
        cc_elf_free(e);
        build(&m, 1, 0);
        p16(m.b + 60, 0xfffe);
        e = expect_warn(&m, "section headers");
        check_good(e);
        cc_elf_free(e);
        build(&m, 1, 0);
        p16(m.b + 58, 12);
        e = expect_warn(&m, "e_shentsize");
        check_good(e);
        cc_elf_free(e);
        /* extended section count in section 0's sh_size, absurd */
        build(&m, 1, 0);
        p16(m.b + 60, 0);
        p64(m.b + m.shoff + 32, UINT64_MAX);
        e = expect_warn(&m, "section headers");
        check_good(e);
        cc_elf_free(e);
}

static void test_dynamic_problems(void **state)
{
        struct img m;
        cc_elf *e;
        size_t i;

        (void)state;
        /* dynamic segment whose size overflows / runs past the end */
        build(&m, 1, 0);
        p64(m.b + 120 + 32, UINT64_MAX - 7);
        expect_fail(&m, m.size, CC_ERR_TRUNCATED, "PT_DYNAMIC");
        build(&m, 1, 0);
        p64(m.b + 120 + 8, UINT64_MAX - 7);
        expect_fail(&m, m.size, CC_ERR_TRUNCATED, "PT_DYNAMIC");
        /* no DT_NULL: bounded by the segment, warned */
        build(&m, 1, 0);
        p64(m.b + 120 + 32, (m.ndyn - 1) * 16);
        e = expect_warn(&m, "DT_NULL");
        check_good(e);
        cc_elf_free(e);
        /* DT_STRTAB outside every PT_LOAD: section sh_link fallback, else error */
        build(&m, 1, 0);
        p64(dynval(&m, 4), 0x10000000);
        e = expect_warn(&m, "DT_STRTAB");
        check_good(e);
        cc_elf_free(e);
        build(&m, 0, 0);
        p64(dynval(&m, 4), 0x10000000);
        expect_fail(&m, m.size, CC_ERR_FORMAT, "DT_STRTAB");
        /* string table without a NUL */
        build(&m, 1, 0);
        for (i = 0; i < m.dynstr_len; i++)
                m.b[m.dynstr + i] = 'A';
        expect_fail(&m, m.size, CC_ERR_FORMAT, "NUL-terminated");
        /* DT_STRSZ cuts the last strings off */
        build(&m, 1, 0);
        p64(dynval(&m, 6), m.off_runpath + 3);
        expect_fail(&m, m.size, CC_ERR_FORMAT, "DT_RUNPATH");
        /* DT_STRSZ larger than the segment: clamped with a warning */
        build(&m, 1, 0);
        p64(dynval(&m, 6), UINT64_MAX);
        e = expect_warn(&m, "DT_STRSZ");
        check_good(e);
        cc_elf_free(e);
        /* DT_NEEDED / DT_SONAME offsets past the table */
        build(&m, 1, 0);
        p64(dynval(&m, 0), 0x100000);
        expect_fail(&m, m.size, CC_ERR_FORMAT, "DT_NEEDED");
        build(&m, 1, 0);
        p64(dynval(&m, 0), UINT64_MAX);
        expect_fail(&m, m.size, CC_ERR_FORMAT, "DT_NEEDED");
        build(&m, 1, 0);
        p64(dynval(&m, 1), m.dynstr_len);
        expect_fail(&m, m.size, CC_ERR_FORMAT, "DT_SONAME");
        /* two SONAMEs: the first wins, with a warning */
        build(&m, 1, 0);
        p64(m.b + m.dynamic + 8 * 16, 14);
        p64(dynval(&m, 8), m.off_needed);
        e = expect_warn(&m, "DT_SONAME");
        assert_string_equal(e->soname, "libsoname.so.7");
        cc_elf_free(e);
        /* PT_LOAD past the end: a warning only */
        build(&m, 1, 0);
        p64(m.b + 64 + 32, 0x7fffffff);
        p64(m.b + 64 + 40, 0x7fffffff);
        e = expect_warn(&m, "PT_LOAD");
        check_good(e);
        cc_elf_free(e);
}

static void test_hash_problems(void **state)
{
        struct img m;
        cc_elf *e;

        (void)state;
        /* GNU hash with absurd counts, no section headers: symbols are lost,
         * the rest is read */
        build(&m, 0, 1);
        p32(m.b + m.hash, 0xffffffff);
        e = expect_warn(&m, "DT_GNU_HASH");
        check_good(e);
        assert_int_equal(e->nsyms, 0);
        cc_elf_free(e);
        build(&m, 0, 1);
        p32(m.b + m.hash + 8, 0xffffffff);
        e = expect_warn(&m, "DT_GNU_HASH");
        assert_int_equal(e->nsyms, 0);
        cc_elf_free(e);
        /* a chain that never ends runs into the end of the file: move the
         * table to the very end of the image */
        build(&m, 0, 1);
        memcpy(m.b + m.size, m.b + m.hash, 32);
        p32(m.b + m.size + 32, 0x2000);
        p64(dynval(&m, 3), m.size);
        m.size += 36;
        p64(m.b + 64 + 32, m.size);
        p64(m.b + 64 + 40, m.size);
        e = expect_warn(&m, "chain");
        assert_int_equal(e->nsyms, 0);
        check_good(e);
        cc_elf_free(e);
        /* bucket below symoffset */
        build(&m, 0, 1);
        p32(m.b + m.hash + 4, 5);
        e = expect_warn(&m, "symoffset");
        cc_elf_free(e);
        /* SysV nchain far larger than the file: clamped, warned */
        build(&m, 0, 0);
        p32(m.b + m.hash + 4, 0xffffffff);
        e = expect_warn(&m, "do not fit");
        check_good(e);
        assert_true(e->nsyms >= 2);
        cc_elf_free(e);
        /* hash table outside the file */
        build(&m, 0, 0);
        p64(dynval(&m, 3), 0x7fffffff);
        e = expect_warn(&m, "DT_HASH");
        assert_int_equal(e->nsyms, 0);
        cc_elf_free(e);
        /* symbol names outside the string table are skipped */
        build(&m, 1, 0);
        p32(m.b + m.dynsym + 24, 0x7fffffff);
        e = expect_warn(&m, "names outside");
        assert_int_equal(e->nsyms, 1);
        assert_string_equal(e->syms[0].name, "fx_version");
        cc_elf_free(e);
}

/* More than 4096 DT_NEEDED entries: a limit error, not an allocation. */
static void test_needed_cap(void **state)
{
        struct img m;
        const size_t nent = 4099; /* DT_STRTAB, 4097 x DT_NEEDED, DT_NULL */
        size_t size, i, dynoff;
        uint8_t *big;
        cc_error err = {0};
        cc_elf *e = NULL;

        (void)state;
        build(&m, 0, 0);
        dynoff = al8(m.size);
        size = dynoff + nent * 16;
        big = calloc(1, size);
        assert_non_null(big);
        memcpy(big, m.b, m.size);
        for (i = 0; i + 1 < nent; i++) {
                p64(big + dynoff + i * 16, 1);
                p64(big + dynoff + i * 16 + 8, m.off_needed);
        }
        p64(big + dynoff + 0 * 16, 5); /* DT_STRTAB first */
        p64(big + dynoff + 0 * 16 + 8, m.dynstr);
        p64(big + 64 + 32, size);
        p64(big + 64 + 40, size);
        p64(big + 120 + 8, dynoff);
        p64(big + 120 + 32, nent * 16);
        assert_int_equal(cc_elf_parse(big, size, &e, &err), -1);
        assert_int_equal(err.code, CC_ERR_LIMIT);
        assert_null(e);
        /* 4096 are fine */
        p64(big + dynoff + 4097 * 16, 0);
        assert_int_equal(cc_elf_parse(big, size, &e, &err), 0);
        assert_int_equal(e->needed.n, 4096);
        assert_string_equal(e->needed.v[4095], "libneeded.so.1");
        cc_elf_free(e);
        free(big);
}

static void test_names_and_null(void **state)
{
        cc_error err = {0};
        uint8_t b[4];

        (void)state;
        assert_string_equal(cc_elf_machine_name(CC_EM_X86_64), "x86-64");
        assert_string_equal(cc_elf_machine_name(CC_EM_386), "i386");
        assert_string_equal(cc_elf_machine_name(CC_EM_AARCH64), "AArch64");
        assert_string_equal(cc_elf_machine_name(CC_EM_ARM), "ARM");
        assert_string_equal(cc_elf_machine_name(CC_EM_PPC64), "PowerPC64");
        assert_string_equal(cc_elf_machine_name(CC_EM_S390), "s390");
        assert_string_equal(cc_elf_machine_name(CC_EM_RISCV), "RISC-V");
        assert_null(cc_elf_machine_name(0xbeef));
        assert_string_equal(cc_elf_type_name(CC_ET_DYN), "shared object");
        assert_string_equal(cc_elf_type_name(CC_ET_EXEC), "executable");
        assert_string_equal(cc_elf_type_name(CC_ET_REL), "relocatable");
        assert_string_equal(cc_elf_type_name(CC_ET_CORE), "core");
        assert_null(cc_elf_type_name(77));
        cc_elf_free(NULL);
        assert_null(cc_elf_find_sym(NULL, "x"));
        assert_int_equal(cc_elf_read_vaddr(NULL, b, 4, 0, b, 4, &err), -1);
        assert_int_equal(err.code, CC_ERR_USAGE);
}

struct lea_hits {
        size_t n, at[256];
};

static int lea_hit(void *ctx, size_t at)
{
        struct lea_hits *h = ctx;

        if (h->n < CC_ARRAY_LEN(h->at))
                h->at[h->n] = at;
        h->n++;
        return 0;
}

static int stop_hit(void *ctx, size_t at)
{
        (void)at;
        ++*(size_t *)ctx;
        return -1;
}

/* The lea at k of buf, if one is there: 1 and the address it loads. */
static int lea_at(const uint8_t *b, size_t n, size_t k, uint64_t vaddr, uint64_t *target)
{
        uint32_t d;

        if (k < 1 || k + 6 > n || b[k] != 0x8d || (b[k - 1] & 0xfb) != 0x48 || (b[k + 1] & 0xc7) != 0x05)
                return 0;
        d = (uint32_t)b[k + 2] | (uint32_t)b[k + 3] << 8 | (uint32_t)b[k + 4] << 16 | (uint32_t)b[k + 5] << 24;
        *target = vaddr + k + 6 + (uint64_t)(int64_t)(int32_t)d;
        return 1;
}

/* cc_lea_rip_scan finds, for a target, exactly the leas a plain
 * byte-by-byte search finds, in order: over 1 MiB of noise with 400 leas
 * planted to four targets (forward and back, across the 64 KiB runs the
 * scan works in, and at both edges of those runs), for those targets, for the target of every lea the noise
 * holds by chance, and for addresses no lea loads; a hit that gives -1 ends
 * the scan. */
static void test_lea_scan(void **state)
{
        const size_t n = (size_t)1 << 20;
        const uint64_t vaddr = 0x7f0000401000ull;
        const uint64_t planted[] = {vaddr + 0x123456, vaddr - 0x2000, vaddr + n / 2 + 3, vaddr + n + 0x70000};
        uint8_t *b = malloc(n);
        uint64_t *all = malloc(n / 4 * sizeof(*all)), x = 88172645463325252ull, t;
        size_t *pos = malloc(n / 4 * sizeof(*pos)), i, k, nall = 0, stops = 0, checked = 0;

        (void)state;
        assert_non_null(b);
        assert_non_null(all);
        assert_non_null(pos);
        for (i = 0; i < n; i++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
                b[i] = (uint8_t)(x >> 24);
        }
        for (i = 0; i < 400; i++) {
                uint32_t d;

                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                k = 1 + (size_t)(x % (n - 7));
                b[k - 1] = (x >> 40) & 1 ? 0x4c : 0x48;
                b[k] = 0x8d;
                b[k + 1] = (uint8_t)(0x05 | (((x >> 41) & 7) << 3));
                d = (uint32_t)(planted[i % 4] - (vaddr + k + 6));
                memcpy(b + k + 2, (uint8_t[4]){(uint8_t)d, (uint8_t)(d >> 8), (uint8_t)(d >> 16), (uint8_t)(d >> 24)},
                       4);
        }
        /* and at the edges of the runs: the last offset of one (where the
         * disp planted[0] needs has its low 16 bits 0) and the first of the next */
        for (i = 0; i < 16; i++) {
                uint32_t c = (uint32_t)(planted[0] - vaddr - 6), d;

                k = (c & 0xffff) + i * 0x10000 + (i & 1);
                if (k < 1 || k + 6 > n)
                        continue;
                d = (uint32_t)(planted[0] - (vaddr + k + 6));
                b[k - 1] = 0x48;
                b[k] = 0x8d;
                b[k + 1] = 0x05;
                memcpy(b + k + 2, (uint8_t[4]){(uint8_t)d, (uint8_t)(d >> 8), (uint8_t)(d >> 16), (uint8_t)(d >> 24)},
                       4);
        }
        for (k = 0; k < n; k++)
                if (lea_at(b, n, k, vaddr, &t)) {
                        pos[nall] = k;
                        all[nall++] = t;
                }
        assert_true(nall >= 350); /* the planted ones (a few written over) and chance ones */
        for (i = 0; i < nall + CC_ARRAY_LEN(planted) + 3; i++) {
                uint64_t target = i < CC_ARRAY_LEN(planted)          ? planted[i]
                                  : i < CC_ARRAY_LEN(planted) + nall ? all[i - CC_ARRAY_LEN(planted)]
                                                                     : vaddr + 0x10000 * i + 1;
                struct lea_hits got = {0}, want = {0};

                if (i >= CC_ARRAY_LEN(planted) + 200 && i < CC_ARRAY_LEN(planted) + nall)
                        continue; /* enough of the chance ones */
                for (k = 0; k < nall; k++)
                        if (all[k] == target)
                                (void)lea_hit(&want, pos[k]);
                assert_int_equal(cc_lea_rip_scan(b, n, vaddr, target, lea_hit, &got), 0);
                assert_int_equal(got.n, want.n);
                assert_memory_equal(got.at, want.at, (got.n < 256 ? got.n : 256) * sizeof(got.at[0]));
                if (i < CC_ARRAY_LEN(planted))
                        assert_true(got.n >= 90);
                if (want.n > 0) {
                        assert_int_equal(cc_lea_rip_scan(b, n, vaddr, target, stop_hit, &stops), -1);
                        checked++;
                }
        }
        assert_int_equal(stops, checked); /* one call each, stopped at its first hit */
        /* too short for a lea: nothing, no read past the end */
        assert_int_equal(cc_lea_rip_scan(b, 6, vaddr, vaddr, lea_hit, &(struct lea_hits){0}), 0);
        assert_int_equal(cc_lea_rip_scan(b, 0, vaddr, vaddr, lea_hit, &(struct lea_hits){0}), 0);
        free(pos);
        free(all);
        free(b);
}

/* The release cuDNN's loading code names its libraries by (loadnames.h):
 * read from a compiled shim (gen-elf.sh's libfx_loadnames.so, 9.14.0); no
 * answer when its constants disagree, on another machine, or from a library
 * without such a call. */
static void test_load_release(void **state)
{
        uint8_t *data;
        size_t size, i, n = 0;
        cc_elf *e = load("elf/libfx_loadnames.so", &data, &size);
        int rel[3] = {0, 0, 0};

        (void)state;
        assert_true(e->text_size > 0); /* the code is read from .text */
        assert_int_equal(cc_elf_load_release(e, data, size, rel), 0);
        assert_int_equal(rel[0], 9);
        assert_int_equal(rel[1], 14);
        assert_int_equal(rel[2], 0);
        {
                uint64_t off = e->text_off, len = e->text_size;

                /* without section headers, every segment: the same answer */
                e->text_size = 0;
                memset(rel, 0, sizeof(rel));
                assert_int_equal(cc_elf_load_release(e, data, size, rel), 0);
                assert_int_equal(rel[1], 14);
                /* .text only: none of the calls in a .text said to be the ELF header */
                e->text_off = 0;
                e->text_size = 64;
                assert_int_equal(cc_elf_load_release(e, data, size, rel), -1);
                e->text_off = off;
                e->text_size = len;
        }
        /* what the code says, not a guess: the full-name call's minor made 15 */
        for (i = 0; i + 6 <= size; i++)
                if (data[i] == 0x41 && data[i + 1] == 0xb9 && data[i + 2] == 14 && n++ == 0)
                        data[i + 2] = 15;
        assert_true(n >= 1);
        assert_int_equal(cc_elf_load_release(e, data, size, rel), 0);
        assert_int_equal(rel[1], 15);
        /* two values for one argument around the call: no answer */
        for (i = 0; i + 6 <= size; i++)
                if (data[i] == 0x41 && data[i + 1] == 0xb8 && data[i + 2] == 9) {
                        data[i + 1] = 0xb9; /* mov r9d, 9 beside mov r9d, 15 */
                        break;
                }
        assert_int_equal(cc_elf_load_release(e, data, size, rel), -1);
        e->machine = CC_EM_AARCH64;
        assert_int_equal(cc_elf_load_release(e, data, size, rel), -1);
        cc_elf_free(e);
        free(data);
        e = load("elf/libfx_ver.so", &data, &size);
        assert_int_equal(cc_elf_load_release(e, data, size, rel), -1);
        cc_elf_free(e);
        free(data);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_lea_scan),
            cmocka_unit_test(test_load_release),
            cmocka_unit_test(test_fixtures),
            cmocka_unit_test(test_fixture_exports_exact),
            cmocka_unit_test(test_nosect_matches_sections),
            cmocka_unit_test(test_bss_not_file_backed),
            cmocka_unit_test(test_executable_and_object),
            cmocka_unit_test(test_seed_corpus),
            cmocka_unit_test(test_real_cudnn_graph),
            cmocka_unit_test(test_parse_kept),
            cmocka_unit_test(test_built_valid),
            cmocka_unit_test(test_empty_and_magic),
            cmocka_unit_test(test_truncated_everywhere),
            cmocka_unit_test(test_header_fields),
            cmocka_unit_test(test_dynamic_problems),
            cmocka_unit_test(test_hash_problems),
            cmocka_unit_test(test_needed_cap),
            cmocka_unit_test(test_names_and_null),
        };

        return cmocka_run_group_tests_name("elf", tests, NULL, NULL);
}
