/* Tests of the C header reader and the integer expression evaluator: the
 * generated header fixtures, the real CUDA/cuDNN headers when installed,
 * evaluator edge cases and hostile inputs. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/cheader.h"

static cc_header *parse_str(const char *text)
{
        cc_header *h = NULL;
        cc_error err = {0};

        if (cc_header_parse(text, strlen(text), &h, &err) < 0)
                fail_msg("parse failed: %s", err.msg);
        return h;
}

static cc_header *parse_file(const char *path)
{
        cc_header *h = NULL;
        cc_error err = {0};
        size_t size;
        uint8_t *data = tu_read(path, &size);

        if (cc_header_parse((const char *)data, size, &h, &err) < 0)
                fail_msg("%s: %s", path, err.msg);
        assert_int_equal(cc_header_looks_like(data, size), 1);
        free(data);
        return h;
}

static cc_header *parse_fixture(const char *rel)
{
        char *p = tu_fixture(rel);
        cc_header *h = parse_file(p);

        free(p);
        return h;
}

static int64_t eval_ok(const cc_header *const *hs, size_t nh, const char *name)
{
        cc_error err = {0};
        int64_t v = 0;

        if (cc_header_eval(hs, nh, name, &v, &err) < 0)
                fail_msg("eval %s: %s", name, err.msg);
        return v;
}

/* ---- looks_like ---------------------------------------------------------- */

static void test_looks_like(void **state)
{
        static const struct {
                const char *text;
                size_t len; /* 0: strlen */
                int want;
        } cases[] = {
            {"#define X 1\n", 0, 1},
            {"  #  include <a.h>\n", 0, 1},
            {"/* c */\n#ifndef G\n", 0, 1},
            {"#pragma once\n", 0, 1},
            {"\t#ifdef X\n", 0, 1},
            {"int x;\n", 0, 0},
            {"#definex 1\n", 0, 0},
            {"# Include notes\n", 0, 0},
            {"int a; #define X 1\n", 0, 0},
            {"#define X 1\0", 12, 0}, /* NUL: not text */
            {"", 0, 0},
            {"#", 0, 0},
            {"#define", 0, 0}, /* nothing after the word: no room for a name */
        };
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                size_t len = cases[i].len ? cases[i].len : strlen(cases[i].text);

                if (cc_header_looks_like((const uint8_t *)cases[i].text, len) != cases[i].want)
                        fail_msg("looks_like case %zu (%s)", i, cases[i].text);
        }
        assert_int_equal(cc_header_looks_like(NULL, 10), 0);
}

/* ---- fixtures --------------------------------------------------------------- */

static void test_fixture_versions(void **state)
{
        static const struct {
                const char *file, *macro;
                int64_t want;
        } cases[] = {
            {"headers/v7/cudnn.h", "CUDNN_MAJOR", 7},
            {"headers/v7/cudnn.h", "CUDNN_MINOR", 6},
            {"headers/v7/cudnn.h", "CUDNN_PATCHLEVEL", 5},
            {"headers/v7/cudnn.h", "CUDNN_VERSION", 7605},
            {"headers/v7/cudnn.h", "CUDNN_DIM_MAX", 8},
            {"headers/v8/cudnn_version.h", "CUDNN_VERSION", 8202},
            {"headers/v8/cudnn_ops_infer.h", "CUDNN_OPS_INFER_MAJOR", 8},
            {"headers/v8/cudnn_ops_infer.h", "CUDNN_OPS_INFER_MINOR", 2},
            {"headers/v8/cudnn_ops_infer.h", "CUDNN_OPS_INFER_PATCH", 2},
            {"headers/v9/cudnn_version.h", "CUDNN_VERSION", 90100},
            {"headers/v9/cudnn_version.h", "CUDNN_MAX_SM_MAJOR_NUMBER", 9},
            {"headers/v9/cudnn_version.h", "CUDNN_MAX_SM_MINOR_NUMBER", 0},
            {"headers/v9/cudnn_version.h", "CUDNN_MAX_DEVICE_VERSION", 900},
            {"headers/v9/cudnn_graph.h", "CUDNN_GRAPH_MAJOR", 9},
            {"headers/v9/cudnn_graph.h", "CUDNN_GRAPH_MINOR", 1},
            {"headers/v9/cudnn_graph.h", "CUDNN_GRAPH_PATCH", 0},
            {"headers/cuda/cuda.h", "CUDA_VERSION", 11040},
            {"headers/cuda/cuda.h", "CU_LAUNCH_PARAM_END_AS_INT", 0},
            {"headers/cuda/cuda_runtime_api.h", "CUDART_VERSION", 11040},
        };
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                cc_header *h = parse_fixture(cases[i].file);
                const cc_header *hs[1] = {h};
                int64_t v = eval_ok(hs, 1, cases[i].macro);

                if (v != cases[i].want)
                        fail_msg("%s %s = %lld, want %lld", cases[i].file, cases[i].macro, (long long)v,
                                 (long long)cases[i].want);
                cc_header_free(h);
        }
}

static void test_fixture_decode(void **state)
{
        static const struct {
                const char *file;
                const char *want;
        } cases[] = {
            {"headers/v7/cudnn.h", "7.6.5"},
            {"headers/v8/cudnn_version.h", "8.2.2"},
            {"headers/v9/cudnn_version.h", "9.1.0"},
        };
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                cc_header *h = parse_fixture(cases[i].file);
                const cc_header *hs[1] = {h};
                cudnnctl_ver v;
                char buf[32];

                assert_int_equal(cudnnctl_cudnn_decode((long)eval_ok(hs, 1, "CUDNN_VERSION"), &v), 0);
                assert_string_equal(cudnnctl_ver_str(&v, buf, sizeof(buf)), cases[i].want);
                cc_header_free(h);
        }
}

static void test_fixture_multi(void **state)
{
        cc_header *ops = parse_fixture("headers/v8/cudnn_ops_infer.h");
        cc_header *v8 = parse_fixture("headers/v8/cudnn_version.h");
        cc_header *v9 = parse_fixture("headers/v9/cudnn_version.h");
        const cc_header *hs[3] = {ops, v8, v9};
        const cc_header *rev[2] = {v9, v8};
        cc_error err = {0};
        int64_t v = 0;

        (void)state;
        /* the version check cuDNN 8 headers do with #if */
        assert_int_equal(cc_header_eval_expr(hs, 2,
                                             "(CUDNN_OPS_INFER_MAJOR != CUDNN_MAJOR) || (CUDNN_OPS_INFER_MINOR != "
                                             "CUDNN_MINOR) || (CUDNN_OPS_INFER_PATCH != CUDNN_PATCHLEVEL)",
                                             &v, &err),
                         0);
        assert_int_equal(v, 0);
        /* not defined in the first header alone */
        assert_int_equal(cc_header_eval(hs, 1, "CUDNN_MAJOR", &v, &err), -1);
        assert_int_equal(err.code, CC_ERR_NOTFOUND);
        /* first header wins */
        assert_int_equal(eval_ok(hs, 3, "CUDNN_VERSION"), 8202);
        assert_int_equal(eval_ok(rev, 2, "CUDNN_VERSION"), 90100);
        assert_ptr_equal(cc_header_find(rev, 2, "CUDNN_MAJOR"), cc_header_find(rev, 1, "CUDNN_MAJOR"));
        assert_string_equal(cc_header_find(rev, 2, "CUDNN_MAJOR")->body, "9");
        assert_null(cc_header_find(hs, 3, "NO_SUCH_MACRO"));
        assert_null(cc_header_find(NULL, 0, "CUDNN_MAJOR"));
        assert_null(cc_header_find(hs, 3, NULL));
        cc_header_free(ops);
        cc_header_free(v8);
        cc_header_free(v9);
}

