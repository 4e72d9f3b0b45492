/* Unit tests for the PE/COFF reader and the COFF import library reader:
 * the fixtures built by tests/fixtures/gen-pe.sh, then malformed images and
 * archives built here byte by byte. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pe.h"

/* ---- helpers ------------------------------------------------------------------ */

static uint8_t *load(const char *rel, size_t *size)
{
        char *path = tu_fixture(rel);
        uint8_t *data = tu_read(path, size);

        free(path);
        return data;
}

static cc_pe *parse_fixture(const char *rel)
{
        cc_error err = {0};
        cc_pe *pe = NULL;
        size_t size;
        uint8_t *data = load(rel, &size);

        assert_true(cc_pe_is(data, size));
        if (cc_pe_parse(data, size, &pe, &err) < 0)
                fail_msg("%s: %s", rel, err.msg);
        free(data);
        assert_non_null(pe);
        return pe;
}

static void assert_strv(const cc_strv *sv, const char *const *want)
{
        size_t i;

        for (i = 0; want[i] != NULL; i++) {
                if (i >= sv->n)
                        fail_msg("missing \"%s\" (only %zu entries)", want[i], sv->n);
                assert_string_equal(sv->v[i], want[i]);
        }
        assert_int_equal(sv->n, i);
}

static void ver_str(uint32_t ms, uint32_t ls, char *buf, size_t size)
{
        snprintf(buf, size, "%u.%u.%u.%u", (unsigned)(ms >> 16), (unsigned)(ms & 0xFFFF), (unsigned)(ls >> 16),
                 (unsigned)(ls & 0xFFFF));
}

static int has_warning(const cc_pe *pe, const char *needle)
{
        size_t i;

        for (i = 0; i < pe->warnings.n; i++)
                if (strstr(pe->warnings.v[i], needle) != NULL)
                        return 1;
        return 0;
}

static void put16(uint8_t *p, uint16_t v)
{
        p[0] = (uint8_t)v;
        p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
        put16(p, (uint16_t)v);
        put16(p + 2, (uint16_t)(v >> 16));
}

/* ---- fixtures: headers, imports, exports, fixed version ------------------------------ */

struct pe_case {
        const char *path;
        uint16_t machine;
        const char *machine_name;
        int is_dll;
        int pe32plus;
        const char *imports[8];
        const char *delay[4];
        const char *export_name;
        const char *exports[8];
        size_t ordinal_only;
        const char *file_version; /* NULL: no version resource */
        const char *product_version;
        size_t nstrings;
};

static const struct pe_case pe_cases[] = {
    {"pe/cudnn7/bin/cudnn64_7.dll",
     0x8664,
     "x64",
     1,
     1,
     {"KERNEL32.dll", "cublas64_10.dll", NULL},
     {NULL},
     "cudnn64_7.dll",
     {"cudnnCreate", "cudnnDestroy", "cudnnGetCudartVersion", "cudnnGetErrorString", "cudnnGetVersion", NULL},
     0,
     "7.6.5.32",
     "7.6.5.32",
     8},
    {"pe/cudnn8/bin/cudnn64_8.dll",
     0x8664,
     "x64",
     1,
     1,
     {"KERNEL32.dll", NULL},
     {NULL},
     "cudnn64_8.dll",
     {"cudnnCreate", "cudnnDestroy", "cudnnGetCudartVersion", "cudnnGetErrorString", "cudnnGetVersion", NULL},
     0,
     "8.2.2.26",
     "8.2.2.26",
     8},
    {"pe/cudnn8/bin/cudnn_ops_infer64_8.dll",
     0x8664,
     "x64",
     1,
     1,
     {"KERNEL32.dll", "cublas64_11.dll", "cublasLt64_11.dll", NULL},
     {NULL},
     "cudnn_ops_infer64_8.dll",
     {"cudnnCreateTensorDescriptor", "cudnnOpsInferVersionCheck", "cudnnSetTensor4dDescriptor", NULL},
     0,
     "8.2.2.26",
     "8.2.2.26",
     8},
    {"pe/cudnn8/bin/cudnn_cnn_infer64_8.dll",
     0x8664,
     "x64",
     1,
     1,
     {"KERNEL32.dll", "cublasLt64_11.dll", "cudnn_ops_infer64_8.dll", NULL},
     {NULL},
     "cudnn_cnn_infer64_8.dll",
     {"cudnnCnnInferVersionCheck", "cudnnConvolutionForward", "cudnnCreateConvolutionDescriptor", NULL},
     0,
     "8.2.2.26",
     "8.2.2.26",
     8},
    {"pe/cudnn9/bin/cudnn64_9.dll",
     0x8664,
     "x64",
     1,
     1,
     {"KERNEL32.dll", NULL},
     {NULL},
     "cudnn64_9.dll",
     {"cudnnCreate", "cudnnDestroy", "cudnnGetErrorString", "cudnnGetMaxDeviceVersion", "cudnnGetVersion", NULL},
     1,
     "9.1.0.70",
     "9.1.0.70",
     11},
    /* lld-link keeps the import order of its inputs */
    {"pe/cudnn9/bin/cudnn_graph64_9.dll",
     0x8664,
     "x64",
     1,
     1,
     {"cublasLt64_12.dll", "zlibwapi.dll", "KERNEL32.dll", NULL},
     {"nvrtc64_120_0.dll", NULL},
     "cudnn_graph64_9.dll",
     {"cudnnBackendCreateDescriptor", "cudnnCreate", "cudnnGetMaxDeviceVersion", "cudnnGetVersion",
      "cudnnGraphVersionCheck", NULL},
     0,
     "9.1.0.70",
     "9.1.0.70",
     8},
    {"pe/cudnn9/bin/cudnn_ops64_9.dll",
     0x8664,
     "x64",
     1,
     1,
     {"KERNEL32.dll", "cudnn_graph64_9.dll", NULL},
     {NULL},
     "cudnn_ops64_9.dll",
     {"cudnnAddTensor", "cudnnCreateTensorDescriptor", "cudnnOpsVersionCheck", NULL},
     0,
     "9.1.0.70",
     "9.1.0.70",
     8},
    {"pe/deps/zlibwapi.dll",
     0x8664,
     "x64",
     1,
     1,
     {"KERNEL32.dll", NULL},
     {NULL},
     "zlibwapi.dll",
     {"compress2", "uncompress", "zlibVersion", NULL},
     0,
     NULL,
     NULL,
     0},
    {"pe/misc/app.exe",
     0x8664,
     "x64",
     0,
     1,
     {"KERNEL32.dll", "cublasLt64_12.dll", "cudnn64_9.dll", NULL},
     {NULL},
     NULL,
     {NULL},
     0,
     NULL,
     NULL,
     0},
    {"pe/misc/arm64/cudnn64_9.dll",
     0xaa64,
     "arm64",
     1,
     1,
     {"KERNEL32.dll", NULL},
     {NULL},
     "cudnn64_9.dll",
     {"cudnnCreate", "cudnnDestroy", "cudnnGetErrorString", "cudnnGetMaxDeviceVersion", "cudnnGetVersion", NULL},
     1,
     "9.1.0.70",
     "9.1.0.70",
     11},
    {"pe/misc/x86/cudnn32_7.dll",
     0x14c,
     "x86",
     1,
     0,
     {"KERNEL32.dll", NULL},
     {NULL},
     "cudnn32_7.dll",
     {"cudnnCreate", "cudnnDestroy", "cudnnGetVersion", NULL},
     0,
     "7.6.5.32",
     "7.6.5.32",
     5},
    {"pe/misc/x86/delay32.dll",
     0x14c,
     "x86",
     1,
     0,
     {"KERNEL32.dll", NULL},
     {"zlibwapi.dll", NULL},
     "delay32.dll",
     {"delayTest", NULL},
     0,
     NULL,
     NULL,
     0},
    /* GNU ld leaves the delay-import directory of dlltool delay libraries empty */
    {"pe/misc/mingw_delaylib.dll",
     0x8664,
     "x64",
     1,
     1,
     {NULL},
     {NULL},
     "mingw_delaylib.dll",
     {"delayTest", NULL},
     0,
     NULL,
     NULL,
     0},
};

