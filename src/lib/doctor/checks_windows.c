/* Checks only Windows has (the Windows loader, the installer's layout,
 * Python's DLL search, zlibwapi, DLL bitness, System32 copies, pip's
 * leftovers, TensorFlow's native-Windows GPU support, the commit charge),
 * and the checks of the Windows ids other facts show too (discovery's
 * problems, the deps edges, the proof).
 *
 * One finding per cause: where a cause found here explains what another
 * check saw (the sub-libraries of a cuDNN no program reaches, zlibwapi.dll
 * "missing" when a 32-bit copy is found first, the cuDNN 8 mixed set under a
 * cuDNN 9 id, an old copy's consequences), the finding says what it explains
 * (cc_finding_explains) and the runner folds the others by the registry's
 * relations. */
#include "doctor.h"

#include <stdlib.h>
#include <string.h>

static const char *str_or(const char *s, const char *dflt)
{
        return s != NULL ? s : dflt;
}

/* ---- facts helpers ----------------------------------------------------------- */

/* The version of a copy the loader finds (a which result, or one it
 * shadows) from its `versions`: its version resource's, else its
 * installation's (iv). */
static const char *ver_of(const cc_value *versions, const char *iv)
{
        size_t i;

        for (i = 0; i < cc_v_len(versions); i++) {
                cc_vw_version x;

                cc_vw_version_at(versions, i, &x, NULL);
                if (x.source != NULL && strcmp(x.source, "version-resource") == 0)
                        return x.version;
        }
        return iv;
}

/* The installation holding the file at path, or NULL. */
static const cc_vw_installation *inst_of_path(const struct cc_dctx *d, const char *path)
{
        size_t i, j;

        for (i = 0; path != NULL && i < d->v.ninsts; i++) {
                const cc_value *files = d->v.insts[i].files;

                for (j = 0; j < cc_v_len(files); j++) {
                        cc_vw_file f;

                        cc_vw_file_at(files, j, &f, NULL);
                        if (f.path != NULL && cc_strcasecmp(f.path, path) == 0)
                                return &d->v.insts[i];
                }
        }
        return NULL;
}

/* The directory holding installation inst's cuDNN shim DLL (a new string), or NULL. */
static char *shim_dir(const struct cc_dctx *d, const cc_vw_installation *inst, const char **shim)
{
        size_t i;

        *shim = NULL;
        for (i = 0; i < cc_v_len(inst->files); i++) {
                cc_vw_file f;
                const char *p, *role, *kind, *b;

                cc_vw_file_at(inst->files, i, &f, NULL);
                p = f.path;
                role = f.role;
                kind = f.kind;
                if (p == NULL || role == NULL || kind == NULL || strcmp(role, "cudnn") != 0 || strcmp(kind, "dll") != 0)
                        continue;
                b = strrchr(p, '\\');
                if (b == NULL)
                        continue;
                *shim = p;
                return cc_asprintf(d->err, "%.*s", (int)(b - p), p);
        }
        return NULL;
}

/* A PATH entry equal to dir (case-insensitive, a trailing '\' ignored): its index, or 0. */
static int64_t on_path(const struct cc_dctx *d, const char *dir)
{
        const cc_value *sp = d->v.host.search_paths;
        size_t i, j, dl = strlen(dir);

        while (dl > 3 && dir[dl - 1] == '\\')
                dl--;
        for (i = 0; i < cc_v_len(sp); i++) {
                cc_vw_search_path p;

                cc_vw_search_path_at(sp, i, &p, NULL);
                if (strcmp(str_or(p.variable, ""), "PATH") != 0)
                        continue;
                for (j = 0; j < cc_v_len(p.entries); j++) {
                        cc_vw_path_entry e;
                        const char *s;
                        size_t sl;

                        cc_vw_path_entry_at(p.entries, j, &e, NULL);
                        s = str_or(e.entry, "");
                        sl = strlen(s);
                        while (sl > 3 && s[sl - 1] == '\\')
                                sl--;
                        if (sl == dl && cc_strncasecmp(s, dir, dl) == 0)
                                return e.index;
                }
        }
        return 0;
}

/* The Windows host extras (facts/host/windows; an empty view without them). */
static void host_windows(const struct cc_dctx *d, cc_vw_host_windows *w)
{
        cc_vw_host_windows_read(d->v.host.windows, w, NULL);
}

static int is_cudnn_or_zlib(const char *name)
{
        return name != NULL && cc_ends_with_nocase(name, ".dll") &&
               (cc_strncasecmp(name, "cudnn", 5) == 0 || cc_strcasecmp(name, "zlibwapi.dll") == 0);
}

static int is_system_dir(const char *path)
{
        return path != NULL && (cc_strncasecmp(path, "C:\\Windows\\System32\\", 20) == 0 ||
                                cc_strncasecmp(path, "C:\\Windows\\SysWOW64\\", 20) == 0);
}

static int fix_path_first(struct cc_dctx *d, cc_value *f, const char *dir, const char *why)
{
        char *line = cc_fix_prepend(d, "PATH", dir, d->err);
        int rc;

        if (line == NULL)
                return -1;
        rc = cc_finding_fix(f, d->err,
                            "for this shell: %s; for every program add %s to PATH in System Properties > "
                            "Environment Variables (not with setx, which cuts PATH at 1024 characters)%s%s",
                            line, dir, why ? "; " : "", why ? why : "");
        free(line);
        return rc;
}

/* ---- win-wrong-bitness ---------------------------------------------------------- */

/* A which result of a cuDNN DLL or zlibwapi.dll that stops at a DLL that is
 * not x64 (error 193). */