static void test_fixture_includes(void **state)
{
        static const char *const v8_umbrella[] = {
            "cuda_runtime.h",    "stdint.h",          "cudnn_version.h",   "cudnn_ops_infer.h", "cudnn_ops_train.h",
            "cudnn_adv_infer.h", "cudnn_adv_train.h", "cudnn_cnn_infer.h", "cudnn_cnn_train.h", "cudnn_backend.h",
        };
        static const char *const v9_graph[] = {"cuda_runtime_api.h", "library_types.h", "stdint.h", "cudnn_version.h"};
        cc_header *h = parse_fixture("headers/v8/cudnn.h");
        size_t i;

        (void)state;
        assert_int_equal(h->includes.n, sizeof(v8_umbrella) / sizeof(v8_umbrella[0]));
        for (i = 0; i < h->includes.n; i++)
                assert_string_equal(h->includes.v[i], v8_umbrella[i]);
        assert_int_equal(h->nmacros, 1); /* the include guard */
        assert_string_equal(h->macros[0].name, "CUDNN_H_");
        assert_string_equal(h->macros[0].body, "");
        cc_header_free(h);

        h = parse_fixture("headers/v9/cudnn_graph.h");
        assert_int_equal(h->includes.n, sizeof(v9_graph) / sizeof(v9_graph[0]));
        for (i = 0; i < h->includes.n; i++)
                assert_string_equal(h->includes.v[i], v9_graph[i]);
        cc_header_free(h);
}

static void test_fixture_macro_shapes(void **state)
{
        cc_header *h = parse_fixture("headers/v9/cudnn_graph.h");
        cc_header *v7 = parse_fixture("headers/v7/cudnn.h");
        const cc_header *hs[1] = {h};
        const cc_header *hs7[1] = {v7};
        const cc_macro *m;
        cc_error err = {0};
        int64_t v;
        size_t i;
        int seen = 0;

        (void)state;
        m = cc_header_find(hs, 1, "CUDNN_GRAPH_MAJOR");
        assert_non_null(m);
        assert_int_equal(m->line, 13);
        assert_int_equal(m->function_like, 0);
        m = cc_header_find(hs, 1, "CUDNN_ATTR_FN");
        assert_non_null(m);
        assert_int_equal(m->function_like, 1);
        assert_int_equal(m->line, 55);
        assert_string_equal(m->body, "((x) + 1)");
        assert_int_equal(cc_header_eval(hs, 1, "CUDNN_ATTR_FN", &v, &err), -1);
        assert_non_null(strstr(err.msg, "function-like"));
        /* first definition kept, the others warned about */
        m = cc_header_find(hs, 1, "CUDNN_DEPRECATED");
        assert_string_equal(m->body, "__attribute__((deprecated))");
        for (i = 0; i < h->warnings.n; i++)
                if (strstr(h->warnings.v[i], "CUDNN_DEPRECATED redefined") != NULL)
                        seen++;
        assert_int_equal(seen, 2);
        /* an enum constant is not a macro: an error, not 0 */
        assert_int_equal(cc_header_eval(hs, 1, "CUDNN_SEV_ERROR_EN", &v, &err), -1);
        assert_int_equal(err.code, CC_ERR_FORMAT);
        assert_non_null(strstr(err.msg, "unknown identifier 'CUDNN_SEV_ERROR'"));
        assert_non_null(strstr(err.msg, "CUDNN_SEV_ERROR_EN"));
        /* the first of #ifdef'd alternatives is kept */
        assert_string_equal(cc_header_find(hs, 1, "CUDNNWINAPI")->body, "__stdcall");
        assert_int_equal(cc_header_eval(hs, 1, "CUDNNWINAPI", &v, &err), -1);
        assert_non_null(strstr(err.msg, "unknown identifier '__stdcall'"));
        /* an empty body */
        assert_int_equal(cc_header_eval(hs, 1, "CUDNN_GRAPH_H_", &v, &err), -1);
        assert_string_equal(err.msg, "CUDNN_GRAPH_H_ is defined with an empty body");
        /* a floating constant */
        assert_int_equal(cc_header_eval(hs7, 1, "CUDNN_BN_MIN_EPSILON", &v, &err), -1);
        assert_non_null(strstr(err.msg, "1e-5 is not an integer constant"));
        cc_header_free(h);
        cc_header_free(v7);
}

