/* What is wrong inside one installation: link chains that loop, dangle or
 * were flattened into copies, names that are not SONAMEs, libraries of
 * different versions in one directory, a major's sub-library set
 * incomplete. Each is a problem with its kind, failure mode and paths. */
#include "group.h"

#include "../facts/views.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COMPARE ((uint64_t)512 << 20)

int cc_disc_is_lib(const cc_dfile *f)
{
        return f->ln.kind == CC_FK_SHARED || f->ln.kind == CC_FK_DLL;
}

/* The version a library file carries: its content first, then its name. */
static int file_version(const cc_dfile *f, cudnnctl_ver *out)
{
        static const char *const order[] = {"exported-constant", "version-resource", "file-name"};
        size_t k, j;

        for (k = 0; k < CC_ARRAY_LEN(order); k++)
                for (j = 0; j < cc_v_len(f->versions); j++) {
                        cc_vw_version e;

                        cc_vw_version_at(f->versions, j, &e, NULL);
                        if (e.source == NULL || strcmp(e.source, order[k]) != 0 ||
                            cudnnctl_ver_parse(e.version, out) < 0 || out->n < 3)
                                continue;
                        if (k == 1 && f->ln.major >= 0 && out->part[0] != f->ln.major)
                                continue;
                        out->n = 3;
                        return 0;
                }
        return -1;
}

/* 1 if two files have the same bytes (compared up to MAX_COMPARE). */
static int same_content(const cc_discovery *d, const cc_dfile *a, const cc_dfile *b, cc_error *err)
{
        char *ha = cc_disc_file_host(d, a, err), *hb = ha ? cc_disc_file_host(d, b, err) : NULL;
        cc_map ma, mb;
        cc_error merr = {0};
        int same = 0;

        if (hb == NULL) {
                free(ha);
                return -1;
        }
        if (cc_map_file(ha, 0, &ma, &merr) == 0) {
                if (cc_map_file(hb, 0, &mb, &merr) == 0) {
                        size_t n = ma.size < MAX_COMPARE ? ma.size : (size_t)MAX_COMPARE;

                        same = ma.size == mb.size && (n == 0 || memcmp(ma.data, mb.data, n) == 0);
                        if (cc_map_changed(&ma) || cc_map_changed(&mb))
                                same = 0; /* changed while compared: not known to be the same */
                        cc_unmap(&mb);
                }
                cc_unmap(&ma);
        }
        free(ha);
        free(hb);
        if (merr.code == CC_ERR_NOMEM) {
                *err = merr;
                return -1;
        }
        return same;
}

