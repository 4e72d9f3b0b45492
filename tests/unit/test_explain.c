/* Tests of explain: the message-pattern matcher, the recognisers of
 * kb/messages.tsv against their own examples, the consistency of the
 * catalog tables, and the status tables of src/lib/probe/status.c against
 * kb/status.tsv and kb/cuda_errors.tsv. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/explain.h"
#include "kb/kb.h"
#include "probe/probe.h"

/* Match pattern against text; the capture values joined as "k=v,k=v" in
 * caps (or "" when there are none). Returns 1 on a match. */
static int match(const char *pattern, const char *text, char *caps, size_t size, size_t *start, size_t *end)
{
        cc_pattern *p = NULL;
        cc_error err = {0};
        cc_pmatch m;
        char *folded;
        int found;
        size_t i;

        if (cc_pattern_compile(pattern, &p, &err) < 0)
                fail_msg("compile '%s': %s", pattern, err.msg);
        folded = cc_pattern_fold(text, strlen(text), &err);
        assert_non_null(folded);
        found = cc_pattern_find(p, folded, strlen(text), 0, &m);
        caps[0] = '\0';
        for (i = 0; found && i < m.ncap; i++) {
                char *v = cc_pattern_capture(&m, i, text, &err);

                assert_non_null(v);
                snprintf(caps + strlen(caps), size - strlen(caps), "%s%s=%s", i ? "," : "", m.cap[i].key, v);
                free(v);
        }
        if (found && start)
                *start = m.start;
        if (found && end)
                *end = m.end;
        free(folded);
        cc_pattern_free(p);
        return found;
}

static void test_pattern_compile_errors(void **state)
{
        static const char *const bad[] = {
            "ab",                   /* literal too short */
            "{x:int} a",            /* the literal after the capture is too short */
            "Could {x:foo} load",   /* unknown type */
            "Could {xint} load",    /* no type */
            "Could {x:int",         /* not closed */
            "Could not\\",          /* a lone backslash */
            "Could {a:int}{b:int}", /* capture after capture */
            "Could not load *",     /* a gap at the end */
            "Could ** load",        /* a gap after a gap */
            " leading space",       /* the anchor is empty */
            "",
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(bad); i++) {
                cc_pattern *p = NULL;
                cc_error err = {0};

                if (cc_pattern_compile(bad[i], &p, &err) == 0)
                        fail_msg("pattern '%s' compiled", bad[i]);
                assert_null(p);
                assert_true(strlen(err.msg) > 0);
        }
}

static void test_pattern_match(void **state)
{
        static const struct {
                const char *pattern, *text;
                int found;
                const char *caps;
        } cases[] = {
            /* case and blanks */
            {"Could not load", "x COULD   NOT\tload y", 1, ""},
            {"Could not load", "Could notload", 0, ""},
            {"Could not load", "Could not\nload", 1, ""},
            /* captures */
            {"library {library:lib}. Error code {code:int}", "library cudnn_cnn_infer64_8.dll. Error code 126", 1,
             "library=cudnn_cnn_infer64_8.dll,code=126"},
            {"library {library:lib}.", "library notalib. ", 0, ""},
            {"Loaded runtime CuDNN library: {r:ver}*compiled with*{b:ver}",
             "Loaded runtime CuDNN library: 8.1.0 but source was compiled with: 8.6.0.", 1, "r=8.1.0,b=8.6.0"},
            {"library: {r:ver}*with*{b:ver}", "library: 5005 ... with 5105", 1, "r=5.0.5,b=5.1.5"},
            {"against {b:tuple} but found {r:tuple}", "against (8, 5, 0) but found (8,3,3)", 1, "b=8.5.0,r=8.3.3"},
            {"against {b:tuple} but", "against (8) but", 0, ""},
            {"CUDNN_STATUS_{name:word}", "error: CUDNN_STATUS_EXECUTION_FAILED_CUDART (code 5003)", 1,
             "name=EXECUTION_FAILED_CUDART"},
            /* a capture before the first literal */
            {"{library:lib}: cannot open", "dlerror: /x/libcudnn.so.8: cannot open shared", 1, "library=libcudnn.so.8"},
            {"{library:lib}: cannot open", "dlerror: foo: cannot open", 0, ""},
            {"{code:int}: CUDNN_STATUS_{name:word}", "CuDNNError: 1: CUDNN_STATUS_NOT_INITIALIZED", 1,
             "code=1,name=NOT_INITIALIZED"},
            /* a gap stays on its line */
            {"Loaded*compiled", "Loaded x\ncompiled", 0, ""},
            {"Loaded*compiled", "Loaded x compiled", 1, ""},
            /* escapes */
            {"any of \\{{library:lib},", "Unable to load any of {libcudnn_cnn.so.9.1.0, libcudnn_cnn.so.9}", 1,
             "library=libcudnn_cnn.so.9.1.0"},
            {"Require cuDNN {v:ver}.\\*", "Require cuDNN 9.* and", 1, "v=9"},
            {"Require cuDNN {v:ver}.\\*", "Require cuDNN 9.x and", 0, ""},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                char caps[512];
                int found = match(cases[i].pattern, cases[i].text, caps, sizeof(caps), NULL, NULL);

                if (found != cases[i].found)
                        fail_msg("'%s' on '%s': found %d, want %d", cases[i].pattern, cases[i].text, found,
                                 cases[i].found);
                if (found && strcmp(caps, cases[i].caps) != 0)
                        fail_msg("'%s' on '%s': captures '%s', want '%s'", cases[i].pattern, cases[i].text, caps,
                                 cases[i].caps);
        }
}

