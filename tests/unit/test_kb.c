/* Tests of the knowledge base: every compiled-in table parses, has a source
 * on every row and only known source keys, its version columns parse and its
 * ranges are ordered; the table reader refuses bad input with one clear
 * line; and the query layer (kb/query.h) gives the answers the references
 * (NVIDIA's support matrices and release notes) give, with verdict, reason and source. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "kb/query.h"

static cudnnctl_ver V(const char *s)
{
        cudnnctl_ver v;

        if (cudnnctl_ver_parse(s, &v) != 0)
                fail_msg("test version '%s' does not parse", s);
        return v;
}

static const cc_kb_table *get(const char *name)
{
        cc_error err = {0};
        const cc_kb_table *t = cc_kb_get(name, &err);

        if (t == NULL)
                fail_msg("table %s: %s", name, err.msg);
        return t;
}

/* ---- the tables ---------------------------------------------------------- */

static void test_every_table(void **state)
{
        static const char *const ver_cols[] = {"cudnn_first", "cudnn_last", "cuda_build",    "cuda",
                                               "linux",       "windows",    "cuda_min",      "cudnn",
                                               "first",       "last",       "version_first", "version_last"};
        static const char *const pairs[][2] = {
            {"cudnn_first", "cudnn_last"}, {"version_first", "version_last"}, {"first", "last"}};
        static const char *const must[] = {"releases",  "drivers",   "driver_floors", "archs",
                                           "gpus",      "members",   "frameworks",    "framework_rules",
                                           "known_bad", "checksums", "sources"};
        const cc_kb_table *src = get("sources");
        size_t ntables = 0, i, k;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(must); i++)
                get(must[i]);
        for (const struct cc_kb_blob *b = cc_kb_blobs; b->name != NULL; b++) {
                const cc_kb_table *t = get(b->name);
                long sc = cc_kb_col(t, "source");
                size_t r, c;

                ntables++;
                if (sc < 0)
                        fail_msg("table %s has no source column", b->name);
                if (t->nrows == 0)
                        fail_msg("table %s has no rows", b->name);
                for (r = 0; r < t->nrows; r++) {
                        const char *s = cc_kb_celli(t, r, (size_t)sc);
                        char keys[256];
                        char *tok, *save = NULL;

                        if (s == NULL)
                                fail_msg("%s line %zu: no source", b->name, t->line[r]);
                        snprintf(keys, sizeof(keys), "%s", s);
                        /* "KEY" or "KEY details", ';'-separated */
                        for (tok = strtok_r(keys, ";", &save); tok != NULL; tok = strtok_r(NULL, ";", &save)) {
                                size_t j;
                                int found = 0;

                                while (*tok == ' ')
                                        tok++;
                                tok[strcspn(tok, " ")] = '\0';

                                for (j = 0; j < src->nrows; j++)
                                        if (strcmp(cc_kb_cell(src, j, "key"), tok) == 0)
                                                found = 1;
                                if (!found)
                                        fail_msg("%s line %zu: source key '%s' is not in sources.tsv", b->name,
                                                 t->line[r], tok);
                        }
                        for (c = 0; c < CC_ARRAY_LEN(ver_cols); c++) {
                                const char *cell = cc_kb_cell(t, r, ver_cols[c]);
                                cudnnctl_ver v;

                                if (strcmp(b->name, "sources") == 0 || cell == NULL)
                                        continue;
                                if (cudnnctl_ver_parse(cell, &v) != 0)
                                        fail_msg("%s line %zu: %s '%s' is not a version", b->name, t->line[r],
                                                 ver_cols[c], cell);
                        }
                        for (c = 0; c < CC_ARRAY_LEN(pairs); c++) {
                                const char *a = cc_kb_cell(t, r, pairs[c][0]), *z = cc_kb_cell(t, r, pairs[c][1]);
                                cudnnctl_ver va, vz;

                                if (a == NULL || z == NULL)
                                        continue;
                                assert_int_equal(cudnnctl_ver_parse(a, &va), 0);
                                assert_int_equal(cudnnctl_ver_parse(z, &vz), 0);
                                if (cudnnctl_ver_cmp(&va, &vz) > 0)
                                        fail_msg("%s line %zu: %s %s after %s %s", b->name, t->line[r], pairs[c][0], a,
                                                 pairs[c][1], z);
                        }
                        if (cc_kb_cell(t, r, "sm_min") != NULL) {
                                long lo = strtol(cc_kb_cell(t, r, "sm_min"), NULL, 10);
                                long hi = strtol(cc_kb_cell(t, r, "sm_max"), NULL, 10);

                                if (lo < 10 || hi > 159 || lo > hi)
                                        fail_msg("%s line %zu: sm range %ld-%ld", b->name, t->line[r], lo, hi);
                        }
                        if (strcmp(b->name, "gpus") == 0) {
                                long sm = strtol(cc_kb_cell(t, r, "sm"), NULL, 10);

                                if (sm < 30 || sm > 130)
                                        fail_msg("gpus line %zu: sm %ld", t->line[r], sm);
                        }
                        if (strcmp(b->name, "checksums") == 0 && cc_kb_cell(t, r, "sha256") != NULL) {
                                const char *h = cc_kb_cell(t, r, "sha256");
                                const char *pre = cc_kb_cell(t, r, "prefix");
                                size_t n = strlen(h), j;

                                for (j = 0; j < n; j++)
                                        if (!((h[j] >= '0' && h[j] <= '9') || (h[j] >= 'a' && h[j] <= 'f')))
                                                fail_msg("checksums line %zu: not hex", t->line[r]);
                                if (pre != NULL && strcmp(pre, "no") == 0 && n != 64)
                                        fail_msg("checksums line %zu: a full sha256 has 64 digits", t->line[r]);
                                if (pre != NULL && strcmp(pre, "yes") == 0 && n >= 64)
                                        fail_msg("checksums line %zu: a prefix is shorter", t->line[r]);
                        }
                }
        }
        assert_true(ntables >= CC_ARRAY_LEN(must));
        /* every key of sources.tsv is unique */
        for (i = 0; i < src->nrows; i++)
                for (k = i + 1; k < src->nrows; k++)
                        if (strcmp(cc_kb_cell(src, i, "key"), cc_kb_cell(src, k, "key")) == 0)
                                fail_msg("sources.tsv: key %s twice", cc_kb_cell(src, i, "key"));
        {
                cc_error err = {0};

                assert_null(cc_kb_get("no-such-table", &err));
                assert_int_equal(err.code, CC_ERR_NOTFOUND);
                assert_non_null(strstr(err.msg, "no-such-table"));
        }
}

