/* Checks on what the loader finds (the which and deps facts): cuDNN not on
 * the search path, sub-libraries or their dependencies that cannot be
 * loaded, NVRTC and cuBLASLt of the right CUDA major, a mixed set in one
 * process, conda against system order, WSL's libcuda. cc_src_deps gives
 * the finding each deps document shows to the checks of those ids (the
 * sub-library sets here, the win- ids in checks_windows.c). */
#include "doctor.h"

#include <stdlib.h>
#include <string.h>

/* The directory of the installation's shim. */
static const char *lib_dir_of(const cc_vw_installation *inst)
{
        const cc_value *dirs = inst->directories;
        cc_vw_inst_dir dir;
        size_t i;

        for (i = 0; i < cc_v_len(dirs); i++) {
                cc_vw_inst_dir_at(dirs, i, &dir, NULL);
                if (dir.in_prefix != NULL && strstr(dir.in_prefix, "include") == NULL)
                        return dir.path;
        }
        cc_vw_inst_dir_at(dirs, 0, &dir, NULL);
        return dir.path;
}

/* The kind of an installation's provenance, or NULL. */
static const char *prov_kind(const cc_vw_installation *inst)
{
        cc_vw_provenance pv;

        cc_vw_provenance_read(inst->provenance, &pv, NULL);
        return pv.kind;
}

static int all_wheels(const struct cc_dctx *d)
{
        size_t i;

        for (i = 0; i < d->v.ninsts; i++) {
                const char *k = prov_kind(&d->v.insts[i]);

                if (k == NULL || strcmp(k, "pip-wheel") != 0)
                        return 0;
        }
        return d->v.ninsts > 0;
}

/* A plain program finds no libcudnn on Linux although installations exist:
 * linux-libcudnn-not-found, or pip-cudnn-not-on-path when they are all
 * wheels (frameworks preload those); the Windows checks name the cause
 * there (installer subfolder, PATH, Python). */
static int not_on_path(struct cc_dctx *d, enum cc_fid fid)
{
        const cc_vw_installation *first;
        const char *dir;
        cc_value *f;
        char *fix;
        int wheels;

        if (d->v.ninsts == 0 || cc_dx_plain_cudnn(d) != NULL || d->which == NULL || d->windows)
                return 0;
        first = &d->v.insts[0];
        dir = lib_dir_of(first);
        wheels = all_wheels(d);
        if (wheels != (fid == CC_F_PIP_CUDNN_NOT_ON_PATH))
                return 0;
        if (wheels)
                f = cc_finding(d, fid, NULL, NULL,
                               "cuDNN is here only as a pip wheel (%s): frameworks that preload it (PyTorch) work, "
                               "but a plain program or ONNX Runtime finds no libcudnn",
                               first->prefix);
        else
                f = cc_finding(d, fid, NULL, NULL,
                               "a plain program finds no libcudnn.so.N although %zu installation(s) exist: %s is not "
                               "on the loader's search path",
                               d->v.ninsts, dir ? dir : first->prefix);
        if (f == NULL)
                return -1;
        TRY_RET(cc_finding_ev_str(f, "directory", dir, d->err));
        TRY_RET(cc_finding_ev_str(f, "version", first->version, d->err));
        if (dir == NULL)
                return 0;
        fix = cc_fix_prepend(d, "LD_LIBRARY_PATH", dir, d->err);
        if (fix == NULL)
                return -1;
        if (cc_finding_fix(f, d->err,
                           "for this shell: %s; for every program: echo '%s' | sudo tee "
                           "/etc/ld.so.conf.d/cudnn.conf && sudo ldconfig%s",
                           fix, dir,
                           wheels ? "; in Python, 'import torch' first or onnxruntime.preload_dlls()" : "") < 0) {
                free(fix);
                return -1;
        }
        free(fix);
        return 0;
}

int cc_check_linux_libcudnn_not_found(struct cc_dctx *d)
{
        return not_on_path(d, CC_F_LINUX_LIBCUDNN_NOT_FOUND);
}

/* cuDNN only as a pip wheel: on Linux, on Windows (where the cause of "no
 * cudnn64_N.dll" is that), and ONNX Runtime's GPU call failing for it. */
int cc_check_pip_cudnn_not_on_path(struct cc_dctx *d)
{
        TRY_RET(not_on_path(d, CC_F_PIP_CUDNN_NOT_ON_PATH));
        TRY_RET(cc_src_win_not_found(d, CC_F_PIP_CUDNN_NOT_ON_PATH));
        return cc_src_frameworks(d, CC_F_PIP_CUDNN_NOT_ON_PATH);
}

