/* GPU work for `cudnnctl verify`: four small but real cuDNN operations, each
 * on fresh random inputs, each compared with a CPU reference in double.
 *
 * Nothing here includes a CUDA or cuDNN header: every type, number and
 * signature used is declared below, taken from cudnn_*_v9.h (cuDNN 9.19) and
 * cuda_runtime_api.h / driver_types.h (CUDA 13.0). Only legacy entry points
 * that cuDNN 8 and 9 both export with the same signature are called (cuDNN 7
 * has the same ones except the v8 RNN API); they are resolved at run time
 * through env->cudnn_sym / env->cudart_sym, and a missing one makes its
 * operation "not-run", never a call through NULL.
 *
 * Output buffers are poisoned with 0xFF bytes (a NaN in every float) before
 * each call, so an operation that silently writes nothing, or only part of
 * its output, fails. The library's math library is not linked: the few
 * functions the references need (exp, tanh, sqrt) are written out below. */
#include "gpuwork.h"

#include <math.h> /* isfinite only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../platform/platform.h"

/* ---- CUDA runtime and cuDNN, declared here ------------------------------- */

typedef int gw_dnst;  /* cudnnStatus_t: 0 is CUDNN_STATUS_SUCCESS in every major */
typedef int gw_cuerr; /* cudaError_t: 0 is cudaSuccess */

enum {
        GW_CUDA_MEMCPY_H2D = 1, /* cudaMemcpyHostToDevice */
        GW_CUDA_MEMCPY_D2H = 2, /* cudaMemcpyDeviceToHost */
};

enum {
        GW_DATA_FLOAT = 0,             /* CUDNN_DATA_FLOAT */
        GW_TENSOR_NCHW = 0,            /* CUDNN_TENSOR_NCHW */
        GW_CROSS_CORRELATION = 1,      /* CUDNN_CROSS_CORRELATION */
        GW_DEFAULT_MATH = 0,           /* CUDNN_DEFAULT_MATH */
        GW_FMA_MATH = 3,               /* CUDNN_FMA_MATH (cuDNN 8 and later) */
        GW_FWD_IMPLICIT_GEMM = 0,      /* CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM */
        GW_BATCHNORM_SPATIAL = 1,      /* CUDNN_BATCHNORM_SPATIAL */
        GW_ACTIVATION_RELU = 1,        /* CUDNN_ACTIVATION_RELU */
        GW_PROPAGATE_NAN = 1,          /* CUDNN_PROPAGATE_NAN */
        GW_SOFTMAX_ACCURATE = 1,       /* CUDNN_SOFTMAX_ACCURATE */
        GW_SOFTMAX_MODE_CHANNEL = 1,   /* CUDNN_SOFTMAX_MODE_CHANNEL */
        GW_RNN_ALGO_STANDARD = 0,      /* CUDNN_RNN_ALGO_STANDARD */
        GW_RNN_TANH = 1,               /* CUDNN_RNN_TANH */
        GW_RNN_DOUBLE_BIAS = 2,        /* CUDNN_RNN_DOUBLE_BIAS */
        GW_UNIDIRECTIONAL = 0,         /* CUDNN_UNIDIRECTIONAL */
        GW_LINEAR_INPUT = 0,           /* CUDNN_LINEAR_INPUT */
        GW_FWD_MODE_INFERENCE = 0,     /* CUDNN_FWD_MODE_INFERENCE */
        GW_RNN_SEQ_MAJOR_PACKED = 1,   /* CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED */
        GW_RNN_PADDED_IO_DISABLED = 0, /* CUDNN_RNN_PADDED_IO_DISABLED */
};

/* cudnnConvolutionFwdAlgoPerf_t (cuDNN 7, 8 and 9 alike). */
typedef struct gw_fwd_perf {
        int algo;
        int status;
        float time;
        size_t memory;
        int determinism;
        int math_type;
        int reserved[3];
} gw_fwd_perf;

/* Every function pointer is resolved into this generic type first (the one
 * function pointer type that converts to any other without a warning). */
typedef void (*gw_fn)(void);
_Static_assert(sizeof(gw_fn) == sizeof(void *), "function and object pointers differ in size");

typedef gw_cuerr (*fn_cuda_malloc)(void **dev, size_t size);
typedef gw_cuerr (*fn_cuda_free)(void *dev);
typedef gw_cuerr (*fn_cuda_memcpy)(void *dst, const void *src, size_t count, int kind);
typedef gw_cuerr (*fn_cuda_memset)(void *dev, int value, size_t count);
typedef gw_cuerr (*fn_cuda_sync)(void);
typedef const char *(*fn_cuda_errstr)(gw_cuerr e);

typedef const char *(*fn_dn_errstr)(gw_dnst st);
typedef gw_dnst (*fn_dn_create)(void **desc);
typedef gw_dnst (*fn_dn_destroy)(void *desc);
typedef gw_dnst (*fn_dn_set_tensor4d)(void *desc, int format, int dtype, int n, int c, int h, int w);
typedef gw_dnst (*fn_dn_set_tensornd)(void *desc, int dtype, int nbdims, const int *dims, const int *strides);
typedef gw_dnst (*fn_dn_get_tensornd)(const void *desc, int requested, int *dtype, int *nbdims, int *dims,
                                      int *strides);
typedef gw_dnst (*fn_dn_set_filter4d)(void *desc, int dtype, int format, int k, int c, int h, int w);
typedef gw_dnst (*fn_dn_set_conv2d)(void *desc, int pad_h, int pad_w, int u, int v, int dil_h, int dil_w, int mode,
                                    int compute_type);
typedef gw_dnst (*fn_dn_set_conv_math)(void *desc, int math_type);
typedef gw_dnst (*fn_dn_conv_ws)(void *handle, const void *x_desc, const void *w_desc, const void *conv_desc,
                                 const void *y_desc, int algo, size_t *size);
typedef gw_dnst (*fn_dn_conv_algo_v7)(void *handle, const void *x_desc, const void *w_desc, const void *conv_desc,
                                      const void *y_desc, int requested, int *returned, gw_fwd_perf *perf);
typedef gw_dnst (*fn_dn_conv_fwd)(void *handle, const void *alpha, const void *x_desc, const void *x,
                                  const void *w_desc, const void *w, const void *conv_desc, int algo, void *ws,
                                  size_t ws_size, const void *beta, const void *y_desc, void *y);
typedef gw_dnst (*fn_dn_bn_infer)(void *handle, int mode, const void *alpha, const void *beta, const void *x_desc,
                                  const void *x, const void *y_desc, void *y, const void *bn_desc, const void *scale,
                                  const void *bias, const void *mean, const void *var, double epsilon);
typedef gw_dnst (*fn_dn_set_act)(void *desc, int mode, int nan_opt, double coef);
typedef gw_dnst (*fn_dn_act_fwd)(void *handle, void *act_desc, const void *alpha, const void *x_desc, const void *x,
                                 const void *beta, const void *y_desc, void *y);
typedef gw_dnst (*fn_dn_softmax_fwd)(void *handle, int algo, int mode, const void *alpha, const void *x_desc,
                                     const void *x, const void *beta, const void *y_desc, void *y);
typedef gw_dnst (*fn_dn_dropout_states)(void *handle, size_t *size);
typedef gw_dnst (*fn_dn_set_dropout)(void *desc, void *handle, float dropout, void *states, size_t size,
                                     unsigned long long seed);
typedef gw_dnst (*fn_dn_set_rnn_v8)(void *desc, int algo, int cell_mode, int bias_mode, int dir_mode, int input_mode,
                                    int dtype, int math_prec, int math_type, int32_t input_size, int32_t hidden_size,
                                    int32_t proj_size, int32_t num_layers, void *dropout_desc, uint32_t aux_flags);
typedef gw_dnst (*fn_dn_set_rnn_data)(void *desc, int dtype, int layout, int max_seq, int batch, int vector_size,
                                      const int *seq_lengths, void *padding_fill);
typedef gw_dnst (*fn_dn_rnn_weight_space)(void *handle, void *rnn_desc, size_t *size);
typedef gw_dnst (*fn_dn_rnn_temp_space)(void *handle, void *rnn_desc, int fwd_mode, void *x_desc, size_t *work,
                                        size_t *reserve);
typedef gw_dnst (*fn_dn_rnn_weight_params)(void *handle, void *rnn_desc, int32_t pseudo_layer, size_t ws_size,
                                           const void *ws, int32_t lin_layer_id, void *m_desc, void **m_addr,
                                           void *b_desc, void **b_addr);
typedef gw_dnst (*fn_dn_rnn_fwd)(void *handle, void *rnn_desc, int fwd_mode, const int32_t *dev_seq_lengths,
                                 void *x_desc, const void *x, void *y_desc, void *y, void *h_desc, const void *hx,
                                 void *hy, void *c_desc, const void *cx, void *cy, size_t weight_size,
                                 const void *weights, size_t work_size, void *work, size_t reserve_size, void *reserve);

/* The backend (graph) API of libcudnn_graph, from cudnn_graph_v9.h (cuDNN
 * 9.19); the numbers used here are those of cuDNN 8's cudnn_backend.h too.
 * Its enums are passed as int, as the C ABI passes them. */
enum { /* cudnnBackendDescriptorType_t */
       GW_BK_CONVOLUTION = 1,
       GW_BK_ENGINE = 2,
       GW_BK_ENGINECFG = 3,
       GW_BK_ENGINEHEUR = 4,
       GW_BK_EXECUTION_PLAN = 5,
       GW_BK_OPERATION_CONVOLUTION_FORWARD = 10,
       GW_BK_OPERATIONGRAPH = 15,
       GW_BK_VARIANT_PACK = 16,
       GW_BK_TENSOR = 17,
};

enum { /* cudnnBackendAttributeType_t */
       GW_TYPE_HANDLE = 0,
       GW_TYPE_DATA_TYPE = 1,
       GW_TYPE_INT64 = 3,
       GW_TYPE_FLOAT = 4,
       GW_TYPE_VOID_PTR = 6,
       GW_TYPE_CONVOLUTION_MODE = 7,
       GW_TYPE_HEUR_MODE = 8,
       GW_TYPE_NUMERICAL_NOTE = 11,
       GW_TYPE_BACKEND_DESCRIPTOR = 15,
       GW_TYPE_BEHAVIOR_NOTE = 19,
};

enum { /* cudnnBackendAttributeName_t: GW_ATTR_X is CUDNN_ATTR_X */
       GW_ATTR_CONVOLUTION_COMP_TYPE = 100,
       GW_ATTR_CONVOLUTION_CONV_MODE = 101,
       GW_ATTR_CONVOLUTION_DILATIONS = 102,
       GW_ATTR_CONVOLUTION_FILTER_STRIDES = 103,
       GW_ATTR_CONVOLUTION_POST_PADDINGS = 104,
       GW_ATTR_CONVOLUTION_PRE_PADDINGS = 105,
       GW_ATTR_CONVOLUTION_SPATIAL_DIMS = 106,
       GW_ATTR_ENGINEHEUR_MODE = 200,
       GW_ATTR_ENGINEHEUR_OPERATION_GRAPH = 201,
       GW_ATTR_ENGINEHEUR_RESULTS = 202,
       GW_ATTR_ENGINECFG_ENGINE = 300,
       GW_ATTR_EXECUTION_PLAN_HANDLE = 400, /* deprecated in later 9.x, required before */
       GW_ATTR_EXECUTION_PLAN_ENGINE_CONFIG = 401,
       GW_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE = 402,
       GW_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA = 700,
       GW_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA = 701,
       GW_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC = 702,
       GW_ATTR_OPERATION_CONVOLUTION_FORWARD_W = 703,
       GW_ATTR_OPERATION_CONVOLUTION_FORWARD_X = 704,
       GW_ATTR_OPERATION_CONVOLUTION_FORWARD_Y = 705,
       GW_ATTR_OPERATIONGRAPH_HANDLE = 800, /* deprecated in later 9.x, required before */
       GW_ATTR_OPERATIONGRAPH_OPS = 801,
       GW_ATTR_TENSOR_BYTE_ALIGNMENT = 900,
       GW_ATTR_TENSOR_DATA_TYPE = 901,
       GW_ATTR_TENSOR_DIMENSIONS = 902,
       GW_ATTR_TENSOR_STRIDES = 903,
       GW_ATTR_TENSOR_UNIQUE_ID = 906,
       GW_ATTR_VARIANT_PACK_UNIQUE_IDS = 1000,
       GW_ATTR_VARIANT_PACK_DATA_POINTERS = 1001,
       GW_ATTR_VARIANT_PACK_WORKSPACE = 1003,
       GW_ATTR_ENGINE_GLOBAL_INDEX = 1301,
       GW_ATTR_ENGINE_NUMERICAL_NOTE = 1303,
       GW_ATTR_ENGINE_BEHAVIOR_NOTE = 1305,
};

enum {
        GW_HEUR_MODE_FALLBACK = 2,           /* CUDNN_HEUR_MODE_FALLBACK */
        GW_HEUR_MODE_A = 3,                  /* CUDNN_HEUR_MODE_A */
        GW_NOTE_TENSOR_CORE = 0,             /* CUDNN_NUMERICAL_NOTE_TENSOR_CORE: TF32 for fp32 */
        GW_NOTE_DOWN_CONVERT_INPUTS = 1,     /* CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS */
        GW_NOTE_REDUCED_PRECISION = 2,       /* CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION */
        GW_NOTE_FFT = 3,                     /* CUDNN_NUMERICAL_NOTE_FFT */
        GW_NOTE_WINOGRAD = 5,                /* CUDNN_NUMERICAL_NOTE_WINOGRAD, tiles 6, 7, 8 */
        GW_NOTE_WINOGRAD_TILE_13x13 = 8,     /* CUDNN_NUMERICAL_NOTE_WINOGRAD_TILE_13x13 */
        GW_NOTE_TYPE_COUNT = 10,             /* CUDNN_NUMERICAL_NOTE_TYPE_COUNT (9.19) */
        GW_BEHAVIOR_RUNTIME_COMPILATION = 0, /* CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION */
        GW_BEHAVIOR_TYPE_COUNT = 5,          /* CUDNN_BEHAVIOR_NOTE_TYPE_COUNT (9.19) */
};