/* ---- the reader ------------------------------------------------------------ */

static void parse_fails(const char *text, size_t n, const char *want1, const char *want2)
{
        cc_error err = {0};
        cc_kb_table *t = (cc_kb_table *)1;

        if (cc_kb_parse("bad", text, n, &t, &err) == 0)
                fail_msg("parsed: %.*s", (int)n, text);
        assert_null(t);
        assert_non_null(strstr(err.msg, "knowledge table bad"));
        if (strstr(err.msg, want1) == NULL || (want2 != NULL && strstr(err.msg, want2) == NULL))
                fail_msg("error '%s' lacks '%s' / '%s'", err.msg, want1, want2 ? want2 : "");
        assert_null(strchr(err.msg, '\n'));
}

static void test_parse(void **state)
{
        static const char good[] = "# comment\n\na\tb\tsource\r\n1\t-\tX\n\t2\tY\n# end";
        static const char nul[] = "a\tsource\n1\tX\x00Y\n";
        cc_error err = {0};
        cc_kb_table *t = NULL;

        (void)state;
        assert_int_equal(cc_kb_parse("good", good, strlen(good), &t, &err), 0);
        assert_int_equal(t->ncols, 3);
        assert_int_equal(t->nrows, 2);
        assert_string_equal(cc_kb_celli(t, 0, 0), "1");
        assert_null(cc_kb_cell(t, 0, "b")); /* "-" is unknown */
        assert_null(cc_kb_cell(t, 1, "a")); /* "" too */
        assert_string_equal(cc_kb_cell(t, 1, "b"), "2");
        assert_string_equal(cc_kb_cell(t, 0, "source"), "X"); /* the \r is gone */
        assert_int_equal(t->line[0], 4);
        assert_int_equal(t->line[1], 5);
        assert_int_equal(cc_kb_col(t, "nope"), -1);
        assert_null(cc_kb_cell(t, 0, "nope"));
        assert_null(cc_kb_celli(t, 9, 0));
        cc_kb_table_free(t);
        cc_kb_table_free(NULL);

        parse_fails("a\tb\n1\t2\n1\t2\t3\n", 15, "line 3", "3 cells, the header names 2");
        parse_fails("a\tb\n1\n", 6, "line 2", "1 cells");
        parse_fails("# only a comment\n\n", 18, "no header line", NULL);
        parse_fails("", 0, "no header line", NULL);
        parse_fails(nul, sizeof(nul) - 1, "line 2", "NUL byte");
        parse_fails("a\t\tc\n", 5, "line 1", "column 2 has no name");
        {
                char wide[400];
                size_t n = 0, i;

                for (i = 0; i < 70; i++)
                        n += (size_t)snprintf(wide + n, sizeof(wide) - n, "c%zu\t", i);
                wide[n - 1] = '\n';
                parse_fails(wide, n, "line 1", "more than 64 columns");
        }
}