static void test_tricky(void **state)
{
        static const struct {
                const char *macro;
                int64_t want;
                int code;        /* 0: success */
                const char *msg; /* part of the error */
        } cases[] = {
            {"SPLIT_NAME_PART", 5, 0, NULL},
            {"CONT_A", 6, 0, NULL},
            {"CONT_COMMENT", 42, 0, NULL},
            {"TABBED", 7, 0, NULL},
            {"INDENTED", 8, 0, NULL},
            {"HEX", 31, 0, NULL},
            {"OCT", 15, 0, NULL},
            {"SUFFIXED", 100, 0, NULL},
            {"BIG_HEX", 4294967295LL, 0, NULL},
            {"CHAR_A", 65, 0, NULL},
            {"CHAR_NL", 10, 0, NULL},
            {"DERIVED", 61, 0, NULL},
            {"DERIVED2", 245, 0, NULL},
            {"TERNARY", 10, 0, NULL},
            {"NEG", -10, 0, NULL},
            {"LOGIC", 1, 0, NULL},
            {"GUARDED", 0, 0, NULL},
            {"REDEF", 1, 0, NULL},
            {"REDEF_SAME", 3, 0, NULL},
            {"TRAILING", 5, 0, NULL},
            {"DEEP_9", 1, 0, NULL},
            {"DEEP_40", 1, 0, NULL},
            {"SELF", 0, CC_ERR_FORMAT, "macro SELF refers to itself"},
            {"SELF_B", 0, CC_ERR_FORMAT, "macro SELF_B refers to itself"},
            {"DIV_ZERO", 0, CC_ERR_FORMAT, "division by zero"},
            {"MOD_ZERO", 0, CC_ERR_FORMAT, "modulo by zero"},
            {"UNDEF", 0, CC_ERR_FORMAT, "unknown identifier 'NOT_DEFINED'"},
            {"OVERFLOW", 0, CC_ERR_FORMAT, "overflow"},
            {"USES_FUNC", 0, CC_ERR_FORMAT, "function-like macro FUNC"},
            {"FUNC", 0, CC_ERR_FORMAT, "function-like"},
            {"EMPTY", 0, CC_ERR_FORMAT, "empty"},
            {"STRINGY", 0, CC_ERR_FORMAT, "string literal"},
            {"CAST", 0, CC_ERR_FORMAT, "unknown identifier 'int'"},
            {"WITH_STRING_COMMENT", 0, CC_ERR_FORMAT, "string literal"},
            {"DEEP_8", 0, CC_ERR_LIMIT, "deeper than 32"},
            {"DEEP_0", 0, CC_ERR_LIMIT, "deeper than 32"},
            {"EXP_0", 0, CC_ERR_LIMIT, "longer than"},
            {"IN_BLOCK_COMMENT", 0, CC_ERR_NOTFOUND, "IN_BLOCK_COMMENT is not defined"},
            {"IN_LINE_COMMENT", 0, CC_ERR_NOTFOUND, "not defined"},
            {"IN_STRING", 0, CC_ERR_NOTFOUND, "not defined"},
            {"NOT_DEFINED", 0, CC_ERR_NOTFOUND, "not defined"},
        };
        cc_header *h = parse_fixture("headers/tricky/tricky.h");
        const cc_header *hs[1] = {h};
        const cc_macro *m;
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                cc_error err = {0};
                int64_t v = -12345;
                int rc = cc_header_eval(hs, 1, cases[i].macro, &v, &err);

                if (cases[i].code == 0) {
                        if (rc != 0 || v != cases[i].want)
                                fail_msg("%s: rc %d value %lld (%s), want %lld", cases[i].macro, rc, (long long)v,
                                         err.msg, (long long)cases[i].want);
                } else {
                        if (rc != -1 || err.code != cases[i].code || strstr(err.msg, cases[i].msg) == NULL)
                                fail_msg("%s: rc %d code %d msg '%s', want code %d '%s'", cases[i].macro, rc, err.code,
                                         err.msg, cases[i].code, cases[i].msg);
                        assert_int_equal(v, -12345); /* untouched on failure */
                }
        }
        /* bodies as stored */
        assert_string_equal(cc_header_find(hs, 1, "CONT_COMMENT")->body, "40 + 2");
        assert_string_equal(cc_header_find(hs, 1, "CONT_A")->body, "(1 + 2 + 3)");
        assert_string_equal(cc_header_find(hs, 1, "TABBED")->body, "7");
        assert_string_equal(cc_header_find(hs, 1, "TRAILING")->body, "5");
        assert_string_equal(cc_header_find(hs, 1, "WITH_STRING_COMMENT")->body, "\"/* not a comment */\"");
        assert_string_equal(cc_header_find(hs, 1, "CHAR_NL")->body, "'\\n'");
        /* physical line numbers survive splices and multi-line comments */
        m = cc_header_find(hs, 1, "SPLIT_NAME_PART");
        assert_int_equal(m->line, 11);
        assert_int_equal(cc_header_find(hs, 1, "TABBED")->line, 18);
        assert_int_equal(cc_header_find(hs, 1, "INDENTED")->line, 19);
        assert_int_equal(cc_header_find(hs, 1, "REDEF")->line, 44);
        /* includes, with blanks after the hash */
        assert_int_equal(h->includes.n, 2);
        assert_string_equal(h->includes.v[0], "stddef.h");
        assert_string_equal(h->includes.v[1], "tricky_local.h");
        /* the one conflicting redefinition */
        assert_int_equal(h->warnings.n, 1);
        assert_string_equal(h->warnings.v[0], "line 45: REDEF redefined (the definition at line 44 is kept)");
        cc_header_free(h);
}

static void test_crlf_and_unterminated(void **state)
{
        cc_header *h = parse_fixture("headers/tricky/crlf.h");
        const cc_header *hs[1] = {h};

        (void)state;
        assert_int_equal(eval_ok(hs, 1, "CRLF_B"), 3);
        assert_int_equal(eval_ok(hs, 1, "CR_ONLY"), 4);
        assert_int_equal(eval_ok(hs, 1, "AFTER_CR"), 5);
        assert_int_equal(cc_header_find(hs, 1, "CRLF_B")->line, 4);
        assert_int_equal(cc_header_find(hs, 1, "AFTER_CR")->line, 7);
        assert_string_equal(cc_header_find(hs, 1, "CRLF_B")->body, "(CRLF_A + 2)");
        assert_int_equal(h->warnings.n, 0);
        cc_header_free(h);

        h = parse_fixture("headers/tricky/unterminated.h");
        hs[0] = h;
        assert_int_equal(h->nmacros, 1);
        assert_string_equal(h->macros[0].name, "BEFORE");
        assert_int_equal(h->warnings.n, 1);
        assert_string_equal(h->warnings.v[0], "line 2: unterminated comment");
        cc_header_free(h);
}

/* ---- the evaluator ------------------------------------------------------------ */

struct ecase {
        const char *expr;
        int64_t want;
        int code; /* 0: success */
        const char *msg;
};

static void run_ecases(const cc_header *const *hs, size_t nh, const struct ecase *c, size_t n)
{
        size_t i;

        for (i = 0; i < n; i++) {
                cc_error err = {0};
                int64_t v = 0;
                int rc = cc_header_eval_expr(hs, nh, c[i].expr, &v, &err);

                if (c[i].code == 0) {
                        if (rc != 0 || v != c[i].want)
                                fail_msg("'%s': rc %d value %lld (%s), want %lld", c[i].expr, rc, (long long)v, err.msg,
                                         (long long)c[i].want);
                } else if (rc != -1 || err.code != c[i].code ||
                           (c[i].msg != NULL && strstr(err.msg, c[i].msg) == NULL)) {
                        fail_msg("'%s': rc %d code %d msg '%s', want code %d '%s'", c[i].expr, rc, err.code, err.msg,
                                 c[i].code, c[i].msg ? c[i].msg : "");
                }
        }
}

#define F CC_ERR_FORMAT

/* Comments of every length and shape (the reader skips them eight bytes at
 * a time where it can): the defines after them are found, each at its line.
 * The text is generated with the line of each define known: the comments
 * hold '*' not before '/', backslashes not before a line end, CRLF or LF
 * line ends, and end at every offset of a word. */
/* A line of code is read sixteen bytes at a time: each thing that stops
 * the run (a line end, a comment, a literal, a number, a splice, a '#'),
 * at every place of a line, still stops it. After each line, a define that
 * must be seen; inside each comment, one that must not. */