static int which_193(const cc_vw_resolution *r)
{
        return is_cudnn_or_zlib(r->name) && r->windows_error == 193;
}

/* The place a which result fails at: the last it tried that failed, else
 * (every copy was for another machine) the first it passed over (an empty
 * view when there is neither). */
static void failed_step(const cc_vw_resolution *r, cc_vw_step *bad)
{
        size_t j;
        int failed = 0;

        memset(bad, 0, sizeof(*bad));
        for (j = 0; j < cc_v_len(r->tried); j++) {
                cc_vw_step s;
                const char *o;

                cc_vw_step_at(r->tried, j, &s, NULL);
                o = str_or(s.outcome, "");
                if (strcmp(o, "failed") == 0 || (!failed && bad->path == NULL && strcmp(o, "skipped") == 0))
                        *bad = s;
                failed |= strcmp(o, "failed") == 0;
        }
}

/* The shim cudnn64_N.dll itself stops at a DLL that is not x64: the cause
 * of "a plain program finds no cudnn64_N.dll" is that. */
static int shim_193(const struct cc_dctx *d)
{
        const cc_value *res = d->v.which.results;
        size_t i;

        for (i = 0; i < cc_v_len(res); i++) {
                cc_vw_resolution r;

                cc_vw_resolution_at(res, i, &r, NULL);
                if (which_193(&r) && cc_strncasecmp(r.name, "cudnn64_", 8) == 0)
                        return 1;
        }
        return 0;
}

/* The finding explains the installation that is the x86 copy (x86: its id,
 * or 0) and every library the loader cannot load because it stops at DLL
 * `name`. */
static int explains_193(struct cc_dctx *d, const cc_value *f, const char *name, int64_t x86)
{
        TRY_RET(cc_finding_explains(d, f, CC_SUBJ_BAD_IMAGE, name));
        return x86 != 0 ? cc_finding_explains_id(d, f, CC_SUBJ_INSTALLATION, x86) : 0;
}

/* For the deps edges the which results do not cover: the names given a
 * finding here so far. */
struct which_193s {
        const struct cc_dctx *d;
        cc_strv done;
};

/* Whether a finding of this check explains miss m already: one made here
 * for its name, or a which result's (of its name, or of the x86 copy that is
 * its installation). */
static int explained_193(const struct which_193s *w, const struct cc_dep_miss *m)
{
        const cc_value *res = w->d->v.which.results;
        size_t i;

        for (i = 0; i < w->done.n; i++)
                if (cc_strcasecmp(w->done.v[i], m->name) == 0)
                        return 1;
        for (i = 0; i < cc_v_len(res); i++) {
                cc_vw_resolution r;
                cc_vw_step bad;
                const cc_vw_installation *x86;

                cc_vw_resolution_at(res, i, &r, NULL);
                if (!which_193(&r))
                        continue;
                if (cc_strcasecmp(r.name, m->name) == 0)
                        return 1;
                failed_step(&r, &bad);
                x86 = inst_of_path(w->d, bad.path);
                if (x86 != NULL && x86->id == m->id)
                        return 1;
        }
        return 0;
}

/* A deps edge that stops at an x86 DLL which `which` did not ask about, seen
 * by a check of another id (the edge was not "fails" itself): its own
 * finding, once per DLL. */
static int deps_193(struct cc_dctx *d, const struct cc_dep_miss *m, void *arg)
{
        struct which_193s *w = arg;
        const cc_value *en = cc_dx_deps_edge(d, m->id, m->name);
        const char *sev, *what;
        cc_vw_edge e;
        cc_value *f;

        cc_vw_edge_read(en, &e, NULL);
        if (!is_cudnn_or_zlib(m->name) || cc_dx_edge_class(d, m, &sev, &what) == CC_F_WIN_WRONG_BITNESS || en == NULL ||
            e.windows_error != 193 || explained_193(w, m))
                return 0;
        if (cc_strv_push(&w->done, m->name, d->err) < 0)
                return -1;
        f = cc_finding(d, CC_F_WIN_WRONG_BITNESS, NULL, NULL,
                       "%s: the loader stops at %s, a DLL that is not x64 (error 193)", m->name,
                       str_or(e.path, "a copy"));
        if (f == NULL)
                return -1;
        TRY_RET(cc_finding_ev_str(f, "name", m->name, d->err));
        TRY_RET(cc_finding_ev_str(f, "path", e.path, d->err));
        TRY_RET(cc_finding_ev(f, "windows_error", cc_v_int(193, d->err), d->err));
        TRY_RET(
            cc_finding_fix(f, d->err, "replace %s with the x64 build of the same release", str_or(e.path, m->name)));
        return explains_193(d, f, m->name, 0);
}

/* A cuDNN DLL or zlibwapi.dll found after copies for another machine that
 * the loader passed over: a note (a program for that machine would load
 * the first). */
