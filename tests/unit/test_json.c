#include "testutil.h"

#include "formats/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parse exactly n bytes from a heap copy of that size (so that ASan sees
 * any read past the end). */
static int parse_n(const char *s, size_t n, int max_depth, cc_value **out, cc_error *err)
{
        char *copy = malloc(n ? n : 1);
        int rc;

        assert_non_null(copy);
        memcpy(copy, s, n);
        rc = cc_json_parse(copy, n, max_depth, out, err);
        free(copy);
        return rc;
}

/* Compact JSON of v (caller frees). */
static char *write_compact(const cc_value *v)
{
        cc_buf b = {0};
        cc_error err = {0};

        assert_int_equal(cc_json_write(v, 0, &b, &err), 0);
        return cc_buf_steal(&b);
}

/* The byte offset named by an error message ("... at byte N"). */
static size_t error_offset(const cc_error *err)
{
        const char *at = strstr(err->msg, " at byte ");
        char *end;
        unsigned long long off;

        assert_non_null(at);
        assert_true(strncmp(err->msg, "JSON: ", 6) == 0);
        off = strtoull(at + 9, &end, 10);
        assert_true(end != at + 9 && *end == '\0');
        return (size_t)off;
}

static void test_valid_roundtrip(void **state)
{
        static const struct {
                const char *in;
                const char *out; /* compact, as cc_json_write writes it */
        } cases[] = {
            {"null", "null"},
            {"true", "true"},
            {" \t\r\nfalse \n", "false"},
            {"0", "0"},
            {"-0", "0"},
            {"42", "42"},
            {"-17", "-17"},
            {"9223372036854775807", "9223372036854775807"},
            {"-9223372036854775808", "-9223372036854775808"},
            {"9223372036854775808", "9.223372036854776e+18"},
            {"-9223372036854775809", "-9.223372036854776e+18"},
            {"1.5", "1.5"},
            {"2.0", "2.0"},
            {"1E2", "100.0"},
            {"1e+2", "100.0"},
            {"25e-1", "2.5"},
            {"-0.0", "-0.0"},
            {"1e20", "1e+20"},
            {"0.1", "0.1"},
            {"\"\"", "\"\""},
            {"\"abc\"", "\"abc\""},
            {"\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\\"\\\\/\\u0008\\u000c\\n\\r\\t\""},
            {"\"\\u0041\\u00e9\\u20AC\"", "\"A\xc3\xa9\xe2\x82\xac\""},
            {"\"\\ud83d\\ude00\"", "\"\xf0\x9f\x98\x80\""},
            {"\"\\uDBFF\\uDFFF\"", "\"\xf4\x8f\xbf\xbf\""},
            {"\"\xf0\x9f\x98\x80 \xe4\xb8\xad\"", "\"\xf0\x9f\x98\x80 \xe4\xb8\xad\""},
            {"\"a\\u0000b\"", "\"a\\u0000b\""},
            {"\"\x7f\"", "\"\\u007f\""},
            {"[]", "[]"},
            {"{}", "{}"},
            {"[ ]", "[]"},
            {"{ }", "{}"},
            {"[1,[2,[3,{}]],{\"a\":[]}]", "[1,[2,[3,{}]],{\"a\":[]}]"},
            {" { \"b\" : 1 , \"a\" : [ true , null ] } ", "{\"b\":1,\"a\":[true,null]}"},
            {"{\"\":\"\"}", "{\"\":\"\"}"},
            {"{\"a\":1,\"b\":2,\"a\":3}", "{\"a\":3,\"b\":2}"},
            {"{\"a\":{\"x\":1},\"a\":{\"y\":2}}", "{\"a\":{\"y\":2}}"},
            {"[{\"k\":1,\"k\":2,\"k\":3}]", "[{\"k\":3}]"},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                cc_error err = {0};
                cc_value *v = NULL, *w = NULL;
                char *s, *s2;

                if (parse_n(cases[i].in, strlen(cases[i].in), 0, &v, &err) != 0)
                        fail_msg("case %zu (%s): %s", i, cases[i].in, err.msg);
                s = write_compact(v);
                if (strcmp(s, cases[i].out) != 0)
                        fail_msg("case %zu (%s): wrote %s, expected %s", i, cases[i].in, s, cases[i].out);
                /* what was written reads back to the same tree */
                if (parse_n(s, strlen(s), 0, &w, &err) != 0)
                        fail_msg("case %zu: re-reading %s: %s", i, s, err.msg);
                s2 = write_compact(w);
                assert_string_equal(s, s2);
                assert_int_equal(cc_v_type(v), cc_v_type(w));
                free(s);
                free(s2);
                cc_v_free(v);
                cc_v_free(w);
        }
}

