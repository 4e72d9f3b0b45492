/* doctor --fix: the findings whose fix is a change of files, planned from
 * the doctor's own facts, shown (--dry-run stops there), and run as one
 * transaction per directory of the engine (txn/txn.h), then checked again;
 * rollback undoes each. The findings whose fix is a command (a search path,
 * the machine's default cuDNN) get the exact command; the others their
 * fix as text (docs/json.md "doctor --fix"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../doctor/doctor.h"
#include "../doctor/registry.h"
#include "../facts/views.h"
#include "../machine/machine.h"
#include "../platform/platform.h"
#include "../render/shell.h"
#include "change.h"

/* ---- doctor --fix ------------------------------------------------------------ */

/* One plan per directory and finding: its transaction is labelled
 * "fix <finding>". */
struct fixdir {
        char *dir;       /* the directory (virtual) */
        const char *fid; /* the finding it fixes (the registry's string) */
        struct change c;
};

struct fixplan {
        cc_machine *m;
        struct fixdir *dirs;
        size_t ndirs;
        const char *from;      /* --from as given, NULL: none */
        const cc_source *src;  /* it, read */
        const char *src_unfit; /* why it cannot be used here (a stop, another system), NULL: it can */
        cc_error *err;
};

static struct fixdir *fixdir_of(struct fixplan *p, const char *dir, const char *fid)
{
        struct fixdir *nv;
        size_t i;

        for (i = 0; i < p->ndirs; i++)
                if (strcmp(p->dirs[i].fid, fid) == 0 && cc_tree_path_eq(p->m->tree, p->dirs[i].dir, dir))
                        return &p->dirs[i];
        nv = cc_realloc(p->err, p->dirs, (p->ndirs + 1) * sizeof(*nv));
        if (nv == NULL)
                return NULL;
        p->dirs = nv;
        nv = &p->dirs[p->ndirs];
        memset(nv, 0, sizeof(*nv));
        nv->fid = fid;
        nv->c.err = p->err;
        nv->c.checks = cc_v_array(p->err);
        nv->dir = cc_strdup(p->err, dir);
        if (nv->dir == NULL || nv->c.checks == NULL) {
                free(nv->dir);
                cc_v_free(nv->c.checks);
                return NULL;
        }
        p->ndirs++;
        return nv;
}

/* Whether name in dir is an operation of a plan made so far (of any
 * finding: a path is changed once). */
static int planned_already(const struct fixplan *p, const char *dir, const char *name)
{
        size_t i, j;

        for (i = 0; i < p->ndirs; i++) {
                if (!cc_tree_path_eq(p->m->tree, p->dirs[i].dir, dir))
                        continue;
                for (j = 0; j < p->dirs[i].c.n; j++)
                        if (cc_tree_name_eq(p->m->tree, p->dirs[i].c.ops[j].path, name))
                                return 1;
        }
        return 0;
}

/* An operation on the file at path (virtual) in its directory's plan for
 * finding fid; nothing when another plan changes it already. */
static int plan_op(struct fixplan *p, const char *fid, int kind, const char *path, const char *link)
{
        char *dir = cc_tree_dirname(p->m->tree, path, p->err);
        const char *name = cc_basename(path);
        struct fixdir *fd;
        int rc = 0;

        if (dir == NULL)
                return -1;
        if (!planned_already(p, dir, name)) {
                fd = fixdir_of(p, dir, fid);
                rc = fd == NULL ? -1 : ch_add(&fd->c, kind, name, link, 0, 0, NULL);
        }
        free(dir);
        return rc;
}

/* ---- broken link chains (linux-broken-symlinks) ---------------------------------- */

/* The link chain of a library directory made whole again, from the
 * problems discovery found there: a dangling or looping link, or one to a
 * non-file, pointed again at the library of its name (libX.so.9 ->
 * libX.so.9.19.0, libX.so -> libX.so.9); copies with the same bytes where
 * links belong (flattened) made links; a missing SONAME link made. */

/* The name in dir (virtual) that a link called name should point to: the
 * shortest name of a library file or good link in the installation's files
 * there that is name + "." + more, else NULL. */
static const char *chain_target(const cc_value *files, const char *dir, const char *name, cc_machine *m)
{
        const char *best = NULL;
        size_t i, n = strlen(name);

        for (i = 0; i < cc_v_len(files); i++) {
                cc_vw_file f;
                char *d;
                const char *b;
                int same;

                cc_vw_file_at(files, i, &f, NULL);
                if (f.path == NULL || f.type == NULL)
                        continue;
                if (strcmp(f.type, "file") != 0 &&
                    !(strcmp(f.type, "symlink") == 0 && f.link_state != NULL && strcmp(f.link_state, "ok") == 0))
                        continue;
                b = cc_basename(f.path);
                if (strncmp(b, name, n) != 0 || b[n] != '.' || !(b[n + 1] >= '0' && b[n + 1] <= '9'))
                        continue;
                d = cc_tree_dirname(m->tree, f.path, NULL);
                same = d != NULL && cc_tree_path_eq(m->tree, d, dir);
                free(d);
                if (same && (best == NULL || strlen(b) < strlen(best)))
                        best = b;
        }
        return best;
}

/* Plan the fix of one problem; *planned: whether it gave operations, else
 * *why says why not. */
static int plan_link_fix(struct fixplan *fp, const cc_value *files, const cc_vw_problem *p, int *planned,
                         const char **why)
{
        cc_machine *m = fp->m;
        size_t i, k;

        *planned = 0;
        *why = NULL;
        for (i = 0; i < cc_v_len(p->paths); i++) {
                const char *path = cc_v_as_str(cc_v_at(p->paths, i)), *name, *to = NULL;
                char *dir;
                struct fixdir *fd;

                if (path == NULL)
                        continue;
                name = cc_basename(path);
                dir = cc_tree_dirname(m->tree, path, fp->err);
                if (dir == NULL)
                        return -1;
                if (strcmp(p->kind, "missing-soname-link") == 0) {
                        /* the real file: its SONAME link beside it */
                        cc_vw_file f;

                        for (k = 0; k < cc_v_len(files); k++) {
                                cc_vw_file_at(files, k, &f, NULL);
                                if (f.path != NULL && strcmp(f.path, path) == 0)
                                        break;
                        }
                        if (k == cc_v_len(files) || f.soname == NULL || strchr(f.soname, '/') != NULL) {
                                free(dir);
                                *why = "the library's SONAME is not known";
                                return 0;
                        }
                        fd = fixdir_of(fp, dir, "linux-broken-symlinks");
                        free(dir);
                        if (fd == NULL || ch_add(&fd->c, CC_TXN_PLACE, f.soname, name, 0, 0, NULL) < 0)
                                return -1;
                        *planned = 1;
                        continue;
                }
                to = chain_target(files, dir, name, m);
                if (to == NULL && strcmp(p->kind, "flattened-symlinks") == 0) {
                        free(dir); /* the real file of the copies: it stays */
                        continue;
                }
                if (to == NULL) {
                        free(dir);
                        *why = "no library of that name in its directory to point it at: reinstall it";
                        return 0;
                }
                fd = fixdir_of(fp, dir, "linux-broken-symlinks");
                free(dir);
                if (fd == NULL || ch_add(&fd->c, CC_TXN_REPLACE, name, to, 0, 0, NULL) < 0)
                        return -1;
                *planned = 1;
        }
        if (!*planned && *why == NULL)
                *why = "nothing to change";
        return 0;
}