static void test_code_runs(void **state)
{
        static const char *const stops[] = {"/* #define HIDDEN 1\n*/",
                                            "// #define HIDDEN 1",
                                            "\"#define HIDDEN 1\"",
                                            "'#'",
                                            "1'000 /* \n#define HIDDEN 1 */",
                                            "\\\n#define HIDDEN 1",
                                            "x\r\n",
                                            "9",
                                            "a9",
                                            "\"/*\"",
                                            "'/' /* \n*/",
                                            "'/*'",
                                            "'\"'"};
        cc_buf b = {0};
        cc_error err = {0};
        cc_header *h = NULL;
        const cc_header *hs[1];
        int k, n = 0, total = 0;
        size_t st;

        (void)state;
        for (st = 0; st < CC_ARRAY_LEN(stops); st++)
                for (k = 0; k < 40; k++, n++) {
                        /* k blanks of plain code before the stop (after a ';': a number
                         * there starts a token), then more after it */
                        assert_int_equal(cc_buf_puts(&b, "int;", &err), 0);
                        assert_int_equal(cc_buf_printf(&b, &err, "%*s", k, ""), 0);
                        assert_int_equal(cc_buf_puts(&b, stops[st], &err), 0);
                        assert_int_equal(cc_buf_printf(&b, &err, " x = y;\n#define RUN%d %d\n", n, n), 0);
                }
        total = n;
        assert_int_equal(cc_header_parse(b.data, b.len, &h, &err), 0);
        hs[0] = h;
        for (n = 0; n < total; n++) {
                char name[16];
                int64_t v;

                snprintf(name, sizeof(name), "RUN%d", n);
                if (cc_header_find(hs, 1, name) == NULL)
                        fail_msg("%s (after '%s' at %d bytes) not seen", name, stops[n / 40], n % 40);
                assert_int_equal(cc_header_eval(hs, 1, name, &v, &err), 0);
                assert_int_equal(v, n);
        }
        assert_null(cc_header_find(hs, 1, "HIDDEN"));
        cc_header_free(h);
        cc_buf_free(&b);
}

static void test_comment_runs(void **state)
{
        static const char fill[] = "ab *\\x\n\t/Z*";
        cc_buf b = {0};
        cc_error err = {0};
        cc_header *h = NULL;
        const cc_header *hs[1];
        int expect[400], line = 1, k, crlf;
        uint32_t seed = 12345;

        (void)state;
        for (crlf = 0; crlf < 2; crlf++) {
                cc_buf_free(&b);
                memset(&b, 0, sizeof(b));
                line = 1;
                for (k = 0; k < 400; k++) {
                        int len, j;

                        seed = seed * 1103515245u + 12345u;
                        len = (int)((seed >> 8) % 97); /* 0..96 bytes inside */
                        assert_int_equal(cc_buf_puts(&b, "/*", &err), 0);
                        for (j = 0; j < len; j++) {
                                char c;

                                seed = seed * 1103515245u + 12345u;
                                c = fill[(seed >> 16) % (sizeof(fill) - 1)];
                                if (c == '\n') {
                                        assert_int_equal(cc_buf_puts(&b, crlf ? "\r\n" : "\n", &err), 0);
                                        line++;
                                        continue;
                                }
                                if (c == '/' && b.len > 0 && b.data[b.len - 1] == '*')
                                        c = 'q'; /* not the end yet */
                                if (c == '\\')
                                        assert_int_equal(cc_buf_append(&b, "\\y", 2, &err), 0);
                                else
                                        assert_int_equal(cc_buf_append(&b, &c, 1, &err), 0);
                        }
                        assert_int_equal(cc_buf_puts(&b, "*/", &err), 0);
                        assert_int_equal(cc_buf_puts(&b, crlf ? "\r\n" : "\n", &err), 0);
                        line++;
                        expect[k] = line;
                        assert_int_equal(cc_buf_printf(&b, &err, "#define RUN%d %d%s", k, k, crlf ? "\r\n" : "\n"), 0);
                        line++;
                }
                assert_int_equal(cc_header_parse(b.data, b.len, &h, &err), 0);
                hs[0] = h;
                assert_int_equal(h->nmacros, 400);
                for (k = 0; k < 400; k++) {
                        char name[16];
                        const cc_macro *m;
                        int64_t v;

                        snprintf(name, sizeof(name), "RUN%d", k);
                        m = cc_header_find(hs, 1, name);
                        assert_non_null(m);
                        if (m->line != expect[k])
                                fail_msg("%s: line %d, not %d (%s line ends)", name, m->line, expect[k],
                                         crlf ? "CRLF" : "LF");
                        assert_int_equal(cc_header_eval(hs, 1, name, &v, &err), 0);
                        assert_int_equal(v, k);
                }
                assert_int_equal(h->warnings.n, 0);
                cc_header_free(h);
                h = NULL;
        }
        cc_buf_free(&b);
}

/* Where a comment ends: at a '/' whose character before, after splices, is
 * a '*' of the comment (not the opening one), and nowhere else. Each text
 * defines SEEN after the comment, and HIDDEN inside it when it has one. */
static void test_comment_ends(void **state)
{
        static const struct {
                const char *text;
                int line; /* SEEN's */
        } cases[] = {
            {"/*/ #define HIDDEN 1 */\n#define SEEN 1\n", 2},
            {"/**/\n#define SEEN 1\n", 2},
            {"/***/\n#define SEEN 1\n", 2},
            {"/* **/\n#define SEEN 1\n", 2},
            {"/*/*/\n#define SEEN 1\n", 2},
            {"/* a / b // c ** / d \n#define HIDDEN 1 */\n#define SEEN 1\n", 3},
            {"/* *\\\n/\n#define SEEN 1\n", 3},                     /* a splice between '*' and '/' ends it */
            {"/* *\\\r\n/\n#define SEEN 1\n", 3},                   /* a CRLF splice too */
            {"/* *\\\n\\\n/\n#define SEEN 1\n", 4},                 /* two splices */
            {"/* *\r\n/ #define HIDDEN 1 */\n#define SEEN 1\n", 3}, /* a line end between: not */
            {"/* *\\x/ #define HIDDEN 1 */\n#define SEEN 1\n", 2},  /* a backslash, no splice: not */
            {"/*\n * doc\n * more\n *\n */\n#define SEEN 1\n", 6},
            {"/*\r * doc\r */\r#define SEEN 1\r", 4}, /* CR line ends */
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                cc_error err = {0};
                cc_header *h = NULL;
                const cc_header *hs[1];
                const cc_macro *m;

                assert_int_equal(cc_header_parse(cases[i].text, strlen(cases[i].text), &h, &err), 0);
                hs[0] = h;
                m = cc_header_find(hs, 1, "SEEN");
                if (m == NULL)
                        fail_msg("case %zu: SEEN not seen", i);
                if (m->line != cases[i].line)
                        fail_msg("case %zu: SEEN at line %d, not %d", i, m->line, cases[i].line);
                if (cc_header_find(hs, 1, "HIDDEN") != NULL)
                        fail_msg("case %zu: HIDDEN seen", i);
                assert_int_equal(h->warnings.n, 0);
                cc_header_free(h);
        }
}

