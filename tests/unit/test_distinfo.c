/* Tests of the METADATA and RECORD parsers: the generated dist-info fixture,
 * the real installed cuDNN wheel when present, and malformed input. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/distinfo.h"
#include "formats/names.h"

static cc_metadata *meta_ok(const char *text, size_t len)
{
        cc_metadata *m = NULL;
        cc_error err = {0};

        if (cc_metadata_parse(text, len, &m, &err) < 0)
                fail_msg("METADATA: %s", err.msg);
        return m;
}

static cc_record *record_ok(const char *text, size_t len)
{
        cc_record *r = NULL;
        cc_error err = {0};

        if (cc_record_parse(text, len, &r, &err) < 0)
                fail_msg("RECORD: %s", err.msg);
        return r;
}

static void test_looks_like(void **state)
{
        static const struct {
                const char *text;
                int want;
        } cases[] = {
            {"Metadata-Version: 2.1\nName: x\n", 1},
            {"metadata-version:2.4", 1},
            {"\xEF\xBB\xBFMetadata-Version: 1.0", 1},
            {"Name: x\nMetadata-Version: 2.1\n", 0},
            {"Metadata-Version", 0},
            {"", 0},
            {" Metadata-Version: 2.1", 0},
        };
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
                if (cc_metadata_looks_like((const uint8_t *)cases[i].text, strlen(cases[i].text)) != cases[i].want)
                        fail_msg("looks_like case %zu", i);
        assert_int_equal(cc_metadata_looks_like(NULL, 4), 0);
}

static void test_fixture_metadata(void **state)
{
        char *p = tu_fixture("distinfo/nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA");
        size_t size;
        uint8_t *data = tu_read(p, &size);
        cc_metadata *m;

        (void)state;
        assert_int_equal(cc_metadata_looks_like(data, size), 1);
        m = meta_ok((const char *)data, size);
        assert_string_equal(m->metadata_version, "2.1");
        assert_string_equal(m->name, "nvidia-cudnn-cu12");
        assert_string_equal(m->version, "9.1.0.70");
        assert_string_equal(m->summary, "cuDNN runtime libraries"); /* unfolded */
        assert_int_equal(m->requires_dist.n, 2);
        assert_string_equal(m->requires_dist.v[0], "nvidia-cublas-cu12"); /* field names ignore case */
        assert_string_equal(m->requires_dist.v[1], "example-extra ; extra == \"test\"");
        assert_int_equal(m->warnings.n, 0); /* the description is not read */
        cc_metadata_free(m);
        free(data);
        free(p);
}

