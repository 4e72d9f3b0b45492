/* Tests of the GPU work of `cudnnctl verify` (src/lib/probe/gpuwork.c)
 * without a GPU: the CPU references against hand-computed cases, the
 * reference's own exp/tanh/sqrt against libm, and cc_gpuwork_run end to end
 * against a fake CUDA runtime and a fake cuDNN built at test time
 * (tests/fixtures/fakegpu, gen-fakegpu.sh), with knobs that make the fake
 * skip, perturb or fail one call, and a symbol lookup that can pretend an
 * entry point is not exported. Every run must leave no device allocation and
 * no descriptor behind. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/gpuwork.h"

/* ---- references ---------------------------------------------------------- */

static void near(double got, double want, double tol, const char *what)
{
        if (!(fabs(got - want) <= tol))
                fail_msg("%s: got %.17g, want %.17g", what, got, want);
}

static void test_math(void **state)
{
        double x;

        (void)state;
        for (x = -40.0; x <= 40.0; x += 0.0371) {
                near(cc_gw_exp(x), exp(x), 1e-15 * exp(x), "exp");
                near(cc_gw_tanh(x), tanh(x), 1e-15 * fabs(tanh(x)) + 1e-300, "tanh");
        }
        for (x = -1e-3; x <= 1e-3; x += 1.3e-5)
                near(cc_gw_tanh(x), tanh(x), 1e-15 * fabs(tanh(x)) + 1e-300, "tanh near 0");
        for (x = 1e-10; x < 1e10; x *= 1.37)
                near(cc_gw_sqrt(x), sqrt(x), 5e-16 * sqrt(x), "sqrt");
        near(cc_gw_exp(0.0), 1.0, 0, "exp(0)");
        near(cc_gw_exp(700.0), exp(700.0), 1e-15 * exp(700.0), "exp(700)");
        near(cc_gw_exp(-740.0), exp(-740.0), 1e-320, "exp(-740)");
        assert_true(isinf(cc_gw_exp(800.0)));
        near(cc_gw_exp(-800.0), 0.0, 0, "exp(-800)");
        near(cc_gw_tanh(30.0), 1.0, 0, "tanh(30)");
        near(cc_gw_tanh(-30.0), -1.0, 0, "tanh(-30)");
        near(cc_gw_sqrt(4.0), 2.0, 0, "sqrt(4)");
        near(cc_gw_sqrt(0.0), 0.0, 0, "sqrt(0)");
        near(cc_gw_sqrt(-1.0), 0.0, 0, "sqrt(-1)");
}

