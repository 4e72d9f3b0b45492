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

#include "../facts/views.h"
#include "../frameworks/frameworks.h"
#include "doctor.h"

/* One framework's facts, read through their views: the framework, its
 * interpreter, and the parts the findings quote. */
struct fw_facts {
        cc_vw_interpreter it;
        cc_vw_framework fw;
        cc_vw_fw_info info;
        cc_vw_fw_build build;
        cc_vw_fw_cudnn cudnn; /* the copy it loads, as the judge wrote it */
        cc_vw_gpu_call call;
};

static void read_framework(const cc_vw_interpreter *it, const cc_value *node, struct fw_facts *x)
{
        x->it = *it;
        cc_vw_framework_read(node, &x->fw, NULL);
        cc_vw_fw_info_read(x->fw.info, &x->info, NULL);
        cc_vw_fw_build_read(x->fw.build, &x->build, NULL);
        cc_vw_fw_cudnn_read(x->fw.cudnn, &x->cudnn, NULL);
        cc_vw_gpu_call_read(x->fw.gpu_call, &x->call, NULL);
}

/* The verdict `id` of a framework (all empty when it has none). */
static void verdict_of(const struct fw_facts *x, const char *id, cc_vw_verdict *v)
{
        size_t i;

        for (i = 0; i < cc_v_len(x->fw.verdicts); i++)
                if (cc_vw_verdict_at(x->fw.verdicts, i, v, NULL) == 0 && v->id != NULL && strcmp(v->id, id) == 0)
                        return;
        memset(v, 0, sizeof(*v));
}

static int status_is(const cc_vw_verdict *v, const char *status)
{
        return v->status != NULL && strcmp(v->status, status) == 0;
}

/* Evidence every framework finding carries. */
static int common_ev(struct cc_dctx *d, cc_value *f, const struct fw_facts *x)
{
        TRY_RET(cc_finding_ev_str(f, "python", x->it.path, d->err));
        TRY_RET(cc_finding_ev_str(f, "framework", x->fw.name, d->err));
        TRY_RET(cc_finding_ev_str(f, "version", x->info.version, d->err));
        if (x->cudnn.directory != NULL) {
                TRY_RET(cc_finding_ev_str(f, "loads", x->cudnn.directory, d->err));
                TRY_RET(cc_finding_ev_str(f, "loaded_version", x->cudnn.version, d->err));
                /* a load that mixes another release from that directory
                 * (LD_LIBRARY_PATH ahead of the framework's own copy) is the
                 * cause of what the framework shows */
                TRY_RET(cc_finding_about(d, f, CC_SUBJ_MIX_SOURCE, x->cudnn.directory));
        }
        return 0;
}

static const char *version_or(const struct fw_facts *x)
{
        return x->info.version ? x->info.version : "";
}

/* The framework loads its own copy (its wheel, its bundled one) and a plain
 * program another release: nothing is wrong, but it is why "PyTorch shows
 * another cuDNN version" than the one installed for everything else. */
static int own_copy_note(struct cc_dctx *d, const struct fw_facts *x)
{
        cc_vw_resolution plain;
        const char *pv, *fv = x->cudnn.version;
        cc_value *f;

        cc_vw_resolution_read(cc_dx_plain_cudnn(d), &plain, NULL);
        pv = plain.installation_version;
        if (plain.node_ == NULL || pv == NULL || fv == NULL || strcmp(pv, fv) == 0)
                return 0;
        f = cc_finding(d, CC_F_FRAMEWORK_OTHER_CUDNN, "info", "frameworks",
                       "%s loads its own cuDNN %s from %s; a plain program gets cuDNN %s from %s",
                       cc_fw_label(x->fw.name), fv, x->cudnn.directory, pv, plain.path);
        if (f == NULL)
                return -1;
        TRY_RET(common_ev(d, f, x));
        TRY_RET(cc_finding_ev_str(f, "plain_program_gets", plain.path, d->err));
        TRY_RET(cc_finding_ev_str(f, "plain_program_version", pv, d->err));
        return cc_finding_fix(f, d->err,
                              "nothing to do if each gets the release it needs. %s follows its environment's "
                              "nvidia-cudnn wheel (pip install another release there to change it); a plain program "
                              "follows the loader path",
                              cc_fw_label(x->fw.name));
}

