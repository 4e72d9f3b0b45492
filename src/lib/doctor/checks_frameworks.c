/* Checks on the frameworks' facts (facts/frameworks, gathered by
 * src/lib/frameworks and judged by cc_fw_judge before the checks run): a
 * CPU-only build, a cuDNN older than the build, several directories in one
 * process, another copy than the expected one, two stacks in one
 * interpreter, a conda environment's framework loading a copy from outside
 * it, a GPU call that failed, a probe that crashed or hung. cc_src_frameworks
 * gives each framework's findings to the checks of those ids (here, and
 * known-bad-version, pip-cudnn-not-on-path, conda-vs-system-order and
 * win-tf-native-gpu-dropped in the other files). */
#include <stdlib.h>
#include <string.h>

#include "../frameworks/frameworks.h"
#include "doctor.h"

static const cc_value *verdict_of(const cc_value *fw, const char *id)
{
        const cc_value *vs = cc_v_get(fw, "verdicts");
        size_t i;

        for (i = 0; i < cc_v_len(vs); i++)
                if (cc_v_get_str(cc_v_at(vs, i), "id") && strcmp(cc_v_get_str(cc_v_at(vs, i), "id"), id) == 0)
                        return cc_v_at(vs, i);
        return NULL;
}

static int status_is(const cc_value *v, const char *status)
{
        return v != NULL && cc_v_get_str(v, "status") != NULL && strcmp(cc_v_get_str(v, "status"), status) == 0;
}

/* Evidence every framework finding carries. */
static int common_ev(struct cc_dctx *d, cc_value *f, const cc_value *it, const cc_value *fw)
{
        const cc_value *cu = cc_v_get(fw, "cudnn");

        TRY_RET(cc_finding_ev_str(f, "python", cc_v_get_str(it, "path"), d->err));
        TRY_RET(cc_finding_ev_str(f, "framework", cc_v_get_str(fw, "name"), d->err));
        TRY_RET(cc_finding_ev_str(f, "version", cc_v_get_str(cc_v_get(fw, "info"), "version"), d->err));
        if (cc_v_get_str(cu, "directory") != NULL) {
                TRY_RET(cc_finding_ev_str(f, "loads", cc_v_get_str(cu, "directory"), d->err));
                TRY_RET(cc_finding_ev_str(f, "loaded_version", cc_v_get_str(cu, "version"), d->err));
        }
        return 0;
}

static const char *version_or(const cc_value *fw)
{
        const char *v = cc_v_get_str(cc_v_get(fw, "info"), "version");

        return v ? v : "";
}

/* The framework loads its own copy (its wheel, its bundled one) and a plain
 * program another release: nothing is wrong, but it is why "PyTorch shows
 * another cuDNN version" than the one installed for everything else. */
static int own_copy_note(struct cc_dctx *d, const cc_value *it, const cc_value *fw)
{
        const cc_value *plain = cc_dx_plain_cudnn(d), *cu = cc_v_get(fw, "cudnn");
        const char *pv = cc_v_get_str(plain, "installation_version"), *fv = cc_v_get_str(cu, "version");
        cc_value *f;

        if (plain == NULL || pv == NULL || fv == NULL || strcmp(pv, fv) == 0)
                return 0;
        f = cc_finding(d, CC_F_FRAMEWORK_OTHER_CUDNN, "info", "frameworks",
                       "%s loads its own cuDNN %s from %s; a plain program gets cuDNN %s from %s",
                       cc_fw_label(cc_v_get_str(fw, "name")), fv, cc_v_get_str(cu, "directory"), pv,
                       cc_v_get_str(plain, "path"));
        if (f == NULL)
                return -1;
        TRY_RET(common_ev(d, f, it, fw));
        TRY_RET(cc_finding_ev_str(f, "plain_program_gets", cc_v_get_str(plain, "path"), d->err));
        TRY_RET(cc_finding_ev_str(f, "plain_program_version", pv, d->err));
        return cc_finding_fix(f, d->err,
                              "nothing to do if each gets the release it needs. %s follows its environment's "
                              "nvidia-cudnn wheel (pip install another release there to change it); a plain program "
                              "follows the loader path",
                              cc_fw_label(cc_v_get_str(fw, "name")));
}

