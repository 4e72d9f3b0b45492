#include "testutil.h"

#include "formats/json.h"
#include "value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *json(const cc_value *v, int pretty)
{
        cc_buf b = {0};
        cc_error err = {0};

        assert_int_equal(cc_json_write(v, pretty, &b, &err), 0);
        return cc_buf_steal(&b);
}

static void test_escaping(void **state)
{
        static const struct {
                const char *in;
                size_t len;
                const char *out;
        } cases[] = {
            {"plain", 5, "\"plain\""},
            {"q\"b\\s", 5, "\"q\\\"b\\\\s\""},
            {"\n\r\t", 3, "\"\\n\\r\\t\""},
            {"\x01\x1f\x7f", 3, "\"\\u0001\\u001f\\u007f\""},
            {"caf\xc3\xa9", 5, "\"caf\xc3\xa9\""},
            {"bad\xff\xfe", 5, "\"bad\\ufffd\\ufffd\""},
            {"trunc\xe2\x82", 7, "\"trunc\\ufffd\\ufffd\""},
            {"nul\0x", 5, "\"nul\\u0000x\""},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                cc_buf b = {0};
                cc_error err = {0};

                assert_int_equal(cc_json_string(&b, cases[i].in, cases[i].len, &err), 0);
                assert_string_equal(b.data, cases[i].out);
                cc_buf_free(&b);
        }
}

static void test_tree(void **state)
{
        cc_error err = {0};
        cc_value *o = cc_v_object(&err), *a = cc_v_array(&err), *t;
        char *s;

        (void)state;
        assert_int_equal(cc_v_set_str(o, "b", "x", &err), 0);
        assert_int_equal(cc_v_set_int(o, "a", -5, &err), 0);
        assert_int_equal(cc_v_push(a, cc_v_bool(1, &err), &err), 0);
        assert_int_equal(cc_v_push(a, cc_v_null(&err), &err), 0);
        assert_int_equal(cc_v_push(a, cc_v_int(INT64_MAX, &err), &err), 0);
        assert_int_equal(cc_v_set(o, "list", a, &err), 0);
        assert_int_equal(cc_v_set(o, "empty", cc_v_object(&err), &err), 0);
        assert_int_equal(cc_v_set_str(o, "n", NULL, &err), 0);
        s = json(o, 0);
        assert_string_equal(s,
                            "{\"b\":\"x\",\"a\":-5,\"list\":[true,null,9223372036854775807],\"empty\":{},\"n\":null}");
        free(s);
        /* replacing keeps the position */
        assert_int_equal(cc_v_set_str(o, "b", "y", &err), 0);
        s = json(o, 1);
        assert_string_equal(s, "{\n  \"b\": \"y\",\n  \"a\": -5,\n  \"list\": [\n    true,\n    null,\n"
                               "    9223372036854775807\n  ],\n  \"empty\": {},\n  \"n\": null\n}");
        free(s);
        assert_int_equal(cc_v_as_int(cc_v_path(o, "list/2")), INT64_MAX);
        assert_null(cc_v_path(o, "list/3"));
        assert_null(cc_v_path(o, "list/x"));
        assert_string_equal(cc_v_get_str(o, "b"), "y");
        assert_null(cc_v_get_str(o, "a"));
        t = cc_v_take(o, "a");
        assert_int_equal(cc_v_as_int(t), -5);
        cc_v_free(t);
        assert_null(cc_v_get(o, "a"));
        assert_int_equal(cc_v_len(o), 4);
        assert_string_equal(cc_v_key_at(o, 1), "list");
        /* a failed builder propagates without leaking */
        assert_int_equal(cc_v_set(o, "z", NULL, &err), -1);
        assert_int_equal(cc_v_push(o, cc_v_int(1, &err), &err), -1); /* not an array */
        cc_v_free(o);
        cc_v_free(NULL);
}

static void test_public_json(void **state)
{
        cc_error err = {0};
        cc_value *o = cc_v_object(&err);
        char *s = NULL;

        (void)state;
        assert_int_equal(cc_v_set(o, "v", cc_v_strf(&err, "%d.%d", 9, 19), &err), 0);
        assert_int_equal(cudnnctl_to_json(o, 0, &s, &err), 0);
        assert_string_equal(s, "{\"v\":\"9.19\"}\n");
        cudnnctl_free(s);
        cc_v_free(o);
}

static void test_copy(void **state)
{
        cc_error err = {0};
        cc_value *o = cc_v_object(&err), *arr = cc_v_array(&err), *c, *deep, *cur;
        char *a, *b;
        int i;

        (void)state;
        assert_int_equal(cc_v_set_str(o, "s", "x", &err), 0);
        assert_int_equal(cc_v_set(o, "nul", cc_v_strn("a\0b", 3, &err), &err), 0);
        assert_int_equal(cc_v_set_double(o, "d", 0.25, &err), 0);
        assert_int_equal(cc_v_set_bool(o, "b", 1, &err), 0);
        assert_int_equal(cc_v_set_null(o, "n", &err), 0);
        assert_int_equal(cc_v_push(arr, cc_v_int(-7, &err), &err), 0);
        assert_int_equal(cc_v_set(o, "arr", arr, &err), 0);
        c = cc_v_copy(o, &err);
        assert_non_null(c);
        a = json(o, 0);
        b = json(c, 0);
        assert_string_equal(a, b); /* the embedded NUL is kept: "a\u0000b" */
        assert_non_null(strstr(b, "a\\u0000b"));
        free(a);
        free(b);
        /* the copy is independent */
        assert_int_equal(cc_v_set_int(c, "s", 1, &err), 0);
        assert_string_equal(cc_v_get_str(o, "s"), "x");
        cc_v_free(c);
        cc_v_free(o);
        c = cc_v_copy(NULL, &err);
        assert_int_equal(cc_v_type(c), CUDNNCTL_NULL);
        cc_v_free(c);
        /* too deep is refused, not truncated */
        deep = cc_v_array(&err);
        for (cur = deep, i = 0; i < 300; i++) {
                cc_value *n = cc_v_array(&err);

                assert_int_equal(cc_v_push(cur, n, &err), 0);
                cur = n;
        }
        assert_null(cc_v_copy(deep, &err));
        assert_int_equal(err.code, CC_ERR_LIMIT);
        cc_v_free(deep);
}