/* ---- the answers ------------------------------------------------------------- */

static void test_cuda_builds(void **state)
{
        cc_kb_answer a;
        cc_strv b = {0};
        cudnnctl_ver v;

        (void)state;
        v = V("8.2.2");
        assert_int_equal(cc_kb_cudnn_cuda_builds(&v, &b, &a), CC_KB_YES);
        assert_true(cc_strv_contains(&b, "11.4"));
        assert_true(cc_strv_contains(&b, "10.2"));
        assert_int_equal(b.n, 2);
        assert_non_null(strstr(a.reason, "11.4"));
        assert_true(a.source[0] != '\0');
        cc_strv_free(&b);

        v = V("8.2.4.15");
        assert_int_equal(cc_kb_cudnn_cuda_builds(&v, &b, &a), CC_KB_YES);
        assert_true(cc_strv_contains(&b, "11.4"));
        cc_strv_free(&b);

        v = V("9.11.1");
        assert_int_equal(cc_kb_cudnn_cuda_builds(&v, &b, &a), CC_KB_YES);
        assert_int_equal(b.n, 1);
        assert_string_equal(b.v[0], "12");
        cc_strv_free(&b);

        v = V("9.19.0"); /* inside a range row */
        assert_int_equal(cc_kb_cudnn_cuda_builds(&v, &b, &a), CC_KB_YES);
        assert_true(cc_strv_contains(&b, "12") && cc_strv_contains(&b, "13"));
        cc_strv_free(&b);

        v = V("9.15.0.58"); /* build numbers differ per variant: matched on 3 components */
        assert_int_equal(cc_kb_cudnn_cuda_builds(&v, &b, &a), CC_KB_YES);
        cc_strv_free(&b);

        v = V("9.10"); /* 2 components: every 9.10.x */
        assert_int_equal(cc_kb_cudnn_cuda_builds(&v, &b, &a), CC_KB_YES);
        assert_true(cc_strv_contains(&b, "11") && cc_strv_contains(&b, "12") && !cc_strv_contains(&b, "13"));
        cc_strv_free(&b);

        v = V("8.8.0");
        assert_int_equal(cc_kb_cudnn_cuda_builds(&v, &b, &a), CC_KB_YES);
        assert_true(cc_strv_contains(&b, "12.0"));
        cc_strv_free(&b);

        v = V("6.5.1");
        assert_int_equal(cc_kb_cudnn_cuda_builds(&v, &b, &a), CC_KB_UNKNOWN);
        assert_int_equal(b.n, 0);
        assert_non_null(strstr(a.reason, "6.5.1"));
        v = V("10.0");
        assert_int_equal(cc_kb_cudnn_cuda_builds(&v, &b, &a), CC_KB_UNKNOWN);
        v.n = 0;
        assert_int_equal(cc_kb_cudnn_cuda_builds(&v, &b, &a), CC_KB_UNKNOWN);
        cc_strv_free(&b);
}