/* The finding of id fid that framework fw of interpreter it gives, if any:
 * a probe that failed says only that, a CPU-only build only that; else each
 * verdict that is not a pass (the cuDNN version rule, one directory, the
 * expected copy, the GPU call) is its finding. */
static int one_framework(struct cc_dctx *d, const cc_value *it, const cc_value *fw, enum cc_fid fid)
{
        const char *name = cc_v_get_str(fw, "name"), *state = cc_v_get_str(fw, "state");
        const cc_value *v;
        cc_value *f;

        if (state == NULL || strcmp(state, "ok") != 0) {
                if (fid != CC_F_FRAMEWORK_PROBE_FAILED)
                        return 0;
                f = cc_finding(d, fid, "warning", "frameworks", "%s in %s: %s", cc_fw_label(name),
                               cc_dx_str(cc_v_get_str(it, "path")),
                               cc_v_get_str(fw, "error") ? cc_v_get_str(fw, "error") : "the probe gave no answer");
                if (f == NULL)
                        return -1;
                TRY_RET(common_ev(d, f, it, fw));
                TRY_RET(cc_finding_ev_str(f, "state", state, d->err));
                return cc_finding_fix(f, d->err, "see the whole error: %s -c 'import %s'",
                                      cc_dx_str(cc_v_get_str(it, "path")), name ? name : "");
        }
        v = verdict_of(fw, "cuda-build");
        if (status_is(v, "fail")) {
                /* TensorFlow has no GPU build on native Windows since 2.11 */
                int tfwin = d->windows && name && strcmp(name, "tensorflow") == 0;

                if (fid != (tfwin ? CC_F_WIN_TF_NATIVE_GPU_DROPPED : CC_F_FRAMEWORK_CPU_ONLY))
                        return 0;
                f = cc_finding(d, fid, "warning", "frameworks", "%s %s in %s is a CPU-only build: it never loads cuDNN",
                               cc_fw_label(name), version_or(fw), cc_dx_str(cc_v_get_str(it, "path")));
                if (f == NULL)
                        return -1;
                TRY_RET(common_ev(d, f, it, fw));
                TRY_RET(cc_finding_ev_str(f, "distribution_location",
                                          cc_v_get_str(cc_v_at(cc_v_get(fw, "distributions"), 0), "location"), d->err));
                return cc_finding_fix(f, d->err, "%s", cc_v_get_str(v, "fix") ? cc_v_get_str(v, "fix") : "");
        }
        v = verdict_of(fw, "version-rule");
        if (status_is(v, "fail")) {
                const char *bs = cc_v_get_str(cc_v_get(fw, "build"), "cudnn");
                const char *rs = cc_v_get_str(cc_v_get(fw, "cudnn"), "version");
                int bparts[4] = {0}, rparts[4] = {0};
                int other_major =
                    cc_fw_version_parts(bs, bparts) && cc_fw_version_parts(rs, rparts) && bparts[0] != rparts[0];

                if (fid == (other_major ? CC_F_MAJOR_MISMATCH : CC_F_RUNTIME_OLDER_THAN_BUILD)) {
                        f = cc_finding(d, fid, "error", "frameworks", "%s %s in %s: %s", cc_fw_label(name),
                                       version_or(fw), cc_dx_str(cc_v_get_str(it, "path")),
                                       cc_dx_str(cc_v_get_str(v, "summary")));
                        if (f == NULL)
                                return -1;
                        TRY_RET(common_ev(d, f, it, fw));
                        TRY_RET(cc_finding_ev_str(f, "build_cudnn", bs, d->err));
                        TRY_RET(cc_finding_fix(f, d->err,
                                               "make %s load a cuDNN of major %d with a minor of at least the build's: "
                                               "take the directory %s off LD_LIBRARY_PATH/PATH (run with env -u "
                                               "LD_LIBRARY_PATH to see), or install the release the framework pins in "
                                               "its environment",
                                               cc_fw_label(name), bparts[0],
                                               cc_v_get_str(cc_v_get(fw, "cudnn"), "directory")
                                                   ? cc_v_get_str(cc_v_get(fw, "cudnn"), "directory")
                                                   : "(unknown)"));
                }
        } else if ((status_is(v, "warn") || status_is(v, "note")) && fid == CC_F_KNOWN_BAD_VERSION) {
                f = cc_finding(d, fid, status_is(v, "warn") ? "warning" : "info", "frameworks", "%s in %s: %s",
                               cc_fw_label(name), cc_dx_str(cc_v_get_str(it, "path")),
                               cc_dx_str(cc_v_get_str(v, "summary")));
                if (f == NULL)
                        return -1;
                TRY_RET(common_ev(d, f, it, fw));
                TRY_RET(cc_finding_fix(f, d->err, "install a cuDNN release the tables do not list as bad for %s",
                                       cc_fw_label(name)));
        }
        v = verdict_of(fw, "one-directory");
        if (status_is(v, "fail") && fid == CC_F_FRAMEWORK_MIXED_LOAD) {
                f = cc_finding(d, fid, "error", "frameworks", "%s in %s: %s", cc_fw_label(name),
                               cc_dx_str(cc_v_get_str(it, "path")), cc_dx_str(cc_v_get_str(v, "summary")));
                if (f == NULL)
                        return -1;
                TRY_RET(common_ev(d, f, it, fw));
                TRY_RET(cc_finding_ev(f, "directories", cc_v_copy(cc_v_path(fw, "cudnn/directories"), d->err), d->err));
                TRY_RET(
                    cc_finding_fix(f, d->err,
                                   "keep one complete cuDNN set first on the search path: take the other directories "
                                   "off LD_LIBRARY_PATH/PATH, or reinstall the copy that lacks libraries"));
        }
        v = verdict_of(fw, "expected-copy");
        if ((status_is(v, "warn") || status_is(v, "note")) && fid == CC_F_FRAMEWORK_OTHER_CUDNN) {
                int note = status_is(v, "note");

                f = cc_finding(d, fid, note ? "info" : "warning", "frameworks", "%s",
                               cc_dx_str(cc_v_get_str(v, "summary")));
                if (f == NULL)
                        return -1;
                TRY_RET(common_ev(d, f, it, fw));
                TRY_RET(cc_finding_ev_str(f, "expected", cc_v_get_str(v, "expected"), d->err));
                TRY_RET(cc_finding_ev_str(f, "expected_kind", cc_v_get_str(v, "expected_kind"), d->err));
                if (note)
                        TRY_RET(
                            cc_finding_fix(f, d->err,
                                           "nothing is wrong if each gets the release it needs: %s uses its own copy. "
                                           "To give %s another release, install that nvidia-cudnn wheel in its "
                                           "environment; to give plain programs the framework's copy, put %s first on "
                                           "the loader path",
                                           cc_fw_label(name), cc_fw_label(name),
                                           cc_v_get_str(cc_v_get(fw, "cudnn"), "directory")
                                               ? cc_v_get_str(cc_v_get(fw, "cudnn"), "directory")
                                               : "its directory"));
                else
                        TRY_RET(cc_finding_fix(f, d->err,
                                               "make %s load %s: take the directory it loads now (%s) off "
                                               "LD_LIBRARY_PATH/PATH, or reinstall the pinned wheel (pip install the "
                                               "release the framework requires)",
                                               cc_fw_label(name),
                                               cc_v_get_str(v, "expected") ? cc_v_get_str(v, "expected") : "",
                                               cc_v_get_str(cc_v_get(fw, "cudnn"), "directory")
                                                   ? cc_v_get_str(cc_v_get(fw, "cudnn"), "directory")
                                                   : "?"));
        }
        if (status_is(v, "pass") && cc_v_get_str(v, "expected_kind") != NULL &&
            strcmp(cc_v_get_str(v, "expected_kind"), "plain") != 0 && fid == CC_F_FRAMEWORK_OTHER_CUDNN)
                TRY_RET(own_copy_note(d, it, fw));
        v = verdict_of(fw, "gpu-call");
        if (status_is(v, "fail")) {
                const cc_value *call = cc_v_get(fw, "gpu_call");
                const char *e = cc_v_get_str(call, "error") ? cc_v_get_str(call, "error") : cc_v_get_str(v, "summary");
                enum cc_fid id = CC_F_FRAMEWORK_GPU_FAILED;

                /* ONNX Runtime without the cuDNN wheel on its path; TensorFlow
                 * out of GPU memory for cuDNN's workspace */
                if (name && strcmp(name, "onnxruntime") == 0 && cc_v_get(call, "cuda_provider_created") != NULL &&
                    !cc_v_as_bool(cc_v_get(call, "cuda_provider_created")) && e && strstr(e, "cuDNN") != NULL)
                        id = CC_F_PIP_CUDNN_NOT_ON_PATH;
                else if (name && strcmp(name, "tensorflow") == 0 && e &&
                         (strstr(e, "INTERNAL_ERROR") != NULL || strstr(e, "Failed to get convolution algorithm")))
                        id = CC_F_INTERNAL_ERROR_GPU_MEMORY;
                if (id != fid)
                        return 0;
                f = cc_finding(d, fid, "error", "frameworks", "%s in %s: %s", cc_fw_label(name),
                               cc_dx_str(cc_v_get_str(it, "path")), cc_dx_str(e));
                if (f == NULL)
                        return -1;
                TRY_RET(common_ev(d, f, it, fw));
                TRY_RET(cc_finding_ev_str(f, "call", cc_v_get_str(call, "what"), d->err));
                TRY_RET(cc_finding_ev_str(f, "log", cc_v_get_str(call, "log"), d->err));
                if (fid == CC_F_PIP_CUDNN_NOT_ON_PATH)
                        TRY_RET(
                            cc_finding_fix(f, d->err,
                                           "ONNX Runtime does not find the cuDNN wheel by itself: call "
                                           "onnxruntime.preload_dlls() first, import torch first, or put the wheel's "
                                           "lib directory on LD_LIBRARY_PATH/PATH"));
                else if (fid == CC_F_INTERNAL_ERROR_GPU_MEMORY)
                        TRY_RET(cc_finding_fix(f, d->err, "enable memory growth: TF_FORCE_GPU_ALLOW_GROWTH=true"));
                else
                        TRY_RET(cc_finding_fix(f, d->err, "cudnnctl explain '%s'", e ? e : ""));
        }
        return 0;
}

