/* MD5 (src/lib/formats/md5.c) against RFC 1321's test suite (appendix
 * A.5), fed whole and in every split, and against md5sum on generated
 * files of lengths around the block and padding edges. */
#define _GNU_SOURCE
#include "testutil.h"

#include "formats/md5.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void md5_of(const char *s, size_t n, char out[33])
{
        cc_md5 h;

        cc_md5_init(&h);
        cc_md5_update(&h, s, n);
        cc_md5_final_hex(&h, out);
}

static const struct {
        const char *msg, *md5;
} RFC1321[] = {
    {"", "d41d8cd98f00b204e9800998ecf8427e"},
    {"a", "0cc175b9c0f1b6a831c399e269772661"},
    {"abc", "900150983cd24fb0d6963f7d28e17f72"},
    {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
    {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
    {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
    {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
     "57edf4a22be3c955ac49da2e2107b67a"},
};

static void test_rfc1321_suite(void **state)
{
        char hex[33];
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(RFC1321) / sizeof(RFC1321[0]); i++) {
                md5_of(RFC1321[i].msg, strlen(RFC1321[i].msg), hex);
                assert_string_equal(hex, RFC1321[i].md5);
        }
}

/* Streaming: the 80-byte message in two pieces at every split, and byte
 * by byte, gives the digest of the whole. */
static void test_streamed(void **state)
{
        const char *m = RFC1321[6].msg;
        size_t n = strlen(m), cut, i;
        char hex[33];
        cc_md5 h;

        (void)state;
        for (cut = 0; cut <= n; cut++) {
                cc_md5_init(&h);
                cc_md5_update(&h, m, cut);
                cc_md5_update(&h, m + cut, n - cut);
                cc_md5_final_hex(&h, hex);
                assert_string_equal(hex, RFC1321[6].md5);
        }
        cc_md5_init(&h);
        for (i = 0; i < n; i++)
                cc_md5_update(&h, m + i, 1);
        cc_md5_final_hex(&h, hex);
        assert_string_equal(hex, RFC1321[6].md5);
}

/* md5sum's digest of the first n bytes of buf, and ours fed in uneven
 * pieces (1, 4, 13, 40, ... bytes). */
static void against_md5sum(const char *buf, size_t n)
{
        char tmpl[] = "/tmp/cc-md5-XXXXXX", cmd[64], want[33], hex[33];
        size_t off, step;
        cc_md5 h;
        FILE *p;
        int fd;

        fd = mkstemp(tmpl);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, buf, n), (ssize_t)n);
        close(fd);
        snprintf(cmd, sizeof(cmd), "md5sum %s", tmpl);
        p = popen(cmd, "r");
        assert_non_null(p);
        assert_int_equal(fscanf(p, "%32s", want), 1);
        pclose(p);
        unlink(tmpl);
        cc_md5_init(&h);
        for (off = 0, step = 1; off < n; off += step, step = step * 3 + 1)
                cc_md5_update(&h, buf + off, step < n - off ? step : n - off);
        cc_md5_final_hex(&h, hex);
        assert_string_equal(hex, want);
}

/* Against md5sum: every length 0..200 (the padding's 55/56/64 edges and
 * the second block's), and 1 MiB + 13. */
static void test_md5sum(void **state)
{
        static char buf[(1 << 20) + 13];
        size_t n;

        (void)state;
        for (n = 0; n < sizeof(buf); n++)
                buf[n] = (char)(n * 131 + (n >> 9) + 7);
        for (n = 0; n <= 200; n++)
                against_md5sum(buf, n);
        against_md5sum(buf, sizeof(buf));
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_rfc1321_suite),
            cmocka_unit_test(test_streamed),
            cmocka_unit_test(test_md5sum),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
