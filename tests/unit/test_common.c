#include "testutil.h"

#include "common.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void test_buf_cap(void **state)
{
        cc_buf b = {0};
        cc_error err = {0};

        (void)state;
        b.max = 8;
        assert_int_equal(cc_buf_puts(&b, "12345678", &err), 0);
        assert_string_equal(b.data, "12345678");
        assert_int_equal(cc_buf_putc(&b, 'x', &err), -1);
        assert_int_equal(err.code, CC_ERR_LIMIT);
        assert_int_equal(b.len, 8);
        assert_int_equal(cc_buf_printf(&b, &err, "%d", 5), -1);
        cc_buf_free(&b);
        assert_int_equal(cc_buf_printf(&b, &err, "%s-%d", "a", 42), 0);
        assert_string_equal(b.data, "a-42");
        cc_buf_free(&b);
}

static void test_strv(void **state)
{
        cc_strv sv = {0};
        cc_error err = {0};
        int i;

        (void)state;
        for (i = 0; i < 100; i++)
                assert_int_equal(cc_strv_pushn(&sv, "abcdef", (size_t)(i % 6), &err), 0);
        assert_int_equal(sv.n, 100);
        assert_string_equal(sv.v[5], "abcde");
        assert_true(cc_strv_contains(&sv, "abc"));
        assert_false(cc_strv_contains(&sv, "abcdef"));
        cc_strv_free(&sv);
        assert_int_equal(cc_strv_push(&sv, "libcudnn.so.9", &err), 0);
        assert_int_equal(cc_strv_push(&sv, "Z", &err), 0);
        assert_int_equal(cc_strv_push(&sv, "libcudnn.so", &err), 0);
        cc_strv_sort(&sv);
        assert_string_equal(sv.v[0], "Z");
        assert_string_equal(sv.v[1], "libcudnn.so");
        assert_string_equal(sv.v[2], "libcudnn.so.9");
        cc_strv_free(&sv);
        cc_strv_free(&sv); /* idempotent */
        cc_strv_free(NULL);
}

/* Every string stays where it was put while blocks fill and grow, a long
 * one gets a block of its own, and the bytes are copied (not borrowed). */
static void test_strpool(void **state)
{
        cc_strpool p = {0};
        cc_error err = {0};
        char *got[3000], src[32], *big, *after;
        int i;

        (void)state;
        for (i = 0; i < 3000; i++) {
                snprintf(src, sizeof(src), "libcudnn_%d.so.9", i);
                got[i] = cc_strpool_add(&p, src, strlen(src) - 5 + (size_t)(i % 6), &err);
                assert_non_null(got[i]);
                memset(src, 'x', sizeof(src));
        }
        for (i = 0; i < 3000; i++) {
                char want[32];

                snprintf(want, sizeof(want), "libcudnn_%d.so.9", i);
                want[strlen(want) - 5 + (size_t)(i % 6)] = '\0';
                assert_string_equal(got[i], want);
        }
        big = malloc(200000);
        assert_non_null(big);
        memset(big, 'a', 200000);
        after = cc_strpool_add(&p, big, 199999, &err);
        free(big);
        assert_non_null(after);
        assert_int_equal(strlen(after), 199999);
        assert_string_equal(cc_strpool_add(&p, "x", 0, &err), "");
        assert_string_equal(got[2999], "libcudnn_2999.so.9");
        assert_string_equal(got[0], "libcudnn_0");
        cc_strpool_free(&p);
        assert_null(p.head);
        cc_strpool_free(&p); /* idempotent */
}