typedef gw_dnst (*fn_bk_create)(int type, void **desc);
typedef gw_dnst (*fn_bk_finalize)(void *desc);
typedef gw_dnst (*fn_bk_set)(void *desc, int name, int type, int64_t count, const void *elements);
typedef gw_dnst (*fn_bk_get)(void *desc, int name, int type, int64_t requested, int64_t *count, void *elements);
typedef gw_dnst (*fn_bk_execute)(void *handle, void *plan, void *variant_pack);
typedef void (*fn_dn_last_error)(char *message, size_t max_size);

/* ---- numbers the references need (no libm) ------------------------------- */

static double gw_fabs(double x)
{
        return x < 0 ? -x : x;
}

/* 2^k for -1022 <= k <= 1023, built from its bits. */
static double gw_pow2(int k)
{
        uint64_t bits = (uint64_t)(k + 1023) << 52;
        double d;

        memcpy(&d, &bits, sizeof(d));
        return d;
}

static double gw_scale2(double s, int k)
{
        while (k > 1000) {
                s *= gw_pow2(1000);
                k -= 1000;
        }
        while (k < -1000) {
                s *= gw_pow2(-1000);
                k += 1000;
        }
        return s * gw_pow2(k);
}

/* e^y - 1 for |y| <= 1, by its series (no cancellation). */
static double gw_expm1_small(double y)
{
        double term = 1.0, sum = 0.0;
        int i;

        for (i = 1; i <= 27; i++) {
                term *= y / i;
                sum += term;
        }
        return sum;
}

double cc_gw_exp(double x)
{
        /* ln 2 split so that k * ln2_hi is exact for |k| < 2^20. */
        static const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
        double r, k;
        int ki;

        if (x != x)
                return x;
        if (x > 709.5)
                return gw_scale2(1.0, 1024); /* +inf */
        if (x < -745.5)
                return 0.0;
        k = x * 1.44269504088896338700;
        ki = (int)(k < 0 ? k - 0.5 : k + 0.5);
        r = (x - ki * ln2_hi) - ki * ln2_lo; /* |r| <= ln2 / 2 */
        return gw_scale2(1.0 + gw_expm1_small(r), ki);
}

double cc_gw_tanh(double x)
{
        double a = gw_fabs(x), t;

        if (x != x)
                return x;
        if (a > 22.0) {
                t = 1.0;
        } else if (a < 0.5) {
                double e = gw_expm1_small(2.0 * a);

                t = e / (e + 2.0);
        } else {
                t = 1.0 - 2.0 / (cc_gw_exp(2.0 * a) + 1.0);
        }
        return x < 0 ? -t : t;
}

double cc_gw_sqrt(double x)
{
        uint64_t bits;
        double g;
        int i;

        if (!(x > 0) || !isfinite(x))
                return x > 0 ? x : 0.0; /* +inf stays; 0, negatives and NaN give 0 */
        memcpy(&bits, &x, sizeof(bits));
        bits = (bits >> 1) + ((uint64_t)1023 << 51); /* halve the exponent: within a factor 1.5 */
        memcpy(&g, &bits, sizeof(g));
        for (i = 0; i < 8; i++)
                g = 0.5 * (g + x / g);
        return g;
}

/* ---- CPU references -------------------------------------------------------- */

void cc_ref_conv2d(const float *x, const float *w, double *y, int n, int c, int h, int wd, int k, int r, int s, int pad,
                   int stride, int dil)
{
        int oh, ow, in, ik, oy, ox, ic, ir, is;

        if (n <= 0 || c <= 0 || h <= 0 || wd <= 0 || k <= 0 || r <= 0 || s <= 0 || pad < 0 || stride <= 0 || dil <= 0)
                return;
        oh = (h + 2 * pad - dil * (r - 1) - 1) / stride + 1;
        ow = (wd + 2 * pad - dil * (s - 1) - 1) / stride + 1;
        if (h + 2 * pad - dil * (r - 1) - 1 < 0 || wd + 2 * pad - dil * (s - 1) - 1 < 0)
                return;
        for (in = 0; in < n; in++)
                for (ik = 0; ik < k; ik++)
                        for (oy = 0; oy < oh; oy++)
                                for (ox = 0; ox < ow; ox++) {
                                        double acc = 0.0;

                                        for (ic = 0; ic < c; ic++)
                                                for (ir = 0; ir < r; ir++)
                                                        for (is = 0; is < s; is++) {
                                                                int iy = oy * stride - pad + ir * dil;
                                                                int ix = ox * stride - pad + is * dil;

                                                                if (iy < 0 || iy >= h || ix < 0 || ix >= wd)
                                                                        continue;
                                                                acc +=
                                                                    (double)
                                                                        x[(((size_t)in * c + ic) * h + iy) * wd + ix] *
                                                                    (double)
                                                                        w[(((size_t)ik * c + ic) * r + ir) * s + is];
                                                        }
                                        y[(((size_t)in * k + ik) * oh + oy) * ow + ox] = acc;
                                }
}

void cc_ref_bn_act(const float *x, const float *gamma, const float *beta, const float *mean, const float *var,
                   double eps, int act, double *y, int n, int c, int hw)
{
        int in, ic, i;

        if (n <= 0 || c <= 0 || hw <= 0)
                return;
        for (in = 0; in < n; in++)
                for (ic = 0; ic < c; ic++) {
                        double scale = (double)gamma[ic] / cc_gw_sqrt((double)var[ic] + eps);

                        for (i = 0; i < hw; i++) {
                                size_t at = ((size_t)in * c + ic) * hw + i;
                                double v = scale * ((double)x[at] - (double)mean[ic]) + (double)beta[ic];

                                if (act == 1)
                                        v = v > 0 ? v : 0.0;
                                else if (act == 2)
                                        v = cc_gw_tanh(v);
                                else if (act == 3)
                                        v = 1.0 / (1.0 + cc_gw_exp(-v));
                                y[at] = v;
                        }
                }
}

void cc_ref_softmax(const float *x, double *y, int n, int c, int hw)
{
        int in, ic, i;

        if (n <= 0 || c <= 0 || hw <= 0)
                return;
        for (in = 0; in < n; in++)
                for (i = 0; i < hw; i++) {
                        double mx = x[(size_t)in * c * hw + i], sum = 0.0;

                        for (ic = 1; ic < c; ic++)
                                if ((double)x[((size_t)in * c + ic) * hw + i] > mx)
                                        mx = x[((size_t)in * c + ic) * hw + i];
                        for (ic = 0; ic < c; ic++) {
                                size_t at = ((size_t)in * c + ic) * hw + i;

                                y[at] = cc_gw_exp((double)x[at] - mx);
                                sum += y[at];
                        }
                        for (ic = 0; ic < c; ic++)
                                y[((size_t)in * c + ic) * hw + i] /= sum;
                }
}

void cc_ref_rnn_tanh(const float *x, const float *hx, const float *w, const float *wb, const float *r, const float *rb,
                     double *y, double *hy, int seq, int batch, int in, int hid)
{
        int t, b, j, i;

        if (seq < 0 || batch <= 0 || in <= 0 || hid <= 0)
                return;
        for (t = 0; t < seq; t++)
                for (b = 0; b < batch; b++)
                        for (j = 0; j < hid; j++) {
                                double acc = (double)wb[j] + (double)rb[j];

                                for (i = 0; i < in; i++)
                                        acc +=
                                            (double)w[(size_t)j * in + i] * (double)x[((size_t)t * batch + b) * in + i];
                                for (i = 0; i < hid; i++) {
                                        double hp;

                                        if (t > 0)
                                                hp = y[((size_t)(t - 1) * batch + b) * hid + i];
                                        else
                                                hp = hx != NULL ? (double)hx[(size_t)b * hid + i] : 0.0;
                                        acc += (double)r[(size_t)j * hid + i] * hp;
                                }
                                y[((size_t)t * batch + b) * hid + j] = cc_gw_tanh(acc);
                        }
        for (b = 0; b < batch; b++)
                for (j = 0; j < hid; j++) {
                        size_t at = (size_t)b * hid + j;

                        if (seq > 0)
                                hy[at] = y[((size_t)(seq - 1) * batch + b) * hid + j];
                        else
                                hy[at] = hx != NULL ? (double)hx[at] : 0.0;
                }
}

/* ---- one operation's state ------------------------------------------------- */

enum gw_state { GW_PASSED = 0, GW_FAILED, GW_NOTRUN };
enum gw_lib { GW_LIB_CUDART, GW_LIB_GRAPH, GW_LIB_OPS, GW_LIB_CNN, GW_LIB_ADV };

#define GW_MAX_DEV 24
#define GW_MAX_DESC 128
/* Sizes cuDNN reports are believed up to these bounds only. */
#define GW_MAX_WORKSPACE ((size_t)1 << 30)
#define GW_MAX_WEIGHTS ((size_t)64 << 20)

typedef struct gw_op {
        const cc_gpuwork_env *env;
        fn_cuda_malloc cu_malloc;
        fn_cuda_free cu_free;
        fn_cuda_memcpy cu_memcpy;
        fn_cuda_memset cu_memset;
        fn_cuda_sync cu_sync;
        fn_cuda_errstr cu_errstr;  /* optional */
        fn_cuda_errstr cu_errname; /* optional */
        fn_dn_errstr dn_errstr;    /* optional */
        void *dev[GW_MAX_DEV];     /* device buffers to free */
        size_t ndev;
        void *desc[GW_MAX_DESC]; /* descriptors to destroy, in creation order */
        fn_dn_destroy desc_free[GW_MAX_DESC];
        size_t ndesc;
        /* the result */
        int state;
        char reason[400];
        int has_dn_status;
        int dn_status;
        int compared;
        size_t nonfinite; /* outputs that were NaN or Inf */
        double max_abs, max_rel, tol;
        size_t elements;
        int timed;
        int64_t t0, time_us;
        int algo;         /* convolution algorithm used, -1: none */
        const char *math; /* math type asked for, NULL: none */
        /* the backend graph API: the engine that ran */
        int64_t engine;        /* its global index, -1: none */
        int engine_config;     /* its place in the heuristic's list, -1: none */
        int64_t engine_total;  /* how many configs the heuristic offered */
        const char *heuristic; /* "mode_a" | "fallback" */
        int notes_known;       /* the engine's numerical notes could be read */
        unsigned notes;        /* bit n: CUDNN_NUMERICAL_NOTE n */
} gw_op;

static void gw_vset(gw_op *o, int state, const char *fmt, va_list ap) CC_VPRINTF(3);

static void gw_vset(gw_op *o, int state, const char *fmt, va_list ap)
{
        size_t i;

        if (o->state != GW_PASSED)
                return; /* the first cause is the one reported */
        o->state = state;
        vsnprintf(o->reason, sizeof(o->reason), fmt, ap);
        /* Library strings end up here: keep one printable ASCII line. */
        for (i = 0; o->reason[i] != '\0'; i++)
                if ((unsigned char)o->reason[i] < 0x20 || (unsigned char)o->reason[i] > 0x7e)
                        o->reason[i] = '?';
}

static void gw_fail(gw_op *o, const char *fmt, ...) CC_PRINTF(2, 3);
static void gw_notrun(gw_op *o, const char *fmt, ...) CC_PRINTF(2, 3);

static void gw_fail(gw_op *o, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        gw_vset(o, GW_FAILED, fmt, ap);
        va_end(ap);
}

static void gw_notrun(gw_op *o, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        gw_vset(o, GW_NOTRUN, fmt, ap);
        va_end(ap);
}

static const char *gw_lib_name(int major, int lib)
{
        static const char *const v9[] = {"libcudart", "libcudnn_graph", "libcudnn_ops", "libcudnn_cnn", "libcudnn_adv"};
        static const char *const v8[] = {"libcudart", "libcudnn_ops_infer", "libcudnn_ops_infer", "libcudnn_cnn_infer",
                                         "libcudnn_adv_infer"};

        if (lib < 0 || lib > GW_LIB_ADV)
                return "cuDNN";
        if (lib == GW_LIB_CUDART)
                return v9[0];
        if (major >= 9)
                return v9[lib];
        if (major == 8)
                return v8[lib];
        return "libcudnn";
}

/* Resolve an entry point; a missing required one makes the operation
 * "not-run" with a reason naming it. */
static gw_fn gw_sym(gw_op *o, int lib, const char *name, int optional)
{
        const cc_gpuwork_env *env = o->env;
        void *p = NULL;
        gw_fn f = NULL;

        if (lib == GW_LIB_CUDART) {
                if (env->cudart_sym != NULL)
                        p = env->cudart_sym(env->ctx, name);
        } else if (env->cudnn_sym != NULL) {
                p = env->cudnn_sym(env->ctx, name);
        }
        if (p == NULL) {
                if (!optional)
                        gw_notrun(o, "%s does not export %s", gw_lib_name(env->cudnn_major, lib), name);
                return NULL;
        }
        memcpy(&f, &p, sizeof(f));
        return f;
}

/* A failed cuDNN call: "cudnnX returned CUDNN_STATUS_BAD_PARAM (2000)". */
static int gw_dn(gw_op *o, gw_dnst st, const char *call)
{
        const char *name = NULL;

        if (st == 0)
                return 0;
        if (o->state != GW_PASSED)
                return -1;
        if (o->dn_errstr != NULL)
                name = o->dn_errstr(st);
        gw_fail(o, "%s returned %.120s (%d)", call, name != NULL ? name : "a cuDNN error", st);
        o->has_dn_status = 1;
        o->dn_status = st;
        return -1;
}

/* A failed CUDA runtime call: "cudaMalloc(4096 bytes) failed: cudaErrorMemoryAllocation, out of memory (2)". */
static int gw_cu(gw_op *o, gw_cuerr e, const char *call)
{
        const char *name = NULL, *text = NULL;

        if (e == 0)
                return 0;
        if (o->state != GW_PASSED)
                return -1;
        if (o->cu_errname != NULL)
                name = o->cu_errname(e);
        if (o->cu_errstr != NULL)
                text = o->cu_errstr(e);
        gw_fail(o, "%s failed: %.80s%s%.120s (CUDA error %d)", call, name != NULL ? name : "",
                name != NULL && text != NULL ? ", " : "", text != NULL ? text : "", e);
        return -1;
}