static void test_eval_arith(void **state)
{
        static const struct ecase cases[] = {
            /* precedence and associativity */
            {"1 + 2 * 3", 7, 0, NULL},
            {"(1 + 2) * 3", 9, 0, NULL},
            {"1 << 2 + 1", 8, 0, NULL},
            {"1 | 2 ^ 3 & 4", 3, 0, NULL},
            {"6 & 3 == 3", 0, 0, NULL}, /* == binds tighter than & */
            {"1 < 2 == 1", 1, 0, NULL},
            {"10 - 4 - 3", 3, 0, NULL},
            {"100 / 10 / 5", 2, 0, NULL},
            {"2 * 3 % 4", 2, 0, NULL},
            {"1 + 2 > 2 && 3 | 0", 1, 0, NULL},
            {"0 || 2 && 0", 0, 0, NULL},
            {"5 >= 5", 1, 0, NULL},
            {"5 <= 4", 0, 0, NULL},
            {"5 != 4", 1, 0, NULL},
            {"9 ^ 5", 12, 0, NULL},
            /* signed division truncates toward zero; >> of a negative is arithmetic */
            {"-3 / 2", -1, 0, NULL},
            {"-3 % 2", -1, 0, NULL},
            {"7 % -3", 1, 0, NULL},
            {"-8 >> 1", -4, 0, NULL},
            {"-1 >> 63", -1, 0, NULL},
            /* unary */
            {"~0", -1, 0, NULL},
            {"!5", 0, 0, NULL},
            {"!0", 1, 0, NULL},
            {"- - 5", 5, 0, NULL},
            {"+-+5", -5, 0, NULL},
            {"!!7", 1, 0, NULL},
            {"~~9", 9, 0, NULL},
            /* ?: */
            {"1 ? 2 : 3", 2, 0, NULL},
            {"0 ? 2 : 3", 3, 0, NULL},
            {"1 ? 0 ? 4 : 5 : 6", 5, 0, NULL},
            {"0 ? 1 : 0 ? 2 : 3", 3, 0, NULL},
            {"1 ? 2 : 1 / 0", 2, 0, NULL},
            {"0 ? 1 / 0 : 7", 7, 0, NULL},
            {"(2 > 1 ? 10 : 20) + 1", 11, 0, NULL},
            {"0 ? 1u : -1", -1, F, "does not fit"}, /* the result type is unsigned */
            /* short-circuit: the other side is not evaluated */
            {"0 && 1 / 0", 0, 0, NULL},
            {"1 || 1 / 0", 1, 0, NULL},
            {"0 && UNKNOWN_NAME", 0, 0, NULL},
            {"1 || (9223372036854775807 + 1)", 1, 0, NULL},
            {"1 && 2", 1, 0, NULL},
            {"0 || 0", 0, 0, NULL},
            {"1 && 0 / 1", 0, 0, NULL},
            /* constants */
            {"0x10", 16, 0, NULL},
            {"0X1f", 31, 0, NULL},
            {"0xABCdef", 0xABCDEF, 0, NULL},
            {"010", 8, 0, NULL},
            {"0", 0, 0, NULL},
            {"00", 0, 0, NULL},
            {"123u", 123, 0, NULL},
            {"123UL", 123, 0, NULL},
            {"123llu", 123, 0, NULL},
            {"123LLU", 123, 0, NULL},
            {"123uLL", 123, 0, NULL},
            {"123lu", 123, 0, NULL},
            {"9223372036854775807", INT64_MAX, 0, NULL},
            {"-9223372036854775807 - 1", INT64_MIN, 0, NULL},
            {"0xFFFFFFFFFFFFFFFF >> 60", 15, 0, NULL},
            {"0x7FFFFFFFFFFFFFFF", INT64_MAX, 0, NULL},
            {"0xFFFFFFFFFFFFFFFF", 0, F, "does not fit"},
            {"18446744073709551616", 0, F, "too large"},
            {"9223372036854775808", 0, F, "too large for a signed type"},
            {"08", 0, F, "invalid digit '8' in octal"},
            {"1.5", 0, F, "not an integer constant"},
            {"1e3", 0, F, "not an integer constant"},
            {".5", 0, F, "not an integer constant"},
            {"0x", 0, F, "without digits"},
            {"0x1e+1", 0, F, "not an integer constant"}, /* one pp-number, as in C */
            {"123lL", 0, F, "not an integer constant"},
            {"123uu", 0, F, "not an integer constant"},
            {"12abc", 0, F, "not an integer constant"},
            /* unsigned arithmetic follows C */
            {"-1 < 0u", 0, 0, NULL},
            {"-1 > 0u", 1, 0, NULL},
            {"0u - 1 > 0", 1, 0, NULL},
            {"(0u - 1) >> 63", 1, 0, NULL},
            {"0u - 1", 0, F, "does not fit"},
            {"-1u == 0xFFFFFFFFFFFFFFFF", 1, 0, NULL},
            {"1u << 63 >> 63", 1, 0, NULL},
            {"(1u << 63) / 2 == 1u << 62", 1, 0, NULL},
            {"~0u >> 1", INT64_MAX, 0, NULL},
            /* character constants */
            {"'a'", 97, 0, NULL},
            {"'\\n'", 10, 0, NULL},
            {"'\\0'", 0, 0, NULL},
            {"'\\x41'", 65, 0, NULL},
            {"'\\101'", 65, 0, NULL},
            {"'\\''", 39, 0, NULL},
            {"'\\\\'", 92, 0, NULL},
            {"'\"'", 34, 0, NULL},
            {"'a' + 1", 98, 0, NULL},
            {"'ab'", 0, F, "multi-character"},
            {"''", 0, F, "empty character constant"},
            {"'\\xff'", 0, F, "above 127"},
            {"'\\x100'", 0, F, "out of range"},
            {"'\\q'", 0, F, "unknown escape"},
            {"'a", 0, F, "unterminated"},
            {"L'a'", 0, F, "prefixed"},
            /* overflow */
            {"9223372036854775807 + 1", 0, F, "overflow in 9223372036854775807 + 1"},
            {"-9223372036854775807 - 2", 0, F, "overflow"},
            {"4611686018427387904 * 2", 0, F, "overflow"},
            {"-4611686018427387904 * 2", INT64_MIN, 0, NULL},
            {"-4611686018427387905 * 2", 0, F, "overflow"},
            {"-(-9223372036854775807 - 1)", 0, F, "overflow"},
            {"(-9223372036854775807 - 1) / -1", 0, F, "overflow"},
            {"(-9223372036854775807 - 1) % -1", 0, F, "overflow"},
            {"3037000500 * 3037000500", 0, F, "overflow"},
            {"3037000499 * 3037000499", 9223372030926249001LL, 0, NULL},
            {"-3037000500 * 3037000500", 0, F, "overflow"},
            {"18446744073709551615u * 2 == 18446744073709551614u", 1, 0, NULL}, /* wraps */
            /* division */
            {"1 / 0", 0, F, "division by zero"},
            {"1 % 0", 0, F, "modulo by zero"},
            {"5 / (3 - 3)", 0, F, "division by zero"},
            {"1u / 0", 0, F, "division by zero"},
            /* shifts */
            {"1 << 62", 4611686018427387904LL, 0, NULL},
            {"1 << 63", 0, F, "overflow"},
            {"1 << 64", 0, F, "shift count 64 out of range"},
            {"1 >> 64", 0, F, "out of range"},
            {"1 << -1", 0, F, "negative shift count -1"},
            {"1u << 64u", 0, F, "out of range"},
            {"-1 << 1", 0, F, "left shift of negative value"},
            {"0 << 63", 0, 0, NULL},
            /* comments */
            {"1 /* c */ + 2", 3, 0, NULL},
            {"1 // c", 1, 0, NULL},
            {"1 /* open", 0, F, "unterminated comment"},
            {" \t\n 4 \r\n", 4, 0, NULL},
        };

        (void)state;
        run_ecases(NULL, 0, cases, sizeof(cases) / sizeof(cases[0]));
}