static int is_link_problem(const char *kind)
{
        static const char *const K[] = {"dangling-symlink", "symlink-loop", "symlink-not-a-file", "flattened-symlinks",
                                        "missing-soname-link"};
        size_t i;

        for (i = 0; kind != NULL && i < CC_ARRAY_LEN(K); i++)
                if (strcmp(kind, K[i]) == 0)
                        return 1;
        return 0;
}

/* ---- the facts ---------------------------------------------------------------------- */

static const cc_value *inst_by_id(const cc_value *insts, int64_t id)
{
        size_t i;

        for (i = 0; id != 0 && i < cc_v_len(insts); i++)
                if (cc_v_as_int(cc_v_get(cc_v_at(insts, i), "id")) == id)
                        return cc_v_at(insts, i);
        return NULL;
}

/* The installation whose prefix or one of whose directories is dir. */
static const cc_value *inst_by_dir(cc_machine *m, const cc_value *insts, const char *dir)
{
        size_t i, j;

        for (i = 0; dir != NULL && i < cc_v_len(insts); i++) {
                const cc_value *in = cc_v_at(insts, i), *ds = cc_v_get(in, "directories");
                const char *prefix = cc_v_get_str(in, "prefix");

                if (prefix != NULL && cc_tree_path_eq(m->tree, prefix, dir))
                        return in;
                for (j = 0; j < cc_v_len(ds); j++) {
                        const char *p = cc_v_get_str(cc_v_at(ds, j), "path");

                        if (p != NULL && cc_tree_path_eq(m->tree, p, dir))
                                return in;
                }
        }
        return NULL;
}

/* The installation that holds the file at path. */
static const cc_value *inst_by_file(cc_machine *m, const cc_value *insts, const char *path)
{
        size_t i, j;

        for (i = 0; path != NULL && i < cc_v_len(insts); i++) {
                const cc_value *fs = cc_v_get(cc_v_at(insts, i), "files");

                for (j = 0; j < cc_v_len(fs); j++) {
                        const char *p = cc_v_get_str(cc_v_at(fs, j), "path");

                        if (p != NULL && cc_tree_path_eq(m->tree, p, path))
                                return cc_v_at(insts, i);
                }
        }
        return NULL;
}

static const char *prov_kind(const cc_value *inst)
{
        return cc_v_get_str(cc_v_get(inst, "provenance"), "kind");
}

/* The installation's file at path, or NULL. */
static const cc_value *file_at(cc_machine *m, const cc_value *inst, const char *path)
{
        const cc_value *fs = cc_v_get(inst, "files");
        size_t j;

        for (j = 0; j < cc_v_len(fs); j++) {
                const char *p = cc_v_get_str(cc_v_at(fs, j), "path");

                if (p != NULL && cc_tree_path_eq(m->tree, p, path))
                        return cc_v_at(fs, j);
        }
        return NULL;
}

static int is_cudnn_lib_name(const char *name)
{
        return name != NULL && (strncmp(name, "libcudnn", 8) == 0 ||
                                (cc_strncasecmp(name, "cudnn", 5) == 0 && cc_ends_with_nocase(name, ".dll")));
}

/* ---- a directory holding two releases: the stray one moved out ------------------- */

struct mixdir {
        const char *dir;
        size_t first, nsets; /* the sets of dir: sets[first..] with that directory */
};

/* Decide which release of directory dir (the installation's sets with
 * that directory: idx[0..n)) stays: the release of the shim when the shim is
 * there and its release has no fewer files than any other, else the one
 * with the most files; -1 and *why when it is not clear. */
static int keeper_of(cc_machine *m, const cc_value *inst, const cc_value *sets, const size_t *idx, size_t n,
                     const char *dir, char *why, size_t whylen, cc_error *err)
{
        size_t k, j, max = 0, nmax = 0, shims = 0, argmax = 0, shim = 0;

        for (k = 0; k < n; k++) {
                const cc_value *names = cc_v_get(cc_v_at(sets, idx[k]), "files");
                size_t c = cc_v_len(names);

                if (c > max) {
                        max = c;
                        nmax = 1;
                        argmax = k;
                } else if (c == max) {
                        nmax++;
                }
                for (j = 0; j < c; j++) {
                        char *path = cc_tree_join(m->tree, dir, cc_v_as_str(cc_v_at(names, j)), err);
                        const cc_value *f;
                        const char *role;

                        if (path == NULL)
                                return -2;
                        f = file_at(m, inst, path);
                        free(path);
                        role = cc_v_get_str(f, "role");
                        if (role != NULL && strcmp(role, "cudnn") == 0) {
                                shims++;
                                shim = k;
                                break;
                        }
                }
        }
        if (shims == 1 && cc_v_len(cc_v_get(cc_v_at(sets, idx[shim]), "files")) == max)
                return (int)shim;
        if (shims == 1) {
                snprintf(why, whylen,
                         "%s: the shim is of cuDNN %s but most files are of cuDNN %s: which release is the stray one "
                         "is not clear; reinstall one complete release",
                         dir, cc_v_get_str(cc_v_at(sets, idx[shim]), "version"),
                         cc_v_get_str(cc_v_at(sets, idx[argmax]), "version"));
                return -1;
        }
        if (shims == 0 && nmax == 1)
                return (int)argmax;
        snprintf(why, whylen, "%s: %s: which release is the stray one is not clear; reinstall one complete release",
                 dir, shims > 1 ? "each release has a shim" : "as many files of each release and no shim among them");
        return -1;
}

/* ---- the release kept made whole from --from ---------------------------------------- */

/* The first three parts of two versions agree ("9.19.0" and "9.19.0.56"). */
static int same_release(const char *a, const char *b)
{
        int dots = 0;

        if (a == NULL || b == NULL)
                return 0;
        for (; *a != '\0' && *a == *b; a++, b++)
                if (*a == '.' && ++dots == 3)
                        return 1;
        return (*a == '\0' || *a == '.') && (*b == '\0' || *b == '.') && dots == 2;
}

/* The name member mb of the source has in a library directory of the
 * machine's system (a cuDNN shared library or link below lib/, or a DLL below
 * bin/ or bin/x64/), else NULL. */
static const char *lib_member_name(const cc_src_member *mb, int windows)
{
        const char *d = mb->dest, *name;

        if (d == NULL || (mb->type != CC_SRC_FILE && mb->type != CC_SRC_LINK))
                return NULL;
        name = cc_basename(d);
        if (windows ? (strncmp(d, "bin/", 4) != 0 || (name != d + 4 && strncmp(d, "bin/x64/", 8) != 0) ||
                       (name != d + 4 && name != d + 8))
                    : (strncmp(d, "lib/", 4) != 0 || name != d + 4))
                return NULL;
        /* shared libraries only: the static ones and import libraries are for building */
        return is_cudnn_lib_name(name) && (windows || strstr(name, ".so") != NULL) ? name : NULL;
}

/* The libraries of the release kept that directory dir lacks, from the
 * source of --from: each placed, or put over a stray file or link of the
 * same name (whose removal is planned already); the paths in added. */
