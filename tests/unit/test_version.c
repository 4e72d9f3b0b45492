/* Tests of the version model (src/lib/version.c): dotted versions, cuDNN's
 * CUDNN_VERSION integers (formula change at 9), the packed constant of
 * cuDNN 9, CUDA_VERSION integers and driver version strings. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "cudnnctl/cudnnctl.h"

static void test_parse(void **state)
{
        static const struct {
                const char *s;
                int n;
                long p[4];
        } ok[] = {
            {"9.19.0", 3, {9, 19, 0, 0}},
            {"v8.2.2.26", 4, {8, 2, 2, 26}},
            {"V7", 1, {7, 0, 0, 0}},
            {"11.4", 2, {11, 4, 0, 0}},
            {"580.159.04", 3, {580, 159, 4, 0}}, /* a driver version */
            {"0", 1, {0, 0, 0, 0}},
            {"0.0.0.0", 4, {0, 0, 0, 0}},
            {"999999999", 1, {999999999, 0, 0, 0}},
            {"000000000000000000001", 1, {1, 0, 0, 0}},
        };
        static const char *const bad[] = {
            "",        "v",  "9.",         ".9",   "9..1", "1.2.3.4.5", "9.19.0a",
            " 9",      "9 ", "-1",         "+1",   "1e3",  "vv9",       "9,1",
            "9.1-rc1", "x",  "1000000000", "9.-1", "9.1.", "v.1",       "12345678901234567890",
        };
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
                cudnnctl_ver v;
                int k;

                memset(&v, 0xAB, sizeof(v));
                if (cudnnctl_ver_parse(ok[i].s, &v) != 0)
                        fail_msg("'%s' not parsed", ok[i].s);
                assert_int_equal(v.n, ok[i].n);
                for (k = 0; k < 4; k++)
                        if (v.part[k] != ok[i].p[k])
                                fail_msg("'%s' part %d = %ld, want %ld", ok[i].s, k, v.part[k], ok[i].p[k]);
        }
        for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                cudnnctl_ver v = {2, {7, 7, 0, 0}};

                if (cudnnctl_ver_parse(bad[i], &v) != -1)
                        fail_msg("'%s' parsed", bad[i]);
                assert_int_equal(v.n, 2); /* untouched on failure */
                assert_int_equal(v.part[0], 7);
        }
        {
                cudnnctl_ver v;

                assert_int_equal(cudnnctl_ver_parse(NULL, &v), -1);
        }
}

static void test_cmp(void **state)
{
        static const struct {
                const char *a, *b;
                int want;
        } cases[] = {
            {"9.1", "9.1.0", 0},          {"9.1.0.0", "9.1", 0},          {"9.10", "9.9", 1},       {"9.9", "9.10", -1},
            {"8.9.7", "9.0", -1},         {"1.2.3.4", "1.2.3", 1},        {"1.2.3", "1.2.3.4", -1}, {"11.4", "11.4", 0},
            {"580.159.4", "580.65.6", 1}, {"9.19.0.56", "9.19.0.57", -1}, {"0", "0.0.0.0", 0},
        };
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                cudnnctl_ver a, b;
                int r;

                assert_int_equal(cudnnctl_ver_parse(cases[i].a, &a), 0);
                assert_int_equal(cudnnctl_ver_parse(cases[i].b, &b), 0);
                r = cudnnctl_ver_cmp(&a, &b);
                if (r != cases[i].want)
                        fail_msg("cmp(%s, %s) = %d, want %d", cases[i].a, cases[i].b, r, cases[i].want);
                assert_int_equal(cudnnctl_ver_cmp(&b, &a), -cases[i].want);
        }
        {
                cudnnctl_ver unknown = {0, {0, 0, 0, 0}}, zero;

                assert_int_equal(cudnnctl_ver_parse("0", &zero), 0);
                assert_int_equal(cudnnctl_ver_cmp(&unknown, &zero), 0);
        }
}

static void test_cudnn_encode_decode(void **state)
{
        static const struct {
                int major, minor, patch;
                long v;
        } cases[] = {
            {7, 6, 5, 7605},   {8, 2, 2, 8202},    {9, 19, 0, 91900}, {6, 0, 21, 6021},
            {8, 9, 7, 8907},   {9, 0, 0, 90000},   {5, 1, 10, 5110},  {9, 1, 0, 90100},
            {9, 10, 2, 91002}, {10, 0, 0, 100000}, {8, 0, 5, 8005},   {7, 0, 5, 7005},
        };
        static const long bad[] = {0, 999, 9000, 9999, 10000, 89999, 1000000, -1, -8202, 2000000000L};
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                cudnnctl_ver v;

                assert_int_equal(cudnnctl_cudnn_encode(cases[i].major, cases[i].minor, cases[i].patch), cases[i].v);
                memset(&v, 0xAB, sizeof(v));
                assert_int_equal(cudnnctl_cudnn_decode(cases[i].v, &v), 0);
                assert_int_equal(v.n, 3);
                assert_int_equal(v.part[0], cases[i].major);
                assert_int_equal(v.part[1], cases[i].minor);
                assert_int_equal(v.part[2], cases[i].patch);
        }
        for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                cudnnctl_ver v = {0, {0, 0, 0, 0}};

                if (cudnnctl_cudnn_decode(bad[i], &v) != -1)
                        fail_msg("%ld decoded", bad[i]);
                assert_int_equal(v.n, 0);
        }
}

/* Every release number round-trips: 5.0.0 - 8.9.99 (old formula, one-digit
 * minor) and 9.0.0 - 99.99.99 (new formula). */
