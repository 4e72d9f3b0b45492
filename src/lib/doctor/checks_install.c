/* Checks on the installations themselves (the list facts): none found,
 * several, the problems discovery saw in each (broken links, renamed files,
 * mixed or incomplete sets, header and library disagreeing), headers, and
 * releases the knowledge base lists as bad. cc_src_problems gives the
 * finding each problem is to the checks of those ids (here and in
 * checks_loader.c, checks_windows.c). */
#include "doctor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kb/query.h"

static int cuda_major_hint(const struct cc_dctx *d)
{
        const cc_value *tk = d->v.host.toolkits;
        cudnnctl_ver v;
        size_t i;
        int best = 0;

        for (i = 0; i < cc_v_len(tk); i++) {
                cc_vw_toolkit t;

                cc_vw_toolkit_at(tk, i, &t, NULL);
                if (cudnnctl_ver_parse(t.version, &v) == 0 && v.part[0] > best)
                        best = (int)v.part[0];
        }
        return best;
}

int cc_check_no_cudnn(struct cc_dctx *d)
{
        cc_value *f;
        int cm = cuda_major_hint(d);

        if (d->v.ninsts > 0)
                return 0;
        f = cc_finding(d, CC_F_NO_CUDNN, NULL, NULL, "no cuDNN installation found %s",
                       d->live ? "on this machine" : "in this tree");
        TRY_RET(cc_finding_ev(f, "roots_searched", cc_v_int((int64_t)cc_v_len(d->v.list.roots), d->err), d->err));
        TRY_RET(cc_finding_ev(f, "cuda_toolkit_major", cm ? cc_v_int(cm, d->err) : cc_v_null(d->err), d->err));
        if (d->windows)
                return cc_finding_fix(f, d->err,
                                      "download cuDNN for CUDA %d from NVIDIA (the zip or the installer), copy its "
                                      "bin, include and lib folders into the CUDA toolkit (%%CUDA_PATH%%), then run "
                                      "'cudnnctl doctor' again; for Python only: pip install nvidia-cudnn-cu%d",
                                      cm ? cm : 12, cm ? cm : 12);
        return cc_finding_fix(f, d->err,
                              "Debian/Ubuntu with NVIDIA's CUDA repository: sudo apt-get install libcudnn9-cuda-%d "
                              "libcudnn9-dev-cuda-%d; for Python only: pip install nvidia-cudnn-cu%d; then run "
                              "'cudnnctl doctor' again",
                              cm ? cm : 12, cm ? cm : 12, cm ? cm : 12);
}