static void test_eval_syntax(void **state)
{
        static const struct ecase cases[] = {
            {"", 0, F, "empty expression"},
            {"   ", 0, F, "empty expression"},
            {"(1", 0, F, "expected ')' but the expression ended"},
            {"1)", 0, F, "found ')'"},
            {"1 +", 0, F, "the expression ended"},
            {"* 2", 0, F, "found '*'"},
            {"1 2", 0, F, "found a number"},
            {"()", 0, F, "found ')'"},
            {"1 ? 2", 0, F, "':'"},
            {"1 : 2", 0, F, "found ':'"},
            {"a = 1", 0, F, "unknown identifier 'a'"},
            {"1 = 2", 0, F, "assignment"},
            {"1 += 2", 0, F, "assignment"},
            {"1 <<= 2", 0, F, "assignment"},
            {"1 ++ 2", 0, F, "'++'"},
            {"1 , 2", 0, F, "found ','"},
            {"(1, 2)", 0, F, "expected ')' but found ','"},
            {"\"s\"", 0, F, "string literal"},
            {"x", 0, F, "unknown identifier 'x'"},
            {"defined", 0, F, "macro name after 'defined'"},
            {"defined(", 0, F, "macro name after 'defined'"},
            {"defined(X", 0, F, "')' after 'defined(NAME'"},
            {"defined(1)", 0, F, "macro name"},
            {"defined X", 0, 0, NULL},
            {"defined(X)", 0, 0, NULL},
            {"1 $ 2", 0, F, "unexpected '$'"},
            {"1 \x01 2", 0, F, "unexpected byte 0x01"},
            {"sizeof(int)", 0, F, "unknown identifier 'sizeof'"},
            {"1 . 2", 0, F, "unexpected '.'"},
        };

        (void)state;
        run_ecases(NULL, 0, cases, sizeof(cases) / sizeof(cases[0]));
}

static void test_eval_macros(void **state)
{
        static const struct ecase cases[] = {
            {"A", 2, 0, NULL},
            {"B", 5, 0, NULL},
            {"A * B", 10, 0, NULL},
            {"PLUS_ONE", 3, 0, NULL}, /* a body that is not a whole expression */
            {"EMPTY 5", 5, 0, NULL},
            {"EMPTY", 0, F, "empty expression"},
            {"(EMPTY)", 0, F, "found ')'"},
            {"defined A + defined(B) + defined NOPE", 2, 0, NULL},
            {"defined(F) ? 1 : F(2)", 1, 0, NULL},
            {"0 ? F(2, (3)) : 3", 3, 0, NULL},
            {"0 && F(1) + 1", 0, 0, NULL},
            {"0 && (F)", 0, 0, NULL},
            {"F(2)", 0, F, "function-like macro F cannot be evaluated"},
            {"1 ? 2 : F(", 0, F, "')'"},
            {"LOOP_A", 0, F, "refers to itself"},
            {"1 || LOOP_A", 0, F, "refers to itself"}, /* expansion happens even when skipped */
            {"SELF + 1", 0, F, "macro SELF refers to itself (in macro SELF)"},
            {"HAS_A", 1, 0, NULL}, /* defined in a body, as gcc does */
            {"NESTED_ERR", 0, F, "division by zero (in macro INNER)"},
            {"NOT_FOUND_INSIDE", 0, F, "unknown identifier 'MISSING' (in macro NOT_FOUND_INSIDE)"},
        };
        cc_header *h = parse_str("#define A 2\n"
                                 "#define B (A + 3)\n"
                                 "#define PLUS_ONE A +1\n"
                                 "#define EMPTY\n"
                                 "#define F(x) ((x) + 1)\n"
                                 "#define LOOP_A LOOP_B\n"
                                 "#define LOOP_B (LOOP_A)\n"
                                 "#define SELF SELF\n"
                                 "#define HAS_A defined(A)\n"
                                 "#define INNER (1 / 0)\n"
                                 "#define NESTED_ERR (2 + INNER)\n"
                                 "#define NOT_FOUND_INSIDE (MISSING)\n");
        const cc_header *hs[1] = {h};
        cc_error err = {0};
        int64_t v;

        (void)state;
        run_ecases(hs, 1, cases, sizeof(cases) / sizeof(cases[0]));
        /* cc_header_eval's own checks */
        assert_int_equal(cc_header_eval(hs, 1, "NOPE", &v, &err), -1);
        assert_int_equal(err.code, CC_ERR_NOTFOUND);
        assert_string_equal(err.msg, "NOPE is not defined");
        assert_int_equal(cc_header_eval(hs, 1, "F", &v, &err), -1);
        assert_string_equal(err.msg, "F is a function-like macro");
        assert_int_equal(cc_header_eval(hs, 1, "1A", &v, &err), -1);
        assert_int_equal(err.code, CC_ERR_USAGE);
        assert_int_equal(cc_header_eval(hs, 1, "A B", &v, &err), -1);
        assert_int_equal(err.code, CC_ERR_USAGE);
        assert_int_equal(cc_header_eval(hs, 1, "", &v, &err), -1);
        assert_int_equal(cc_header_eval(hs, 1, NULL, &v, &err), -1);
        assert_int_equal(cc_header_eval_expr(hs, 1, NULL, &v, &err), -1);
        assert_int_equal(cc_header_eval_expr(hs, 1, "1", NULL, &err), -1);
        /* no headers at all */
        assert_int_equal(cc_header_eval(NULL, 3, "A", &v, &err), -1);
        assert_int_equal(err.code, CC_ERR_NOTFOUND);
        assert_int_equal(cc_header_eval_expr(NULL, 0, "6 * 7", &v, NULL), 0);
        assert_int_equal(v, 42);
        /* a NULL error is allowed */
        assert_int_equal(cc_header_eval_expr(NULL, 0, "1 / 0", &v, NULL), -1);
        cc_header_free(h);
}

static void test_eval_nesting_limits(void **state)
{
        char *s = malloc(4000);
        cc_error err = {0};
        int64_t v = 0;
        int i, n;

        (void)state;
        assert_non_null(s);
        /* 100 parentheses: fine */
        n = 0;
        for (i = 0; i < 100; i++)
                s[n++] = '(';
        s[n++] = '7';
        for (i = 0; i < 100; i++)
                s[n++] = ')';
        s[n] = '\0';
        assert_int_equal(cc_header_eval_expr(NULL, 0, s, &v, &err), 0);
        assert_int_equal(v, 7);
        /* 1000: refused, not a stack overflow */
        n = 0;
        for (i = 0; i < 1000; i++)
                s[n++] = '(';
        s[n++] = '7';
        for (i = 0; i < 1000; i++)
                s[n++] = ')';
        s[n] = '\0';
        assert_int_equal(cc_header_eval_expr(NULL, 0, s, &v, &err), -1);
        assert_int_equal(err.code, CC_ERR_LIMIT);
        assert_non_null(strstr(err.msg, "nested deeper"));
        /* a long chain of unary operators and of ?: */
        n = 0;
        for (i = 0; i < 1000; i++)
                s[n++] = i % 2 ? '~' : '-'; /* "--" would be C's decrement */
        s[n++] = '1';
        s[n] = '\0';
        assert_int_equal(cc_header_eval_expr(NULL, 0, s, &v, &err), -1);
        assert_int_equal(err.code, CC_ERR_LIMIT);
        n = 0;
        for (i = 0; i < 500; i++) {
                memcpy(s + n, "1?", 2);
                n += 2;
        }
        s[n++] = '1';
        for (i = 0; i < 500; i++) {
                memcpy(s + n, ":0", 2);
                n += 2;
        }
        s[n] = '\0';
        assert_int_equal(cc_header_eval_expr(NULL, 0, s, &v, &err), -1);
        assert_int_equal(err.code, CC_ERR_LIMIT);
        /* a long flat expression is fine: 1+1+...+1 */
        n = 0;
        for (i = 0; i < 1000; i++) {
                memcpy(s + n, "1+", 2);
                n += 2;
        }
        s[n++] = '1';
        s[n] = '\0';
        assert_int_equal(cc_header_eval_expr(NULL, 0, s, &v, &err), 0);
        assert_int_equal(v, 1001);
        free(s);
}