/* Whether the installation's own problems explain why `name` is missing:
 * a file whose SONAME is `name` has no link of that name beside it. */
static int soname_link_missing(const cc_vw_installation *inst, const char *name)
{
        size_t j, k, n;

        for (j = 0; inst != NULL && j < cc_v_len(inst->problems); j++) {
                cc_vw_problem p;

                cc_vw_problem_at(inst->problems, j, &p, NULL);
                if (p.kind == NULL || strcmp(p.kind, "missing-soname-link") != 0)
                        continue;
                for (k = 0; k < cc_v_len(p.paths); k++)
                        for (n = 0; n < cc_v_len(inst->files); n++) {
                                const char *pk = cc_v_as_str(cc_v_at(p.paths, k));
                                cc_vw_file f;

                                cc_vw_file_at(inst->files, n, &f, NULL);
                                if (f.path != NULL && f.soname != NULL && pk != NULL && strcmp(f.path, pk) == 0 &&
                                    strcmp(f.soname, name) == 0)
                                        return 1;
                        }
        }
        return 0;
}

/* Discovery already reported this kind of problem for the installation. */
static int has_problem(const cc_vw_installation *inst, const char *kind)
{
        size_t i;

        for (i = 0; inst != NULL && i < cc_v_len(inst->problems); i++) {
                cc_vw_problem p;

                cc_vw_problem_at(inst->problems, i, &p, NULL);
                if (p.kind != NULL && strcmp(p.kind, kind) == 0)
                        return 1;
        }
        return 0;
}

/* Each library that cannot be loaded from an installation's shim (a deps
 * edge that is missing or fails), once per name and document, without those
 * another finding names with its cause: the driver (the runtime checks say
 * it with its state) and a file whose SONAME link is missing (the broken
 * links' finding). */
int cc_dx_deps_misses(struct cc_dctx *d, int (*fn)(struct cc_dctx *d, const struct cc_dep_miss *m, void *arg),
                      void *arg)
{
        size_t i, j, k;

        for (i = 0; i < cc_v_len(d->deps); i++) {
                struct cc_dep_miss m;
                cc_vw_deps_doc doc;
                cc_strv seen = {0};
                int rc = 0;

                memset(&m, 0, sizeof(m));
                cc_vw_deps_entry_at(d->deps, i, &m.ventry, NULL);
                if (cc_vw_deps_doc_read(m.ventry.document, &doc, NULL) < 0)
                        continue;
                m.entry = m.ventry.node_;
                m.id = m.ventry.installation;
                m.vinst = cc_dx_inst(d, m.id);
                m.inst = cc_dx_install(d, m.id);
                m.major = cc_dx_major(m.inst);
                for (j = 0; j < cc_v_len(doc.nodes) && rc == 0; j++) {
                        cc_vw_node_at(doc.nodes, j, &m.vnode, NULL);
                        m.node = cc_v_at(doc.nodes, j);
                        for (k = 0; k < cc_v_len(m.vnode.edges) && rc == 0; k++) {
                                size_t s;
                                int dup = 0;

                                cc_vw_edge_at(m.vnode.edges, k, &m.vedge, NULL);
                                m.edge = cc_v_at(m.vnode.edges, k);
                                m.status = m.vedge.status;
                                m.name = m.vedge.name;
                                if (m.status == NULL || m.name == NULL ||
                                    (strcmp(m.status, "missing") && strcmp(m.status, "fails")))
                                        continue;
                                for (s = 0; s < seen.n; s++)
                                        dup |= strcmp(seen.v[s], m.name) == 0;
                                if (dup)
                                        continue;
                                if (cc_strv_push(&seen, m.name, d->err) < 0) {
                                        rc = -1;
                                        break;
                                }
                                if (strncmp(m.name, "libcuda.so", 10) == 0 || cc_strcasecmp(m.name, "nvcuda.dll") == 0)
                                        continue;
                                if (soname_link_missing(m.vinst, m.name))
                                        continue;
                                rc = fn(d, &m, arg);
                        }
                }
                cc_strv_free(&seen);
                if (rc < 0)
                        return -1;
        }
        return 0;
}

enum cc_fid cc_dx_edge_class(const struct cc_dctx *d, const struct cc_dep_miss *m, const char **sev, const char **what)
{
        const char *name = m->name, *kind = m->vedge.kind;