int cc_check_multiple_installations(struct cc_dctx *d)
{
        cc_vw_resolution plain;
        int64_t pid = cc_vw_resolution_read(cc_dx_plain_cudnn(d), &plain, NULL) == 0 ? plain.installation : 0;
        const cc_vw_installation *pin = cc_dx_inst(d, pid);
        cc_value *f, *arr;
        size_t i;

        if (d->v.ninsts < 2)
                return 0;
        if (pin != NULL) {
                char *ver = cc_dx_inst_version(pin, d->err);

                if (ver == NULL)
                        return -1;
                f = cc_finding(d, CC_F_MULTIPLE_INSTALLATIONS, NULL, NULL,
                               "%zu cuDNN installations; a plain program gets %s from %s, the others only programs "
                               "that load them by path, RPATH or their own search",
                               d->v.ninsts, ver, pin->prefix);
                free(ver);
        } else
                f = cc_finding(d, CC_F_MULTIPLE_INSTALLATIONS, NULL, NULL,
                               "%zu cuDNN installations, and a plain program finds none of them", d->v.ninsts);
        if (f == NULL)
                return -1;
        arr = cc_v_array(d->err);
        TRY_RET(cc_finding_ev(f, "installations", arr, d->err));
        for (i = 0; i < d->v.ninsts; i++) {
                const cc_vw_installation *in = &d->v.insts[i];
                cc_vw_provenance pv;
                const char *kind;
                int64_t id = in->id;
                cc_value *o = cc_v_object(d->err);
                const char *who;

                cc_vw_provenance_read(in->provenance, &pv, NULL);
                kind = pv.kind;
                TRY_RET(cc_v_push(arr, o, d->err));
                TRY_RET(cc_v_set_int(o, "id", id, d->err));
                TRY_RET(cc_v_set_str(o, "prefix", in->prefix, d->err));
                TRY_RET(cc_v_set_str(o, "version", in->version, d->err));
                if (in->version == NULL) {
                        char *ver = cc_dx_inst_version(in, d->err);

                        if (ver == NULL || cc_v_set_str(o, "versions", ver, d->err) < 0) {
                                free(ver);
                                return -1;
                        }
                        free(ver);
                }
                TRY_RET(cc_v_set_str(o, "provenance", kind, d->err));
                if (id == pid)
                        who = "a plain program (and a program built with -lcudnn) loads this one";
                else if (kind != NULL && strcmp(kind, "pip-wheel") == 0)
                        who = "Python frameworks of that environment load it (PyTorch preloads its wheel's copy)";
                else if (kind != NULL && strcmp(kind, "conda-package") == 0)
                        who = "programs of that conda environment (through its RPATH or CONDA_PREFIX/lib)";
                else
                        who = "programs that name it: RPATH/RUNPATH, LD_LIBRARY_PATH or PATH set to its directory";
                TRY_RET(cc_v_set_str(o, "used_by", who, d->err));
        }
        return cc_finding_fix(f, d->err,
                              "nothing to do if each program gets the copy it expects; 'cudnnctl which cudnn' shows "
                              "the search, 'cudnnctl verify ID' proves one installation");
}

/* Whether an "incomplete-set" summary ("cuDNN 9 libraries without a, b")
 * names only the engine and heuristic libraries (what graph loads itself:
 * CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED) and no sub-library the shim loads. */
static int only_engines_missing(const char *sum)
{
        const char *p = sum ? strstr(sum, " without ") : NULL;

        if (p == NULL)
                return 0;
        p += 9;
        while (*p != '\0') {
                size_t n = strcspn(p, ",");

                if (!((n >= 13 && strncmp(p, "cudnn_engines", 13) == 0) ||
                      (n == 15 && strncmp(p, "cudnn_heuristic", 15) == 0)))
                        return 0;
                p += n;
                while (*p == ',' || *p == ' ')
                        p++;
        }
        return 1;
}

/* An "incomplete-set" of major M that only a renamed file made (libcudnn.so.8
 * that is a cuDNN 9 shim): the renamed-file problem says it. */
static int set_of_renamed(const cc_value *ps, const char *sum)
{
        size_t j, k;
        int m;

        if (sum == NULL || sscanf(sum, "cuDNN %d ", &m) != 1)
                return 0;
        for (j = 0; j < cc_v_len(ps); j++) {
                cc_vw_problem p;

                cc_vw_problem_at(ps, j, &p, NULL);
                if (cc_fid_of(p.failure_mode) != CC_F_RENAMED_DLL)
                        continue;
                for (k = 0; k < cc_v_len(p.paths); k++) {
                        const char *pk = cc_v_as_str(cc_v_at(p.paths, k)), *b = pk ? cc_basename(pk) : NULL;
                        char tail[16];

                        snprintf(tail, sizeof(tail), ".so.%d", m);
                        if (b != NULL && cc_ends_with(b, tail))
                                return 1;
                }
        }
        return 0;
}

/* The ids a problem can be. */
static const enum cc_fid problem_ids[] = {
    CC_F_RENAMED_DLL,
    CC_F_LINUX_BROKEN_SYMLINKS,
    CC_F_HEADER_LIB_MISMATCH,
    CC_F_WIN_STALE_DLL_SHADOW,
    CC_F_UNREADABLE_FILE,
    CC_F_WIN_SUBLIB_127,
    CC_F_V9_SUBLIBRARY_VERSION_MISMATCH,
    CC_F_LINUX_V8_MIXED_HELPERS,
    CC_F_WIN_SUBLIB_126,
    CC_F_V9_SUBLIB_UNLOADABLE,
    CC_F_LINUX_V8_HELPER_RPATH,
    CC_F_V9_SUBLIBRARY_LOADING_FAILED,
    CC_F_LDCONFIG_NOT_RUN,
};