int cc_disc_link_problems(cc_discovery *d, cc_dinst *in, cc_error *err)
{
        size_t i, j, k;
        char *flat = NULL;

        flat = cc_calloc(err, in->nfiles + 1, 1);
        if (flat == NULL)
                return -1;
        for (i = 0; i < in->nfiles; i++) {
                const cc_dfile *f = d->files[in->files[i]];
                cc_strv paths = {0};
                int rc = 0;

                if (f->type != CC_FT_LINK || strcmp(f->link_state, "ok") == 0)
                        continue;
                rc = cc_strv_push(&paths, f->canonical, err);
                if (rc == 0 && strcmp(f->link_state, "loop") == 0)
                        rc = cc_disc_problem(in, "symlink-loop", "linux-broken-symlinks", &paths, err,
                                             "%s -> %s: a symbolic link loop (the loader gives up on it)", f->canonical,
                                             f->target ? f->target : "?");
                else if (rc == 0)
                        rc = cc_disc_problem(
                            in, strcmp(f->link_state, "dangling") == 0 ? "dangling-symlink" : "symlink-not-a-file",
                            "linux-broken-symlinks", &paths, err, "%s -> %s: %s", f->canonical,
                            f->target ? f->target : "?",
                            strcmp(f->link_state, "dangling") == 0 ? "the target does not exist"
                                                                   : "the target is not a regular file");
                cc_strv_free(&paths);
                if (rc < 0)
                        goto fail;
        }
        /* flattened chains: regular files of one role and major in one
         * directory with the same bytes (copied without -P) */
        for (i = 0; i < in->nfiles; i++) {
                const cc_dfile *a = d->files[in->files[i]];
                cc_strv paths = {0};
                int rc = 0;

                if (flat[i] || a->type != CC_FT_FILE || a->ln.kind != CC_FK_SHARED)
                        continue;
                for (j = i + 1; j < in->nfiles && rc == 0; j++) {
                        const cc_dfile *b = d->files[in->files[j]];
                        int s;

                        /* the unversioned libcudnn.so has no major: it matches any */
                        if (flat[j] || b->type != CC_FT_FILE || b->ln.kind != CC_FK_SHARED || b->dir != a->dir ||
                            (b->ln.major != a->ln.major && a->ln.major >= 0 && b->ln.major >= 0) ||
                            strcmp(b->ln.role, a->ln.role) != 0 || b->size != a->size)
                                continue;
                        s = same_content(d, a, b, err);
                        if (s < 0)
                                rc = -1;
                        else if (s) {
                                if (paths.n == 0)
                                        rc = cc_strv_push(&paths, a->canonical, err);
                                if (rc == 0)
                                        rc = cc_strv_push(&paths, b->canonical, err);
                                flat[i] = flat[j] = 1;
                        }
                }
                if (rc == 0 && paths.n > 0) {
                        cc_buf names = {0};

                        for (k = 0; k < paths.n && rc == 0; k++)
                                rc = cc_buf_printf(&names, err, "%s%s", k ? ", " : "", cc_basename(paths.v[k]));
                        if (rc == 0)
                                rc = cc_disc_problem(
                                    in, "flattened-symlinks", "linux-broken-symlinks", &paths, err,
                                    "%s in %s are regular files with the same bytes where symbolic links "
                                    "belong (copied without cp -P?); ldconfig says \"is not a symbolic link\"",
                                    names.data, d->dirs[a->dir]->canonical);
                        cc_buf_free(&names);
                }
                cc_strv_free(&paths);
                if (rc < 0)
                        goto fail;
        }
        /* a regular file whose name is not its SONAME (nor SONAME.x.y) */
        for (i = 0; i < in->nfiles; i++) {
                const cc_dfile *f = d->files[in->files[i]];
                size_t sl;
                cc_strv paths = {0};
                int rc = 0;

                if (flat[i] || f->type != CC_FT_FILE || f->ln.kind != CC_FK_SHARED || f->soname == NULL)
                        continue;
                if (strcmp(f->name, f->soname) == 0)
                        continue;
                sl = strlen(f->soname);
                rc = cc_strv_push(&paths, f->canonical, err);
                if (rc == 0 && strncmp(f->name, f->soname, sl) == 0 && f->name[sl] == '.') {
                        /* the real file: the loader needs a SONAME link beside it */
                        if (cc_disc_has(d, f->dir, f->soname) == NULL)
                                rc = cc_disc_problem(
                                    in, "missing-soname-link", "linux-broken-symlinks", &paths, err,
                                    "%s has SONAME %s but there is no %s beside it (run ldconfig, or make "
                                    "the link)",
                                    f->canonical, f->soname, f->soname);
                } else if (rc == 0) {
                        rc = cc_disc_problem(
                            in, "not-soname", f->ln.dev_link ? "linux-broken-symlinks" : "renamed-dll", &paths, err,
                            f->ln.dev_link
                                ? "%s is a regular file, not a link to %s (a flattened chain: copied without "
                                  "cp -P?)"
                                : "%s is a regular file whose name is not its SONAME %s (renamed or copied "
                                  "over a link?)",
                            f->canonical, f->soname);
                }
                cc_strv_free(&paths);
                if (rc < 0)
                        goto fail;
        }
        free(flat);
        return 0;
fail:
        free(flat);
        return -1;
}

/* Different versions of cuDNN libraries side by side in one directory. */
int cc_disc_mixed_sets(cc_discovery *d, cc_dinst *in, cc_value *sets, cc_error *err)
{
        size_t di, i, k;

        for (di = 0; di < in->dirs.n; di++) {
                cc_strv vers = {0};
                int rc = 0;

                for (i = 0; i < in->nfiles && rc == 0; i++) {
                        const cc_dfile *f = d->files[in->files[i]];
                        cudnnctl_ver v;
                        char vb[64];

                        if (f->type != CC_FT_FILE || !cc_disc_is_lib(f) ||
                            strcmp(d->dirs[f->dir]->canonical, in->dirs.v[di]) != 0 || file_version(f, &v) < 0)
                                continue;
                        cudnnctl_ver_str(&v, vb, sizeof(vb));
                        if (!cc_strv_contains(&vers, vb))
                                rc = cc_strv_push(&vers, vb, err);
                }
                if (rc == 0 && vers.n > 1) {
                        cc_buf sum = {0};
                        cc_strv all = {0};

                        for (k = 0; k < vers.n && rc == 0; k++) {
                                cc_value *s = cc_v_object(err), *files;

                                rc = cc_v_push(sets, s, err);
                                files = rc == 0 ? cc_v_array(err) : NULL;
                                if (rc == 0 && (cc_v_set_str(s, "directory", in->dirs.v[di], err) < 0 ||
                                                cc_v_set_str(s, "version", vers.v[k], err) < 0 ||
                                                cc_v_set(s, "files", files, err) < 0))
                                        rc = -1;
                                if (rc == 0)
                                        rc = cc_buf_printf(&sum, err, "%s%s (", k ? ", " : "", vers.v[k]);
                                for (i = 0; i < in->nfiles && rc == 0; i++) {
                                        const cc_dfile *f = d->files[in->files[i]];
                                        cudnnctl_ver v;
                                        char vb[64];

                                        if (f->type != CC_FT_FILE || !cc_disc_is_lib(f) ||
                                            strcmp(d->dirs[f->dir]->canonical, in->dirs.v[di]) != 0 ||
                                            file_version(f, &v) < 0)
                                                continue;
                                        cudnnctl_ver_str(&v, vb, sizeof(vb));
                                        if (strcmp(vb, vers.v[k]) != 0)
                                                continue;
                                        if (cc_v_push(files, cc_v_str(f->name, err), err) < 0 ||
                                            cc_buf_printf(&sum, err, "%s%s", cc_v_len(files) > 1 ? ", " : "", f->name) <
                                                0 ||
                                            cc_strv_push(&all, f->canonical, err) < 0)
                                                rc = -1;
                                }
                                if (rc == 0)
                                        rc = cc_buf_putc(&sum, ')', err);
                        }
                        if (rc == 0)
                                rc = cc_disc_problem(
                                    in, "mixed-versions",
                                    d->system == CC_SYS_WINDOWS ? "win-sublib-127" : "v9-sublibrary-version-mismatch",
                                    &all, err,
                                    "%s holds cuDNN libraries of %zu versions side by side: %s; a program "
                                    "loads a mix of them",
                                    in->dirs.v[di], vers.n, sum.data);
                        cc_buf_free(&sum);
                        cc_strv_free(&all);
                }
                cc_strv_free(&vers);
                if (rc < 0)
                        return -1;
        }
        return 0;
}