static void test_pattern_span(void **state)
{
        char caps[256];
        size_t start = 0, end = 0;

        (void)state;
        assert_true(
            match("{library:lib}: cannot open", "ab libcuda.so: cannot open x", caps, sizeof(caps), &start, &end));
        assert_int_equal(start, 3);
        assert_int_equal(end, 26);
}

/* Every recogniser matches its own example, and explain reports it. */
static void test_recognisers_match_examples(void **state)
{
        cc_error err = {0};
        const cc_kb_table *t = cc_kb_get("messages", &err);
        size_t r;

        (void)state;
        if (t == NULL)
                fail_msg("%s", err.msg);
        assert_true(t->nrows >= 60);
        for (r = 0; r < t->nrows; r++) {
                const char *id = cc_kb_cell(t, r, "id"), *ex = cc_kb_cell(t, r, "example");
                const char *catalog = cc_kb_cell(t, r, "catalog");
                char caps[512];
                cudnnctl_value *doc = NULL;
                const cudnnctl_value *ms;
                size_t i;
                int seen = 0;

                assert_non_null(id);
                if (ex == NULL)
                        fail_msg("recogniser %s has no example", id);
                if (!match(cc_kb_cell(t, r, "pattern"), ex, caps, sizeof(caps), NULL, NULL))
                        fail_msg("recogniser %s does not match its example '%s'", id, ex);
                if (cudnnctl_explain(ex, NULL, &doc, &err) < 0)
                        fail_msg("explain '%s': %s", ex, err.msg);
                ms = cudnnctl_value_get(doc, "matches");
                for (i = 0; i < cudnnctl_value_len(ms); i++) {
                        const cudnnctl_value *m = cudnnctl_value_at(ms, i);
                        const char *mid = cudnnctl_value_str(cudnnctl_value_get(m, "id"));
                        const char *rec = cudnnctl_value_str(cudnnctl_value_get(m, "recogniser"));

                        /* reported itself, or covered by a match with its first catalog id */
                        if ((rec && strcmp(rec, id) == 0) ||
                            (catalog && mid && strncmp(catalog, mid, strlen(mid)) == 0))
                                seen = 1;
                }
                if (!seen && catalog != NULL)
                        fail_msg("recogniser %s: explain of its example '%s' does not report it", id, ex);
                cudnnctl_value_free(doc);
        }
}

static int in_table(const cc_kb_table *t, const char *col, const char *v)
{
        size_t r;

        for (r = 0; r < t->nrows; r++)
                if (cc_kb_cell(t, r, col) && strcmp(cc_kb_cell(t, r, col), v) == 0)
                        return 1;
        return 0;
}

/* Every catalog id named anywhere exists; every source key is listed; the
 * catalog has the 36 failure modes once each. */
