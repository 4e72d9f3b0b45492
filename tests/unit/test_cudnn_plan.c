/* The cuDNN plan's decision (src/lib/plan), pure: a machine's facts in
 * memory and the compiled-in tables in, the plan document out. */
#include "testutil.h"

#include "plan/plan.h"

#include <stdio.h>
#include <string.h>

static cc_value *decide(const cc_plan_input *in)
{
        cc_value *doc = NULL;
        cc_error err = {0};

        if (cc_plan_decide(in, &doc, &err) < 0)
                fail_msg("cc_plan_decide: %s", err.msg);
        return doc;
}

static const char *pl(const cc_value *doc, const char *key)
{
        const char *s = cc_v_get_str(cc_v_get(doc, "plan"), key);

        return s ? s : "";
}

/* Whether some reason of that kind says `what`. */
static int says(const cc_value *doc, const char *about, const char *what)
{
        const cc_value *w = cc_v_get(doc, "why");
        size_t i;

        for (i = 0; i < cc_v_len(w); i++) {
                const char *a = cc_v_get_str(cc_v_at(w, i), "about"), *t = cc_v_get_str(cc_v_at(w, i), "text");

                if (a && t && strcmp(a, about) == 0 && strstr(t, what) != NULL)
                        return 1;
        }
        return 0;
}

static void machine(cc_plan_input *in, const char *driver, int sm, const char *toolkit)
{
        memset(in, 0, sizeof(*in));
        in->system = CUDNNCTL_SYSTEM_LINUX;
        snprintf(in->driver, sizeof(in->driver), "%s", driver);
        if (sm > 0) {
                snprintf(in->gpus[0].name, sizeof(in->gpus[0].name), "GPU");
                in->gpus[0].sm = sm;
                in->ngpus = 1;
        }
        if (toolkit != NULL) {
                snprintf(in->toolkits[0], sizeof(in->toolkits[0]), "%s", toolkit);
                snprintf(in->toolkit_dirs[0], sizeof(in->toolkit_dirs[0]), "/usr/local/cuda-%s", toolkit);
                in->ntoolkits = 1;
        }
}

static void test_no_driver(void **state)
{
        cc_plan_input in;
        cc_value *doc;

        (void)state;
        machine(&in, "", 90, "13.0");
        doc = decide(&in);
        assert_string_equal(cc_v_get_str(doc, "verdict"), "driver-first");
        assert_string_equal(pl(doc, "cuda_build"), "13");
        assert_string_equal(pl(doc, "where"), "toolkit");
        assert_non_null(cc_v_get_str(doc, "driver_needed"));
        assert_true(says(doc, "driver", "driver comes first"));
        assert_int_equal(cudnnctl_value_type(cc_v_get(doc, "newer_than_tables")), CUDNNCTL_NULL);
        cc_v_free(doc);
}

static void test_old_driver(void **state)
{
        cc_plan_input in;
        cc_value *doc;

        (void)state;
        machine(&in, "525.60.13", 80, "13.0");
        doc = decide(&in);
        assert_string_equal(cc_v_get_str(doc, "verdict"), "install");
        assert_string_equal(pl(doc, "cuda_build"), "12");
        assert_string_equal(pl(doc, "where"), "side-by-side"); /* the toolkit is CUDA 13 */
        assert_true(says(doc, "driver", "525.60.13"));
        cc_v_free(doc);
}

static void test_maxwell(void **state)
{
        cc_plan_input in;
        cc_value *doc;

        (void)state;
        machine(&in, "580.65.06", 50, NULL);
        doc = decide(&in);
        assert_string_equal(cc_v_get_str(doc, "verdict"), "install");
        assert_true(strncmp(pl(doc, "cudnn"), "9.10.2", 6) == 0);
        assert_true(says(doc, "gpu", "5.0"));
        cc_v_free(doc);
}

static void test_binary_compat(void **state)
{
        cc_plan_input in;
        cc_value *doc;

        (void)state;
        machine(&in, "580.65.06", 87, "13.0"); /* not listed: by 8.6's SASS, a lower confidence */
        in.want_cudnn = "9.19.0";
        doc = decide(&in);
        assert_string_equal(cc_v_get_str(doc, "verdict"), "install");
        assert_string_equal(pl(doc, "support"), "binary-compatibility");
        assert_true(says(doc, "gpu", "binary compatibility"));
        cc_v_free(doc);
}

static void test_pinned_wheel(void **state)
{
        cc_plan_input in;
        cc_value *doc;
        cc_plan_framework *f;

        (void)state;
        machine(&in, "580.65.06", 80, "13.0");
        f = &in.fw[in.nfw++];
        snprintf(f->name, sizeof(f->name), "torch");
        snprintf(f->version, sizeof(f->version), "2.4.1+cu121");
        snprintf(f->interpreter, sizeof(f->interpreter), "/venv/bin/python3");
        snprintf(f->wheel, sizeof(f->wheel), "nvidia-cudnn-cu12");
        snprintf(f->wheel_version, sizeof(f->wheel_version), "9.1.0.70");
        f->gpu_build = 1;
        doc = decide(&in);
        assert_string_equal(cc_v_get_str(doc, "verdict"), "install");
        assert_string_equal(pl(doc, "where"), "wheel");
        assert_string_equal(pl(doc, "command"), "/venv/bin/python3 -m pip install nvidia-cudnn-cu12==9.1.0.70");
        assert_true(says(doc, "framework", "pins"));
        cc_v_free(doc);
}

