/* Unit tests for the ld.so.cache reader: caches built byte by byte here (both
 * formats, the compat layout, both byte orders, hostile offsets, the
 * extension directory), truncation at every length, and the oracle: caches
 * written by the system ldconfig (gen-ldcache.sh) and this machine's
 * /etc/ld.so.cache, compared entry by entry with `ldconfig -p`'s output. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/ldcache.h"

#define EXT_MAGIC 0xeaa42174u
#define HWX (1ull << 62)

/* ---- a cache builder ------------------------------------------------------ */

struct b {
        uint8_t d[16384];
        size_t n;
        int big;
        /* absolute offsets of each entry's strings, from build_new */
        size_t kabs[64], vabs[64];
};

struct ent {
        int32_t flags;
        const char *key, *value;
        uint32_t osv;
        uint64_t hwcap;
};

static void put32(struct b *b, size_t off, uint32_t v)
{
        int i;

        for (i = 0; i < 4; i++)
                b->d[off + (size_t)i] = (uint8_t)(v >> (b->big ? 24 - 8 * i : 8 * i));
}

static void put64(struct b *b, size_t off, uint64_t v)
{
        int i;

        for (i = 0; i < 8; i++)
                b->d[off + (size_t)i] = (uint8_t)(v >> (b->big ? 56 - 8 * i : 8 * i));
}

static size_t add_str(struct b *b, const char *s)
{
        size_t o = b->n, l = strlen(s) + 1;

        memcpy(b->d + b->n, s, l);
        b->n += l;
        return o;
}

static void b_init(struct b *b, int big)
{
        memset(b, 0, sizeof(*b));
        b->big = big;
}

/* A new-format cache at b->n: header, entries, strings, then the extension
 * directory (hwcaps array, generator). hwcaps name offsets are written
 * relative to the file start (what the loader reads) unless hw_rel_header. */
static size_t build_new(struct b *b, const struct ent *e, size_t n, const char *const *hw, size_t nh, const char *gen,
                        int hw_rel_header)
{
        size_t base = b->n, i, strstart, ext, nsec = 0, s = 0;
        uint32_t hwo[8];

        memcpy(b->d + base, "glibc-ld.so.cache1.1", 20);
        put32(b, base + 20, (uint32_t)n);
        b->d[base + 28] = b->big ? 3 : 2;
        b->n = base + 48 + 24 * n;
        strstart = b->n;
        for (i = 0; i < n; i++) {
                size_t eo = base + 48 + 24 * i;

                put32(b, eo, (uint32_t)e[i].flags);
                b->kabs[i] = add_str(b, e[i].key);
                b->vabs[i] = add_str(b, e[i].value);
                put32(b, eo + 4, (uint32_t)(b->kabs[i] - base));
                put32(b, eo + 8, (uint32_t)(b->vabs[i] - base));
                put32(b, eo + 12, e[i].osv);
                put64(b, eo + 16, e[i].hwcap);
        }
        for (i = 0; i < nh; i++)
                hwo[i] = (uint32_t)(add_str(b, hw[i]) - (hw_rel_header ? base : 0));
        put32(b, base + 24, (uint32_t)(b->n - strstart));
        if (nh == 0 && gen == NULL)
                return base;
        b->n = (b->n + 3) & ~(size_t)3;
        ext = b->n;
        nsec = (gen ? 1 : 0) + (nh ? 1 : 0);
        put32(b, ext, EXT_MAGIC);
        put32(b, ext + 4, (uint32_t)nsec);
        b->n = ext + 8 + 16 * nsec;
        if (nh) {
                size_t so = ext + 8 + 16 * s++, off = b->n;

                for (i = 0; i < nh; i++) {
                        put32(b, b->n, hwo[i]);
                        b->n += 4;
                }
                put32(b, so, 1);
                put32(b, so + 8, (uint32_t)off);
                put32(b, so + 12, (uint32_t)(4 * nh));
        }
        if (gen) {
                size_t so = ext + 8 + 16 * s++, off = b->n;

                memcpy(b->d + b->n, gen, strlen(gen));
                b->n += strlen(gen);
                put32(b, so, 0);
                put32(b, so + 8, (uint32_t)off);
                put32(b, so + 12, (uint32_t)strlen(gen));
        }
        put32(b, base + 32, (uint32_t)ext);
        return base;
}

/* An old-format cache: n entries, strings right after the table. */
static void build_old(struct b *b, const struct ent *e, size_t n)
{
        size_t i, strbase = 16 + 12 * n;

        memcpy(b->d, "ld.so-1.7.0", 11);
        put32(b, 12, (uint32_t)n);
        b->n = strbase;
        for (i = 0; i < n; i++) {
                put32(b, 16 + 12 * i, (uint32_t)e[i].flags);
                put32(b, 16 + 12 * i + 4, (uint32_t)(add_str(b, e[i].key) - strbase));
                put32(b, 16 + 12 * i + 8, (uint32_t)(add_str(b, e[i].value) - strbase));
        }
}

/* The compat layout: an old table of nold slots (the first n filled, the
 * rest repeating the last, as ldconfig pads), the new cache at `at` (the
 * table's end, or that rounded up to 8), old strings pointing into it. */
static size_t build_compat(struct b *b, const struct ent *e, size_t n, size_t nold, int align8, const char *const *hw,
                           size_t nh, int hw_rel_header)
{
        size_t end = 16 + 12 * nold, base, i;

        memcpy(b->d, "ld.so-1.7.0", 11);
        put32(b, 12, (uint32_t)nold);
        b->n = align8 ? (end + 7) & ~(size_t)7 : end;
        base = build_new(b, e, n, hw, nh, "compat generator", hw_rel_header);
        for (i = 0; i < nold; i++) {
                size_t k = i < n ? i : n - 1;

                put32(b, 16 + 12 * i, (uint32_t)e[k].flags);
                put32(b, 16 + 12 * i + 4, (uint32_t)(b->kabs[k] - end));
                put32(b, 16 + 12 * i + 8, (uint32_t)(b->vabs[k] - end));
        }
        return base;
}

static const struct ent ents3[] = {
    {0x0303, "libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1", 0, 0},
    {0x0303, "libcudnn.so.9", "/usr/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3/libcudnn.so.9", 0, HWX | 1},
    {0x0303, "libcudnn.so.9", "/usr/lib/x86_64-linux-gnu/libcudnn.so.9", 0x00020620, 0},
    {0x0003, "libcudnn.so.9", "/usr/lib/i386-linux-gnu/libcudnn.so.9", 0, 0},
};
static const char *const hw2[] = {"x86-64-v2", "x86-64-v3"};