/* The finding problem p of an installation (its problems ps, its major) is:
 * discovery's failure_mode (the catalog's id), refined on Linux where
 * discovery does not tell cuDNN 8 from 9 nor the engines from the
 * sub-libraries; CC_F_NONE for a problem that is no finding of its own (an
 * incomplete set a renamed file made) or that names none a problem can be (a
 * document from elsewhere may carry anything). */
static enum cc_fid problem_class(const struct cc_dctx *d, const cc_value *ps, const cc_vw_problem *p, int major)
{
        const char *kind = p->kind, *fm = p->failure_mode;
        enum cc_fid fid = cc_fid_of(fm);
        size_t i;

        if (kind == NULL)
                return CC_F_NONE;
        if (strcmp(kind, "mixed-versions") == 0 && !d->windows && major == 8)
                fid = CC_F_LINUX_V8_MIXED_HELPERS;
        if (strcmp(kind, "incomplete-set") == 0 && !d->windows) {
                const char *sum = p->summary;

                if (set_of_renamed(ps, sum))
                        return CC_F_NONE; /* the renamed file's own finding says it */
                if (sum != NULL && cc_starts_with(sum, "cuDNN 8 "))
                        fid = CC_F_LINUX_V8_HELPER_RPATH;
                else if (only_engines_missing(sum))
                        fid = CC_F_V9_SUBLIBRARY_LOADING_FAILED;
                else if (sum != NULL && cc_starts_with(sum, "cuDNN 9 "))
                        fid = CC_F_V9_SUBLIB_UNLOADABLE;
        }
        if (fm == NULL && strcmp(kind, "unreadable-file") == 0)
                fid = CC_F_UNREADABLE_FILE;
        for (i = 0; i < CC_ARRAY_LEN(problem_ids); i++)
                if (problem_ids[i] == fid)
                        return fid;
        return CC_F_NONE;
}

/* The fix of finding f for a problem of kind `kind` of installation in (none
 * for a kind without one). */
static int problem_fix(struct cc_dctx *d, cc_value *f, const cc_vw_installation *in, const char *kind, int major)
{
        if (strcmp(kind, "dangling-symlink") == 0 || strcmp(kind, "symlink-loop") == 0 ||
            strcmp(kind, "symlink-not-a-file") == 0 || strcmp(kind, "missing-soname-link") == 0 ||
            strcmp(kind, "flattened-symlinks") == 0)
                return cc_finding_fix(f, d->err,
                                      "recreate the links (libcudnn*.so -> .so.%d -> .so.%d.x.y) as the "
                                      "package ships them: reinstall the package, or copy the archive with "
                                      "'cp -P' (keeps links) and run 'sudo ldconfig'",
                                      major ? major : 9, major ? major : 9);
        if (strcmp(kind, "not-soname") == 0 || strcmp(kind, "name-content-mismatch") == 0)
                return cc_finding_fix(f, d->err,
                                      "do not rename cuDNN or CUDA libraries to satisfy a program: "
                                      "install the major the program was built for beside this one");
        if (strcmp(kind, "not-in-ld-cache") == 0)
                return cc_finding_fix(f, d->err,
                                      "run 'sudo ldconfig' ('ldconfig -p | grep cudnn' then lists them), or take the "
                                      "directory out of ld.so.conf if nothing should find it");
        if (strcmp(kind, "mixed-versions") == 0)
                return cc_finding_fix(f, d->err,
                                      "remove the stale files so one release remains (close the programs "
                                      "using them first), or reinstall one complete release");
        if (strcmp(kind, "incomplete-set") == 0)
                return cc_finding_fix(f, d->err,
                                      "install the complete set of cuDNN %d libraries from one release "
                                      "into %s (all of the archive's %s folder)",
                                      major ? major : 9, in->prefix, d->windows ? "bin" : "lib");
        if (strcmp(kind, "header-library-mismatch") == 0)
                return cc_finding_fix(f, d->err,
                                      "replace the headers with those of the library's release (every "
                                      "cudnn*.h of the same archive or the matching -dev package)");
        if (strcmp(kind, "system-directory-copy") == 0)
                return cc_finding_fix(f, d->err,
                                      "delete cuDNN DLLs from System32/SysWOW64: the loader searches it "
                                      "before PATH, so this copy shadows every installed one");
        return 0;
}