/* Two frameworks of one interpreter with different cuDNN: imported together,
 * the first one loaded wins. */
static int two_stacks(struct cc_dctx *d, const cc_value *it)
{
        const cc_value *fws = cc_v_get(it, "frameworks");
        size_t i, k;

        for (i = 0; i < cc_v_len(fws); i++)
                for (k = i + 1; k < cc_v_len(fws); k++) {
                        const cc_value *a = cc_v_at(fws, i), *b = cc_v_at(fws, k);
                        const char *da = cc_v_get_str(cc_v_get(a, "cudnn"), "directory");
                        const char *db = cc_v_get_str(cc_v_get(b, "cudnn"), "directory");
                        const char *va = cc_v_get_str(cc_v_get(a, "cudnn"), "version");
                        const char *vb = cc_v_get_str(cc_v_get(b, "cudnn"), "version");
                        cc_value *f;

                        if (da == NULL || db == NULL || strcmp(da, db) == 0 ||
                            (va != NULL && vb != NULL && strcmp(va, vb) == 0))
                                continue;
                        f = cc_finding(d, CC_F_TWO_STACKS_ONE_PROCESS, NULL, NULL,
                                       "%s loads cuDNN %s from %s and %s cuDNN %s from %s: imported in one process "
                                       "(%s), the first one loaded wins",
                                       cc_fw_label(cc_v_get_str(a, "name")), va ? va : "?", da,
                                       cc_fw_label(cc_v_get_str(b, "name")), vb ? vb : "?", db,
                                       cc_dx_str(cc_v_get_str(it, "path")));
                        if (f == NULL)
                                return -1;
                        TRY_RET(cc_finding_ev_str(f, "python", cc_v_get_str(it, "path"), d->err));
                        TRY_RET(
                            cc_finding_fix(f, d->err,
                                           "align %s and %s on one cuDNN release, or use them in separate processes or "
                                           "environments",
                                           cc_fw_label(cc_v_get_str(a, "name")), cc_fw_label(cc_v_get_str(b, "name"))));
                }
        return 0;
}