static void test_ref_conv(void **state)
{
        /* 1x1x3x3 input 1..9 */
        static const float x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        static const float diag[4] = {1, 0, 0, -1};
        static const float ones[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
        static const float two_k[2 * 4] = {1, 0, 0, -1, 0, 1, 0, 0}; /* k=2 filters of 2x2 */
        double y[9];
        int i;

        (void)state;
        /* x[i][j] - x[i+1][j+1] = -4 everywhere (cross-correlation, no flip) */
        memset(y, 0, sizeof(y));
        cc_ref_conv2d(x, diag, y, 1, 1, 3, 3, 1, 2, 2, 0, 1, 1);
        for (i = 0; i < 4; i++)
                near(y[i], -4.0, 0, "diag");
        /* 3x3 ones with pad 1: the sums of each neighbourhood */
        {
                static const double want[9] = {12, 21, 16, 27, 45, 33, 24, 39, 28};

                cc_ref_conv2d(x, ones, y, 1, 1, 3, 3, 1, 3, 3, 1, 1, 1);
                for (i = 0; i < 9; i++)
                        near(y[i], want[i], 0, "ones pad 1");
        }
        /* stride 2 with pad 1: the corners' sums */
        {
                static const double want[4] = {12, 16, 24, 28};

                cc_ref_conv2d(x, ones, y, 1, 1, 3, 3, 1, 3, 3, 1, 2, 1);
                for (i = 0; i < 4; i++)
                        near(y[i], want[i], 0, "stride 2");
        }
        /* dilation 2, 2x2 filter on 3x3: taps at the corners: 1 - 9 */
        cc_ref_conv2d(x, diag, y, 1, 1, 3, 3, 1, 2, 2, 0, 1, 2);
        near(y[0], -8.0, 0, "dilation 2");
        /* two output channels: the second picks x[i][j+1] */
        cc_ref_conv2d(x, two_k, y, 1, 1, 3, 3, 2, 2, 2, 0, 1, 1);
        near(y[4], 2.0, 0, "k=1 (0,0)");
        near(y[7], 6.0, 0, "k=1 (1,1)");
        /* two input channels add up */
        {
                float x2[18], w2[2];

                for (i = 0; i < 9; i++) {
                        x2[i] = x[i];
                        x2[9 + i] = 10.0f * x[i];
                }
                w2[0] = 1.0f;
                w2[1] = 0.5f;
                cc_ref_conv2d(x2, w2, y, 1, 2, 3, 3, 1, 1, 1, 0, 1, 1);
                near(y[4], 5.0 + 25.0, 0, "two channels");
        }
        /* nonsense sizes leave the output alone */
        y[0] = 77.0;
        cc_ref_conv2d(x, ones, y, 1, 1, 3, 3, 1, 3, 3, 0, 0, 1);
        cc_ref_conv2d(x, ones, y, 1, 1, 1, 1, 1, 3, 3, 0, 1, 1);
        near(y[0], 77.0, 0, "bad sizes");
}

static void test_ref_bn_act(void **state)
{
        /* n=1 c=2 hw=2: channel 0 scale 2 bias 1 mean 1 var 4 -> y = x;
         * channel 1 scale -1 bias 0 mean 0 var 1 -> y = -x */
        static const float x[4] = {3.0f, -1.0f, 0.5f, -2.0f};
        static const float g[2] = {2, -1}, b[2] = {1, 0}, m[2] = {1, 0}, v[2] = {4, 1};
        double y[4];

        (void)state;
        cc_ref_bn_act(x, g, b, m, v, 0.0, 0, y, 1, 2, 2);
        near(y[0], 3.0, 1e-15, "identity 0");
        near(y[1], -1.0, 1e-15, "identity 1");
        near(y[2], -0.5, 1e-15, "identity 2");
        near(y[3], 2.0, 1e-15, "identity 3");
        cc_ref_bn_act(x, g, b, m, v, 0.0, 1, y, 1, 2, 2);
        near(y[0], 3.0, 1e-15, "relu 0");
        near(y[1], 0.0, 0, "relu 1");
        near(y[2], 0.0, 0, "relu 2");
        near(y[3], 2.0, 1e-15, "relu 3");
        cc_ref_bn_act(x, g, b, m, v, 0.0, 2, y, 1, 2, 2);
        near(y[0], tanh(3.0), 1e-15, "tanh");
        cc_ref_bn_act(x, g, b, m, v, 0.0, 3, y, 1, 2, 2);
        near(y[3], 1.0 / (1.0 + exp(-2.0)), 1e-15, "sigmoid");
        /* eps counts: var 4 - 1 + eps 1 -> same as var 4 */
        {
                static const float v3[2] = {3, 0};

                cc_ref_bn_act(x, g, b, m, v3, 1.0, 0, y, 1, 2, 2);
                near(y[0], 3.0, 1e-15, "eps");
                near(y[3], 2.0, 1e-15, "eps channel 1");
        }
}

static void test_ref_softmax(void **state)
{
        /* n=1 c=2 hw=2: position 0 (0, ln 3) -> 1/4, 3/4; position 1 equal -> 1/2 */
        float x[4];
        double y[4];

        (void)state;
        x[0] = 0.0f;
        x[2] = (float)log(3.0);
        x[1] = 5.0f;
        x[3] = 5.0f;
        cc_ref_softmax(x, y, 1, 2, 2);
        near(y[0], 1.0 / (1.0 + exp((double)x[2])), 1e-15, "softmax 0");
        near(y[2], 0.75, 1e-7, "softmax 2");
        near(y[1], 0.5, 1e-15, "softmax 1");
        near(y[3], 0.5, 1e-15, "softmax 3");
        /* large inputs do not overflow (the maximum is subtracted) */
        x[0] = 1000.0f;
        x[2] = 1000.0f;
        cc_ref_softmax(x, y, 1, 2, 2);
        near(y[0], 0.5, 1e-15, "softmax large");
}

static void test_ref_rnn(void **state)
{
        /* in=1 hid=1 batch=1 seq=2: h1 = tanh(0.5*x1 + 0.1 + 2*h0 - 0.2), h2 likewise */
        static const float x[2] = {1.0f, -1.0f}, hx[1] = {0.25f};
        static const float w[1] = {0.5f}, wb[1] = {0.1f}, r[1] = {2.0f}, rb[1] = {-0.2f};
        double y[2], hy[1], h1, h2;

        (void)state;
        h1 = tanh(0.5 * 1.0 + (double)0.1f + 2.0 * 0.25 + (double)-0.2f);
        h2 = tanh(0.5 * -1.0 + (double)0.1f + 2.0 * h1 + (double)-0.2f);
        cc_ref_rnn_tanh(x, hx, w, wb, r, rb, y, hy, 2, 1, 1, 1);
        near(y[0], h1, 1e-15, "h1");
        near(y[1], h2, 1e-15, "h2");
        near(hy[0], h2, 0, "hy");
        /* no hx: zeros */
        cc_ref_rnn_tanh(x, NULL, w, wb, r, rb, y, hy, 1, 1, 1, 1);
        near(y[0], tanh(0.5 + (double)0.1f + (double)-0.2f), 1e-15, "h1 without hx");
        /* in=2 hid=2 batch=2, one step: row-major W and R */
        {
                static const float x2[4] = {1, 2, 3, 4};    /* [t=0][b][i] */
                static const float hx2[4] = {0, 1, 1, 0};   /* [b][k] */
                static const float w2[4] = {1, 0, 0, -1};   /* W[j][i] */
                static const float r2[4] = {0, 0.5f, 0, 0}; /* R[j][k] */
                static const float z[2] = {0, 0};
                double y2[4], hy2[4];

                cc_ref_rnn_tanh(x2, hx2, w2, z, r2, z, y2, hy2, 1, 2, 2, 2);
                near(y2[0], tanh(1.0 + 0.5), 1e-15, "b0 j0");
                near(y2[1], tanh(-2.0), 1e-15, "b0 j1");
                near(y2[2], tanh(3.0), 1e-15, "b1 j0");
                near(y2[3], tanh(-4.0), 1e-15, "b1 j1");
                near(hy2[3], y2[3], 0, "hy b1 j1");
        }
}

/* ---- the fake GPU ---------------------------------------------------------- */

/* The operations, in the order they run. */
#define NOPS 5
#define GRAPH "convolution_forward_graph"
static const char *const OPS[NOPS] = {"convolution_forward", "batchnorm_activation", "softmax", "rnn_forward", GRAPH};

typedef struct fx {
        void *cudart, *cudnn;
        const char *missing;             /* a symbol the lookup pretends is not exported */
        const char *const *missing_list; /* more of them, NULL-terminated */
        int major;                       /* of the last run */
        cc_value *res[8];
        int nres;
        char begun[8][40];
        int nbegun;
} fx;

static fx F;

static void *fx_sym(void *lib, const char *name)
{
        void *p;

        size_t i;

        if (F.missing != NULL && strcmp(F.missing, name) == 0)
                return NULL;
        for (i = 0; F.missing_list != NULL && F.missing_list[i] != NULL; i++)
                if (strcmp(F.missing_list[i], name) == 0)
                        return NULL;
        p = dlsym(lib, name);
        return p;
}

static void *cudnn_sym(void *ctx, const char *name)
{
        return fx_sym(((fx *)ctx)->cudnn, name);
}

static void *cudart_sym(void *ctx, const char *name)
{
        return fx_sym(((fx *)ctx)->cudart, name);
}

static void emit(void *ctx, cc_value *v)
{
        fx *f = ctx;

        assert_true(f->nres < 8);
        f->res[f->nres++] = v;
}

static void begin(void *ctx, const char *step)
{
        fx *f = ctx;

        assert_true(f->nbegun < 8);
        snprintf(f->begun[f->nbegun++], sizeof(f->begun[0]), "%s", step);
}

typedef int (*fn_create)(void **);
typedef int (*fn_destroy)(void *);
typedef size_t (*fn_live)(void);
typedef long (*fn_livel)(void);

static void *need(void *lib, const char *name)
{
        void *p = dlsym(lib, name);

        if (p == NULL)
                fail_msg("the fake GPU does not export %s", name);
        return p;
}

static int setup(void **state)
{
        char *rt = tu_fixture("fakegpu/libfakecudart.so"), *dn = tu_fixture("fakegpu/libfakecudnn.so");

        (void)state;
        F.cudart = dlopen(rt, RTLD_NOW | RTLD_LOCAL);
        if (F.cudart == NULL)
                fprintf(stderr, "%s\n", dlerror());
        F.cudnn = dlopen(dn, RTLD_NOW | RTLD_LOCAL);
        if (F.cudnn == NULL)
                fprintf(stderr, "%s\n", dlerror());
        free(rt);
        free(dn);
        return F.cudart != NULL && F.cudnn != NULL ? 0 : -1;
}

static int teardown(void **state)
{
        (void)state;
        /* The libraries stay loaded: ASan's leak report names their frames. */
        return 0;
}

static void clear_results(void)
{
        int i;

        for (i = 0; i < F.nres; i++)
                cc_v_free(F.res[i]);
        F.nres = 0;
        F.nbegun = 0;
}

static void knobs_off(void)
{
        unsetenv("FAKEGPU_SKIP");
        unsetenv("FAKEGPU_PERTURB");
        unsetenv("FAKEGPU_FAIL");
        unsetenv("FAKEGPU_REJECT_ALGO");
        unsetenv("FAKEGPU_VERSION");
        unsetenv("FAKEGPU_RNN_BAD");
        unsetenv("FAKEGPU_GRAPH_ENGINES");
        unsetenv("FAKEGPU_GRAPH_REJECT");
        unsetenv("FAKEGPU_GRAPH_WS");
        F.missing = NULL;
        F.missing_list = NULL;
}

/* Run everything with one cuDNN major and seed; check that nothing leaked. */
static void run_major(int major, uint64_t seed, int with_handle)
{
        fn_create create = (fn_create)(uintptr_t)need(F.cudnn, "cudnnCreate");
        fn_destroy destroy = (fn_destroy)(uintptr_t)need(F.cudnn, "cudnnDestroy");
        fn_live allocs = (fn_live)(uintptr_t)need(F.cudart, "fakegpu_live_allocations");
        fn_livel descs = (fn_livel)(uintptr_t)need(F.cudnn, "fakegpu_live_descriptors");
        fn_livel handles = (fn_livel)(uintptr_t)need(F.cudnn, "fakegpu_live_handles");
        fn_livel backend = (fn_livel)(uintptr_t)need(F.cudnn, "fakegpu_live_backend_descriptors");
        cc_gpuwork_env env;
        cudnnctl_error err;
        void *h = NULL;

        clear_results();
        memset(&err, 0, sizeof(err));
        if (with_handle)
                assert_int_equal(create(&h), 0);
        memset(&env, 0, sizeof(env));
        env.cudnn_version = major >= 9 ? 91900 : major == 8 ? 8907 : 7605;
        env.cudnn_major = major;
        env.cudnn_sym = cudnn_sym;
        env.cudart_sym = cudart_sym;
        env.ctx = &F;
        env.handle = h;
        env.seed = seed;
        env.emit = emit;
        env.begin = begin;
        F.major = major;
        assert_int_equal(cc_gpuwork_run(&env, &err), 0);
        assert_int_equal(F.nres, NOPS);
        if (h != NULL)
                assert_int_equal(destroy(h), 0);
        if (allocs() != 0)
                fail_msg("%zu device allocations were not freed", allocs());
        if (descs() != 0)
                fail_msg("%ld descriptors were not destroyed", descs());
        if (backend() != 0)
                fail_msg("%ld backend descriptors were not destroyed", backend());
        assert_int_equal(handles(), 0);
}

static void run(void)
{
        run_major(9, 12345, 1);
}

static const cc_value *result(const char *op)
{
        int i;

        for (i = 0; i < F.nres; i++) {
                const char *o = cc_v_as_str(cc_v_get(F.res[i], "op"));

                if (o != NULL && strcmp(o, op) == 0)
                        return F.res[i];
        }
        fail_msg("no result for %s", op);
        return NULL;
}

static const char *str(const cc_value *r, const char *key)
{
        const char *s = cc_v_as_str(cc_v_get(r, key));

        return s != NULL ? s : "";
}

static double num(const cc_value *r, const char *key)
{
        const cc_value *v = cc_v_get(r, key);

        if (v == NULL)
                fail_msg("%s: no %s", str(r, "op"), key);
        return cudnnctl_value_double(v);
}

static void expect_passed(const char *op)
{
        const cc_value *r = result(op);

        if (strcmp(str(r, "status"), "passed") != 0)
                fail_msg("%s: %s: %s", op, str(r, "status"), str(r, "reason"));
        assert_null(cc_v_get(r, "reason"));
        assert_null(cc_v_get(r, "cudnn_status"));
        assert_null(cc_v_get(r, "nonfinite"));
        assert_true(num(r, "max_rel_error") <= num(r, "tolerance"));
        assert_true(num(r, "max_abs_error") >= 0.0);
        assert_true(num(r, "elements") > 0);
        assert_true(num(r, "time_us") >= 0);
        assert_string_equal(str(r, "api"), strcmp(op, GRAPH) == 0 ? "backend" : "legacy");
        assert_true(strlen(str(r, "shape")) > 0);
}

/* The graph operation of a run with cuDNN 8 or older does not run. */
static void expect_graph_notrun(void)
{
        const cc_value *r = result(GRAPH);
        char want[80];

        snprintf(want, sizeof(want), "the backend graph API probe needs cuDNN 9 (this is cuDNN %d)", F.major);
        assert_string_equal(str(r, "status"), "not-run");
        assert_string_equal(str(r, "reason"), want);
        assert_string_equal(str(r, "api"), "backend");
        assert_null(cc_v_get(r, "time_us"));
        assert_null(cc_v_get(r, "engine"));
}

/* Every other operation passed (the graph one did not run before cuDNN 9). */
static void expect_others_passed(const char *op)
{
        int i;

        for (i = 0; i < NOPS; i++) {
                if (strcmp(OPS[i], op) == 0)
                        continue;
                if (strcmp(OPS[i], GRAPH) == 0 && F.major < 9)
                        expect_graph_notrun();
                else
                        expect_passed(OPS[i]);
        }
}

/* op has status st and a reason containing each of the strings; the other
 * operations passed. */
static void expect_only(const char *op, const char *st, const char *part1, const char *part2)
{
        const cc_value *r = result(op);

        if (strcmp(str(r, "status"), st) != 0)
                fail_msg("%s: status %s (%s), expected %s", op, str(r, "status"), str(r, "reason"), st);
        if (part1 != NULL && strstr(str(r, "reason"), part1) == NULL)
                fail_msg("%s: reason '%s' does not contain '%s'", op, str(r, "reason"), part1);
        if (part2 != NULL && strstr(str(r, "reason"), part2) == NULL)
                fail_msg("%s: reason '%s' does not contain '%s'", op, str(r, "reason"), part2);
        expect_others_passed(op);
}

static void test_honest(void **state)
{
        static const char *const families[NOPS] = {"cnn", "ops", "ops", "adv", "graph"};
        uint64_t seed;
        int i;

        (void)state;
        knobs_off();
        for (seed = 1; seed <= 6; seed++) {
                const cc_value *g;

                run_major(9, seed * 0x9E3779B97F4A7C15ULL, 1);
                for (i = 0; i < NOPS; i++) {
                        expect_passed(OPS[i]);
                        assert_string_equal(str(result(OPS[i]), "family"), families[i]);
                        /* results come in order, each announced before its calls */
                        assert_string_equal(str(F.res[i], "op"), OPS[i]);
                        assert_string_equal(F.begun[i], OPS[i]);
                }
                assert_int_equal(F.nbegun, NOPS);
                assert_string_equal(str(result("convolution_forward"), "math"), "fma");
                assert_int_equal(num(result("convolution_forward"), "algo"), 0);
                assert_string_equal(str(result("rnn_forward"), "math"), "fma");
                assert_int_equal(num(result("convolution_forward"), "elements"), 2 * 8 * 16 * 16);
                assert_int_equal(num(result("batchnorm_activation"), "elements"), 2 * 2 * 8 * 8 * 8);
                assert_int_equal(num(result("softmax"), "elements"), 2 * 16 * 4 * 4);
                assert_int_equal(num(result("rnn_forward"), "elements"), 5 * 2 * 6 + 2 * 6);
                /* the graph: mode A offers the TF32 engine 7 first, then
                 * engine 0; the plain fp32 one ran, at the fp32 tolerance */
                g = result(GRAPH);
                assert_int_equal(num(g, "elements"), 2 * 8 * 16 * 16);
                assert_string_equal(str(g, "heuristic"), "mode_a");
                assert_int_equal(num(g, "engine_configs"), 2);
                assert_int_equal(num(g, "engine_config"), 1);
                assert_int_equal(num(g, "engine"), 0);
                assert_int_equal(cc_v_len(cc_v_get(g, "engine_notes")), 0);
                assert_true(num(g, "tolerance") == 1e-4);
                assert_true(num(g, "max_rel_error") < 1e-5);
                assert_null(cc_v_get(g, "algo"));
                assert_null(cc_v_get(g, "math"));
                assert_null(cc_v_get(result("convolution_forward"), "engine"));
        }
        /* cuDNN 8 too: same legacy API; no graph */
        run_major(8, 99, 1);
        for (i = 0; i < NOPS - 1; i++)
                expect_passed(OPS[i]);
        expect_graph_notrun();
        clear_results();
}

static void test_skip(void **state)
{
        static const struct {
                const char *fn, *op, *what;
        } cases[] = {
            {"cudnnConvolutionForward", "convolution_forward", "the convolution output"},
            {"cudnnBatchNormalizationForwardInference", "batchnorm_activation", "the batch normalization output"},
            {"cudnnActivationForward", "batchnorm_activation", "the activation output"},
            {"cudnnSoftmaxForward", "softmax", "the softmax output"},
            {"cudnnRNNForward", "rnn_forward", "the RNN output y"},
            {"graph_conv", GRAPH, "the convolution output"},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                knobs_off();
                setenv("FAKEGPU_SKIP", cases[i].fn, 1);
                run();
                expect_only(cases[i].op, "failed", cases[i].what, "NaN or Inf");
                assert_null(cc_v_get(result(cases[i].op), "cudnn_status"));
                assert_null(cc_v_get(result(cases[i].op), "max_abs_error"));
                assert_true(num(result(cases[i].op), "nonfinite") > 0);
        }
        knobs_off();
        clear_results();
}

static void test_perturb(void **state)
{
        static const struct {
                const char *fn, *op, *what;
        } cases[] = {
            {"cudnnConvolutionForward", "convolution_forward", "the convolution output"},
            {"cudnnBatchNormalizationForwardInference", "batchnorm_activation", "the batch normalization output"},
            {"cudnnActivationForward", "batchnorm_activation", "the activation output"},
            {"cudnnSoftmaxForward", "softmax", "the softmax output"},
            {"cudnnRNNForward", "rnn_forward", "the RNN output y"},
            {"graph_conv", GRAPH, "the convolution output"},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                const cc_value *r;

                knobs_off();
                setenv("FAKEGPU_PERTURB", cases[i].fn, 1);
                run();
                expect_only(cases[i].op, "failed", cases[i].what, "over the tolerance");
                r = result(cases[i].op);
                assert_true(num(r, "max_rel_error") > num(r, "tolerance"));
                assert_true(num(r, "max_abs_error") > 0.009 && num(r, "max_abs_error") < 0.011);
        }
        knobs_off();
        clear_results();
}

static void test_fail(void **state)
{
        static const struct {
                const char *knob, *op, *part1, *part2;
                int status;
        } cases[] = {
            {"cudnnConvolutionForward=5000", "convolution_forward", "cudnnConvolutionForward",
             "CUDNN_STATUS_EXECUTION_FAILED (5000)", 5000},
            {"cudnnSetConvolutionMathType=2000", "convolution_forward", "cudnnSetConvolutionMathType",
             "CUDNN_STATUS_BAD_PARAM (2000)", 2000},
            {"cudnnBatchNormalizationForwardInference=3000", "batchnorm_activation",
             "cudnnBatchNormalizationForwardInference returned CUDNN_STATUS_NOT_SUPPORTED (3000)", NULL, 3000},
            {"cudnnCreateActivationDescriptor=4000", "batchnorm_activation", "cudnnCreateActivationDescriptor",
             "CUDNN_STATUS_INTERNAL_ERROR", 4000},
            {"cudnnSoftmaxForward=2002", "softmax", "cudnnSoftmaxForward", "BAD_PARAM_NULL_POINTER (2002)", 2002},
            {"cudnnSetRNNDescriptor_v8=3000", "rnn_forward", "cudnnSetRNNDescriptor_v8", "(3000)", 3000},
            {"cudnnGetRNNWeightParams=2000", "rnn_forward", "cudnnGetRNNWeightParams (input weights)", "(2000)", 2000},
            {"cudnnSetDropoutDescriptor=2000", "rnn_forward", "cudnnSetDropoutDescriptor", "(2000)", 2000},
            {"cudnnRNNForward=5000", "rnn_forward", "cudnnRNNForward returned", "(5000)", 5000},
            {"cudnnGetRNNTempSpaceSizes=2000", "rnn_forward", "cudnnGetRNNTempSpaceSizes", "(2000)", 2000},
            {"cudnnBackendFinalize=3000", GRAPH,
             "cudnnBackendFinalize (tensor x) returned CUDNN_STATUS_NOT_SUPPORTED (3000)",
             ": fake cuDNN: FAKEGPU_FAIL made this call fail", 3000},
            {"cudnnBackendCreateDescriptor=4000", GRAPH,
             "cudnnBackendCreateDescriptor (tensor x) returned CUDNN_STATUS_INTERNAL_ERROR (4000)", NULL, 4000},
            {"cudnnBackendSetAttribute=2000", GRAPH,
             "cudnnBackendSetAttribute(CUDNN_ATTR_TENSOR_DATA_TYPE) of the tensor x returned CUDNN_STATUS_BAD_PARAM",
             NULL, 2000},
            {"cudnnBackendGetAttribute=2000", GRAPH, "no engine config ran the graph (0 offered, 0 tried); the first: ",
             "cudnnBackendGetAttribute(CUDNN_ATTR_ENGINEHEUR_RESULTS) of the engine heuristics, mode A returned "
             "CUDNN_STATUS_BAD_PARAM (2000)",
             2000},
            {"cudnnBackendExecute=5000", GRAPH, "cudnnBackendExecute returned CUDNN_STATUS_EXECUTION_FAILED (5000)",
             ": fake cuDNN: FAKEGPU_FAIL made this call fail", 5000},
        };
        size_t i;
        int j;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                knobs_off();
                setenv("FAKEGPU_FAIL", cases[i].knob, 1);
                run();
                expect_only(cases[i].op, "failed", cases[i].part1, cases[i].part2);
                assert_int_equal(num(result(cases[i].op), "cudnn_status"), cases[i].status);
        }
        /* CUDA runtime failures hit every operation, named */
        knobs_off();
        setenv("FAKEGPU_FAIL", "cudaMalloc=2", 1);
        run();
        for (j = 0; j < NOPS; j++) {
                const cc_value *r = result(OPS[j]);

                assert_string_equal(str(r, "status"), "failed");
                assert_non_null(strstr(str(r, "reason"), "cudaMalloc("));
                assert_non_null(strstr(str(r, "reason"), "cudaErrorMemoryAllocation, out of memory (CUDA error 2)"));
                assert_null(cc_v_get(r, "cudnn_status"));
        }
        knobs_off();
        setenv("FAKEGPU_FAIL", "cudaDeviceSynchronize=700", 1);
        run();
        for (j = 0; j < NOPS; j++)
                assert_non_null(strstr(str(result(OPS[j]), "reason"), "cudaDeviceSynchronize"));
        knobs_off();
        setenv("FAKEGPU_FAIL", "cudaMemset=1", 1);
        run();
        for (j = 0; j < NOPS; j++)
                assert_non_null(strstr(str(result(OPS[j]), "reason"), "cudaMemset(0xFF)"));
        knobs_off();
        clear_results();
}

