/* The cuDNN plan: which release and build to install, where, and the exact
 * command, from a machine's facts and the knowledge base (kb/), with every
 * reason. The decision (cc_plan_decide) is pure: a cc_plan_input in memory
 * and the compiled-in tables in, a document out; cc_plan_read_facts fills
 * the input from a doctor document (this machine's or one from --facts). */
#ifndef CC_PLAN_PLAN_H
#define CC_PLAN_PLAN_H

#include "common.h"
#include "value.h"

enum { CC_PLAN_MAX_GPUS = 16, CC_PLAN_MAX_TOOLKITS = 8, CC_PLAN_MAX_INSTALLED = 8, CC_PLAN_MAX_FRAMEWORKS = 8 };

typedef struct cc_plan_gpu {
        char name[96]; /* "NVIDIA H200", or "sm_90" when only the capability was given */
        int sm;        /* major*10+minor; 0 when unknown */
} cc_plan_gpu;

typedef struct cc_plan_framework {
        char name[32];         /* torch, tensorflow, jax, onnxruntime, cupy */
        char version[48];      /* "2.11.0+cu130"; "" unknown */
        char interpreter[512]; /* the Python that has it; "" unknown */
        char wheel[64];        /* the cuDNN wheel its distribution pins ("nvidia-cudnn-cu13"); "" none */
        char wheel_version[48];
        char build_cudnn[48]; /* the cuDNN it was built with ("9.19.0"); "" unknown */
        char build_cuda[16];  /* the CUDA it was built with ("13.0"); "" unknown */
        int gpu_build;        /* 1 a CUDA build, 0 CPU-only, -1 unknown */
} cc_plan_framework;

typedef struct cc_plan_input {
        int system;      /* CUDNNCTL_SYSTEM_LINUX / _WINDOWS */
        char driver[48]; /* the NVIDIA driver version; "" when there is none (or it was not read) */
        cc_plan_gpu gpus[CC_PLAN_MAX_GPUS];
        size_t ngpus;
        char toolkits[CC_PLAN_MAX_TOOLKITS][16]; /* CUDA toolkit versions ("13.0") */
        char toolkit_dirs[CC_PLAN_MAX_TOOLKITS][256];
        size_t ntoolkits;
        char installed[CC_PLAN_MAX_INSTALLED][48]; /* cuDNN versions installed, with where */
        char installed_where[CC_PLAN_MAX_INSTALLED][256];
        size_t ninstalled;
        cc_plan_framework fw[CC_PLAN_MAX_FRAMEWORKS];
        size_t nfw;
        const char *want_framework; /* --for; NULL: the GPU frameworks found */
        const char *want_cuda;      /* --cuda; NULL: any */
        const char *want_cudnn;     /* --cudnn; NULL: any */
        /* What an index of releases (NVIDIA's redist directory) said, for
         * newer_than_tables: index NULL when none was read (offline); else
         * its URL with the versions it lists (newest first), or the one-line
         * error of reading it. */
        const char *index;
        const char *const *index_versions;
        size_t nindex_versions;
        const char *index_error;
} cc_plan_input;

/* Fill `in` (zeroed first; the want_* fields are kept) from a doctor
 * document: driver, GPUs (the probes' devices, else the frameworks'),
 * toolkits, cuDNN installations, Python frameworks. What the document does
 * not hold stays empty (unknown). */
void cc_plan_read_facts(const cc_value *doctor, cc_plan_input *in);

/* The decision document (docs/json.md, command "plan"). -1 only when out of
 * memory or the tables cannot be read; a bad --cuda/--cudnn is
 * CC_ERR_USAGE. */
int cc_plan_decide(const cc_plan_input *in, cc_value **out, cc_error *err);

/* Fill `in` (zeroed) from a doctor document and the options of
 * cudnnctl_plan (--for, --cuda, --cudnn, --driver, --gpu, --system): -1
 * with CC_ERR_USAGE when a value given is not a version or GPU. */
int cc_plan_input_init(cc_plan_input *in, const cc_value *facts, const cudnnctl_plan_options *o, cc_error *err);

/* Whether cuDNN `release` (3 or 4 components) built for CUDA `cuda_major`
 * fits the machine of `in` as the plan judges a candidate: the driver runs
 * the build, every GPU is supported (unknown support does not fit), the
 * framework's build and known-bad releases allow it, --cuda/--cudnn agree.
 * 1 fits; 0 not, with the reason in why. fetch asks it of every release an
 * index offers. */
int cc_plan_fits(const cc_plan_input *in, const char *release, int cuda_major, char *why, size_t whysize);

/* The CUDA major the plan's build has for this machine (the release it
 * picks, constrained by in->want_cudnn), or 0 when it picks none. */
int cc_plan_cuda_major(const cc_plan_input *in);

#endif