/* The CUDA runtime entry points every operation needs. */
static void gw_need_cudart(gw_op *o)
{
        o->cu_malloc = (fn_cuda_malloc)gw_sym(o, GW_LIB_CUDART, "cudaMalloc", 0);
        o->cu_free = (fn_cuda_free)gw_sym(o, GW_LIB_CUDART, "cudaFree", 0);
        o->cu_memcpy = (fn_cuda_memcpy)gw_sym(o, GW_LIB_CUDART, "cudaMemcpy", 0);
        o->cu_memset = (fn_cuda_memset)gw_sym(o, GW_LIB_CUDART, "cudaMemset", 0);
        o->cu_sync = (fn_cuda_sync)gw_sym(o, GW_LIB_CUDART, "cudaDeviceSynchronize", 0);
        o->cu_errstr = (fn_cuda_errstr)gw_sym(o, GW_LIB_CUDART, "cudaGetErrorString", 1);
        o->cu_errname = (fn_cuda_errstr)gw_sym(o, GW_LIB_CUDART, "cudaGetErrorName", 1);
        o->dn_errstr = (fn_dn_errstr)gw_sym(o, GW_LIB_GRAPH, "cudnnGetErrorString", 1);
}

static void *gw_dalloc(gw_op *o, size_t bytes, const char *what)
{
        char call[120];
        void *p = NULL;
        gw_cuerr e;

        if (o->state != GW_PASSED)
                return NULL;
        if (o->ndev >= GW_MAX_DEV) {
                gw_fail(o, "internal: more than %d device buffers", GW_MAX_DEV);
                return NULL;
        }
        if (bytes == 0)
                bytes = 16; /* never ask for nothing: a NULL result would look like a failure */
        e = o->cu_malloc(&p, bytes);
        if (e != 0) {
                snprintf(call, sizeof(call), "cudaMalloc(%zu bytes) for %s", bytes, what);
                gw_cu(o, e, call);
                return NULL; /* whatever p holds now is not ours to free */
        }
        if (p == NULL) {
                gw_fail(o, "cudaMalloc(%zu bytes) for %s returned success and no memory", bytes, what);
                return NULL;
        }
        o->dev[o->ndev++] = p;
        return p;
}

static int gw_copy(gw_op *o, void *dst, const void *src, size_t bytes, int kind, const char *what)
{
        char call[120];

        if (o->state != GW_PASSED)
                return -1;
        snprintf(call, sizeof(call), "cudaMemcpy of %s (%zu bytes, %s)", what, bytes,
                 kind == GW_CUDA_MEMCPY_H2D ? "to the GPU" : "from the GPU");
        return gw_cu(o, o->cu_memcpy(dst, src, bytes, kind), call);
}

/* Fill a device buffer with 0xFF bytes: a NaN in every float. */
static int gw_poison(gw_op *o, void *dev, size_t bytes, const char *what)
{
        char call[120];

        if (o->state != GW_PASSED)
                return -1;
        snprintf(call, sizeof(call), "cudaMemset(0xFF) of %s (%zu bytes)", what, bytes);
        return gw_cu(o, o->cu_memset(dev, 0xFF, bytes), call);
}

static void *gw_desc(gw_op *o, fn_dn_create create, fn_dn_destroy destroy, const char *create_name)
{
        void *d = NULL;

        if (o->state != GW_PASSED)
                return NULL;
        if (o->ndesc >= GW_MAX_DESC) {
                gw_fail(o, "internal: more than %d descriptors", GW_MAX_DESC);
                return NULL;
        }
        if (gw_dn(o, create(&d), create_name) < 0)
                return NULL;
        if (d == NULL) {
                gw_fail(o, "%s returned success and no descriptor", create_name);
                return NULL;
        }
        o->desc[o->ndesc] = d;
        o->desc_free[o->ndesc] = destroy;
        o->ndesc++;
        return d;
}

/* Destroy the descriptors (newest first: an RNN descriptor goes before the
 * dropout descriptor it refers to), then free the device buffers. */
static void gw_release(gw_op *o)
{
        while (o->ndesc > 0) {
                o->ndesc--;
                o->desc_free[o->ndesc](o->desc[o->ndesc]);
        }
        while (o->ndev > 0) {
                o->ndev--;
                o->cu_free(o->dev[o->ndev]);
        }
}

/* Wait for everything queued so far, then start the clock. */
static int gw_clock_start(gw_op *o)
{
        if (o->state != GW_PASSED)
                return -1;
        if (gw_cu(o, o->cu_sync(), "cudaDeviceSynchronize before the operation") < 0)
                return -1;
        o->t0 = cc_monotonic_us();
        return 0;
}

static int gw_clock_stop(gw_op *o, const char *after)
{
        char call[120];

        if (o->state != GW_PASSED)
                return -1;
        snprintf(call, sizeof(call), "cudaDeviceSynchronize after %s", after);
        if (gw_cu(o, o->cu_sync(), call) < 0)
                return -1;
        o->time_us = cc_monotonic_us() - o->t0;
        if (o->time_us < 0)
                o->time_us = 0;
        o->timed = 1;
        return 0;
}

/* ---- random inputs ---------------------------------------------------------- */

typedef struct gw_rng {
        uint64_t s;
} gw_rng;

/* splitmix64 */
static uint64_t gw_next(gw_rng *r)
{
        uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);

        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
}

/* n floats uniform in [lo, hi); an all-zero result (which would let an
 * operation that writes zeros pass) fails the operation. */
static int gw_fill(gw_op *o, gw_rng *r, float *p, size_t n, float lo, float hi, const char *what)
{
        size_t i, nonzero = 0;

        for (i = 0; i < n; i++) {
                double u = (double)(gw_next(r) >> 11) * (1.0 / 9007199254740992.0);

                p[i] = (float)((double)lo + ((double)hi - (double)lo) * u);
                if (p[i] != 0.0f)
                        nonzero++;
        }
        if (n > 0 && nonzero == 0) {
                gw_fail(o, "internal: the random %s are all zero", what);
                return -1;
        }
        return 0;
}

/* ---- comparison ------------------------------------------------------------- */

/* Compare n outputs with the reference: max_abs_error, and max_rel_error
 * relative to max(|ref|, floor). NaN or Inf anywhere fails (the poison was
 * left, or the library produced it); so does an error over tol. Several
 * calls accumulate into one result. */
static void gw_compare(gw_op *o, const char *what, const float *got, const double *ref, size_t n, double floor,
                       double tol)
{
        size_t i, bad = 0, first_bad = 0, worst = 0;
        double worst_rel = -1.0;

        o->compared = 1;
        o->tol = tol;
        o->elements += n;
        for (i = 0; i < n; i++) {
                double d, den, rel;

                if (!isfinite(got[i])) {
                        if (bad++ == 0)
                                first_bad = i;
                        continue;
                }
                if (!isfinite(ref[i])) {
                        gw_fail(o, "internal: the CPU reference for %s is not finite at index %zu", what, i);
                        return;
                }
                d = gw_fabs((double)got[i] - ref[i]);
                den = gw_fabs(ref[i]) > floor ? gw_fabs(ref[i]) : floor;
                rel = d / den;
                if (d > o->max_abs)
                        o->max_abs = d;
                if (rel > o->max_rel)
                        o->max_rel = rel;
                if (rel > worst_rel) {
                        worst_rel = rel;
                        worst = i;
                }
        }
        o->nonfinite += bad;
        if (bad > 0)
                gw_fail(
                    o,
                    "%zu of %zu values of %s are NaN or Inf (first at index %zu): the poisoned output was not written",
                    bad, n, what, first_bad);
        else if (worst_rel > tol)
                gw_fail(o,
                        "%s differs from the CPU reference: relative error %.3g at index %zu (got %.9g, expected %.9g) "
                        "is over the tolerance %.3g",
                        what, worst_rel, worst, (double)got[worst], ref[worst], tol);
}

/* ---- the operations --------------------------------------------------------- */

/* Tolerances, as max relative error against max(|reference|, floor):
 * - convolution 1e-4 (floor 1): FMA math in fp32 with reductions of
 *   c*r*s = 27 products of values in [-1,1]: the worst-case rounding bound is
 *   27 * 2^-24 * 27 = 4.3e-5, typical errors are near 1e-6; TF32 would give
 *   errors near 1e-3 and fail, which is why FMA math is asked for.
 * - batch normalization + ReLU 1e-5 (floor 1): elementwise, a handful of
 *   roundings on values below 4 (a few 1e-7).
 * - softmax 1e-5 (floor 1e-3): outputs lie between 0.008 and 0.4; exp, a sum
 *   of 16 and a division cost a few ulps (1e-6 relative at most).
 * - RNN 1e-4 with FMA math (floor 1): 5 steps of two GEMVs of length 4 and 6
 *   and a tanh, weights in [-0.4, 0.4] so the recurrence does not amplify
 *   errors; 2e-3 when the library refused FMA math for the RNN and may use
 *   TF32 (inputs rounded to 2^-11 relative). */
#define GW_TOL_CONV 1e-4
#define GW_TOL_BN 1e-5
#define GW_TOL_SOFTMAX 1e-5
#define GW_TOL_RNN_FMA 1e-4
#define GW_TOL_RNN_DEFAULT 2e-3

static void gw_begin(gw_op *o, const char *step)
{
        if (o->env->begin != NULL)
                o->env->begin(o->env->ctx, step);
}

/* (1) Convolution forward, fp32 NCHW, cross-correlation. */
#define CV_N 2
#define CV_C 3
#define CV_H 16
#define CV_W 16
#define CV_K 8
#define CV_R 3
#define CV_S 3
#define CV_PAD 1
#define CV_STRIDE 1
#define CV_DIL 1
#define CV_OH ((CV_H + 2 * CV_PAD - CV_DIL * (CV_R - 1) - 1) / CV_STRIDE + 1)
#define CV_OW ((CV_W + 2 * CV_PAD - CV_DIL * (CV_S - 1) - 1) / CV_STRIDE + 1)

/* The convolution problem, shared by the legacy and the graph operations:
 * host inputs, filters, output and CPU reference, and their device copies
 * (freed with the operation, gw_release). */
struct conv_data {
        float *hx, *hw, *hy;
        double *ref;
        void *dx, *dw, *dy;
};

/* Random inputs and filters, room for the output, the CPU reference. 0:
 * ready; 1: the operation cannot go on (o says why); -1: out of memory. The
 * caller frees with conv_free, also on failure. */
static int conv_host(gw_op *o, gw_rng *rng, struct conv_data *c, cc_error *err)
{
        const size_t nx = (size_t)CV_N * CV_C * CV_H * CV_W, nw = (size_t)CV_K * CV_C * CV_R * CV_S,
                     ny = (size_t)CV_N * CV_K * CV_OH * CV_OW;

        memset(c, 0, sizeof(*c));
        c->hx = cc_calloc(err, nx, sizeof(*c->hx));
        c->hw = cc_calloc(err, nw, sizeof(*c->hw));
        c->hy = cc_calloc(err, ny, sizeof(*c->hy));
        c->ref = cc_calloc(err, ny, sizeof(*c->ref));
        if (c->hx == NULL || c->hw == NULL || c->hy == NULL || c->ref == NULL)
                return -1;
        if (gw_fill(o, rng, c->hx, nx, -1.0f, 1.0f, "convolution inputs") < 0 ||
            gw_fill(o, rng, c->hw, nw, -1.0f, 1.0f, "convolution filters") < 0)
                return 1;
        cc_ref_conv2d(c->hx, c->hw, c->ref, CV_N, CV_C, CV_H, CV_W, CV_K, CV_R, CV_S, CV_PAD, CV_STRIDE, CV_DIL);
        return 0;
}

/* Device buffers for x, w and y, with x and w uploaded. -1 when the
 * operation cannot go on (o says why). */
static int conv_device(gw_op *o, struct conv_data *c)
{
        const size_t nx = (size_t)CV_N * CV_C * CV_H * CV_W, nw = (size_t)CV_K * CV_C * CV_R * CV_S,
                     ny = (size_t)CV_N * CV_K * CV_OH * CV_OW;

        c->dx = gw_dalloc(o, nx * sizeof(float), "x");
        c->dw = gw_dalloc(o, nw * sizeof(float), "w");
        c->dy = gw_dalloc(o, ny * sizeof(float), "y");
        if (gw_copy(o, c->dx, c->hx, nx * sizeof(float), GW_CUDA_MEMCPY_H2D, "x") < 0 ||
            gw_copy(o, c->dw, c->hw, nw * sizeof(float), GW_CUDA_MEMCPY_H2D, "w") < 0)
                return -1;
        return 0;
}

static void conv_free(struct conv_data *c)
{
        free(c->hx);
        free(c->hw);
        free(c->hy);
        free(c->ref);
}