static void test_types(void **state)
{
        cc_error err = {0};
        cc_value *v = NULL;
        const char *doc = "{\"i\":7,\"neg\":-7,\"d\":7.0,\"e\":7e0,\"big\":18446744073709551616,\"s\":\"x\","
                          "\"t\":true,\"f\":false,\"n\":null,\"a\":[1],\"o\":{\"k\":\"v\"}}";

        (void)state;
        assert_int_equal(parse_n(doc, strlen(doc), 0, &v, &err), 0);
        assert_int_equal(cc_v_type(v), CUDNNCTL_OBJECT);
        assert_int_equal(cc_v_len(v), 11);
        assert_int_equal(cc_v_type(cc_v_get(v, "i")), CUDNNCTL_INT);
        assert_int_equal(cc_v_as_int(cc_v_get(v, "i")), 7);
        assert_int_equal(cc_v_as_int(cc_v_get(v, "neg")), -7);
        assert_int_equal(cc_v_type(cc_v_get(v, "d")), CUDNNCTL_DOUBLE);
        assert_int_equal(cc_v_type(cc_v_get(v, "e")), CUDNNCTL_DOUBLE);
        assert_int_equal(cc_v_type(cc_v_get(v, "big")), CUDNNCTL_DOUBLE);
        assert_true(cc_v_as_double(cc_v_get(v, "big")) == 18446744073709551616.0);
        /* an integer reads as a double too; other types as 0 */
        assert_true(cc_v_as_double(cc_v_get(v, "i")) == 7.0);
        assert_true(cc_v_as_double(cc_v_get(v, "d")) == 7.0);
        assert_true(cc_v_as_double(cc_v_get(v, "s")) == 0.0);
        assert_true(cc_v_as_double(NULL) == 0.0);
        assert_int_equal(cc_v_as_int(cc_v_get(v, "d")), 0); /* a double is not an integer */
        assert_string_equal(cc_v_as_str(cc_v_get(v, "s")), "x");
        assert_int_equal(cc_v_type(cc_v_get(v, "t")), CUDNNCTL_BOOL);
        assert_int_equal(cc_v_as_bool(cc_v_get(v, "t")), 1);
        assert_int_equal(cc_v_as_bool(cc_v_get(v, "f")), 0);
        assert_non_null(cc_v_get(v, "n"));
        assert_int_equal(cc_v_type(cc_v_get(v, "n")), CUDNNCTL_NULL);
        assert_int_equal(cc_v_as_int(cc_v_path(v, "a/0")), 1);
        assert_string_equal(cc_v_as_str(cc_v_path(v, "o/k")), "v");
        /* key order is the document's */
        assert_string_equal(cc_v_key_at(v, 0), "i");
        assert_string_equal(cc_v_key_at(v, 10), "o");
        cc_v_free(v);
}