static int plan_members(struct fixplan *fp, const cc_value *inst, const char *fid, const char *dir, cc_value *added)
{
        cc_machine *m = fp->m;
        const cc_source *src = fp->src;
        size_t i, j;

        for (i = 0; i < src->n; i++) {
                const char *name = lib_member_name(&src->m[i], m->system == CC_SYS_WINDOWS);
                struct fixdir *fd;
                char *path;
                cc_stat st;
                int kind = CC_TXN_PLACE, r;

                if (name == NULL)
                        continue;
                if ((fd = fixdir_of(fp, dir, fid)) == NULL)
                        return -1;
                for (j = 0; j < fd->c.n && !cc_tree_name_eq(m->tree, fd->c.ops[j].path, name); j++)
                        ;
                path = cc_tree_join(m->tree, dir, name, fp->err);
                if (path == NULL)
                        return -1;
                if (j < fd->c.n) {
                        const char *had = cc_v_get_str(file_at(m, inst, path), "link");

                        if (fd->c.ops[j].kind != CC_TXN_REMOVE) {
                                free(path);
                                continue;
                        }
                        ch_drop(&fd->c, j);
                        kind = CC_TXN_REPLACE;
                        if (src->m[i].type == CC_SRC_LINK && had != NULL && strcmp(had, src->m[i].link) == 0) {
                                /* the same link as the release's: it stays */
                                free(path);
                                continue;
                        }
                } else if (planned_already(fp, dir, name) ||
                           (cc_tree_lstat(m->tree, path, &st, NULL) == 0 && st.type != CC_FT_NONE)) {
                        /* another finding's, or there: the release kept's own */
                        free(path);
                        continue;
                }
                r = ch_add_member(&fd->c, kind, name, src, i);
                if (r == 0)
                        r = cc_v_push(added, cc_v_str(path, fp->err), fp->err);
                free(path);
                TRY_RET(r);
        }
        return 0;
}

/* With --from: the set of directory dir (idx[0..n)) of the source's
 * release, or -1 with why. */
static int keeper_from(const struct fixplan *fp, const cc_value *sets, const size_t *idx, size_t n, const char *dir,
                       char *why, size_t whylen)
{
        cc_buf have = {0};
        cc_error ignored = {0};
        size_t k;

        if (fp->src_unfit != NULL) {
                snprintf(why, whylen, "%s", fp->src_unfit);
                return -1;
        }
        for (k = 0; k < n; k++)
                if (same_release(cc_v_get_str(cc_v_at(sets, idx[k]), "version"), fp->src->version))
                        return (int)k;
        for (k = 0; k < n; k++)
                if (cc_buf_printf(&have, &ignored, "%s%s", k ? " and " : "",
                                  cc_v_get_str(cc_v_at(sets, idx[k]), "version")) < 0)
                        break;
        snprintf(why, whylen, "%s is cuDNN %s; %s holds cuDNN %s: give a release of one of those", fp->from,
                 fp->src->version, dir, have.data ? have.data : "(none)");
        cc_buf_free(&have);
        return -1;
}

/* The fix of a mixed-versions problem of installation inst: in each
 * directory with more than one release, the files of the releases that do
 * not stay (and the links that lead to them) removed. */
static int plan_mixed(struct fixplan *fp, const cc_value *inst, const char *fid, cc_value *fx, int *planned)
{
        cc_machine *m = fp->m;
        const cc_value *sets = cc_v_get(inst, "sets"), *files = cc_v_get(inst, "files");
        size_t ns = cc_v_len(sets), i, j, k, l, *idx = NULL, nidx;
        cc_buf then = {0};
        cc_strv stray = {0};
        char why[1024];
        cc_value *dropped = NULL, *added = NULL;
        int rc = -1, keep;

        *planned = 0;
        why[0] = '\0';
        idx = cc_calloc(fp->err, ns + 1, sizeof(*idx));
        dropped = cc_v_array(fp->err);
        added = cc_v_array(fp->err);
        if (idx == NULL || dropped == NULL || added == NULL)
                goto out;
        /* first decide every directory: nothing is planned when one is not clear */
        for (l = 0; l < 2; l++) {
                for (i = 0; i < ns; i++) {
                        const char *dir = cc_v_get_str(cc_v_at(sets, i), "directory"), *kv;
                        int seen = 0;

                        for (j = 0; j < i; j++)
                                seen |= dir != NULL &&
                                        cc_tree_path_eq(m->tree, cc_v_get_str(cc_v_at(sets, j), "directory"), dir);
                        if (dir == NULL || seen)
                                continue;
                        nidx = 0;
                        for (j = i; j < ns; j++)
                                if (cc_tree_path_eq(m->tree, cc_v_get_str(cc_v_at(sets, j), "directory"), dir))
                                        idx[nidx++] = j;
                        if (nidx < 2)
                                continue;
                        keep = fp->src != NULL || fp->src_unfit != NULL
                                   ? keeper_from(fp, sets, idx, nidx, dir, why, sizeof(why))
                                   : keeper_of(m, inst, sets, idx, nidx, dir, why, sizeof(why), fp->err);
                        if (keep == -2)
                                goto out;
                        if (keep < 0) {
                                TRY(cc_v_set_str(fx, "action", "none", fp->err));
                                TRY(cc_v_set_str(fx, "why", why, fp->err));
                                rc = 0;
                                goto out;
                        }
                        if (l == 0)
                                continue;
                        cc_buf_free(&then);
                        kv = cc_v_get_str(cc_v_at(sets, idx[keep]), "version");
                        TRY(cc_v_set_str(fx, "keep", kv, fp->err));
                        for (k = 0; k < nidx; k++) {
                                const cc_value *names = cc_v_get(cc_v_at(sets, idx[k]), "files");
                                const char *sv = cc_v_get_str(cc_v_at(sets, idx[k]), "version");

                                if ((int)k == keep)
                                        continue;
                                if (sv != NULL && !cc_strv_contains(&stray, sv))
                                        TRY(cc_strv_push(&stray, sv, fp->err));
                                for (j = 0; j < cc_v_len(names); j++) {
                                        char *path =
                                            cc_tree_join(m->tree, dir, cc_v_as_str(cc_v_at(names, j)), fp->err);
                                        const char *role;
                                        size_t q, r;
                                        int kept_role = 0;

                                        if (path == NULL)
                                                goto out;
                                        if (plan_op(fp, fid, CC_TXN_REMOVE, path, NULL) < 0 ||
                                            cc_v_push(dropped, cc_v_str(path, fp->err), fp->err) < 0) {
                                                free(path);
                                                goto out;
                                        }
                                        role = cc_v_get_str(file_at(m, inst, path), "role");
                                        /* the links that lead to it go with it */
                                        for (q = 0; q < cc_v_len(files); q++) {
                                                const cc_value *f = cc_v_at(files, q);
                                                const char *to = cc_v_get_str(f, "resolves_to"),
                                                           *lp = cc_v_get_str(f, "path");

                                                if (to == NULL || lp == NULL || !cc_tree_path_eq(m->tree, to, path))
                                                        continue;
                                                if (plan_op(fp, fid, CC_TXN_REMOVE, lp, NULL) < 0) {
                                                        free(path);
                                                        goto out;
                                                }
                                        }
                                        free(path);
                                        /* what the directory then lacks */
                                        {
                                                const cc_value *kn = cc_v_get(cc_v_at(sets, idx[keep]), "files");

                                                for (r = 0; role != NULL && r < cc_v_len(kn); r++) {
                                                        char *kp = cc_tree_join(m->tree, dir,
                                                                                cc_v_as_str(cc_v_at(kn, r)), fp->err);
                                                        const char *kr;

                                                        if (kp == NULL)
                                                                goto out;
                                                        kr = cc_v_get_str(file_at(m, inst, kp), "role");
                                                        kept_role |= kr != NULL && strcmp(kr, role) == 0;
                                                        free(kp);
                                                }
                                        }
                                        if (role != NULL && !kept_role)
                                                TRY(cc_buf_printf(&then, fp->err, "%s%s", then.len ? ", " : "", role));
                                }
                        }
                        if (fp->src != NULL) {
                                TRY(plan_members(fp, inst, fid, dir, added));
                                cc_buf_free(&then);
                        }
                        if (then.len > 0) {
                                char *t = cc_asprintf(fp->err,
                                                      "%s then has no %s of cuDNN %s: install that release's complete "
                                                      "set there",
                                                      dir, then.data, kv ? kv : "(release unknown)");

                                if (t == NULL || cc_v_set_str(fx, "then", t, fp->err) < 0) {
                                        free(t);
                                        goto out;
                                }
                                free(t);
                        }
                        *planned = 1;
                }
        }
        if (!*planned) {
                TRY(cc_v_set_str(fx, "action", "none", fp->err));
                TRY(cc_v_set_str(fx, "why", "the installation's facts show no directory with two releases", fp->err));
                rc = 0;
                goto out;
        }
        TRY(cc_v_set(fx, "stray", cc_v_strv(&stray, fp->err), fp->err));
        TRY(cc_v_set(fx, "removed", dropped, fp->err));
        dropped = NULL;
        if (fp->src != NULL) {
                TRY(cc_v_set_str(fx, "from", fp->from, fp->err));
                TRY(cc_v_set(fx, "added", added, fp->err));
                added = NULL;
        }
        TRY(cc_v_set_str(fx, "action", "change", fp->err));
        rc = 0;
fail:
out:
        cc_v_free(dropped);
        cc_v_free(added);
        cc_strv_free(&stray);
        cc_buf_free(&then);
        free(idx);
        return rc;
}