/* The finding of id fid that framework x gives, if any: a probe that failed
 * says only that, a CPU-only build only that; else each verdict that is not
 * a pass (the cuDNN version rule, one directory, the expected copy, the GPU
 * call) is its finding. */
static int one_framework(struct cc_dctx *d, const struct fw_facts *x, enum cc_fid fid)
{
        const char *name = x->fw.name, *state = x->fw.state, *python = x->it.path;
        const char *dir = x->cudnn.directory;
        cc_vw_verdict v;
        cc_value *f;

        if (state == NULL || strcmp(state, "ok") != 0) {
                if (fid != CC_F_FRAMEWORK_PROBE_FAILED)
                        return 0;
                f = cc_finding(d, fid, "warning", "frameworks", "%s in %s: %s", cc_fw_label(name), cc_dx_str(python),
                               x->fw.error ? x->fw.error : "the probe gave no answer");
                if (f == NULL)
                        return -1;
                TRY_RET(common_ev(d, f, x));
                TRY_RET(cc_finding_ev_str(f, "state", state, d->err));
                return cc_finding_fix(f, d->err, "see the whole error: %s -c 'import %s'", cc_dx_str(python),
                                      name ? name : "");
        }
        verdict_of(x, "cuda-build", &v);
        if (status_is(&v, "fail")) {
                /* TensorFlow has no GPU build on native Windows since 2.11 */
                int tfwin = d->windows && name && strcmp(name, "tensorflow") == 0;
                cc_vw_distribution d0;

                if (fid != (tfwin ? CC_F_WIN_TF_NATIVE_GPU_DROPPED : CC_F_FRAMEWORK_CPU_ONLY))
                        return 0;
                f = cc_finding(d, fid, "warning", "frameworks", "%s %s in %s is a CPU-only build: it never loads cuDNN",
                               cc_fw_label(name), version_or(x), cc_dx_str(python));
                if (f == NULL)
                        return -1;
                TRY_RET(common_ev(d, f, x));
                cc_vw_distribution_at(x->fw.distributions, 0, &d0, NULL);
                TRY_RET(cc_finding_ev_str(f, "distribution_location", d0.location, d->err));
                return cc_finding_fix(f, d->err, "%s", v.fix ? v.fix : "");
        }
        verdict_of(x, "version-rule", &v);
        if (status_is(&v, "fail")) {
                const char *bs = x->build.cudnn, *rs = x->cudnn.version;
                int bparts[4] = {0}, rparts[4] = {0};
                int other_major =
                    cc_fw_version_parts(bs, bparts) && cc_fw_version_parts(rs, rparts) && bparts[0] != rparts[0];

                if (fid == (other_major ? CC_F_MAJOR_MISMATCH : CC_F_RUNTIME_OLDER_THAN_BUILD)) {
                        f = cc_finding(d, fid, "error", "frameworks", "%s %s in %s: %s", cc_fw_label(name),
                                       version_or(x), cc_dx_str(python), cc_dx_str(v.summary));
                        if (f == NULL)
                                return -1;
                        TRY_RET(common_ev(d, f, x));
                        TRY_RET(cc_finding_ev_str(f, "build_cudnn", bs, d->err));
                        TRY_RET(cc_finding_fix(f, d->err,
                                               "make %s load a cuDNN of major %d with a minor of at least the build's: "
                                               "take the directory %s off LD_LIBRARY_PATH/PATH (run with env -u "
                                               "LD_LIBRARY_PATH to see), or install the release the framework pins in "
                                               "its environment",
                                               cc_fw_label(name), bparts[0], dir ? dir : "(unknown)"));
                }
        } else if ((status_is(&v, "warn") || status_is(&v, "note")) && fid == CC_F_KNOWN_BAD_VERSION) {
                f = cc_finding(d, fid, status_is(&v, "warn") ? "warning" : "info", "frameworks", "%s in %s: %s",
                               cc_fw_label(name), cc_dx_str(python), cc_dx_str(v.summary));
                if (f == NULL)
                        return -1;
                TRY_RET(common_ev(d, f, x));
                TRY_RET(cc_finding_fix(f, d->err, "install a cuDNN release the tables do not list as bad for %s",
                                       cc_fw_label(name)));
        }
        verdict_of(x, "one-directory", &v);
        if (status_is(&v, "fail") && fid == CC_F_FRAMEWORK_MIXED_LOAD) {
                f = cc_finding(d, fid, "error", "frameworks", "%s in %s: %s", cc_fw_label(name), cc_dx_str(python),
                               cc_dx_str(v.summary));
                if (f == NULL)
                        return -1;
                TRY_RET(common_ev(d, f, x));
                TRY_RET(cc_finding_ev(f, "directories", cc_v_copy(x->cudnn.directories, d->err), d->err));
                TRY_RET(
                    cc_finding_fix(f, d->err,
                                   "keep one complete cuDNN set first on the search path: take the other directories "
                                   "off LD_LIBRARY_PATH/PATH, or reinstall the copy that lacks libraries"));
        }
        verdict_of(x, "expected-copy", &v);
        if ((status_is(&v, "warn") || status_is(&v, "note")) && fid == CC_F_FRAMEWORK_OTHER_CUDNN) {
                int note = status_is(&v, "note");
                /* the judge writes the expected copy as a string */
                const char *expected = cc_v_as_str(v.expected);

                f = cc_finding(d, fid, note ? "info" : "warning", "frameworks", "%s", cc_dx_str(v.summary));
                if (f == NULL)
                        return -1;
                TRY_RET(common_ev(d, f, x));
                TRY_RET(cc_finding_ev_str(f, "expected", expected, d->err));
                TRY_RET(cc_finding_ev_str(f, "expected_kind", v.expected_kind, d->err));
                if (note)
                        TRY_RET(
                            cc_finding_fix(f, d->err,
                                           "nothing is wrong if each gets the release it needs: %s uses its own copy. "
                                           "To give %s another release, install that nvidia-cudnn wheel in its "
                                           "environment; to give plain programs the framework's copy, put %s first on "
                                           "the loader path",
                                           cc_fw_label(name), cc_fw_label(name), dir ? dir : "its directory"));
                else
                        TRY_RET(cc_finding_fix(f, d->err,
                                               "make %s load %s: take the directory it loads now (%s) off "
                                               "LD_LIBRARY_PATH/PATH, or reinstall the pinned wheel (pip install the "
                                               "release the framework requires)",
                                               cc_fw_label(name), expected ? expected : "", dir ? dir : "?"));
        }
        if (status_is(&v, "pass") && v.expected_kind != NULL && strcmp(v.expected_kind, "plain") != 0 &&
            fid == CC_F_FRAMEWORK_OTHER_CUDNN)
                TRY_RET(own_copy_note(d, x));
        verdict_of(x, "gpu-call", &v);
        if (status_is(&v, "fail")) {
                const char *e = x->call.error ? x->call.error : v.summary;
                enum cc_fid id = CC_F_FRAMEWORK_GPU_FAILED;

                /* ONNX Runtime without the cuDNN wheel on its path; TensorFlow
                 * out of GPU memory for cuDNN's workspace */
                if (name && strcmp(name, "onnxruntime") == 0 && CC_VW_HAS(&x->call, gpu_call, cuda_provider_created) &&
                    !x->call.cuda_provider_created && e && strstr(e, "cuDNN") != NULL)
                        id = CC_F_PIP_CUDNN_NOT_ON_PATH;
                else if (name && strcmp(name, "tensorflow") == 0 && e &&
                         (strstr(e, "INTERNAL_ERROR") != NULL || strstr(e, "Failed to get convolution algorithm")))
                        id = CC_F_INTERNAL_ERROR_GPU_MEMORY;
                if (id != fid)
                        return 0;
                f = cc_finding(d, fid, "error", "frameworks", "%s in %s: %s", cc_fw_label(name), cc_dx_str(python),
                               cc_dx_str(e));
                if (f == NULL)
                        return -1;
                TRY_RET(common_ev(d, f, x));
                TRY_RET(cc_finding_ev_str(f, "call", x->call.what, d->err));
                TRY_RET(cc_finding_ev_str(f, "log", x->call.log, d->err));
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
static int two_stacks(struct cc_dctx *d, const cc_vw_interpreter *it)
{
        size_t i, k;

        for (i = 0; i < cc_v_len(it->frameworks); i++)
                for (k = i + 1; k < cc_v_len(it->frameworks); k++) {
                        struct fw_facts a, b;
                        const char *da, *db, *va, *vb;
                        cc_value *f;

                        read_framework(it, cc_v_at(it->frameworks, i), &a);
                        read_framework(it, cc_v_at(it->frameworks, k), &b);
                        da = a.cudnn.directory;
                        db = b.cudnn.directory;
                        va = a.cudnn.version;
                        vb = b.cudnn.version;
                        if (da == NULL || db == NULL || strcmp(da, db) == 0 ||
                            (va != NULL && vb != NULL && strcmp(va, vb) == 0))
                                continue;
                        f = cc_finding(d, CC_F_TWO_STACKS_ONE_PROCESS, NULL, NULL,
                                       "%s loads cuDNN %s from %s and %s cuDNN %s from %s: imported in one process "
                                       "(%s), the first one loaded wins",
                                       cc_fw_label(a.fw.name), va ? va : "?", da, cc_fw_label(b.fw.name), vb ? vb : "?",
                                       db, cc_dx_str(it->path));
                        if (f == NULL)
                                return -1;
                        TRY_RET(cc_finding_ev_str(f, "python", it->path, d->err));
                        TRY_RET(cc_finding_fix(f, d->err,
                                               "align %s and %s on one cuDNN release, or use them in separate "
                                               "processes or environments",
                                               cc_fw_label(a.fw.name), cc_fw_label(b.fw.name)));
                }
        return 0;
}

/* A framework of a conda environment loading a cuDNN from outside it while
 * the environment has its own. */
static int conda_order(struct cc_dctx *d, const cc_vw_interpreter *it)
{
        cc_vw_python py;
        cc_vw_list_doc list;
        cc_vw_installation own;
        const char *prefix;
        int have_own = 0;
        size_t i, n;

        cc_vw_python_read(it->python, &py, NULL);
        cc_vw_list_doc_read(d->list, &list, NULL);
        prefix = py.prefix;
        if (!py.conda || prefix == NULL)
                return 0;
        n = strlen(prefix);
        for (i = 0; i < cc_v_len(list.installations) && !have_own; i++) {
                const char *p;

                cc_vw_installation_at(list.installations, i, &own, NULL);
                p = own.prefix;
                have_own = p && strncmp(p, prefix, n) == 0 && (p[n] == '\0' || p[n] == '/' || p[n] == '\\');
        }
        if (!have_own)
                return 0;
        for (i = 0; i < cc_v_len(it->frameworks); i++) {
                struct fw_facts x;
                const char *dir;
                cc_value *f;

                read_framework(it, cc_v_at(it->frameworks, i), &x);
                dir = x.cudnn.directory;
                if (dir == NULL || (strncmp(dir, prefix, n) == 0 && (dir[n] == '/' || dir[n] == '\\')))
                        continue;
                f = cc_finding(d, CC_F_CONDA_VS_SYSTEM_ORDER, "warning", "frameworks",
                               "%s in the conda environment %s loads cuDNN %s from %s, not the environment's own %s",
                               cc_fw_label(x.fw.name), prefix, x.cudnn.version ? x.cudnn.version : "?", dir,
                               own.version ? own.version : "(version unknown)");
                if (f == NULL)
                        return -1;
                TRY_RET(common_ev(d, f, &x));
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
        cc_vw_doctor_facts facts;
        cc_vw_fw_facts fws;
        size_t i, k;

        cc_vw_doctor_facts_read(d->facts, &facts, NULL);
        cc_vw_fw_facts_read(facts.frameworks, &fws, NULL);
        for (i = 0; i < cc_v_len(fws.interpreters); i++) {
                cc_vw_interpreter it;

                cc_vw_interpreter_at(fws.interpreters, i, &it, NULL);
                for (k = 0; k < cc_v_len(it.frameworks); k++) {
                        struct fw_facts x;

                        read_framework(&it, cc_v_at(it.frameworks, k), &x);
                        TRY_RET(one_framework(d, &x, fid));
                }
                if (fid == CC_F_TWO_STACKS_ONE_PROCESS)
                        TRY_RET(two_stacks(d, &it));
                if (fid == CC_F_CONDA_VS_SYSTEM_ORDER)
                        TRY_RET(conda_order(d, &it));
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