static void test_catalog_consistent(void **state)
{
        static const char *const tables[] = {"messages", "status", "cuda_errors", "winerrors"};
        static const char *const src_tables[] = {"catalog", "messages", "status", "cuda_errors", "winerrors"};
        cc_error err = {0};
        const cc_kb_table *cat = cc_kb_get("catalog", &err), *src = cc_kb_get("sources", &err);
        int numbers[37] = {0};
        size_t i, r;

        (void)state;
        assert_non_null(cat);
        assert_non_null(src);
        for (r = 0; r < cat->nrows; r++) {
                const char *num = cc_kb_cell(cat, r, "catalog_number");
                cc_value *e;
                size_t k;

                if (num != NULL) {
                        int n = atoi(num);

                        assert_true(n >= 1 && n <= 36);
                        numbers[n]++;
                }
                e = cc_catalog_entry(cc_kb_cell(cat, r, "id"), NULL, &err);
                if (e == NULL)
                        fail_msg("catalog entry %s: %s", cc_kb_cell(cat, r, "id"), err.msg);
                assert_true(cc_v_len(cc_v_get(e, "causes")) >= 1);
                assert_true(cc_v_len(cc_v_get(e, "commands")) >= 1);
                for (k = 0; k < cc_v_len(cc_v_get(e, "commands")); k++) {
                        const cc_value *c = cc_v_at(cc_v_get(e, "commands"), k);

                        if (!cc_starts_with(cc_v_get_str(c, "command"), "cudnnctl ") ||
                            cc_v_get_str(c, "shows") == NULL)
                                fail_msg("catalog %s: command '%s'", cc_kb_cell(cat, r, "id"),
                                         cc_v_get_str(c, "command"));
                }
                assert_non_null(cc_v_get_str(e, "fix"));
                cc_v_free(e);
        }
        for (i = 1; i <= 36; i++)
                if (numbers[i] != 1)
                        fail_msg("catalog number %zu appears %d times", i, numbers[i]);
        for (i = 0; i < CC_ARRAY_LEN(tables); i++) {
                const cc_kb_table *t = cc_kb_get(tables[i], &err);

                assert_non_null(t);
                for (r = 0; r < t->nrows; r++) {
                        const char *cell = cc_kb_cell(t, r, "catalog"), *p = cell;

                        while (p != NULL && *p) {
                                const char *e = strchr(p, ';');
                                char id[96];
                                size_t n = e ? (size_t)(e - p) : strlen(p);

                                assert_true(n < sizeof(id));
                                memcpy(id, p, n);
                                id[n] = '\0';
                                if (!in_table(cat, "id", id))
                                        fail_msg("%s line %zu: catalog id '%s' is not in catalog.tsv", tables[i],
                                                 t->line[r], id);
                                p = e ? e + 1 : NULL;
                        }
                }
        }
        for (i = 0; i < CC_ARRAY_LEN(src_tables); i++) {
                const cc_kb_table *t = cc_kb_get(src_tables[i], &err);

                assert_non_null(t);
                for (r = 0; r < t->nrows; r++) {
                        const char *p = cc_kb_cell(t, r, "source");

                        if (p == NULL)
                                fail_msg("%s line %zu: no source", src_tables[i], t->line[r]);
                        while (p != NULL && *p) {
                                char key[32];
                                size_t n = 0;

                                while (*p == ' ')
                                        p++;
                                while (p[n] && p[n] != ' ' && p[n] != ';' && n + 1 < sizeof(key))
                                        key[n] = p[n], n++;
                                key[n] = '\0';
                                if (!in_table(src, "key", key))
                                        fail_msg("%s line %zu: source key '%s' is not in sources.tsv", src_tables[i],
                                                 t->line[r], key);
                                p = strchr(p, ';');
                                if (p != NULL)
                                        p++;
                        }
                }
        }
}

static void test_catalog_entry_fills_commands(void **state)
{
        cc_error err = {0};
        cc_value *caps = cc_v_object(&err), *e;

        (void)state;
        assert_int_equal(cc_v_set_str(caps, "library", "cudnn_ops64_9.dll", &err), 0);
        e = cc_catalog_entry("win-sublib-126", caps, &err);
        assert_non_null(e);
        assert_string_equal(cc_v_get_str(cc_v_at(cc_v_get(e, "commands"), 1), "command"),
                            "cudnnctl which cudnn_ops64_9.dll");
        cc_v_free(e);
        e = cc_catalog_entry("win-sublib-126", NULL, &err);
        assert_string_equal(cc_v_get_str(cc_v_at(cc_v_get(e, "commands"), 1), "command"), "cudnnctl which LIBRARY");
        cc_v_free(e);
        assert_null(cc_catalog_entry("no-such-failure", NULL, &err));
        assert_int_equal(err.code, CC_ERR_NOTFOUND);
        cc_v_free(caps);
}