static int passed_over(struct cc_dctx *d, const cc_vw_resolution *r)
{
        cc_vw_step first;
        const cc_vw_installation *x86;
        cc_value *f, *all;
        size_t j;

        failed_step(r, &first);
        if (first.path == NULL || strcmp(str_or(first.outcome, ""), "skipped") != 0)
                return 0;
        x86 = inst_of_path(d, first.path);
        f = cc_finding(d, CC_F_WIN_WRONG_BITNESS, "info", NULL,
                       "%s: the loader passes over %s, a DLL for another machine found first, and loads %s; a "
                       "program for that machine (a 32-bit one, for an x86 DLL) would load the first",
                       r->name, first.path, str_or(r->path, "?"));
        if (f == NULL)
                return -1;
        TRY_RET(cc_finding_ev_str(f, "name", r->name, d->err));
        TRY_RET(cc_finding_ev_str(f, "loads", r->path, d->err));
        all = cc_v_array(d->err);
        TRY_RET(cc_finding_ev(f, "passed_over", all, d->err));
        for (j = 0; j < cc_v_len(r->tried); j++) {
                cc_vw_step s;

                cc_vw_step_at(r->tried, j, &s, NULL);
                if (strcmp(str_or(s.outcome, ""), "skipped") == 0)
                        TRY_RET(cc_v_push(all, cc_v_str(s.path, d->err), d->err));
        }
        TRY_RET(cc_finding_ev_str(f, "detail", first.detail, d->err));
        if (x86 != NULL)
                TRY_RET(cc_finding_ev(f, "installation", cc_v_int(x86->id, d->err), d->err));
        TRY_RET(cc_finding_fix(f, d->err,
                               "nothing to do for 64-bit programs; remove %s if no program for its machine needs it, "
                               "so that it cannot be mistaken for the DLL in use",
                               first.path));
        /* what is wrong with loading the copy for another machine (its own
         * imports, its installation) is this */
        return x86 != NULL ? cc_finding_explains_id(d, f, CC_SUBJ_INSTALLATION, x86->id) : 0;
}

/* A 32-bit DLL first in the search: from the deps edges that fail on it, from
 * the which results (the name a program asks for), and from the deps edges
 * the which results do not cover. */
int cc_check_win_wrong_bitness(struct cc_dctx *d)
{
        const cc_value *res = d->v.which.results;
        struct which_193s w;
        size_t i, k;
        int rc;

        TRY_RET(cc_src_deps(d, CC_F_WIN_WRONG_BITNESS));
        if (!d->windows)
                return 0;
        for (i = 0; i < cc_v_len(res); i++) {
                cc_vw_resolution r;
                cc_vw_step bad;
                const char *name;
                const cc_vw_installation *x86;
                cc_value *f, *sh;
                int all_wrong;

                cc_vw_resolution_at(res, i, &r, NULL);
                if (r.found && is_cudnn_or_zlib(r.name)) {
                        TRY_RET(passed_over(d, &r));
                        continue;
                }
                if (!which_193(&r))
                        continue;
                name = r.name;
                failed_step(&r, &bad);
                all_wrong = strcmp(str_or(bad.outcome, ""), "skipped") == 0;
                x86 = inst_of_path(d, bad.path);
                if (all_wrong)
                        f = cc_finding(d, CC_F_WIN_WRONG_BITNESS, NULL, NULL,
                                       "%s: every copy the loader finds is a DLL for another machine (the first: %s): "
                                       "a 64-bit program passes over each and fails with error 193 "
                                       "(ERROR_BAD_EXE_FORMAT)",
                                       name, str_or(bad.path, "?"));
                else
                        f = cc_finding(d, CC_F_WIN_WRONG_BITNESS, NULL, NULL,
                                       "%s: the loader stops at %s, which is not a DLL it can load (error 193, "
                                       "ERROR_BAD_EXE_FORMAT)%s",
                                       name, str_or(bad.path, "a copy"),
                                       cc_v_len(r.shadowed) ? ", and the copy later in the search is never reached"
                                                            : "");
                if (f == NULL)
                        return -1;
                TRY_RET(cc_finding_ev_str(f, "name", name, d->err));
                TRY_RET(cc_finding_ev_str(f, "path", bad.path, d->err));
                TRY_RET(cc_finding_ev_str(f, "how", bad.how, d->err));
                TRY_RET(cc_finding_ev_str(f, "origin", bad.origin, d->err));
                TRY_RET(cc_finding_ev_str(f, "detail", bad.detail, d->err));
                TRY_RET(cc_finding_ev(f, "windows_error", cc_v_int(193, d->err), d->err));
                sh = cc_v_array(d->err);
                TRY_RET(cc_finding_ev(f, "x64_copies", sh, d->err));
                for (k = 0; k < cc_v_len(r.shadowed); k++) {
                        cc_vw_step s;

                        cc_vw_step_at(r.shadowed, k, &s, NULL);
                        TRY_RET(cc_v_push(sh, cc_v_str(s.path, d->err), d->err));
                }
                if (x86 != NULL)
                        TRY_RET(cc_finding_ev(f, "installation", cc_v_int(x86->id, d->err), d->err));
                if (all_wrong && cc_strcasecmp(name, "zlibwapi.dll") == 0)
                        TRY_RET(cc_finding_fix(f, d->err,
                                               "put the x64 zlibwapi.dll (zlib123dllx64\\dll_x64) beside cuDNN's DLLs; "
                                               "%s can stay for 32-bit programs",
                                               str_or(bad.path, "the 32-bit copy")));
                else if (all_wrong)
                        TRY_RET(cc_finding_fix(f, d->err,
                                               "install the x64 cuDNN (64-bit programs cannot load %s); 'cudnnctl "
                                               "which %s' shows the search then",
                                               str_or(bad.path, name), name));
                else
                        TRY_RET(cc_finding_fix(f, d->err,
                                               "remove or replace %s (truncated, or not a DLL); 'cudnnctl which %s' "
                                               "shows what wins then",
                                               str_or(bad.path, name), name));
                TRY_RET(explains_193(d, f, name, x86 ? x86->id : 0));
        }
        memset(&w, 0, sizeof(w));
        w.d = d;
        rc = cc_dx_deps_misses(d, deps_193, &w);
        cc_strv_free(&w.done);
        return rc;
}

/* ---- win-zlibwapi-missing --------------------------------------------------------- */

/* cuDNN 8.3 to 8.x needs zlibwapi.dll: a deps edge, or the which result of
 * the name when no edge said it. */