static void test_missing(void **state)
{
        static const struct {
                int major;
                const char *sym, *op, *reason;
        } cases[] = {
            {9, "cudnnRNNForward", "rnn_forward", "libcudnn_adv does not export cudnnRNNForward"},
            {8, "cudnnRNNForward", "rnn_forward", "libcudnn_adv_infer does not export cudnnRNNForward"},
            {9, "cudnnGetRNNWeightParams", "rnn_forward", "libcudnn_adv does not export cudnnGetRNNWeightParams"},
            {9, "cudnnSetDropoutDescriptor", "rnn_forward", "libcudnn_ops does not export cudnnSetDropoutDescriptor"},
            {9, "cudnnConvolutionForward", "convolution_forward",
             "libcudnn_cnn does not export cudnnConvolutionForward"},
            {8, "cudnnConvolutionForward", "convolution_forward",
             "libcudnn_cnn_infer does not export cudnnConvolutionForward"},
            {9, "cudnnSetConvolutionMathType", "convolution_forward",
             "libcudnn_cnn does not export cudnnSetConvolutionMathType"},
            {9, "cudnnActivationForward", "batchnorm_activation",
             "libcudnn_ops does not export cudnnActivationForward"},
            {9, "cudnnSoftmaxForward", "softmax", "libcudnn_ops does not export cudnnSoftmaxForward"},
            {9, "cudnnBackendExecute", GRAPH, "libcudnn_graph does not export cudnnBackendExecute"},
            {9, "cudnnBackendCreateDescriptor", GRAPH, "libcudnn_graph does not export cudnnBackendCreateDescriptor"},
        };
        size_t i;
        int j;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                knobs_off();
                F.missing = cases[i].sym;
                run_major(cases[i].major, 7, 1);
                expect_only(cases[i].op, "not-run", cases[i].reason, NULL);
                assert_null(cc_v_get(result(cases[i].op), "time_us"));
                assert_null(cc_v_get(result(cases[i].op), "max_abs_error"));
        }
        /* the CUDA runtime's allocator: nothing can run */
        knobs_off();
        F.missing = "cudaMalloc";
        run();
        for (j = 0; j < NOPS; j++) {
                assert_string_equal(str(result(OPS[j]), "status"), "not-run");
                assert_string_equal(str(result(OPS[j]), "reason"), "libcudart does not export cudaMalloc");
        }
        /* Without cudnnGetErrorString / cudaGetErrorString the numbers stay. */
        knobs_off();
        F.missing = "cudnnGetErrorString";
        setenv("FAKEGPU_FAIL", "cudnnSoftmaxForward=3000", 1);
        run();
        expect_only("softmax", "failed", "cudnnSoftmaxForward returned a cuDNN error (3000)", NULL);
        knobs_off();
        F.missing = "cudaGetErrorString";
        setenv("FAKEGPU_FAIL", "cudaMalloc=2", 1);
        run();
        assert_non_null(strstr(str(result("softmax"), "reason"), "(CUDA error 2)"));
        knobs_off();
        clear_results();
}