static cc_ldcache *parse_ok(const uint8_t *d, size_t n)
{
        cc_error err = {0};
        cc_ldcache *c = NULL;
        uint8_t *copy = malloc(n ? n : 1); /* exact size: ASan sees any overread */

        assert_non_null(copy);
        memcpy(copy, d, n);
        if (cc_ldcache_parse(copy, n, &c, &err) != 0)
                fail_msg("parse: %s", err.msg);
        free(copy);
        assert_non_null(c);
        return c;
}

static void parse_fail(const uint8_t *d, size_t n, int code, const char *needle)
{
        cc_error err = {0};
        cc_ldcache *c = (cc_ldcache *)1;
        uint8_t *copy = malloc(n ? n : 1);

        assert_non_null(copy);
        memcpy(copy, d, n);
        assert_int_equal(cc_ldcache_parse(copy, n, &c, &err), -1);
        free(copy);
        assert_null(c);
        if (err.code != code)
                fail_msg("expected code %d, got %d (%s)", code, err.code, err.msg);
        if (needle && strstr(err.msg, needle) == NULL)
                fail_msg("error \"%s\" lacks \"%s\"", err.msg, needle);
}

static int has_warning(const cc_ldcache *c, const char *needle)
{
        size_t i;

        for (i = 0; i < c->warnings.n; i++)
                if (strstr(c->warnings.v[i], needle) != NULL)
                        return 1;
        return 0;
}

static void expect_warning(const cc_ldcache *c, const char *needle)
{
        size_t i;

        if (has_warning(c, needle))
                return;
        for (i = 0; i < c->warnings.n; i++)
                print_message("warning: %s\n", c->warnings.v[i]);
        fail_msg("no warning containing \"%s\"", needle);
}

static void check_ents3(const cc_ldcache *c, int with_hwcaps)
{
        size_t i;

        assert_int_equal(c->n, 4);
        for (i = 0; i < 4; i++) {
                assert_int_equal(c->entries[i].flags, ents3[i].flags);
                assert_string_equal(c->entries[i].key, ents3[i].key);
                assert_string_equal(c->entries[i].value, ents3[i].value);
        }
        if (!with_hwcaps)
                return;
        assert_int_equal(c->entries[2].osversion, 0x00020620);
        assert_true(c->entries[1].hwcap == (HWX | 1));
        assert_int_equal(c->entries[1].hwcaps_index, 1);
        assert_string_equal(c->entries[1].hwcaps, "x86-64-v3");
        assert_ptr_equal(c->entries[1].hwcaps, c->hwcaps.v[1]);
        for (i = 0; i < 4; i++)
                if (i != 1) {
                        assert_int_equal(c->entries[i].hwcaps_index, -1);
                        assert_null(c->entries[i].hwcaps);
                }
        assert_int_equal(c->hwcaps.n, 2);
        assert_string_equal(c->hwcaps.v[0], "x86-64-v2");
}

/* ---- built caches ------------------------------------------------------------ */

static void test_new_both_orders(void **state)
{
        int big;

        (void)state;
        for (big = 0; big < 2; big++) {
                struct b b;
                cc_ldcache *c;

                b_init(&b, big);
                build_new(&b, ents3, 4, hw2, 2, "ldconfig (test) 2.99", 0);
                assert_true(cc_ldcache_is(b.d, b.n));
                c = parse_ok(b.d, b.n);
                assert_int_equal(c->format, CC_LDCACHE_NEW);
                assert_int_equal(c->big_endian, big);
                assert_int_equal(c->n_old, 0);
                check_ents3(c, 1);
                assert_string_equal(c->generator, "ldconfig (test) 2.99");
                assert_int_equal(c->warnings.n, 0);
                cc_ldcache_free(c);

                /* endianness flags unset: detected from the entry count */
                b.d[28] = 0;
                c = parse_ok(b.d, b.n);
                assert_int_equal(c->big_endian, big);
                check_ents3(c, 1);
                assert_int_equal(c->warnings.n, 0);
                cc_ldcache_free(c);

                /* "invalid": read anyway, with a warning */
                b.d[28] = 1;
                c = parse_ok(b.d, b.n);
                assert_int_equal(c->big_endian, big);
                check_ents3(c, 1);
                expect_warning(c, "loader ignores it");
                cc_ldcache_free(c);

                /* other flag bits are ignored */
                b.d[28] = (uint8_t)(0xf0 | (big ? 3 : 2));
                c = parse_ok(b.d, b.n);
                assert_int_equal(c->big_endian, big);
                assert_int_equal(c->warnings.n, 0);
                cc_ldcache_free(c);
        }
}

static void test_old_both_orders(void **state)
{
        int big;

        (void)state;
        for (big = 0; big < 2; big++) {
                struct b b;
                cc_ldcache *c;
                size_t i;

                b_init(&b, big);
                build_old(&b, ents3, 4);
                assert_true(cc_ldcache_is(b.d, b.n));
                c = parse_ok(b.d, b.n);
                assert_int_equal(c->format, CC_LDCACHE_OLD);
                assert_int_equal(c->big_endian, big);
                assert_int_equal(c->n_old, 4);
                check_ents3(c, 0);
                for (i = 0; i < c->n; i++) {
                        assert_true(c->entries[i].hwcap == 0);
                        assert_int_equal(c->entries[i].osversion, 0);
                        assert_int_equal(c->entries[i].hwcaps_index, -1);
                }
                assert_null(c->generator);
                assert_int_equal(c->hwcaps.n, 0);
                assert_int_equal(c->warnings.n, 0);
                cc_ldcache_free(c);
        }
}

static void test_compat_layouts(void **state)
{
        int big, align8;

        (void)state;
        for (big = 0; big < 2; big++) {
                for (align8 = 0; align8 < 2; align8++) {
                        struct b b;
                        cc_ldcache *c;
                        size_t base;

                        /* 5 old slots: the table ends at 76, not 8-aligned */
                        b_init(&b, big);
                        base = build_compat(&b, ents3, 4, 5, align8, hw2, 2, 0);
                        assert_int_equal(base, align8 ? 80 : 76);
                        c = parse_ok(b.d, b.n);
                        assert_int_equal(c->format, CC_LDCACHE_COMPAT);
                        assert_int_equal(c->big_endian, big);
                        assert_int_equal(c->n_old, 5);
                        check_ents3(c, 1);
                        assert_string_equal(c->generator, "compat generator");
                        assert_int_equal(c->warnings.n, 0);
                        cc_ldcache_free(c);
                }
        }
}