static void test_drivers(void **state)
{
        cc_kb_answer a;
        cudnnctl_ver cuda, drv, exact, floor, max;

        (void)state;
        cuda = V("11.4");
        assert_int_equal(cc_kb_min_driver(&cuda, CUDNNCTL_SYSTEM_LINUX, &exact, &floor, &a), CC_KB_YES);
        drv = V("470.42.01");
        assert_int_equal(cudnnctl_ver_cmp(&exact, &drv), 0); /* the .0 row, not the newest update */
        drv = V("450.80.02");
        assert_int_equal(cudnnctl_ver_cmp(&floor, &drv), 0);
        assert_non_null(strstr(a.reason, "470.42.01"));
        assert_non_null(strstr(a.source, "CTK"));
        assert_int_equal(cc_kb_min_driver(&cuda, CUDNNCTL_SYSTEM_WINDOWS, &exact, &floor, &a), CC_KB_YES);
        drv = V("471.11");
        assert_int_equal(cudnnctl_ver_cmp(&exact, &drv), 0);
        drv = V("452.39");
        assert_int_equal(cudnnctl_ver_cmp(&floor, &drv), 0);
        cuda = V("11.4.3");
        assert_int_equal(cc_kb_min_driver(&cuda, CUDNNCTL_SYSTEM_LINUX, &exact, &floor, &a), CC_KB_YES);
        drv = V("470.82.01");
        assert_int_equal(cudnnctl_ver_cmp(&exact, &drv), 0);
        cuda = V("10.2");
        assert_int_equal(cc_kb_min_driver(&cuda, CUDNNCTL_SYSTEM_LINUX, &exact, &floor, &a), CC_KB_YES);
        assert_int_equal(floor.n, 0); /* no minor-version compatibility before 11 */
        cuda = V("13.0");
        assert_int_equal(cc_kb_min_driver(&cuda, CUDNNCTL_SYSTEM_WINDOWS, &exact, &floor, &a), CC_KB_YES);
        assert_int_equal(floor.n, 0); /* the Windows floor of 13 was not found */
        cuda = V("12.7");
        assert_int_equal(cc_kb_min_driver(&cuda, CUDNNCTL_SYSTEM_LINUX, &exact, &floor, &a), CC_KB_UNKNOWN);
        assert_int_equal(exact.n, 0);
        cuda = V("11.4.9");
        assert_int_equal(cc_kb_min_driver(&cuda, CUDNNCTL_SYSTEM_LINUX, &exact, &floor, &a), CC_KB_UNKNOWN);

        /* does a driver run a CUDA? */
        cuda = V("11.4");
        drv = V("470.57.02");
        assert_int_equal(cc_kb_driver_runs_cuda(&drv, &cuda, CUDNNCTL_SYSTEM_LINUX, &a), CC_KB_YES);
        assert_null(strstr(a.reason, "minor-version"));
        drv = V("450.80.02");
        assert_int_equal(cc_kb_driver_runs_cuda(&drv, &cuda, CUDNNCTL_SYSTEM_LINUX, &a), CC_KB_YES);
        assert_non_null(strstr(a.reason, "only by minor-version compatibility"));
        drv = V("440.33");
        assert_int_equal(cc_kb_driver_runs_cuda(&drv, &cuda, CUDNNCTL_SYSTEM_LINUX, &a), CC_KB_NO);
        assert_non_null(strstr(a.reason, "450.80.02"));
        cuda = V("13.0");
        drv = V("580.65.06");
        assert_int_equal(cc_kb_driver_runs_cuda(&drv, &cuda, CUDNNCTL_SYSTEM_LINUX, &a), CC_KB_YES);
        drv = V("575.57.08");
        assert_int_equal(cc_kb_driver_runs_cuda(&drv, &cuda, CUDNNCTL_SYSTEM_LINUX, &a), CC_KB_NO);
        cuda = V("10.2");
        drv = V("418.39");
        assert_int_equal(cc_kb_driver_runs_cuda(&drv, &cuda, CUDNNCTL_SYSTEM_LINUX, &a), CC_KB_NO);
        assert_non_null(strstr(a.reason, "no minor-version compatibility"));
        cuda = V("12.0");
        drv = V("470.57.02");
        assert_int_equal(cc_kb_driver_runs_cuda(&drv, &cuda, CUDNNCTL_SYSTEM_LINUX, &a), CC_KB_NO);
        cuda = V("11.4");
        drv = V("472.50");
        assert_int_equal(cc_kb_driver_runs_cuda(&drv, &cuda, CUDNNCTL_SYSTEM_WINDOWS, &a), CC_KB_YES);
        cuda = V("99.0");
        assert_int_equal(cc_kb_driver_runs_cuda(&drv, &cuda, CUDNNCTL_SYSTEM_LINUX, &a), CC_KB_UNKNOWN);

        /* the newest CUDA of a driver */
        drv = V("580.65.06");
        assert_int_equal(cc_kb_driver_max_cuda(&drv, CUDNNCTL_SYSTEM_LINUX, &max, &a), CC_KB_YES);
        cuda = V("13.0");
        assert_int_equal(cudnnctl_ver_cmp(&max, &cuda), 0);
        drv = V("580.95.05");
        assert_int_equal(cc_kb_driver_max_cuda(&drv, CUDNNCTL_SYSTEM_LINUX, &max, &a), CC_KB_YES);
        assert_int_equal(cudnnctl_ver_cmp(&max, &cuda), 0);
        assert_int_equal(max.n, 2);
        drv = V("470.57.02");
        assert_int_equal(cc_kb_driver_max_cuda(&drv, CUDNNCTL_SYSTEM_LINUX, &max, &a), CC_KB_YES);
        cuda = V("11.4");
        assert_int_equal(cudnnctl_ver_cmp(&max, &cuda), 0);
        drv = V("570.124.06");
        assert_int_equal(cc_kb_driver_max_cuda(&drv, CUDNNCTL_SYSTEM_LINUX, &max, &a), CC_KB_YES);
        cuda = V("12.8");
        assert_int_equal(cudnnctl_ver_cmp(&max, &cuda), 0);
        drv = V("580"); /* which 580 release decides: 575.57.08 <= 580.0 < 580.65.06 */
        assert_int_equal(cc_kb_driver_max_cuda(&drv, CUDNNCTL_SYSTEM_LINUX, &max, &a), CC_KB_UNKNOWN);
        assert_int_equal(max.n, 0);
        assert_non_null(strstr(a.reason, "580.65.06"));
        drv = V("300.1");
        assert_int_equal(cc_kb_driver_max_cuda(&drv, CUDNNCTL_SYSTEM_LINUX, &max, &a), CC_KB_UNKNOWN);
}