static void test_cudnn7(void **state)
{
        (void)state;
        knobs_off();
        setenv("FAKEGPU_VERSION", "7605", 1);
        run_major(7, 3, 1);
        expect_only("rnn_forward", "not-run", "cuDNN 7 has no cudnnRNNForward", NULL);
        /* no FMA math type in cuDNN 7: none asked for */
        assert_null(cc_v_get(result("convolution_forward"), "math"));
        knobs_off();
        clear_results();
}

/* A library whose default math is TF32 and that was not told FMA: the
 * tolerance catches it (the reason FMA math is asked for). */
static void test_tf32_caught(void **state)
{
        const cc_value *r;

        (void)state;
        knobs_off();
        run_major(7, 3, 1); /* claims cuDNN 7: no FMA math asked for; the fake is 9: TF32 */
        r = result("convolution_forward");
        assert_string_equal(str(r, "status"), "failed");
        assert_non_null(strstr(str(r, "reason"), "over the tolerance"));
        assert_true(num(r, "max_rel_error") > 1e-4);
        knobs_off();
        clear_results();
}

static void test_algo_fallback(void **state)
{
        const cc_value *r;

        (void)state;
        knobs_off();
        setenv("FAKEGPU_REJECT_ALGO", "0", 1);
        run();
        expect_passed("convolution_forward");
        assert_int_equal(num(result("convolution_forward"), "algo"), 1);
        /* without the heuristic: IMPLICIT_GEMM's refusal is the answer */
        F.missing = "cudnnGetConvolutionForwardAlgorithm_v7";
        run();
        r = result("convolution_forward");
        assert_string_equal(str(r, "status"), "failed");
        assert_non_null(strstr(str(r, "reason"), "IMPLICIT_GEMM"));
        assert_non_null(strstr(str(r, "reason"), "CUDNN_STATUS_NOT_SUPPORTED (3000)"));
        assert_int_equal(num(r, "cudnn_status"), 3000);
        assert_null(cc_v_get(r, "algo"));
        knobs_off();
        clear_results();
}