static void test_invalid(void **state)
{
        static const struct {
                const char *in;
                size_t len; /* 0: strlen */
                size_t off;
                int code;
        } cases[] = {
            {"", 0, 0, CC_ERR_TRUNCATED},
            {"   ", 0, 3, CC_ERR_TRUNCATED},
            {"[", 0, 1, CC_ERR_TRUNCATED},
            {"{", 0, 1, CC_ERR_TRUNCATED},
            {"]", 0, 0, CC_ERR_FORMAT},
            {"[1,]", 0, 3, CC_ERR_FORMAT},
            {"[1 2]", 0, 3, CC_ERR_FORMAT},
            {"[,1]", 0, 1, CC_ERR_FORMAT},
            {"[1,,2]", 0, 3, CC_ERR_FORMAT},
            {"{\"a\":1,}", 0, 7, CC_ERR_FORMAT},
            {"{\"a\" 1}", 0, 5, CC_ERR_FORMAT},
            {"{\"a\":}", 0, 5, CC_ERR_FORMAT},
            {"{1:2}", 0, 1, CC_ERR_FORMAT},
            {"{'a':1}", 0, 1, CC_ERR_FORMAT},
            {"{\"a\":1 \"b\":2}", 0, 7, CC_ERR_FORMAT},
            {"[1}", 0, 2, CC_ERR_FORMAT},
            {"{\"a\":1]", 0, 6, CC_ERR_FORMAT},
            {"01", 0, 0, CC_ERR_FORMAT},
            {"-01", 0, 0, CC_ERR_FORMAT},
            {"[00]", 0, 1, CC_ERR_FORMAT},
            {"1.", 0, 2, CC_ERR_TRUNCATED},
            {"[1.]", 0, 3, CC_ERR_FORMAT},
            {"[1.e5]", 0, 3, CC_ERR_FORMAT},
            {".5", 0, 0, CC_ERR_FORMAT},
            {"-", 0, 1, CC_ERR_TRUNCATED},
            {"[-]", 0, 2, CC_ERR_FORMAT},
            {"[-a]", 0, 2, CC_ERR_FORMAT},
            {"+1", 0, 0, CC_ERR_FORMAT},
            {"[1e]", 0, 3, CC_ERR_FORMAT},
            {"[1e+]", 0, 4, CC_ERR_FORMAT},
            {"0x10", 0, 1, CC_ERR_FORMAT},
            {"1e400", 0, 0, CC_ERR_FORMAT},
            {"[-1e400]", 0, 1, CC_ERR_FORMAT},
            {"NaN", 0, 0, CC_ERR_FORMAT},
            {"[Infinity]", 0, 1, CC_ERR_FORMAT},
            {"-Infinity", 0, 1, CC_ERR_FORMAT},
            {"tru", 0, 3, CC_ERR_TRUNCATED},
            {"trux", 0, 0, CC_ERR_FORMAT},
            {"[fx", 0, 1, CC_ERR_FORMAT},
            {"truee", 0, 4, CC_ERR_FORMAT},
            {"True", 0, 0, CC_ERR_FORMAT},
            {"[nul]", 0, 1, CC_ERR_FORMAT},
            {"\"abc", 0, 4, CC_ERR_TRUNCATED},
            {"\"a\\", 0, 3, CC_ERR_TRUNCATED},
            {"\"\\x\"", 0, 1, CC_ERR_FORMAT},
            {"\"\\u12\"", 0, 1, CC_ERR_FORMAT},
            {"\"\\u12G4\"", 0, 1, CC_ERR_FORMAT},
            {"\"\\u12", 0, 5, CC_ERR_TRUNCATED},
            {"\"\\ud800\"", 0, 1, CC_ERR_FORMAT},
            {"\"\\udc00\"", 0, 1, CC_ERR_FORMAT},
            {"\"ab\\udfff\"", 0, 3, CC_ERR_FORMAT},
            {"\"\\ud800\\u0041\"", 0, 1, CC_ERR_FORMAT},
            {"\"\\ud800\\ud800\"", 0, 1, CC_ERR_FORMAT},
            {"\"\\ud800\\n\"", 0, 1, CC_ERR_FORMAT},
            {"\"\\ud800x\"", 0, 1, CC_ERR_FORMAT},
            {"\"\\ud800\\uZZZZ\"", 0, 7, CC_ERR_FORMAT},
            {"\"a\x01\"", 0, 2, CC_ERR_FORMAT},
            {"\"a\nb\"", 0, 2, CC_ERR_FORMAT},
            {"\"a\tb\"", 0, 2, CC_ERR_FORMAT},
            {"\"a\0b\"", 5, 2, CC_ERR_FORMAT},
            {"\"\xff\"", 0, 1, CC_ERR_FORMAT},
            {"\"\xc0\xaf\"", 0, 1, CC_ERR_FORMAT},
            {"\"x\xe0\x80\xaf\"", 0, 2, CC_ERR_FORMAT},
            {"\"\xed\xa0\x80\"", 0, 1, CC_ERR_FORMAT},
            {"\"\xf4\x90\x80\x80\"", 0, 1, CC_ERR_FORMAT},
            {"\"\xe2\x82\"", 0, 1, CC_ERR_FORMAT},
            {"\"\x80\"", 0, 1, CC_ERR_FORMAT},
            {"\"\xe2\x82", 0, 1, CC_ERR_FORMAT},
            {"\xef\xbb\xbf[]", 0, 0, CC_ERR_FORMAT},
            {"[] []", 0, 3, CC_ERR_FORMAT},
            {"[]x", 0, 2, CC_ERR_FORMAT},
            {"1 2", 0, 2, CC_ERR_FORMAT},
            {"/* c */ []", 0, 0, CC_ERR_FORMAT},
            {"[] // c", 0, 3, CC_ERR_FORMAT},
            {"[1]\0", 4, 3, CC_ERR_FORMAT},
            {"\0", 1, 0, CC_ERR_FORMAT},
            {"\v[]", 0, 0, CC_ERR_FORMAT},
            {"\f[]", 0, 0, CC_ERR_FORMAT},
            {"{\"a\\u0000b\":1}", 0, 1, CC_ERR_UNSUPPORTED},
            {"{\"a\":1,\"\\u0000\":1}", 0, 7, CC_ERR_UNSUPPORTED},
            {"'a'", 0, 0, CC_ERR_FORMAT},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                cc_error err = {0};
                cc_value *v = (cc_value *)&err; /* must be reset to NULL */
                size_t len = cases[i].len ? cases[i].len : strlen(cases[i].in);

                if (parse_n(cases[i].in, len, 0, &v, &err) != -1)
                        fail_msg("case %zu (%s) was accepted", i, cases[i].in);
                assert_null(v);
                if (error_offset(&err) != cases[i].off || err.code != cases[i].code)
                        fail_msg("case %zu (%s): \"%s\" (code %d), expected byte %zu, code %d", i, cases[i].in, err.msg,
                                 err.code, cases[i].off, cases[i].code);
        }
}

