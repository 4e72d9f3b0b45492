/* Tests of the /proc/PID/maps line parser and the command-line joiner
 * (platform/procmaps.c): the kernel's own lines, paths with spaces, an
 * escaped newline and " (deleted)", and lines that must be refused:
 * truncated anywhere, numbers too long, bad permissions, NUL bytes; every
 * prefix of a good line and random bytes must never be misread or crash. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/platform.h"

static int parse(const char *line, cc_procmap *m)
{
        return cc_procmap_parse(line, strlen(line), m);
}

static void path_is(const cc_procmap *m, const char *want)
{
        char buf[4200];

        if (want == NULL) {
                assert_null(m->path);
                assert_int_equal(cc_procmap_path(m, buf, sizeof(buf)), -1);
                return;
        }
        assert_non_null(m->path);
        assert_int_equal(cc_procmap_path(m, buf, sizeof(buf)), (long)strlen(want));
        assert_string_equal(buf, want);
}

static void test_kernel_lines(void **state)
{
        cc_procmap m;

        (void)state;
        assert_int_equal(parse("7fedfd800000-7fedfd81f000 r-xp 00000000 fe:00 337906                     "
                               "/usr/local/cuda-13.0/lib/libcudnn.so.9\n",
                               &m),
                         0);
        assert_true(m.start == 0x7fedfd800000ull && m.end == 0x7fedfd81f000ull);
        assert_string_equal(m.perms, "r-xp");
        assert_int_equal(m.dev_major, 0xfe);
        assert_int_equal(m.dev_minor, 0);
        assert_true(m.ino == 337906);
        assert_false(m.deleted);
        path_is(&m, "/usr/local/cuda-13.0/lib/libcudnn.so.9");

        /* anonymous, with and without the trailing space; special names */
        assert_int_equal(parse("7ffd0000-7ffd2000 rw-p 00000000 00:00 0 ", &m), 0);
        path_is(&m, NULL);
        assert_int_equal(parse("7ffd0000-7ffd2000 rw-p 00000000 00:00 0", &m), 0);
        path_is(&m, NULL);
        assert_int_equal(parse("7ffd0000-7ffd2000 rw-p 00000000 00:00 0                          [stack]", &m), 0);
        path_is(&m, "[stack]");
        assert_int_equal(parse("ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0  [vsyscall]", &m), 0);
        assert_true(m.end == 0xffffffffff601000ull);

        /* large device numbers (12-bit major, 20-bit minor), a 20-digit inode */
        assert_int_equal(parse("1000-2000 r--s 0000f000 103:fffff 18446744073709551615 /x", &m), 0);
        assert_int_equal(m.dev_major, 0x103);
        assert_int_equal(m.dev_minor, 0xfffff);
        assert_true(m.ino == 18446744073709551615ull);
        assert_true(m.offset == 0xf000);
        assert_string_equal(m.perms, "r--s");
}

static void test_paths(void **state)
{
        cc_procmap m;

        (void)state;
        /* spaces inside, and a deleted file */
        assert_int_equal(parse("1000-2000 r-xp 00000000 08:01 42    /opt/my libs/lib cudnn.so.9", &m), 0);
        path_is(&m, "/opt/my libs/lib cudnn.so.9");
        assert_false(m.deleted);
        assert_int_equal(parse("1000-2000 r-xp 00000000 08:01 42    /opt/a b/libcudnn.so.9 (deleted)", &m), 0);
        assert_true(m.deleted);
        path_is(&m, "/opt/a b/libcudnn.so.9");
        /* " (deleted)" alone is a name, not a mark on nothing */
        assert_int_equal(parse("1000-2000 r-xp 00000000 08:01 42  (deleted)", &m), 0);
        assert_false(m.deleted);
        /* the kernel's escape of a newline in a name; other backslashes are bytes */
        assert_int_equal(parse("1000-2000 r-xp 00000000 08:01 42 /tmp/a\\012b\\x.so (deleted)", &m), 0);
        path_is(&m, "/tmp/a\nb\\x.so");
        assert_true(m.deleted);
        /* a path as long as PATH_MAX and more: the line parses, the copy refuses a short buffer */
        {
                char line[9000], buf[64];
                int n = snprintf(line, sizeof(line), "1000-2000 r-xp 00000000 08:01 42 /");

                memset(line + n, 'a', 8000);
                line[n + 8000] = '\0';
                assert_int_equal(parse(line, &m), 0);
                assert_int_equal((long)m.path_len, 8001);
                assert_int_equal(cc_procmap_path(&m, buf, sizeof(buf)), -1);
        }
}