static int gw_conv(gw_op *o, gw_rng *rng, cc_error *err)
{
        const size_t ny = (size_t)CV_N * CV_K * CV_OH * CV_OW;
        const float alpha = 1.0f, beta = 0.0f;
        fn_dn_create t_create, f_create, c_create;
        fn_dn_destroy t_destroy, f_destroy, c_destroy;
        fn_dn_set_tensor4d set_t4d;
        fn_dn_set_filter4d set_f4d;
        fn_dn_set_conv2d set_conv;
        fn_dn_set_conv_math set_math = NULL;
        fn_dn_conv_ws get_ws;
        fn_dn_conv_algo_v7 algo_v7;
        fn_dn_conv_fwd fwd;
        struct conv_data cv = {0};
        void *xd, *wd, *cd, *yd, *ws = NULL;
        int cand[4], ncand = 1, i, first_st = 0, r, rv = -1;
        const char *first_call = NULL;
        size_t wsb = 0;
        gw_dnst st = 0;

        t_create = (fn_dn_create)gw_sym(o, GW_LIB_OPS, "cudnnCreateTensorDescriptor", 0);
        t_destroy = (fn_dn_destroy)gw_sym(o, GW_LIB_OPS, "cudnnDestroyTensorDescriptor", 0);
        set_t4d = (fn_dn_set_tensor4d)gw_sym(o, GW_LIB_OPS, "cudnnSetTensor4dDescriptor", 0);
        f_create = (fn_dn_create)gw_sym(o, GW_LIB_OPS, "cudnnCreateFilterDescriptor", 0);
        f_destroy = (fn_dn_destroy)gw_sym(o, GW_LIB_OPS, "cudnnDestroyFilterDescriptor", 0);
        set_f4d = (fn_dn_set_filter4d)gw_sym(o, GW_LIB_OPS, "cudnnSetFilter4dDescriptor", 0);
        c_create = (fn_dn_create)gw_sym(o, GW_LIB_CNN, "cudnnCreateConvolutionDescriptor", 0);
        c_destroy = (fn_dn_destroy)gw_sym(o, GW_LIB_CNN, "cudnnDestroyConvolutionDescriptor", 0);
        set_conv = (fn_dn_set_conv2d)gw_sym(o, GW_LIB_CNN, "cudnnSetConvolution2dDescriptor", 0);
        /* cuDNN 7 has no FMA math type and no TF32: its default is plain FMA. */
        if (o->env->cudnn_major >= 8)
                set_math = (fn_dn_set_conv_math)gw_sym(o, GW_LIB_CNN, "cudnnSetConvolutionMathType", 0);
        get_ws = (fn_dn_conv_ws)gw_sym(o, GW_LIB_CNN, "cudnnGetConvolutionForwardWorkspaceSize", 0);
        fwd = (fn_dn_conv_fwd)gw_sym(o, GW_LIB_CNN, "cudnnConvolutionForward", 0);
        algo_v7 = (fn_dn_conv_algo_v7)gw_sym(o, GW_LIB_CNN, "cudnnGetConvolutionForwardAlgorithm_v7", 1);
        if (o->state != GW_PASSED) {
                rv = 0;
                goto out;
        }

        r = conv_host(o, rng, &cv, err);
        if (r != 0) {
                rv = r < 0 ? -1 : 0;
                goto out;
        }

        gw_begin(o, "convolution_forward");
        xd = gw_desc(o, t_create, t_destroy, "cudnnCreateTensorDescriptor");
        yd = gw_desc(o, t_create, t_destroy, "cudnnCreateTensorDescriptor");
        wd = gw_desc(o, f_create, f_destroy, "cudnnCreateFilterDescriptor");
        cd = gw_desc(o, c_create, c_destroy, "cudnnCreateConvolutionDescriptor");
        if (o->state != GW_PASSED)
                goto done;
        if (gw_dn(o, set_t4d(xd, GW_TENSOR_NCHW, GW_DATA_FLOAT, CV_N, CV_C, CV_H, CV_W),
                  "cudnnSetTensor4dDescriptor (x)") < 0 ||
            gw_dn(o, set_t4d(yd, GW_TENSOR_NCHW, GW_DATA_FLOAT, CV_N, CV_K, CV_OH, CV_OW),
                  "cudnnSetTensor4dDescriptor (y)") < 0 ||
            gw_dn(o, set_f4d(wd, GW_DATA_FLOAT, GW_TENSOR_NCHW, CV_K, CV_C, CV_R, CV_S), "cudnnSetFilter4dDescriptor") <
                0 ||
            gw_dn(
                o,
                set_conv(cd, CV_PAD, CV_PAD, CV_STRIDE, CV_STRIDE, CV_DIL, CV_DIL, GW_CROSS_CORRELATION, GW_DATA_FLOAT),
                "cudnnSetConvolution2dDescriptor") < 0)
                goto done;
        if (set_math != NULL) {
                if (gw_dn(o, set_math(cd, GW_FMA_MATH), "cudnnSetConvolutionMathType(CUDNN_FMA_MATH)") < 0)
                        goto done;
                o->math = "fma";
        }

        if (conv_device(o, &cv) < 0)
                goto done;

        /* IMPLICIT_GEMM first; if the library refuses it, the first few of
         * its own heuristic's choices that keep FMA math. */
        cand[0] = GW_FWD_IMPLICIT_GEMM;
        for (i = 0; i < ncand; i++) {
                const char *call = "cudnnGetConvolutionForwardWorkspaceSize";

                wsb = 0;
                st = get_ws(o->env->handle, xd, wd, cd, yd, cand[i], &wsb);
                if (st == 0 && wsb > GW_MAX_WORKSPACE) {
                        gw_fail(o, "cudnnGetConvolutionForwardWorkspaceSize asked for %zu bytes for algorithm %d", wsb,
                                cand[i]);
                        goto done;
                }
                if (st == 0) {
                        ws = wsb > 0 ? gw_dalloc(o, wsb, "the convolution workspace") : NULL;
                        if (gw_poison(o, cv.dy, ny * sizeof(float), "y") < 0 || gw_clock_start(o) < 0)
                                goto done;
                        call = "cudnnConvolutionForward";
                        st = fwd(o->env->handle, &alpha, xd, cv.dx, wd, cv.dw, cd, cand[i], ws, wsb, &beta, yd, cv.dy);
                        if (st == 0) {
                                o->algo = cand[i];
                                break;
                        }
                }
                if (first_call == NULL) {
                        first_call = call;
                        first_st = st;
                }
                if (i == 0 && algo_v7 != NULL) {
                        gw_fwd_perf perf[8];
                        int got = 0, j;

                        memset(perf, 0, sizeof(perf));
                        if (algo_v7(o->env->handle, xd, wd, cd, yd, 8, &got, perf) != 0)
                                got = 0;
                        if (got > 8)
                                got = 8;
                        for (j = 0; j < got && ncand < (int)CC_ARRAY_LEN(cand); j++)
                                if (perf[j].status == 0 && perf[j].algo != GW_FWD_IMPLICIT_GEMM && perf[j].algo >= 0 &&
                                    perf[j].algo < 16 && (o->env->cudnn_major < 8 || perf[j].math_type == GW_FMA_MATH))
                                        cand[ncand++] = perf[j].algo;
                }
        }
        if (o->algo < 0) {
                char call[160];

                snprintf(call, sizeof(call), "%s (IMPLICIT_GEMM%s)", first_call != NULL ? first_call : "?",
                         ncand > 1 ? ", and the heuristic's other algorithms after it" : "");
                gw_dn(o, first_st != 0 ? first_st : st, call);
                goto done;
        }
        if (gw_clock_stop(o, "cudnnConvolutionForward") < 0 ||
            gw_copy(o, cv.hy, cv.dy, ny * sizeof(float), GW_CUDA_MEMCPY_D2H, "y") < 0)
                goto done;
        gw_compare(o, "the convolution output", cv.hy, cv.ref, ny, 1.0, GW_TOL_CONV);
done:
        rv = 0;
out:
        gw_release(o);
        conv_free(&cv);
        return rv;
}

/* (2) Batch normalization forward (inference, spatial) then ReLU: two calls. */
#define BN_N 2
#define BN_C 8
#define BN_H 8
#define BN_W 8
#define BN_EPS 1e-4 /* above CUDNN_BN_MIN_EPSILON of every major (1e-5, 0 in 9) */

static int gw_bn_act(gw_op *o, gw_rng *rng, cc_error *err)
{
        const size_t nx = (size_t)BN_N * BN_C * BN_H * BN_W, nc = BN_C;
        const float alpha = 1.0f, beta = 0.0f;
        fn_dn_create t_create, a_create;
        fn_dn_destroy t_destroy, a_destroy;
        fn_dn_set_tensor4d set_t4d;
        fn_dn_bn_infer bn;
        fn_dn_set_act set_act;
        fn_dn_act_fwd act;
        float *hx = NULL, *hp = NULL, *ht = NULL, *hy = NULL;
        double *ref_t = NULL, *ref_y = NULL;
        void *xd, *pd, *ad, *dx, *dgamma, *dbeta, *dmean, *dvar, *dt, *dy;
        int rv = -1;

        t_create = (fn_dn_create)gw_sym(o, GW_LIB_OPS, "cudnnCreateTensorDescriptor", 0);
        t_destroy = (fn_dn_destroy)gw_sym(o, GW_LIB_OPS, "cudnnDestroyTensorDescriptor", 0);
        set_t4d = (fn_dn_set_tensor4d)gw_sym(o, GW_LIB_OPS, "cudnnSetTensor4dDescriptor", 0);
        bn = (fn_dn_bn_infer)gw_sym(o, GW_LIB_OPS, "cudnnBatchNormalizationForwardInference", 0);
        a_create = (fn_dn_create)gw_sym(o, GW_LIB_OPS, "cudnnCreateActivationDescriptor", 0);
        a_destroy = (fn_dn_destroy)gw_sym(o, GW_LIB_OPS, "cudnnDestroyActivationDescriptor", 0);
        set_act = (fn_dn_set_act)gw_sym(o, GW_LIB_OPS, "cudnnSetActivationDescriptor", 0);
        act = (fn_dn_act_fwd)gw_sym(o, GW_LIB_OPS, "cudnnActivationForward", 0);
        if (o->state != GW_PASSED) {
                rv = 0;
                goto out;
        }

        hx = cc_calloc(err, nx, sizeof(*hx));
        hp = cc_calloc(err, 4 * nc, sizeof(*hp)); /* gamma, beta, mean, var */
        ht = cc_calloc(err, nx, sizeof(*ht));
        hy = cc_calloc(err, nx, sizeof(*hy));
        ref_t = cc_calloc(err, nx, sizeof(*ref_t));
        ref_y = cc_calloc(err, nx, sizeof(*ref_y));
        if (hx == NULL || hp == NULL || ht == NULL || hy == NULL || ref_t == NULL || ref_y == NULL)
                goto out;
        if (gw_fill(o, rng, hx, nx, -1.0f, 1.0f, "batch normalization inputs") < 0 ||
            gw_fill(o, rng, hp, nc, -1.0f, 1.0f, "scales") < 0 ||
            gw_fill(o, rng, hp + nc, nc, -1.0f, 1.0f, "biases") < 0 ||
            gw_fill(o, rng, hp + 2 * nc, nc, -0.5f, 0.5f, "means") < 0 ||
            gw_fill(o, rng, hp + 3 * nc, nc, 0.25f, 1.25f, "variances") < 0) {
                rv = 0;
                goto out;
        }
        cc_ref_bn_act(hx, hp, hp + nc, hp + 2 * nc, hp + 3 * nc, BN_EPS, 0, ref_t, BN_N, BN_C, BN_H * BN_W);
        cc_ref_bn_act(hx, hp, hp + nc, hp + 2 * nc, hp + 3 * nc, BN_EPS, 1, ref_y, BN_N, BN_C, BN_H * BN_W);

        gw_begin(o, "batchnorm_activation");
        xd = gw_desc(o, t_create, t_destroy, "cudnnCreateTensorDescriptor");
        pd = gw_desc(o, t_create, t_destroy, "cudnnCreateTensorDescriptor");
        ad = gw_desc(o, a_create, a_destroy, "cudnnCreateActivationDescriptor");
        if (o->state != GW_PASSED)
                goto done;
        if (gw_dn(o, set_t4d(xd, GW_TENSOR_NCHW, GW_DATA_FLOAT, BN_N, BN_C, BN_H, BN_W),
                  "cudnnSetTensor4dDescriptor (x)") < 0 ||
            gw_dn(o, set_t4d(pd, GW_TENSOR_NCHW, GW_DATA_FLOAT, 1, BN_C, 1, 1),
                  "cudnnSetTensor4dDescriptor (scale, bias, mean, variance)") < 0 ||
            gw_dn(o, set_act(ad, GW_ACTIVATION_RELU, GW_PROPAGATE_NAN, 0.0), "cudnnSetActivationDescriptor") < 0)
                goto done;

        dx = gw_dalloc(o, nx * sizeof(float), "x");
        dgamma = gw_dalloc(o, nc * sizeof(float), "scale");
        dbeta = gw_dalloc(o, nc * sizeof(float), "bias");
        dmean = gw_dalloc(o, nc * sizeof(float), "mean");
        dvar = gw_dalloc(o, nc * sizeof(float), "variance");
        dt = gw_dalloc(o, nx * sizeof(float), "the normalized tensor");
        dy = gw_dalloc(o, nx * sizeof(float), "y");
        if (gw_copy(o, dx, hx, nx * sizeof(float), GW_CUDA_MEMCPY_H2D, "x") < 0 ||
            gw_copy(o, dgamma, hp, nc * sizeof(float), GW_CUDA_MEMCPY_H2D, "scale") < 0 ||
            gw_copy(o, dbeta, hp + nc, nc * sizeof(float), GW_CUDA_MEMCPY_H2D, "bias") < 0 ||
            gw_copy(o, dmean, hp + 2 * nc, nc * sizeof(float), GW_CUDA_MEMCPY_H2D, "mean") < 0 ||
            gw_copy(o, dvar, hp + 3 * nc, nc * sizeof(float), GW_CUDA_MEMCPY_H2D, "variance") < 0 ||
            gw_poison(o, dt, nx * sizeof(float), "the normalized tensor") < 0 ||
            gw_poison(o, dy, nx * sizeof(float), "y") < 0 || gw_clock_start(o) < 0)
                goto done;
        if (gw_dn(o,
                  bn(o->env->handle, GW_BATCHNORM_SPATIAL, &alpha, &beta, xd, dx, xd, dt, pd, dgamma, dbeta, dmean,
                     dvar, BN_EPS),
                  "cudnnBatchNormalizationForwardInference") < 0 ||
            gw_dn(o, act(o->env->handle, ad, &alpha, xd, dt, &beta, xd, dy), "cudnnActivationForward") < 0 ||
            gw_clock_stop(o, "cudnnActivationForward") < 0 ||
            gw_copy(o, ht, dt, nx * sizeof(float), GW_CUDA_MEMCPY_D2H, "the normalized tensor") < 0 ||
            gw_copy(o, hy, dy, nx * sizeof(float), GW_CUDA_MEMCPY_D2H, "y") < 0)
                goto done;
        gw_compare(o, "the batch normalization output", ht, ref_t, nx, 1.0, GW_TOL_BN);
        gw_compare(o, "the activation output", hy, ref_y, nx, 1.0, GW_TOL_BN);
done:
        rv = 0;
out:
        gw_release(o);
        free(hx);
        free(hp);
        free(ht);
        free(hy);
        free(ref_t);
        free(ref_y);
        return rv;
}