int cc_check_win_zlibwapi_missing(struct cc_dctx *d)
{
        const cc_value *pn = cc_dx_plain_cudnn(d), *zn = cc_dx_which(d, "zlibwapi.dll");
        cc_vw_resolution plain, z;
        const cc_vw_installation *inst;
        cudnnctl_ver v;
        cc_value *f;

        cc_vw_resolution_read(pn, &plain, NULL);
        cc_vw_resolution_read(zn, &z, NULL);
        inst = pn ? cc_dx_inst(d, plain.installation) : NULL;
        TRY_RET(cc_src_deps(d, CC_F_WIN_ZLIBWAPI_MISSING));
        if (!d->windows || inst == NULL || zn == NULL || z.found || z.windows_error != 126 ||
            cc_finding_mine(d, 0) != NULL)
                return 0;
        if (cudnnctl_ver_parse(inst->version, &v) < 0 || v.part[0] != 8 || v.part[1] < 3)
                return 0; /* before 8.3, or 9 (no zlibwapi), or the version is unknown */
        f = cc_finding(d, CC_F_WIN_ZLIBWAPI_MISSING, NULL, NULL,
                       "cuDNN %s (%s) needs zlibwapi.dll, and the Windows loader finds none: 'Could not locate "
                       "zlibwapi.dll'",
                       inst->version, plain.path);
        TRY_RET(cc_finding_ev(f, "installation", cc_v_int(inst->id, d->err), d->err));
        TRY_RET(cc_finding_ev_str(f, "version", inst->version, d->err));
        TRY_RET(cc_finding_ev(f, "places_tried", cc_v_int((int64_t)cc_v_len(z.tried), d->err), d->err));
        {
                const char *b = plain.path ? strrchr(plain.path, '\\') : NULL;
                char *dir = cc_asprintf(d->err, "%.*s", (int)(b ? b - plain.path : 0), plain.path ? plain.path : "");
                int rc;

                if (dir == NULL)
                        return -1;
                rc = cc_finding_fix(f, d->err,
                                    "put the x64 zlibwapi.dll (zlib 1.2.3 'zlib123dllx64', dll_x64 folder) in %s, "
                                    "beside cudnn64_8.dll",
                                    dir);
                free(dir);
                return rc;
        }
}

/* ---- a plain program finds no cudnn64_N.dll: the cause ---------------------------- */

/* The toolkit's CUDA major (the highest), or 0. */
static int toolkit_major(const struct cc_dctx *d)
{
        const cc_value *tk = d->v.host.toolkits;
        size_t i;
        int best = 0;

        for (i = 0; i < cc_v_len(tk); i++) {
                cc_vw_toolkit t;
                cudnnctl_ver v;

                cc_vw_toolkit_at(tk, i, &t, NULL);
                if (cudnnctl_ver_parse(t.version, &v) == 0 && v.part[0] > best)
                        best = (int)v.part[0];
        }
        return best;
}

static int installer_subdir(struct cc_dctx *d, const cc_vw_installation *inst, enum cc_fid fid)
{
        const cc_value *dirs = inst->directories;
        const char *prefix = inst->prefix, *pick = NULL, *pick_in = NULL;
        int tkm = toolkit_major(d);
        char *bin;
        int64_t bin_idx;
        cc_value *f, *subs;
        size_t i;
        int rc;

        subs = cc_v_array(d->err);
        if (subs == NULL)
                return -1;
        for (i = 0; i < cc_v_len(dirs); i++) {
                cc_vw_inst_dir dv;
                const char *in, *p;

                cc_vw_inst_dir_at(dirs, i, &dv, NULL);
                in = dv.in_prefix;
                p = dv.path;
                if (in == NULL || p == NULL || cc_strncasecmp(in, "bin", 3) != 0 || (in[3] != '/' && in[3] != '\\'))
                        continue;
                if (cc_v_push(subs, cc_v_str(p, d->err), d->err) < 0) {
                        cc_v_free(subs);
                        return -1;
                }
                /* the subfolder of the toolkit's CUDA major, else the highest */
                if (pick == NULL || (tkm > 0 && atoi(in + 4) == tkm) ||
                    ((tkm == 0 || atoi(pick_in + 4) != tkm) && strcmp(in, pick_in) > 0)) {
                        pick = p;
                        pick_in = in;
                }
        }
        if (pick == NULL || fid != CC_F_WIN_CUDNN9_SUBDIR) {
                cc_v_free(subs);
                return 0;
        }
        bin = cc_asprintf(d->err, "%s\\bin", prefix);
        if (bin == NULL) {
                cc_v_free(subs);
                return -1;
        }
        bin_idx = on_path(d, bin);
        if (bin_idx)
                f = cc_finding(d, fid, NULL, NULL,
                               "a plain program finds no cudnn64_9.dll: PATH has %s (entry %lld), but the cuDNN 9 "
                               "installer put the DLLs one level below, in %s, and the loader does not look into "
                               "subfolders",
                               bin, (long long)bin_idx, pick);
        else
                f = cc_finding(d, fid, NULL, NULL,
                               "a plain program finds no cudnn64_9.dll: the cuDNN 9 installer put it in %s, which is "
                               "not on PATH",
                               pick);
        if (f == NULL) {
                free(bin);
                cc_v_free(subs);
                return -1;
        }
        rc = cc_finding_ev(f, "installation", cc_v_int(inst->id, d->err), d->err);
        if (rc == 0)
                rc = cc_finding_ev(f, "cuda_subfolders", subs, d->err);
        else
                cc_v_free(subs);
        if (rc == 0)
                rc = cc_finding_ev_str(f, "directory", pick, d->err);
        if (rc == 0)
                rc =
                    cc_finding_ev(f, "bin_on_path", bin_idx ? cc_v_int(bin_idx, d->err) : cc_v_bool(0, d->err), d->err);
        if (rc == 0)
                rc = fix_path_first(d, f, pick,
                                    "pick the subfolder of the CUDA major your program was built for; in Python "
                                    "os.add_dll_directory() on that folder");
        free(bin);
        if (rc < 0)
                return -1;
        /* what is "missing" in the installation's own folder follows from this */
        return cc_finding_explains_id(d, f, CC_SUBJ_UNREACHED, inst->id);
}

