/* The verify command's files, and nothing else:
 *   verify.c          the entry points, choosing the installation, its files,
 *                     the document, and the check helpers below
 *   verify_static.c   layer 1: header against library versions, the sub-library set
 *   verify_probes.c   layer 2's probes: their arguments, running them, what they need
 *   verify_runtime.c  layer 2's checks: judging each probe's answer, with its evidence
 *   verify_compile.c  layer 3: the guide's program compiled, linked and run */
#ifndef CC_COMMANDS_VERIFY_INT_H
#define CC_COMMANDS_VERIFY_INT_H

#include "verify.h"

#include "../probe/compile.h"
#include "../facts/views.h"

/* One verify run. */
struct cc_vctx {
        cc_machine *m;
        const cudnnctl_verify_options *o;
        cc_value *inst;        /* the installation's facts (a copy) */
        cc_vw_installation iv; /* its view */
        int major;
        int windows;
        char *lib_dir;                /* where the shim lives */
        char *include_dir;            /* where cudnn.h lives */
        char *shim;                   /* its path */
        cc_strv lib_stems, lib_paths; /* the sub-libraries present, load order */
        cc_strv missing;              /* required sub-libraries absent */
        cudnnctl_ver header;          /* from cudnn_version.h (cudnn.h for 7) */
        char *header_file;
        cc_value *layers;
        int nfailed, nnot;
        cc_vf_driver *driver;     /* the driver probe shared between runs */
        const char *cuda_variant; /* the CUDA variant of the installer's layout this set is, or NULL */
};

/* ---- checks and layers (verify.c) ------------------------------------------ */

/* Append a check {id, title, status, summary (printf), evidence} to a
 * layer's list, counting failed and not-checked ones. Takes evidence (may
 * be NULL), also on failure. */
int cc_vf_add(struct cc_vctx *v, cc_value *checks, const char *id, const char *title, const char *status,
              cc_value *evidence, cc_error *err, const char *fmt, ...) CC_PRINTF(8, 9);
/* Append a layer with its checks (taken) and the status they give. */
int cc_vf_add_layer(struct cc_vctx *v, const char *id, const char *title, cc_value *checks, cc_error *err);
/* Major, minor and patch equal. */
int cc_vf_ver3_eq(const cudnnctl_ver *a, const cudnnctl_ver *b);
/* The version as MAJOR.MINOR.PATCH in buf. */
const char *cc_vf_vstr(const cudnnctl_ver *v, char *buf, size_t n);
/* The installation's file of that name, or NULL. */
const char *cc_vf_find_file(const struct cc_vctx *v, const char *name);

/* ---- the layers -------------------------------------------------------------- */

int cc_vf_layer_static(struct cc_vctx *v, cc_error *err);
/* *cudnn_probe: the cuDNN probe's answer (caller frees), for layer 3. */
int cc_vf_layer_runtime(struct cc_vctx *v, cc_value *doc, cc_value **cudnn_probe, cc_error *err);
/* The compile proof's child starts before the run-time probes and, with
 * more than one job (cc_machine_jobs), runs beside them in a thread of its
 * own; cc_vf_layer_compile waits for it and judges its answer against the
 * probe's. cc_vf_compile_start fails only when out of memory; the layer
 * then frees the job. */
struct cc_vf_compile {
        int skip;           /* not run: --no-compile or a --root tree */
        cc_compile_opts co; /* its strings: incs, implib_dir and the installation's */
        cc_strv incs;
        char *implib_dir;
        char *cache_dir; /* where builds that passed are kept (NULL: --recompile, or no cache) */
        cc_thread *th;   /* NULL: it ran in cc_vf_compile_start, or not at all */
        cc_value *res;
        int rc;
        cc_error e;
};
int cc_vf_compile_start(struct cc_vctx *v, struct cc_vf_compile *c, cc_error *err);
int cc_vf_layer_compile(struct cc_vctx *v, cc_value *doc, const cc_value *dnn, struct cc_vf_compile *c, cc_error *err);

/* ---- layer 2's probes (verify_probes.c) -------------------------------------- */

/* What the run-time probes answered. */
struct cc_vprobes {
        cc_strv args;                /* the cuDNN probe's arguments (the GPU run adds to them) */
        cc_value *drv;               /* the driver probe's answer */
        cc_value *dnn;               /* the cuDNN probe's answer */
        cc_vw_probe dnn_run;         /* how it ran */
        cc_vw_cudnn_facts facts;     /* what it read */
        int64_t dnn_version;         /* cudnnGetVersion */
        int64_t cudart_version;      /* cudnnGetCudartVersion */
        char *cudart;                /* the libcudart the installation pairs with, or NULL */
        cc_value *cudart_how;        /* how it was found, or NULL */
        cc_value *rt;                /* the CUDA runtime probe's answer, or NULL */
        cc_vw_probe rt_run;          /* how it ran */
        cc_vw_cudart_facts rt_facts; /* what it read */
        int64_t rt_version;          /* cudaRuntimeGetVersion, 0 unknown */
        int timeout_ms;
};

/* A probe run with the verify options' time limit and program, in the
 * machine's environment. */
cc_value *cc_vf_probe(struct cc_vctx *v, const char *const *args, size_t n, int timeout_ms, cc_error *err);
/* Run the driver probe (or reuse the shared answer), the cuDNN probe
 * without the GPU, and the CUDA runtime probe for the libcudart cuDNN pairs
 * with. -1 only when out of memory or a probe could not be started. */
int cc_vf_run_probes(struct cc_vctx *v, struct cc_vprobes *p, cc_error *err);
/* The cuDNN probe again with GPU work (the seed, the libcudart), five times
 * the time limit; *seed receives the seed (caller frees). */
cc_value *cc_vf_gpu_probe(struct cc_vctx *v, struct cc_vprobes *p, char **seed, cc_error *err);
void cc_vf_vprobes_free(struct cc_vprobes *p);
/* A stub libcuda the toolkit ships for linking, when one exists (caller
 * frees), or NULL. */
char *cc_vf_find_stub(struct cc_vctx *v, cc_error *err);
/* The loaded NVIDIA kernel module's version (/proc/driver/nvidia/version),
 * or NULL (caller frees). */
char *cc_vf_kernel_module_version(cc_error *err);

#endif