static void test_cudnn_roundtrip(void **state)
{
        int M, m, p;

        (void)state;
        for (M = 1; M <= 99; M++) {
                int maxm = M < 9 ? 9 : 99;

                for (m = 0; m <= maxm; m++) {
                        for (p = 0; p <= 99; p++) {
                                cudnnctl_ver v;
                                long e = cudnnctl_cudnn_encode(M, m, p);

                                if (cudnnctl_cudnn_decode(e, &v) != 0 || v.part[0] != M || v.part[1] != m ||
                                    v.part[2] != p)
                                        fail_msg("%d.%d.%d -> %ld does not round-trip", M, m, p, e);
                        }
                }
        }
}

static void test_packed(void **state)
{
        static const struct {
                uint32_t v;
                int ok;
                long p[3];
        } cases[] = {
            {0x00091300u, 1, {9, 19, 0}},
            {0x00080202u, 1, {8, 2, 2}},
            {0x000A0000u, 1, {10, 0, 0}},
            {0x00FFFFFFu, 1, {255, 255, 255}},
            {0, 0, {0}},
            {0x01091300u, 0, {0}},
            {0x0000FFFFu, 0, {0}},
            {0xFFFFFFFFu, 0, {0}},
        };
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                cudnnctl_ver v = {0, {0, 0, 0, 0}};
                int rc = cudnnctl_cudnn_decode_packed(cases[i].v, &v);

                if (!cases[i].ok) {
                        if (rc != -1)
                                fail_msg("0x%08X decoded", (unsigned)cases[i].v);
                        assert_int_equal(v.n, 0);
                        continue;
                }
                assert_int_equal(rc, 0);
                assert_int_equal(v.n, 3);
                assert_int_equal(v.part[0], cases[i].p[0]);
                assert_int_equal(v.part[1], cases[i].p[1]);
                assert_int_equal(v.part[2], cases[i].p[2]);
        }
}

static void test_cuda(void **state)
{
        static const struct {
                int major, minor;
                long v;
        } cases[] = {
            {13, 0, 13000}, {11, 4, 11040}, {12, 9, 12090}, {9, 2, 9020}, {10, 0, 10000}, {11, 8, 11080},
        };
        static const long bad[] = {0, 999, 100000, -5, -11040};
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                cudnnctl_ver v;

                assert_int_equal(cudnnctl_cuda_encode(cases[i].major, cases[i].minor), cases[i].v);
                assert_int_equal(cudnnctl_cuda_decode(cases[i].v, &v), 0);
                assert_int_equal(v.n, 2);
                assert_int_equal(v.part[0], cases[i].major);
                assert_int_equal(v.part[1], cases[i].minor);
        }
        for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                cudnnctl_ver v = {0, {0, 0, 0, 0}};

                if (cudnnctl_cuda_decode(bad[i], &v) != -1)
                        fail_msg("%ld decoded as a CUDA version", bad[i]);
                assert_int_equal(v.n, 0);
        }
}

static void test_ver_str(void **state)
{
        static const struct {
                const char *in;
                const char *out;
        } cases[] = {
            {"9.19.0", "9.19.0"}, {"v8.2.2.26", "8.2.2.26"}, {"11.4", "11.4"}, {"580.159.04", "580.159.4"}, {"7", "7"},
        };
        char buf[64];
        cudnnctl_ver v;
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                assert_int_equal(cudnnctl_ver_parse(cases[i].in, &v), 0);
                assert_string_equal(cudnnctl_ver_str(&v, buf, sizeof(buf)), cases[i].out);
        }
        v.n = 0;
        assert_string_equal(cudnnctl_ver_str(&v, buf, sizeof(buf)), "unknown");
        assert_string_equal(cudnnctl_ver_str(NULL, buf, sizeof(buf)), "unknown");
        assert_ptr_equal(cudnnctl_ver_str(&v, buf, 0), buf);
        /* decode -> string */
        assert_int_equal(cudnnctl_cudnn_decode(91900, &v), 0);
        assert_string_equal(cudnnctl_ver_str(&v, buf, sizeof(buf)), "9.19.0");
        assert_int_equal(cudnnctl_cuda_decode(13000, &v), 0);
        assert_string_equal(cudnnctl_ver_str(&v, buf, sizeof(buf)), "13.0");
}

/* A buffer too small must never produce a different, plausible version
 * ("9.1" for 9.19.0): only whole components are kept. */
static void test_ver_str_truncation(void **state)
{
        char buf[8];
        cudnnctl_ver v;

        (void)state;
        assert_int_equal(cudnnctl_ver_parse("9.19.0", &v), 0);
        memset(buf, 'X', sizeof(buf));
        cudnnctl_ver_str(&v, buf, 4);
        assert_string_equal(buf, "9");
        cudnnctl_ver_str(&v, buf, 6);
        assert_string_equal(buf, "9.19");
        cudnnctl_ver_str(&v, buf, 7);
        assert_string_equal(buf, "9.19.0");
        cudnnctl_ver_str(&v, buf, 1);
        assert_string_equal(buf, "");
}

static void test_library_version(void **state)
{
        char want[32];

        (void)state;
        snprintf(want, sizeof(want), "%d.%d.%d", CUDNNCTL_VERSION_MAJOR, CUDNNCTL_VERSION_MINOR,
                 CUDNNCTL_VERSION_PATCH);
        assert_string_equal(cudnnctl_version(), want);
        assert_string_equal(cudnnctl_version(), CUDNNCTL_VERSION_STRING);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_parse),
            cmocka_unit_test(test_cmp),
            cmocka_unit_test(test_cudnn_encode_decode),
            cmocka_unit_test(test_cudnn_roundtrip),
            cmocka_unit_test(test_packed),
            cmocka_unit_test(test_cuda),
            cmocka_unit_test(test_ver_str),
            cmocka_unit_test(test_ver_str_truncation),
            cmocka_unit_test(test_library_version),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