/* A plain program finds no cudnn64_N.dll: the cause, as the finding of id
 * fid it is: the cuDNN 9 installer's subfolder (win-cudnn9-subdir), a folder
 * not on PATH or nothing where the loader looks (win-sublib-126), only pip
 * wheels (pip-cudnn-not-on-path). */
int cc_src_win_not_found(struct cc_dctx *d, enum cc_fid fid)
{
        const cc_vw_installation *insts = d->v.insts, *best = NULL;
        size_t n = d->v.ninsts;
        const char *best_shim = NULL;
        char *dir = NULL;
        size_t i, wheels = 0;
        cudnnctl_ver bv;
        cc_value *f;
        int rc;

        if (!d->windows || n == 0 || cc_dx_plain_cudnn(d) != NULL || shim_193(d) || d->which == NULL)
                return 0;
        for (i = 0; i < n; i++) {
                cc_vw_provenance pv;

                cc_vw_provenance_read(insts[i].provenance, &pv, NULL);
                if (pv.kind != NULL && strcmp(pv.kind, "windows-installer") == 0 && cc_v_len(insts[i].cuda_variants))
                        return installer_subdir(d, &insts[i], fid);
        }
        memset(&bv, 0, sizeof(bv));
        for (i = 0; i < n; i++) {
                const cc_vw_installation *in = &insts[i];
                cc_vw_provenance pv;
                const char *kind, *shim;
                char *sd;
                cudnnctl_ver v;

                cc_vw_provenance_read(in->provenance, &pv, NULL);
                kind = pv.kind;
                if (kind != NULL && strcmp(kind, "pip-wheel") == 0) {
                        wheels++;
                        continue;
                }
                sd = shim_dir(d, in, &shim);
                if (sd == NULL) {
                        if (d->err->code == CC_ERR_NOMEM)
                                return -1;
                        continue;
                }
                memset(&v, 0, sizeof(v));
                (void)cudnnctl_ver_parse(in->version, &v);
                if (best == NULL || cudnnctl_ver_cmp(&v, &bv) > 0) {
                        free(dir);
                        dir = sd;
                        best = in;
                        best_shim = shim;
                        bv = v;
                } else {
                        free(sd);
                }
        }
        if (best != NULL && fid != CC_F_WIN_SUBLIB_126) {
                free(dir);
                return 0;
        }
        if (best != NULL) {
                f = cc_finding(d, fid, "warning", "loader",
                               "a plain program finds no %s (error 126): cuDNN %s is in %s, which is not on PATH",
                               cc_basename(best_shim), str_or(best->version, "(version unknown)"), dir);
                rc = f ? 0 : -1;
                if (rc == 0)
                        rc = cc_finding_ev(f, "installation", cc_v_int(best->id, d->err), d->err);
                if (rc == 0)
                        rc = cc_finding_ev_str(f, "directory", dir, d->err);
                if (rc == 0)
                        rc = cc_finding_ev_str(f, "cause", "PATH", d->err);
                if (rc == 0)
                        rc = fix_path_first(d, f, dir, NULL);
                free(dir);
                if (rc < 0)
                        return -1;
                /* what is "missing" in the installation's own folder follows from this */
                return cc_finding_explains_id(d, f, CC_SUBJ_UNREACHED, best->id);
        }
        if (wheels == n) {
                const cc_vw_installation *w = &insts[0];

                if (fid != CC_F_PIP_CUDNN_NOT_ON_PATH)
                        return 0;
                f = cc_finding(d, fid, "info", "loader",
                               "cuDNN is here only as a pip wheel (%s): frameworks that load it themselves (PyTorch) "
                               "work, but a plain program finds no cudnn64_N.dll",
                               w->prefix);
                TRY_RET(cc_finding_ev_str(f, "prefix", w->prefix, d->err));
                TRY_RET(cc_finding_ev_str(f, "cause", "pip wheel only", d->err));
                return cc_finding_fix(
                    f, d->err,
                    "in Python, 'import torch' first or os.add_dll_directory(r\"%s\\bin\"); for other "
                    "programs install cuDNN from NVIDIA's zip into the CUDA toolkit",
                    w->prefix);
        }
        if (fid != CC_F_WIN_SUBLIB_126)
                return 0;
        f = cc_finding(d, fid, "warning", "loader",
                       "a plain program finds no cudnn64_N.dll (error 126): none of the %zu cuDNN installation(s) "
                       "holds it where the loader looks (headers, import libraries or sub-libraries only)",
                       n);
        TRY_RET(cc_finding_ev_str(f, "cause", "nothing installed where the loader looks", d->err));
        TRY_RET(cc_finding_ev_str(f, "prefix", insts[0].prefix, d->err));
        return cc_finding_fix(f, d->err,
                              "copy the whole bin folder of the cuDNN zip (cudnn64_N.dll and every cudnn_*.dll) into "
                              "%%CUDA_PATH%%\\bin, or into a folder on PATH");
}

/* A cuDNN DLL or one it needs cannot be found (error 126): a sub-library
 * missing from an installation's set, a deps edge, the proof's load, and a
 * plain program finding no cudnn64_N.dll at all. */