/* ldconfig writes the glibc-hwcaps name offsets relative to the new-format
 * header, the loader reads them relative to the file: in the compat layout
 * they name other bytes. We read what the loader reads, and say so. */
static void test_compat_hwcaps_offsets(void **state)
{
        struct b b;
        cc_ldcache *c;

        (void)state;
        b_init(&b, 0);
        build_compat(&b, ents3, 4, 4, 1, hw2, 2, 1);
        c = parse_ok(b.d, b.n);
        assert_int_equal(c->format, CC_LDCACHE_COMPAT);
        assert_int_equal(c->n, 4);
        assert_int_equal(c->hwcaps.n, 2);
        assert_string_not_equal(c->hwcaps.v[1], "x86-64-v3");
        expect_warning(c, "ldconfig meant \"x86-64-v3\"");
        expect_warning(c, "ldconfig meant \"x86-64-v2\"");
        cc_ldcache_free(c);
}

/* ---- truncation ------------------------------------------------------------- */

static void truncate_all(const uint8_t *d, size_t size, size_t full_n)
{
        size_t len;

        for (len = 0; len <= size; len++) {
                cc_error err = {0};
                cc_ldcache *c = NULL;
                uint8_t *p = malloc(len ? len : 1);
                int rv;

                assert_non_null(p);
                memcpy(p, d, len);
                rv = cc_ldcache_parse(p, len, &c, &err);
                if (rv == 0) {
                        size_t i;

                        assert_non_null(c);
                        assert_true(c->n <= full_n);
                        if (c->n < full_n)
                                assert_true(c->warnings.n > 0);
                        for (i = 0; i < c->n; i++) {
                                assert_non_null(c->entries[i].key);
                                assert_non_null(c->entries[i].value);
                        }
                        if (len == size)
                                assert_int_equal(c->n, full_n);
                        cc_ldcache_free(c);
                } else {
                        assert_null(c);
                        if (err.code != CC_ERR_TRUNCATED && err.code != CC_ERR_FORMAT)
                                fail_msg("length %zu: code %d (%s)", len, err.code, err.msg);
                        assert_true(len < size);
                }
                free(p);
        }
}

static void test_truncated_everywhere(void **state)
{
        struct b b;
        int big;

        (void)state;
        for (big = 0; big < 2; big++) {
                b_init(&b, big);
                build_new(&b, ents3, 4, hw2, 2, "gen", 0);
                truncate_all(b.d, b.n, 4);
                b_init(&b, big);
                build_old(&b, ents3, 4);
                truncate_all(b.d, b.n, 4);
                b_init(&b, big);
                build_compat(&b, ents3, 4, 4, 1, hw2, 2, 0);
                truncate_all(b.d, b.n, 4);
        }
}

/* ---- hostile input ------------------------------------------------------------ */

static void test_magic_and_header(void **state)
{
        struct b b;
        uint8_t z[64];

        (void)state;
        memset(z, 0, sizeof(z));
        parse_fail(z, 0, CC_ERR_FORMAT, "bad magic");
        parse_fail(z, sizeof(z), CC_ERR_FORMAT, "bad magic");
        assert_false(cc_ldcache_is(z, sizeof(z)));
        assert_false(cc_ldcache_is(NULL, 10));
        parse_fail((const uint8_t *)"ld.so-1", 7, CC_ERR_TRUNCATED, NULL);
        parse_fail((const uint8_t *)"ld.so-1.7.0\0\0\0", 14, CC_ERR_TRUNCATED, "old-format");
        parse_fail((const uint8_t *)"glibc-ld.so.cache1", 18, CC_ERR_TRUNCATED, NULL);
        memcpy(z, "glibc-ld.so.cache1.0", 20);
        assert_true(cc_ldcache_is(z, sizeof(z)));
        parse_fail(z, sizeof(z), CC_ERR_UNSUPPORTED, "\"1.0\"");
        memcpy(z, "glibc-ld.so.cache1.1", 20);
        parse_fail(z, 47, CC_ERR_TRUNCATED, "header");
        /* an empty new-format cache is fine */
        {
                cc_ldcache *c = parse_ok(z, 48);

                assert_int_equal(c->n, 0);
                assert_int_equal(c->format, CC_LDCACHE_NEW);
                cc_ldcache_free(c);
        }

        /* counts: over the limit, or past the end of the file */
        b_init(&b, 0);
        build_new(&b, ents3, 4, NULL, 0, NULL, 0);
        put32(&b, 20, 1000001);
        parse_fail(b.d, b.n, CC_ERR_LIMIT, "limit");
        put32(&b, 20, 0xffffffffu);
        parse_fail(b.d, b.n, CC_ERR_LIMIT, NULL);
        put32(&b, 20, 100);
        parse_fail(b.d, b.n, CC_ERR_TRUNCATED, "do not fit");
        b_init(&b, 0);
        build_old(&b, ents3, 4);
        put32(&b, 12, 100);
        parse_fail(b.d, b.n, CC_ERR_TRUNCATED, "do not fit");
        put32(&b, 12, 0x7fffffff);
        parse_fail(b.d, b.n, CC_ERR_LIMIT, NULL);

        /* a string table that says it is longer than the file */
        b_init(&b, 0);
        build_new(&b, ents3, 4, NULL, 0, NULL, 0);
        put32(&b, 24, 0x10000);
        {
                cc_ldcache *c = parse_ok(b.d, b.n);

                assert_int_equal(c->n, 4);
                expect_warning(c, "string table");
                cc_ldcache_free(c);
        }
}