/* n nested arrays (or objects "{"k":...}") around 1. */
static char *nested(int n, int objects, size_t *len)
{
        cc_buf b = {0};
        cc_error err = {0};
        int i;

        for (i = 0; i < n; i++)
                assert_int_equal(cc_buf_puts(&b, objects ? "{\"k\":" : "[", &err), 0);
        assert_int_equal(cc_buf_putc(&b, '1', &err), 0);
        for (i = 0; i < n; i++)
                assert_int_equal(cc_buf_putc(&b, objects ? '}' : ']', &err), 0);
        *len = b.len;
        return cc_buf_steal(&b);
}

static void test_depth(void **state)
{
        static const struct {
                int depth, max_depth, objects, ok;
        } cases[] = {
            {64, 0, 0, 1}, {65, 0, 0, 0}, {64, 0, 1, 1},      {65, 0, 1, 0},      {3, 3, 0, 1},      {4, 3, 0, 0},
            {1, 1, 1, 1},  {2, 1, 0, 0},  {1000, 1000, 0, 1}, {1001, 1000, 1, 0}, {100000, 0, 0, 0},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                cc_error err = {0};
                cc_value *v = NULL;
                size_t len;
                char *s = nested(cases[i].depth, cases[i].objects, &len);
                int rc = parse_n(s, len, cases[i].max_depth, &v, &err);

                if (cases[i].ok) {
                        const cc_value *x = v;
                        int d = 0;

                        if (rc != 0)
                                fail_msg("case %zu: %s", i, err.msg);
                        while (cc_v_type(x) == CUDNNCTL_ARRAY || cc_v_type(x) == CUDNNCTL_OBJECT) {
                                x = cc_v_at(x, 0);
                                d++;
                        }
                        assert_int_equal(d, cases[i].depth);
                        assert_int_equal(cc_v_as_int(x), 1);
                } else {
                        int max = cases[i].max_depth > 0 ? cases[i].max_depth : 64;

                        assert_int_equal(rc, -1);
                        assert_null(v);
                        assert_int_equal(err.code, CC_ERR_LIMIT);
                        /* the offset of the opening bracket one level too deep */
                        assert_int_equal(error_offset(&err), (size_t)max * (cases[i].objects ? 5 : 1));
                }
                cc_v_free(v);
                free(s);
        }
}

