/* GPU work: one real operation per cuDNN sub-library family, each checked
 * against a CPU reference computed in double precision from fresh random
 * inputs. Runs only inside a probe child (it calls into cuDNN and the CUDA
 * runtime through symbols resolved at run time; nothing here links them). */
#ifndef CC_PROBE_GPUWORK_H
#define CC_PROBE_GPUWORK_H

#include "../value.h"

typedef struct cc_gpuwork_env {
        long cudnn_version; /* cudnnGetVersion() of the loaded library (8201, 91900...) */
        int cudnn_major;    /* 7, 8 or 9 */
        /* Resolve a cuDNN entry point (cudnnConvolutionForward...) from the
         * loaded set, or NULL when no loaded library exports it. */
        void *(*cudnn_sym)(void *ctx, const char *name);
        /* Resolve a CUDA runtime entry point (cudaMalloc...) from the libcudart
         * that the cuDNN library loaded, or NULL. */
        void *(*cudart_sym)(void *ctx, const char *name);
        void *ctx;
        void *handle;  /* a cudnnHandle_t already created with cudnnCreate */
        uint64_t seed; /* random inputs come from this seed */
        /* Called with each result object as soon as it is known (the callee
         * takes ownership), so that a crash in a later step keeps it. */
        void (*emit)(void *ctx, cc_value *result);
        /* Called with a step's name before a call that may crash or hang, so
         * that the parent can name the step a child died in. */
        void (*begin)(void *ctx, const char *step);
} cc_gpuwork_env;

/* Run every operation: a convolution forward (family "cnn"), a batch
 * normalization forward (inference) followed by an activation, and a
 * softmax (family "ops"), and an RNN forward (family "adv"), all through the
 * legacy API; then the same convolution through cuDNN 9's backend (graph)
 * API (family "graph": an operation graph, the engine heuristics, an
 * execution plan; not-run before cuDNN 9), which still runs where the legacy
 * convolution entry points are gone. Each emits one object:
 *   op          "convolution_forward" | "batchnorm_activation" | "softmax" | "rnn_forward"
 *               | "convolution_forward_graph"
 *   family      "cnn" | "ops" | "adv" | "graph"
 *   api         which cuDNN API was used ("legacy", "backend")
 *   shape       a short text of the problem size ("n=2 c=3 h=w=8 k=4 r=s=3 pad=1")
 *   status      "passed" | "failed" | "not-run"
 *   reason      why it failed or was not run (a cuDNN/CUDA status by name, a
 *               missing entry point, an error over tolerance), absent when passed
 *   cudnn_status  the failing cuDNN status number, when one failed
 *   max_abs_error, max_rel_error, tolerance   doubles (when compared); the
 *               relative error is |got - ref| / max(|ref|, a floor per op); the
 *               two errors are absent when some output was NaN or Inf
 *   nonfinite   how many outputs were NaN or Inf (then the op failed), when any
 *   elements    how many outputs were compared
 *   time_us     GPU time of the operation (wall clock around call + synchronize), integer
 *   algo        the convolution algorithm that ran (cudnnConvolutionFwdAlgo_t), convolution only
 *   math        the math type asked for ("fma", "default"), convolution and RNN, when run
 *   heuristic   "mode_a" | "fallback": the engine heuristic whose config ran, and
 *   engine_configs  how many configs it offered (graph only, when a plan was made)
 *   engine_config   the place of the one that ran in that list (0 first), and
 *   engine      its engine's global index, engine_notes its numerical notes
 *               ("tensor_core", "down_convert_inputs", "fft", "winograd"...; an array,
 *               absent when unreadable). Configs without tensor-core notes are tried
 *               first (fp32 tolerance 1e-4); a TF32 engine is used only when none of
 *               them makes a plan, and then the tolerance is 1e-2 (gpuwork.c says why)
 * Returns 0 when every operation ran (passed or failed), -1 only when out
 * of memory. */
int cc_gpuwork_run(const cc_gpuwork_env *env, cc_error *err);

/* The CPU references, in double precision (exposed for unit tests).
 * NCHW layouts; cross-correlation as cuDNN's CUDNN_CROSS_CORRELATION. */
void cc_ref_conv2d(const float *x, const float *w, double *y, int n, int c, int h, int wd, int k, int r, int s, int pad,
                   int stride, int dil);
/* y = act(gamma * (x - mean) / sqrt(var + eps) + beta), per channel; act 0: identity, 1: ReLU, 2: tanh, 3: sigmoid. */
void cc_ref_bn_act(const float *x, const float *gamma, const float *beta, const float *mean, const float *var,
                   double eps, int act, double *y, int n, int c, int hw);
/* Softmax over the channel dimension (CUDNN_SOFTMAX_MODE_CHANNEL, accurate). */
void cc_ref_softmax(const float *x, double *y, int n, int c, int hw);
/* A one-layer tanh RNN with both biases: h_t = tanh(W x_t + Wb + R h_{t-1} + Rb).
 * x is [seq][batch][in], hx [batch][hid] (NULL: zeros), w [hid][in], r
 * [hid][hid], row-major; y is [seq][batch][hid], hy [batch][hid]. */
void cc_ref_rnn_tanh(const float *x, const float *hx, const float *w, const float *wb, const float *r, const float *rb,
                     double *y, double *hy, int seq, int batch, int in, int hid);
/* exp, tanh and sqrt in double for the references (the library does not link
 * the math library), exposed for tests against libm. */
double cc_gw_exp(double x);
double cc_gw_tanh(double x);
double cc_gw_sqrt(double x);

#endif