static void test_hostile_strings(void **state)
{
        struct b b;
        cc_ldcache *c;
        size_t i, n;
        static char longname[5000];

        (void)state;
        /* key/value offsets off the end, wrapping, or at a string without NUL */
        b_init(&b, 0);
        build_new(&b, ents3, 4, hw2, 2, NULL, 0);
        put32(&b, 48 + 4, 0xffffffffu);        /* entry 0 key */
        put32(&b, 48 + 24 + 8, (uint32_t)b.n); /* entry 1 value: one past the end */
        c = parse_ok(b.d, b.n);
        assert_int_equal(c->n, 2);
        assert_string_equal(c->entries[0].value, ents3[2].value);
        expect_warning(c, "entry 0: the name");
        expect_warning(c, "entry 1 (libcudnn.so.9): the path");
        cc_ldcache_free(c);

        /* the last string runs into the end of the file: cut off its NUL */
        b_init(&b, 0);
        build_new(&b, ents3, 4, NULL, 0, NULL, 0);
        c = parse_ok(b.d, b.n - 1);
        assert_int_equal(c->n, 3);
        expect_warning(c, "entry 3");
        cc_ldcache_free(c);

        /* strings longer than 4096 bytes are refused */
        memset(longname, 'a', sizeof(longname) - 1);
        {
                struct ent e[2] = {{0x303, "libok.so", "/ok", 0, 0}, {0x303, "liblong.so", longname, 0, 0}};

                b_init(&b, 0);
                build_new(&b, e, 2, NULL, 0, NULL, 0);
                c = parse_ok(b.d, b.n);
                assert_int_equal(c->n, 1);
                expect_warning(c, "at most 4096");
                cc_ldcache_free(c);
                longname[4096] = '\0'; /* exactly 4096 is fine */
                b_init(&b, 0);
                build_new(&b, e, 2, NULL, 0, NULL, 0);
                c = parse_ok(b.d, b.n);
                assert_int_equal(c->n, 2);
                assert_int_equal(strlen(c->entries[1].value), 4096);
                cc_ldcache_free(c);
        }

        /* old format: offsets are relative to the end of the table; one
         * that wraps past 2^32 or lands outside is skipped */
        b_init(&b, 1);
        build_old(&b, ents3, 4);
        put32(&b, 16 + 12 * 3 + 4, 0xfffffff0u);
        c = parse_ok(b.d, b.n);
        assert_int_equal(c->n, 3);
        expect_warning(c, "old-format entry 3");
        cc_ldcache_free(c);

        /* names in warnings are made printable: one line each */
        {
                struct ent e[1] = {{0x303, "lib\nx\x01.so", "/a/lib\nx.so", 0, HWX | 5}};

                b_init(&b, 0);
                build_new(&b, e, 1, hw2, 2, NULL, 0);
                c = parse_ok(b.d, b.n);
                assert_int_equal(c->n, 1);
                assert_string_equal(c->entries[0].key, "lib\nx\x01.so");
                expect_warning(c, "entry 0 (lib?x?.so): glibc-hwcaps index 5");
                cc_ldcache_free(c);
        }

        /* many bad entries: warnings are capped */
        b_init(&b, 0);
        {
                struct ent e[60];

                for (i = 0; i < 60; i++)
                        e[i] = ents3[0];
                build_new(&b, e, 60, NULL, 0, NULL, 0);
                for (i = 0; i < 60; i++)
                        put32(&b, 48 + 24 * i + 4, 0x80000000u);
                put32(&b, 48 + 24 * 59 + 4, 48 + 24 * 60); /* the last one is fine */
                c = parse_ok(b.d, b.n);
                assert_int_equal(c->n, 1);
                assert_true(c->warnings.n <= 64);
                n = c->warnings.n;
                assert_true(n >= 59);
                cc_ldcache_free(c);
        }
}

static size_t ext_of(struct b *b)
{
        return (size_t)b->d[32] | (size_t)b->d[33] << 8 | (size_t)b->d[34] << 16 | (size_t)b->d[35] << 24;
}

static void test_extension_problems(void **state)
{
        struct b b;
        cc_ldcache *c;
        size_t ext;

        (void)state;
        /* misaligned, past the end, bad magic, too many sections, sections past the end */
        b_init(&b, 0);
        build_new(&b, ents3, 4, hw2, 2, "gen", 0);
        ext = ext_of(&b);

        put32(&b, 32, (uint32_t)ext + 1);
        c = parse_ok(b.d, b.n);
        check_ents3(c, 0);
        assert_null(c->generator);
        assert_int_equal(c->hwcaps.n, 0);
        assert_int_equal(c->entries[1].hwcaps_index, -1);
        expect_warning(c, "not a multiple of 4");
        expect_warning(c, "glibc-hwcaps index 1 has no usable name");
        cc_ldcache_free(c);

        put32(&b, 32, 0xfffffffcu);
        c = parse_ok(b.d, b.n);
        expect_warning(c, "past the end");
        cc_ldcache_free(c);
        put32(&b, 32, (uint32_t)ext);

        put32(&b, ext, 0x12345678);
        c = parse_ok(b.d, b.n);
        expect_warning(c, "bad magic 0x12345678");
        cc_ldcache_free(c);
        put32(&b, ext, EXT_MAGIC);

        put32(&b, ext + 4, 0xffffffffu);
        c = parse_ok(b.d, b.n);
        expect_warning(c, "sections (limit");
        cc_ldcache_free(c);
        put32(&b, ext + 4, 3);
        c = parse_ok(b.d, b.n);
        expect_warning(c, "run past the end");
        cc_ldcache_free(c);
        put32(&b, ext + 4, 2);

        /* hwcaps section (the first) past the end: the generator still counts */
        put32(&b, ext + 8 + 12, 0xfffffff0u);
        c = parse_ok(b.d, b.n);
        assert_string_equal(c->generator, "gen");
        assert_int_equal(c->hwcaps.n, 0);
        expect_warning(c, "tag 1");
        cc_ldcache_free(c);
        /* size not a multiple of 4, or 0 */
        put32(&b, ext + 8 + 12, 6);
        c = parse_ok(b.d, b.n);
        expect_warning(c, "empty or misaligned");
        cc_ldcache_free(c);
        put32(&b, ext + 8 + 12, 0);
        c = parse_ok(b.d, b.n);
        expect_warning(c, "empty or misaligned");
        cc_ldcache_free(c);
        /* one name only: entry 1's index is out of range */
        put32(&b, ext + 8 + 12, 4);
        c = parse_ok(b.d, b.n);
        assert_int_equal(c->hwcaps.n, 1);
        assert_string_equal(c->hwcaps.v[0], "x86-64-v2");
        assert_int_equal(c->entries[1].hwcaps_index, -1);
        assert_null(c->entries[1].hwcaps);
        expect_warning(c, "index 1 has no usable name (1 in the extension)");
        cc_ldcache_free(c);
        put32(&b, ext + 8 + 12, 8);
        /* a name offset outside the file: "" in the table, no name for the entry */
        {
                size_t arr = ext + 8 + 32;

                put32(&b, arr + 4, 0xffffff00u);
                c = parse_ok(b.d, b.n);
                assert_int_equal(c->hwcaps.n, 2);
                assert_string_equal(c->hwcaps.v[1], "");
                assert_int_equal(c->entries[1].hwcaps_index, -1);
                expect_warning(c, "not NUL-terminated strings");
                cc_ldcache_free(c);
        }
        /* an unknown tag is skipped; a second generator replaces the first */
        b_init(&b, 0);
        build_new(&b, ents3, 4, hw2, 2, "gen", 0);
        ext = ext_of(&b);
        put32(&b, ext + 8, 7);
        c = parse_ok(b.d, b.n);
        assert_int_equal(c->hwcaps.n, 0);
        assert_string_equal(c->generator, "gen");
        assert_int_equal(c->entries[1].hwcaps_index, -1);
        cc_ldcache_free(c);
        put32(&b, ext + 8, 0); /* two generator sections */
        c = parse_ok(b.d, b.n);
        assert_string_equal(c->generator, "gen");
        expect_warning(c, "more than one extension section with tag 0");
        cc_ldcache_free(c);
        /* an extension offset of 0 means none */
        put32(&b, 32, 0);
        c = parse_ok(b.d, b.n);
        assert_null(c->generator);
        assert_int_equal(c->hwcaps.n, 0);
        cc_ldcache_free(c);
}