static const char *const docs[] = {
    "[1,-2.5e-3,true,false,null,\"s\\n\\u00e9\\ud83d\\ude00\xe2\x82\xac\",{\"a\":[{}],\"b\":{\"c\":[]}}]",
    ("{\"schema_version\":1,\"results\":[{\"path\":\"/usr/lib/libcudnn.so.9\",\"size\":123456789012,"
     "\"versions\":[{\"version\":\"9.19.0\"}],\"ratio\":0.75}],\"failed\":0}"),
    "[9223372036854775807,-9223372036854775808,18446744073709551616,1E+2,0.1,-0]",
    " { \"k\" : [ \"v\" , 1 ] , \"k\" : { } } ",
};

static void test_truncations(void **state)
{
        size_t d, cut;

        (void)state;
        for (d = 0; d < CC_ARRAY_LEN(docs); d++) {
                size_t n = strlen(docs[d]);
                cc_error err = {0};
                cc_value *v = NULL;

                /* trailing white space of the last document is allowed: trim it for the prefixes */
                while (n > 0 && docs[d][n - 1] == ' ')
                        n--;
                assert_int_equal(parse_n(docs[d], strlen(docs[d]), 0, &v, &err), 0);
                cc_v_free(v);
                for (cut = 0; cut < n; cut++) {
                        v = NULL;
                        if (parse_n(docs[d], cut, 0, &v, &err) != -1)
                                fail_msg("doc %zu cut at %zu was accepted", d, cut);
                        assert_null(v);
                        assert_true(error_offset(&err) <= cut);
                }
        }
}