static void test_fixture_record(void **state)
{
        char *p = tu_fixture("distinfo/nvidia_cudnn_cu12-9.1.0.70.dist-info/RECORD");
        size_t size;
        uint8_t *data = tu_read(p, &size);
        cc_record *r;

        (void)state;
        r = record_ok((const char *)data, size);
        assert_int_equal(r->n, 5);
        assert_string_equal(r->entries[0].path, "nvidia/cudnn/include/cudnn_version.h");
        assert_string_equal(r->entries[0].hash, "sha256=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
        assert_int_equal(r->entries[0].size, 3073);
        assert_string_equal(r->entries[1].path, "nvidia/cudnn/lib/libcudnn.so.9");
        assert_int_equal(r->entries[1].size, 125000);
        assert_string_equal(r->entries[2].path, "nvidia/cudnn/lib/with,comma.txt");
        assert_int_equal(r->entries[2].size, 12);
        assert_string_equal(r->entries[3].path, "nvidia/cudnn/lib/with\"quote.txt");
        assert_null(r->entries[3].hash);
        assert_int_equal(r->entries[3].size, -1);
        assert_string_equal(r->entries[4].path, "nvidia_cudnn_cu12-9.1.0.70.dist-info/RECORD");
        assert_null(r->entries[4].hash);
        assert_int_equal(r->entries[4].size, -1);
        assert_int_equal(r->warnings.n, 0);
        cc_record_free(r);
        free(data);
        free(p);
}

#define REAL "/usr/local/cuda/dist-info/nvidia_cudnn_cu13-9.19.0.56.dist-info"

static void test_real_distinfo(void **state)
{
        size_t size, i;
        uint8_t *data;
        cc_metadata *m;
        cc_record *r;
        cc_distname d;
        int saw_meta = 0, saw_record = 0, saw_lib = 0;

        (void)state;
        if (!tu_exists(REAL "/METADATA") || !tu_exists(REAL "/RECORD")) {
                skip();
                return;
        }
        assert_int_equal(cc_name_distinfo(cc_basename(REAL), &d), 0);
        assert_int_equal(d.is_cudnn, 1);
        assert_int_equal(d.cuda_major, 13);

        data = tu_read(REAL "/METADATA", &size);
        assert_int_equal(cc_metadata_looks_like(data, size), 1);
        m = meta_ok((const char *)data, size);
        assert_string_equal(m->name, "nvidia-cudnn-cu13");
        assert_string_equal(m->version, "9.19.0.56");
        assert_string_equal(m->version, d.version_str);
        assert_non_null(m->metadata_version);
        assert_non_null(m->summary);
        assert_true(m->requires_dist.n >= 1);
        cc_metadata_free(m);
        free(data);

        data = tu_read(REAL "/RECORD", &size);
        r = record_ok((const char *)data, size);
        assert_true(r->n > 3);
        assert_int_equal(r->warnings.n, 0);
        for (i = 0; i < r->n; i++) {
                const cc_record_entry *e = &r->entries[i];

                if (cc_ends_with(e->path, ".dist-info/METADATA")) {
                        saw_meta = 1;
                        assert_non_null(e->hash);
                        assert_true(cc_starts_with(e->hash, "sha256="));
                        assert_true(e->size > 0);
                }
                if (cc_ends_with(e->path, ".dist-info/RECORD")) {
                        saw_record = 1;
                        assert_null(e->hash);
                        assert_int_equal(e->size, -1);
                }
                if (strstr(e->path, "/libcudnn.so.9") != NULL)
                        saw_lib = 1;
        }
        assert_true(saw_meta && saw_record && saw_lib);
        cc_record_free(r);
        free(data);
}

static void test_metadata_malformed(void **state)
{
        static const struct {
                const char *text;
                size_t len; /* 0: strlen */
                int rc;
                const char *msg; /* error (rc -1) or the first warning (rc 0), NULL: none */
        } cases[] = {
            {"", 0, -1, "empty METADATA"},
            {"Metadata-Version: 2.1\nName nvidia\nVersion: 1\n", 0, -1, "no Name field"},
            {"Metadata-Version: 2.1\nName: a\nbogus line\nVersion: 1\n", 0, 0, "line 3: not a \"Field: value\" line"},
            {"Metadata-Version: 2.1\nBad Field: x\nName: a\nVersion: 1\n", 0, 0, "line 2: not a"},
            {"Metadata-Version: 2.1\nName: a\x00\nVersion: 1\n", 35, -1, "line 2: NUL byte"},
            {"Metadata-Version: 2.1\nName: \xff\xfe\nVersion: 1\n", 0, -1, "line 2: not UTF-8"},
            {" leading\nName: a\nVersion: 1\nMetadata-Version: 2.1\n", 0, 0,
             "line 1: continuation line without a field"},
            {"Metadata-Version: 2.1\nName: a\nName: b\nVersion: 1\n", 0, 0, "line 3: repeated Name field ignored"},
            {"Metadata-Version: 2.1\nName: a\n", 0, -1, "no Version field"},
            {"Metadata-Version: 2.1\nName: a\nVersion:\n", 0, -1, "no Version field"},
            {"Name: a\nVersion: 1\n", 0, 0, "no Metadata-Version field"},
            {"\xEF\xBB\xBFMetadata-Version: 2.1\r\nName:  spaced  \r\nVersion: 1.0\r\n\r\nName: x\r\n", 0, 0, NULL},
            {"Metadata-Version: 2.1\nName: a\nVersion: 1", 0, 0, NULL}, /* no final newline */
            {"\n\nName: a\nVersion: 1\n", 0, -1, "no Name field"},      /* all description */
            {"\x01\x02\x03\x04", 0, -1, "no Name field"},
        };
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                cc_metadata *m = NULL;
                cc_error err = {0};
                size_t len = cases[i].len ? cases[i].len : strlen(cases[i].text);
                int rc = cc_metadata_parse(cases[i].text, len, &m, &err);

                if (rc != cases[i].rc)
                        fail_msg("case %zu: rc %d (%s), want %d", i, rc, err.msg, cases[i].rc);
                if (rc < 0) {
                        assert_null(m);
                        if (strstr(err.msg, cases[i].msg) == NULL)
                                fail_msg("case %zu: '%s', want '%s'", i, err.msg, cases[i].msg);
                        continue;
                }
                if (cases[i].msg == NULL ? m->warnings.n != 0
                                         : (m->warnings.n == 0 || strstr(m->warnings.v[0], cases[i].msg) == NULL))
                        fail_msg("case %zu: %zu warnings, first '%s', want '%s'", i, m->warnings.n,
                                 m->warnings.n ? m->warnings.v[0] : "", cases[i].msg ? cases[i].msg : "(none)");
                cc_metadata_free(m);
        }
}