/* An installation's broken library links: one finding, each link an
 * instance (its problem, paths and summary); an error when one of them is. */
static int broken_links(struct cc_dctx *d, const cc_vw_installation *in, int major)
{
        const cc_value *ps = in->problems;
        cc_value *f = NULL, *inst = NULL;
        const char *first = NULL, *first_kind = NULL;
        int error = 0;
        size_t j;

        for (j = 0; j < cc_v_len(ps); j++) {
                cc_vw_problem p;
                const char *kind;
                cc_value *o;

                cc_vw_problem_at(ps, j, &p, NULL);
                kind = p.kind;
                if (problem_class(d, ps, &p, major) != CC_F_LINUX_BROKEN_SYMLINKS)
                        continue;
                if (inst == NULL && (inst = cc_v_array(d->err)) == NULL)
                        return -1;
                o = cc_v_object(d->err);
                if (cc_v_push(inst, o, d->err) < 0 || cc_v_set_str(o, "problem", kind, d->err) < 0 ||
                    cc_v_set(o, "paths", cc_v_copy(p.paths, d->err), d->err) < 0 ||
                    cc_v_set_str(o, "summary", p.summary, d->err) < 0) {
                        cc_v_free(inst);
                        return -1;
                }
                if (first == NULL) {
                        first = p.summary;
                        first_kind = kind;
                }
                error |= strcmp(kind, "flattened-symlinks") != 0 && strcmp(kind, "not-soname") != 0;
        }
        if (inst == NULL)
                return 0;
        if (cc_v_len(inst) == 1)
                f = cc_finding(d, CC_F_LINUX_BROKEN_SYMLINKS, error ? "error" : "warning", "cudnn", "%s",
                               cc_dx_str(first));
        else
                f = cc_finding(d, CC_F_LINUX_BROKEN_SYMLINKS, error ? "error" : "warning", "cudnn",
                               "%zu broken library links in %s: %s; and %zu more (evidence: instances)", cc_v_len(inst),
                               in->prefix, cc_dx_str(first), cc_v_len(inst) - 1);
        if (f == NULL) {
                cc_v_free(inst);
                return -1;
        }
        TRY_RET(cc_finding_ev(f, "installation", cc_v_int(in->id, d->err), d->err));
        TRY_RET(cc_finding_ev_str(f, "prefix", in->prefix, d->err));
        TRY_RET(cc_finding_ev(f, "instances", inst, d->err));
        TRY_RET(cc_finding_explains_id(d, f, CC_SUBJ_INSTALLATION, in->id));
        /* the first link's fix, as the links share the installation's major */
        return problem_fix(d, f, in, first_kind, major);
}

/* The deps summary's directory sets of installation id's load when that
 * load takes one release from more than one directory (so the files its own
 * directory lacks, or holds of another release, are not what a program
 * uses), else NULL. */