        *sev = "error";
        if (d->windows && strcmp(m->status, "fails") == 0 && m->vedge.windows_error == 193) {
                *what = "a DLL built for another machine (32-bit?) found first: error 193";
                return CC_F_WIN_WRONG_BITNESS;
        }
        if (strncmp(name, "libcudnn", 8) == 0 || cc_starts_with(name, "cudnn")) {
                if (m->major == 8 && !d->windows) {
                        *what = "a cuDNN 8 helper library";
                        return CC_F_LINUX_V8_HELPER_RPATH;
                }
                if (strstr(name, "engines") || strstr(name, "heuristic")) {
                        *what = "a cuDNN engine library";
                        return CC_F_V9_SUBLIBRARY_LOADING_FAILED;
                }
                *what = "a cuDNN sub-library";
                return d->windows ? CC_F_WIN_SUBLIB_126 : CC_F_V9_SUBLIB_UNLOADABLE;
        }
        if (strstr(name, "nvrtc") != NULL) {
                *sev = "warning";
                *what = "NVRTC, which the runtime-compiled engines compile with";
                return CC_F_NVRTC_MISSING;
        }
        if (strstr(name, "cublas") != NULL || strstr(name, "cudart") != NULL) {
                *what = "a CUDA library of the CUDA major cuDNN was built for";
                return CC_F_CUDA_MAJOR_MISMATCH;
        }
        if (cc_strcasecmp(name, "zlibwapi.dll") == 0) {
                *what = "zlibwapi.dll";
                return CC_F_WIN_ZLIBWAPI_MISSING;
        }
        *what = strcmp(kind ? kind : "", "runtime") == 0 ? "a library loaded at run time" : "a dependency";
        return d->windows ? CC_F_WIN_SUBLIB_126 : CC_F_DEPENDENCY_MISSING;
}

/* One edge's finding, when it is of the id asked for. */
static int edge_finding(struct cc_dctx *d, const struct cc_dep_miss *m, void *arg)
{
        enum cc_fid fid = *(const enum cc_fid *)arg;
        const char *sev, *what, *req = m->vnode.path;
        cc_vw_edge first;
        cc_value *f;

        if (cc_dx_edge_class(d, m, &sev, &what) != fid)
                return 0;
        f = cc_finding(d, fid, sev, "loader", "%s needs %s (%s), which cannot be %s (%s)", req, m->name, what,
                       strcmp(m->status, "fails") == 0 ? "loaded" : "found",
                       strcmp(m->status, "fails") == 0 ? "the loader stops on a bad file" : "not on the search path");
        if (f == NULL || cc_finding_ev_str(f, "requester", req, d->err) < 0 ||
            cc_finding_ev_str(f, "name", m->name, d->err) < 0 ||
            cc_finding_ev_str(f, "kind", m->vedge.kind, d->err) < 0 ||
            cc_finding_ev(f, "candidates", cc_v_copy(m->vedge.candidates, d->err), d->err) < 0 ||
            cc_finding_ev(f, "installation", cc_v_int(m->id, d->err), d->err) < 0 ||
            cc_finding_fix(f, d->err,
                           "install %s where %s's loader looks (its directory, RUNPATH, "
                           "LD_LIBRARY_PATH/PATH or the system's library path); 'cudnnctl deps "
                           "--missing %s' shows every place tried",
                           m->name, req ? cc_basename(req) : "the library", m->ventry.target) < 0)
                return -1;
        /* what the causes found elsewhere may explain: a sub-library of the
         * installation (a renamed shim), a library there in the
         * installation's own folder (no program reaches the folder), a DLL at
         * which the loader stops with error 193 (a 32-bit copy first) */
        if (fid == CC_F_WIN_SUBLIB_126 || fid == CC_F_V9_SUBLIBRARY_LOADING_FAILED)
                TRY_RET(cc_finding_about_id(d, f, CC_SUBJ_SUBLIB, m->id));
        if (d->windows && cc_dx_inst_file(m->inst, m->name) != NULL)
                TRY_RET(cc_finding_about_id(d, f, CC_SUBJ_UNREACHED, m->id));
        cc_vw_edge_read(cc_dx_deps_edge(d, m->id, m->name), &first, NULL);
        if (d->windows && first.windows_error == 193)
                TRY_RET(cc_finding_about(d, f, CC_SUBJ_BAD_IMAGE, m->name));
        return 0;
}

/* A load that pulls cuDNN libraries of more than one directory or release
 * (the deps summary), unless discovery already saw the mix in one folder. */