/* (3) Softmax over channels, accurate (max subtracted). */
#define SM_N 2
#define SM_C 16
#define SM_H 4
#define SM_W 4

static int gw_softmax(gw_op *o, gw_rng *rng, cc_error *err)
{
        const size_t nx = (size_t)SM_N * SM_C * SM_H * SM_W;
        const float alpha = 1.0f, beta = 0.0f;
        fn_dn_create t_create;
        fn_dn_destroy t_destroy;
        fn_dn_set_tensor4d set_t4d;
        fn_dn_softmax_fwd softmax;
        float *hx = NULL, *hy = NULL;
        double *ref = NULL;
        void *xd, *dx, *dy;
        int rv = -1;

        t_create = (fn_dn_create)gw_sym(o, GW_LIB_OPS, "cudnnCreateTensorDescriptor", 0);
        t_destroy = (fn_dn_destroy)gw_sym(o, GW_LIB_OPS, "cudnnDestroyTensorDescriptor", 0);
        set_t4d = (fn_dn_set_tensor4d)gw_sym(o, GW_LIB_OPS, "cudnnSetTensor4dDescriptor", 0);
        softmax = (fn_dn_softmax_fwd)gw_sym(o, GW_LIB_OPS, "cudnnSoftmaxForward", 0);
        if (o->state != GW_PASSED) {
                rv = 0;
                goto out;
        }

        hx = cc_calloc(err, nx, sizeof(*hx));
        hy = cc_calloc(err, nx, sizeof(*hy));
        ref = cc_calloc(err, nx, sizeof(*ref));
        if (hx == NULL || hy == NULL || ref == NULL)
                goto out;
        if (gw_fill(o, rng, hx, nx, -1.0f, 1.0f, "softmax inputs") < 0) {
                rv = 0;
                goto out;
        }
        cc_ref_softmax(hx, ref, SM_N, SM_C, SM_H * SM_W);

        gw_begin(o, "softmax");
        xd = gw_desc(o, t_create, t_destroy, "cudnnCreateTensorDescriptor");
        if (o->state != GW_PASSED)
                goto done;
        if (gw_dn(o, set_t4d(xd, GW_TENSOR_NCHW, GW_DATA_FLOAT, SM_N, SM_C, SM_H, SM_W), "cudnnSetTensor4dDescriptor") <
            0)
                goto done;
        dx = gw_dalloc(o, nx * sizeof(float), "x");
        dy = gw_dalloc(o, nx * sizeof(float), "y");
        if (gw_copy(o, dx, hx, nx * sizeof(float), GW_CUDA_MEMCPY_H2D, "x") < 0 ||
            gw_poison(o, dy, nx * sizeof(float), "y") < 0 || gw_clock_start(o) < 0)
                goto done;
        if (gw_dn(o,
                  softmax(o->env->handle, GW_SOFTMAX_ACCURATE, GW_SOFTMAX_MODE_CHANNEL, &alpha, xd, dx, &beta, xd, dy),
                  "cudnnSoftmaxForward") < 0 ||
            gw_clock_stop(o, "cudnnSoftmaxForward") < 0 ||
            gw_copy(o, hy, dy, nx * sizeof(float), GW_CUDA_MEMCPY_D2H, "y") < 0)
                goto done;
        gw_compare(o, "the softmax output", hy, ref, nx, 1e-3, GW_TOL_SOFTMAX);
done:
        rv = 0;
out:
        gw_release(o);
        free(hx);
        free(hy);
        free(ref);
        return rv;
}

/* (4) RNN forward (v8 API): one layer, unidirectional, tanh cell, linear
 * input, both biases, fp32, inference. */
#define RN_SEQ 5
#define RN_BATCH 2
#define RN_IN 4
#define RN_HID 6
#define RN_WSCALE 0.4f /* about 1/sqrt(hidden), as frameworks initialise */

/* Copy one weight matrix (rows x cols) or bias (rows, cols == 1) out of the
 * host copy of the weight space, at the place and in the layout that
 * cudnnGetRNNWeightParams reported, into a dense row-major array. */
static int gw_rnn_param(gw_op *o, fn_dn_get_tensornd get_nd, void *desc, const void *addr, const void *dev_ws,
                        size_t ws_bytes, const float *host_ws, int rows, int cols, float *out, const char *what)
{
        int dtype = -1, nb = 0, dims[8], strides[8], r, c, s_row, s_col;
        uintptr_t a = (uintptr_t)addr, base = (uintptr_t)dev_ws;
        size_t off, span, nfloat = ws_bytes / sizeof(float);

        memset(dims, 0, sizeof(dims));
        memset(strides, 0, sizeof(strides));
        if (addr == NULL) {
                gw_fail(o, "cudnnGetRNNWeightParams gave no address for %s", what);
                return -1;
        }
        if (gw_dn(o, get_nd(desc, 8, &dtype, &nb, dims, strides), "cudnnGetTensorNdDescriptor") < 0)
                return -1;
        if (nb != 3 || dtype != GW_DATA_FLOAT || dims[0] != 1) {
                gw_fail(o,
                        "cudnnGetRNNWeightParams described %s as %d dimensions of type %d (%dx%dx%d), expected 1x%dx%d "
                        "float",
                        what, nb, dtype, dims[0], dims[1], dims[2], rows, cols);
                return -1;
        }
        if (dims[1] == rows && dims[2] == cols) {
                s_row = strides[1];
                s_col = strides[2];
        } else if (cols == 1 && dims[1] == 1 && dims[2] == rows) { /* a vector laid the other way */
                s_row = strides[2];
                s_col = 0;
        } else {
                gw_fail(o, "cudnnGetRNNWeightParams described %s as 1x%dx%d, expected 1x%dx%d", what, dims[1], dims[2],
                        rows, cols);
                return -1;
        }
        if (s_row < 0 || s_col < 0 || s_row > (1 << 24) || s_col > (1 << 24)) {
                gw_fail(o, "cudnnGetRNNWeightParams gave %s strides %d and %d", what, s_row, s_col);
                return -1;
        }
        if (a < base || (a - base) % sizeof(float) != 0 || (a - base) / sizeof(float) >= nfloat) {
                gw_fail(o, "cudnnGetRNNWeightParams put %s outside the %zu-byte weight space", what, ws_bytes);
                return -1;
        }
        off = (size_t)(a - base) / sizeof(float);
        span = (size_t)(rows - 1) * (size_t)s_row + (size_t)(cols - 1) * (size_t)s_col + 1;
        if (span > nfloat - off) {
                gw_fail(o, "cudnnGetRNNWeightParams laid %s past the end of the %zu-byte weight space", what, ws_bytes);
                return -1;
        }
        for (r = 0; r < rows; r++)
                for (c = 0; c < cols; c++)
                        out[(size_t)r * cols + c] = host_ws[off + (size_t)r * s_row + (size_t)c * s_col];
        return 0;
}