static void test_rnn_layout_lies(void **state)
{
        static const struct {
                const char *knob, *reason;
        } cases[] = {
            {"outside", "outside the"},
            {"shape", "expected 1x6x4"},
            {"stride", "past the end of the"},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                knobs_off();
                setenv("FAKEGPU_RNN_BAD", cases[i].knob, 1);
                run();
                expect_only("rnn_forward", "failed", cases[i].reason, "weight");
        }
        knobs_off();
        clear_results();
}

/* The graph operation's choice of engine config, with the fake's engines 0
 * (plain fp32, 4 KiB workspace) and 7 (TF32 tensor cores). */
static void note_names(const cc_value *g, const char *a, const char *b)
{
        const cc_value *n = cc_v_get(g, "engine_notes");

        assert_int_equal(cc_v_len(n), 2);
        assert_string_equal(cc_v_as_str(cc_v_at(n, 0)), a);
        assert_string_equal(cc_v_as_str(cc_v_at(n, 1)), b);
}

static void test_graph_engines(void **state)
{
        fn_livel created = (fn_livel)(uintptr_t)need(F.cudnn, "fakegpu_created_backend_descriptors");
        const cc_value *g;
        long before;

        (void)state;
        /* every descriptor made is counted, and run() checks that none is left */
        knobs_off();
        before = created();
        run();
        expect_passed(GRAPH);
        /* 3 tensors, convolution, operation, graph, heuristic, 2 configs,
         * 2 engines (read and dropped), plan, variant pack */
        assert_int_equal(created() - before, 13);

        /* only the TF32 engine: it runs, at the TF32 tolerance, and its
         * error shows why the fp32 one is preferred */
        knobs_off();
        setenv("FAKEGPU_GRAPH_ENGINES", "7", 1);
        run();
        expect_only(GRAPH, "passed", NULL, NULL);
        g = result(GRAPH);
        assert_int_equal(num(g, "engine"), 7);
        assert_int_equal(num(g, "engine_config"), 0);
        note_names(g, "tensor_core", "down_convert_inputs");
        assert_true(num(g, "tolerance") == 1e-2);
        assert_true(num(g, "max_rel_error") > 1e-4);

        /* the plain engine's plan does not finalize: the TF32 one, next */
        knobs_off();
        setenv("FAKEGPU_GRAPH_REJECT", "0", 1);
        run();
        expect_only(GRAPH, "passed", NULL, NULL);
        assert_int_equal(num(result(GRAPH), "engine"), 7);
        assert_true(num(result(GRAPH), "tolerance") == 1e-2);

        /* the plain engine wants a workspace over the 1 GiB believed */
        knobs_off();
        setenv("FAKEGPU_GRAPH_WS", "4398046511104", 1);
        run();
        expect_only(GRAPH, "passed", NULL, NULL);
        assert_int_equal(num(result(GRAPH), "engine"), 7);

        /* a workspace is used when one is asked for: the fake checks it */
        knobs_off();
        setenv("FAKEGPU_GRAPH_WS", "65536", 1);
        run();
        expect_only(GRAPH, "passed", NULL, NULL);
        assert_int_equal(num(result(GRAPH), "engine"), 0);

        /* mode A offers nothing: the fallback list */
        knobs_off();
        setenv("FAKEGPU_GRAPH_ENGINES", "", 1);
        run();
        expect_only(GRAPH, "passed", NULL, NULL);
        g = result(GRAPH);
        assert_string_equal(str(g, "heuristic"), "fallback");
        assert_int_equal(num(g, "engine_configs"), 1);
        assert_int_equal(num(g, "engine"), 0);
        assert_true(num(g, "tolerance") == 1e-4);

        /* nothing runs: failed, with the first reason */
        setenv("FAKEGPU_GRAPH_REJECT", "0", 1);
        run();
        expect_only(GRAPH, "failed", "no engine config ran the graph (1 offered, 1 tried); the first: ",
                    "the engine heuristics, mode A offered no engine config");
        assert_null(cc_v_get(result(GRAPH), "cudnn_status"));
        assert_null(cc_v_get(result(GRAPH), "engine"));
        assert_null(cc_v_get(result(GRAPH), "time_us"));
        setenv("FAKEGPU_GRAPH_ENGINES", "0", 1);
        run();
        expect_only(GRAPH, "failed", "no engine config ran the graph (2 offered, 2 tried); the first: ",
                    "engine config 0 (engine 0): cudnnBackendFinalize (execution plan) returned "
                    "CUDNN_STATUS_NOT_SUPPORTED (3000): fake cuDNN: FAKEGPU_GRAPH_REJECT");
        assert_int_equal(num(result(GRAPH), "cudnn_status"), 3000);
        knobs_off();
        clear_results();
}