static int deps_mixed(struct cc_dctx *d, enum cc_fid fid)
{
        size_t i;

        for (i = 0; i < cc_v_len(d->deps); i++) {
                cc_vw_deps_entry e;
                cc_vw_deps_doc doc;
                cc_vw_deps_summary sum;
                cc_vw_deps_cudnn mixed;
                const cc_vw_installation *inst;
                int major;
                enum cc_fid mid;
                cc_value *f;

                cc_vw_deps_entry_at(d->deps, i, &e, NULL);
                cc_vw_deps_doc_read(e.document, &doc, NULL);
                cc_vw_deps_summary_read(doc.summary, &sum, NULL);
                cc_vw_deps_cudnn_read(sum.cudnn, &mixed, NULL);
                inst = cc_dx_inst(d, e.installation);
                major = cc_dx_major(cc_dx_install(d, e.installation));
                mid = d->windows   ? CC_F_WIN_SUBLIB_127
                      : major == 8 ? CC_F_LINUX_V8_MIXED_HELPERS
                                   : CC_F_V9_SUBLIBRARY_VERSION_MISMATCH;
                if (e.document == NULL || mid != fid || !mixed.mixed || has_problem(inst, "mixed-versions"))
                        continue;
                f = cc_finding(d, fid, "error", "loader",
                               "loading %s pulls cuDNN libraries from more than one directory or release: a mixed set "
                               "(CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH or missing symbols)",
                               e.target);
                TRY_RET(cc_finding_ev(f, "installation", cc_v_int(e.installation, d->err), d->err));
                TRY_RET(cc_finding_ev(f, "directories", cc_v_copy(mixed.directories, d->err), d->err));
                TRY_RET(cc_finding_ev(f, "versions", cc_v_copy(mixed.versions, d->err), d->err));
                TRY_RET(cc_finding_fix(f, d->err,
                                       "keep one complete release per directory and make sure no other cuDNN "
                                       "directory comes first (LD_LIBRARY_PATH, ld.so.conf); 'cudnnctl deps "
                                       "%s' shows where each library comes from",
                                       e.target));
        }
        return 0;
}

int cc_src_deps(struct cc_dctx *d, enum cc_fid fid)
{
        TRY_RET(deps_mixed(d, fid));
        return cc_dx_deps_misses(d, edge_finding, &fid);
}

/* ---- the sub-library sets: each failure mode from every fact that shows it --- */

int cc_check_v9_sublibrary_version_mismatch(struct cc_dctx *d)
{
        TRY_RET(cc_src_problems(d, CC_F_V9_SUBLIBRARY_VERSION_MISMATCH));
        TRY_RET(cc_src_deps(d, CC_F_V9_SUBLIBRARY_VERSION_MISMATCH));
        return cc_src_proof(d, CC_F_V9_SUBLIBRARY_VERSION_MISMATCH);
}

int cc_check_linux_v8_mixed_helpers(struct cc_dctx *d)
{
        TRY_RET(cc_src_problems(d, CC_F_LINUX_V8_MIXED_HELPERS));
        TRY_RET(cc_src_deps(d, CC_F_LINUX_V8_MIXED_HELPERS));
        return cc_src_proof(d, CC_F_LINUX_V8_MIXED_HELPERS);
}

int cc_check_v9_sublib_unloadable(struct cc_dctx *d)
{
        TRY_RET(cc_src_problems(d, CC_F_V9_SUBLIB_UNLOADABLE));
        return cc_src_deps(d, CC_F_V9_SUBLIB_UNLOADABLE);
}

int cc_check_linux_v8_helper_rpath(struct cc_dctx *d)
{
        TRY_RET(cc_src_problems(d, CC_F_LINUX_V8_HELPER_RPATH));
        return cc_src_deps(d, CC_F_LINUX_V8_HELPER_RPATH);
}

int cc_check_v9_sublibrary_loading_failed(struct cc_dctx *d)
{
        TRY_RET(cc_src_problems(d, CC_F_V9_SUBLIBRARY_LOADING_FAILED));
        TRY_RET(cc_src_deps(d, CC_F_V9_SUBLIBRARY_LOADING_FAILED));
        return cc_src_proof(d, CC_F_V9_SUBLIBRARY_LOADING_FAILED);
}

/* ---- the CUDA libraries cuDNN loads ----------------------------------------------- */

int cc_check_nvrtc_missing(struct cc_dctx *d)
{
        return cc_src_deps(d, CC_F_NVRTC_MISSING);
}

/* cuBLASLt or the CUDA runtime of cuDNN's CUDA major cannot be loaded, or
 * the proof's CUDA runtime check failed. */
int cc_check_cuda_major_mismatch(struct cc_dctx *d)
{
        TRY_RET(cc_src_deps(d, CC_F_CUDA_MAJOR_MISMATCH));
        return cc_src_proof(d, CC_F_CUDA_MAJOR_MISMATCH);
}

int cc_check_dependency_missing(struct cc_dctx *d)
{
        return cc_src_deps(d, CC_F_DEPENDENCY_MISSING);
}