/* ---- the user's Path cut by setx: the machine's copy taken off ----------------------- */

/* Entry e (of elen bytes) is one of out's already (ASCII case aside). */
static int entry_seen(const cc_strv *v, const char *e, size_t elen)
{
        size_t i;

        for (i = 0; i < v->n; i++)
                if (strlen(v->v[i]) == elen && cc_strncasecmp(v->v[i], e, elen) == 0)
                        return 1;
        return 0;
}

static int drop(cc_value *dropped, const char *e, size_t elen, const char *why, cc_error *err)
{
        cc_value *o = cc_v_object(err);

        TRY_RET(cc_v_push(dropped, o, err));
        TRY_RET(cc_v_set(o, "entry", cc_v_strn(e, elen, err), err));
        return cc_v_set_str(o, "why", why, err);
}

/* The fix of win-setx-truncation f when the user's Path is a shell's
 * PATH (the machine's entries first) cut at 1024 characters: the user's
 * Path without the machine's entries, twice-listed ones, and the last
 * entry when the cut left it half (no such directory); set through the
 * engine (SETREG), in the machine's state directory, type kept. */
static int plan_setx(struct fixplan *fp, const cc_value *f, cc_value *fx, int *planned)
{
        cc_machine *m = fp->m;
        cc_error *err = fp->err;
        const char *cut = cc_v_get_str(cc_v_get(f, "evidence"), "cut");
        char *user = NULL, *mach = NULL, *state = NULL;
        cc_regval uv, mv;
        cc_strv keep = {0};
        cc_buf after = {0}, rec = {0};
        cc_value *dropped = NULL;
        cc_error e2 = {0};
        size_t units = 0, munits = 0, k, i;
        const char *p;
        struct fixdir *fd;
        int rc = -1;

        *planned = 0;
        memset(&uv, 0, sizeof(uv));
        memset(&mv, 0, sizeof(mv));
        if (cut == NULL || strcmp(cut, "user-copy") != 0)
                return 0; /* the text: restore it by hand */
        if (!m->live || m->system != CC_SYS_WINDOWS)
                return 0;
        if (cc_reg_read("HKCU", CC_WIN_USER_KEY, "Path", &uv, &e2) < 0 ||
            cc_regval_text(&uv, "HKCU\\Environment\\Path", &user, &units, &e2) < 0 || user == NULL ||
            cc_reg_read("HKLM", CC_WIN_MACHINE_KEY, "Path", &mv, &e2) < 0 ||
            cc_regval_text(&mv, "the machine's Path", &mach, &munits, &e2) < 0 || mach == NULL) {
                TRY(cc_v_set_str(fx, "action", "none", err));
                TRY(cc_v_set_str(fx, "why", e2.msg[0] ? e2.msg : "the registry's Path values are not there", err));
                rc = 0;
                goto out;
        }
        if ((dropped = cc_v_array(err)) == NULL)
                goto out;
        k = cc_winpath_copied(user, mach);
        for (i = 0, p = user; p != NULL && *p != '\0'; i++) {
                const char *semi = strchr(p, ';');
                size_t len = semi ? (size_t)(semi - p) : strlen(p);

                if (len == 0) {
                        TRY(drop(dropped, p, len, "empty", err));
                } else if (i < k) {
                        TRY(drop(dropped, p, len, "the machine's Path's (copied by setx)", err));
                } else if (cc_winpath_in_machine(p, len, mach)) {
                        TRY(drop(dropped, p, len, "the machine's Path has it", err));
                } else if (entry_seen(&keep, p, len)) {
                        TRY(drop(dropped, p, len, "listed before", err));
                } else {
                        char *one = cc_strndup(err, p, len);
                        cc_stat st;
                        int half;

                        if (one == NULL)
                                goto out;
                        /* the last entry of a value setx cut: whole only if it is a directory */
                        half = semi == NULL && units == CC_WIN_SETX_CUT && strchr(one, '%') == NULL &&
                               (cc_tree_stat(m->tree, one, &st, NULL) < 0 || st.type != CC_FT_DIR);
                        if (half) {
                                free(one);
                                TRY(drop(dropped, p, len, "cut in two by setx (no such directory)", err));
                        } else if (cc_strv_push(&keep, one, err) < 0) {
                                free(one);
                                goto out;
                        } else {
                                free(one);
                        }
                }
                p = semi ? semi + 1 : NULL;
        }
        for (i = 0; i < keep.n; i++)
                TRY(cc_buf_printf(&after, err, "%s%s", i ? ";" : "", keep.v[i]));
        TRY(cc_buf_puts(&after, "", err));
        TRY(cc_regval_record(after.data, uv.type == CC_REG_SZ ? CC_REG_SZ : CC_REG_EXPAND_SZ, &rec, &units, err));
        if ((state = cc_state_dir(m, err)) == NULL || (fd = fixdir_of(fp, state, "win-setx-truncation")) == NULL)
                goto out;
        TRY(ch_add_data(&fd->c, CC_TXN_SETREG, "HKCU/" CC_WIN_USER_KEY "/Path", 0600, rec.data, rec.len));
        TRY(cc_v_set_str(fx, "registry", "HKCU\\" CC_WIN_USER_KEY, err));
        TRY(cc_v_set_str(fx, "before", user, err));
        TRY(cc_v_set_str(fx, "after", after.data, err));
        TRY(cc_v_set(fx, "dropped", dropped, err));
        dropped = NULL;
        TRY(cc_v_set_str(fx, "then",
                         "what was after the cut is not in the registry any more: add it back by hand (System "
                         "Properties > Environment Variables), or from the PATH of a shell started before the setx",
                         err));
        TRY(cc_v_set_str(fx, "action", "change", err));
        *planned = 1;
        rc = 0;
fail:
out:
        cc_regval_free(&uv);
        cc_regval_free(&mv);
        cc_strv_free(&keep);
        cc_buf_free(&after);
        cc_buf_free(&rec);
        cc_v_free(dropped);
        free(user);
        free(mach);
        free(state);
        return rc;
}