static const cc_value *loads_elsewhere(const struct cc_dctx *d, int64_t id)
{
        const cc_value *doc = cc_dx_deps_of(d, id);
        cc_vw_deps_doc dv;
        cc_vw_deps_summary sum;
        cc_vw_deps_cudnn cud;
        size_t i, j;

        if (doc == NULL)
                return NULL;
        cc_vw_deps_doc_read(doc, &dv, NULL);
        cc_vw_deps_summary_read(dv.summary, &sum, NULL);
        cc_vw_deps_cudnn_read(sum.cudnn, &cud, NULL);

        if (!cud.split || cud.mixed || cc_v_len(cud.sets) < 2)
                return NULL;
        /* and every cuDNN library it asks for is found */
        for (i = 0; i < cc_v_len(dv.nodes); i++) {
                cc_vw_node n;

                cc_vw_node_at(dv.nodes, i, &n, NULL);
                for (j = 0; j < cc_v_len(n.edges); j++) {
                        cc_vw_edge e;

                        cc_vw_edge_at(n.edges, j, &e, NULL);
                        if (e.name != NULL && cc_strncasecmp(e.name, "libcudnn", 8) == 0 && e.status != NULL &&
                            (strcmp(e.status, "missing") == 0 || strcmp(e.status, "fails") == 0))
                                return NULL;
                }
        }
        return cud.sets;
}

int cc_src_problems(struct cc_dctx *d, enum cc_fid fid)
{
        size_t i, j;

        for (i = 0; i < d->v.ninsts; i++) {
                const cc_vw_installation *in = &d->v.insts[i];
                const cc_value *ps = in->problems;
                int64_t id = in->id;
                int major = cc_dx_major(in->node_);

                if (fid == CC_F_LINUX_BROKEN_SYMLINKS) {
                        TRY_RET(broken_links(d, in, major));
                        continue;
                }
                for (j = 0; j < cc_v_len(ps); j++) {
                        cc_vw_problem p;
                        const char *kind;
                        const char *sev = "error", *area = "cudnn";
                        const cc_value *elsewhere;
                        cc_value *f;

                        cc_vw_problem_at(ps, j, &p, NULL);
                        kind = p.kind;
                        if (problem_class(d, ps, &p, major) != fid)
                                continue;
                        if (strcmp(kind, "header-library-mismatch") == 0)
                                area = "headers";
                        if (strcmp(kind, "system-directory-copy") == 0 || strcmp(kind, "unreadable-file") == 0 ||
                            strcmp(kind, "flattened-symlinks") == 0 || strcmp(kind, "not-soname") == 0 ||
                            strcmp(kind, "not-in-ld-cache") == 0)
                                sev = "warning";
                        elsewhere =
                            !d->windows && (strcmp(kind, "incomplete-set") == 0 || strcmp(kind, "mixed-versions") == 0)
                                ? loads_elsewhere(d, id)
                                : NULL;
                        if (elsewhere != NULL) {
                                /* the real search takes one release from
                                 * another directory instead: it works now */
                                cc_vw_deps_cudnn_set o;

                                cc_vw_deps_cudnn_set_at(elsewhere, 1, &o, NULL);
                                const char *sum = cc_dx_str(p.summary), *cut = strstr(sum, "; a program loads a mix");

                                f = cc_finding(d, fid, "warning", area,
                                               "%.*s; a program that loads it now does not use them: it takes its "
                                               "sub-libraries from %s (one release), and would fail once that "
                                               "directory changes",
                                               (int)(cut ? (size_t)(cut - sum) : strlen(sum)), sum,
                                               cc_dx_str(o.directory));
                        } else {
                                f = cc_finding(d, fid, sev, area, "%s", p.summary);
                        }
                        TRY_RET(cc_finding_ev(f, "installation", cc_v_int(id, d->err), d->err));
                        TRY_RET(cc_finding_ev_str(f, "prefix", in->prefix, d->err));
                        TRY_RET(cc_finding_ev_str(f, "problem", kind, d->err));
                        TRY_RET(cc_finding_ev(f, "paths", cc_v_copy(p.paths, d->err), d->err));
                        if (elsewhere != NULL)
                                TRY_RET(cc_finding_ev(f, "loaded_from", cc_v_copy(elsewhere, d->err), d->err));
                        if (fid == CC_F_V9_SUBLIBRARY_LOADING_FAILED || elsewhere != NULL ||
                            strcmp(kind, "header-library-mismatch") == 0 ||
                            (!d->windows && strcmp(kind, "incomplete-set") == 0))
                                TRY_RET(cc_finding_explains_id(d, f, CC_SUBJ_INSTALLATION, id));
                        TRY_RET(problem_fix(d, f, in, kind, major));
                        /* a set without some of its libraries: what a renamed
                         * file of the installation explains (on Windows) */
                        if (strcmp(kind, "incomplete-set") == 0 || fid == CC_F_WIN_SUBLIB_126 ||
                            fid == CC_F_V9_SUBLIBRARY_LOADING_FAILED)
                                TRY_RET(cc_finding_about_id(d, f, CC_SUBJ_SUBLIB, id));
                        /* a cuDNN 7 DLL named cudnn64_8.dll makes a cuDNN 8
                         * without its sub-libraries */
                        if (fid == CC_F_RENAMED_DLL && d->windows)
                                TRY_RET(cc_finding_explains_id(d, f, CC_SUBJ_SUBLIB, id));
                }
        }
        return 0;
}