/* The active conda environment's cuDNN is not what a plain program gets;
 * and a framework of a conda environment loads a cuDNN from outside it. */
int cc_check_conda_vs_system_order(struct cc_dctx *d)
{
        cc_vw_env env;
        cc_vw_resolution plain;
        const cc_vw_installation *conda = NULL, *pin;
        const char *cp;
        cc_value *f;
        char *fix;
        size_t i;

        cc_vw_env_read(d->v.host.env, &env, NULL);
        cp = env.CONDA_PREFIX;
        if (cp == NULL || d->windows || cc_vw_resolution_read(cc_dx_plain_cudnn(d), &plain, NULL) < 0)
                return cc_src_frameworks(d, CC_F_CONDA_VS_SYSTEM_ORDER);
        for (i = 0; i < d->v.ninsts; i++) {
                const cc_vw_installation *in = &d->v.insts[i];
                const char *k = prov_kind(in);

                if (k != NULL && strcmp(k, "conda-package") == 0 && in->prefix != NULL && strcmp(in->prefix, cp) == 0)
                        conda = in;
        }
        pin = cc_dx_inst(d, plain.installation);
        if (conda == NULL || pin == NULL || pin == conda)
                return cc_src_frameworks(d, CC_F_CONDA_VS_SYSTEM_ORDER);
        if (pin->version && conda->version && strcmp(pin->version, conda->version) == 0)
                return cc_src_frameworks(d, CC_F_CONDA_VS_SYSTEM_ORDER);
        f = cc_finding(d, CC_F_CONDA_VS_SYSTEM_ORDER, NULL, NULL,
                       "the active conda environment has cuDNN %s in %s/lib, but a plain program gets %s from %s",
                       conda->version ? conda->version : "?", cp, pin->version ? pin->version : "?", plain.path);
        TRY_RET(cc_finding_ev_str(f, "conda_prefix", cp, d->err));
        TRY_RET(cc_finding_ev_str(f, "plain_program_gets", plain.path, d->err));
        TRY_RET(cc_finding_ev_str(f, "how", plain.how, d->err));
        fix = cc_asprintf(d->err, "%s/lib", cp);
        if (fix == NULL)
                return -1;
        {
                char *line = cc_fix_prepend(d, "LD_LIBRARY_PATH", fix, d->err);
                int rc = line ? cc_finding_fix(f, d->err,
                                               "put the environment's lib first for builds and programs run in it: "
                                               "%s (or remove the other copy)",
                                               line)
                              : -1;

                free(line);
                free(fix);
                TRY_RET(rc);
        }
        return cc_src_frameworks(d, CC_F_CONDA_VS_SYSTEM_ORDER);
}

int cc_check_wsl_libcuda(struct cc_dctx *d)
{
        cc_vw_wsl w;
        cc_vw_resolution l1, l0;
        int has_l1 = cc_vw_resolution_read(cc_dx_which(d, "libcuda.so.1"), &l1, NULL) == 0;
        int has_l0 = cc_vw_resolution_read(cc_dx_which(d, "libcuda.so"), &l0, NULL) == 0;
        int v8 = 0;
        size_t i;
        cc_value *f;
        char *fix;

        cc_vw_wsl_read(d->v.host.wsl, &w, NULL);
        if (!w.detected || d->windows)
                return 0;
        for (i = 0; i < d->v.ninsts; i++)
                v8 |= cc_dx_major(d->v.insts[i].node_) == 8;
        if (has_l1 && !l1.found)
                f = cc_finding(d, CC_F_WSL_LIBCUDA, NULL, NULL,
                               "WSL: libcuda.so.1 is not found; the Windows driver's libraries live in "
                               "/usr/lib/wsl/lib, which is not on the loader's path");
        else if (v8 && has_l0 && !l0.found)
                f = cc_finding(d, CC_F_WSL_LIBCUDA, NULL, NULL,
                               "WSL: cuDNN 8 loads the unversioned libcuda.so, which the loader does not find "
                               "(/usr/lib/wsl/lib holds only libcuda.so.1 in the cache)");
        else
                return 0;
        TRY_RET(cc_finding_ev_str(f, "proc_version", w.proc_version, d->err));
        fix = cc_fix_prepend(d, "LD_LIBRARY_PATH", "/usr/lib/wsl/lib", d->err);
        if (fix == NULL)
                return -1;
        if (cc_finding_fix(f, d->err, "%s (keep /usr/lib/wsl/lib as WSL made it; do not copy libcuda into it)", fix) <
            0) {
                free(fix);
                return -1;
        }
        free(fix);
        return 0;
}