static void test_metadata_values(void **state)
{
        cc_metadata *m;

        (void)state;
        static const char t1[] = "Metadata-Version: 2.1\nName: a\nName: b\nVERSION: 1.0\nSummary:\n";
        static const char t2[] = "\xEF\xBB\xBFMetadata-Version: 2.1\r\nName:  spaced  \r\nVersion: 1.0\r\n"
                                 "Summary: one\r\n\ttwo\r\n   three \r\n\r\nName: x\r\n";

        m = meta_ok(t1, strlen(t1));
        assert_string_equal(m->name, "a");
        assert_string_equal(m->version, "1.0");
        assert_string_equal(m->summary, "");
        cc_metadata_free(m);

        m = meta_ok(t2, strlen(t2));
        assert_string_equal(m->name, "spaced");
        assert_string_equal(m->summary, "one two three");
        cc_metadata_free(m);
        cc_metadata_free(NULL);
        {
                cc_error err = {0};

                assert_int_equal(cc_metadata_parse(NULL, 3, &m, &err), -1);
                assert_int_equal(cc_metadata_parse("x", 1, NULL, &err), -1);
        }
}

static void test_metadata_limits(void **state)
{
        size_t cap = (size_t)4 << 20, n, i;
        char *s = malloc(cap);
        cc_metadata *m = NULL;
        cc_error err = {0};

        (void)state;
        assert_non_null(s);
        /* a 1 MiB Summary line: ignored with a warning */
        n = (size_t)sprintf(s, "Metadata-Version: 2.1\nName: a\nVersion: 1\nSummary: ");
        memset(s + n, 'x', (size_t)1 << 20);
        n += (size_t)1 << 20;
        s[n++] = '\n';
        m = meta_ok(s, n);
        assert_null(m->summary);
        assert_int_equal(m->warnings.n, 1);
        assert_non_null(strstr(m->warnings.v[0], "Summary value longer than"));
        cc_metadata_free(m);
        /* a 1 MiB Name: refused */
        n = (size_t)sprintf(s, "Metadata-Version: 2.1\nVersion: 1\nName: ");
        memset(s + n, 'x', (size_t)1 << 20);
        n += (size_t)1 << 20;
        assert_int_equal(cc_metadata_parse(s, n, &m, &err), -1);
        assert_non_null(strstr(err.msg, "no Name field"));
        /* 20000 Requires-Dist: 10000 kept */
        n = (size_t)sprintf(s, "Metadata-Version: 2.1\nName: a\nVersion: 1\n");
        for (i = 0; i < 20000; i++)
                n += (size_t)sprintf(s + n, "Requires-Dist: p%zu\n", i);
        m = meta_ok(s, n);
        assert_int_equal(m->requires_dist.n, 10000);
        assert_string_equal(m->requires_dist.v[9999], "p9999");
        assert_int_equal(m->warnings.n, 101); /* 100 + "more warnings not shown" */
        cc_metadata_free(m);
        /* junk bytes (deterministic), never NUL: no crash, one answer or the other */
        {
                uint32_t x = 12345;

                for (i = 0; i < 65536; i++) {
                        x = x * 1103515245u + 12345u;
                        s[i] = (char)((x >> 16) % 255 + 1);
                }
                if (cc_metadata_parse(s, 65536, &m, &err) == 0)
                        cc_metadata_free(m);
                else
                        assert_true(err.msg[0] != '\0');
        }
        free(s);
}