/* cudnnGetLastErrorString is optional (cuDNN 9.0 on): without it the
 * status stays. */
static void test_graph_last_error(void **state)
{
        (void)state;
        knobs_off();
        F.missing = "cudnnGetLastErrorString";
        setenv("FAKEGPU_FAIL", "cudnnBackendExecute=5000", 1);
        run();
        expect_only(GRAPH, "failed", NULL, NULL);
        assert_string_equal(str(result(GRAPH), "reason"),
                            "cudnnBackendExecute returned CUDNN_STATUS_EXECUTION_FAILED (5000)");
        knobs_off();
        clear_results();
}

/* A cuDNN 9 without the legacy convolution: that operation does not run,
 * the graph one still does (the reason it exists). */
static void test_no_legacy_conv(void **state)
{
        static const char *const legacy[] = {"cudnnCreateConvolutionDescriptor",
                                             "cudnnDestroyConvolutionDescriptor",
                                             "cudnnSetConvolution2dDescriptor",
                                             "cudnnSetConvolutionMathType",
                                             "cudnnGetConvolutionForwardWorkspaceSize",
                                             "cudnnConvolutionForward",
                                             "cudnnGetConvolutionForwardAlgorithm_v7",
                                             "cudnnCreateFilterDescriptor",
                                             "cudnnDestroyFilterDescriptor",
                                             "cudnnSetFilter4dDescriptor",
                                             NULL};

        (void)state;
        knobs_off();
        F.missing_list = legacy;
        run();
        expect_only("convolution_forward", "not-run", "libcudnn_ops does not export cudnnCreateFilterDescriptor", NULL);
        expect_passed(GRAPH);
        assert_int_equal(num(result(GRAPH), "engine"), 0);
        knobs_off();
        clear_results();
}