/* ---- a stale copy found first: moved aside ------------------------------------------ */

/* The fix of win-stale-dll-shadow f: the stale copy's cuDNN libraries in
 * the directory a plain program takes the shim from removed, when the copy
 * the search then reaches is the newer installed one. */
static int plan_stale(struct fixplan *fp, const cc_value *facts, const cc_value *f, cc_value *fx, int *planned)
{
        cc_machine *m = fp->m;
        const cc_value *ev = cc_v_get(f, "evidence"), *insts = cc_v_get(cc_v_get(facts, "list"), "installations");
        const cc_value *res = cc_v_get(cc_v_get(facts, "which"), "results"), *r = NULL, *stale, *next, *fs;
        int64_t id = cc_v_as_int(cc_v_get(ev, "installation"));
        const char *newer = cc_v_get_str(ev, "newer_copy"), *winner;
        char *wdir = NULL, *why = NULL;
        size_t i;
        int rc = -1;

        *planned = 0;
        stale = inst_by_id(insts, id);
        for (i = 0; stale != NULL && i < cc_v_len(res); i++) {
                const cc_value *x = cc_v_at(res, i);
                const char *name = cc_v_get_str(x, "name");

                if (cc_v_as_int(cc_v_get(x, "installation")) == id && cc_v_as_bool(cc_v_get(x, "found")) &&
                    name != NULL && cc_strncasecmp(name, "cudnn", 5) == 0 && cc_v_len(cc_v_get(x, "shadowed")) > 0) {
                        r = x;
                        break;
                }
        }
        if (stale == NULL || r == NULL || newer == NULL) {
                why = cc_strdup(fp->err, "the facts do not say which copy is the stale one and which the installed");
                goto none;
        }
        winner = cc_v_get_str(r, "path");
        next = cc_v_at(cc_v_get(r, "shadowed"), 0);
        if (cc_v_get_str(next, "path") == NULL || !cc_tree_path_eq(m->tree, cc_v_get_str(next, "path"), newer) ||
            cc_v_as_int(cc_v_get(next, "installation")) == 0 || cc_v_as_int(cc_v_get(next, "installation")) == id) {
                why = cc_asprintf(fp->err,
                                  "moving %s aside would make a plain program load %s, not the installed %s: put the "
                                  "installed copy's directory first instead",
                                  winner ? winner : "the stale copy",
                                  cc_v_get_str(next, "path") ? cc_v_get_str(next, "path") : "another copy", newer);
                goto none;
        }
        wdir = winner ? cc_tree_dirname(m->tree, winner, fp->err) : NULL;
        if (wdir == NULL)
                goto out;
        fs = cc_v_get(stale, "files");
        for (i = 0; i < cc_v_len(fs); i++) {
                const cc_value *x = cc_v_at(fs, i);
                const char *p = cc_v_get_str(x, "path"), *t = cc_v_get_str(x, "type");
                char *d;
                int same;

                if (p == NULL || t == NULL || strcmp(t, "file") != 0 || !is_cudnn_lib_name(cc_basename(p)))
                        continue;
                d = cc_tree_dirname(m->tree, p, fp->err);
                if (d == NULL)
                        goto out;
                same = cc_tree_path_eq(m->tree, d, wdir);
                free(d);
                if (!same)
                        continue;
                if (plan_op(fp, "win-stale-dll-shadow", CC_TXN_REMOVE, p, NULL) < 0)
                        goto out;
                *planned = 1;
        }
        if (!*planned) {
                why = cc_asprintf(fp->err, "no cuDNN library of the stale copy in %s", wdir);
                goto none;
        }
        TRY(cc_v_set_str(fx, "action", "change", fp->err));
        TRY(cc_v_set_str(fx, "then_loads", newer, fp->err));
        rc = 0;
        goto out;
none:
        if (why == NULL)
                goto out;
        TRY(cc_v_set_str(fx, "action", "none", fp->err));
        TRY(cc_v_set_str(fx, "why", why, fp->err));
        rc = 0;
fail:
out:
        free(wdir);
        free(why);
        return rc;
}

/* ---- commands ------------------------------------------------------------------------ */

/* An argument for the host's shell: as it is when it holds nothing the
 * shell reads, else quoted. */
static int put_arg(cc_buf *b, const char *shell, const char *s, cc_error *err)
{
        const char *p;
        int plain = *s != '\0';

        for (p = s; *p && plain; p++)
                plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                        strchr("/._-+,:=@\\", *p) != NULL;
        TRY_RET(cc_buf_putc(b, ' ', err));
        if (plain)
                return cc_buf_puts(b, s, err);
        if (strcmp(shell, "cmd") == 0) {
                if (strchr(s, '"') != NULL)
                        return cc_err(err, CC_ERR_FORMAT, "%s: a path with '\"' cannot be given to cmd", s);
                return cc_buf_putc(b, '"', err) < 0 || cc_shell_quote(b, shell, "argument", s, err) < 0 ||
                               cc_buf_putc(b, '"', err) < 0
                           ? -1
                           : 0;
        }
        return cc_shell_quote(b, shell, "argument", s, err);
}

/* "cudnnctl env INSTALL [--cuda V]" for this shell, or "cudnnctl use INSTALL
 * [--cuda V]" (INSTALL: the prefix, which unlike the id does not follow the
 * environment), with the machine's --root and --system when it is a tree. */
static char *cudnnctl_cmd(cc_machine *m, const char *shell, int env, const char *install, const char *cuda,
                          cc_error *err)
{
        const char *root = cc_tree_root(m->tree);
        cc_buf b = {0};

        if (env && strcmp(shell, "fish") != 0 && strcmp(shell, "cmd") != 0 && strcmp(shell, "powershell") != 0)
                TRY(cc_buf_puts(&b, "eval \"$(", err));
        TRY(cc_buf_puts(&b, env ? "cudnnctl env" : "cudnnctl use", err));
        TRY(put_arg(&b, shell, install, err));
        if (cuda != NULL) {
                TRY(cc_buf_puts(&b, " --cuda", err));
                TRY(put_arg(&b, shell, cuda, err));
        }
        if (root != NULL) {
                TRY(cc_buf_puts(&b, " --root", err));
                TRY(put_arg(&b, shell, root, err));
                if (m->system == CC_SYS_WINDOWS)
                        TRY(cc_buf_puts(&b, " --system windows", err));
        }
        if (env && strcmp(shell, "fish") == 0)
                TRY(cc_buf_puts(&b, " --shell fish | source", err));
        else if (env && strcmp(shell, "powershell") == 0)
                TRY(cc_buf_puts(&b, " --shell powershell | Invoke-Expression", err));
        else if (env && strcmp(shell, "cmd") == 0)
                TRY(cc_buf_puts(&b, " --shell cmd -o cudnnctl-env.bat && call cudnnctl-env.bat", err));
        else if (env)
                TRY(cc_buf_puts(&b, ")\"", err));
        return cc_buf_steal(&b);
fail:
        cc_buf_free(&b);
        return NULL;
}