static void test_record_malformed(void **state)
{
        static const struct {
                const char *text;
                size_t len; /* 0: strlen */
                int rc;
                size_t entries;
                const char *msg; /* error (rc -1) or the first warning (rc 0), NULL: none */
        } cases[] = {
            {"", 0, 0, 0, NULL},
            {"\n\r\n\n", 0, 0, 0, NULL},
            {"a,\"unterminated,1\nb,c,2\n", 0, -1, 0, "line 1: unterminated quoted field"},
            {"\"a\"b,c,1\n", 0, -1, 0, "line 1: text after a closing quote"},
            {"ok,,\na\"b,c,1\n", 0, -1, 0, "line 2: quote inside an unquoted field"},
            {"a,b\nc,d,1\n", 0, 0, 1, "line 1: 2 fields, not path,hash,size; skipped"},
            {"a,b,1,x\n", 0, 0, 0, "line 1: 4 fields"},
            {",sha256=x,1\n", 0, 0, 0, "line 1: no path; skipped"},
            {"a,sha256=x,abc\n", 0, 0, 1, "line 1: size 'abc' is not a number"},
            {"a,sha256=x,-5\n", 0, 0, 1, "is not a number"},
            {"a,sha256=x,99999999999999999999\n", 0, 0, 1, "is not a number"},
            {"a,md5hex,1\n", 0, 0, 1, "line 1: hash 'md5hex' is not ALGORITHM=DIGEST"},
            {"a,b,1\0\n", 7, -1, 0, "NUL byte"},
            {"a,sha256=x,1\r\nb,,\r\n\"c\r\nd\",,\r\ne,,", 0, 0, 4, NULL},
            {"\"multi\nline\",,\nz,y,1\n", 0, 0, 2, "line 3: hash 'y'"}, /* line numbers count the newline */
            {"\xEF\xBB\xBF"
             "a,,\n",
             0, 0, 1, NULL},
            {"\xff,,\n", 0, 0, 1, "line 1: path is not UTF-8"},
        };
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                cc_record *r = NULL;
                cc_error err = {0};
                size_t len = cases[i].len ? cases[i].len : strlen(cases[i].text);
                int rc = cc_record_parse(cases[i].text, len, &r, &err);

                if (rc != cases[i].rc)
                        fail_msg("case %zu: rc %d (%s), want %d", i, rc, err.msg, cases[i].rc);
                if (rc < 0) {
                        assert_null(r);
                        if (strstr(err.msg, cases[i].msg) == NULL)
                                fail_msg("case %zu: '%s', want '%s'", i, err.msg, cases[i].msg);
                        continue;
                }
                if (r->n != cases[i].entries)
                        fail_msg("case %zu: %zu entries, want %zu", i, r->n, cases[i].entries);
                if (cases[i].msg == NULL ? r->warnings.n != 0
                                         : (r->warnings.n == 0 || strstr(r->warnings.v[0], cases[i].msg) == NULL))
                        fail_msg("case %zu: %zu warnings, first '%s', want '%s'", i, r->warnings.n,
                                 r->warnings.n ? r->warnings.v[0] : "", cases[i].msg ? cases[i].msg : "(none)");
                cc_record_free(r);
        }
}