static void test_readers(void **state)
{
        static const uint8_t d[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        uint16_t u16;
        uint32_t u32;
        uint64_t u64;

        (void)state;
        assert_int_equal(cc_rd_u16(d, 8, 0, 0, &u16), 0);
        assert_int_equal(u16, 0x0201);
        assert_int_equal(cc_rd_u16(d, 8, 0, 1, &u16), 0);
        assert_int_equal(u16, 0x0102);
        assert_int_equal(cc_rd_u32(d, 8, 4, 0, &u32), 0);
        assert_int_equal(u32, 0x08070605);
        assert_int_equal(cc_rd_u32(d, 8, 5, 0, &u32), -1);
        assert_int_equal(cc_rd_u64(d, 8, 0, 1, &u64), 0);
        assert_true(u64 == 0x0102030405060708ULL);
        assert_int_equal(cc_rd_u64(d, 8, 1, 1, &u64), -1);
        assert_int_equal(cc_rd_u32(d, 8, UINT64_MAX - 1, 0, &u32), -1);
        assert_true(cc_range_ok(8, 8, 0));
        assert_false(cc_range_ok(8, 9, 0));
        assert_false(cc_range_ok(8, 4, UINT64_MAX));
        assert_false(cc_range_ok(8, UINT64_MAX, 1));
}

static void test_utf8(void **state)
{
        static const struct {
                const char *s;
                int ok;
        } cases[] = {
            {"plain", 1},
            {"caf\xc3\xa9", 1},
            {"\xe2\x82\xac", 1},
            {"\xf0\x9f\x98\x80", 1},
            {"\xff", 0},
            {"\xc3", 0},
            {"\xc0\xaf", 0},
            {"\xe0\x80\xaf", 0},
            {"\xed\xa0\x80", 0},
            {"\xf4\x90\x80\x80", 0},
            {"\xe2\x82", 0},
            {"a\x80"
             "b",
             0},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++)
                assert_int_equal(cc_utf8_valid(cases[i].s, strlen(cases[i].s)), cases[i].ok);
}

/* Text for a terminal: printable ASCII and UTF-8 as they are; control bytes,
 * invalid UTF-8, C1 controls and the bidirectional formatting characters
 * (which reorder the rest of a line) escaped. */
static void test_put_escaped(void **state)
{
        static const struct {
                const char *in, *out;
        } cases[] = {
            {"plain ASCII", "plain ASCII"},
            {"caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80",
             "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80"},
            {"esc\x1b[2J bel\x07 del\x7f", "esc\\x1b[2J bel\\x07 del\\x7f"},
            {"bad \xc3( cut \xe2\x80", "bad \\xc3( cut \\xe2\\x80"},
            {"csi \xc2\x9b"
             "31m nel \xc2\x85 nbsp \xc2\xa0",
             "csi \\u{009b}31m nel \\u{0085} nbsp \xc2\xa0"},
            {"evil\xe2\x80\xae"
             "txt.exe",
             "evil\\u{202e}txt.exe"},
            {"\xe2\x80\x8e\xe2\x80\x8f\xe2\x80\xaa\xe2\x81\xa6\xe2\x81\xa9",
             "\\u{200e}\\u{200f}\\u{202a}\\u{2066}\\u{2069}"},
            {"dash \xe2\x80\x94 quote \xe2\x80\x9c", "dash \xe2\x80\x94 quote \xe2\x80\x9c"},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                cc_buf b = {0};
                cc_error err = {0};

                assert_int_equal(cc_buf_put_escaped(&b, cases[i].in, &err), 0);
                assert_non_null(b.data);
                assert_string_equal(b.data, cases[i].out);
                cc_buf_free(&b);
        }
}

static void test_strings(void **state)
{
        (void)state;
        assert_string_equal(cc_basename("/a/b/libcudnn.so.9"), "libcudnn.so.9");
        assert_string_equal(cc_basename("C:\\CUDA\\bin\\cudnn64_8.dll"), "cudnn64_8.dll");
        assert_string_equal(cc_basename("plain"), "plain");
        assert_string_equal(cc_basename("dir/"), "");
        assert_int_equal(cc_strcasecmp("CUDNN64_8.DLL", "cudnn64_8.dll"), 0);
        assert_true(cc_strcasecmp("a", "b") < 0);
        assert_true(cc_ends_with_nocase("X.DLL", ".dll"));
        assert_false(cc_ends_with("X.DLL", ".dll"));
        assert_true(cc_starts_with("libcudnn", "lib"));
}

static void test_errors(void **state)
{
        cc_error err = {0};
        char *s;

        (void)state;
        assert_int_equal(cc_err(&err, CC_ERR_FORMAT, "bad %s at %d", "thing", 7), -1);
        assert_string_equal(err.msg, "bad thing at 7");
        cc_err_prefix(&err, "%s", "file.so");
        assert_string_equal(err.msg, "file.so: bad thing at 7");
        assert_int_equal(cc_err(NULL, 1, "ignored"), -1);
        assert_int_equal(cc_err_errno(&err, 2, "open %s", "x"), -1);
        assert_int_equal(err.code, CC_ERR_IO);
        assert_true(strncmp(err.msg, "open x: ", 8) == 0);
        s = cc_asprintf(&err, "%s=%zu", "n", (size_t)12);
        assert_string_equal(s, "n=12");
        free(s);
}

/* cc_memmem against a byte-at-a-time search, over every start and length of
 * a haystack with near misses, repeats and NUL bytes. */
static void test_memmem(void **state)
{
        static const char hay[] = "aab\0abaaab release version release version 2.36\0zz";
        static const char *needles[] = {"a", "aab", "aaab", "\0a", "release version 2.", "ver", "zz", "zzz", "q"};
        size_t h = sizeof(hay) - 1, i, off, len;

        (void)state;
        assert_ptr_equal(cc_memmem(hay, h, "", 0), hay);
        assert_null(cc_memmem(hay, 0, "a", 1));
        for (i = 0; i < sizeof(needles) / sizeof(needles[0]); i++) {
                size_t n = needles[i][0] ? strlen(needles[i]) : 2;

                for (off = 0; off <= h; off++)
                        for (len = 0; off + len <= h; len++) {
                                const char *want = NULL, *got = cc_memmem(hay + off, len, needles[i], n);
                                size_t k;

                                for (k = 0; k + n <= len && want == NULL; k++)
                                        if (memcmp(hay + off + k, needles[i], n) == 0)
                                                want = hay + off + k;
                                assert_ptr_equal(got, want);
                        }
        }
}

/* cc_memmem_at finds what a plain search finds, from whichever byte of the
 * needle it starts its candidates (generated haystacks of few letters: many
 * near misses, needles at both ends). */
static void test_memmem_at(void **state)
{
        static const char letters[] = "cudn\0";
        char hay[96];
        unsigned seed = 7;
        size_t round;

        (void)state;
        for (round = 0; round < 3000; round++) {
                size_t h = (seed = seed * 1103515245u + 12345u) % sizeof(hay), n, at, k;
                char needle[6];
                const char *want = NULL;

                for (k = 0; k < h; k++)
                        hay[k] = letters[(seed = seed * 1103515245u + 12345u) >> 16 & 3];
                n = 1 + (seed >> 20) % 5;
                for (k = 0; k < n; k++)
                        needle[k] = letters[(seed = seed * 1103515245u + 12345u) >> 16 & 3];
                for (k = 0; k + n <= h && want == NULL; k++)
                        if (memcmp(hay + k, needle, n) == 0)
                                want = hay + k;
                for (at = 0; at <= n; at++) /* at == n: out of range, taken as 0 */
                        assert_ptr_equal(cc_memmem_at(hay, h, needle, n, at), want);
        }
        assert_ptr_equal(cc_memmem_at("abc", 3, "", 0, 0), "abc");
        assert_null(cc_memmem_at("ab", 2, "abc", 3, 2));
}

static void test_cat(void **state)
{
        cc_error err = {0};
        char *s;

        (void)state;
        s = cc_cat(&err, (char *)NULL);
        assert_string_equal(s, "");
        free(s);
        s = cc_cat(&err, "/usr/lib", "/", "", "glibc-hwcaps/x86-64-v3", "/", "libz.so.1", (char *)NULL);
        assert_string_equal(s, "/usr/lib/glibc-hwcaps/x86-64-v3/libz.so.1");
        free(s);
}

/* cc_utc_text against the C library's gmtime, across leap days, century
 * years and before the epoch (years 1000 to 9999: glibc's %Y does not pad
 * a shorter year to four digits); and cc_err_keep_nomem. */
/* ---- the string map ---------------------------------------------------- */

struct seen_keys {
        const char *want;
        const char *got;
        size_t n;
};

static void see_key(void *ctx, const char *key, void *value)
{
        struct seen_keys *s = ctx;

        (void)value;
        s->n++;
        if (strcmp(key, s->want) == 0)
                s->got = key;
}

static void test_smap(void **state)
{
        cc_smap m = {0}, nc = {0}, b = {0};
        cc_error err = {0};
        char keys[3000][16];
        void *v = NULL, *old = NULL;
        struct seen_keys sk = {0};
        size_t i, cap;

        (void)state;
        /* put, get, replace; many keys (it grows), each found with its value */
        for (i = 0; i < 3000; i++) {
                snprintf(keys[i], sizeof(keys[i]), "key%zu", i);
                assert_int_equal(cc_smap_put(&m, keys[i], (void *)(uintptr_t)(i + 1), NULL, &err), 0);
        }
        assert_int_equal(m.n, 3000);
        for (i = 0; i < 3000; i++) {
                assert_int_equal(cc_smap_get(&m, keys[i], &v), 1);
                assert_int_equal((uintptr_t)v, i + 1);
        }
        assert_int_equal(cc_smap_get(&m, "key3000", NULL), 0);
        assert_int_equal(cc_smap_get(&m, "KEY1", NULL), 0);
        assert_int_equal(cc_smap_put(&m, "key7", (void *)(uintptr_t)99, &old, &err), 0);
        assert_int_equal((uintptr_t)old, 8);
        assert_int_equal(m.n, 3000);
        cc_smap_free(&m);
        assert_int_equal(m.n, 0);
        /* case-insensitive keys */
        nc.nocase = 1;
        assert_int_equal(cc_smap_put(&nc, "CUDNN64_9.DLL", (void *)(uintptr_t)1, NULL, &err), 0);
        assert_int_equal(cc_smap_get(&nc, "cudnn64_9.dll", &v), 1);
        cc_smap_free(&nc);
        /* reserved: no growing for as many keys; borrowed: the caller's own strings */
        b.borrow = 1;
        assert_int_equal(cc_smap_reserve(&b, 3000, &err), 0);
        cap = b.cap;
        assert_true(cap * 3 >= 3001 * 4);
        for (i = 0; i < 3000; i++)
                assert_int_equal(cc_smap_put(&b, keys[i], (void *)(uintptr_t)(i + 1), NULL, &err), 0);
        assert_int_equal(b.cap, cap);
        assert_int_equal(cc_smap_get(&b, "key2999", &v), 1);
        assert_int_equal((uintptr_t)v, 3000);
        sk.want = "key42";
        cc_smap_each(&b, see_key, &sk);
        assert_int_equal(sk.n, 3000);
        assert_ptr_equal(sk.got, keys[42]);                 /* not a copy */
        assert_int_equal(cc_smap_reserve(&b, 10, &err), 0); /* never shrinks */
        assert_int_equal(b.cap, cap);
        cc_smap_free(&b); /* frees no key (ASan would see a free of the stack) */
}

static void test_utc_text(void **state)
{
        static const int64_t fixed[] = {0,        -1,          951782400,  951868799,    4107542400, 4107542399,
                                        68169600, -2208988800, 1796611269, 253402300799, -5000000000};
        char got[32], want[32];
        int64_t t;
        size_t i;
        cc_error nomem = {0}, other = {0}, out = {0};

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(fixed) + 20000; i++) {
                time_t tt;
                const struct tm *tmv;

                /* fixed points, then every 1,000,003rd second from 1900 on */
                t = i < CC_ARRAY_LEN(fixed) ? fixed[i] : -2208988800 + (int64_t)(i - CC_ARRAY_LEN(fixed)) * 1000003 * 7;
                tt = (time_t)t;
                tmv = gmtime(&tt); /* one thread */
                if (tmv == NULL)
                        continue; /* outside what this C library converts */
                strftime(want, sizeof(want), "%Y-%m-%dT%H:%M:%SZ", tmv);
                cc_utc_text(t, 0, got);
                assert_string_equal(got, want);
                strftime(want, sizeof(want), "%Y%m%dT%H%M%SZ", tmv);
                cc_utc_text(t, 1, got);
                assert_string_equal(got, want);
        }
        cc_err(&nomem, CC_ERR_NOMEM, "out of memory");
        cc_err(&other, CC_ERR_IO, "read failed");
        assert_int_equal(cc_err_keep_nomem(&other, &out), 0);
        assert_int_equal(out.code, CC_OK);
        assert_int_equal(cc_err_keep_nomem(&nomem, &out), -1);
        assert_int_equal(out.code, CC_ERR_NOMEM);
        assert_int_equal(cc_err_keep_nomem(&nomem, NULL), -1);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_buf_cap),     cmocka_unit_test(test_strv),     cmocka_unit_test(test_readers),
            cmocka_unit_test(test_utf8),        cmocka_unit_test(test_strings),  cmocka_unit_test(test_errors),
            cmocka_unit_test(test_memmem),      cmocka_unit_test(test_utc_text), cmocka_unit_test(test_cat),
            cmocka_unit_test(test_put_escaped), cmocka_unit_test(test_smap),     cmocka_unit_test(test_memmem_at),
            cmocka_unit_test(test_strpool),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