static int add_command(cc_value *fx, const char *scope, char *command, cc_error *err)
{
        cc_value *arr = cc_v_getm(fx, "commands"), *o;

        if (command == NULL)
                return -1;
        if (arr == NULL &&
            (cc_v_set(fx, "commands", cc_v_array(err), err) < 0 || (arr = cc_v_getm(fx, "commands")) == NULL)) {
                free(command);
                return -1;
        }
        o = cc_v_object(err);
        if (cc_v_push(arr, o, err) < 0 || cc_v_set_str(o, "scope", scope, err) < 0 ||
            cc_v_set_str(o, "command", command, err) < 0) {
                free(command);
                return -1;
        }
        free(command);
        return 0;
}

/* A plain program finds no cuDNN (linux-libcudnn-not-found,
 * pip-cudnn-not-on-path), the conda environment's cuDNN is not what its
 * programs get (conda-vs-system-order), the cuDNN 9 installer's subfolder
 * not on PATH (win-cudnn9-subdir), a cuDNN Python >= 3.8 reaches only
 * through PATH (win-python-dll-path): the env/use commands of the
 * installation; 0 with nothing set when the facts do not name it. */
static int plan_loader_cmd(cc_machine *m, const cc_value *facts, const char *shell, const char *id, const cc_value *f,
                           cc_value *fx, cc_error *err)
{
        const cc_value *ev = cc_v_get(f, "evidence"), *insts = cc_v_get(cc_v_get(facts, "list"), "installations");
        const cc_value *in = NULL;
        const char *kind, *cuda = NULL, *prefix;
        int64_t iid;

        if (strcmp(id, "win-cudnn9-subdir") == 0) {
                const char *sub = cc_v_get_str(ev, "directory");

                in = inst_by_id(insts, cc_v_as_int(cc_v_get(ev, "installation")));
                sub = sub ? cc_basename(sub) : NULL;
                if (sub != NULL && sub[0] >= '0' && sub[0] <= '9')
                        cuda = sub;
        } else if (strcmp(id, "win-python-dll-path") == 0) {
                in = inst_by_file(m, insts, cc_v_get_str(ev, "cudnn"));
        } else if (strcmp(id, "conda-vs-system-order") == 0) {
                in = inst_by_dir(m, insts, cc_v_get_str(ev, "conda_prefix"));
        } else {
                in = inst_by_dir(m, insts, cc_v_get_str(ev, "directory"));
                if (in == NULL)
                        in = inst_by_dir(m, insts, cc_v_get_str(ev, "prefix"));
        }
        if (in == NULL)
                return 0;
        iid = cc_v_as_int(cc_v_get(in, "id"));
        prefix = cc_v_get_str(in, "prefix");
        if (prefix == NULL)
                return 0;
        kind = prov_kind(in);
        TRY_RET(cc_v_set_int(fx, "installation", iid, err));
        if ((strcmp(id, "linux-libcudnn-not-found") == 0 || strcmp(id, "pip-cudnn-not-on-path") == 0) && kind != NULL &&
            (strcmp(kind, "pip-wheel") == 0 || strcmp(kind, "conda-package") == 0)) {
                char *env = cudnnctl_cmd(m, shell, 1, prefix, NULL, err);
                char *why;
                int rc;

                if (env == NULL)
                        return -1;
                why = cc_asprintf(err,
                                  "%s is a %s: it belongs to its Python environment, and 'cudnnctl use' would tie "
                                  "every program of the machine to it; for that environment's programs prefer "
                                  "'cudnnctl exec %s -- PROGRAM', or for a shell: %s",
                                  prefix, strcmp(kind, "pip-wheel") == 0 ? "pip wheel" : "conda package", prefix, env);
                free(env);
                if (why == NULL)
                        return -1;
                rc = cc_v_set_str(fx, "action", "none", err) < 0 || cc_v_set_str(fx, "why", why, err) < 0 ? -1 : 0;
                free(why);
                return rc;
        }
        TRY_RET(cc_v_set_str(fx, "action", "command", err));
        if (strcmp(id, "win-python-dll-path") == 0) {
                const char *p = cc_v_get_str(ev, "cudnn"), *b = p ? strrchr(p, '\\') : NULL;

                TRY_RET(add_command(
                    fx, "python",
                    cc_asprintf(err, "import os; os.add_dll_directory(r\"%.*s\")", (int)(b ? b - p : 0), p ? p : ""),
                    err));
                return add_command(fx, "shell", cudnnctl_cmd(m, shell, 1, prefix, NULL, err), err);
        }
        TRY_RET(add_command(fx, "shell", cudnnctl_cmd(m, shell, 1, prefix, cuda, err), err));
        if (strcmp(id, "conda-vs-system-order") == 0)
                return 0; /* for that environment only: not the machine's default */
        return add_command(fx, "persistent", cudnnctl_cmd(m, shell, 0, prefix, cuda, err), err);
}

/* ---- search-path entries -------------------------------------------------------------- */

static int is_path_finding(const char *id)
{
        return strcmp(id, "path-empty-entry") == 0 || strcmp(id, "path-missing-entry") == 0 ||
               strcmp(id, "path-writable-dir") == 0;
}

/* The entries a search-path finding names: its instances, or itself. */
static const cc_value *path_instances(const cc_value *f, size_t *n)
{
        const cc_value *ev = cc_v_get(f, "evidence"), *in = cc_v_get(ev, "instances");

        if (in != NULL) {
                *n = cc_v_len(in);
                return in;
        }
        *n = cc_v_get_str(ev, "variable") != NULL;
        return NULL;
}

static const cc_value *path_instance(const cc_value *f, const cc_value *in, size_t i)
{
        return in != NULL ? cc_v_at(in, i) : cc_v_get(f, "evidence");
}

/* Whether entry e (of search_paths) of var is one that a wanted search-path
 * finding names. */
static int entry_flagged(const cc_value *fs, const cudnnctl_fix_options *o, const char *var, const cc_value *e,
                         int (*want)(const cudnnctl_fix_options *, const char *))
{
        size_t i, j, n;

        for (i = 0; i < cc_v_len(fs); i++) {
                const cc_value *f = cc_v_at(fs, i), *in;
                const char *id = cc_v_get_str(f, "id");

                if (id == NULL || !is_path_finding(id) || !want(o, id))
                        continue;
                in = path_instances(f, &n);
                for (j = 0; j < n; j++) {
                        const cc_value *x = path_instance(f, in, j);
                        const char *xv = cc_v_get_str(x, "variable"), *xe = cc_v_get_str(x, "entry");

                        if (xv == NULL || strcmp(xv, var) != 0)
                                continue;
                        if (cc_v_get(x, "index") != NULL
                                ? cc_v_as_int(cc_v_get(x, "index")) == cc_v_as_int(cc_v_get(e, "index"))
                                : xe != NULL && cc_v_get_str(e, "entry") != NULL &&
                                      strcmp(xe, cc_v_get_str(e, "entry")) == 0)
                                return 1;
                }
        }
        return 0;
}

/* The line that sets var to its entries less those the wanted search-path
 * findings name, for the host's shell (unset when none is left). */