static void test_fixtures(void **state)
{
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(pe_cases); i++) {
                const struct pe_case *t = &pe_cases[i];
                cc_pe *pe;
                char buf[64];

                print_message("%s\n", t->path);
                pe = parse_fixture(t->path);
                assert_int_equal(pe->machine, t->machine);
                assert_string_equal(cc_pe_machine_name(pe->machine), t->machine_name);
                assert_int_equal(pe->is_dll, t->is_dll);
                assert_int_equal(pe->pe32plus, t->pe32plus);
                assert_int_equal((pe->characteristics & 0x2000) != 0, t->is_dll);
                assert_strv(&pe->imports, t->imports);
                assert_strv(&pe->delay_imports, t->delay);
                if (t->export_name == NULL)
                        assert_null(pe->export_name);
                else
                        assert_string_equal(pe->export_name, t->export_name);
                assert_strv(&pe->exports, t->exports);
                assert_int_equal(pe->exports_by_ordinal_only, t->ordinal_only);
                assert_int_equal(pe->has_version, t->file_version != NULL);
                if (t->file_version != NULL) {
                        ver_str(pe->file_version_ms, pe->file_version_ls, buf, sizeof(buf));
                        assert_string_equal(buf, t->file_version);
                        ver_str(pe->product_version_ms, pe->product_version_ls, buf, sizeof(buf));
                        assert_string_equal(buf, t->product_version);
                        assert_int_equal(pe->file_flags_mask, 0x3f);
                        assert_int_equal(pe->file_flags, 0);
                        assert_int_equal(pe->file_os, 0x40004);
                        assert_int_equal(pe->file_type, 2);
                        assert_int_equal(pe->file_subtype, 0);
                }
                assert_int_equal(pe->nstrings, t->nstrings);
                assert_int_equal(pe->warnings.n, 0);
                cc_pe_free(pe);
        }
}

/* ---- fixtures: every string and translation -------------------------------------- */

struct str_case {
        const char *table, *key, *value;
};

static const struct str_case cudnn9_strings[] = {
    {"040904b0", "CompanyName", "NVIDIA Corporation"},
    {"040904b0", "FileDescription", "NVIDIA CUDA Deep Neural Network library"},
    {"040904b0", "FileVersion", "9.1.0.70"},
    {"040904b0", "InternalName", "cudnn64_9.dll"},
    /* U+00A9 and U+1F600 (a surrogate pair in UTF-16) */
    {"040904b0", "LegalCopyright", "Copyright \xC2\xA9 2024 NVIDIA Corporation \xF0\x9F\x98\x80"},
    {"040904b0", "OriginalFilename", "cudnn64_9.dll"},
    {"040904b0", "ProductName", "NVIDIA CUDA Deep Neural Network library"},
    {"040904b0", "ProductVersion", "9.1.0.70"},
    {"040704b0", "CompanyName", "NVIDIA Corporation"},
    {"040704b0", "FileDescription", "Bibliothek f\xC3\xBCr tiefe neuronale Netze"},
    {"040704b0", "FileVersion", "9.1.0.70"},
};

static const struct str_case cudnn8_strings[] = {
    {"040904b0", "CompanyName", "NVIDIA Corporation"},
    {"040904b0", "FileDescription", "NVIDIA CUDA Deep Neural Network library (cudnn_cnn_infer64_8)"},
    {"040904b0", "FileVersion", "8.2.2.26"},
    {"040904b0", "InternalName", "cudnn_cnn_infer64_8.dll"},
    {"040904b0", "LegalCopyright", "Copyright (C) NVIDIA Corporation"},
    {"040904b0", "OriginalFilename", "cudnn_cnn_infer64_8.dll"},
    {"040904b0", "ProductName", "NVIDIA CUDA Deep Neural Network library"},
    {"040904b0", "ProductVersion", "8.2.2.26"},
};

static void check_strings(const char *rel, const struct str_case *want, size_t n, const uint32_t *tr, size_t ntr)
{
        cc_pe *pe = parse_fixture(rel);
        size_t i;

        assert_int_equal(pe->nstrings, n);
        for (i = 0; i < n; i++) {
                assert_string_equal(pe->strings[i].table, want[i].table);
                assert_string_equal(pe->strings[i].key, want[i].key);
                assert_string_equal(pe->strings[i].value, want[i].value);
        }
        assert_int_equal(pe->ntranslations, ntr);
        for (i = 0; i < ntr; i++)
                assert_int_equal(pe->translations[i], tr[i]);
        cc_pe_free(pe);
}

static void test_fixture_strings(void **state)
{
        static const uint32_t tr9[] = {(0x409u << 16) | 1200, (0x407u << 16) | 1200};
        static const uint32_t tr8[] = {(0x409u << 16) | 1200};
        cc_pe *pe;

        (void)state;
        check_strings("pe/cudnn9/bin/cudnn64_9.dll", cudnn9_strings, CC_ARRAY_LEN(cudnn9_strings), tr9, 2);
        check_strings("pe/cudnn8/bin/cudnn_cnn_infer64_8.dll", cudnn8_strings, CC_ARRAY_LEN(cudnn8_strings), tr8, 1);

        pe = parse_fixture("pe/cudnn9/bin/cudnn64_9.dll");
        /* the first table that has the key wins */
        assert_string_equal(cc_pe_string_value(pe, "FileDescription"), "NVIDIA CUDA Deep Neural Network library");
        assert_string_equal(cc_pe_string_value(pe, "FileVersion"), "9.1.0.70");
        assert_null(cc_pe_string_value(pe, "Comments"));
        assert_null(cc_pe_string_value(pe, NULL));
        assert_null(cc_pe_string_value(NULL, "FileVersion"));
        cc_pe_free(pe);

        pe = parse_fixture("pe/misc/app.exe");
        assert_int_equal(pe->has_version, 0);
        assert_int_equal(pe->nstrings, 0);
        assert_int_equal(pe->ntranslations, 0);
        assert_null(cc_pe_string_value(pe, "FileVersion"));
        cc_pe_free(pe);
}