static int gw_rnn(gw_op *o, gw_rng *rng, cc_error *err)
{
        const size_t nx = (size_t)RN_SEQ * RN_BATCH * RN_IN, ny = (size_t)RN_SEQ * RN_BATCH * RN_HID,
                     nh = (size_t)RN_BATCH * RN_HID;
        static const int hdims[3] = {1, RN_BATCH, RN_HID}, hstrides[3] = {RN_BATCH * RN_HID, RN_HID, 1};
        int seqlen[RN_BATCH], i, rv = -1;
        fn_dn_create t_create, d_create, r_create, rd_create;
        fn_dn_destroy t_destroy, d_destroy, r_destroy, rd_destroy;
        fn_dn_set_tensornd set_nd;
        fn_dn_get_tensornd get_nd;
        fn_dn_dropout_states drop_size;
        fn_dn_set_dropout set_drop;
        fn_dn_set_rnn_v8 set_rnn;
        fn_dn_set_rnn_data set_data;
        fn_dn_rnn_weight_space ws_size;
        fn_dn_rnn_temp_space temp_size;
        fn_dn_rnn_weight_params params;
        fn_dn_rnn_fwd fwd;
        float *hx = NULL, *hhx = NULL, *hws = NULL, *hy = NULL, *hhy = NULL, *mats = NULL;
        float *w_in, *w_rec, *b_in, *b_rec;
        double *ref_y = NULL, *ref_hy = NULL;
        void *dd, *rd, *xdd, *ydd, *hd, *dstates, *dws, *dx, *dhx, *dy, *dhy, *dseq, *dwork, *dreserve;
        size_t states_bytes = 0, ws_bytes = 0, work_bytes = 0, reserve_bytes = 0;
        gw_dnst st;

        /* cuDNN 7's RNN API is another one; an unknown major (0) tries the v8
         * API, whose entry points then decide. */
        if (o->env->cudnn_major > 0 && o->env->cudnn_major < 8) {
                gw_notrun(o, "cuDNN %d has no cudnnRNNForward (the v8 RNN API); its older RNN API is not used",
                          o->env->cudnn_major);
                rv = 0;
                goto out;
        }
        t_create = (fn_dn_create)gw_sym(o, GW_LIB_OPS, "cudnnCreateTensorDescriptor", 0);
        t_destroy = (fn_dn_destroy)gw_sym(o, GW_LIB_OPS, "cudnnDestroyTensorDescriptor", 0);
        set_nd = (fn_dn_set_tensornd)gw_sym(o, GW_LIB_OPS, "cudnnSetTensorNdDescriptor", 0);
        get_nd = (fn_dn_get_tensornd)gw_sym(o, GW_LIB_OPS, "cudnnGetTensorNdDescriptor", 0);
        d_create = (fn_dn_create)gw_sym(o, GW_LIB_OPS, "cudnnCreateDropoutDescriptor", 0);
        d_destroy = (fn_dn_destroy)gw_sym(o, GW_LIB_OPS, "cudnnDestroyDropoutDescriptor", 0);
        drop_size = (fn_dn_dropout_states)gw_sym(o, GW_LIB_OPS, "cudnnDropoutGetStatesSize", 0);
        set_drop = (fn_dn_set_dropout)gw_sym(o, GW_LIB_OPS, "cudnnSetDropoutDescriptor", 0);
        r_create = (fn_dn_create)gw_sym(o, GW_LIB_ADV, "cudnnCreateRNNDescriptor", 0);
        r_destroy = (fn_dn_destroy)gw_sym(o, GW_LIB_ADV, "cudnnDestroyRNNDescriptor", 0);
        set_rnn = (fn_dn_set_rnn_v8)gw_sym(o, GW_LIB_ADV, "cudnnSetRNNDescriptor_v8", 0);
        rd_create = (fn_dn_create)gw_sym(o, GW_LIB_ADV, "cudnnCreateRNNDataDescriptor", 0);
        rd_destroy = (fn_dn_destroy)gw_sym(o, GW_LIB_ADV, "cudnnDestroyRNNDataDescriptor", 0);
        set_data = (fn_dn_set_rnn_data)gw_sym(o, GW_LIB_ADV, "cudnnSetRNNDataDescriptor", 0);
        ws_size = (fn_dn_rnn_weight_space)gw_sym(o, GW_LIB_ADV, "cudnnGetRNNWeightSpaceSize", 0);
        temp_size = (fn_dn_rnn_temp_space)gw_sym(o, GW_LIB_ADV, "cudnnGetRNNTempSpaceSizes", 0);
        params = (fn_dn_rnn_weight_params)gw_sym(o, GW_LIB_ADV, "cudnnGetRNNWeightParams", 0);
        fwd = (fn_dn_rnn_fwd)gw_sym(o, GW_LIB_ADV, "cudnnRNNForward", 0);
        if (o->state != GW_PASSED) {
                rv = 0;
                goto out;
        }

        hx = cc_calloc(err, nx, sizeof(*hx));
        hhx = cc_calloc(err, nh, sizeof(*hhx));
        hy = cc_calloc(err, ny, sizeof(*hy));
        hhy = cc_calloc(err, nh, sizeof(*hhy));
        mats = cc_calloc(err, (size_t)RN_HID * (RN_IN + RN_HID + 2), sizeof(*mats));
        ref_y = cc_calloc(err, ny, sizeof(*ref_y));
        ref_hy = cc_calloc(err, nh, sizeof(*ref_hy));
        if (hx == NULL || hhx == NULL || hy == NULL || hhy == NULL || mats == NULL || ref_y == NULL || ref_hy == NULL)
                goto out;
        w_in = mats;
        w_rec = w_in + RN_HID * RN_IN;
        b_in = w_rec + RN_HID * RN_HID;
        b_rec = b_in + RN_HID;
        if (gw_fill(o, rng, hx, nx, -1.0f, 1.0f, "RNN inputs") < 0 ||
            gw_fill(o, rng, hhx, nh, -1.0f, 1.0f, "RNN initial hidden states") < 0) {
                rv = 0;
                goto out;
        }
        for (i = 0; i < RN_BATCH; i++)
                seqlen[i] = RN_SEQ;

        gw_begin(o, "rnn_forward");
        /* A dropout descriptor with probability 0: cuDNN 8 and 9 take one in
         * cudnnSetRNNDescriptor_v8 (it drops nothing with one layer). */
        dd = gw_desc(o, d_create, d_destroy, "cudnnCreateDropoutDescriptor");
        if (o->state != GW_PASSED ||
            gw_dn(o, drop_size(o->env->handle, &states_bytes), "cudnnDropoutGetStatesSize") < 0)
                goto done;
        if (states_bytes > GW_MAX_WORKSPACE) {
                gw_fail(o, "cudnnDropoutGetStatesSize asked for %zu bytes", states_bytes);
                goto done;
        }
        dstates = gw_dalloc(o, states_bytes, "the dropout states");
        if (o->state != GW_PASSED ||
            gw_dn(o, set_drop(dd, o->env->handle, 0.0f, dstates, states_bytes, (unsigned long long)o->env->seed),
                  "cudnnSetDropoutDescriptor") < 0)
                goto done;

        rd = gw_desc(o, r_create, r_destroy, "cudnnCreateRNNDescriptor");
        if (o->state != GW_PASSED)
                goto done;
        st =
            set_rnn(rd, GW_RNN_ALGO_STANDARD, GW_RNN_TANH, GW_RNN_DOUBLE_BIAS, GW_UNIDIRECTIONAL, GW_LINEAR_INPUT,
                    GW_DATA_FLOAT, GW_DATA_FLOAT, GW_FMA_MATH, RN_IN, RN_HID, RN_HID, 1, dd, GW_RNN_PADDED_IO_DISABLED);
        o->math = "fma";
        if (st != 0) { /* a library that refuses FMA math for RNNs: its default, with a wider tolerance */
                st = set_rnn(rd, GW_RNN_ALGO_STANDARD, GW_RNN_TANH, GW_RNN_DOUBLE_BIAS, GW_UNIDIRECTIONAL,
                             GW_LINEAR_INPUT, GW_DATA_FLOAT, GW_DATA_FLOAT, GW_DEFAULT_MATH, RN_IN, RN_HID, RN_HID, 1,
                             dd, GW_RNN_PADDED_IO_DISABLED);
                o->math = "default";
        }
        if (gw_dn(o, st, "cudnnSetRNNDescriptor_v8") < 0)
                goto done;

        xdd = gw_desc(o, rd_create, rd_destroy, "cudnnCreateRNNDataDescriptor");
        ydd = gw_desc(o, rd_create, rd_destroy, "cudnnCreateRNNDataDescriptor");
        hd = gw_desc(o, t_create, t_destroy, "cudnnCreateTensorDescriptor");
        if (o->state != GW_PASSED)
                goto done;
        if (gw_dn(o, set_data(xdd, GW_DATA_FLOAT, GW_RNN_SEQ_MAJOR_PACKED, RN_SEQ, RN_BATCH, RN_IN, seqlen, NULL),
                  "cudnnSetRNNDataDescriptor (x)") < 0 ||
            gw_dn(o, set_data(ydd, GW_DATA_FLOAT, GW_RNN_SEQ_MAJOR_PACKED, RN_SEQ, RN_BATCH, RN_HID, seqlen, NULL),
                  "cudnnSetRNNDataDescriptor (y)") < 0 ||
            gw_dn(o, set_nd(hd, GW_DATA_FLOAT, 3, hdims, hstrides), "cudnnSetTensorNdDescriptor (h)") < 0 ||
            gw_dn(o, ws_size(o->env->handle, rd, &ws_bytes), "cudnnGetRNNWeightSpaceSize") < 0 ||
            gw_dn(o, temp_size(o->env->handle, rd, GW_FWD_MODE_INFERENCE, xdd, &work_bytes, &reserve_bytes),
                  "cudnnGetRNNTempSpaceSizes") < 0)
                goto done;
        if (ws_bytes < sizeof(float) || ws_bytes > GW_MAX_WEIGHTS || work_bytes > GW_MAX_WORKSPACE ||
            reserve_bytes > GW_MAX_WORKSPACE) {
                gw_fail(o, "implausible RNN space sizes: weights %zu, work %zu, reserve %zu bytes", ws_bytes,
                        work_bytes, reserve_bytes);
                goto done;
        }

        /* The whole weight space random (what lies between the matrices too),
         * uploaded; then each matrix and bias read back from the host copy
         * where cuDNN says it is. */
        hws = cc_calloc(err, ws_bytes / sizeof(float) + 1, sizeof(*hws));
        if (hws == NULL) {
                rv = -1;
                goto out;
        }
        if (gw_fill(o, rng, hws, ws_bytes / sizeof(float), -RN_WSCALE, RN_WSCALE, "RNN weights") < 0)
                goto done;
        dws = gw_dalloc(o, ws_bytes, "the RNN weight space");
        if (gw_copy(o, dws, hws, ws_bytes, GW_CUDA_MEMCPY_H2D, "the RNN weight space") < 0)
                goto done;
        for (i = 0; i < 2; i++) {
                void *md = gw_desc(o, t_create, t_destroy, "cudnnCreateTensorDescriptor");
                void *bd = gw_desc(o, t_create, t_destroy, "cudnnCreateTensorDescriptor");
                void *maddr = NULL, *baddr = NULL;
                int cols = i == 0 ? RN_IN : RN_HID;

                if (o->state != GW_PASSED ||
                    gw_dn(o, params(o->env->handle, rd, 0, ws_bytes, dws, i, md, &maddr, bd, &baddr),
                          i == 0 ? "cudnnGetRNNWeightParams (input weights)"
                                 : "cudnnGetRNNWeightParams (recurrent weights)") < 0 ||
                    gw_rnn_param(o, get_nd, md, maddr, dws, ws_bytes, hws, RN_HID, cols, i == 0 ? w_in : w_rec,
                                 i == 0 ? "the input weight matrix" : "the recurrent weight matrix") < 0 ||
                    gw_rnn_param(o, get_nd, bd, baddr, dws, ws_bytes, hws, RN_HID, 1, i == 0 ? b_in : b_rec,
                                 i == 0 ? "the input bias" : "the recurrent bias") < 0)
                        goto done;
        }
        cc_ref_rnn_tanh(hx, hhx, w_in, b_in, w_rec, b_rec, ref_y, ref_hy, RN_SEQ, RN_BATCH, RN_IN, RN_HID);

        dx = gw_dalloc(o, nx * sizeof(float), "x");
        dhx = gw_dalloc(o, nh * sizeof(float), "hx");
        dy = gw_dalloc(o, ny * sizeof(float), "y");
        dhy = gw_dalloc(o, nh * sizeof(float), "hy");
        dseq = gw_dalloc(o, sizeof(seqlen), "the sequence lengths");
        dwork = gw_dalloc(o, work_bytes, "the RNN work space");
        dreserve = reserve_bytes > 0 ? gw_dalloc(o, reserve_bytes, "the RNN reserve space") : NULL;
        if (gw_copy(o, dx, hx, nx * sizeof(float), GW_CUDA_MEMCPY_H2D, "x") < 0 ||
            gw_copy(o, dhx, hhx, nh * sizeof(float), GW_CUDA_MEMCPY_H2D, "hx") < 0 ||
            gw_copy(o, dseq, seqlen, sizeof(seqlen), GW_CUDA_MEMCPY_H2D, "the sequence lengths") < 0 ||
            gw_poison(o, dy, ny * sizeof(float), "y") < 0 || gw_poison(o, dhy, nh * sizeof(float), "hy") < 0 ||
            gw_clock_start(o) < 0)
                goto done;
        /* cDesc is ignored for a tanh cell; hDesc stands in for it. */
        if (gw_dn(o,
                  fwd(o->env->handle, rd, GW_FWD_MODE_INFERENCE, dseq, xdd, dx, ydd, dy, hd, dhx, dhy, hd, NULL, NULL,
                      ws_bytes, dws, work_bytes, dwork, reserve_bytes, dreserve),
                  "cudnnRNNForward") < 0 ||
            gw_clock_stop(o, "cudnnRNNForward") < 0 ||
            gw_copy(o, hy, dy, ny * sizeof(float), GW_CUDA_MEMCPY_D2H, "y") < 0 ||
            gw_copy(o, hhy, dhy, nh * sizeof(float), GW_CUDA_MEMCPY_D2H, "hy") < 0)
                goto done;
        {
                double tol = strcmp(o->math, "fma") == 0 ? GW_TOL_RNN_FMA : GW_TOL_RNN_DEFAULT;

                gw_compare(o, "the RNN output y", hy, ref_y, ny, 1.0, tol);
                gw_compare(o, "the final hidden state hy", hhy, ref_hy, nh, 1.0, tol);
        }
done:
        rv = 0;
out:
        gw_release(o);
        free(hx);
        free(hhx);
        free(hws);
        free(hy);
        free(hhy);
        free(mats);
        free(ref_y);
        free(ref_hy);
        return rv;
}

/* (5) The same convolution through cuDNN 9's backend (graph) API, the path
 * that cudnn-frontend and PyTorch take and the one that stays where the
 * legacy convolution API is gone: tensors, a convolution descriptor, a
 * CONVOLUTION_FORWARD operation, an operation graph, the engine heuristics
 * (mode A, then the fallback list), an execution plan from the first engine
 * config that finalizes and whose workspace can be allocated, a variant pack
 * binding the device pointers by unique id, cudnnBackendExecute.
 *
 * Engine configs are tried in the heuristic's order within three ranks:
 * plain fp32 arithmetic first; then FFT and Winograd engines and engines
 * whose notes cannot be read (their fp32 errors are still near 1e-6);
 * tensor-core engines last (CUDNN_NUMERICAL_NOTE_TENSOR_CORE,
 * DOWN_CONVERT_INPUTS or REDUCED_PRECISION_REDUCTION: TF32 for fp32 data),
 * and within a rank those that need no run-time compilation first. The
 * tolerance is GW_TOL_CONV unless a tensor-core engine ran: then
 * GW_TOL_CONV_TF32. TF32 keeps 10 of the 23 mantissa bits: each input is
 * off by up to 2^-11 relative, each product by up to 2^-10, so an output's
 * error is bounded by 2^-10 * sum |x w| over its 27 products: 6.6e-3 for
 * the average sum (27/4 for inputs uniform in [-1,1]), 2.6e-2 only if every
 * input were near +-1 and every rounding went the same way. The roundings
 * have random signs, so errors seen are about 1e-3 (3.5 standard deviations
 * over 4096 outputs: 2.5e-3); 1e-2 still fails a missing or wrong product
 * (0.25 on average). */
#define GW_TOL_CONV_TF32 1e-2
#define GW_MAX_CFG 48  /* engine configs taken from each heuristic */
#define GW_MAX_PLANS 8 /* execution plans tried from each heuristic */
#define GW_UID_X 101
#define GW_UID_W 102
#define GW_UID_Y 103
#define GW_ALIGN 16 /* cudaMalloc memory is aligned to 256 bytes */

typedef struct gw_bk {
        gw_op *o;
        fn_bk_create create;
        fn_dn_destroy destroy;
        fn_bk_finalize finalize;
        fn_bk_set set;
        fn_bk_get get;
        fn_bk_execute execute;
        fn_dn_last_error last_error; /* optional: cudnnGetLastErrorString */
        /* the first reason an engine config was passed over */
        char first[360];
        int first_st;
} gw_bk;

typedef struct gw_cand {
        void *cfg;
        int index;      /* its place in the heuristic's list */
        int64_t engine; /* global index, -1: unknown */
        int notes_known;
        unsigned notes; /* bit n: CUDNN_NUMERICAL_NOTE n */
        int rtc;        /* CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION */
        int rank;       /* 0: plain fp32; 1: FFT, Winograd or notes unknown; 2: tensor cores (TF32) */
} gw_cand;

/* "call returned CUDNN_STATUS_X (n): the library's last error message". */
static void bk_describe(gw_bk *b, gw_dnst st, const char *call, char *out, size_t size)
{
        const char *name = b->o->dn_errstr != NULL ? b->o->dn_errstr(st) : NULL;
        char last[256];

        last[0] = '\0';
        if (b->last_error != NULL) {
                b->last_error(last, sizeof(last));
                last[sizeof(last) - 1] = '\0';
                last[strcspn(last, "\r\n")] = '\0'; /* its first line: the rest is a log */
        }
        snprintf(out, size, "%s returned %.80s (%d)%s%.160s", call, name != NULL ? name : "a cuDNN error", st,
                 last[0] != '\0' ? ": " : "", last);
}

static void bk_fail_text(gw_bk *b, gw_dnst st, const char *text)
{
        if (b->o->state != GW_PASSED)
                return;
        gw_fail(b->o, "%s", text);
        if (st != 0) {
                b->o->has_dn_status = 1;
                b->o->dn_status = st;
        }
}

/* A failed call that fails the operation. */
static int bk_dn(gw_bk *b, gw_dnst st, const char *call)
{
        char text[400];

        if (st == 0)
                return 0;
        if (b->o->state != GW_PASSED)
                return -1;
        bk_describe(b, st, call, text, sizeof(text));
        bk_fail_text(b, st, text);
        return -1;
}

/* A failed call that only passes over one engine config or heuristic: the
 * first one is kept for the report when none can run. */
static void bk_passed_over(gw_bk *b, gw_dnst st, const char *call)
{
        if (b->first[0] != '\0')
                return;
        if (st != 0) {
                bk_describe(b, st, call, b->first, sizeof(b->first));
        } else {
                snprintf(b->first, sizeof(b->first), "%s", call);
        }
        b->first_st = st;
}

static void *bk_new(gw_bk *b, int type, const char *what)
{
        gw_op *o = b->o;
        char call[120];
        void *d = NULL;

        if (o->state != GW_PASSED)
                return NULL;
        if (o->ndesc >= GW_MAX_DESC) {
                gw_fail(o, "internal: more than %d descriptors", GW_MAX_DESC);
                return NULL;
        }
        snprintf(call, sizeof(call), "cudnnBackendCreateDescriptor (%s)", what);
        if (bk_dn(b, b->create(type, &d), call) < 0)
                return NULL;
        if (d == NULL) {
                gw_fail(o, "%s returned success and no descriptor", call);
                return NULL;
        }
        o->desc[o->ndesc] = d;
        o->desc_free[o->ndesc] = b->destroy;
        o->ndesc++;
        return d;
}

/* Destroy the newest descriptor now (one that was passed over). */
static void bk_drop(gw_bk *b, void *d)
{
        gw_op *o = b->o;

        if (d != NULL && o->ndesc > 0 && o->desc[o->ndesc - 1] == d) {
                o->ndesc--;
                o->desc_free[o->ndesc](d);
        }
}