/* A framework of a conda environment loading a cuDNN from outside it while
 * the environment has its own. */
static int conda_order(struct cc_dctx *d, const cc_value *it)
{
        const cc_value *py = cc_v_get(it, "python"), *fws = cc_v_get(it, "frameworks");
        const cc_value *insts = cc_v_get(d->list, "installations");
        const char *prefix = cc_v_get_str(py, "prefix");
        const cc_value *own = NULL;
        size_t i, n;

        if (!cc_v_as_bool(cc_v_get(py, "conda")) || prefix == NULL)
                return 0;
        n = strlen(prefix);
        for (i = 0; i < cc_v_len(insts) && own == NULL; i++) {
                const char *p = cc_v_get_str(cc_v_at(insts, i), "prefix");

                if (p && strncmp(p, prefix, n) == 0 && (p[n] == '\0' || p[n] == '/' || p[n] == '\\'))
                        own = cc_v_at(insts, i);
        }
        if (own == NULL)
                return 0;
        for (i = 0; i < cc_v_len(fws); i++) {
                const cc_value *fw = cc_v_at(fws, i);
                const char *dir = cc_v_get_str(cc_v_get(fw, "cudnn"), "directory");
                cc_value *f;

                if (dir == NULL || (strncmp(dir, prefix, n) == 0 && (dir[n] == '/' || dir[n] == '\\')))
                        continue;
                f = cc_finding(d, CC_F_CONDA_VS_SYSTEM_ORDER, "warning", "frameworks",
                               "%s in the conda environment %s loads cuDNN %s from %s, not the environment's own %s",
                               cc_fw_label(cc_v_get_str(fw, "name")), prefix,
                               cc_v_get_str(cc_v_get(fw, "cudnn"), "version")
                                   ? cc_v_get_str(cc_v_get(fw, "cudnn"), "version")
                                   : "?",
                               dir, cc_v_get_str(own, "version") ? cc_v_get_str(own, "version") : "(version unknown)");
                if (f == NULL)
                        return -1;
                TRY_RET(common_ev(d, f, it, fw));
                TRY_RET(cc_finding_ev_str(f, "conda_prefix", prefix, d->err));
                TRY_RET(cc_finding_fix(f, d->err,
                                       "take %s off LD_LIBRARY_PATH/PATH inside the environment, or remove one of the "
                                       "copies",
                                       dir));
        }
        return 0;
}