int cc_check_renamed_dll(struct cc_dctx *d)
{
        return cc_src_problems(d, CC_F_RENAMED_DLL);
}

int cc_check_linux_broken_symlinks(struct cc_dctx *d)
{
        return cc_src_problems(d, CC_F_LINUX_BROKEN_SYMLINKS);
}

int cc_check_ldconfig_not_run(struct cc_dctx *d)
{
        return cc_src_problems(d, CC_F_LDCONFIG_NOT_RUN);
}

int cc_check_unreadable_file(struct cc_dctx *d)
{
        return cc_src_problems(d, CC_F_UNREADABLE_FILE);
}

/* cudnn.h without cudnn_version.h (the headers of cuDNN 8 and later are
 * split); and the compile layer of the proof failing on a missing header. */
int cc_check_header_missing(struct cc_dctx *d)
{
        size_t i, j;

        for (i = 0; i < d->v.ninsts; i++) {
                const cc_vw_installation *in = &d->v.insts[i];
                int has_cudnn_h = 0, has_version_h = 0, major = cc_dx_major(in->node_);
                const char *cudnn_h = NULL;
                cc_value *f;

                for (j = 0; j < cc_v_len(in->files); j++) {
                        cc_vw_file fl;

                        cc_vw_file_at(in->files, j, &fl, NULL);
                        if (fl.kind == NULL || strcmp(fl.kind, "header") != 0 || fl.role == NULL)
                                continue;
                        if (strcmp(fl.role, "cudnn") == 0) {
                                has_cudnn_h = 1;
                                cudnn_h = fl.path;
                        }
                        if (strcmp(fl.role, "cudnn_version") == 0)
                                has_version_h = 1;
                }
                if (!has_cudnn_h || has_version_h || major < 8)
                        continue;
                f = cc_finding(d, CC_F_HEADER_MISSING, NULL, NULL,
                               "%s has cudnn.h but no cudnn_version.h: cuDNN %d splits its headers, and building "
                               "against it fails with 'cudnn_version.h: No such file or directory'",
                               in->prefix, major);
                TRY_RET(cc_finding_ev_str(f, "cudnn_h", cudnn_h, d->err));
                {
                        const char *slash = cudnn_h ? strrchr(cudnn_h, d->windows ? '\\' : '/') : NULL;

                        TRY_RET(cc_finding_fix(
                            f, d->err,
                            "copy every cudnn*.h of the same release into %.*s (not only cudnn.h), or "
                            "install the matching -dev package",
                            slash ? (int)(slash - cudnn_h) : 24, slash ? cudnn_h : "the include directory"));
                }
        }
        return cc_src_proof(d, CC_F_HEADER_MISSING);
}

/* The headers a build gets with no -I against the library a plain program
 * loads: two installations mixed in one build. */