static void test_doubles(void **state)
{
        static const struct {
                double d;
                const char *text; /* what the writer prints */
        } cases[] = {
            {0.1, "0.1"},
            {1e-300, "1e-300"},
            {5e-324, "4.94065645841247e-324"},
            {1.7976931348623157e308, "1.7976931348623157e+308"},
            {-1.7976931348623157e308, "-1.7976931348623157e+308"},
            {2.2250738585072014e-308, "2.2250738585072014e-308"},
            {0.30000000000000004, "0.30000000000000004"},
            {1.0 / 3.0, "0.3333333333333333"},
            {2.0, "2.0"},
            {-3.0, "-3.0"},
            {0.0, "0.0"},
            {-0.0, "-0.0"},
            {1e20, "1e+20"},
            {123456.0, "123456.0"},
            {9007199254740993.0, "9007199254740992.0"},
            {1e15, "1e+15"},
            {1e-7, "1e-07"},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                cc_error err = {0};
                cc_value *a = cc_v_array(&err), *v = NULL;
                char *s;
                double back;

                assert_int_equal(cc_v_push(a, cc_v_double(cases[i].d, &err), &err), 0);
                s = write_compact(a);
                if (strncmp(s + 1, cases[i].text, strlen(cases[i].text)) != 0 || strlen(s) != strlen(cases[i].text) + 2)
                        fail_msg("case %zu: wrote %s, expected [%s]", i, s, cases[i].text);
                assert_int_equal(parse_n(s, strlen(s), 0, &v, &err), 0);
                assert_int_equal(cc_v_type(cc_v_at(v, 0)), CUDNNCTL_DOUBLE);
                back = cc_v_as_double(cc_v_at(v, 0));
                /* bit for bit, so that -0.0 keeps its sign */
                assert_memory_equal(&back, &cases[i].d, sizeof(back));
                free(s);
                cc_v_free(a);
                cc_v_free(v);
        }
}

static void test_double_writer(void **state)
{
        cc_error err = {0};
        cc_value *o = cc_v_object(&err);
        char *s;

        (void)state;
        assert_int_equal(cc_v_set_double(o, "inf", INFINITY, &err), 0);
        assert_int_equal(cc_v_set_double(o, "ninf", -INFINITY, &err), 0);
        assert_int_equal(cc_v_set_double(o, "nan", NAN, &err), 0);
        assert_int_equal(cc_v_set_double(o, "x", 0.5, &err), 0);
        assert_int_equal(cc_v_set_double(o, "x", 1.25, &err), 0); /* replaces */
        s = write_compact(o);
        assert_string_equal(s, "{\"inf\":null,\"ninf\":null,\"nan\":null,\"x\":1.25}");
        free(s);
        assert_int_equal(cc_v_type(cc_v_get(o, "x")), CUDNNCTL_DOUBLE);
        assert_true(cc_v_as_double(cc_v_get(o, "x")) == 1.25);
        cc_v_free(o);
}

/* Many members with duplicates: the sort path of cc_v_dedup. */
static void test_duplicates(void **state)
{
        cc_buf b = {0}, want = {0};
        cc_error err = {0};
        cc_value *v = NULL;
        char *s;
        int i;

        (void)state;
        /* keys k0..k99, then k99..k0 again with new values, then k50 a third time */
        assert_int_equal(cc_buf_putc(&b, '{', &err), 0);
        for (i = 0; i < 100; i++)
                assert_int_equal(cc_buf_printf(&b, &err, "\"k%d\":%d,", i, i), 0);
        for (i = 99; i >= 0; i--)
                assert_int_equal(cc_buf_printf(&b, &err, "\"k%d\":[%d],", i, i), 0);
        assert_int_equal(cc_buf_puts(&b, "\"k50\":\"last\",\"new\":null}", &err), 0);
        assert_int_equal(parse_n(b.data, b.len, 0, &v, &err), 0);
        assert_int_equal(cc_v_len(v), 101);
        assert_int_equal(cc_buf_putc(&want, '{', &err), 0);
        for (i = 0; i < 100; i++) {
                if (i == 50)
                        assert_int_equal(cc_buf_puts(&want, "\"k50\":\"last\",", &err), 0);
                else
                        assert_int_equal(cc_buf_printf(&want, &err, "\"k%d\":[%d],", i, i), 0);
        }
        assert_int_equal(cc_buf_puts(&want, "\"new\":null}", &err), 0);
        s = write_compact(v);
        assert_string_equal(s, want.data);
        free(s);
        cc_v_free(v);
        cc_buf_free(&b);
        cc_buf_free(&want);
}

/* Large inputs parse in one pass: a long array, a wide object, a long
 * string, a long number. */