/* Keys short (in the member) and long (on the heap), through growth,
 * replacement, take and the JSON reader's merge of repeated keys; the
 * hinted lookup answers as cc_v_get does, whatever the hint. */
static void test_keys(void **state)
{
        cc_error err = {0};
        cc_value *o = cc_v_object(&err), *p = NULL;
        char key[64];
        const char *txt;
        size_t i, k, hint;
        unsigned seed = 99;

        (void)state;
        for (i = 0; i < 200; i++) {
                /* every third key over the member's room */
                snprintf(key, sizeof(key), i % 3 ? "k%zu" : "a-key-longer-than-sixteen-bytes-%zu", i);
                assert_int_equal(cc_v_set_int(o, key, (int64_t)i, &err), 0);
        }
        assert_int_equal(cc_v_len(o), 200);
        for (i = 0; i < 200; i++) {
                snprintf(key, sizeof(key), i % 3 ? "k%zu" : "a-key-longer-than-sixteen-bytes-%zu", i);
                assert_string_equal(cc_v_key_at(o, i), key);
                assert_int_equal(cc_v_as_int(cc_v_get(o, key)), (int64_t)i);
        }
        /* replaced in place, taken out */
        assert_int_equal(cc_v_set_str(o, "k1", "one", &err), 0);
        assert_string_equal(cc_v_key_at(o, 1), "k1");
        assert_string_equal(cc_v_get_str(o, "k1"), "one");
        cc_v_free(cc_v_take(o, "a-key-longer-than-sixteen-bytes-0"));
        assert_int_equal(cc_v_len(o), 199);
        assert_string_equal(cc_v_key_at(o, 0), "k1");
        assert_null(cc_v_get(o, "a-key-longer-than-sixteen-bytes-0"));
        /* the hint: any start, any order, absent keys */
        for (k = 0; k < 2000; k++) {
                size_t want = (seed = seed * 1103515245u + 12345u) % 230;

                hint = (seed = seed * 1103515245u + 12345u) % 260;
                snprintf(key, sizeof(key), want % 3 ? "k%zu" : "a-key-longer-than-sixteen-bytes-%zu", want);
                assert_ptr_equal(cc_v_get_hint(o, key, &hint), cc_v_get(o, key));
                if (cc_v_get(o, key) != NULL)
                        assert_string_equal(cc_v_key_at(o, hint - 1), key);
        }
        hint = 0;
        assert_null(cc_v_get_hint(NULL, "k1", &hint));
        cc_v_free(o);
        /* a key read from the object's own members while its array grows
         * (the ninth member): copied before the move (ASan reads this) */
        o = cc_v_object(&err);
        for (i = 0; i < 8; i++) {
                snprintf(key, sizeof(key), "m%zu", i);
                assert_int_equal(cc_v_set_int(o, key, (int64_t)i, &err), 0);
        }
        assert_int_equal(cc_v_append(o, cc_v_key_at(o, 3), cc_v_int(9, &err), &err), 0);
        assert_string_equal(cc_v_key_at(o, 8), "m3");
        assert_int_equal(cc_v_dedup(o, &err), 0);
        assert_int_equal(cc_v_len(o), 8);
        assert_int_equal(cc_v_as_int(cc_v_get(o, "m3")), 9);
        cc_v_free(o);
        /* repeated keys in JSON: one member, at the first place, the last value */
        txt = "{\"a-key-longer-than-sixteen-bytes\":1,\"b\":2,\"a-key-longer-than-sixteen-bytes\":3,\"b\":4,"
              "\"c\":5}";
        assert_int_equal(cc_json_parse(txt, strlen(txt), 8, &p, &err), 0);
        assert_int_equal(cc_v_len(p), 3);
        assert_string_equal(cc_v_key_at(p, 0), "a-key-longer-than-sixteen-bytes");
        assert_int_equal(cc_v_as_int(cc_v_at(p, 0)), 3);
        assert_string_equal(cc_v_key_at(p, 1), "b");
        assert_int_equal(cc_v_as_int(cc_v_at(p, 1)), 4);
        assert_string_equal(cc_v_key_at(p, 2), "c");
        cc_v_free(p);
        /* more than eight members: the sorted merge */
        txt = "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"a\":9,"
              "\"long-key-long-key-long-key\":10,\"long-key-long-key-long-key\":11,\"b\":12}";
        assert_int_equal(cc_json_parse(txt, strlen(txt), 8, &p, &err), 0);
        assert_int_equal(cc_v_len(p), 9);
        assert_int_equal(cc_v_as_int(cc_v_get(p, "a")), 9);
        assert_int_equal(cc_v_as_int(cc_v_get(p, "b")), 12);
        assert_string_equal(cc_v_key_at(p, 8), "long-key-long-key-long-key");
        assert_int_equal(cc_v_as_int(cc_v_at(p, 8)), 11);
        cc_v_free(p);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_escaping), cmocka_unit_test(test_tree), cmocka_unit_test(test_public_json),
            cmocka_unit_test(test_copy),     cmocka_unit_test(test_keys),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