static int default_headers(struct cc_dctx *d)
{
        cc_vw_include_search inc;
        cc_vw_resolution plain;
        const cc_vw_installation *hin = NULL, *lin;
        const char *h, *hv, *lv;
        size_t i, j;
        cc_value *f;

        cc_vw_include_search_read(d->v.host.include_search, &inc, NULL);
        h = inc.cudnn_version_h ? inc.cudnn_version_h : inc.cudnn_h;
        if (h == NULL || cc_vw_resolution_read(cc_dx_plain_cudnn(d), &plain, NULL) < 0)
                return 0;
        for (i = 0; i < d->v.ninsts && hin == NULL; i++)
                for (j = 0; j < cc_v_len(d->v.insts[i].files); j++) {
                        cc_vw_file fl;

                        cc_vw_file_at(d->v.insts[i].files, j, &fl, NULL);
                        if (fl.path != NULL && strcmp(fl.path, h) == 0)
                                hin = &d->v.insts[i];
                }
        lin = cc_dx_inst(d, plain.installation);
        if (hin == NULL || lin == NULL || hin == lin)
                return 0;
        hv = hin->version;
        lv = cc_dx_inst_lib_version(lin);
        /* a release not read is no mismatch */
        if (hv == NULL || lv == NULL || strcmp(hv, lv) == 0)
                return 0;
        f = cc_finding(d, CC_F_HEADER_LIB_MISMATCH, "warning", "headers",
                       "a build with no -I gets the headers of cuDNN %s (%s) but runs the library of cuDNN %s (%s)",
                       hv ? hv : "(version unknown)", h, lv ? lv : "(version unknown)", plain.path);
        TRY_RET(cc_finding_ev_str(f, "header", h, d->err));
        TRY_RET(cc_finding_ev(f, "header_installation", cc_v_int(hin->id, d->err), d->err));
        TRY_RET(cc_finding_ev_str(f, "library", plain.path, d->err));
        TRY_RET(cc_finding_ev(f, "library_installation", cc_v_int(lin->id, d->err), d->err));
        return cc_finding_fix(f, d->err,
                              "build against one installation: -I%s/include -L<its lib> with an RPATH, or remove the "
                              "stale headers; 'cudnnctl verify %lld' compiles against its own headers",
                              lin->prefix, (long long)lin->id);
}

/* Headers and library of different releases: in one installation
 * (discovery), between the default headers and the library a plain program
 * gets, and in the proof (the headers' version against cudnnGetVersion). */
int cc_check_header_lib_mismatch(struct cc_dctx *d)
{
        TRY_RET(cc_src_problems(d, CC_F_HEADER_LIB_MISMATCH));
        TRY_RET(default_headers(d));
        return cc_src_proof(d, CC_F_HEADER_LIB_MISMATCH);
}

/* A release the knowledge base lists as bad: installed, or (with the
 * condition that makes it bad) loaded by a framework. */
int cc_check_known_bad_version(struct cc_dctx *d)
{
        size_t i;

        for (i = 0; i < d->v.ninsts; i++) {
                const cc_vw_installation *in = &d->v.insts[i];
                cc_kb_answer a;
                cudnnctl_ver v;
                cc_value *f;

                if (cudnnctl_ver_parse(in->version, &v) < 0)
                        continue;
                memset(&a, 0, sizeof(a));
                if (cc_kb_cudnn_known_bad_for(&v, NULL, &a) !=
                    CC_KB_YES) /* rows of one framework: the frameworks check */
                        continue;
                f = cc_finding(d, CC_F_KNOWN_BAD_VERSION, NULL, NULL, "cuDNN %s in %s is listed as bad: %s",
                               in->version, in->prefix, a.reason);
                TRY_RET(cc_finding_ev_str(f, "version", in->version, d->err));
                TRY_RET(cc_finding_ev_str(f, "source", a.source, d->err));
                TRY_RET(cc_finding_fix(f, d->err, "move to a later release of the same major"));
        }
        return cc_src_frameworks(d, CC_F_KNOWN_BAD_VERSION);
}