int cc_src_frameworks(struct cc_dctx *d, enum cc_fid fid)
{
        const cc_value *its = cc_v_get(cc_v_get(d->facts, "frameworks"), "interpreters");
        size_t i, k;

        for (i = 0; i < cc_v_len(its); i++) {
                const cc_value *it = cc_v_at(its, i), *fws = cc_v_get(it, "frameworks");

                for (k = 0; k < cc_v_len(fws); k++)
                        TRY_RET(one_framework(d, it, cc_v_at(fws, k), fid));
                if (fid == CC_F_TWO_STACKS_ONE_PROCESS)
                        TRY_RET(two_stacks(d, it));
                if (fid == CC_F_CONDA_VS_SYSTEM_ORDER)
                        TRY_RET(conda_order(d, it));
        }
        return 0;
}

int cc_check_framework_probe_failed(struct cc_dctx *d)
{
        return cc_src_frameworks(d, CC_F_FRAMEWORK_PROBE_FAILED);
}

int cc_check_framework_cpu_only(struct cc_dctx *d)
{
        return cc_src_frameworks(d, CC_F_FRAMEWORK_CPU_ONLY);
}

int cc_check_major_mismatch(struct cc_dctx *d)
{
        return cc_src_frameworks(d, CC_F_MAJOR_MISMATCH);
}

int cc_check_runtime_older_than_build(struct cc_dctx *d)
{
        return cc_src_frameworks(d, CC_F_RUNTIME_OLDER_THAN_BUILD);
}

int cc_check_framework_mixed_load(struct cc_dctx *d)
{
        return cc_src_frameworks(d, CC_F_FRAMEWORK_MIXED_LOAD);
}

int cc_check_framework_other_cudnn(struct cc_dctx *d)
{
        return cc_src_frameworks(d, CC_F_FRAMEWORK_OTHER_CUDNN);
}

int cc_check_framework_gpu_failed(struct cc_dctx *d)
{
        return cc_src_frameworks(d, CC_F_FRAMEWORK_GPU_FAILED);
}

int cc_check_internal_error_gpu_memory(struct cc_dctx *d)
{
        return cc_src_frameworks(d, CC_F_INTERNAL_ERROR_GPU_MEMORY);
}

int cc_check_two_stacks_one_process(struct cc_dctx *d)
{
        return cc_src_frameworks(d, CC_F_TWO_STACKS_ONE_PROCESS);
}