static void test_gpus(void **state)
{
        static const struct {
                const char *in;
                int sm;
        } cases[] = {
            {"H200", 90},
            {"RTX 4090", 89},
            {"sm_120", 120},
            {"sm_90", 90},
            {"sm90", 90},
            {"sm_90a", 90},
            {"9.0", 90},
            {"90", 90},
            {"12.0", 120},
            {"compute_86", 86},
            {"NVIDIA H200", 90},
            {"NVIDIA H100 80GB HBM3", 90},
            {"GeForce RTX 5090", 120},
            {"NVIDIA GeForce RTX 4070 Ti SUPER", 89},
            {"Tesla V100-SXM2-16GB", 70},
            {"tesla t4", 75},
            {"A100-SXM4-80GB", 80},
            {"A10", 86},
            {"A10G", 86},
            {"H20", 90},
            {"Tesla K80", 37},
            {"GTX 1080 Ti", 61},
            {"Quadro RTX 6000", 75},
            {"RTX 6000 Ada Generation", 89},
            {"B200", 100},
            {"Jetson AGX Orin", 87},
            {"Voodoo 5", -1},
            {"RTX 6000", -1}, /* three different GPUs have this name */
            {"H1000", -1},
            {"sm_", -1},
            {"sm_9", -1},
            {"sm_9999", -1},
            {"", -1},
            {"9.10", -1},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                int sm = cc_kb_gpu_sm(cases[i].in);

                if (sm != cases[i].sm)
                        fail_msg("'%s' -> %d, want %d", cases[i].in, sm, cases[i].sm);
        }
        assert_int_equal(cc_kb_gpu_sm(NULL), -1);
        assert_true(cc_kb_gpu_sm_is_name("H200"));
        assert_false(cc_kb_gpu_sm_is_name("sm_90"));
}

static void test_runs_on(void **state)
{
        cc_kb_answer a;
        cudnnctl_ver c, b;

        (void)state;
        c = V("8.2.2");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, NULL, 90, &a), CC_KB_NO);
        assert_non_null(strstr(a.reason, "8.6")); /* supports up to 8.6 */
        assert_non_null(strstr(a.reason, "8.6.0 or newer"));
        assert_non_null(strstr(a.reason, "11.8"));
        assert_non_null(strstr(a.source, "SM"));
        b = V("11.4");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, &b, 90, &a), CC_KB_NO);
        assert_int_equal(cc_kb_cudnn_runs_on(&c, &b, 86, &a), CC_KB_YES);
        assert_int_equal(cc_kb_cudnn_runs_on(&c, &b, 35, &a), CC_KB_YES);
        assert_int_equal(cc_kb_cudnn_runs_on(&c, &b, 30, &a), CC_KB_NO);
        b = V("10.2");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, &b, 30, &a), CC_KB_YES);
        assert_int_equal(cc_kb_cudnn_runs_on(&c, NULL, 30, &a), CC_KB_UNKNOWN); /* one build yes, one no */
        assert_non_null(strstr(a.reason, "depends on the CUDA build"));

        c = V("9.11.0");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, NULL, 70, &a), CC_KB_NO);
        assert_non_null(strstr(a.reason, "last supported by cuDNN 9.10.2"));
        c = V("9.14.0");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, NULL, 70, &a), CC_KB_NO);
        c = V("9.10.2");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, NULL, 70, &a), CC_KB_YES);

        c = V("9.19.0");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, NULL, 90, &a), CC_KB_YES);
        b = V("13.0");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, &b, 120, &a), CC_KB_YES);
        b = V("12.4");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, &b, 120, &a), CC_KB_NO);
        b = V("12.8");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, &b, 120, &a), CC_KB_YES);
        b = V("12");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, &b, 120, &a), CC_KB_UNKNOWN); /* the CUDA minor decides */
        assert_non_null(strstr(a.reason, "12.8"));

        c = V("9.5");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, NULL, 120, &a), CC_KB_NO);
        assert_non_null(strstr(a.reason, "9.7.0 or newer"));
        assert_non_null(strstr(a.reason, "12.8"));
        c = V("9.8.0");
        b = V("12.8");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, &b, 120, &a), CC_KB_YES);
        b = V("11.8");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, &b, 120, &a), CC_KB_NO);

        c = V("8.6.0");
        b = V("11.8");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, &b, 90, &a), CC_KB_YES);
        assert_non_null(strstr(a.reason, "inferred"));
        c = V("8.9.7");
        b = V("12.2");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, &b, 90, &a), CC_KB_YES);
        assert_int_equal(cc_kb_cudnn_runs_on(&c, &b, 37, &a), CC_KB_NO); /* Kepler: 5.0 and up */

        c = V("8.8.0"); /* no architecture rows: unknown, not assumed */
        assert_int_equal(cc_kb_cudnn_runs_on(&c, NULL, 80, &a), CC_KB_UNKNOWN);
        c = V("5.1");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, NULL, 80, &a), CC_KB_UNKNOWN);
        c = V("9.19.0");
        assert_int_equal(cc_kb_cudnn_runs_on(&c, NULL, -1, &a), CC_KB_UNKNOWN);
}