static void test_record_values(void **state)
{
        static const char t1[] = "a,sha256=x,1\r\nb,,\r\n\"c\r\nd\",,\r\ne,,";
        static const char t2[] = "\"\",x=y,1\n\"p\"\"q\",\"sha256=a,b\",\"0\"\n";
        cc_record *r = record_ok(t1, strlen(t1));

        (void)state;
        assert_int_equal(r->n, 4);
        assert_string_equal(r->entries[2].path, "c\r\nd");
        assert_string_equal(r->entries[3].path, "e");
        assert_int_equal(r->entries[0].size, 1);
        cc_record_free(r);
        r = record_ok(t2, strlen(t2));
        assert_int_equal(r->n, 1);
        assert_string_equal(r->entries[0].path, "p\"q");
        assert_string_equal(r->entries[0].hash, "sha256=a,b");
        assert_int_equal(r->entries[0].size, 0);
        assert_int_equal(r->warnings.n, 1); /* the empty path */
        cc_record_free(r);
        cc_record_free(NULL);
        {
                cc_error err = {0};

                assert_int_equal(cc_record_parse(NULL, 3, &r, &err), -1);
                assert_int_equal(cc_record_parse("x", 1, NULL, &err), -1);
        }
}

static void test_record_limits(void **state)
{
        size_t cap = (size_t)8 << 20, n, i;
        char *s = malloc(cap);
        cc_record *r = NULL;
        cc_error err = {0};

        (void)state;
        assert_non_null(s);
        /* a 100 KiB field, quoted or not: refused */
        s[0] = '"';
        memset(s + 1, 'p', 100000);
        memcpy(s + 100001, "\",,\n", 4);
        assert_int_equal(cc_record_parse(s, 100005, &r, &err), -1);
        assert_int_equal(err.code, CC_ERR_LIMIT);
        assert_non_null(strstr(err.msg, "line 1: field longer than"));
        assert_int_equal(cc_record_parse(s + 1, 100000, &r, &err), -1);
        assert_int_equal(err.code, CC_ERR_LIMIT);
        /* a field just under the limit is fine */
        memset(s, 'p', 60000);
        memcpy(s + 60000, ",,\n", 3);
        r = record_ok(s, 60003);
        assert_int_equal(r->n, 1);
        assert_int_equal(strlen(r->entries[0].path), 60000);
        cc_record_free(r);
        /* 200000 rows */
        n = 0;
        for (i = 0; i < 200000; i++)
                n += (size_t)sprintf(s + n, "dir/file%zu,sha256=abc,%zu\n", i, i);
        r = record_ok(s, n);
        assert_int_equal(r->n, 200000);
        assert_string_equal(r->entries[199999].path, "dir/file199999");
        assert_int_equal(r->entries[199999].size, 199999);
        cc_record_free(r);
        /* many bad rows: warnings capped */
        n = 0;
        for (i = 0; i < 1000; i++)
                n += (size_t)sprintf(s + n, "only,two\n");
        r = record_ok(s, n);
        assert_int_equal(r->n, 0);
        assert_int_equal(r->warnings.n, 101);
        cc_record_free(r);
        free(s);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_looks_like),         cmocka_unit_test(test_fixture_metadata),
            cmocka_unit_test(test_fixture_record),     cmocka_unit_test(test_real_distinfo),
            cmocka_unit_test(test_metadata_malformed), cmocka_unit_test(test_metadata_values),
            cmocka_unit_test(test_metadata_limits),    cmocka_unit_test(test_record_malformed),
            cmocka_unit_test(test_record_values),      cmocka_unit_test(test_record_limits),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