static int bk_set_attr(gw_bk *b, void *d, int name, const char *attr, int type, int64_t n, const void *v,
                       const char *what)
{
        char call[160];

        if (b->o->state != GW_PASSED)
                return -1;
        snprintf(call, sizeof(call), "cudnnBackendSetAttribute(CUDNN_%s) of the %s", attr, what);
        return bk_dn(b, b->set(d, name, type, n, v), call);
}

/* The attribute's name in the message is CUDNN_ATTR_..., from GW_ATTR_... */
#define BK_SET(b, d, attr, type, n, v, what) bk_set_attr(b, d, attr, &(#attr)[3], type, n, v, what)

static int bk_fin(gw_bk *b, void *d, const char *what)
{
        char call[120];

        if (b->o->state != GW_PASSED)
                return -1;
        snprintf(call, sizeof(call), "cudnnBackendFinalize (%s)", what);
        return bk_dn(b, b->finalize(d), call);
}

/* A finalized fp32 tensor descriptor, NCHW with packed strides given
 * explicitly. */
static void *bk_tensor(gw_bk *b, int64_t uid, int64_t n, int64_t c, int64_t h, int64_t w, const char *what)
{
        const int64_t dims[4] = {n, c, h, w}, strides[4] = {c * h * w, h * w, w, 1}, align = GW_ALIGN;
        const int dtype = GW_DATA_FLOAT;
        void *t = bk_new(b, GW_BK_TENSOR, what);

        if (t == NULL || BK_SET(b, t, GW_ATTR_TENSOR_DATA_TYPE, GW_TYPE_DATA_TYPE, 1, &dtype, what) < 0 ||
            BK_SET(b, t, GW_ATTR_TENSOR_DIMENSIONS, GW_TYPE_INT64, 4, dims, what) < 0 ||
            BK_SET(b, t, GW_ATTR_TENSOR_STRIDES, GW_TYPE_INT64, 4, strides, what) < 0 ||
            BK_SET(b, t, GW_ATTR_TENSOR_UNIQUE_ID, GW_TYPE_INT64, 1, &uid, what) < 0 ||
            BK_SET(b, t, GW_ATTR_TENSOR_BYTE_ALIGNMENT, GW_TYPE_INT64, 1, &align, what) < 0 || bk_fin(b, t, what) < 0)
                return NULL;
        return t;
}

/* What an engine config's engine says of itself: global index, numerical
 * and behaviour notes. What cannot be read stays unknown. */
static void bk_inspect(gw_bk *b, gw_cand *c)
{
        const unsigned tf32 =
            (1u << GW_NOTE_TENSOR_CORE) | (1u << GW_NOTE_DOWN_CONVERT_INPUTS) | (1u << GW_NOTE_REDUCED_PRECISION);
        const unsigned transform =
            (1u << GW_NOTE_FFT) | (((1u << (GW_NOTE_WINOGRAD_TILE_13x13 + 1)) - 1u) & ~((1u << GW_NOTE_WINOGRAD) - 1u));
        int32_t notes[16], behav[16];
        int64_t n, idx = -1;
        void *eng;
        int i;

        c->engine = -1;
        c->notes_known = 0;
        c->notes = 0;
        c->rtc = 0;
        eng = bk_new(b, GW_BK_ENGINE, "engine");
        if (eng == NULL)
                return;
        n = 0;
        if (b->get(c->cfg, GW_ATTR_ENGINECFG_ENGINE, GW_TYPE_BACKEND_DESCRIPTOR, 1, &n, &eng) == 0 && n == 1) {
                n = 0;
                if (b->get(eng, GW_ATTR_ENGINE_GLOBAL_INDEX, GW_TYPE_INT64, 1, &n, &idx) == 0 && n == 1 && idx >= 0)
                        c->engine = idx;
                n = -1;
                memset(notes, 0, sizeof(notes));
                if (b->get(eng, GW_ATTR_ENGINE_NUMERICAL_NOTE, GW_TYPE_NUMERICAL_NOTE, GW_NOTE_TYPE_COUNT, &n, notes) ==
                        0 &&
                    n >= 0 && n <= GW_NOTE_TYPE_COUNT) {
                        c->notes_known = 1;
                        for (i = 0; i < (int)n; i++)
                                if (notes[i] >= 0 && notes[i] < 32)
                                        c->notes |= 1u << notes[i];
                }
                n = -1;
                memset(behav, 0, sizeof(behav));
                if (b->get(eng, GW_ATTR_ENGINE_BEHAVIOR_NOTE, GW_TYPE_BEHAVIOR_NOTE, GW_BEHAVIOR_TYPE_COUNT, &n,
                           behav) == 0 &&
                    n >= 0 && n <= GW_BEHAVIOR_TYPE_COUNT)
                        for (i = 0; i < (int)n; i++)
                                if (behav[i] == GW_BEHAVIOR_RUNTIME_COMPILATION)
                                        c->rtc = 1;
        }
        bk_drop(b, eng);
        if (c->notes & tf32)
                c->rank = 2;
        else if (!c->notes_known || (c->notes & transform))
                c->rank = 1;
        else
                c->rank = 0;
}

/* Ask the heuristic in `mode` for its engine configs (at most GW_MAX_CFG),
 * read each one's engine and sort them as the comment above says. A failed
 * query is passed over (the fallback list may still serve); -1 only when the
 * operation failed. */
static int bk_heuristic(gw_bk *b, void *graph, int mode, gw_cand *cands, int *ncand, int64_t *total)
{
        const char *what = mode == GW_HEUR_MODE_A ? "engine heuristics, mode A" : "engine heuristics, fallback mode";
        void *h, *cfg[GW_MAX_CFG];
        char call[160];
        int64_t n = -1, got = -1;
        int i, j, want;
        gw_dnst st;

        *ncand = 0;
        *total = 0;
        h = bk_new(b, GW_BK_ENGINEHEUR, what);
        if (h == NULL ||
            BK_SET(b, h, GW_ATTR_ENGINEHEUR_OPERATION_GRAPH, GW_TYPE_BACKEND_DESCRIPTOR, 1, &graph, what) < 0 ||
            BK_SET(b, h, GW_ATTR_ENGINEHEUR_MODE, GW_TYPE_HEUR_MODE, 1, &mode, what) < 0)
                return -1;
        st = b->finalize(h);
        if (st != 0) {
                snprintf(call, sizeof(call), "cudnnBackendFinalize (%s)", what);
                bk_passed_over(b, st, call);
                return 0;
        }
        st = b->get(h, GW_ATTR_ENGINEHEUR_RESULTS, GW_TYPE_BACKEND_DESCRIPTOR, 0, &n, NULL);
        if (st != 0 || n < 0 || n > 1000000) {
                snprintf(call, sizeof(call), "cudnnBackendGetAttribute(CUDNN_ATTR_ENGINEHEUR_RESULTS) of the %s%s",
                         what, st == 0 ? " gave a negative or huge count" : "");
                bk_passed_over(b, st, call);
                return 0;
        }
        *total = n;
        if (n == 0) {
                snprintf(call, sizeof(call), "the %s offered no engine config", what);
                bk_passed_over(b, 0, call);
                return 0;
        }
        want = n < GW_MAX_CFG ? (int)n : GW_MAX_CFG;
        for (i = 0; i < want; i++) {
                cfg[i] = bk_new(b, GW_BK_ENGINECFG, "engine config");
                if (cfg[i] == NULL)
                        return -1;
        }
        st = b->get(h, GW_ATTR_ENGINEHEUR_RESULTS, GW_TYPE_BACKEND_DESCRIPTOR, want, &got, cfg);
        if (st != 0 || got < 0 || got > want) {
                snprintf(call, sizeof(call), "cudnnBackendGetAttribute(CUDNN_ATTR_ENGINEHEUR_RESULTS, %d) of the %s%s",
                         want, what, st == 0 ? " gave an impossible count" : "");
                bk_passed_over(b, st, call);
                return 0;
        }
        if (got == 0) {
                snprintf(call, sizeof(call), "the %s counted %lld engine configs and filled in none", what,
                         (long long)n);
                bk_passed_over(b, 0, call);
                return 0;
        }
        for (i = 0; i < (int)got; i++) {
                gw_cand c;

                memset(&c, 0, sizeof(c));
                c.cfg = cfg[i];
                c.index = i;
                bk_inspect(b, &c);
                if (b->o->state != GW_PASSED)
                        return -1;
                /* insertion, stable: rank, then run-time compilation last */
                for (j = *ncand; j > 0 && cands[j - 1].rank * 2 + cands[j - 1].rtc > c.rank * 2 + c.rtc; j--)
                        cands[j] = cands[j - 1];
                cands[j] = c;
                (*ncand)++;
        }
        return 0;
}

/* An execution plan from one engine config, with its workspace allocated
 * (*ws, *ws_bytes), or NULL when the config is passed over or the operation
 * failed. */
static void *bk_plan(gw_bk *b, const gw_cand *c, void **ws, int64_t *ws_bytes)
{
        gw_op *o = b->o;
        char call[200], who[80];
        void *plan, *p = NULL, *cfg = c->cfg;
        int64_t n = 0, wsb = -1;
        gw_dnst st, st_handle;
        gw_cuerr e;

        *ws = NULL;
        *ws_bytes = 0;
        snprintf(who, sizeof(who), "engine config %d (engine %lld)", c->index, (long long)c->engine);
        plan = bk_new(b, GW_BK_EXECUTION_PLAN, "execution plan");
        if (plan == NULL)
                return NULL;
        /* The handle attribute is deprecated in later 9.x releases: its
         * refusal only matters when the plan then does not finalize. */
        st_handle = b->set(plan, GW_ATTR_EXECUTION_PLAN_HANDLE, GW_TYPE_HANDLE, 1, &o->env->handle);
        st = b->set(plan, GW_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, GW_TYPE_BACKEND_DESCRIPTOR, 1, &cfg);
        if (st != 0) {
                snprintf(call, sizeof(call), "%s: cudnnBackendSetAttribute(CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG)",
                         who);
                goto passed_over;
        }
        st = b->finalize(plan);
        if (st != 0) {
                snprintf(call, sizeof(call), "%s: cudnnBackendFinalize (execution plan)%s", who,
                         st_handle != 0 ? ", after CUDNN_ATTR_EXECUTION_PLAN_HANDLE was refused" : "");
                goto passed_over;
        }
        st = b->get(plan, GW_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, GW_TYPE_INT64, 1, &n, &wsb);
        if (st != 0) {
                snprintf(call, sizeof(call), "%s: cudnnBackendGetAttribute(CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE)",
                         who);
                goto passed_over;
        }
        if (n != 1 || wsb < 0 || (uint64_t)wsb > (uint64_t)GW_MAX_WORKSPACE) {
                snprintf(call, sizeof(call), "%s: its execution plan asked for a workspace of %lld bytes (%lld values)",
                         who, (long long)wsb, (long long)n);
                st = 0;
                goto passed_over;
        }
        if (wsb > 0) {
                if (o->ndev >= GW_MAX_DEV) {
                        gw_fail(o, "internal: more than %d device buffers", GW_MAX_DEV);
                        return NULL;
                }
                e = o->cu_malloc(&p, (size_t)wsb);
                if (e != 0 || p == NULL) {
                        const char *name = o->cu_errname != NULL && e != 0 ? o->cu_errname(e) : NULL;

                        snprintf(call, sizeof(call), "%s: cudaMalloc(%lld bytes) for its workspace failed: %.60s (%d)",
                                 who, (long long)wsb, name != NULL ? name : "no memory", e);
                        st = 0;
                        goto passed_over;
                }
                o->dev[o->ndev++] = p;
        }
        *ws = p;
        *ws_bytes = wsb;
        return plan;
passed_over:
        bk_passed_over(b, st, call);
        bk_drop(b, plan);
        return NULL;
}

/* Try the sorted configs, at most GW_MAX_PLANS: the first plan that works. */
static void *bk_choose(gw_bk *b, const gw_cand *cands, int ncand, int *chosen, void **ws, int64_t *ws_bytes)
{
        void *plan;
        int i;

        *chosen = -1;
        for (i = 0; i < ncand && i < GW_MAX_PLANS && b->o->state == GW_PASSED; i++) {
                plan = bk_plan(b, &cands[i], ws, ws_bytes);
                if (plan != NULL) {
                        *chosen = i;
                        return plan;
                }
        }
        return NULL;
}

