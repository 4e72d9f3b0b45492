/* Checks on what the loader finds (the which and deps facts): cuDNN not on
 * the search path, sub-libraries or their dependencies that cannot be
 * loaded, NVRTC and cuBLASLt of the right CUDA major, a mixed set in one
 * process, conda against system order, WSL's libcuda. cc_src_deps gives
 * the finding each deps document shows to the checks of those ids (the
 * sub-library sets here, the win- ids in checks_windows.c). */
#include "doctor.h"

#include <stdio.h>
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

/* The releases of a deps summary's directory set, "9.14.0 + 9.19.0", in b
 * ("release unknown" for none). */
static const char *set_releases(const cc_vw_deps_cudnn_set *s, char *b, size_t len)
{
        size_t j, o = 0;

        b[0] = '\0';
        for (j = 0; j < cc_v_len(s->versions) && o < len; j++)
                o += (size_t)snprintf(b + o, len - o, "%s%s", j ? " + " : "",
                                      cc_dx_str(cc_v_as_str(cc_v_at(s->versions, j))));
        return b[0] ? b : "release unknown";
}

/* "libcudnn_graph.so.9.14.0 and 6 more" of a set, into buf. */
static int set_files(cc_buf *b, const cc_vw_deps_cudnn_set *s, cc_error *err)
{
        size_t n = cc_v_len(s->files);

        if (n == 0)
                return cc_buf_puts(b, "?", err);
        TRY_RET(cc_buf_puts(b, cc_dx_str(cc_v_as_str(cc_v_at(s->files, 0))), err));
        if (n == 2)
                return cc_buf_printf(b, err, " and %s", cc_dx_str(cc_v_as_str(cc_v_at(s->files, 1))));
        return n > 2 ? cc_buf_printf(b, err, " and %zu more", n - 1) : 0;
}

/* Whether two sets hold the same releases. */
static int same_releases(const cc_vw_deps_cudnn_set *a, const cc_vw_deps_cudnn_set *b)
{
        size_t i, j;

        if (cc_v_len(a->versions) != cc_v_len(b->versions))
                return 0;
        for (i = 0; i < cc_v_len(a->versions); i++) {
                int found = 0;

                for (j = 0; j < cc_v_len(b->versions); j++)
                        found |= strcmp(cc_dx_str(cc_v_as_str(cc_v_at(a->versions, i))),
                                        cc_dx_str(cc_v_as_str(cc_v_at(b->versions, j)))) == 0;
                if (!found)
                        return 0;
        }
        return 1;
}

/* Whether a mixed load's releases differ only between the shim and what it
 * loads: the libraries it loads are all of one release, the shim another. */
static int shim_only(const cc_vw_deps_cudnn *m)
{
        const char *t = cc_v_as_str(cc_v_at(m->target_versions, 0)), *l = cc_v_as_str(cc_v_at(m->loaded_versions, 0));

        return cc_v_len(m->target_versions) == 1 && cc_v_len(m->loaded_versions) == 1 && t != NULL && l != NULL &&
               strcmp(t, l) != 0;
}

/* A load that takes cuDNN libraries of more than one release (the deps
 * summary), unless discovery already saw the mix in one folder: the
 * directories that give a release other than the shim's are the cause, and
 * every load they mix is one finding (the runner folds the others into the
 * first, with the proof's failures of the same installation). */