int cc_check_win_sublib_126(struct cc_dctx *d)
{
        TRY_RET(cc_src_problems(d, CC_F_WIN_SUBLIB_126));
        TRY_RET(cc_src_deps(d, CC_F_WIN_SUBLIB_126));
        TRY_RET(cc_src_proof(d, CC_F_WIN_SUBLIB_126));
        return cc_src_win_not_found(d, CC_F_WIN_SUBLIB_126);
}

int cc_check_win_cudnn9_subdir(struct cc_dctx *d)
{
        return cc_src_win_not_found(d, CC_F_WIN_CUDNN9_SUBDIR);
}

/* cuDNN DLLs of more than one release in one process (error 127): in one
 * folder (discovery), pulled from several folders (deps), or seen by the
 * proof. A load that pulls a mixed set explains the version checks'
 * mismatch of the same load. */
int cc_check_win_sublib_127(struct cc_dctx *d)
{
        size_t i;

        TRY_RET(cc_src_problems(d, CC_F_WIN_SUBLIB_127));
        TRY_RET(cc_src_deps(d, CC_F_WIN_SUBLIB_127));
        TRY_RET(cc_src_proof(d, CC_F_WIN_SUBLIB_127));
        for (i = 0; d->windows && i < cc_v_len(d->deps); i++) {
                cc_vw_deps_entry e;
                cc_vw_deps_doc doc;
                cc_vw_deps_summary sum;
                cc_vw_deps_cudnn cud;
                cc_value *f;

                cc_vw_deps_entry_at(d->deps, i, &e, NULL);
                cc_vw_deps_doc_read(e.document, &doc, NULL);
                cc_vw_deps_summary_read(doc.summary, &sum, NULL);
                cc_vw_deps_cudnn_read(sum.cudnn, &cud, NULL);
                if (!cud.mixed || e.target == NULL)
                        continue;
                f = cc_finding_mine(d, e.installation);
                if (f != NULL)
                        TRY_RET(cc_finding_explains(d, f, CC_SUBJ_NAMES_TARGET, e.target));
        }
        return 0;
}

/* ---- win-python-dll-path ------------------------------------------------------------ */

int cc_check_win_python_dll_path(struct cc_dctx *d)
{
        const cc_value *pn = cc_dx_plain_cudnn(d);
        cc_vw_resolution plain;
        cc_vw_host_windows hw;
        cc_value *f, *list = NULL;
        const char *path, *b, *first_version = NULL;
        char *dir;
        size_t i;
        int rc;

        cc_vw_resolution_read(pn, &plain, NULL);
        if (!d->windows || pn == NULL || strcmp(str_or(plain.how, ""), "path") != 0)
                return 0;
        host_windows(d, &hw);
        for (i = 0; i < cc_v_len(hw.pythons); i++) {
                cc_vw_win_python p;
                cudnnctl_ver v;
                cc_value *o;

                cc_vw_win_python_at(hw.pythons, i, &p, NULL);
                if (cudnnctl_ver_parse(p.version, &v) < 0 || v.part[0] != 3 || v.part[1] < 8)
                        continue; /* unknown, or Python < 3.8, which still searches PATH */
                if (list == NULL && (list = cc_v_array(d->err)) == NULL)
                        return -1;
                if (first_version == NULL)
                        first_version = p.version;
                o = cc_v_object(d->err);
                if (cc_v_push(list, o, d->err) < 0 || cc_v_set_str(o, "path", p.path, d->err) < 0 ||
                    cc_v_set_str(o, "version", p.version, d->err) < 0 ||
                    cc_v_set_str(o, "version_source", p.version_source, d->err) < 0) {
                        cc_v_free(list);
                        return -1;
                }
        }
        if (list == NULL)
                return 0;
        path = plain.path;
        b = path ? strrchr(path, '\\') : NULL;
        dir = cc_asprintf(d->err, "%.*s", (int)(b ? b - path : 0), path ? path : "");
        if (dir == NULL) {
                cc_v_free(list);
                return -1;
        }
        f = cc_finding(d, CC_F_WIN_PYTHON_DLL_PATH, NULL, NULL,
                       "%s is reachable only through PATH (%s); Python %s%s does not search PATH for the DLLs its "
                       "extension modules import, so a module that links cuDNN directly gets error 126",
                       plain.name, str_or(plain.origin, "PATH"), first_version,
                       cc_v_len(list) > 1 ? " (and the others here)" : "");
        rc = cc_finding_ev(f, "pythons", list, d->err);
        if (rc == 0)
                rc = cc_finding_ev_str(f, "cudnn", path, d->err);
        if (rc == 0)
                rc = cc_finding_ev_str(f, "origin", plain.origin, d->err);
        if (rc == 0)
                rc = cc_finding_fix(f, d->err,
                                    "in Python, before importing the module that needs cuDNN: import os; "
                                    "os.add_dll_directory(r\"%s\") (frameworks that ship their own cuDNN, such as "
                                    "PyTorch's wheels, do not need it)",
                                    dir);
        free(dir);
        return rc;
}

/* ---- win-stale-dll-shadow ------------------------------------------------------------ */

/* What the old copy first in the search order explains: the headers beside
 * the newer copy that disagree with the library a program runs (they name
 * it), and the mixed sets of the newer copies' installations (or that name
 * a shadowed copy). */
