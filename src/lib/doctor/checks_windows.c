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

static const char *ver_of(const cc_value *r)
{
        const cc_value *vs = cc_v_get(r, "versions");
        size_t i;

        for (i = 0; i < cc_v_len(vs); i++) {
                const char *src = cc_v_get_str(cc_v_at(vs, i), "source");

                if (src != NULL && strcmp(src, "version-resource") == 0)
                        return cc_v_get_str(cc_v_at(vs, i), "version");
        }
        return cc_v_get_str(r, "installation_version");
}

/* The installation holding the file at path, or NULL. */
static const cc_value *inst_of_path(const struct cc_dctx *d, const char *path)
{
        const cc_value *insts = cc_v_get(d->list, "installations");
        size_t i, j;

        for (i = 0; path != NULL && i < cc_v_len(insts); i++) {
                const cc_value *files = cc_v_get(cc_v_at(insts, i), "files");

                for (j = 0; j < cc_v_len(files); j++) {
                        const char *p = cc_v_get_str(cc_v_at(files, j), "path");

                        if (p != NULL && cc_strcasecmp(p, path) == 0)
                                return cc_v_at(insts, i);
                }
        }
        return NULL;
}

/* The directory holding installation inst's cuDNN shim DLL (a new string), or NULL. */
static char *shim_dir(const struct cc_dctx *d, const cc_value *inst, const char **shim)
{
        const cc_value *files = cc_v_get(inst, "files");
        size_t i;

        *shim = NULL;
        for (i = 0; i < cc_v_len(files); i++) {
                const cc_value *f = cc_v_at(files, i);
                const char *p = cc_v_get_str(f, "path"), *role = cc_v_get_str(f, "role");
                const char *kind = cc_v_get_str(f, "kind"), *b;

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
        const cc_value *sp = cc_v_get(d->host, "search_paths");
        size_t i, j, dl = strlen(dir);

        while (dl > 3 && dir[dl - 1] == '\\')
                dl--;
        for (i = 0; i < cc_v_len(sp); i++) {
                const cc_value *p = cc_v_at(sp, i);

                if (strcmp(str_or(cc_v_get_str(p, "variable"), ""), "PATH") != 0)
                        continue;
                for (j = 0; j < cc_v_len(cc_v_get(p, "entries")); j++) {
                        const cc_value *e = cc_v_at(cc_v_get(p, "entries"), j);
                        const char *s = str_or(cc_v_get_str(e, "entry"), "");
                        size_t sl = strlen(s);

                        while (sl > 3 && s[sl - 1] == '\\')
                                sl--;
                        if (sl == dl && cc_strncasecmp(s, dir, dl) == 0)
                                return cc_v_as_int(cc_v_get(e, "index"));
                }
        }
        return 0;
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
static int which_193(const cc_value *r)
{
        return is_cudnn_or_zlib(cc_v_get_str(r, "name")) && cc_v_as_int(cc_v_get(r, "windows_error")) == 193;
}

/* The shim cudnn64_N.dll itself stops at a DLL that is not x64: the cause
 * of "a plain program finds no cudnn64_N.dll" is that. */
static int shim_193(const struct cc_dctx *d)
{
        const cc_value *res = cc_v_get(d->which, "results");
        size_t i;

        for (i = 0; i < cc_v_len(res); i++)
                if (which_193(cc_v_at(res, i)) &&
                    cc_strncasecmp(cc_v_get_str(cc_v_at(res, i), "name"), "cudnn64_", 8) == 0)
                        return 1;
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
        const cc_value *res = cc_v_get(w->d->which, "results");
        size_t i;

        for (i = 0; i < w->done.n; i++)
                if (cc_strcasecmp(w->done.v[i], m->name) == 0)
                        return 1;
        for (i = 0; i < cc_v_len(res); i++) {
                const cc_value *r = cc_v_at(res, i), *tried = cc_v_get(r, "tried"), *bad = NULL, *x86;
                size_t j;

                if (!which_193(r))
                        continue;
                if (cc_strcasecmp(cc_v_get_str(r, "name"), m->name) == 0)
                        return 1;
                for (j = 0; j < cc_v_len(tried); j++)
                        if (strcmp(str_or(cc_v_get_str(cc_v_at(tried, j), "outcome"), ""), "failed") == 0)
                                bad = cc_v_at(tried, j);
                x86 = inst_of_path(w->d, cc_v_get_str(bad, "path"));
                if (x86 != NULL && cc_v_as_int(cc_v_get(x86, "id")) == m->id)
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
        const cc_value *e = cc_dx_deps_edge(d, m->id, m->name);
        const char *sev, *what;
        cc_value *f;

        if (!is_cudnn_or_zlib(m->name) || cc_dx_edge_class(d, m, &sev, &what) == CC_F_WIN_WRONG_BITNESS || e == NULL ||
            cc_v_as_int(cc_v_get(e, "windows_error")) != 193 || explained_193(w, m))
                return 0;
        if (cc_strv_push(&w->done, m->name, d->err) < 0)
                return -1;
        f = cc_finding(d, CC_F_WIN_WRONG_BITNESS, NULL, NULL,
                       "%s: the loader stops at %s, a DLL that is not x64 (error 193)", m->name,
                       str_or(cc_v_get_str(e, "path"), "a copy"));
        if (f == NULL)
                return -1;
        TRY_RET(cc_finding_ev_str(f, "name", m->name, d->err));
        TRY_RET(cc_finding_ev_str(f, "path", cc_v_get_str(e, "path"), d->err));
        TRY_RET(cc_finding_ev(f, "windows_error", cc_v_int(193, d->err), d->err));
        TRY_RET(cc_finding_fix(f, d->err, "replace %s with the x64 build of the same release",
                               str_or(cc_v_get_str(e, "path"), m->name)));
        return explains_193(d, f, m->name, 0);
}

/* A 32-bit DLL first in the search: from the deps edges that fail on it, from
 * the which results (the name a program asks for), and from the deps edges
 * the which results do not cover. */
int cc_check_win_wrong_bitness(struct cc_dctx *d)
{
        const cc_value *res = cc_v_get(d->which, "results");
        struct which_193s w;
        size_t i, j, k;
        int rc;

        TRY_RET(cc_src_deps(d, CC_F_WIN_WRONG_BITNESS));
        if (!d->windows)
                return 0;
        for (i = 0; i < cc_v_len(res); i++) {
                const cc_value *r = cc_v_at(res, i), *tried = cc_v_get(r, "tried"), *bad = NULL;
                const char *name = cc_v_get_str(r, "name");
                const cc_value *x86;
                cc_value *f, *sh;

                if (!which_193(r))
                        continue;
                for (j = 0; j < cc_v_len(tried); j++)
                        if (strcmp(str_or(cc_v_get_str(cc_v_at(tried, j), "outcome"), ""), "failed") == 0)
                                bad = cc_v_at(tried, j);
                x86 = inst_of_path(d, cc_v_get_str(bad, "path"));
                f = cc_finding(d, CC_F_WIN_WRONG_BITNESS, NULL, NULL,
                               "%s: the loader stops at %s, a DLL that is not x64 (error 193, ERROR_BAD_EXE_FORMAT): "
                               "a 64-bit program cannot load it%s",
                               name, str_or(cc_v_get_str(bad, "path"), "a copy"),
                               cc_v_len(cc_v_get(r, "shadowed")) ? ", and the x64 copy later in the search is never "
                                                                   "reached"
                                                                 : "");
                if (f == NULL)
                        return -1;
                TRY_RET(cc_finding_ev_str(f, "name", name, d->err));
                TRY_RET(cc_finding_ev_str(f, "path", cc_v_get_str(bad, "path"), d->err));
                TRY_RET(cc_finding_ev_str(f, "how", cc_v_get_str(bad, "how"), d->err));
                TRY_RET(cc_finding_ev_str(f, "origin", cc_v_get_str(bad, "origin"), d->err));
                TRY_RET(cc_finding_ev_str(f, "detail", cc_v_get_str(bad, "detail"), d->err));
                TRY_RET(cc_finding_ev(f, "windows_error", cc_v_int(193, d->err), d->err));
                sh = cc_v_array(d->err);
                TRY_RET(cc_finding_ev(f, "x64_copies", sh, d->err));
                for (k = 0; k < cc_v_len(cc_v_get(r, "shadowed")); k++)
                        TRY_RET(cc_v_push(
                            sh, cc_v_str(cc_v_get_str(cc_v_at(cc_v_get(r, "shadowed"), k), "path"), d->err), d->err));
                if (x86 != NULL)
                        TRY_RET(cc_finding_ev(f, "installation", cc_v_int(cc_v_as_int(cc_v_get(x86, "id")), d->err),
                                              d->err));
                if (cc_strcasecmp(name, "zlibwapi.dll") == 0)
                        TRY_RET(
                            cc_finding_fix(f, d->err,
                                           "move %s out of the search path (or take its folder off PATH) and put the "
                                           "x64 zlibwapi.dll (zlib123dllx64\\dll_x64) beside cuDNN's DLLs%s%s",
                                           str_or(cc_v_get_str(bad, "path"), name), k ? ": " : "",
                                           k ? "the x64 copy found later would then be used" : ""));
                else
                        TRY_RET(
                            cc_finding_fix(f, d->err,
                                           "remove or move %s (a 32-bit copy of another program): 64-bit programs need "
                                           "the x64 cuDNN, and 'cudnnctl which %s' shows what wins then",
                                           str_or(cc_v_get_str(bad, "path"), name), name));
                TRY_RET(explains_193(d, f, name, x86 ? cc_v_as_int(cc_v_get(x86, "id")) : 0));
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
        const cc_value *plain = cc_dx_plain_cudnn(d), *z = cc_dx_which(d, "zlibwapi.dll");
        const cc_value *inst = plain ? cc_dx_install(d, cc_v_as_int(cc_v_get(plain, "installation"))) : NULL;
        cudnnctl_ver v;
        cc_value *f;

        TRY_RET(cc_src_deps(d, CC_F_WIN_ZLIBWAPI_MISSING));
        if (!d->windows || inst == NULL || z == NULL || cc_v_as_bool(cc_v_get(z, "found")) ||
            cc_v_as_int(cc_v_get(z, "windows_error")) != 126 || cc_finding_mine(d, 0) != NULL)
                return 0;
        if (cudnnctl_ver_parse(cc_v_get_str(inst, "version"), &v) < 0 || v.part[0] != 8 || v.part[1] < 3)
                return 0; /* before 8.3, or 9 (no zlibwapi), or the version is unknown */
        f = cc_finding(d, CC_F_WIN_ZLIBWAPI_MISSING, NULL, NULL,
                       "cuDNN %s (%s) needs zlibwapi.dll, and the Windows loader finds none: 'Could not locate "
                       "zlibwapi.dll'",
                       cc_v_get_str(inst, "version"), cc_v_get_str(plain, "path"));
        TRY_RET(cc_finding_ev(f, "installation", cc_v_int(cc_v_as_int(cc_v_get(inst, "id")), d->err), d->err));
        TRY_RET(cc_finding_ev_str(f, "version", cc_v_get_str(inst, "version"), d->err));
        TRY_RET(cc_finding_ev(f, "places_tried", cc_v_int((int64_t)cc_v_len(cc_v_get(z, "tried")), d->err), d->err));
        {
                char *dir =
                    cc_asprintf(d->err, "%.*s",
                                (int)(strrchr(cc_v_get_str(plain, "path"), '\\')
                                          ? strrchr(cc_v_get_str(plain, "path"), '\\') - cc_v_get_str(plain, "path")
                                          : 0),
                                cc_v_get_str(plain, "path"));
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
        const cc_value *tk = cc_v_get(d->host, "toolkits");
        size_t i;
        int best = 0;

        for (i = 0; i < cc_v_len(tk); i++) {
                cudnnctl_ver v;

                if (cudnnctl_ver_parse(cc_v_get_str(cc_v_at(tk, i), "version"), &v) == 0 && v.part[0] > best)
                        best = (int)v.part[0];
        }
        return best;
}

static int installer_subdir(struct cc_dctx *d, const cc_value *inst, enum cc_fid fid)
{
        const cc_value *dirs = cc_v_get(inst, "directories");
        const char *prefix = cc_v_get_str(inst, "prefix"), *pick = NULL, *pick_in = NULL;
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
                const char *in = cc_v_get_str(cc_v_at(dirs, i), "in_prefix"),
                           *p = cc_v_get_str(cc_v_at(dirs, i), "path");

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
        rc = cc_finding_ev(f, "installation", cc_v_int(cc_v_as_int(cc_v_get(inst, "id")), d->err), d->err);
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
        return cc_finding_explains_id(d, f, CC_SUBJ_UNREACHED, cc_v_as_int(cc_v_get(inst, "id")));
}

/* A plain program finds no cudnn64_N.dll: the cause, as the finding of id
 * fid it is: the cuDNN 9 installer's subfolder (win-cudnn9-subdir), a folder
 * not on PATH or nothing where the loader looks (win-sublib-126), only pip
 * wheels (pip-cudnn-not-on-path). */
int cc_src_win_not_found(struct cc_dctx *d, enum cc_fid fid)
{
        const cc_value *insts = cc_v_get(d->list, "installations"), *best = NULL;
        const char *best_shim = NULL;
        char *dir = NULL;
        size_t i, wheels = 0;
        cudnnctl_ver bv;
        cc_value *f;
        int rc;

        if (!d->windows || cc_v_len(insts) == 0 || cc_dx_plain_cudnn(d) != NULL || shim_193(d) || d->which == NULL)
                return 0;
        for (i = 0; i < cc_v_len(insts); i++) {
                const cc_value *in = cc_v_at(insts, i);
                const char *kind = cc_v_get_str(cc_v_get(in, "provenance"), "kind");

                if (kind != NULL && strcmp(kind, "windows-installer") == 0 && cc_v_len(cc_v_get(in, "cuda_variants")))
                        return installer_subdir(d, in, fid);
        }
        memset(&bv, 0, sizeof(bv));
        for (i = 0; i < cc_v_len(insts); i++) {
                const cc_value *in = cc_v_at(insts, i);
                const char *kind = cc_v_get_str(cc_v_get(in, "provenance"), "kind"), *shim;
                char *sd;
                cudnnctl_ver v;

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
                (void)cudnnctl_ver_parse(cc_v_get_str(in, "version"), &v);
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
                               cc_basename(best_shim), str_or(cc_v_get_str(best, "version"), "(version unknown)"), dir);
                rc = f ? 0 : -1;
                if (rc == 0)
                        rc = cc_finding_ev(f, "installation", cc_v_int(cc_v_as_int(cc_v_get(best, "id")), d->err),
                                           d->err);
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
                return cc_finding_explains_id(d, f, CC_SUBJ_UNREACHED, cc_v_as_int(cc_v_get(best, "id")));
        }
        if (wheels == cc_v_len(insts)) {
                const cc_value *w = cc_v_at(insts, 0);

                if (fid != CC_F_PIP_CUDNN_NOT_ON_PATH)
                        return 0;
                f = cc_finding(d, fid, "info", "loader",
                               "cuDNN is here only as a pip wheel (%s): frameworks that load it themselves (PyTorch) "
                               "work, but a plain program finds no cudnn64_N.dll",
                               cc_v_get_str(w, "prefix"));
                TRY_RET(cc_finding_ev_str(f, "prefix", cc_v_get_str(w, "prefix"), d->err));
                TRY_RET(cc_finding_ev_str(f, "cause", "pip wheel only", d->err));
                return cc_finding_fix(
                    f, d->err,
                    "in Python, 'import torch' first or os.add_dll_directory(r\"%s\\bin\"); for other "
                    "programs install cuDNN from NVIDIA's zip into the CUDA toolkit",
                    cc_v_get_str(w, "prefix"));
        }
        if (fid != CC_F_WIN_SUBLIB_126)
                return 0;
        f = cc_finding(d, fid, "warning", "loader",
                       "a plain program finds no cudnn64_N.dll (error 126): none of the %zu cuDNN installation(s) "
                       "holds it where the loader looks (headers, import libraries or sub-libraries only)",
                       cc_v_len(insts));
        TRY_RET(cc_finding_ev_str(f, "cause", "nothing installed where the loader looks", d->err));
        TRY_RET(cc_finding_ev_str(f, "prefix", cc_v_get_str(cc_v_at(insts, 0), "prefix"), d->err));
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
                const cc_value *e = cc_v_at(d->deps, i);
                const char *target = cc_v_get_str(e, "target");
                cc_value *f;

                if (!cc_v_as_bool(cc_v_path(e, "document/summary/cudnn/mixed")) || target == NULL)
                        continue;
                f = cc_finding_mine(d, cc_v_as_int(cc_v_get(e, "installation")));
                if (f != NULL)
                        TRY_RET(cc_finding_explains(d, f, CC_SUBJ_NAMES_TARGET, target));
        }
        return 0;
}

/* ---- win-python-dll-path ------------------------------------------------------------ */

int cc_check_win_python_dll_path(struct cc_dctx *d)
{
        const cc_value *plain = cc_dx_plain_cudnn(d);
        const cc_value *pys = cc_v_path(d->host, "windows/pythons");
        cc_value *f, *list = NULL;
        const char *path, *b;
        char *dir;
        size_t i;
        int rc;

        if (!d->windows || plain == NULL || strcmp(str_or(cc_v_get_str(plain, "how"), ""), "path") != 0)
                return 0;
        for (i = 0; i < cc_v_len(pys); i++) {
                const cc_value *p = cc_v_at(pys, i);
                cudnnctl_ver v;
                cc_value *o;

                if (cudnnctl_ver_parse(cc_v_get_str(p, "version"), &v) < 0 || v.part[0] != 3 || v.part[1] < 8)
                        continue; /* unknown, or Python < 3.8, which still searches PATH */
                if (list == NULL && (list = cc_v_array(d->err)) == NULL)
                        return -1;
                o = cc_v_object(d->err);
                if (cc_v_push(list, o, d->err) < 0 || cc_v_set_str(o, "path", cc_v_get_str(p, "path"), d->err) < 0 ||
                    cc_v_set_str(o, "version", cc_v_get_str(p, "version"), d->err) < 0 ||
                    cc_v_set_str(o, "version_source", cc_v_get_str(p, "version_source"), d->err) < 0) {
                        cc_v_free(list);
                        return -1;
                }
        }
        if (list == NULL)
                return 0;
        path = cc_v_get_str(plain, "path");
        b = strrchr(path, '\\');
        dir = cc_asprintf(d->err, "%.*s", (int)(b ? b - path : 0), path);
        if (dir == NULL) {
                cc_v_free(list);
                return -1;
        }
        f = cc_finding(d, CC_F_WIN_PYTHON_DLL_PATH, NULL, NULL,
                       "%s is reachable only through PATH (%s); Python %s%s does not search PATH for the DLLs its "
                       "extension modules import, so a module that links cuDNN directly gets error 126",
                       cc_v_get_str(plain, "name"), str_or(cc_v_get_str(plain, "origin"), "PATH"),
                       cc_v_get_str(cc_v_at(list, 0), "version"), cc_v_len(list) > 1 ? " (and the others here)" : "");
        rc = cc_finding_ev(f, "pythons", list, d->err);
        if (rc == 0)
                rc = cc_finding_ev_str(f, "cudnn", path, d->err);
        if (rc == 0)
                rc = cc_finding_ev_str(f, "origin", cc_v_get_str(plain, "origin"), d->err);
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
static int explains_shadow(struct cc_dctx *d, const cc_value *f, const cc_value *r)
{
        const cc_value *sh = cc_v_get(r, "shadowed");
        size_t j;

        TRY_RET(cc_finding_explains(d, f, CC_SUBJ_NAMES_WINNER, cc_v_get_str(r, "path")));
        for (j = 0; j < cc_v_len(sh); j++) {
                int64_t si = cc_v_as_int(cc_v_get(cc_v_at(sh, j), "installation"));

                TRY_RET(cc_finding_explains(d, f, CC_SUBJ_NAMES_SHADOWED, cc_v_get_str(cc_v_at(sh, j), "path")));
                if (si != 0)
                        TRY_RET(cc_finding_explains_id(d, f, CC_SUBJ_INSTALLATION, si));
        }
        return 0;
}

/* A stale cuDNN DLL found before the installed one: discovery's copy in
 * System32, and a which result that shadows a newer copy. */
int cc_check_win_stale_dll_shadow(struct cc_dctx *d)
{
        const cc_value *res = cc_v_get(d->which, "results");
        size_t i, j;

        TRY_RET(cc_src_problems(d, CC_F_WIN_STALE_DLL_SHADOW));
        for (i = 0; d->windows && i < cc_v_len(res); i++) {
                const cc_value *r = cc_v_at(res, i), *sh = cc_v_get(r, "shadowed"), *newest = NULL;
                const char *name = cc_v_get_str(r, "name"), *wv = ver_of(r);
                cudnnctl_ver w, best;
                int64_t inst = cc_v_as_int(cc_v_get(r, "installation"));
                cc_value *f, *arr;

                if (name == NULL || cc_strncasecmp(name, "cudnn", 5) != 0 || !cc_v_as_bool(cc_v_get(r, "found")) ||
                    cudnnctl_ver_parse(wv, &w) < 0)
                        continue;
                memset(&best, 0, sizeof(best));
                best = w;
                for (j = 0; j < cc_v_len(sh); j++) {
                        cudnnctl_ver v;

                        if (cudnnctl_ver_parse(ver_of(cc_v_at(sh, j)), &v) == 0 && cudnnctl_ver_cmp(&v, &best) > 0) {
                                best = v;
                                newest = cc_v_at(sh, j);
                        }
                }
                if (newest == NULL)
                        continue;
                arr = cc_v_array(d->err);
                if (arr == NULL)
                        return -1;
                for (j = 0; j < cc_v_len(sh); j++) {
                        cc_value *o = cc_v_object(d->err);

                        if (cc_v_push(arr, o, d->err) < 0 ||
                            cc_v_set_str(o, "path", cc_v_get_str(cc_v_at(sh, j), "path"), d->err) < 0 ||
                            cc_v_set_str(o, "version", ver_of(cc_v_at(sh, j)), d->err) < 0 ||
                            cc_v_set_str(o, "how", cc_v_get_str(cc_v_at(sh, j), "how"), d->err) < 0) {
                                cc_v_free(arr);
                                return -1;
                        }
                }
                f = is_system_dir(cc_v_get_str(r, "realpath")) ? cc_finding_mine(d, inst) : NULL;
                if (f != NULL) {
                        /* discovery said it (a System32 copy): add what which shows */
                        TRY_RET(cc_finding_ev(f, "shadows", arr, d->err));
                        TRY_RET(cc_finding_ev_str(f, "winner_version", wv, d->err));
                        TRY_RET(cc_finding_ev_str(f, "newer_copy", cc_v_get_str(newest, "path"), d->err));
                        TRY_RET(explains_shadow(d, f, r));
                        continue;
                }
                f = cc_finding(d, CC_F_WIN_STALE_DLL_SHADOW, NULL, NULL,
                               "%s: a plain program gets %s (%s, found %s) although the newer %s (%s) is installed "
                               "later in the search order",
                               name, cc_v_get_str(r, "path"), wv,
                               str_or(cc_v_get_str(r, "origin"), str_or(cc_v_get_str(r, "how"), "first")),
                               cc_v_get_str(newest, "path"), ver_of(newest));
                if (f == NULL) {
                        cc_v_free(arr);
                        return -1;
                }
                TRY_RET(cc_finding_ev(f, "shadows", arr, d->err));
                TRY_RET(cc_finding_ev_str(f, "winner", cc_v_get_str(r, "path"), d->err));
                TRY_RET(cc_finding_ev_str(f, "winner_version", wv, d->err));
                TRY_RET(cc_finding_ev_str(f, "how", cc_v_get_str(r, "how"), d->err));
                TRY_RET(cc_finding_ev_str(f, "newer_copy", cc_v_get_str(newest, "path"), d->err));
                if (inst)
                        TRY_RET(cc_finding_ev(f, "installation", cc_v_int(inst, d->err), d->err));
                TRY_RET(explains_shadow(d, f, r));
                {
                        const char *np = cc_v_get_str(newest, "path"), *b = np ? strrchr(np, '\\') : NULL;
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
        const cc_value *sites = cc_v_path(d->host, "windows/site_packages");
        size_t i, j;

        for (i = 0; d->windows && i < cc_v_len(sites); i++) {
                const cc_value *s = cc_v_at(sites, i), *tf = cc_v_get(s, "tensorflow"),
                               *left = cc_v_get(s, "leftovers");
                const char *sp = cc_v_get_str(s, "path");
                cc_value *f;

                for (j = 0; j < cc_v_len(tf) && fid == CC_F_WIN_TF_NATIVE_GPU_DROPPED; j++) {
                        const cc_value *t = cc_v_at(tf, j);
                        cudnnctl_ver v, cut = {2, {2, 11, 0, 0}};

                        if (cudnnctl_ver_parse(cc_v_get_str(t, "version"), &v) < 0 || cudnnctl_ver_cmp(&v, &cut) < 0)
                                continue;
                        f = cc_finding(
                            d, fid, "info", "runtime",
                            "%s %s in %s has no GPU support on native Windows (TensorFlow 2.11 and later): it "
                            "never loads cuDNN",
                            cc_v_get_str(t, "package"), cc_v_get_str(t, "version"), sp);
                        TRY_RET(cc_finding_ev_str(f, "package", cc_v_get_str(t, "package"), d->err));
                        TRY_RET(cc_finding_ev_str(f, "version", cc_v_get_str(t, "version"), d->err));
                        TRY_RET(cc_finding_ev_str(f, "dist_info", cc_v_get_str(t, "dist_info"), d->err));
                        TRY_RET(
                            cc_finding_fix(f, d->err,
                                           "for TensorFlow on the GPU use WSL2 (pip install tensorflow[and-cuda] "
                                           "there), or TensorFlow 2.10 on native Windows (CUDA 11.2, cuDNN 8.1), or "
                                           "the DirectML plugin"));
                }
                if (cc_v_len(left) == 0 || fid != CC_F_WIN_LOCKED_PARTIAL_UPGRADE)
                        continue;
                if (!cc_v_as_bool(cc_v_get(s, "has_nvidia")) && !cc_v_as_bool(cc_v_get(s, "has_torch"))) {
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
        const cc_value *mem = cc_v_path(d->host, "windows/memory"), *plain = cc_dx_plain_cudnn(d);
        const cc_value *inst = plain ? cc_dx_install(d, cc_v_as_int(cc_v_get(plain, "installation"))) : NULL;
        const cc_value *files = cc_v_get(inst, "files");
        int64_t avail = cc_v_as_int(cc_v_get(mem, "commit_available")), need = 0;
        size_t i;
        cc_value *f;

        if (!d->windows || !d->live || inst == NULL || cc_v_type(cc_v_get(mem, "commit_available")) != CUDNNCTL_INT)
                return 0;
        for (i = 0; i < cc_v_len(files); i++)
                if (strcmp(str_or(cc_v_get_str(cc_v_at(files, i), "kind"), ""), "dll") == 0)
                        need += cc_v_as_int(cc_v_get(cc_v_at(files, i), "size"));
        if (need == 0 || avail >= 2 * need)
                return 0;
        f = cc_finding(d, CC_F_WIN_PAGEFILE_1455, avail < need ? "error" : "warning", NULL,
                       "the system can commit %lld MiB more, and cuDNN's DLLs (%s) take %lld MiB per process: loading "
                       "cuDNN %s with error 1455 (the paging file is too small)",
                       (long long)(avail >> 20), cc_v_get_str(inst, "prefix"), (long long)(need >> 20),
                       avail < need ? "fails" : "in a second process (a DataLoader worker) fails");
        TRY_RET(cc_finding_ev(f, "commit_available", cc_v_int(avail, d->err), d->err));
        TRY_RET(cc_finding_ev(f, "commit_limit", cc_v_copy(cc_v_get(mem, "commit_limit"), d->err), d->err));
        TRY_RET(cc_finding_ev(f, "cudnn_dll_bytes", cc_v_int(need, d->err), d->err));
        return cc_finding_fix(f, d->err,
                              "let Windows manage the paging file size (System Properties > Advanced > Performance > "
                              "Virtual memory), or make it larger; use fewer worker processes (num_workers)");
}