/* ---- the reader on hostile input ---------------------------------------------- */

static void test_reader_shapes(void **state)
{
        cc_header *h;
        const cc_header *hs[1];

        (void)state;
        h = parse_str("#define A 1 /* a */ /* b */ + /* c */ 2 // d\n"
                      "#define B\t\t3   \t\n"
                      "#define C \"a\\\"b\" 'x'\n"
                      "#define D(a, b) a\n"
                      "#define E (1)\n"
                      "#define G(\n"
                      "#define\n"
                      "#define 9X 1\n"
                      "#  \n"
                      "# 12 \"line.c\"\n"
                      "#define defined 1\n"
                      "#include MACRO_NAME\n"
                      "#include <unterminated\n"
                      "#include \"\"\n"
                      "#include_next <next.h>\n"
                      "#error don't stop here\n"
                      "#define H 8\n"
                      "x = '#'; # define NOT_AT_BOL 1\n"
                      "/* */ #define AFTER_COMMENT 9\n"
                      "int a = 1'000'000; #define NOT_MACRO 2\n"
                      "#define LAST 10");
        hs[0] = h;
        assert_string_equal(cc_header_find(hs, 1, "A")->body, "1 + 2");
        assert_string_equal(cc_header_find(hs, 1, "B")->body, "3");
        assert_string_equal(cc_header_find(hs, 1, "C")->body, "\"a\\\"b\" 'x'");
        assert_int_equal(cc_header_find(hs, 1, "D")->function_like, 1);
        assert_string_equal(cc_header_find(hs, 1, "D")->body, "a");
        assert_int_equal(cc_header_find(hs, 1, "E")->function_like, 0);
        assert_null(cc_header_find(hs, 1, "G"));
        assert_null(cc_header_find(hs, 1, "defined"));
        assert_null(cc_header_find(hs, 1, "NOT_AT_BOL"));
        assert_null(cc_header_find(hs, 1, "NOT_MACRO"));
        assert_int_equal(eval_ok(hs, 1, "H"), 8);
        assert_int_equal(eval_ok(hs, 1, "AFTER_COMMENT"), 9);
        assert_int_equal(eval_ok(hs, 1, "LAST"), 10);
        assert_int_equal(h->includes.n, 1);
        assert_string_equal(h->includes.v[0], "next.h");
        assert_int_equal(h->nmacros, 8);
        /* G( unterminated, #define alone, 9X, defined, MACRO_NAME, <unterminated, "" */
        assert_int_equal(h->warnings.n, 7);
        cc_header_free(h);

        /* empty input */
        h = NULL;
        {
                cc_error err = {0};

                assert_int_equal(cc_header_parse("", 0, &h, &err), 0);
                assert_int_equal(h->nmacros, 0);
                cc_header_free(h);
                assert_int_equal(cc_header_parse(NULL, 0, &h, &err), 0);
                cc_header_free(h);
                assert_int_equal(cc_header_parse(NULL, 5, &h, &err), -1);
                assert_int_equal(cc_header_parse("x", 1, NULL, &err), -1);
        }
        cc_header_free(NULL);
}

static void test_reader_hostile(void **state)
{
        size_t big = (size_t)2 << 20, i;
        char *s = malloc(big + 64);
        cc_header *h = NULL;
        const cc_header *hs[1];
        cc_error err = {0};
        clock_t t0;

        (void)state;
        assert_non_null(s);
        /* 2 MiB of splices */
        for (i = 0; i + 1 < big; i += 2) {
                s[i] = '\\';
                s[i + 1] = '\n';
        }
        assert_int_equal(cc_header_parse(s, big, &h, &err), 0);
        cc_header_free(h);
        /* a 2 MiB body (spliced): over the body limit, skipped with a warning */
        memcpy(s, "#define HUGE ", 13);
        for (i = 13; i < big; i++)
                s[i] = (i % 64 == 63) ? '\\' : (i % 64 == 0 ? '\n' : '1');
        assert_int_equal(cc_header_parse(s, big, &h, &err), 0);
        hs[0] = h;
        assert_null(cc_header_find(hs, 1, "HUGE"));
        assert_int_equal(h->warnings.n, 1);
        assert_non_null(strstr(h->warnings.v[0], "longer than"));
        cc_header_free(h);
        /* a 2000-character name */
        memcpy(s, "#define ", 8);
        memset(s + 8, 'N', 2000);
        memcpy(s + 2008, " 1\n#define OK 2\n", 17);
        assert_int_equal(cc_header_parse(s, strlen(s), &h, &err), 0);
        assert_int_equal(h->nmacros, 1);
        assert_string_equal(h->macros[0].name, "OK");
        cc_header_free(h);
        /* NUL bytes and high bytes in the middle */
        {
                static const char bin[] = "#define A\0 1\n\xff\xfe#define B 2\n#def\0ine C 3\n#define D '\0'\n";

                assert_int_equal(cc_header_parse(bin, sizeof(bin) - 1, &h, &err), 0);
                hs[0] = h;
                assert_string_equal(cc_header_find(hs, 1, "A")->body, "1");
                assert_null(cc_header_find(hs, 1, "B")); /* not at the start of a line */
                assert_null(cc_header_find(hs, 1, "C"));
                assert_non_null(cc_header_find(hs, 1, "D"));
                cc_header_free(h);
        }
        /* many macros and many redefinitions: warnings are capped; fast */
        {
                size_t n = 0;

                for (i = 0; i < 30000 && n + 64 < big; i++)
                        n += (size_t)sprintf(s + n, "#define M%zu %zu\n#define M%zu %zu\n", i, i, i, i + 1);
                t0 = clock();
                assert_int_equal(cc_header_parse(s, n, &h, &err), 0);
                assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 5.0);
                assert_int_equal(h->nmacros, 30000);
                assert_int_equal(h->warnings.n, 101);
                assert_string_equal(h->warnings.v[100], "more warnings not shown");
                hs[0] = h;
                assert_int_equal(eval_ok(hs, 1, "M29999"), 29999);
                assert_int_equal(eval_ok(hs, 1, "M0"), 0);
                cc_header_free(h);
        }
        /* unterminated literal and comment at the very end */
        assert_int_equal(cc_header_parse("#define A \"abc", 14, &h, &err), 0);
        assert_string_equal(h->macros[0].body, "\"abc");
        cc_header_free(h);
        assert_int_equal(cc_header_parse("#define A 1 /*", 14, &h, &err), 0);
        assert_string_equal(h->macros[0].body, "1");
        cc_header_free(h);
        assert_int_equal(cc_header_parse("#define A 1 \\", 13, &h, &err), 0);
        assert_string_equal(h->macros[0].body, "1 \\");
        cc_header_free(h);
        free(s);

        /* over the input limit */
        s = malloc(((size_t)64 << 20) + 1);
        assert_non_null(s);
        memset(s, ' ', ((size_t)64 << 20) + 1);
        assert_int_equal(cc_header_parse(s, ((size_t)64 << 20) + 1, &h, &err), -1);
        assert_int_equal(err.code, CC_ERR_LIMIT);
        assert_null(h);
        free(s);
}