static int deps_mixed(struct cc_dctx *d, enum cc_fid fid)
{
        size_t i, k;

        for (i = 0; i < cc_v_len(d->deps); i++) {
                cc_vw_deps_entry e;
                cc_vw_deps_doc doc;
                cc_vw_deps_summary sum;
                cc_vw_deps_cudnn mixed;
                cc_vw_deps_cudnn_set own, s;
                const cc_vw_installation *inst;
                int major;
                enum cc_fid mid;
                cc_value *f;
                cc_buf b = {0};
                char rb[128], ob[128];
                size_t nforeign = 0;

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
                /* the target's own directory comes first (the walk's order) */
                cc_vw_deps_cudnn_set_at(mixed.sets, 0, &own, NULL);
                if (cc_buf_printf(&b, d->err, "loading %s (cuDNN %s) takes ", cc_dx_str(e.target),
                                  set_releases(&own, ob, sizeof(ob))) < 0)
                        goto fail;
                for (k = 1; k < cc_v_len(mixed.sets); k++) {
                        cc_vw_deps_cudnn_set_at(mixed.sets, k, &s, NULL);
                        if (same_releases(&own, &s))
                                continue;
                        if (cc_buf_printf(&b, d->err, "%scuDNN %s libraries from %s (", nforeign++ ? "; " : "",
                                          set_releases(&s, rb, sizeof(rb)), cc_dx_str(s.directory)) < 0 ||
                            set_files(&b, &s, d->err) < 0 || cc_buf_putc(&b, ')', d->err) < 0)
                                goto fail;
                }
                if (nforeign == 0 && cc_buf_printf(&b, d->err, "cuDNN of %zu releases", cc_v_len(mixed.versions)) < 0)
                        goto fail;
                if (shim_only(&mixed))
                        /* the shim only dispatches: the sub-libraries agree
                         * with each other and do the work, so cuDNN's own
                         * checks pass (the GPU machine's breaks), but the
                         * version it reports is theirs */
                        f = cc_finding(d, fid, "warning", "loader",
                                       "%s: the shim of cuDNN %s runs the sub-libraries of cuDNN %s; cuDNN's own "
                                       "checks pass, but cudnnGetVersion reports %s, and a program built with %s's "
                                       "headers that compares them (PyTorch) refuses it",
                                       b.data, cc_dx_str(cc_v_as_str(cc_v_at(mixed.target_versions, 0))),
                                       cc_dx_str(cc_v_as_str(cc_v_at(mixed.loaded_versions, 0))),
                                       cc_dx_str(cc_v_as_str(cc_v_at(mixed.loaded_versions, 0))),
                                       cc_dx_str(cc_v_as_str(cc_v_at(mixed.target_versions, 0))));
                else
                        f = cc_finding(d, fid, "error", "loader",
                                       "%s: a mixed set, which fails (CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH, "
                                       "missing symbols or wrong results)",
                                       b.data);
                cc_buf_free(&b);
                TRY_RET(cc_finding_ev(f, "installation", cc_v_int(e.installation, d->err), d->err));
                TRY_RET(cc_finding_ev(f, "directories", cc_v_copy(mixed.directories, d->err), d->err));
                TRY_RET(cc_finding_ev(f, "versions", cc_v_copy(mixed.versions, d->err), d->err));
                TRY_RET(cc_finding_ev(f, "sets", cc_v_copy(mixed.sets, d->err), d->err));
                TRY_RET(cc_finding_explains_id(d, f, CC_SUBJ_INSTALLATION, e.installation));
                /* the cause: the first directory that answers with another
                 * release (where the shim's own loads went); the others are
                 * what that release's libraries load in turn */
                for (k = 1; k < cc_v_len(mixed.sets); k++) {
                        cc_vw_deps_cudnn_set_at(mixed.sets, k, &s, NULL);
                        if (s.directory == NULL || (nforeign > 0 && same_releases(&own, &s)))
                                continue;
                        TRY_RET(cc_finding_explains(d, f, CC_SUBJ_MIX_SOURCE, s.directory));
                        TRY_RET(cc_finding_about(d, f, CC_SUBJ_MIX_SOURCE, s.directory));
                        break;
                }
                TRY_RET(cc_finding_fix(f, d->err,
                                       "keep one complete release per directory and make sure no other cuDNN "
                                       "directory comes first (LD_LIBRARY_PATH, ld.so.conf); 'cudnnctl deps "
                                       "%s' shows where each library comes from",
                                       cc_dx_str(e.target)));
                continue;
        fail:
                cc_buf_free(&b);
                return -1;
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

/* ---- one release from several directories ---------------------------------------- */

/* Why a load of installation `inst` takes a library of set s elsewhere:
 * the installation has its .so.M name but not the full release name cuDNN
 * asks for first (Linux: a copy made with 'cp -L' or of the .so.M links
 * only). The first such name, or NULL. */
static const char *short_named_only(const cc_value *inst, const cc_vw_deps_cudnn_set *s, char *b, size_t len)
{
        size_t i;

        for (i = 0; inst != NULL && i < cc_v_len(s->files); i++) {
                const char *full = cc_v_as_str(cc_v_at(s->files, i));
                const char *so = full ? strstr(full, ".so.") : NULL;
                const char *dot = so ? strchr(so + 4, '.') : NULL;

                if (dot == NULL || (size_t)(dot - full) >= len)
                        continue;
                snprintf(b, len, "%.*s", (int)(dot - full), full);
                if (cc_dx_inst_file(inst, b) != NULL && cc_dx_inst_file(inst, full) == NULL)
                        return full;
        }
        return NULL;
}

/* A load that takes one release of cuDNN from more than one directory (the
 * deps summary): it works, but an update of one of them alone makes it a
 * mixed set. */
int cc_check_split_directories(struct cc_dctx *d)
{
        size_t i, k;

        for (i = 0; i < cc_v_len(d->deps); i++) {
                cc_vw_deps_entry e;
                cc_vw_deps_doc doc;
                cc_vw_deps_summary sum;
                cc_vw_deps_cudnn cud;
                cc_vw_deps_cudnn_set own, s;
                const cc_value *inst;
                const char *full = NULL;
                char rb[128], nb[256];
                cc_buf b = {0};
                cc_value *f;
                int rc;

                cc_vw_deps_entry_at(d->deps, i, &e, NULL);
                cc_vw_deps_doc_read(e.document, &doc, NULL);
                cc_vw_deps_summary_read(doc.summary, &sum, NULL);
                cc_vw_deps_cudnn_read(sum.cudnn, &cud, NULL);
                if (e.document == NULL || !cud.split || cud.mixed || cc_v_len(cud.sets) < 2)
                        continue;
                inst = cc_dx_install(d, e.installation);
                cc_vw_deps_cudnn_set_at(cud.sets, 0, &own, NULL);
                rc = cc_buf_printf(&b, d->err, "loading %s takes cuDNN %s from %zu directories: ", cc_dx_str(e.target),
                                   set_releases(&own, rb, sizeof(rb)), cc_v_len(cud.sets));
                for (k = 0; rc == 0 && k < cc_v_len(cud.sets); k++) {
                        cc_vw_deps_cudnn_set_at(cud.sets, k, &s, NULL);
                        rc = cc_buf_puts(&b, k ? "; " : "", d->err) < 0 || set_files(&b, &s, d->err) < 0 ||
                                     cc_buf_printf(&b, d->err, " from %s", cc_dx_str(s.directory)) < 0
                                 ? -1
                                 : 0;
                        if (full == NULL && k > 0 && !d->windows)
                                full = short_named_only(inst, &s, nb, sizeof(nb));
                }
                if (rc == 0 && full != NULL)
                        rc = cc_buf_printf(&b, d->err,
                                           " (%s has %s but not %s, the name cuDNN asks for first, so the "
                                           "search takes the other directory's)",
                                           cc_dx_str(own.directory), nb, full);
                if (rc < 0) {
                        cc_buf_free(&b);
                        return -1;
                }
                f = cc_finding(d, CC_F_SPLIT_DIRECTORIES, NULL, NULL,
                               "%s: one release, which works while both hold it, but an update of one of them "
                               "alone makes a mixed set",
                               b.data);
                cc_buf_free(&b);
                TRY_RET(cc_finding_ev(f, "installation", cc_v_int(e.installation, d->err), d->err));
                TRY_RET(cc_finding_ev(f, "sets", cc_v_copy(cud.sets, d->err), d->err));
                if (d->windows)
                        TRY_RET(cc_finding_fix(f, d->err,
                                               "keep one copy of each cuDNN DLL on the search path; 'cudnnctl deps "
                                               "%s' shows where each library comes from",
                                               cc_dx_str(e.target)));
                else if (full != NULL)
                        TRY_RET(cc_finding_fix(f, d->err,
                                               "give %s every library under its full release name too (copy with "
                                               "'cp -a', which keeps the names and links, or 'cudnnctl install'), or "
                                               "take it off the search path; 'cudnnctl deps %s' shows where each "
                                               "library comes from",
                                               cc_dx_str(own.directory), cc_dx_str(e.target)));
                else
                        TRY_RET(cc_finding_fix(f, d->err,
                                               "keep one complete cuDNN per directory and one of them on the search "
                                               "path (LD_LIBRARY_PATH, ld.so.conf): the other directories' copies "
                                               "answer this load's names first; 'cudnnctl deps %s' shows where each "
                                               "library comes from",
                                               cc_dx_str(e.target)));
        }
        return 0;
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