static void test_large(void **state)
{
        cc_buf b = {0};
        cc_error err = {0};
        cc_value *v = NULL;
        int i;

        (void)state;
        assert_int_equal(cc_buf_putc(&b, '[', &err), 0);
        for (i = 0; i < 200000; i++)
                assert_int_equal(cc_buf_printf(&b, &err, "%s%d", i ? "," : "", i), 0);
        assert_int_equal(cc_buf_putc(&b, ']', &err), 0);
        assert_int_equal(parse_n(b.data, b.len, 0, &v, &err), 0);
        assert_int_equal(cc_v_len(v), 200000);
        assert_int_equal(cc_v_as_int(cc_v_at(v, 199999)), 199999);
        cc_v_free(v);
        cc_buf_free(&b);

        assert_int_equal(cc_buf_putc(&b, '{', &err), 0);
        for (i = 0; i < 100000; i++)
                assert_int_equal(cc_buf_printf(&b, &err, "%s\"key%d\":%d", i ? "," : "", i % 90000, i), 0);
        assert_int_equal(cc_buf_putc(&b, '}', &err), 0);
        assert_int_equal(parse_n(b.data, b.len, 0, &v, &err), 0);
        assert_int_equal(cc_v_len(v), 90000);
        assert_int_equal(cc_v_as_int(cc_v_get(v, "key5")), 90005);
        assert_int_equal(cc_v_as_int(cc_v_get(v, "key89999")), 89999);
        cc_v_free(v);
        cc_buf_free(&b);

        assert_int_equal(cc_buf_putc(&b, '"', &err), 0);
        for (i = 0; i < 100000; i++)
                assert_int_equal(cc_buf_puts(&b, "abc\\n\\u00e9\xe2\x82\xac", &err), 0);
        assert_int_equal(cc_buf_putc(&b, '"', &err), 0);
        assert_int_equal(parse_n(b.data, b.len, 0, &v, &err), 0);
        assert_int_equal(strlen(cc_v_as_str(v)), 100000 * 9);
        cc_v_free(v);
        cc_buf_free(&b);

        assert_int_equal(cc_buf_puts(&b, "0.", &err), 0);
        for (i = 0; i < 100000; i++)
                assert_int_equal(cc_buf_putc(&b, '3', &err), 0);
        assert_int_equal(parse_n(b.data, b.len, 0, &v, &err), 0);
        assert_int_equal(cc_v_type(v), CUDNNCTL_DOUBLE);
        assert_true(cc_v_as_double(v) == 1.0 / 3.0);
        cc_v_free(v);
        cc_buf_free(&b);
}

static void test_usage(void **state)
{
        cc_error err = {0};
        cc_value *v = NULL;

        (void)state;
        assert_int_equal(cc_json_parse(NULL, 1, 0, &v, &err), -1);
        assert_int_equal(err.code, CC_ERR_USAGE);
        assert_int_equal(cc_json_parse("1", 1, 0, NULL, &err), -1);
        assert_int_equal(cc_json_parse(NULL, 0, 0, &v, &err), -1); /* no bytes: no value */
        assert_int_equal(err.code, CC_ERR_TRUNCATED);
        /* a length shorter than the string: only n bytes are read */
        assert_int_equal(cc_json_parse("[1]garbage", 3, 0, &v, &err), 0);
        assert_int_equal(cc_v_len(v), 1);
        cc_v_free(v);
        /* no error struct: still refuses cleanly */
        assert_int_equal(cc_json_parse("[", 1, 0, &v, NULL), -1);
        assert_null(v);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_valid_roundtrip), cmocka_unit_test(test_types),       cmocka_unit_test(test_invalid),
            cmocka_unit_test(test_depth),           cmocka_unit_test(test_truncations), cmocka_unit_test(test_doubles),
            cmocka_unit_test(test_double_writer),   cmocka_unit_test(test_duplicates),  cmocka_unit_test(test_large),
            cmocka_unit_test(test_usage),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