/* The members each major ships (kb/members.tsv), to name what is missing. */
static const char *const set8[] = {"cudnn",           "cudnn_ops_infer", "cudnn_ops_train", "cudnn_cnn_infer",
                                   "cudnn_cnn_train", "cudnn_adv_infer", "cudnn_adv_train", NULL};
static const char *const set9[] = {"cudnn",
                                   "cudnn_graph",
                                   "cudnn_ops",
                                   "cudnn_cnn",
                                   "cudnn_adv",
                                   "cudnn_engines_precompiled",
                                   "cudnn_engines_runtime_compiled",
                                   "cudnn_heuristic",
                                   NULL};

int cc_disc_completeness(cc_discovery *d, cc_dinst *in, cc_error *err)
{
        int major;

        for (major = 8; major <= 9; major++) {
                const char *const *set = major == 8 ? set8 : set9;
                cc_strv missing = {0};
                size_t i, k, have = 0;
                int rc = 0;

                for (i = 0; i < in->nfiles; i++) {
                        const cc_dfile *f = d->files[in->files[i]];

                        have += cc_disc_is_lib(f) && f->ln.major == major && f->ln.known_role;
                }
                if (have == 0)
                        continue;
                for (k = 0; set[k] && rc == 0; k++) {
                        int found = 0;

                        for (i = 0; i < in->nfiles && !found; i++) {
                                const cc_dfile *f = d->files[in->files[i]];

                                found = cc_disc_is_lib(f) && f->ln.major == major && strcmp(f->ln.role, set[k]) == 0 &&
                                        (f->type == CC_FT_FILE || f->resolves_to != NULL);
                        }
                        if (!found)
                                rc = cc_strv_push(&missing, set[k], err);
                }
                if (rc == 0 && missing.n > 0) {
                        cc_buf b = {0};

                        for (k = 0; k < missing.n && rc == 0; k++)
                                rc = cc_buf_printf(&b, err, "%s%s", k ? ", " : "", missing.v[k]);
                        if (rc == 0)
                                rc = cc_disc_problem(in, "incomplete-set",
                                                     d->system == CC_SYS_WINDOWS
                                                         ? "win-sublib-126"
                                                         : (major == 9 ? "v9-sublib-unloadable" : NULL),
                                                     NULL, err, "cuDNN %d libraries without %s", major, b.data);
                        cc_buf_free(&b);
                }
                cc_strv_free(&missing);
                if (rc < 0)
                        return -1;
        }
        return 0;
}

/* ---- recording a problem ---- */

int cc_disc_problem(cc_dinst *in, const char *kind, const char *failure_mode, const cc_strv *paths, cc_error *err,
                    const char *fmt, ...)
{
        va_list ap;
        char *s;
        cc_value *p = cc_v_object(err);

        if (cc_v_push(in->problems, p, err) < 0)
                return -1;
        va_start(ap, fmt);
        s = cc_vasprintf(err, fmt, ap);
        va_end(ap);
        if (s == NULL)
                return -1;
        if (cc_v_set_str(p, "kind", kind, err) < 0 ||
            cc_v_set(p, "failure_mode", cc_v_str(failure_mode, err), err) < 0 ||
            cc_v_set_str(p, "summary", s, err) < 0) {
                free(s);
                return -1;
        }
        free(s);
        {
                static const cc_strv none = {0};

                return cc_v_set(p, "paths", cc_v_strv(paths ? paths : &none, err), err);
        }
}