static void test_nothing_fits(void **state)
{
        cc_plan_input in;
        cc_value *doc;
        cc_error err = {0};

        (void)state;
        machine(&in, "580.65.06", 150, NULL);
        doc = decide(&in);
        assert_string_equal(cc_v_get_str(doc, "verdict"), "none");
        assert_int_equal(cudnnctl_value_type(cc_v_get(doc, "plan")), CUDNNCTL_NULL);
        assert_true(says(doc, "change", "no cuDNN release in the tables fits"));
        cc_v_free(doc);
        machine(&in, "580.65.06", 90, NULL);
        in.want_cuda = "x";
        doc = NULL;
        assert_int_equal(cc_plan_decide(&in, &doc, &err), -1);
        assert_int_equal(err.code, CC_ERR_USAGE);
        assert_null(doc);
}

/* What fetch asks of each release an index offers. */
static void test_fits(void **state)
{
        cc_plan_input in;
        char why[640];

        (void)state;
        machine(&in, "525.60.13", 90, NULL); /* CUDA 12.0's driver: no CUDA 13 build */
        assert_int_equal(cc_plan_fits(&in, "9.19.0.56", 12, why, sizeof(why)), 1);
        assert_int_equal(cc_plan_fits(&in, "9.19.0.56", 13, why, sizeof(why)), 0);
        assert_non_null(strstr(why, "13"));
        assert_int_equal(cc_plan_cuda_major(&in), 12);
        machine(&in, "580.65.06", 50, NULL); /* Maxwell: dropped after 9.10 */
        assert_int_equal(cc_plan_fits(&in, "9.10.2.21", 12, why, sizeof(why)), 1);
        assert_int_equal(cc_plan_fits(&in, "9.19.0.56", 12, why, sizeof(why)), 0);
        assert_non_null(strstr(why, "sm_50"));
        /* a release the tables do not know: its GPU support is unknown, so it does not fit a known GPU */
        assert_int_equal(cc_plan_fits(&in, "9.99.0", 13, why, sizeof(why)), 0);
        machine(&in, "", 0, "13.0"); /* no driver, no GPU known: the toolkit's major */
        assert_int_equal(cc_plan_fits(&in, "9.99.0", 13, why, sizeof(why)), 1);
        assert_int_equal(cc_plan_cuda_major(&in), 13);
        assert_int_equal(cc_plan_fits(&in, "not a version", 13, why, sizeof(why)), 0);
}

/* What an index lists beyond the tables is named, never planned. */
static void test_newer_than_tables(void **state)
{
        static const char *const listed[] = {"10.0.0", "9.99.1", "9.19.0", "8.9.7"};
        cc_plan_input in;
        const cc_value *nt;
        cc_value *doc;

        (void)state;
        machine(&in, "580.65.06", 90, "13.0");
        in.index = "http://127.0.0.1/redist/";
        in.index_versions = listed;
        in.nindex_versions = 4;
        doc = decide(&in);
        nt = cc_v_get(doc, "newer_than_tables");
        assert_int_equal(cudnnctl_value_type(nt), CUDNNCTL_OBJECT);
        assert_int_equal(cc_v_len(cc_v_get(nt, "releases")), 2);
        assert_string_equal(cc_v_as_str(cc_v_at(cc_v_get(nt, "releases"), 0)), "10.0.0");
        assert_true(says(doc, "tables", "2 releases newer than the tables (10.0.0, ...)"));
        assert_true(strncmp(pl(doc, "cudnn"), "9.", 2) == 0); /* planned from the tables */
        cc_v_free(doc);
        in.index_versions = NULL;
        in.nindex_versions = 0;
        in.index_error = "http://127.0.0.1/redist/: HTTP 404 Not Found";
        doc = decide(&in);
        nt = cc_v_get(doc, "newer_than_tables");
        assert_string_equal(cc_v_get_str(nt, "error"), in.index_error);
        assert_int_equal(cc_v_len(cc_v_get(nt, "releases")), 0);
        assert_true(says(doc, "tables", "could not be read"));
        cc_v_free(doc);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_no_driver),    cmocka_unit_test(test_old_driver),
            cmocka_unit_test(test_maxwell),      cmocka_unit_test(test_binary_compat),
            cmocka_unit_test(test_pinned_wheel), cmocka_unit_test(test_nothing_fits),
            cmocka_unit_test(test_fits),         cmocka_unit_test(test_newer_than_tables),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