/* status.c's names and kb/status.tsv agree in both numberings, both ways. */
static void test_status_tables_agree(void **state)
{
        cc_error err = {0};
        const cc_kb_table *t = cc_kb_get("status", &err);
        int majors[2] = {8, 9}, k;
        size_t r, nv8 = 0, nv9 = 0;

        (void)state;
        assert_non_null(t);
        for (k = 0; k < 2; k++) {
                long code, limit = majors[k] == 8 ? 100 : 6000;

                for (code = 0; code <= limit; code++) {
                        const char *c_name = cc_cudnn_status_name(majors[k], code), *kb_name = NULL;

                        for (r = 0; r < t->nrows; r++) {
                                const char *v = cc_kb_cell(t, r, majors[k] == 8 ? "v8" : "v9");

                                if (v != NULL && atol(v) == code &&
                                    (majors[k] == 8 || cc_kb_cell(t, r, "alias_of") == NULL)) {
                                        if (kb_name != NULL)
                                                fail_msg("status.tsv: two names for %ld in cuDNN %d", code, majors[k]);
                                        kb_name = cc_kb_cell(t, r, "name");
                                }
                        }
                        if ((c_name == NULL) != (kb_name == NULL) || (c_name && strcmp(c_name, kb_name) != 0))
                                fail_msg("cuDNN %d status %ld: status.c says %s, status.tsv %s", majors[k], code,
                                         c_name ? c_name : "(none)", kb_name ? kb_name : "(none)");
                        nv8 += majors[k] == 8 && c_name != NULL;
                        nv9 += majors[k] == 9 && c_name != NULL;
                }
        }
        assert_int_equal(nv8, 15);
        assert_true(nv9 >= 48);
        /* every alias names a row with the same cuDNN 9 code */
        for (r = 0; r < t->nrows; r++) {
                const char *a = cc_kb_cell(t, r, "alias_of");
                size_t j;
                int ok = a == NULL;

                for (j = 0; !ok && j < t->nrows; j++)
                        ok = strcmp(cc_kb_cell(t, j, "name"), a) == 0 && cc_kb_cell(t, j, "v9") &&
                             strcmp(cc_kb_cell(t, j, "v9"), cc_kb_cell(t, r, "v9")) == 0;
                if (!ok)
                        fail_msg("status.tsv line %zu: alias_of %s", t->line[r], a);
        }
}

static void test_cuda_tables_agree(void **state)
{
        cc_error err = {0};
        const cc_kb_table *t = cc_kb_get("cuda_errors", &err);
        long code;
        int api;

        (void)state;
        assert_non_null(t);
        for (api = 0; api < 2; api++)
                for (code = 0; code <= 1000; code++) {
                        const char *c_name = api ? cc_cu_result_name(code) : cc_cuda_error_name(code), *kb_name = NULL;
                        size_t r;

                        for (r = 0; r < t->nrows; r++)
                                if (strcmp(cc_kb_cell(t, r, "api"), api ? "driver" : "runtime") == 0 &&
                                    atol(cc_kb_cell(t, r, "code")) == code)
                                        kb_name = cc_kb_cell(t, r, "name");
                        if ((c_name == NULL) != (kb_name == NULL) || (c_name && strcmp(c_name, kb_name) != 0))
                                fail_msg("%s %ld: status.c says %s, cuda_errors.tsv %s",
                                         api ? "CUresult" : "cudaError_t", code, c_name ? c_name : "(none)",
                                         kb_name ? kb_name : "(none)");
                }
}

static void test_explain_api(void **state)
{
        cudnnctl_explain_options o = {0, 0, 0};
        cudnnctl_value *doc = NULL;
        cc_error err = {0};
        static const char nul_text[] = "x\0Could not locate zlibwapi.dll";

        (void)state;
        o.major = 7;
        assert_int_equal(cudnnctl_explain("1", &o, &doc, &err), -1);
        assert_int_equal(err.code, CC_ERR_USAGE);
        assert_int_equal(cudnnctl_explain(NULL, NULL, &doc, &err), -1);
        o.major = 0;
        /* text after a NUL byte is read when input_len says so */
        o.input_len = sizeof(nul_text) - 1;
        assert_int_equal(cudnnctl_explain(nul_text, &o, &doc, &err), 0);
        assert_string_equal(cc_v_get_str(cc_v_path(doc, "matches/0"), "id"), "win-zlibwapi-missing");
        cudnnctl_value_free(doc);
        assert_int_equal(cudnnctl_explain("", NULL, &doc, &err), 0);
        assert_int_equal(cc_v_len(cc_v_get(doc, "matches")), 0);
        cudnnctl_value_free(doc);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_pattern_compile_errors),
            cmocka_unit_test(test_pattern_match),
            cmocka_unit_test(test_pattern_span),
            cmocka_unit_test(test_recognisers_match_examples),
            cmocka_unit_test(test_catalog_consistent),
            cmocka_unit_test(test_catalog_entry_fills_commands),
            cmocka_unit_test(test_status_tables_agree),
            cmocka_unit_test(test_cuda_tables_agree),
            cmocka_unit_test(test_explain_api),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