static void test_hwcaps_isa_bits(void **state)
{
        struct ent e[4] = {
            {0x303, "liba.so", "/a/v3/liba.so", 0, HWX | (3ull << 32) | 1}, /* ISA-level bits: still index 1 */
            {0x303, "liba.so", "/a/x/liba.so", 0, HWX | (1ull << 42) | 0},  /* another high bit: not ours */
            {0x303, "liba.so", "/a/tls/liba.so", 0, (1ull << 63) | 0x10},   /* plain hwcap bits */
            {0x303, "liba.so", "/a/liba.so", 0, HWX | (1ull << 63)},        /* TLS bit: not an index */
        };
        struct b b;
        cc_ldcache *c;

        (void)state;
        b_init(&b, 1);
        build_new(&b, e, 4, hw2, 2, NULL, 0);
        c = parse_ok(b.d, b.n);
        assert_int_equal(c->entries[0].hwcaps_index, 1);
        assert_string_equal(c->entries[0].hwcaps, "x86-64-v3");
        assert_int_equal(c->entries[1].hwcaps_index, -1);
        assert_int_equal(c->entries[2].hwcaps_index, -1);
        assert_true(c->entries[2].hwcap == ((1ull << 63) | 0x10));
        assert_int_equal(c->entries[3].hwcaps_index, -1);
        assert_int_equal(c->warnings.n, 0);
        cc_ldcache_free(c);
}

/* ---- flags ------------------------------------------------------------------------ */

static void test_flags_str(void **state)
{
        static const struct {
                int32_t flags;
                const char *s;
        } cases[] = {
            {0x0303, "libc6,x86-64"},
            {0x0003, "libc6"},
            {0x0a03, "libc6,AArch64"},
            {0x0002, "libc5"},
            {0x0001, "ELF"},
            {0x0000, "libc4"},
            {0x0803, "libc6,x32"},
            {0x0903, "libc6,hard-float"},
            {0x0b03, "libc6,soft-float"},
            {0x0203, "libc6,IA-64"},
            {0x0103, "libc6,64bit"},
            {0x0503, "libc6,64bit"},
            {0x0603, "libc6,N32"},
            {0x0d03, "libc6,N32,nan2008"},
            {0x0e03, "libc6,64bit,nan2008"},
            {0x0c03, "libc6,nan2008"},
            {0x0f03, "libc6,soft-float"},
            {0x1003, "libc6,double-float"},
            {0x1103, "libc6,4352"},
            {0x1203, "libc6,4608"},
            {0x0004, "unknown"},
            {-1, "unknown,65280"},
            {0x10303, "libc6,x86-64"},
            {0x0007, "unknown"},
        };
        char buf[64], small[5];
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                assert_ptr_equal(cc_ldcache_flags_str(cases[i].flags, buf, sizeof(buf)), buf);
                assert_string_equal(buf, cases[i].s);
        }
        assert_ptr_equal(cc_ldcache_flags_str(0x0303, small, sizeof(small)), small);
        assert_string_equal(small, "libc");
        assert_null(cc_ldcache_flags_str(0x0303, NULL, 10));
}