static void test_redefinition_count(void **state)
{
        static const char text[] = "#define A 1\n#if X\n#define A 2\n#else\n#define A 1\n#define A 3\n#endif\n"
                                   "#define B 5\n";
        cc_header *h = NULL;
        cc_error err = {0};
        const cc_macro *m;

        (void)state;
        assert_int_equal(cc_header_parse(text, sizeof(text) - 1, &h, &err), 0);
        m = cc_header_find((const cc_header *const *)&h, 1, "A");
        assert_non_null(m);
        assert_string_equal(m->body, "1");
        assert_int_equal(m->redefinitions, 2); /* "2" and "3"; the identical "1" does not count */
        m = cc_header_find((const cc_header *const *)&h, 1, "B");
        assert_int_equal(m->redefinitions, 0);
        cc_header_free(h);
}

static void test_hand_built_header(void **state)
{
        /* a header built by hand (no index) is searched linearly */
        char x[] = "X", xb[] = "40", y[] = "Y", yb[] = "(X + 2)";
        cc_macro ms[2] = {{x, xb, 1, 0, 0}, {y, yb, 2, 0, 0}};
        cc_header h;
        const cc_header *hs[1] = {&h};

        (void)state;
        memset(&h, 0, sizeof(h));
        h.macros = ms;
        h.nmacros = 2;
        assert_int_equal(eval_ok(hs, 1, "Y"), 42);
        assert_ptr_equal(cc_header_find(hs, 1, "X"), &ms[0]);
}

/* ---- the real headers, when installed ----------------------------------------- */

#define REAL_DIR "/usr/local/cuda/include"

static void test_real_headers(void **state)
{
        cc_header *ver, *graph = NULL, *cuda = NULL, *rt = NULL;
        int64_t major, minor, patch, version, v;
        cc_error err = {0};
        clock_t t0;

        (void)state;
        if (!tu_exists(REAL_DIR "/cudnn_version.h")) {
                skip();
                return;
        }
        ver = parse_file(REAL_DIR "/cudnn_version.h");
        {
                const cc_header *hs[1] = {ver};

                major = eval_ok(hs, 1, "CUDNN_MAJOR");
                minor = eval_ok(hs, 1, "CUDNN_MINOR");
                patch = eval_ok(hs, 1, "CUDNN_PATCHLEVEL");
                version = eval_ok(hs, 1, "CUDNN_VERSION");
                assert_int_equal(version, cudnnctl_cudnn_encode((int)major, (int)minor, (int)patch));
                print_message("real cuDNN %lld.%lld.%lld (CUDNN_VERSION %lld)\n", (long long)major, (long long)minor,
                              (long long)patch, (long long)version);
                if (cc_header_find(hs, 1, "CUDNN_MAX_DEVICE_VERSION") != NULL) {
                        v = eval_ok(hs, 1, "CUDNN_MAX_DEVICE_VERSION");
                        assert_int_equal(v, eval_ok(hs, 1, "CUDNN_MAX_SM_MAJOR_NUMBER") * 100 +
                                                eval_ok(hs, 1, "CUDNN_MAX_SM_MINOR_NUMBER") * 10);
                }
        }
        if (tu_exists(REAL_DIR "/cudnn_graph.h")) {
                const cc_header *hs[2];

                graph = parse_file(REAL_DIR "/cudnn_graph.h");
                hs[0] = graph;
                hs[1] = ver;
                assert_int_equal(eval_ok(hs, 2, "CUDNN_GRAPH_MAJOR"), major);
                assert_int_equal(eval_ok(hs, 2, "CUDNN_GRAPH_MINOR"), minor);
                assert_int_equal(eval_ok(hs, 2, "CUDNN_GRAPH_PATCH"), patch);
                assert_int_equal(cc_header_eval_expr(hs, 2,
                                                     "(CUDNN_GRAPH_MAJOR != CUDNN_MAJOR) || (CUDNN_GRAPH_MINOR != "
                                                     "CUDNN_MINOR) || (CUDNN_GRAPH_PATCH != CUDNN_PATCHLEVEL)",
                                                     &v, &err),
                                 0);
                assert_int_equal(v, 0);
        }
        if (tu_exists(REAL_DIR "/cuda.h") && tu_exists(REAL_DIR "/cuda_runtime_api.h")) {
                const cc_header *a[1], *b[1];
                cudnnctl_ver cv;

                t0 = clock();
                cuda = parse_file(REAL_DIR "/cuda.h");
                rt = parse_file(REAL_DIR "/cuda_runtime_api.h");
                assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 5.0);
                a[0] = cuda;
                b[0] = rt;
                v = eval_ok(a, 1, "CUDA_VERSION");
                assert_int_equal(v, eval_ok(b, 1, "CUDART_VERSION"));
                assert_int_equal(cudnnctl_cuda_decode((long)v, &cv), 0);
                print_message("real CUDA_VERSION %lld\n", (long long)v);
        }
        cc_header_free(ver);
        cc_header_free(graph);
        cc_header_free(cuda);
        cc_header_free(rt);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_looks_like),
            cmocka_unit_test(test_fixture_versions),
            cmocka_unit_test(test_fixture_decode),
            cmocka_unit_test(test_fixture_multi),
            cmocka_unit_test(test_fixture_includes),
            cmocka_unit_test(test_fixture_macro_shapes),
            cmocka_unit_test(test_tricky),
            cmocka_unit_test(test_crlf_and_unterminated),
            cmocka_unit_test(test_comment_runs),
            cmocka_unit_test(test_comment_ends),
            cmocka_unit_test(test_code_runs),
            cmocka_unit_test(test_eval_arith),
            cmocka_unit_test(test_eval_syntax),
            cmocka_unit_test(test_eval_macros),
            cmocka_unit_test(test_eval_nesting_limits),
            cmocka_unit_test(test_reader_shapes),
            cmocka_unit_test(test_reader_hostile),
            cmocka_unit_test(test_redefinition_count),
            cmocka_unit_test(test_hand_built_header),
            cmocka_unit_test(test_real_headers),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