/* Compute capabilities inside a build's range that the support matrix does
 * not list: by binary compatibility within the major (a lower confidence,
 * never listed support), or unknown without a listed capability of the
 * major below them. */
static void test_runs_on_unlisted(void **state)
{
        static const struct {
                const char *cudnn, *cuda;
                int sm, verdict, inferred;
                const char *says;
        } cases[] = {
            {"9.19.0", "13.0", 87, CC_KB_YES, 1, "SASS for 8.6"},
            {"9.19.0", "13.0", 103, CC_KB_YES, 1, "SASS for 10.0"},
            {"9.19.0", "13.0", 121, CC_KB_YES, 1, "SASS for 12.0"},
            {"9.19.0", "13.0", 110, CC_KB_UNKNOWN, 0, "no listed capability of major 11"},
            {"9.19.0", "12.8", 87, CC_KB_YES, 1, "SASS for 8.6"},
            {"9.19.0", "12.8", 103, CC_KB_YES, 1, "SASS for 10.0"},
            {"9.19.0", "12.8", 121, CC_KB_YES, 1, "SASS for 12.0"},
            {"9.19.0", "12.8", 110, CC_KB_UNKNOWN, 0, "not listed"},
            {"9.28.0", "13.0", 121, CC_KB_YES, 1, "by binary compatibility"},
            {"9.19.0", "13.0", 90, CC_KB_YES, 0, "so 9.0"},
            {"9.19.0", "13.0", 120, CC_KB_YES, 0, "so 12.0"},
            {"9.5.0", "12.4", 72, CC_KB_YES, 1, "SASS for 7.0"},
            {"9.5.0", "12.4", 86, CC_KB_YES, 0, "so 8.6"},
            {"8.2.2", "11.4", 52, CC_KB_YES, 0, "3.5-8.6"}, /* a range the source states whole */
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                cc_kb_answer a;
                cudnnctl_ver c = V(cases[i].cudnn), b = V(cases[i].cuda);

                assert_int_equal(cc_kb_cudnn_runs_on(&c, &b, cases[i].sm, &a), cases[i].verdict);
                assert_int_equal(a.inferred, cases[i].inferred);
                if (strstr(a.reason, cases[i].says) == NULL)
                        fail_msg("%s/%s sm_%d: '%s' lacks '%s'", cases[i].cudnn, cases[i].cuda, cases[i].sm, a.reason,
                                 cases[i].says);
                if (cases[i].inferred) {
                        assert_non_null(strstr(a.reason, "not listed support"));
                        assert_non_null(strstr(a.source, "CPG"));
                }
        }
}

/* The audit's corrections: 9.28.1 is known, CUDA 12.x's Windows floor. */
static void test_audit_rows(void **state)
{
        cc_kb_answer a;
        cc_strv builds = {0};
        cudnnctl_ver c = V("9.28.1"), cuda, exact, floor, want;

        (void)state;
        assert_int_equal(cc_kb_cudnn_cuda_builds(&c, &builds, &a), CC_KB_YES);
        assert_true(cc_strv_contains(&builds, "12"));
        assert_true(cc_strv_contains(&builds, "13"));
        assert_non_null(strstr(a.source, "RJ"));
        cc_strv_free(&builds);
        cuda = V("12.4");
        assert_int_equal(cc_kb_min_driver(&cuda, CUDNNCTL_SYSTEM_WINDOWS, &exact, &floor, &a), CC_KB_YES);
        want = V("528.33");
        assert_int_equal(cudnnctl_ver_cmp(&floor, &want), 0);
        assert_int_equal(cc_kb_min_driver(&cuda, CUDNNCTL_SYSTEM_LINUX, &exact, &floor, &a), CC_KB_YES);
        want = V("525.60.13");
        assert_int_equal(cudnnctl_ver_cmp(&floor, &want), 0);
        /* 527.41 (CUDA 12.0's own minimum) is below the floor of every 12.x */
        c = V("527.41");
        assert_int_equal(cc_kb_driver_runs_cuda(&c, &cuda, CUDNNCTL_SYSTEM_WINDOWS, &a), CC_KB_NO);
        assert_non_null(strstr(a.reason, "528.33"));
        cuda = V("12.0");
        assert_int_equal(cc_kb_driver_runs_cuda(&c, &cuda, CUDNNCTL_SYSTEM_WINDOWS, &a), CC_KB_YES);
}