static void test_flags_for(void **state)
{
        (void)state;
        assert_int_equal(cc_ldcache_flags_for(64, 62), 0x0303);
        assert_int_equal(cc_ldcache_flags_for(2, 62), 0x0303);
        assert_int_equal(cc_ldcache_flags_for(32, 62), 0x0803);
        assert_int_equal(cc_ldcache_flags_for(1, 62), 0x0803);
        assert_int_equal(cc_ldcache_flags_for(32, 3), 0x0003);
        assert_int_equal(cc_ldcache_flags_for(64, 3), -1);
        assert_int_equal(cc_ldcache_flags_for(64, 183), 0x0a03);
        assert_int_equal(cc_ldcache_flags_for(32, 183), -1);
        assert_int_equal(cc_ldcache_flags_for(32, 40), 0x0003);
        assert_int_equal(cc_ldcache_flags_for(64, 21), 0x0503);
        assert_int_equal(cc_ldcache_flags_for(32, 20), 0x0003);
        assert_int_equal(cc_ldcache_flags_for(64, 22), 0x0403);
        assert_int_equal(cc_ldcache_flags_for(32, 22), 0x0003);
        assert_int_equal(cc_ldcache_flags_for(64, 43), 0x0103);
        assert_int_equal(cc_ldcache_flags_for(32, 2), 0x0003);
        assert_int_equal(cc_ldcache_flags_for(64, 50), 0x0203);
        assert_int_equal(cc_ldcache_flags_for(64, 8), 0x0703);
        assert_int_equal(cc_ldcache_flags_for(32, 8), 0x0003);
        assert_int_equal(cc_ldcache_flags_for(64, 243), 0x1003);
        assert_int_equal(cc_ldcache_flags_for(64, 258), 0x1203);
        assert_int_equal(cc_ldcache_flags_for(64, 0x9026), 0x0003);
        assert_int_equal(cc_ldcache_flags_for(64, 0xbeef), -1);
        assert_int_equal(cc_ldcache_flags_for(0, 62), -1);
        assert_int_equal(cc_ldcache_flags_for(16, 62), -1);
        /* with e_flags */
        assert_int_equal(cc_ldcache_flags_for_elf(32, 8, 0x20), 0x0603);
        assert_int_equal(cc_ldcache_flags_for_elf(32, 8, 0x420), 0x0d03);
        assert_int_equal(cc_ldcache_flags_for_elf(32, 8, 0x400), 0x0c03);
        assert_int_equal(cc_ldcache_flags_for_elf(64, 8, 0x400), 0x0e03);
        assert_int_equal(cc_ldcache_flags_for_elf(64, 243, 0x0), 0x0f03);
        assert_int_equal(cc_ldcache_flags_for_elf(64, 243, 0x5), 0x1003);
        assert_int_equal(cc_ldcache_flags_for_elf(64, 243, 0x2), -1);
        assert_int_equal(cc_ldcache_flags_for_elf(64, 258, 0x41), 0x1103);
        assert_int_equal(cc_ldcache_flags_for_elf(64, 258, 0x43), 0x1203);
        assert_int_equal(cc_ldcache_flags_for_elf(64, 258, 0x42), -1);
        assert_int_equal(cc_ldcache_flags_for_elf(64, 62, 0xffffffffu), 0x0303);
        /* what the loader accepts */
        assert_true(cc_ldcache_flags_accepted(0x0303, 64, 62, 0));
        assert_false(cc_ldcache_flags_accepted(0x0003, 64, 62, 0));
        assert_false(cc_ldcache_flags_accepted(0x0803, 64, 62, 0));
        assert_true(cc_ldcache_flags_accepted(0x0803, 32, 62, 0));
        assert_true(cc_ldcache_flags_accepted(0x0003, 32, 3, 0));
        assert_true(cc_ldcache_flags_accepted(0x0001, 32, 3, 0));
        assert_false(cc_ldcache_flags_accepted(0x0303, 32, 3, 0));
        assert_true(cc_ldcache_flags_accepted(0x0903, 32, 40, 0x05000400));
        assert_true(cc_ldcache_flags_accepted(0x0003, 32, 40, 0x05000400));
        assert_false(cc_ldcache_flags_accepted(0x0b03, 32, 40, 0x05000400));
        assert_false(cc_ldcache_flags_accepted(0x0001, 32, 40, 0x05000400));
        assert_true(cc_ldcache_flags_accepted(0x0b03, 32, 40, 0x05000200));
        assert_true(cc_ldcache_flags_accepted(0x0001, 32, 22, 0));
        assert_false(cc_ldcache_flags_accepted(0x0001, 64, 22, 0));
        assert_true(cc_ldcache_flags_accepted(0x0a03, 64, 183, 0));
        assert_false(cc_ldcache_flags_accepted(0x0a03, 64, 0xbeef, 0));
}

/* ---- the oracle: ldconfig -p -------------------------------------------------------- */

static const char *const abi_os[] = {"Linux", "Hurd", "Solaris", "FreeBSD", "kNetBSD", "Syllable", "Unknown OS"};

/* The line ldconfig -p prints for an entry (print_entry in elf/cache.c);
 * with_os: the ", OS ABI: ..." part glibc before 2.36 printed. */
static void entry_line(const cc_ldcache_entry *e, int with_os, char *out, size_t size)
{
        char flags[64], hw[4200] = "", os[64] = "";

        cc_ldcache_flags_str(e->flags, flags, sizeof(flags));
        if (e->hwcaps != NULL)
                snprintf(hw, sizeof(hw), ", hwcap: \"%s\"", e->hwcaps);
        else if (e->hwcap != 0)
                snprintf(hw, sizeof(hw), ", hwcap: %#.16" PRIx64, e->hwcap);
        if (with_os && e->osversion != 0) {
                unsigned o = e->osversion >> 24;

                snprintf(os, sizeof(os), ", OS ABI: %s %u.%u.%u", abi_os[o > 6 ? 6 : o], (e->osversion >> 16) & 0xff,
                         (e->osversion >> 8) & 0xff, e->osversion & 0xff);
        }
        snprintf(out, size, "\t%s (%s%s%s) => %s", e->key, flags, hw, os, e->value);
}

/* ---- looking a name up ------------------------------------------------------ */

/* The span of name holds every entry with exactly that name: the same
 * entries a walk over the whole table finds. */
static void check_span(const cc_ldcache *c, const char *name)
{
        size_t lo = 99, hi = 0, i;

        cc_ldcache_span(c, name, &lo, &hi);
        assert_true(lo <= hi && hi <= c->n);
        if (!c->sorted) {
                assert_int_equal(lo, 0);
                assert_int_equal(hi, c->n);
        }
        for (i = 0; i < c->n; i++)
                if (strcmp(c->entries[i].key, name) == 0 && (i < lo || i >= hi))
                        fail_msg("entry %zu (%s) is outside the span [%zu, %zu) of its name", i, name, lo, hi);
        for (i = lo; i < hi && c->sorted; i++)
                assert_int_equal(cc_ldcache_libcmp(c->entries[i].key, name), 0);
}

static int sgn(int v)
{
        return (v > 0) - (v < 0);
}