/* A binary linked with the full mingw CRT: what it imports depends on the
 * toolchain, so only check that it reads cleanly. */
static void test_fixture_crt(void **state)
{
        cc_pe *pe;

        (void)state;
        pe = parse_fixture("pe/misc/crt_app.exe");
        assert_int_equal(pe->is_dll, 0);
        assert_true(pe->imports.n >= 1);
        assert_true(cc_strv_contains(&pe->imports, "KERNEL32.dll"));
        assert_int_equal(pe->warnings.n, 0);
        cc_pe_free(pe);
}

static void test_machine_names(void **state)
{
        (void)state;
        assert_string_equal(cc_pe_machine_name(0x14c), "x86");
        assert_string_equal(cc_pe_machine_name(0x8664), "x64");
        assert_string_equal(cc_pe_machine_name(0xaa64), "arm64");
        assert_string_equal(cc_pe_machine_name(0x1c4), "arm");
        assert_null(cc_pe_machine_name(0));
        assert_null(cc_pe_machine_name(0x200));
}

/* ---- import libraries -------------------------------------------------------------- */

struct implib_case {
        const char *path;
        const char *dll;
        size_t nsymbols;
        size_t nmembers;
};

static const struct implib_case implib_cases[] = {
    /* llvm-dlltool: 3 import descriptor members + linker members + short objects */
    {"pe/cudnn9/lib/x64/cudnn.lib", "cudnn64_9.dll", 5, 9},
    {"pe/cudnn9/lib/x64/cudnn_graph.lib", "cudnn_graph64_9.dll", 3, 8},
    {"pe/cudnn8/lib/x64/cudnn64_8.lib", "cudnn64_8.dll", 4, 8},
    {"pe/cudnn7/lib/x64/cudnn.lib", "cudnn64_7.dll", 3, 7},
    /* binutils dlltool: head, tail and one long-format member per symbol */
    {"pe/cudnn9/lib/x64/cudnn64_9.lib", "cudnn64_9.dll", 5, 9},
    {"pe/cudnn8/lib/x64/cudnn.lib", "cudnn64_8.dll", 4, 8},
};

static void test_implib_fixtures(void **state)
{
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(implib_cases); i++) {
                const struct implib_case *t = &implib_cases[i];
                cc_error err = {0};
                cc_implib *lib = NULL;
                size_t size;
                uint8_t *data;

                print_message("%s\n", t->path);
                data = load(t->path, &size);
                assert_true(cc_implib_is(data, size));
                assert_false(cc_pe_is(data, size));
                if (cc_implib_parse(data, size, &lib, &err) < 0)
                        fail_msg("%s: %s", t->path, err.msg);
                assert_int_equal(lib->dlls.n, 1);
                assert_string_equal(lib->dlls.v[0], t->dll);
                assert_int_equal(lib->nsymbols, t->nsymbols);
                assert_int_equal(lib->nmembers, t->nmembers);
                assert_int_equal(lib->machine, 0x8664);
                cc_implib_free(lib);
                free(data);
        }
}

/* An archive built in memory. */
struct ar {
        uint8_t d[4096];
        size_t n;
};

static void ar_init(struct ar *a)
{
        memcpy(a->d, "!<arch>\n", 8);
        a->n = 8;
}