static int explains_shadow(struct cc_dctx *d, const cc_value *f, const cc_vw_resolution *r)
{
        size_t j;

        TRY_RET(cc_finding_explains(d, f, CC_SUBJ_NAMES_WINNER, r->path));
        for (j = 0; j < cc_v_len(r->shadowed); j++) {
                cc_vw_step s;

                cc_vw_step_at(r->shadowed, j, &s, NULL);
                TRY_RET(cc_finding_explains(d, f, CC_SUBJ_NAMES_SHADOWED, s.path));
                if (s.installation != 0)
                        TRY_RET(cc_finding_explains_id(d, f, CC_SUBJ_INSTALLATION, s.installation));
        }
        return 0;
}

/* A stale cuDNN DLL found before the installed one: discovery's copy in
 * System32, and a which result that shadows a newer copy. */
int cc_check_win_stale_dll_shadow(struct cc_dctx *d)
{
        const cc_value *res = d->v.which.results;
        size_t i, j;

        TRY_RET(cc_src_problems(d, CC_F_WIN_STALE_DLL_SHADOW));
        for (i = 0; d->windows && i < cc_v_len(res); i++) {
                cc_vw_resolution r;
                cc_vw_step s, newest;
                const cc_value *sh;
                const char *name, *wv;
                cudnnctl_ver w, best;
                int64_t inst;
                int have_newest = 0;
                cc_value *f, *arr;

                cc_vw_resolution_at(res, i, &r, NULL);
                sh = r.shadowed;
                name = r.name;
                wv = ver_of(r.versions, r.installation_version);
                inst = r.installation;
                if (name == NULL || cc_strncasecmp(name, "cudnn", 5) != 0 || !r.found || cudnnctl_ver_parse(wv, &w) < 0)
                        continue;
                memset(&best, 0, sizeof(best));
                memset(&newest, 0, sizeof(newest));
                best = w;
                for (j = 0; j < cc_v_len(sh); j++) {
                        cudnnctl_ver v;

                        cc_vw_step_at(sh, j, &s, NULL);
                        if (cudnnctl_ver_parse(ver_of(s.versions, s.installation_version), &v) == 0 &&
                            cudnnctl_ver_cmp(&v, &best) > 0) {
                                best = v;
                                newest = s;
                                have_newest = 1;
                        }
                }
                if (!have_newest)
                        continue;
                arr = cc_v_array(d->err);
                if (arr == NULL)
                        return -1;
                for (j = 0; j < cc_v_len(sh); j++) {
                        cc_value *o = cc_v_object(d->err);

                        cc_vw_step_at(sh, j, &s, NULL);
                        if (cc_v_push(arr, o, d->err) < 0 || cc_v_set_str(o, "path", s.path, d->err) < 0 ||
                            cc_v_set_str(o, "version", ver_of(s.versions, s.installation_version), d->err) < 0 ||
                            cc_v_set_str(o, "how", s.how, d->err) < 0) {
                                cc_v_free(arr);
                                return -1;
                        }
                }
                f = is_system_dir(r.realpath) ? cc_finding_mine(d, inst) : NULL;
                if (f != NULL) {
                        /* discovery said it (a System32 copy): add what which shows */
                        TRY_RET(cc_finding_ev(f, "shadows", arr, d->err));
                        TRY_RET(cc_finding_ev_str(f, "winner_version", wv, d->err));
                        TRY_RET(cc_finding_ev_str(f, "newer_copy", newest.path, d->err));
                        TRY_RET(explains_shadow(d, f, &r));
                        continue;
                }
                f = cc_finding(d, CC_F_WIN_STALE_DLL_SHADOW, NULL, NULL,
                               "%s: a plain program gets %s (%s, found %s) although the newer %s (%s) is installed "
                               "later in the search order",
                               name, r.path, wv, str_or(r.origin, str_or(r.how, "first")), newest.path,
                               ver_of(newest.versions, newest.installation_version));
                if (f == NULL) {
                        cc_v_free(arr);
                        return -1;
                }
                TRY_RET(cc_finding_ev(f, "shadows", arr, d->err));
                TRY_RET(cc_finding_ev_str(f, "winner", r.path, d->err));
                TRY_RET(cc_finding_ev_str(f, "winner_version", wv, d->err));
                TRY_RET(cc_finding_ev_str(f, "how", r.how, d->err));
                TRY_RET(cc_finding_ev_str(f, "newer_copy", newest.path, d->err));
                if (inst)
                        TRY_RET(cc_finding_ev(f, "installation", cc_v_int(inst, d->err), d->err));
                TRY_RET(explains_shadow(d, f, &r));
                {
                        const char *np = newest.path, *b = np ? strrchr(np, '\\') : NULL;
                        char *nd = cc_asprintf(d->err, "%.*s", (int)(b ? b - np : 0), np ? np : "");
                        int rc;

                        if (nd == NULL)
                                return -1;
                        rc = fix_path_first(d, f, nd,
                                            "or delete the old copy if nothing needs it (close the programs using "
                                            "it first)");
                        free(nd);
                        TRY_RET(rc);
                }
        }
        return 0;
}

/* ---- site-packages: TensorFlow, pip's leftovers ---------------------------------------- */

/* The site-packages directories Windows' gatherer looked at: TensorFlow 2.11
 * or later (no GPU on native Windows), pip's '~' leftovers. */