static void test_refused(void **state)
{
        static const char *const bad[] = {
            "",
            "\n",
            "1000",
            "1000-",
            "1000-2000",
            "1000-2000 ",
            "1000-2000 r-x",
            "1000-2000 r-xq 0 08:01 1 /x",                     /* p or s only */
            "1000-2000 xr-p 0 08:01 1 /x",                     /* order */
            "1000-2000 r-xp  0 08:01 1 /x",                    /* two spaces */
            "1000-2000 r-xp 0 0801 1 /x",                      /* no colon */
            "1000-2000 r-xp 0 08: 1 /x",                       /* empty minor */
            "1000-2000 r-xp 0 08:01 /x",                       /* no inode */
            "1000-2000 r-xp 0 08:01 1x /x",                    /* inode not a number */
            "2000-1000 r-xp 0 08:01 1 /x",                     /* end before start */
            "g000-2000 r-xp 0 08:01 1 /x",                     /* not hex */
            "10000000000000000-2 r-xp 0 0:0 0",                /* 17 digits */
            "1000-2000 r-xp 0 08:01 184467440737095516150 /x", /* 21 digits */
            "1000-2000 r-xp 0 08:01 18446744073709551616 /x",  /* over 64 bits */
            "1000-2000 r-xp 0 100000000:0 1 /x",               /* major over 28 bits */
        };
        cc_procmap m;
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                if (parse(bad[i], &m) == 0)
                        fail_msg("parsed: \"%s\"", bad[i]);
        assert_int_equal(cc_procmap_parse(NULL, 0, &m), -1);
        /* a NUL or a newline inside the path: not one line of the kernel's */
        assert_int_equal(cc_procmap_parse("1000-2000 r-xp 0 08:01 1 /a\0b", 29, &m), -1);
        assert_int_equal(cc_procmap_parse("1000-2000 r-xp 0 08:01 1 /a\nb", 29, &m), -1);
}

/* Every prefix of a good line parses to the fields it holds or is refused;
 * random bytes never crash or read past the length given (ASan watches). */
static void test_fuzzish(void **state)
{
        const char *good = "7f00-7f10 r-xp 00001000 fe:01 1234    /usr/lib/x86_64-linux-gnu/libz.so.1 (deleted)";
        size_t len = strlen(good), i, k;
        unsigned seed = 12345;
        cc_procmap m;

        (void)state;
        for (i = 0; i <= len; i++) {
                char *copy = malloc(i ? i : 1); /* exactly i bytes: no NUL to lean on */

                assert_non_null(copy);
                memcpy(copy, good, i);
                if (cc_procmap_parse(copy, i, &m) == 0) {
                        /* only once the inode has begun (a line may end in it: anonymous) */
                        assert_true(i >= strlen("7f00-7f10 r-xp 00001000 fe:01 1"));
                        assert_true(m.ino == 1 || m.ino == 12 || m.ino == 123 || m.ino == 1234);
                        assert_true(m.path == NULL || m.ino == 1234);
                        if (m.path != NULL)
                                assert_true(m.path + m.path_len <= copy + i);
                }
                free(copy);
        }
        for (k = 0; k < 20000; k++) {
                char buf[96];
                size_t n = (seed = seed * 1103515245u + 12345u) % sizeof(buf);

                for (i = 0; i < n; i++) {
                        seed = seed * 1103515245u + 12345u;
                        /* mostly the alphabet of a maps line, so that the parser gets deep */
                        buf[i] = (seed >> 16) % 4 ? "0123456789abcdef-: rwxps/\\(deleted)"[(seed >> 8) % 35]
                                                  : (char)(seed >> 8);
                }
                if (cc_procmap_parse(buf, n, &m) == 0 && m.path != NULL) {
                        char out[128];

                        assert_true(m.path >= buf && m.path + m.path_len <= buf + n);
                        cc_procmap_path(&m, out, sizeof(out));
                }
        }
}

static void test_cmdline(void **state)
{
        cc_error err = {0};
        char *s;

        (void)state;
        s = cc_cmdline_join("python3\0-c\0import x\0\0", 21, 100, &err);
        assert_string_equal(s, "python3 -c import x");
        free(s);
        s = cc_cmdline_join("", 0, 100, &err);
        assert_string_equal(s, "");
        free(s);
        s = cc_cmdline_join("abcdef\0", 7, 3, &err);
        assert_string_equal(s, "abc...");
        free(s);
        /* a process that rewrote its arguments: no NUL at all */
        s = cc_cmdline_join("sshd: user", 10, 100, &err);
        assert_string_equal(s, "sshd: user");
        free(s);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_kernel_lines), cmocka_unit_test(test_paths),   cmocka_unit_test(test_refused),
            cmocka_unit_test(test_fuzzish),      cmocka_unit_test(test_cmdline),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