static char *path_line(cc_machine *m, const cc_value *facts, const cc_value *fs, const cudnnctl_fix_options *o,
                       const char *shell, const char *var, int (*want)(const cudnnctl_fix_options *, const char *),
                       int *absent, cc_error *err)
{
        const cc_value *sps = cc_v_get(cc_v_get(facts, "host"), "search_paths"), *sp = NULL, *es;
        char sep = m->system == CC_SYS_WINDOWS ? ';' : ':';
        cc_buf v = {0}, b = {0};
        size_t i, kept = 0;

        for (i = 0; i < cc_v_len(sps); i++)
                if (cc_v_get_str(cc_v_at(sps, i), "variable") != NULL &&
                    strcmp(cc_v_get_str(cc_v_at(sps, i), "variable"), var) == 0)
                        sp = cc_v_at(sps, i);
        es = cc_v_get(sp, "entries");
        *absent = sp == NULL || cc_v_len(es) == 0;
        if (*absent)
                return NULL;
        for (i = 0; i < cc_v_len(es); i++) {
                const cc_value *e = cc_v_at(es, i);
                const char *s = cc_v_get_str(e, "entry");

                if (s == NULL || entry_flagged(fs, o, var, e, want))
                        continue;
                if ((kept++ && cc_buf_putc(&v, sep, err) < 0) || cc_buf_puts(&v, s, err) < 0)
                        goto fail;
        }
        if (kept == 0) {
                if (strcmp(shell, "powershell") == 0)
                        TRY(cc_buf_printf(&b, err, "Remove-Item -LiteralPath 'Env:%s'", var));
                else if (strcmp(shell, "cmd") == 0)
                        TRY(cc_buf_printf(&b, err, "set \"%s=\"", var));
                else if (strcmp(shell, "fish") == 0)
                        TRY(cc_buf_printf(&b, err, "set -e %s", var));
                else
                        TRY(cc_buf_printf(&b, err, "unset %s", var));
        } else if (strcmp(shell, "cmd") == 0) {
                TRY(cc_buf_printf(&b, err, "set \"%s=", var));
                TRY(cc_shell_quote(&b, shell, var, v.data, err));
                TRY(cc_buf_putc(&b, '"', err));
        } else {
                TRY(cc_buf_printf(&b, err,
                                  strcmp(shell, "powershell") == 0 ? "$env:%s = "
                                  : strcmp(shell, "fish") == 0     ? "set -gx %s "
                                                                   : "export %s=",
                                  var));
                TRY(cc_shell_quote(&b, shell, var, v.data, err));
        }
        cc_buf_free(&v);
        return cc_buf_steal(&b);
fail:
        cc_buf_free(&v);
        cc_buf_free(&b);
        return NULL;
}

static int plan_path_cmd(cc_machine *m, const cc_value *facts, const cc_value *fs, const cudnnctl_fix_options *o,
                         const char *shell, const cc_value *f, cc_value *fx,
                         int (*want)(const cudnnctl_fix_options *, const char *), cc_error *err)
{
        cc_strv vars = {0};
        const cc_value *in;
        size_t i, n;
        int rc = -1;

        in = path_instances(f, &n);
        for (i = 0; i < n; i++) {
                const char *v = cc_v_get_str(path_instance(f, in, i), "variable");

                if (v != NULL && !cc_strv_contains(&vars, v) && cc_strv_push(&vars, v, err) < 0)
                        goto out;
        }
        for (i = 0; i < vars.n; i++) {
                int absent;
                char *line = path_line(m, facts, fs, o, shell, vars.v[i], want, &absent, err);

                if (line == NULL && absent) {
                        rc = 0; /* stays text */
                        goto out;
                }
                if (add_command(fx, "shell", line, err) < 0)
                        goto out;
        }
        rc = vars.n > 0 ? cc_v_set_str(fx, "action", "command", err) : 0;
out:
        cc_strv_free(&vars);
        return rc;
}

/* ---- the document --------------------------------------------------------------------- */

static int wanted(const cudnnctl_fix_options *o, const char *id)
{
        size_t i;

        if (o->nids == 0)
                return 1;
        for (i = 0; i < o->nids; i++)
                if (id != NULL && strcmp(o->ids[i], id) == 0)
                        return 1;
        return 0;
}

static int is_mixed_finding(const char *id)
{
        return strcmp(id, "linux-v8-mixed-helpers") == 0 || strcmp(id, "v9-sublibrary-version-mismatch") == 0 ||
               strcmp(id, "win-sublib-127") == 0;
}

static int is_loader_cmd_finding(const char *id)
{
        return strcmp(id, "linux-libcudnn-not-found") == 0 || strcmp(id, "pip-cudnn-not-on-path") == 0 ||
               strcmp(id, "conda-vs-system-order") == 0 || strcmp(id, "win-cudnn9-subdir") == 0 ||
               strcmp(id, "win-python-dll-path") == 0;
}