static int gw_conv_graph(gw_op *o, gw_rng *rng, cc_error *err)
{
        const size_t ny = (size_t)CV_N * CV_K * CV_OH * CV_OW;
        const int64_t spatial = 2, pads[2] = {CV_PAD, CV_PAD}, strides[2] = {CV_STRIDE, CV_STRIDE},
                      dils[2] = {CV_DIL, CV_DIL}, uids[3] = {GW_UID_X, GW_UID_W, GW_UID_Y};
        const int comp = GW_DATA_FLOAT, conv_mode = GW_CROSS_CORRELATION;
        const float alpha = 1.0f, beta = 0.0f;
        static const char *const modes[2] = {"mode_a", "fallback"};
        static const int mode_ids[2] = {GW_HEUR_MODE_A, GW_HEUR_MODE_FALLBACK};
        gw_bk b;
        gw_cand cands[GW_MAX_CFG];
        struct conv_data cv = {0};
        void *xd, *wd, *yd, *cd, *opd, *graph, *plan = NULL, *pack, *ws = NULL, *ptrs[3];
        int64_t ws_bytes = 0, offered = 0;
        int ncand = 0, chosen = -1, m, tried = 0, r, rv = -1;
        char text[400];
        gw_dnst st, st_handle;

        memset(&b, 0, sizeof(b));
        b.o = o;
        if (o->env->cudnn_major < 9) {
                if (o->env->cudnn_major > 0)
                        gw_notrun(o, "the backend graph API probe needs cuDNN 9 (this is cuDNN %d)",
                                  o->env->cudnn_major);
                else
                        gw_notrun(o, "the backend graph API probe needs cuDNN 9 (the major version is unknown)");
                rv = 0;
                goto out;
        }
        b.create = (fn_bk_create)gw_sym(o, GW_LIB_GRAPH, "cudnnBackendCreateDescriptor", 0);
        b.destroy = (fn_dn_destroy)gw_sym(o, GW_LIB_GRAPH, "cudnnBackendDestroyDescriptor", 0);
        b.set = (fn_bk_set)gw_sym(o, GW_LIB_GRAPH, "cudnnBackendSetAttribute", 0);
        b.get = (fn_bk_get)gw_sym(o, GW_LIB_GRAPH, "cudnnBackendGetAttribute", 0);
        b.finalize = (fn_bk_finalize)gw_sym(o, GW_LIB_GRAPH, "cudnnBackendFinalize", 0);
        b.execute = (fn_bk_execute)gw_sym(o, GW_LIB_GRAPH, "cudnnBackendExecute", 0);
        b.last_error = (fn_dn_last_error)gw_sym(o, GW_LIB_GRAPH, "cudnnGetLastErrorString", 1);
        if (o->state != GW_PASSED) {
                rv = 0;
                goto out;
        }

        r = conv_host(o, rng, &cv, err);
        if (r != 0) {
                rv = r < 0 ? -1 : 0;
                goto out;
        }

        gw_begin(o, "convolution_forward_graph");
        if (b.last_error != NULL) { /* an earlier operation's message is not this one's */
                text[0] = '\0';
                b.last_error(text, sizeof(text));
        }
        xd = bk_tensor(&b, GW_UID_X, CV_N, CV_C, CV_H, CV_W, "tensor x");
        wd = bk_tensor(&b, GW_UID_W, CV_K, CV_C, CV_R, CV_S, "tensor w");
        yd = bk_tensor(&b, GW_UID_Y, CV_N, CV_K, CV_OH, CV_OW, "tensor y");
        cd = bk_new(&b, GW_BK_CONVOLUTION, "convolution descriptor");
        if (o->state != GW_PASSED)
                goto done;
        if (BK_SET(&b, cd, GW_ATTR_CONVOLUTION_SPATIAL_DIMS, GW_TYPE_INT64, 1, &spatial, "convolution descriptor") <
                0 ||
            BK_SET(&b, cd, GW_ATTR_CONVOLUTION_COMP_TYPE, GW_TYPE_DATA_TYPE, 1, &comp, "convolution descriptor") < 0 ||
            BK_SET(&b, cd, GW_ATTR_CONVOLUTION_CONV_MODE, GW_TYPE_CONVOLUTION_MODE, 1, &conv_mode,
                   "convolution descriptor") < 0 ||
            BK_SET(&b, cd, GW_ATTR_CONVOLUTION_PRE_PADDINGS, GW_TYPE_INT64, 2, pads, "convolution descriptor") < 0 ||
            BK_SET(&b, cd, GW_ATTR_CONVOLUTION_POST_PADDINGS, GW_TYPE_INT64, 2, pads, "convolution descriptor") < 0 ||
            BK_SET(&b, cd, GW_ATTR_CONVOLUTION_DILATIONS, GW_TYPE_INT64, 2, dils, "convolution descriptor") < 0 ||
            BK_SET(&b, cd, GW_ATTR_CONVOLUTION_FILTER_STRIDES, GW_TYPE_INT64, 2, strides, "convolution descriptor") <
                0 ||
            bk_fin(&b, cd, "convolution descriptor") < 0)
                goto done;
        opd = bk_new(&b, GW_BK_OPERATION_CONVOLUTION_FORWARD, "convolution forward operation");
        if (opd == NULL ||
            BK_SET(&b, opd, GW_ATTR_OPERATION_CONVOLUTION_FORWARD_X, GW_TYPE_BACKEND_DESCRIPTOR, 1, &xd,
                   "convolution forward operation") < 0 ||
            BK_SET(&b, opd, GW_ATTR_OPERATION_CONVOLUTION_FORWARD_W, GW_TYPE_BACKEND_DESCRIPTOR, 1, &wd,
                   "convolution forward operation") < 0 ||
            BK_SET(&b, opd, GW_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, GW_TYPE_BACKEND_DESCRIPTOR, 1, &yd,
                   "convolution forward operation") < 0 ||
            BK_SET(&b, opd, GW_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, GW_TYPE_BACKEND_DESCRIPTOR, 1, &cd,
                   "convolution forward operation") < 0 ||
            BK_SET(&b, opd, GW_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, GW_TYPE_FLOAT, 1, &alpha,
                   "convolution forward operation") < 0 ||
            BK_SET(&b, opd, GW_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA, GW_TYPE_FLOAT, 1, &beta,
                   "convolution forward operation") < 0 ||
            bk_fin(&b, opd, "convolution forward operation") < 0)
                goto done;
        graph = bk_new(&b, GW_BK_OPERATIONGRAPH, "operation graph");
        if (graph == NULL ||
            BK_SET(&b, graph, GW_ATTR_OPERATIONGRAPH_OPS, GW_TYPE_BACKEND_DESCRIPTOR, 1, &opd, "operation graph") < 0)
                goto done;
        /* The handle: deprecated in later 9.x releases, required by earlier
         * ones; its refusal counts only if the graph then does not finalize. */
        st_handle = b.set(graph, GW_ATTR_OPERATIONGRAPH_HANDLE, GW_TYPE_HANDLE, 1, &o->env->handle);
        if (st_handle != 0)
                bk_describe(&b, st_handle, "cudnnBackendSetAttribute(CUDNN_ATTR_OPERATIONGRAPH_HANDLE)", text,
                            sizeof(text));
        st = b.finalize(graph);
        if (st != 0) {
                if (st_handle != 0)
                        bk_fail_text(&b, st_handle, text);
                else
                        bk_dn(&b, st, "cudnnBackendFinalize (operation graph)");
                goto done;
        }

        if (conv_device(o, &cv) < 0)
                goto done;

        /* Mode A's list first; the fallback list only if none of it runs. */
        for (m = 0; m < 2 && plan == NULL && o->state == GW_PASSED; m++) {
                int64_t total = 0;

                if (bk_heuristic(&b, graph, mode_ids[m], cands, &ncand, &total) < 0)
                        goto done;
                offered += total;
                plan = bk_choose(&b, cands, ncand, &chosen, &ws, &ws_bytes);
                tried += ncand < GW_MAX_PLANS ? ncand : GW_MAX_PLANS;
                if (plan != NULL) {
                        o->heuristic = modes[m];
                        o->engine_total = total;
                        o->engine_config = cands[chosen].index;
                        o->engine = cands[chosen].engine;
                        o->notes_known = cands[chosen].notes_known;
                        o->notes = cands[chosen].notes;
                }
        }
        if (o->state != GW_PASSED)
                goto done;
        if (plan == NULL) {
                snprintf(text, sizeof(text),
                         "no engine config ran the graph (%lld offered, %d tried); the first: %.300s",
                         (long long)offered, tried, b.first[0] != '\0' ? b.first : "?");
                bk_fail_text(&b, b.first_st, text);
                goto done;
        }

        ptrs[0] = cv.dx;
        ptrs[1] = cv.dw;
        ptrs[2] = cv.dy;
        pack = bk_new(&b, GW_BK_VARIANT_PACK, "variant pack");
        if (pack == NULL ||
            BK_SET(&b, pack, GW_ATTR_VARIANT_PACK_UNIQUE_IDS, GW_TYPE_INT64, 3, uids, "variant pack") < 0 ||
            BK_SET(&b, pack, GW_ATTR_VARIANT_PACK_DATA_POINTERS, GW_TYPE_VOID_PTR, 3, ptrs, "variant pack") < 0 ||
            BK_SET(&b, pack, GW_ATTR_VARIANT_PACK_WORKSPACE, GW_TYPE_VOID_PTR, 1, &ws, "variant pack") < 0 ||
            bk_fin(&b, pack, "variant pack") < 0)
                goto done;
        if (gw_poison(o, cv.dy, ny * sizeof(float), "y") < 0 || gw_clock_start(o) < 0 ||
            bk_dn(&b, b.execute(o->env->handle, plan, pack), "cudnnBackendExecute") < 0 ||
            gw_clock_stop(o, "cudnnBackendExecute") < 0 ||
            gw_copy(o, cv.hy, cv.dy, ny * sizeof(float), GW_CUDA_MEMCPY_D2H, "y") < 0)
                goto done;
        gw_compare(o, "the convolution output", cv.hy, cv.ref, ny, 1.0,
                   cands[chosen].rank == 2 ? GW_TOL_CONV_TF32 : GW_TOL_CONV);
done:
        rv = 0;
out:
        gw_release(o);
        conv_free(&cv);
        return rv;
}

/* ---- the result object ------------------------------------------------------ */

/* The engine's numerical notes as an array of names ("tensor_core"...). */
static cc_value *gw_notes_value(unsigned notes, cc_error *err)
{
        static const char *const names[] = {"tensor_core",
                                            "down_convert_inputs",
                                            "reduced_precision_reduction",
                                            "fft",
                                            "nondeterministic",
                                            "winograd",
                                            "winograd_tile_4x4",
                                            "winograd_tile_6x6",
                                            "winograd_tile_13x13",
                                            "strict_nan_prop"};
        cc_value *a = cc_v_array(err);
        unsigned i;

        for (i = 0; a != NULL && i < 32; i++) {
                if (!(notes & (1u << i)))
                        continue;
                if (cc_v_push(a, i < CC_ARRAY_LEN(names) ? cc_v_str(names[i], err) : cc_v_strf(err, "note_%u", i),
                              err) < 0) {
                        cc_v_free(a);
                        return NULL;
                }
        }
        return a;
}

static int gw_emit(const cc_gpuwork_env *env, const gw_op *o, const char *op, const char *family, const char *api,
                   const char *shape, cc_error *err)
{
        static const char *const states[] = {"passed", "failed", "not-run"};
        cc_value *v = cc_v_object(err);

        if (v == NULL)
                return -1;
        if (cc_v_set_str(v, "op", op, err) < 0 || cc_v_set_str(v, "family", family, err) < 0 ||
            cc_v_set_str(v, "api", api, err) < 0 || cc_v_set_str(v, "shape", shape, err) < 0 ||
            cc_v_set_str(v, "status", states[o->state], err) < 0)
                goto fail;
        if (o->state != GW_PASSED && cc_v_set_str(v, "reason", o->reason, err) < 0)
                goto fail;
        if (o->has_dn_status && cc_v_set_int(v, "cudnn_status", o->dn_status, err) < 0)
                goto fail;
        if (o->algo >= 0 && cc_v_set_int(v, "algo", o->algo, err) < 0)
                goto fail;
        if (o->math != NULL && o->state != GW_NOTRUN && cc_v_set_str(v, "math", o->math, err) < 0)
                goto fail;
        if (o->heuristic != NULL && (cc_v_set_str(v, "heuristic", o->heuristic, err) < 0 ||
                                     cc_v_set_int(v, "engine_configs", o->engine_total, err) < 0))
                goto fail;
        if (o->engine_config >= 0 &&
            (cc_v_set_int(v, "engine_config", o->engine_config, err) < 0 ||
             (o->engine >= 0 && cc_v_set_int(v, "engine", o->engine, err) < 0) ||
             (o->notes_known && cc_v_set(v, "engine_notes", gw_notes_value(o->notes, err), err) < 0)))
                goto fail;
        /* With NaN or Inf among the outputs the errors are not numbers: the
         * count of such values stands in for them. */
        if (o->compared && o->nonfinite == 0 &&
            (cc_v_set_double(v, "max_abs_error", o->max_abs, err) < 0 ||
             cc_v_set_double(v, "max_rel_error", o->max_rel, err) < 0))
                goto fail;
        if (o->compared && o->nonfinite > 0 && cc_v_set_int(v, "nonfinite", (int64_t)o->nonfinite, err) < 0)
                goto fail;
        if (o->compared && (cc_v_set_double(v, "tolerance", o->tol, err) < 0 ||
                            cc_v_set_int(v, "elements", (int64_t)o->elements, err) < 0))
                goto fail;
        if (o->timed && cc_v_set_int(v, "time_us", o->time_us, err) < 0)
                goto fail;
        env->emit(env->ctx, v);
        return 0;
fail:
        cc_v_free(v);
        return -1;
}

int cc_gpuwork_run(const cc_gpuwork_env *env, cc_error *err)
{
        static const struct {
                const char *op, *family, *api, *shape;
                int (*run)(gw_op *o, gw_rng *rng, cc_error *err);
        } ops[] = {
            {"convolution_forward", "cnn", "legacy", "n=2 c=3 h=w=16 k=8 r=s=3 pad=1 stride=1 fp32 NCHW", gw_conv},
            {"batchnorm_activation", "ops", "legacy", "n=2 c=8 h=w=8 spatial eps=1e-4, then ReLU fp32", gw_bn_act},
            {"softmax", "ops", "legacy", "n=2 c=16 h=w=4 accurate, over channels fp32", gw_softmax},
            {"rnn_forward", "adv", "legacy", "tanh cell, 1 layer, seq=5 batch=2 input=4 hidden=6 fp32 inference",
             gw_rnn},
            {"convolution_forward_graph", "graph", "backend",
             "n=2 c=3 h=w=16 k=8 r=s=3 pad=1 stride=1 fp32 NCHW, operation graph", gw_conv_graph},
        };
        size_t i;

        if (env == NULL || env->emit == NULL)
                return cc_err(err, CC_ERR_USAGE, "GPU work: no environment or no emit callback");
        for (i = 0; i < CC_ARRAY_LEN(ops); i++) {
                gw_op o;
                gw_rng rng;

                memset(&o, 0, sizeof(o));
                o.env = env;
                o.algo = -1;
                o.engine = -1;
                o.engine_config = -1;
                /* Each operation its own stream of numbers, all from the seed. */
                rng.s = env->seed ^ (0xD1B54A32D192ED03ULL * (uint64_t)(i + 1));
                gw_need_cudart(&o);
                if (o.state == GW_PASSED && env->handle == NULL)
                        gw_notrun(&o, "no cuDNN handle (cudnnCreate did not succeed)");
                if (o.state == GW_PASSED && ops[i].run(&o, &rng, err) < 0)
                        return -1;
                if (gw_emit(env, &o, ops[i].op, ops[i].family, ops[i].api, ops[i].shape, err) < 0)
                        return -1;
        }
        return 0;
}