static int site_packages(struct cc_dctx *d, enum cc_fid fid)
{
        cc_vw_host_windows hw;
        size_t i, j;

        host_windows(d, &hw);
        for (i = 0; d->windows && i < cc_v_len(hw.site_packages); i++) {
                cc_vw_win_site s;
                const cc_value *tf, *left;
                const char *sp;
                cc_value *f;

                cc_vw_win_site_at(hw.site_packages, i, &s, NULL);
                tf = s.tensorflow;
                left = s.leftovers;
                sp = s.path;
                for (j = 0; j < cc_v_len(tf) && fid == CC_F_WIN_TF_NATIVE_GPU_DROPPED; j++) {
                        cc_vw_win_tf t;
                        cudnnctl_ver v, cut = {2, {2, 11, 0, 0}};

                        cc_vw_win_tf_at(tf, j, &t, NULL);
                        if (cudnnctl_ver_parse(t.version, &v) < 0 || cudnnctl_ver_cmp(&v, &cut) < 0)
                                continue;
                        f = cc_finding(d, fid, "info", "runtime",
                                       "%s %s in %s has no GPU support on native Windows (TensorFlow 2.11 and later): "
                                       "it never loads cuDNN",
                                       t.package, t.version, sp);
                        TRY_RET(cc_finding_ev_str(f, "package", t.package, d->err));
                        TRY_RET(cc_finding_ev_str(f, "version", t.version, d->err));
                        TRY_RET(cc_finding_ev_str(f, "dist_info", t.dist_info, d->err));
                        TRY_RET(
                            cc_finding_fix(f, d->err,
                                           "for TensorFlow on the GPU use WSL2 (pip install tensorflow[and-cuda] "
                                           "there), or TensorFlow 2.10 on native Windows (CUDA 11.2, cuDNN 8.1), or "
                                           "the DirectML plugin"));
                }
                if (cc_v_len(left) == 0 || fid != CC_F_WIN_LOCKED_PARTIAL_UPGRADE)
                        continue;
                if (!s.has_nvidia && !s.has_torch) {
                        int ours = 0;

                        for (j = 0; j < cc_v_len(left); j++) {
                                const char *b = cc_basename(str_or(cc_v_as_str(cc_v_at(left, j)), ""));

                                ours |= cc_strncasecmp(b, "~orch", 5) == 0 || cc_strncasecmp(b, "~vidia", 6) == 0;
                        }
                        if (!ours)
                                continue;
                }
                f = cc_finding(d, fid, NULL, NULL,
                               "%s holds %zu '~' folder(s) pip left when it could not replace files in use: an "
                               "upgrade stopped half-way, and the packages may mix old and new DLLs",
                               sp, cc_v_len(left));
                TRY_RET(cc_finding_ev_str(f, "site_packages", sp, d->err));
                TRY_RET(cc_finding_ev(f, "leftovers", cc_v_copy(left, d->err), d->err));
                TRY_RET(
                    cc_finding_fix(f, d->err,
                                   "close every Python process using this environment (Task Manager, or "
                                   "'tasklist /m cudnn*' names them), delete the '~' folders in %s, then reinstall the "
                                   "packages: pip install "
                                   "--force-reinstall PACKAGE",
                                   sp));
        }
        return 0;
}

/* TensorFlow 2.11 or later on native Windows: installed (site-packages),
 * or a probed TensorFlow that is a CPU-only build. */
int cc_check_win_tf_native_gpu_dropped(struct cc_dctx *d)
{
        TRY_RET(site_packages(d, CC_F_WIN_TF_NATIVE_GPU_DROPPED));
        return cc_src_frameworks(d, CC_F_WIN_TF_NATIVE_GPU_DROPPED);
}

int cc_check_win_locked_partial_upgrade(struct cc_dctx *d)
{
        return site_packages(d, CC_F_WIN_LOCKED_PARTIAL_UPGRADE);
}

/* ---- win-pagefile-1455 (live only) ----------------------------------------------------- */

int cc_check_win_pagefile_1455(struct cc_dctx *d)
{
        const cc_value *pn = cc_dx_plain_cudnn(d);
        const cc_vw_installation *inst;
        cc_vw_resolution plain;
        cc_vw_host_windows hw;
        cc_vw_win_memory mem;
        int64_t avail, need = 0;
        size_t i;
        cc_value *f;

        cc_vw_resolution_read(pn, &plain, NULL);
        inst = pn ? cc_dx_inst(d, plain.installation) : NULL;
        host_windows(d, &hw);
        cc_vw_win_memory_read(hw.memory, &mem, NULL);
        avail = mem.commit_available;
        if (!d->windows || !d->live || inst == NULL || !CC_VW_HAS(&mem, win_memory, commit_available))
                return 0;
        for (i = 0; i < cc_v_len(inst->files); i++) {
                cc_vw_file file;

                cc_vw_file_at(inst->files, i, &file, NULL);
                if (strcmp(str_or(file.kind, ""), "dll") == 0)
                        need += file.size;
        }
        if (need == 0 || avail >= 2 * need)
                return 0;
        f = cc_finding(d, CC_F_WIN_PAGEFILE_1455, avail < need ? "error" : "warning", NULL,
                       "the system can commit %lld MiB more, and cuDNN's DLLs (%s) take %lld MiB per process: loading "
                       "cuDNN %s with error 1455 (the paging file is too small)",
                       (long long)(avail >> 20), inst->prefix, (long long)(need >> 20),
                       avail < need ? "fails" : "in a second process (a DataLoader worker) fails");
        TRY_RET(cc_finding_ev(f, "commit_available", cc_v_int(avail, d->err), d->err));
        TRY_RET(cc_finding_ev(f, "commit_limit",
                              CC_VW_HAS(&mem, win_memory, commit_limit) ? cc_v_int(mem.commit_limit, d->err)
                                                                        : cc_v_null(d->err),
                              d->err));
        TRY_RET(cc_finding_ev(f, "cudnn_dll_bytes", cc_v_int(need, d->err), d->err));
        return cc_finding_fix(f, d->err,
                              "let Windows manage the paging file size (System Properties > Advanced > Performance > "
                              "Virtual memory), or make it larger; use fewer worker processes (num_workers)");
}