int cudnnctl_doctor_fix(cudnnctl_machine *m, const cudnnctl_fix_options *o, cudnnctl_value **out, cudnnctl_error *err)
{
        cudnnctl_doctor_options dopt;
        cudnnctl_value *before = NULL, *after = NULL;
        const cc_value *facts, *insts, *fs;
        cc_value *doc = NULL, *fixes = NULL, *arr = NULL;
        struct fixplan fp;
        cc_source src;
        char unfit[700];
        cc_strv done = {0};
        const char *shell;
        size_t i, j;
        int rc = -1, applied = 0;

        if (out == NULL || m == NULL || o == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_doctor_fix: no machine, options or place for the result");
        *out = NULL;
        for (i = 0; i < o->nids; i++)
                if (cc_fid_of(o->ids[i]) == CC_F_NONE)
                        return cc_err(err, CC_ERR_USAGE, "%s: not a finding id (README: 'Findings')", o->ids[i]);
        memset(&fp, 0, sizeof(fp));
        memset(&src, 0, sizeof(src));
        fp.m = m;
        fp.err = err;
        if (o->from != NULL) {
                const char *sys = m->system == CC_SYS_WINDOWS ? "windows" : "linux";

                if (cc_source_open(o->from, &src, err) < 0)
                        goto fail;
                fp.from = o->from;
                fp.src_unfit = unfit;
                if (src.stops.n > 0)
                        snprintf(unfit, sizeof(unfit), "%s: not to be installed: %s", o->from, src.stops.v[0]);
                else if (src.system == NULL || strcmp(src.system, sys) != 0)
                        snprintf(unfit, sizeof(unfit), "%s is a release for %s; this machine is %s", o->from,
                                 src.system ? src.system : "a system its files do not say", sys);
                else if (m->live && src.machine != NULL && CC_HOST_MACHINE != NULL &&
                         strcmp(src.machine, CC_HOST_MACHINE) != 0)
                        snprintf(unfit, sizeof(unfit), "%s is built for %s; this machine is %s", o->from, src.machine,
                                 CC_HOST_MACHINE);
                else if (src.version == NULL)
                        snprintf(unfit, sizeof(unfit), "%s: which release it is is not known", o->from);
                else
                        fp.src_unfit = NULL;
                if (fp.src_unfit == NULL)
                        fp.src = &src;
        }
        memset(&dopt, 0, sizeof(dopt));
        dopt.gpu = CUDNNCTL_GPU_OFF;
        dopt.no_compile = 1;
        dopt.no_frameworks = 1;
        dopt.timeout_ms = o->timeout_ms;
        TRY(cudnnctl_doctor(m, &dopt, &before, err));
        facts = cc_v_get(before, "facts");
        insts = cc_v_get(cc_v_get(facts, "list"), "installations");
        fs = cc_v_get(before, "findings");
        shell = cc_v_get_str(cc_v_get(facts, "host"), "shell");
        if (shell == NULL ||
            (strcmp(shell, "fish") != 0 && strcmp(shell, "cmd") != 0 && strcmp(shell, "powershell") != 0))
                shell = "sh";
        doc = cc_doc_new("doctor-fix", m, err);
        fixes = cc_v_array(err);
        if (doc == NULL || fixes == NULL)
                goto fail;
        TRY(cc_v_set_bool(doc, "dry_run", o->dry_run, err));
        TRY(cc_v_set(doc, "fixes", fixes, err));
        /* the link chains: from the installations' problems */
        for (i = 0; i < cc_v_len(insts) && wanted(o, "linux-broken-symlinks"); i++) {
                cc_vw_installation in;

                cc_vw_installation_read(cc_v_at(insts, i), &in, NULL);
                for (j = 0; j < cc_v_len(in.problems); j++) {
                        cc_vw_problem p;
                        cc_value *fx;
                        const char *why;
                        int planned;

                        cc_vw_problem_at(in.problems, j, &p, NULL);
                        if (!is_link_problem(p.kind) || m->system != CC_SYS_LINUX)
                                continue;
                        TRY(plan_link_fix(&fp, in.files, &p, &planned, &why));
                        fx = cc_v_object(err);
                        TRY(cc_v_push(fixes, fx, err));
                        TRY(cc_v_set_str(fx, "finding", "linux-broken-symlinks", err));
                        TRY(cc_v_set_str(fx, "problem", p.kind, err));
                        TRY(cc_v_set_str(fx, "summary", p.summary, err));
                        TRY(cc_v_set_str(fx, "action", planned ? "change" : "none", err));
                        if (!planned)
                                TRY(cc_v_set_str(fx, "why", why, err));
                }
        }
        /* the other findings: a change of files, a command, or text */
        for (i = 0; i < cc_v_len(fs); i++) {
                const cc_value *f = cc_v_at(fs, i), *ev = cc_v_get(f, "evidence");
                const char *id = cc_v_get_str(f, "id"), *problem = cc_v_get_str(ev, "problem");
                cc_value *fx;
                int planned = 0;

                if (id == NULL || strcmp(id, "linux-broken-symlinks") == 0 || !wanted(o, id))
                        continue;
                fx = cc_v_object(err);
                TRY(cc_v_push(fixes, fx, err));
                TRY(cc_v_set_str(fx, "finding", id, err));
                TRY(cc_v_set_str(fx, "summary", cc_v_get_str(f, "summary"), err));
                if (is_mixed_finding(id) && problem != NULL && strcmp(problem, "mixed-versions") == 0) {
                        const cc_value *in = inst_by_id(insts, cc_v_as_int(cc_v_get(ev, "installation")));

                        if (in != NULL) {
                                TRY(cc_v_set_str(fx, "problem", problem, err));
                                TRY(plan_mixed(&fp, in, cc_fid_id(cc_fid_of(id)), fx, &planned));
                        }
                } else if (strcmp(id, "win-stale-dll-shadow") == 0) {
                        TRY(plan_stale(&fp, facts, f, fx, &planned));
                } else if (strcmp(id, "win-setx-truncation") == 0) {
                        TRY(plan_setx(&fp, f, fx, &planned));
                } else if (is_loader_cmd_finding(id)) {
                        TRY(plan_loader_cmd(m, facts, shell, id, f, fx, err));
                } else if (is_path_finding(id)) {
                        TRY(plan_path_cmd(m, facts, fs, o, shell, f, fx, wanted, err));
                }
                if (cc_v_get(fx, "action") == NULL) {
                        /* not a change of files here: the doctor's text */
                        TRY(cc_v_set_str(fx, "action", "text", err));
                        TRY(cc_v_set_str(fx, "fix", cc_v_get_str(f, "fix"), err));
                }
        }
        /* one transaction per directory and finding */
        arr = cc_v_array(err);
        TRY(cc_v_set(doc, "changes", arr, err));
        for (i = 0; i < fp.ndirs; i++) {
                char *host = cc_tree_host(m->tree, fp.dirs[i].dir, err);
                char *label = cc_asprintf(err, "fix %s", fp.dirs[i].fid);
                cc_value *ch = cc_v_object(err);
                const char *status;
                int reg;

                for (j = 0; j < fp.dirs[i].c.n && fp.dirs[i].c.ops[j].kind != CC_TXN_SETREG; j++)
                        ;
                reg = j < fp.dirs[i].c.n;
                if (host == NULL || label == NULL || cc_v_push(arr, ch, err) < 0 ||
                    (reg && !o->dry_run && cc_mkdir_p(host, NULL, err) < 0) ||
                    cc_v_set_str(ch, CC_K(change_doc, command), "fix", err) < 0 ||
                    cc_v_set_str(ch, CC_K(change_doc, of), fp.dirs[i].fid, err) < 0 ||
                    cc_v_set_str(ch, CC_K(change_doc, target), fp.dirs[i].dir, err) < 0 ||
                    cc_v_set_bool(ch, CC_K(change_doc, dry_run), o->dry_run, err) < 0 ||
                    ch_run(&fp.dirs[i].c, fp.dirs[i].dir, host, label, o->dry_run, m, ch, err) < 0) {
                        free(host);
                        free(label);
                        goto fail;
                }
                free(host);
                free(label);
                if (reg)
                        TRY(ch_after_done(m, ch, CH_AFTER_BROADCAST, err));
                status = cc_v_get_str(cc_v_get(ch, CC_K(change_doc, result)), "status");
                if (status != NULL && strcmp(status, "done") == 0) {
                        applied = 1;
                        if (!cc_strv_contains(&done, fp.dirs[i].fid))
                                TRY(cc_strv_push(&done, fp.dirs[i].fid, err));
                }
        }
        /* the doctor again: what is left of what was fixed */
        if (applied) {
                const cc_value *fa;
                cc_value *left = cc_v_array(err);

                TRY(cc_v_set(doc, "left", left, err));
                TRY(cudnnctl_doctor(m, &dopt, &after, err));
                fa = cc_v_get(after, "findings");
                for (i = 0; i < cc_v_len(fa); i++) {
                        const char *id = cc_v_get_str(cc_v_at(fa, i), "id");

                        if (id != NULL && cc_strv_contains(&done, id)) {
                                cc_value *l = cc_v_object(err);

                                TRY(cc_v_push(left, l, err));
                                TRY(cc_v_set_str(l, "finding", id, err));
                                TRY(cc_v_set_str(l, "summary", cc_v_get_str(cc_v_at(fa, i), "summary"), err));
                        }
                }
        } else {
                TRY(cc_v_set_null(doc, "left", err));
        }
        rc = 0;
fail:
        for (i = 0; i < fp.ndirs; i++) {
                free(fp.dirs[i].dir);
                ch_free(&fp.dirs[i].c);
        }
        free(fp.dirs);
        cc_source_free(&src);
        cc_strv_free(&done);
        cc_v_free(before);
        cc_v_free(after);
        if (rc == 0)
                *out = doc;
        else
                cc_v_free(doc);
        return rc;
}