static void test_libcmp(void **state)
{
        static const struct {
                const char *a, *b;
                int want;
        } cases[] = {
            {"libx.so.10", "libx.so.9", 1},
            {"libx.so.01", "libx.so.1", 0},
            {"libx.so.000", "libx.so.0", 0},
            {"libx.so.1", "libx.so.1.0", -1},        /* the end (0) against '.' */
            {"libxA.so", "libxa.so", -1},            /* bytes as they are: 'A' < 'a' */
            {"libx9.so", "libxa.so", 1},             /* a digit is above any other byte */
            {"libx.so", "libx9.so", -1},             /* '.' against a digit */
            {"libx-1.so", "libx_1.so", -1},          /* '-' < '_' */
            {"libx\xc3.so", "libx.so", -1},          /* a byte over 0x7f is a negative char */
            {"libx", "libx\xc3", 1},                 /* and below the end of a name */
            {"libx.so.4294967296", "libx.so.0", 0},  /* glibc's int wraps */
            {"libx.so.2147483648", "libx.so.1", -1}, /* to a negative number */
            {"libx.so.2147483647", "libx.so.2147483646", 1},
            {"", "", 0},
            {"", "a", -1},
            {"1", "", 1},
        };
        static const char *const toks[] = {"a", "A",  "b", "_",  "-",   ".",          "so",         "0",    "00",
                                           "1", "01", "9", "10", "100", "2147483648", "4294967297", "\xc3", "\x7f"};
        char names[40][64];
        size_t i, j, k;
        unsigned seed = 12345;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                if (sgn(cc_ldcache_libcmp(cases[i].a, cases[i].b)) != cases[i].want ||
                    sgn(cc_ldcache_libcmp(cases[i].b, cases[i].a)) != -cases[i].want)
                        fail_msg("libcmp(%s, %s): want %d", cases[i].a, cases[i].b, cases[i].want);
        }
        /* a total order of classes: antisymmetric and transitive on made-up names */
        for (i = 0; i < 40; i++) {
                size_t nt = 1 + (seed = seed * 1103515245u + 12345u) % 5;

                strcpy(names[i], "lib");
                for (k = 0; k < nt; k++)
                        strcat(names[i], toks[(seed = seed * 1103515245u + 12345u) % CC_ARRAY_LEN(toks)]);
        }
        for (i = 0; i < 40; i++)
                for (j = 0; j < 40; j++) {
                        int ij = sgn(cc_ldcache_libcmp(names[i], names[j]));

                        assert_int_equal(ij, -sgn(cc_ldcache_libcmp(names[j], names[i])));
                        if (strcmp(names[i], names[j]) == 0)
                                assert_int_equal(ij, 0);
                        for (k = 0; k < 40; k++) {
                                int jk = sgn(cc_ldcache_libcmp(names[j], names[k]));

                                if (ij >= 0 && jk >= 0 && ij + jk > 0 &&
                                    sgn(cc_ldcache_libcmp(names[i], names[k])) <= 0)
                                        fail_msg("not transitive: %s, %s, %s", names[i], names[j], names[k]);
                                if (ij == 0 && jk == 0)
                                        assert_int_equal(sgn(cc_ldcache_libcmp(names[i], names[k])), 0);
                        }
                }
}

static int desc(const void *a, const void *b)
{
        return cc_ldcache_libcmp(((const struct ent *)b)->key, ((const struct ent *)a)->key);
}

/* Caches sorted as ldconfig sorts them are looked up by binary search; the
 * same entries shuffled are walked whole; either way every entry of a name
 * is found. */
static void test_span_generated(void **state)
{
        static const char *const toks[] = {"a",  "A", "_",  "-", ".so", ".",          "0",
                                           "00", "1", "01", "9", "10",  "4294967296", "\xc3"};
        static char keys[60][48];
        struct ent e[60];
        static struct b b;
        unsigned seed = 777;
        int round;

        (void)state;
        for (round = 0; round < 200; round++) {
                size_t n = 1 + (seed = seed * 1103515245u + 12345u) % 60, i, k;
                int shuffled;
                cc_ldcache *c;

                for (i = 0; i < n; i++) {
                        size_t nt = (seed = seed * 1103515245u + 12345u) % 4;

                        if (i > 0 && (seed = seed * 1103515245u + 12345u) % 4 == 0) {
                                /* the same name again (another copy of a library) */
                                strcpy(keys[i], keys[(seed = seed * 1103515245u + 12345u) % i]);
                        } else {
                                strcpy(keys[i], "libq");
                                for (k = 0; k < nt; k++)
                                        strcat(keys[i],
                                               toks[(seed = seed * 1103515245u + 12345u) % CC_ARRAY_LEN(toks)]);
                        }
                        e[i].flags = 0x0303;
                        e[i].key = keys[i];
                        e[i].value = "/lib/x";
                        e[i].osv = 0;
                        e[i].hwcap = 0;
                }
                shuffled = round % 2;
                if (!shuffled)
                        qsort(e, n, sizeof(e[0]), desc);
                b_init(&b, 0);
                build_new(&b, e, n, NULL, 0, NULL, 0);
                c = parse_ok(b.d, b.n);
                assert_int_equal(c->n, n);
                if (!shuffled)
                        assert_true(c->sorted);
                for (i = 0; i < n; i++)
                        check_span(c, keys[i]);
                check_span(c, "libq");
                check_span(c, "libq9");
                check_span(c, "libzzz");
                check_span(c, "");
                cc_ldcache_free(c);
        }
}

/* Parse fixture ldcache/NAME.cache and compare with NAME.txt; skip when
 * ldconfig did not produce NAME.txt. Returns the parsed cache. */
static cc_ldcache *oracle(const char *name)
{
        char rel[128], *cpath, *tpath, *text, *line, *save = NULL;
        size_t size, tsize, i = 0, count = 0, nlines = 0;
        uint8_t *data;
        cc_ldcache *c;
        int saw_gen = 0;

        snprintf(rel, sizeof(rel), "ldcache/%s.txt", name);
        tpath = tu_fixture(rel);
        snprintf(rel, sizeof(rel), "ldcache/%s.cache", name);
        cpath = tu_fixture(rel);
        if (!tu_exists(tpath) || !tu_exists(cpath)) {
                print_message("%s: no ldconfig output (no ldconfig, or no such cache here)\n", name);
                free(tpath);
                free(cpath);
                return NULL;
        }
        data = tu_read(cpath, &size);
        c = parse_ok(data, size);
        free(data);
        text = (char *)tu_read(tpath, &tsize);
        text = realloc(text, tsize + 1);
        assert_non_null(text);
        text[tsize] = '\0';
        for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
                char want[8400];

                nlines++;
                if (nlines == 1) {
                        if (sscanf(line, "%zu libs found in cache", &count) != 1)
                                fail_msg("%s: unexpected first line \"%s\"", name, line);
                        assert_int_equal(count, c->n);
                        continue;
                }
                if (strncmp(line, "Cache generated by: ", 20) == 0) {
                        assert_non_null(c->generator);
                        assert_string_equal(line + 20, c->generator);
                        saw_gen = 1;
                        continue;
                }
                if (line[0] != '\t')
                        fail_msg("%s: unexpected line \"%s\"", name, line);
                if (i >= c->n)
                        fail_msg("%s: ldconfig printed more entries than the %zu we read", name, c->n);
                entry_line(&c->entries[i], 0, want, sizeof(want));
                if (strcmp(want, line) != 0) {
                        entry_line(&c->entries[i], 1, want, sizeof(want));
                        if (strcmp(want, line) != 0)
                                fail_msg("%s: entry %zu:\n  ldconfig: %s\n  we:       %s", name, i, line, want);
                }
                i++;
        }
        assert_int_equal(i, c->n);
        if (c->format == CC_LDCACHE_OLD)
                assert_false(saw_gen);
        else if (c->generator != NULL)
                assert_true(saw_gen);
        print_message("%s: %zu entries match ldconfig -p\n", name, i);
        /* written by ldconfig (odd and oddold are python's, in no order):
         * sorted in our order too, so every lookup takes the binary search */
        if (strncmp(name, "odd", 3) != 0) {
                if (!c->sorted)
                        fail_msg("%s: ldconfig's order is not cc_ldcache_libcmp's", name);
                for (i = 0; i < c->n; i++)
                        check_span(c, c->entries[i].key);
        }
        free(text);
        free(tpath);
        free(cpath);
        return c;
}