static void ar_member(struct ar *a, const char *name, const void *data, size_t size)
{
        char hdr[61];

        snprintf(hdr, sizeof(hdr), "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name, "0", "0", "0", "644", size);
        assert_true(a->n + 60 + size + 1 <= sizeof(a->d));
        memcpy(a->d + a->n, hdr, 60);
        a->n += 60;
        memcpy(a->d + a->n, data, size);
        a->n += size;
        if (size & 1)
                a->d[a->n++] = '\n';
}

/* A short import object for sym in dll. */
static size_t short_import(uint8_t *buf, uint16_t machine, const char *sym, const char *dll)
{
        size_t ls = strlen(sym) + 1, ld = strlen(dll) + 1;

        memset(buf, 0, 20);
        put16(buf + 2, 0xFFFF);
        put16(buf + 6, machine);
        put32(buf + 12, (uint32_t)(ls + ld));
        put16(buf + 18, 4); /* IMPORT_OBJECT_CODE, IMPORT_OBJECT_NAME */
        memcpy(buf + 20, sym, ls);
        memcpy(buf + 20 + ls, dll, ld);
        return 20 + ls + ld;
}

static int implib_try(const uint8_t *d, size_t n, cc_implib **out, cc_error *err)
{
        return cc_implib_parse(d, n, out, err);
}

static void test_implib_synthetic(void **state)
{
        struct ar a;
        uint8_t obj[256];
        cc_error err = {0};
        cc_implib *lib = NULL;
        size_t n;

        (void)state;
        /* linker member, long names, two DLLs (one named twice), an odd size */
        ar_init(&a);
        ar_member(&a, "/", "\0\0\0\0", 4);
        ar_member(&a, "//", "a_very_long_member_name.dll/\n", 29);
        n = short_import(obj, 0x14c, "_f1", "a.dll");
        ar_member(&a, "/0", obj, n);
        n = short_import(obj, 0x8664, "f2", "b.dll");
        ar_member(&a, "b.dll/", obj, n);
        n = short_import(obj, 0x8664, "f3", "a.dll");
        ar_member(&a, "a.dll/", obj, n);
        assert_int_equal(implib_try(a.d, a.n, &lib, &err), 0);
        assert_int_equal(lib->nmembers, 5);
        assert_int_equal(lib->nsymbols, 3);
        assert_int_equal(lib->machine, 0x14c);
        assert_int_equal(lib->dlls.n, 2);
        assert_string_equal(lib->dlls.v[0], "a.dll");
        assert_string_equal(lib->dlls.v[1], "b.dll");
        cc_implib_free(lib);
        lib = NULL;

        /* an empty archive is valid */
        ar_init(&a);
        assert_int_equal(implib_try(a.d, a.n, &lib, &err), 0);
        assert_int_equal(lib->nmembers, 0);
        assert_int_equal(lib->dlls.n, 0);
        cc_implib_free(lib);
        lib = NULL;

        /* anonymous object (Version != 0) is not an import */
        ar_init(&a);
        n = short_import(obj, 0x8664, "f", "x.dll");
        put16(obj + 4, 2);
        ar_member(&a, "x.obj/", obj, n);
        assert_int_equal(implib_try(a.d, a.n, &lib, &err), 0);
        assert_int_equal(lib->nsymbols, 0);
        assert_int_equal(lib->dlls.n, 0);
        cc_implib_free(lib);
        lib = NULL;

        /* bad signature, zero bytes */
        assert_int_equal(implib_try((const uint8_t *)"!<thin>\n", 8, &lib, &err), -1);
        assert_int_equal(err.code, CC_ERR_FORMAT);
        assert_int_equal(implib_try((const uint8_t *)"", 0, &lib, &err), -1);
        assert_null(lib);

        /* a truncated member header */
        ar_init(&a);
        n = short_import(obj, 0x8664, "f", "x.dll");
        ar_member(&a, "x.dll/", obj, n);
        assert_int_equal(implib_try(a.d, 8 + 30, &lib, &err), -1);
        assert_int_equal(err.code, CC_ERR_TRUNCATED);

        /* a member that runs past the end */
        assert_int_equal(implib_try(a.d, a.n - 4, &lib, &err), -1);
        assert_int_equal(err.code, CC_ERR_TRUNCATED);

        /* no end marker */
        a.d[8 + 58] = 'x';
        assert_int_equal(implib_try(a.d, a.n, &lib, &err), -1);
        assert_int_equal(err.code, CC_ERR_FORMAT);
        a.d[8 + 58] = '`';

        /* a size field that is not a number */
        memcpy(a.d + 8 + 48, "12a       ", 10);
        assert_int_equal(implib_try(a.d, a.n, &lib, &err), -1);
        assert_int_equal(err.code, CC_ERR_FORMAT);

        /* SizeOfData past the member, and names without a NUL */
        ar_init(&a);
        n = short_import(obj, 0x8664, "f", "x.dll");
        put32(obj + 12, 1000);
        ar_member(&a, "x.dll/", obj, n);
        assert_int_equal(implib_try(a.d, a.n, &lib, &err), -1);
        assert_int_equal(err.code, CC_ERR_TRUNCATED);
        ar_init(&a);
        n = short_import(obj, 0x8664, "f", "x.dll");
        obj[n - 1] = 'x';
        ar_member(&a, "x.dll/", obj, n);
        assert_int_equal(implib_try(a.d, a.n, &lib, &err), -1);
        assert_int_equal(err.code, CC_ERR_FORMAT);
        assert_null(lib);
        cc_implib_free(NULL);
}

static void test_implib_truncations(void **state)
{
        static const char *const files[] = {"pe/cudnn9/lib/x64/cudnn.lib", "pe/cudnn9/lib/x64/cudnn64_9.lib"};
        size_t f, cut;

        (void)state;
        for (f = 0; f < CC_ARRAY_LEN(files); f++) {
                size_t size;
                uint8_t *data = load(files[f], &size);

                for (cut = 0; cut < size; cut++) {
                        cc_error err = {0};
                        cc_implib *lib = NULL;
                        uint8_t *p = malloc(cut ? cut : 1);
                        int r;

                        assert_non_null(p);
                        memcpy(p, data, cut);
                        r = cc_implib_parse(p, cut, &lib, &err);
                        assert_true(r == 0 || r == -1);
                        if (r < 0) {
                                assert_null(lib);
                                assert_true(err.msg[0] != '\0');
                        }
                        cc_implib_free(lib);
                        free(p);
                }
                free(data);
        }
}

/* ---- malformed images built here ------------------------------------------------------ */

/* A minimal image: headers in the first 0x200 bytes, one section mapping
 * RVA 0x1000..0x2000 to file offset 0x200..0x1200. */
#define IMG_SIZE 0x1200
#define SEC_RVA 0x1000u
#define SEC_SIZE 0x1000u
#define SEC_RAW 0x200u
#define IMG_BASE32 0x10000000u

struct img {
        uint8_t d[IMG_SIZE];
        size_t n;
        int plus;
        size_t opt;
};

static void img_init(struct img *m, int plus)
{
        uint8_t *coff, *opt, *sec;

        memset(m, 0, sizeof(*m));
        m->n = IMG_SIZE;
        m->plus = plus;
        m->d[0] = 'M';
        m->d[1] = 'Z';
        put32(m->d + 0x3c, 0x40);
        memcpy(m->d + 0x40, "PE\0\0", 4);
        coff = m->d + 0x44;
        put16(coff, plus ? 0x8664 : 0x14c);
        put16(coff + 2, 1);
        put16(coff + 16, plus ? 240 : 224);
        put16(coff + 18, 0x2022);
        m->opt = 0x58;
        opt = m->d + m->opt;
        put16(opt, plus ? 0x20b : 0x10b);
        if (plus) {
                put32(opt + 24, 0x80000000u);
                put32(opt + 28, 1); /* ImageBase 0x180000000 */
                put32(opt + 108, 16);
        } else {
                put32(opt + 28, IMG_BASE32);
                put32(opt + 92, 16);
        }
        put32(opt + 60, 0x200); /* SizeOfHeaders */
        put16(opt + 68, 3);
        sec = opt + (plus ? 240 : 224);
        memcpy(sec, ".data\0\0\0", 8);
        put32(sec + 8, SEC_SIZE);
        put32(sec + 12, SEC_RVA);
        put32(sec + 16, SEC_SIZE);
        put32(sec + 20, SEC_RAW);
}

static void img_dir(struct img *m, int i, uint32_t rva, uint32_t size)
{
        uint8_t *dd = m->d + m->opt + (m->plus ? 112 : 96) + 8 * i;

        put32(dd, rva);
        put32(dd + 4, size);
}

static uint8_t *img_at(struct img *m, uint32_t rva)
{
        assert_true(rva >= SEC_RVA && rva < SEC_RVA + SEC_SIZE);
        return m->d + SEC_RAW + (rva - SEC_RVA);
}

static void img_str(struct img *m, uint32_t rva, const char *s)
{
        memcpy(img_at(m, rva), s, strlen(s) + 1);
}

static cc_pe *img_parse(struct img *m)
{
        cc_error err = {0};
        cc_pe *pe = NULL;

        if (cc_pe_parse(m->d, m->n, &pe, &err) < 0)
                fail_msg("parse failed: %s", err.msg);
        return pe;
}

static int img_fails(struct img *m, int code)
{
        cc_error err = {0};
        cc_pe *pe = NULL;
        int r = cc_pe_parse(m->d, m->n, &pe, &err);

        assert_null(pe);
        if (r == -1) {
                assert_int_equal(err.code, code);
                assert_true(err.msg[0] != '\0');
                assert_null(strchr(err.msg, '\n'));
        }
        return r == -1;
}

static void test_headers_malformed(void **state)
{
        static const uint8_t mz[2] = {'M', 'Z'};
        cc_error err = {0};
        cc_pe *pe = NULL;
        struct img m;

        (void)state;
        assert_int_equal(cc_pe_parse(mz, 0, &pe, &err), -1);
        assert_int_equal(err.code, CC_ERR_TRUNCATED);
        assert_int_equal(cc_pe_parse(NULL, 0, &pe, &err), -1);
        assert_int_equal(cc_pe_parse(mz, 2, &pe, &err), -1);
        assert_false(cc_pe_is(mz, 2));
        assert_false(cc_pe_is(NULL, 0));

        img_init(&m, 1);
        assert_true(cc_pe_is(m.d, m.n));
        cc_pe_free(img_parse(&m));

        /* not MZ */
        img_init(&m, 1);
        m.d[0] = 'Z';
        assert_true(img_fails(&m, CC_ERR_FORMAT));
        /* e_lfanew past the end, and negative */
        img_init(&m, 1);
        put32(m.d + 0x3c, IMG_SIZE - 2);
        assert_false(cc_pe_is(m.d, m.n));
        assert_true(img_fails(&m, CC_ERR_TRUNCATED));
        put32(m.d + 0x3c, 0xFFFFFFF8u);
        assert_true(img_fails(&m, CC_ERR_FORMAT));
        /* no PE signature */
        img_init(&m, 1);
        m.d[0x41] = 'X';
        assert_true(img_fails(&m, CC_ERR_FORMAT));
        /* COFF header cut */
        img_init(&m, 1);
        m.n = 0x50;
        assert_true(img_fails(&m, CC_ERR_TRUNCATED));
        /* no optional header, bad magic, optional header too small */
        img_init(&m, 1);
        put16(m.d + 0x44 + 16, 0);
        assert_true(img_fails(&m, CC_ERR_FORMAT));
        img_init(&m, 1);
        put16(m.d + m.opt, 0x107);
        assert_true(img_fails(&m, CC_ERR_FORMAT));
        img_init(&m, 1);
        put16(m.d + 0x44 + 16, 100);
        assert_true(img_fails(&m, CC_ERR_FORMAT));
        img_init(&m, 0);
        put16(m.d + 0x44 + 16, 90);
        assert_true(img_fails(&m, CC_ERR_FORMAT));
        /* optional header past the end */
        img_init(&m, 1);
        put16(m.d + 0x44 + 16, 0xFFFF);
        m.n = 0x1000;
        assert_true(img_fails(&m, CC_ERR_TRUNCATED));
        /* huge NumberOfSections */
        img_init(&m, 1);
        put16(m.d + 0x44 + 2, 0xFFFF);
        assert_true(img_fails(&m, CC_ERR_LIMIT));
        /* section table past the end of the file */
        img_init(&m, 1);
        put16(m.d + 0x44 + 2, 90);
        m.n = 0x200;
        assert_true(img_fails(&m, CC_ERR_TRUNCATED));
}

static void test_rva_count(void **state)
{
        struct img m;
        cc_pe *pe;

        (void)state;
        /* NumberOfRvaAndSizes over 16: read 16, warn */
        img_init(&m, 1);
        put32(m.d + m.opt + 108, 0xFFFFFFFFu);
        pe = img_parse(&m);
        assert_true(has_warning(pe, "NumberOfRvaAndSizes"));
        cc_pe_free(pe);
        /* directories that do not fit in SizeOfOptionalHeader are not read */
        img_init(&m, 1);
        put16(m.d + 0x44 + 16, 112 + 8);
        put16(m.d + 0x44 + 2, 0); /* the section table would overlap the directories */
        pe = img_parse(&m);
        assert_true(has_warning(pe, "does not fit"));
        cc_pe_free(pe);
        /* no data directories at all */
        img_init(&m, 0);
        put32(m.d + m.opt + 92, 0);
        pe = img_parse(&m);
        assert_int_equal(pe->imports.n, 0);
        assert_int_equal(pe->warnings.n, 0);
        assert_int_equal(pe->pe32plus, 0);
        assert_int_equal(pe->machine, 0x14c);
        assert_int_equal(pe->subsystem, 3);
        cc_pe_free(pe);
}

/* n import descriptors at rva for the DLL names at names[] (no terminator:
 * the bytes after them decide). */
static void put_imports(struct img *m, uint32_t rva, const uint32_t *names, size_t n)
{
        size_t i;

        for (i = 0; i < n; i++) {
                uint8_t *d = img_at(m, rva + 20 * (uint32_t)i);

                put32(d, 0x1800);
                put32(d + 12, names[i]);
                put32(d + 16, 0x1800);
        }
}

static void test_imports_synthetic(void **state)
{
        static const uint32_t names[] = {0x1100, 0x1110, 0x1120};
        struct img m;
        cc_pe *pe;

        (void)state;
        img_init(&m, 1);
        img_str(&m, 0x1100, "first.dll");
        img_str(&m, 0x1110, "second.dll");
        img_str(&m, 0x1120, "third.dll");
        put_imports(&m, 0x1200, names, 3);
        img_dir(&m, 1, 0x1200, 80);
        pe = img_parse(&m);
        {
                static const char *const want[] = {"first.dll", "second.dll", "third.dll", NULL};

                assert_strv(&pe->imports, want);
        }
        assert_int_equal(pe->warnings.n, 0);
        cc_pe_free(pe);

        /* no terminator: the table runs to the end of the section */
        img_init(&m, 1);
        img_str(&m, 0x1100, "first.dll");
        img_str(&m, 0x1110, "second.dll");
        img_str(&m, 0x1120, "third.dll");
        put_imports(&m, SEC_RVA + SEC_SIZE - 60, names, 3);
        img_dir(&m, 1, SEC_RVA + SEC_SIZE - 60, 60);
        pe = img_parse(&m);
        assert_int_equal(pe->imports.n, 3);
        assert_true(has_warning(pe, "no terminating descriptor"));
        cc_pe_free(pe);

        /* a whole section of descriptors with no terminator, all naming one DLL */
        img_init(&m, 1);
        {
                uint32_t r;

                for (r = 0x1010; r + 20 <= SEC_RVA + SEC_SIZE; r += 20) {
                        uint32_t one = 0x1000;

                        put_imports(&m, r, &one, 1);
                }
        }
        img_str(&m, 0x1000, "x.dll");
        img_dir(&m, 1, 0x1010, 0);
        pe = img_parse(&m);
        assert_int_equal(pe->imports.n, (SEC_SIZE - 0x10) / 20);
        assert_true(has_warning(pe, "no terminating descriptor"));
        cc_pe_free(pe);

        /* names outside the image, unterminated names, directory outside */
        img_init(&m, 1);
        {
                static const uint32_t bad[] = {0x9000, SEC_RVA + SEC_SIZE - 4, 0x1100};

                put_imports(&m, 0x1200, bad, 3);
        }
        memset(img_at(&m, SEC_RVA + SEC_SIZE - 4), 'a', 4);
        img_str(&m, 0x1100, "ok.dll");
        img_dir(&m, 1, 0x1200, 80);
        img_dir(&m, 13, 0x7FFF0000u, 32);
        pe = img_parse(&m);
        {
                static const char *const want[] = {"ok.dll", NULL};

                assert_strv(&pe->imports, want);
        }
        assert_true(has_warning(pe, "descriptor 0: DLL name at RVA 0x9000 cannot be read"));
        assert_true(has_warning(pe, "descriptor 1: DLL name"));
        assert_true(has_warning(pe, "delay-import directory at RVA 0x7fff0000 is outside the file"));
        cc_pe_free(pe);

        /* import directory in the headers (RVA below the first section) */
        img_init(&m, 1);
        img_dir(&m, 1, 0x1F0, 20);
        pe = img_parse(&m);
        assert_int_equal(pe->imports.n, 0);
        cc_pe_free(pe);
}

static void test_delay_imports_synthetic(void **state)
{
        struct img m;
        cc_pe *pe;
        uint8_t *d;

        (void)state;
        /* PE32: one RVA-based descriptor, one old VA-based one, terminator */
        img_init(&m, 0);
        img_str(&m, 0x1100, "rva.dll");
        img_str(&m, 0x1110, "va.dll");
        d = img_at(&m, 0x1200);
        put32(d, 1);
        put32(d + 4, 0x1100);
        put32(d + 32, 0);
        put32(d + 32 + 4, IMG_BASE32 + 0x1110);
        put32(d + 32 + 12, IMG_BASE32 + 0x1800);
        img_dir(&m, 13, 0x1200, 96);
        pe = img_parse(&m);
        {
                static const char *const want[] = {"rva.dll", "va.dll", NULL};

                assert_strv(&pe->delay_imports, want);
        }
        assert_int_equal(pe->imports.n, 0);
        assert_int_equal(pe->warnings.n, 0);
        cc_pe_free(pe);

        /* a VA below the image base is taken as an RVA */
        img_init(&m, 0);
        img_str(&m, 0x1100, "low.dll");
        d = img_at(&m, 0x1200);
        put32(d + 4, 0x1100);
        put32(d + 8, 0x1800);
        img_dir(&m, 13, 0x1200, 64);
        pe = img_parse(&m);
        assert_int_equal(pe->delay_imports.n, 1);
        assert_string_equal(pe->delay_imports.v[0], "low.dll");
        cc_pe_free(pe);
}

static void test_exports_synthetic(void **state)
{
        struct img m;
        cc_pe *pe;
        uint8_t *e;

        (void)state;
        /* 4 functions: 2 named, 1 ordinal-only, 1 empty slot */
        img_init(&m, 1);
        e = img_at(&m, 0x1000);
        put32(e + 12, 0x1100);
        put32(e + 16, 1);
        put32(e + 20, 4);
        put32(e + 24, 2);
        put32(e + 28, 0x1200);
        put32(e + 32, 0x1300);
        put32(e + 36, 0x1400);
        img_str(&m, 0x1100, "lib.dll");
        put32(img_at(&m, 0x1200), 0x1500);
        put32(img_at(&m, 0x1204), 0x1510);
        put32(img_at(&m, 0x1208), 0x1520);
        put32(img_at(&m, 0x120c), 0);
        put32(img_at(&m, 0x1300), 0x1600);
        put32(img_at(&m, 0x1304), 0x1610);
        put16(img_at(&m, 0x1400), 2);
        put16(img_at(&m, 0x1402), 0);
        img_str(&m, 0x1600, "alpha");
        img_str(&m, 0x1610, "beta");
        img_dir(&m, 0, 0x1000, 0x40);
        pe = img_parse(&m);
        assert_string_equal(pe->export_name, "lib.dll");
        {
                static const char *const want[] = {"alpha", "beta", NULL};

                assert_strv(&pe->exports, want);
        }
        assert_int_equal(pe->exports_by_ordinal_only, 1);
        assert_int_equal(pe->warnings.n, 0);
        cc_pe_free(pe);

        /* huge NumberOfNames and NumberOfFunctions: read what the section holds */
        put32(e + 20, 0xFFFFFFFFu);
        put32(e + 24, 0xFFFFFFFFu);
        pe = img_parse(&m);
        assert_true(has_warning(pe, "NumberOfNames is 4294967295"));
        assert_true(has_warning(pe, "NumberOfFunctions is 4294967295"));
        assert_true(has_warning(pe, "export name table"));
        assert_true(pe->exports.n >= 2);
        assert_string_equal(pe->exports.v[0], "alpha");
        assert_string_equal(pe->exports.v[1], "beta");
        assert_true(pe->warnings.n <= 65);
        cc_pe_free(pe);

        /* name table outside the file, DLL name outside */
        put32(e + 12, 0x50000);
        put32(e + 20, 2);
        put32(e + 24, 2);
        put32(e + 32, 0x60000);
        pe = img_parse(&m);
        assert_null(pe->export_name);
        assert_int_equal(pe->exports.n, 0);
        assert_true(has_warning(pe, "export DLL name"));
        assert_true(has_warning(pe, "reading 0"));
        cc_pe_free(pe);

        /* export directory cut by the end of the section */
        img_init(&m, 1);
        img_dir(&m, 0, SEC_RVA + SEC_SIZE - 20, 40);
        pe = img_parse(&m);
        assert_true(has_warning(pe, "export directory at RVA"));
        cc_pe_free(pe);
}

/* A version resource built in memory (offsets from its start, which is
 * 4-aligned). */
struct vb {
        uint8_t b[2048];
        size_t n;
};

static void vb_u16(struct vb *v, uint16_t x)
{
        assert_true(v->n + 2 <= sizeof(v->b));
        put16(v->b + v->n, x);
        v->n += 2;
}

static void vb_align(struct vb *v)
{
        while (v->n & 3)
                v->b[v->n++] = 0;
}

static void vb_wstr(struct vb *v, const char *s)
{
        while (*s)
                vb_u16(v, (uint16_t)(unsigned char)*s++);
        vb_u16(v, 0);
}

static size_t vb_begin(struct vb *v, const char *key, uint16_t vlen, uint16_t type)
{
        size_t start = v->n;

        vb_u16(v, 0);
        vb_u16(v, vlen);
        vb_u16(v, type);
        vb_wstr(v, key);
        vb_align(v);
        return start;
}

static void vb_end(struct vb *v, size_t start)
{
        put16(v->b + start, (uint16_t)(v->n - start));
        vb_align(v);
}

static void vb_string(struct vb *v, const char *key, const char *value)
{
        size_t s = vb_begin(v, key, (uint16_t)(strlen(value) + 1), 1);

        vb_wstr(v, value);
        vb_end(v, s);
}

/* The standard layout: fixed info, one string table, translations. */
static void vb_standard(struct vb *v)
{
        size_t root, sfi, st, vfi, var;

        v->n = 0;
        root = vb_begin(v, "VS_VERSION_INFO", 52, 0);
        vb_u16(v, 0x04BD);
        vb_u16(v, 0xFEEF);
        vb_u16(v, 0);
        vb_u16(v, 1);
        vb_u16(v, 2); /* 1.2.3.4 */
        vb_u16(v, 1);
        vb_u16(v, 4);
        vb_u16(v, 3);
        vb_u16(v, 6); /* 5.6.7.8 */
        vb_u16(v, 5);
        vb_u16(v, 8);
        vb_u16(v, 7);
        while (v->n < root + 40 + 52)
                vb_u16(v, 0);
        sfi = vb_begin(v, "StringFileInfo", 0, 1);
        st = vb_begin(v, "040904b0", 0, 1);
        vb_string(v, "CompanyName", "NVIDIA Corporation");
        vb_string(v, "FileVersion", "1.2.3.4");
        vb_end(v, st);
        vb_end(v, sfi);
        vfi = vb_begin(v, "VarFileInfo", 0, 1);
        var = vb_begin(v, "Translation", 4, 0);
        vb_u16(v, 0x409);
        vb_u16(v, 1200);
        vb_end(v, var);
        vb_end(v, vfi);
        vb_end(v, root);
}

/* Resource tree at 0x1000: root (type 16) -> name 1 -> language 0x409 ->
 * data entry at 0x1048 -> data at 0x1100 (size bytes). */
static void put_resources(struct img *m, const struct vb *v, uint32_t size)
{
        uint8_t *r = img_at(m, 0x1000);

        put16(r + 14, 1);
        put32(r + 16, 16);
        put32(r + 20, 0x80000000u | 0x18);
        put16(r + 0x18 + 14, 1);
        put32(r + 0x18 + 16, 1);
        put32(r + 0x18 + 20, 0x80000000u | 0x30);
        put16(r + 0x30 + 14, 1);
        put32(r + 0x30 + 16, 0x409);
        put32(r + 0x30 + 20, 0x48);
        put32(r + 0x48, 0x1100);
        put32(r + 0x48 + 4, size);
        memcpy(img_at(m, 0x1100), v->b, v->n);
        img_dir(m, 2, 0x1000, 0x100);
}

static void test_version_synthetic(void **state)
{
        struct img m;
        struct vb v;
        cc_pe *pe;

        (void)state;
        vb_standard(&v);
        img_init(&m, 1);
        put_resources(&m, &v, (uint32_t)v.n);
        pe = img_parse(&m);
        assert_int_equal(pe->has_version, 1);
        assert_int_equal(pe->file_version_ms, 0x00010002);
        assert_int_equal(pe->file_version_ls, 0x00030004);
        assert_int_equal(pe->product_version_ms, 0x00050006);
        assert_int_equal(pe->product_version_ls, 0x00070008);
        assert_int_equal(pe->nstrings, 2);
        assert_string_equal(pe->strings[0].table, "040904b0");
        assert_string_equal(pe->strings[0].key, "CompanyName");
        assert_string_equal(pe->strings[0].value, "NVIDIA Corporation");
        assert_string_equal(pe->strings[1].value, "1.2.3.4");
        assert_int_equal(pe->ntranslations, 1);
        assert_int_equal(pe->translations[0], (0x409u << 16) | 1200);
        assert_int_equal(pe->warnings.n, 0);
        cc_pe_free(pe);

        /* the resource data entry says fewer bytes than wLength: warn, read what is there */
        img_init(&m, 1);
        put_resources(&m, &v, (uint32_t)v.n - 40);
        pe = img_parse(&m);
        assert_int_equal(pe->has_version, 1);
        assert_true(has_warning(pe, "past the data"));
        cc_pe_free(pe);

        /* the data entry points past the end of the section */
        img_init(&m, 1);
        put_resources(&m, &v, (uint32_t)v.n);
        put32(img_at(&m, 0x1048), SEC_RVA + SEC_SIZE - 16);
        pe = img_parse(&m);
        assert_true(has_warning(pe, "is truncated to 16 bytes"));
        assert_int_equal(pe->has_version, 0);
        cc_pe_free(pe);
        put32(img_at(&m, 0x1048), 0x90000);
        pe = img_parse(&m);
        assert_true(has_warning(pe, "outside the file"));
        cc_pe_free(pe);

        /* a bad VS_FIXEDFILEINFO signature: no fixed version, strings still read */
        img_init(&m, 1);
        put_resources(&m, &v, (uint32_t)v.n);
        img_at(&m, 0x1100 + 40)[0] ^= 0xFF;
        pe = img_parse(&m);
        assert_int_equal(pe->has_version, 0);
        assert_int_equal(pe->nstrings, 2);
        assert_true(has_warning(pe, "signature"));
        cc_pe_free(pe);

        /* wrong root key */
        img_init(&m, 1);
        put_resources(&m, &v, (uint32_t)v.n);
        img_at(&m, 0x1100 + 6)[0] = 'X';
        pe = img_parse(&m);
        assert_int_equal(pe->has_version, 0);
        assert_int_equal(pe->nstrings, 0);
        assert_true(has_warning(pe, "no VS_VERSION_INFO key"));
        cc_pe_free(pe);

        /* wLength below the header size, and 0 */
        img_init(&m, 1);
        put_resources(&m, &v, (uint32_t)v.n);
        put16(img_at(&m, 0x1100), 3);
        pe = img_parse(&m);
        assert_true(has_warning(pe, "wLength 3"));
        cc_pe_free(pe);
        put16(img_at(&m, 0x1100), 0);
        pe = img_parse(&m);
        assert_true(has_warning(pe, "empty or malformed"));
        cc_pe_free(pe);
}

static void test_version_utf16(void **state)
{
        struct img m;
        struct vb v;
        size_t root, sfi, st, s;
        cc_pe *pe;

        (void)state;
        v.n = 0;
        root = vb_begin(&v, "VS_VERSION_INFO", 0, 0);
        sfi = vb_begin(&v, "StringFileInfo", 0, 1);
        st = vb_begin(&v, "040904b0", 0, 1);
        /* "A" U+D83D U+DE00 (a pair), lone low, lone high, U+00E9 */
        s = vb_begin(&v, "Pairs", 7, 1);
        vb_u16(&v, 'A');
        vb_u16(&v, 0xD83D);
        vb_u16(&v, 0xDE00);
        vb_u16(&v, 0xDC00);
        vb_u16(&v, 0xD800);
        vb_u16(&v, 0x00E9);
        vb_u16(&v, 0);
        vb_end(&v, s);
        /* a high surrogate at the very end */
        s = vb_begin(&v, "Tail", 3, 1);
        vb_u16(&v, 'B');
        vb_u16(&v, 0xDBFF);
        vb_u16(&v, 0);
        vb_end(&v, s);
        /* empty value */
        s = vb_begin(&v, "Empty", 0, 1);
        vb_end(&v, s);
        /* odd length: the value has 3 bytes and no terminator */
        s = vb_begin(&v, "Odd", 2, 1);
        vb_u16(&v, 'C');
        v.b[v.n++] = 'D';
        put16(v.b + s, (uint16_t)(v.n - s));
        vb_align(&v);
        vb_end(&v, st);
        vb_end(&v, sfi);
        vb_end(&v, root);

        img_init(&m, 1);
        put_resources(&m, &v, (uint32_t)v.n);
        pe = img_parse(&m);
        assert_int_equal(pe->has_version, 0);
        assert_int_equal(pe->nstrings, 4);
        assert_string_equal(pe->strings[0].key, "Pairs");
        assert_string_equal(pe->strings[0].value, "A\xF0\x9F\x98\x80\xEF\xBF\xBD\xEF\xBF\xBD\xC3\xA9");
        assert_string_equal(pe->strings[1].value, "B\xEF\xBF\xBD");
        assert_string_equal(pe->strings[2].key, "Empty");
        assert_string_equal(pe->strings[2].value, "");
        assert_string_equal(pe->strings[3].key, "Odd");
        assert_string_equal(pe->strings[3].value, "C");
        cc_pe_free(pe);

        /* an unterminated key: the block is dropped with a warning */
        v.n = 0;
        root = vb_begin(&v, "VS_VERSION_INFO", 0, 0);
        s = v.n;
        vb_u16(&v, 10);
        vb_u16(&v, 0);
        vb_u16(&v, 1);
        vb_u16(&v, 'K');
        vb_u16(&v, 'K');
        vb_end(&v, root);
        img_init(&m, 1);
        put_resources(&m, &v, (uint32_t)v.n);
        pe = img_parse(&m);
        assert_true(has_warning(pe, "not terminated"));
        assert_int_equal(pe->nstrings, 0);
        cc_pe_free(pe);
        (void)s;
}

static void test_resource_loops(void **state)
{
        struct img m;
        struct vb v;
        cc_pe *pe;
        uint8_t *r;

        (void)state;
        vb_standard(&v);

        /* the RT_VERSION entry points back at the root */
        img_init(&m, 1);
        put_resources(&m, &v, (uint32_t)v.n);
        put32(img_at(&m, 0x1000 + 20), 0x80000000u);
        pe = img_parse(&m);
        assert_true(has_warning(pe, "reached twice (a loop)"));
        assert_int_equal(pe->has_version, 0);
        cc_pe_free(pe);

        /* a name directory that points to itself */
        img_init(&m, 1);
        put_resources(&m, &v, (uint32_t)v.n);
        put32(img_at(&m, 0x1018 + 20), 0x80000000u | 0x18);
        pe = img_parse(&m);
        assert_true(has_warning(pe, "a loop"));
        cc_pe_free(pe);

        /* a language entry that is a directory: deeper than 3 levels */
        img_init(&m, 1);
        put_resources(&m, &v, (uint32_t)v.n);
        put32(img_at(&m, 0x1030 + 20), 0x80000000u | 0x60);
        pe = img_parse(&m);
        assert_true(has_warning(pe, "deeper than 3 levels"));
        assert_int_equal(pe->has_version, 0);
        cc_pe_free(pe);

        /* the type entry is a data entry; huge entry counts; entries past the end */
        img_init(&m, 1);
        put_resources(&m, &v, (uint32_t)v.n);
        put32(img_at(&m, 0x1000 + 20), 0x48);
        pe = img_parse(&m);
        assert_true(has_warning(pe, "not a directory"));
        cc_pe_free(pe);
        img_init(&m, 1);
        put_resources(&m, &v, (uint32_t)v.n);
        r = img_at(&m, 0x1000);
        put16(r + 12, 0xFFFF);
        put16(r + 14, 0xFFFF);
        pe = img_parse(&m);
        assert_true(has_warning(pe, "131070 entries"));
        cc_pe_free(pe);
        img_init(&m, 1);
        put_resources(&m, &v, (uint32_t)v.n);
        img_dir(&m, 2, SEC_RVA + SEC_SIZE - 16, 16);
        put16(img_at(&m, SEC_RVA + SEC_SIZE - 2), 3);
        pe = img_parse(&m);
        assert_true(has_warning(pe, "entries run past the file"));
        cc_pe_free(pe);

        /* many language entries all pointing to the same data: capped */
        img_init(&m, 1);
        put_resources(&m, &v, (uint32_t)v.n);
        {
                int i;

                /* a language directory at offset 0x400 with 20 entries */
                put16(img_at(&m, 0x1400 + 14), 20);
                for (i = 0; i < 20; i++) {
                        put32(img_at(&m, 0x1410 + 8 * (uint32_t)i), 0x409);
                        put32(img_at(&m, 0x1410 + 8 * (uint32_t)i + 4), 0x48);
                }
        }
        put32(img_at(&m, 0x1018 + 20), 0x80000000u | 0x400);
        pe = img_parse(&m);
        assert_true(has_warning(pe, "more than 8 version resources"));
        assert_int_equal(pe->nstrings, 16);
        assert_int_equal(pe->ntranslations, 8);
        cc_pe_free(pe);
}

/* Every prefix of a small real DLL, and byte flips over its headers: -1 with
 * a message or success, never a crash (run under ASan/UBSan in CI). */
static void test_truncations(void **state)
{
        static const char *const files[] = {"pe/cudnn9/bin/cudnn64_9.dll", "pe/misc/x86/delay32.dll",
                                            "pe/cudnn9/bin/cudnn_graph64_9.dll"};
        size_t f, cut, i;

        (void)state;
        for (f = 0; f < CC_ARRAY_LEN(files); f++) {
                size_t size, nok = 0;
                uint8_t *data = load(files[f], &size);
                uint8_t *copy = malloc(size);

                assert_non_null(copy);
                for (cut = 0; cut <= size; cut++) {
                        cc_error err = {0};
                        cc_pe *pe = NULL;
                        uint8_t *p = malloc(cut ? cut : 1);
                        int r;

                        assert_non_null(p);
                        memcpy(p, data, cut);
                        r = cc_pe_parse(p, cut, &pe, &err);
                        if (r < 0) {
                                assert_null(pe);
                                assert_true(err.msg[0] != '\0');
                        } else {
                                assert_int_equal(r, 0);
                                nok++;
                        }
                        cc_pe_free(pe);
                        free(p);
                }
                /* everything after the section table parses (with warnings) */
                assert_true(nok > 0);
                memcpy(copy, data, size);
                for (i = 0; i < size && i < 0x600; i++) {
                        static const uint8_t vals[] = {0x00, 0xFF, 0x7F, 0x80};
                        size_t k;

                        for (k = 0; k < sizeof(vals); k++) {
                                cc_error err = {0};
                                cc_pe *pe = NULL;

                                copy[i] = vals[k];
                                if (cc_pe_parse(copy, size, &pe, &err) < 0)
                                        assert_null(pe);
                                cc_pe_free(pe);
                        }
                        copy[i] = data[i];
                }
                free(copy);
                free(data);
        }
        cc_pe_free(NULL);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_fixtures),
            cmocka_unit_test(test_fixture_strings),
            cmocka_unit_test(test_fixture_crt),
            cmocka_unit_test(test_machine_names),
            cmocka_unit_test(test_implib_fixtures),
            cmocka_unit_test(test_implib_synthetic),
            cmocka_unit_test(test_implib_truncations),
            cmocka_unit_test(test_headers_malformed),
            cmocka_unit_test(test_rva_count),
            cmocka_unit_test(test_imports_synthetic),
            cmocka_unit_test(test_delay_imports_synthetic),
            cmocka_unit_test(test_exports_synthetic),
            cmocka_unit_test(test_version_synthetic),
            cmocka_unit_test(test_version_utf16),
            cmocka_unit_test(test_resource_loops),
            cmocka_unit_test(test_truncations),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
