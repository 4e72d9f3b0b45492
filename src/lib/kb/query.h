/* Questions to the knowledge base (kb/ tables), answered with a verdict,
 * the reason in one line and the source of the row(s) used. A question the
 * tables cannot answer is CC_KB_UNKNOWN, never a guess. Used by `compat`,
 * `explain` and the doctor's checks. */
#ifndef CC_KB_QUERY_H
#define CC_KB_QUERY_H

#include "common.h"

enum { CC_KB_UNKNOWN = 0, CC_KB_YES = 1, CC_KB_NO = 2 };

typedef struct cc_kb_answer {
        int verdict;      /* CC_KB_* */
        char reason[512]; /* one line: why (names the versions and the rule) */
        char source[256]; /* the source keys / references of the rows used ("SM 8.2.2; SP"), or "" */
        int conditional;  /* YES only under a condition the tables name (every row that matched has one) */
        int inferred;     /* YES only by binary compatibility within a major, not listed by the source: a lower
                             confidence (cc_kb_cudnn_runs_on) */
} cc_kb_answer;

/* The minimum driver of a CUDA toolkit release (`cuda` as "11.4", "11.4.3",
 * "12.8") on `system` (CUDNNCTL_SYSTEM_LINUX / _WINDOWS): `exact` is the
 * driver of that release's row (the newest update's row when only
 * MAJOR.MINOR is given is NOT used: the .0 row is), `floor` the
 * minor-version-compatibility floor of its major (n == 0 when unknown).
 * Returns CC_KB_YES when at least `exact` is known, else CC_KB_UNKNOWN. */
int cc_kb_min_driver(const cudnnctl_ver *cuda, int system, cudnnctl_ver *exact, cudnnctl_ver *floor, cc_kb_answer *ans);

/* A driver version as NVIDIA writes it: components after the first have two
 * digits at least ("470.57.02", "520.06"); "unknown" when it has none. */
const char *cc_kb_driver_str(const cudnnctl_ver *v, char *buf, size_t size);

/* Does `driver` run CUDA `cuda` on `system`? YES when driver >= exact, YES
 * with a note in reason when only the floor is met (minor-version
 * compatibility: PTX JIT and some features unavailable), NO below the
 * floor, UNKNOWN when the tables have no row. */
int cc_kb_driver_runs_cuda(const cudnnctl_ver *driver, const cudnnctl_ver *cuda, int system, cc_kb_answer *ans);

/* The newest CUDA version a driver supports (what nvidia-smi shows as "CUDA
 * Version"), from the minimum-driver table: the highest CUDA release whose
 * exact minimum is <= driver. n == 0 when unknown. */
int cc_kb_driver_max_cuda(const cudnnctl_ver *driver, int system, cudnnctl_ver *cuda, cc_kb_answer *ans);

/* The CUDA builds ("10.2", "11.4", "11", "12", "13": the file-name form) of a
 * cuDNN release given as 2, 3 or 4 components. Fills `builds` (appended);
 * CC_KB_UNKNOWN when the release is not in the tables. */
int cc_kb_cudnn_cuda_builds(const cudnnctl_ver *cudnn, cc_strv *builds, cc_kb_answer *ans);

/* Can cuDNN `cudnn` built for CUDA `cuda_build` (n == 0: any of its builds;
 * then YES only if every build can, NO only if none can) run on a GPU of
 * compute capability `sm` (major*10+minor: 35, 75, 86, 89, 90, 100, 120)?
 * The reason names the supported range and the build it depends on. A
 * capability the source does not list (kb/archs.tsv `listed`) is YES with
 * `inferred` set when a listed capability of its major and a lower or equal
 * minor exists (binary compatibility: that SASS runs on it), else UNKNOWN. */
int cc_kb_cudnn_runs_on(const cudnnctl_ver *cudnn, const cudnnctl_ver *cuda_build, int sm, cc_kb_answer *ans);

/* A GPU name ("H200", "RTX 4090", "GeForce RTX 5090", "A100") or "sm_90" /
 * "9.0" / "90" to a compute capability (major*10+minor); -1 when unknown. */
int cc_kb_gpu_sm(const char *name_or_sm);
/* 1 when the text is not a compute capability (sm_90, 9.0, 90): a GPU name. */
int cc_kb_gpu_sm_is_name(const char *name_or_sm);

/* The library members ("cudnn", "cudnn_ops_infer", "cudnn_graph", ...: the
 * role names of formats/names.h) a complete installation of this release
 * has on `system`; `ver` may have only the major. Appended to `roles`. */
int cc_kb_cudnn_members(const cudnnctl_ver *ver, int system, cc_strv *roles, cc_kb_answer *ans);

/* Known-bad: YES when the tables list this cuDNN release (or range) as bad
 * for a reason (reason filled, with the condition, e.g. "JAX: 9.10.0 ABI
 * break"), NO when not listed. */
int cc_kb_cudnn_known_bad(const cudnnctl_ver *cudnn, cc_kb_answer *ans);

/* As cc_kb_cudnn_known_bad, only the rows of one framework ("jax") and the
 * rows of every program; framework NULL: only the rows of every program;
 * "*": every row. */
int cc_kb_cudnn_known_bad_for(const cudnnctl_ver *cudnn, const char *framework, cc_kb_answer *ans);

/* What a framework build needs: framework "torch", "tensorflow", "jax"...,
 * version "2.4.1", variant "cu121" / "" (any). Fills cudnn/cuda (n == 0
 * when unknown). */
int cc_kb_framework_needs(const char *framework, const char *version, const char *variant, int system,
                          cudnnctl_ver *cudnn, cudnnctl_ver *cuda, cc_kb_answer *ans);

/* The files of a kind ("library", "import-library", "header",
 * "dependency": the kind column of kb/members.tsv) a complete installation
 * of this release has on `system`; cc_kb_cudnn_members is kind "library".
 * Appended to `names`. */
int cc_kb_cudnn_files(const cudnnctl_ver *ver, int system, const char *kind, cc_strv *names, cc_kb_answer *ans);

/* The build variants ("cu121", ...; "" for a framework whose rows name
 * none) of a framework release in the tables. Appended to `variants`. */
int cc_kb_framework_variants(const char *framework, const char *version, int system, cc_strv *variants,
                             cc_kb_answer *ans);

/* The framework's rule for the cuDNN it loads (*rule: "same-major-minor-ge",
 * ...; NULL when unknown); the reason is the rule in words. */
int cc_kb_framework_rule(const char *framework, const char **rule, cc_kb_answer *ans);

/* Does a run-time cuDNN satisfy a framework build's cuDNN under that
 * framework's rule (same major, run-time minor >= build minor)? */
int cc_kb_cudnn_satisfies(const char *framework, const cudnnctl_ver *build, const cudnnctl_ver *runtime,
                          cc_kb_answer *ans);

/* compat's answers from the tables alone (cudnnctl_compat adds the index's
 * answer where asked): the document of docs/json.md, command "compat". */
int cc_compat_tables(const cudnnctl_compat_options *opts, cudnnctl_value **out, cc_error *err);

#endif