static void test_members(void **state)
{
        cc_kb_answer a;
        cc_strv r = {0};
        cudnnctl_ver v;

        (void)state;
        v = V("8.2.2");
        assert_int_equal(cc_kb_cudnn_members(&v, CUDNNCTL_SYSTEM_WINDOWS, &r, &a), CC_KB_YES);
        assert_int_equal(r.n, 7);
        assert_true(cc_strv_contains(&r, "cudnn_cnn_infer"));
        cc_strv_free(&r);
        v = V("9.19.0");
        assert_int_equal(cc_kb_cudnn_members(&v, CUDNNCTL_SYSTEM_LINUX, &r, &a), CC_KB_YES);
        assert_int_equal(r.n, 8);
        assert_false(cc_strv_contains(&r, "cudnn_engines_tensor_ir"));
        assert_false(cc_strv_contains(&r, "cudnn_ops_infer"));
        cc_strv_free(&r);
        v = V("9.22.0");
        assert_int_equal(cc_kb_cudnn_members(&v, CUDNNCTL_SYSTEM_LINUX, &r, &a), CC_KB_YES);
        assert_int_equal(r.n, 9);
        assert_true(cc_strv_contains(&r, "cudnn_engines_tensor_ir"));
        assert_false(cc_strv_contains(&r, "cudnn_ext")); /* not confirmed as required */
        cc_strv_free(&r);
        v = V("9");
        assert_int_equal(cc_kb_cudnn_members(&v, CUDNNCTL_SYSTEM_LINUX, &r, &a), CC_KB_YES);
        assert_int_equal(r.n, 8);
        assert_non_null(strstr(a.reason, "give the minor"));
        cc_strv_free(&r);
        v = V("7.6.5");
        assert_int_equal(cc_kb_cudnn_members(&v, CUDNNCTL_SYSTEM_LINUX, &r, &a), CC_KB_YES);
        assert_int_equal(r.n, 1);
        cc_strv_free(&r);
        v = V("8.2.2");
        assert_int_equal(cc_kb_cudnn_files(&v, CUDNNCTL_SYSTEM_WINDOWS, "import-library", &r, &a), CC_KB_YES);
        assert_int_equal(r.n, 14);
        cc_strv_free(&r);
        assert_int_equal(cc_kb_cudnn_files(&v, CUDNNCTL_SYSTEM_LINUX, "header", &r, &a), CC_KB_YES);
        assert_int_equal(r.n, 9);
        cc_strv_free(&r);
        assert_int_equal(cc_kb_cudnn_files(&v, CUDNNCTL_SYSTEM_WINDOWS, "dependency", &r, &a), CC_KB_YES);
        assert_false(cc_strv_contains(&r, "zlibwapi")); /* from 8.3.0 */
        cc_strv_free(&r);
        v = V("8.3.2");
        assert_int_equal(cc_kb_cudnn_files(&v, CUDNNCTL_SYSTEM_WINDOWS, "dependency", &r, &a), CC_KB_YES);
        assert_true(cc_strv_contains(&r, "zlibwapi"));
        cc_strv_free(&r);
        v = V("6");
        assert_int_equal(cc_kb_cudnn_members(&v, CUDNNCTL_SYSTEM_LINUX, &r, &a), CC_KB_UNKNOWN);
        cc_strv_free(&r);
}

static void test_known_bad(void **state)
{
        cc_kb_answer a;
        cudnnctl_ver v;

        (void)state;
        v = V("9.10.0");
        assert_int_equal(cc_kb_cudnn_known_bad(&v, &a), CC_KB_YES);
        assert_non_null(strstr(a.reason, "ABI"));
        assert_non_null(strstr(a.source, "JX"));
        assert_int_equal(cc_kb_cudnn_known_bad_for(&v, "jax", &a), CC_KB_YES);
        assert_int_equal(cc_kb_cudnn_known_bad_for(&v, NULL, &a), CC_KB_NO); /* only JAX rows */
        assert_int_equal(cc_kb_cudnn_known_bad_for(&v, "torch", &a), CC_KB_NO);
        v = V("9.10.2");
        assert_int_equal(cc_kb_cudnn_known_bad(&v, &a), CC_KB_NO);
        v = V("9.5.1");
        assert_int_equal(cc_kb_cudnn_known_bad(&v, &a), CC_KB_YES);
        assert_non_null(strstr(a.reason, "cuBLASLt"));
        v = V("8.2.2");
        assert_int_equal(cc_kb_cudnn_known_bad(&v, &a), CC_KB_NO);
}