static void test_oracle_old(void **state)
{
        cc_ldcache *c = oracle("old");

        (void)state;
        if (c == NULL)
                skip();
        assert_int_equal(c->format, CC_LDCACHE_OLD);
        assert_int_equal(c->n_old, c->n);
        assert_true(c->n >= 9);
        assert_int_equal(c->warnings.n, 0);
        cc_ldcache_free(c);
}

static void test_oracle_compat(void **state)
{
        cc_ldcache *c = oracle("compat");
        size_t i;

        (void)state;
        if (c == NULL)
                skip();
        assert_int_equal(c->format, CC_LDCACHE_COMPAT);
        assert_true(c->n_old >= c->n - c->hwcaps.n - 1);
        assert_int_equal(c->n_old % 2, 0); /* ldconfig pads the old table to an even count */
        assert_int_equal(c->hwcaps.n, 2);
        /* the hwcaps names are read where the loader reads them, not where
         * ldconfig put them; say what was meant */
        expect_warning(c, "ldconfig meant \"x86-64-v3\"");
        for (i = 0; i < c->n; i++)
                if (strstr(c->entries[i].value, "/glibc-hwcaps/") != NULL)
                        assert_true(c->entries[i].hwcaps_index >= 0);
        cc_ldcache_free(c);
}

static void test_oracle_new(void **state)
{
        cc_ldcache *c = oracle("new");
        size_t i, nv3 = 0;

        (void)state;
        if (c == NULL)
                skip();
        assert_int_equal(c->format, CC_LDCACHE_NEW);
        assert_int_equal(c->big_endian, 0);
        assert_int_equal(c->n_old, 0);
        assert_int_equal(c->warnings.n, 0);
        assert_int_equal(c->hwcaps.n, 2);
        assert_string_equal(c->hwcaps.v[0], "x86-64-v2");
        assert_string_equal(c->hwcaps.v[1], "x86-64-v3");
        assert_non_null(c->generator);
        assert_non_null(strstr(c->generator, "ldconfig"));
        for (i = 0; i < c->n; i++) {
                const cc_ldcache_entry *e = &c->entries[i];

                /* all built by this gcc for this machine */
                assert_int_equal(e->flags, c->entries[0].flags);
                assert_int_equal(e->flags & CC_LDC_FLAG_TYPE_MASK, CC_LDC_FLAG_ELF_LIBC6);
                if (strstr(e->value, "/glibc-hwcaps/x86-64-v3/") != NULL) {
                        assert_string_equal(e->hwcaps, "x86-64-v3");
                        nv3++;
                } else if (strstr(e->value, "/glibc-hwcaps/x86-64-v2/") != NULL) {
                        assert_string_equal(e->hwcaps, "x86-64-v2");
                } else {
                        assert_null(e->hwcaps);
                }
        }
        assert_int_equal(nv3, 2);
        cc_ldcache_free(c);
}

static void test_oracle_odd(void **state)
{
        cc_ldcache *c = oracle("odd");

        (void)state;
        if (c == NULL)
                skip();
        assert_int_equal(c->n, 133);
        expect_warning(c, "glibc-hwcaps index 7");
        cc_ldcache_free(c);
        c = oracle("oddold");
        assert_non_null(c);
        assert_int_equal(c->format, CC_LDCACHE_OLD);
        cc_ldcache_free(c);
}

static void test_oracle_system(void **state)
{
        cc_ldcache *c = oracle("system");

        (void)state;
        if (c == NULL)
                skip();
        assert_true(c->n > 0);
        cc_ldcache_free(c);
}

/* The crafted seeds parse as designed. */
static void test_seed_caches(void **state)
{
        static const char *const names[] = {"small-le", "small-be", "small-unset"};
        size_t i, size;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(names); i++) {
                char rel[64], *p;
                uint8_t *d;
                cc_ldcache *c;

                snprintf(rel, sizeof(rel), "ldcache/%s.cache", names[i]);
                p = tu_fixture(rel);
                d = tu_read(p, &size);
                c = parse_ok(d, size);
                assert_int_equal(c->big_endian, i == 1);
                assert_int_equal(c->n, 3);
                assert_string_equal(c->entries[1].hwcaps, "x86-64-v3");
                assert_string_equal(c->generator, "fixture generator 1.0");
                cc_ldcache_free(c);
                free(d);
                free(p);
        }
}

static void test_null_args(void **state)
{
        cc_error err = {0};
        cc_ldcache *c = NULL;

        (void)state;
        assert_int_equal(cc_ldcache_parse(NULL, 4, &c, &err), -1);
        assert_int_equal(err.code, CC_ERR_USAGE);
        assert_int_equal(cc_ldcache_parse((const uint8_t *)"x", 1, NULL, &err), -1);
        assert_int_equal(err.code, CC_ERR_USAGE);
        assert_int_equal(cc_ldcache_parse(NULL, 0, &c, NULL), -1);
        cc_ldcache_free(NULL);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_new_both_orders),
            cmocka_unit_test(test_old_both_orders),
            cmocka_unit_test(test_compat_layouts),
            cmocka_unit_test(test_compat_hwcaps_offsets),
            cmocka_unit_test(test_truncated_everywhere),
            cmocka_unit_test(test_magic_and_header),
            cmocka_unit_test(test_hostile_strings),
            cmocka_unit_test(test_extension_problems),
            cmocka_unit_test(test_hwcaps_isa_bits),
            cmocka_unit_test(test_flags_str),
            cmocka_unit_test(test_flags_for),
            cmocka_unit_test(test_oracle_old),
            cmocka_unit_test(test_oracle_compat),
            cmocka_unit_test(test_oracle_new),
            cmocka_unit_test(test_oracle_odd),
            cmocka_unit_test(test_oracle_system),
            cmocka_unit_test(test_seed_caches),
            cmocka_unit_test(test_libcmp),
            cmocka_unit_test(test_span_generated),
            cmocka_unit_test(test_null_args),
        };

        return cmocka_run_group_tests_name("ldcache", tests, NULL, NULL);
}