static void test_no_handle(void **state)
{
        int j;

        (void)state;
        knobs_off();
        run_major(9, 1, 0);
        for (j = 0; j < NOPS; j++) {
                assert_string_equal(str(result(OPS[j]), "status"), "not-run");
                assert_non_null(strstr(str(result(OPS[j]), "reason"), "no cuDNN handle"));
        }
        clear_results();
}

static void test_bad_env(void **state)
{
        cudnnctl_error err;
        cc_gpuwork_env env;

        (void)state;
        memset(&err, 0, sizeof(err));
        memset(&env, 0, sizeof(env));
        assert_int_equal(cc_gpuwork_run(NULL, &err), -1);
        assert_int_equal(cc_gpuwork_run(&env, &err), -1); /* no emit */
        cc_err_clear(&err);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_math),           cmocka_unit_test(test_ref_conv),
            cmocka_unit_test(test_ref_bn_act),     cmocka_unit_test(test_ref_softmax),
            cmocka_unit_test(test_ref_rnn),        cmocka_unit_test(test_honest),
            cmocka_unit_test(test_skip),           cmocka_unit_test(test_perturb),
            cmocka_unit_test(test_fail),           cmocka_unit_test(test_missing),
            cmocka_unit_test(test_cudnn7),         cmocka_unit_test(test_tf32_caught),
            cmocka_unit_test(test_algo_fallback),  cmocka_unit_test(test_rnn_layout_lies),
            cmocka_unit_test(test_no_handle),      cmocka_unit_test(test_bad_env),
            cmocka_unit_test(test_graph_engines),  cmocka_unit_test(test_graph_last_error),
            cmocka_unit_test(test_no_legacy_conv),
        };

        return cmocka_run_group_tests(tests, setup, teardown);
}