static void test_frameworks(void **state)
{
        cc_kb_answer a;
        cudnnctl_ver d, c, w;
        cc_strv vars = {0};

        (void)state;
        assert_int_equal(cc_kb_framework_needs("torch", "2.4.1", "cu121", 0, &d, &c, &a), CC_KB_YES);
        w = V("9.1.0.70");
        assert_int_equal(cudnnctl_ver_cmp(&d, &w), 0);
        w = V("12.1");
        assert_int_equal(cudnnctl_ver_cmp(&c, &w), 0);
        assert_non_null(strstr(a.source, "PT"));
        assert_int_equal(cc_kb_framework_needs("pytorch", "2.4.1+cu118", "", 0, &d, &c, &a), CC_KB_YES);
        w = V("11.8");
        assert_int_equal(cudnnctl_ver_cmp(&c, &w), 0);
        /* 2.4 without a variant: every variant pins 9.1.0.70, the CUDA differs */
        assert_int_equal(cc_kb_framework_needs("torch", "2.4", "", 0, &d, &c, &a), CC_KB_YES);
        assert_int_equal(c.n, 0);
        /* 2.3 without a variant: cu118 and cu121 pin different cuDNN */
        assert_int_equal(cc_kb_framework_needs("torch", "2.3.1", NULL, 0, &d, &c, &a), CC_KB_UNKNOWN);
        assert_int_equal(d.n, 0);
        assert_int_equal(cc_kb_framework_variants("torch", "2.3.1", 0, &vars, &a), CC_KB_YES);
        assert_true(cc_strv_contains(&vars, "cu118") && cc_strv_contains(&vars, "cu121"));
        cc_strv_free(&vars);
        assert_int_equal(cc_kb_framework_needs("torch", "2.11.0", "cu130", 0, &d, &c, &a), CC_KB_YES);
        w = V("9.19.0.56");
        assert_int_equal(cudnnctl_ver_cmp(&d, &w), 0);
        assert_int_equal(cc_kb_framework_needs("torch", "1.2", "", 0, &d, &c, &a), CC_KB_UNKNOWN);

        assert_int_equal(cc_kb_framework_needs("tensorflow", "2.15.1", "", CUDNNCTL_SYSTEM_LINUX, &d, &c, &a),
                         CC_KB_YES);
        w = V("8.9");
        assert_int_equal(cudnnctl_ver_cmp(&d, &w), 0);
        w = V("12.2");
        assert_int_equal(cudnnctl_ver_cmp(&c, &w), 0);
        assert_int_equal(cc_kb_framework_needs("tf", "2.15", "", CUDNNCTL_SYSTEM_WINDOWS, &d, &c, &a), CC_KB_NO);
        assert_non_null(strstr(a.reason, "WSL2"));
        assert_int_equal(cc_kb_framework_needs("tensorflow", "2.10", "", CUDNNCTL_SYSTEM_WINDOWS, &d, &c, &a),
                         CC_KB_YES);
        w = V("8.1");
        assert_int_equal(cudnnctl_ver_cmp(&d, &w), 0);
        assert_int_equal(cc_kb_framework_needs("jax", "0.4.30", "", 0, &d, &c, &a), CC_KB_UNKNOWN);
        assert_int_equal(cc_kb_framework_needs("torch", "banana", "", 0, &d, &c, &a), CC_KB_UNKNOWN);

        /* the run-time rule: same major, minor >= the build's */
        d = V("8.5.0");
        c = V("8.3.3");
        assert_int_equal(cc_kb_cudnn_satisfies("torch", &d, &c, &a), CC_KB_NO);
        assert_non_null(strstr(a.reason, "older"));
        c = V("8.9.7");
        assert_int_equal(cc_kb_cudnn_satisfies("torch", &d, &c, &a), CC_KB_YES);
        c = V("9.1.0");
        assert_int_equal(cc_kb_cudnn_satisfies("tensorflow", &d, &c, &a), CC_KB_NO);
        assert_non_null(strstr(a.reason, "major"));
        assert_int_equal(cc_kb_cudnn_satisfies("caffe", &d, &c, &a), CC_KB_UNKNOWN);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_every_table),
            cmocka_unit_test(test_parse),
            cmocka_unit_test(test_cuda_builds),
            cmocka_unit_test(test_drivers),
            cmocka_unit_test(test_gpus),
            cmocka_unit_test(test_runs_on),
            cmocka_unit_test(test_runs_on_unlisted),
            cmocka_unit_test(test_audit_rows),
            cmocka_unit_test(test_members),
            cmocka_unit_test(test_known_bad),
            cmocka_unit_test(test_frameworks),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
