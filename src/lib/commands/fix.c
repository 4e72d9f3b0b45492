/* doctor --fix: the findings whose fix is a change of files, planned from
 * the doctor's own facts, shown (--dry-run stops there), and run as one
 * transaction per directory of the engine (txn/txn.h), then checked again;
 * rollback undoes each (docs/json.md "doctor --fix"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../doctor/registry.h"
#include "../facts/views.h"
#include "../machine/machine.h"
#include "../platform/platform.h"
#include "change.h"
#include "pick.h"

/* ---- doctor --fix ------------------------------------------------------------ */

/* The link chain of a library directory made whole again, from the
 * problems discovery found there (docs/json.md "doctor --fix"): a dangling
 * or looping link, or one to a non-file, pointed again at the library of
 * its name (libX.so.9 -> libX.so.9.19.0, libX.so -> libX.so.9); copies with
 * the same bytes where links belong (flattened) made links; a missing SONAME
 * link made. One plan per directory. */

struct fixdir {
        char *dir; /* the directory (virtual) */
        struct change c;
};

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

static struct fixdir *fixdir_of(struct fixdir **v, size_t *n, cc_machine *m, const char *dir, cc_error *err)
{
        struct fixdir *nv;
        size_t i;

        for (i = 0; i < *n; i++)
                if (cc_tree_path_eq(m->tree, (*v)[i].dir, dir))
                        return &(*v)[i];
        nv = cc_realloc(err, *v, (*n + 1) * sizeof(**v));
        if (nv == NULL)
                return NULL;
        *v = nv;
        memset(&nv[*n], 0, sizeof(nv[*n]));
        nv[*n].c.err = err;
        nv[*n].c.checks = cc_v_array(err);
        nv[*n].dir = cc_strdup(err, dir);
        if (nv[*n].dir == NULL || nv[*n].c.checks == NULL) {
                free(nv[*n].dir);
                cc_v_free(nv[*n].c.checks);
                return NULL;
        }
        return &nv[(*n)++];
}

/* Plan the fix of one problem; *planned: whether it gave operations, else
 * *why says why not. */
static int plan_link_fix(cc_machine *m, const cc_value *files, const cc_vw_problem *p, struct fixdir **dirs,
                         size_t *ndirs, int *planned, const char **why, cc_error *err)
{
        size_t i, k;

        *planned = 0;
        *why = NULL;
        for (i = 0; i < cc_v_len(p->paths); i++) {
                const char *path = cc_v_as_str(cc_v_at(p->paths, i)), *name, *to = NULL;
                char *dir;
                struct fixdir *fd;
                int kind = CC_TXN_REPLACE;

                if (path == NULL)
                        continue;
                name = cc_basename(path);
                dir = cc_tree_dirname(m->tree, path, err);
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
                        fd = fixdir_of(dirs, ndirs, m, dir, err);
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
                fd = fixdir_of(dirs, ndirs, m, dir, err);
                free(dir);
                if (fd == NULL || ch_add(&fd->c, kind, name, to, 0, 0, NULL) < 0)
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

int cudnnctl_doctor_fix(cudnnctl_machine *m, const cudnnctl_fix_options *o, cudnnctl_value **out, cudnnctl_error *err)
{
        cudnnctl_doctor_options dopt;
        cudnnctl_value *before = NULL, *after = NULL, *list = NULL;
        cc_value *doc = NULL, *fixes = NULL, *arr = NULL;
        struct fixdir *dirs = NULL;
        size_t ndirs = 0, i, j;
        int rc = -1, applied = 0;

        if (out == NULL || m == NULL || o == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_doctor_fix: no machine, options or place for the result");
        *out = NULL;
        for (i = 0; i < o->nids; i++)
                if (cc_fid_of(o->ids[i]) == CC_F_NONE)
                        return cc_err(err, CC_ERR_USAGE, "%s: not a finding id (README: 'Findings')", o->ids[i]);
        memset(&dopt, 0, sizeof(dopt));
        dopt.gpu = CUDNNCTL_GPU_OFF;
        dopt.no_compile = 1;
        dopt.no_frameworks = 1;
        dopt.timeout_ms = o->timeout_ms;
        TRY(cudnnctl_doctor(m, &dopt, &before, err));
        TRY(cc_pick_list_all(m, &list, err));
        doc = cc_doc_new("doctor-fix", m, err);
        fixes = cc_v_array(err);
        if (doc == NULL || fixes == NULL)
                goto fail;
        TRY(cc_v_set_bool(doc, "dry_run", o->dry_run, err));
        TRY(cc_v_set(doc, "fixes", fixes, err));
        /* the link chains: from the installations' problems */
        {
                const cc_value *insts = cc_v_get(list, "installations");

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
                                TRY(plan_link_fix(m, in.files, &p, &dirs, &ndirs, &planned, &why, err));
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
        }
        /* the other findings: what to do, as text */
        {
                const cc_value *fs = cc_v_get(before, "findings");

                for (i = 0; i < cc_v_len(fs); i++) {
                        const cc_value *f = cc_v_at(fs, i);
                        const char *id = cc_v_get_str(f, "id");
                        cc_value *fx;

                        if (id == NULL || strcmp(id, "linux-broken-symlinks") == 0 || !wanted(o, id))
                                continue;
                        fx = cc_v_object(err);
                        TRY(cc_v_push(fixes, fx, err));
                        TRY(cc_v_set_str(fx, "finding", id, err));
                        TRY(cc_v_set_str(fx, "summary", cc_v_get_str(f, "summary"), err));
                        TRY(cc_v_set_str(fx, "action", "text", err));
                        TRY(cc_v_set_str(fx, "fix", cc_v_get_str(f, "fix"), err));
                }
        }
        /* one transaction per directory */
        arr = cc_v_array(err);
        TRY(cc_v_set(doc, "changes", arr, err));
        for (i = 0; i < ndirs; i++) {
                char *host = cc_tree_host(m->tree, dirs[i].dir, err);
                cc_value *ch = cc_v_object(err);
                const char *status;

                if (host == NULL || cc_v_push(arr, ch, err) < 0 ||
                    cc_v_set_str(ch, CC_K(change_doc, command), "fix", err) < 0 ||
                    cc_v_set_str(ch, CC_K(change_doc, of), "linux-broken-symlinks", err) < 0 ||
                    cc_v_set_str(ch, CC_K(change_doc, target), dirs[i].dir, err) < 0 ||
                    cc_v_set_bool(ch, CC_K(change_doc, dry_run), o->dry_run, err) < 0 ||
                    ch_run(&dirs[i].c, dirs[i].dir, host, "fix linux-broken-symlinks", o->dry_run, m, ch, err) < 0) {
                        free(host);
                        goto fail;
                }
                free(host);
                status = cc_v_get_str(cc_v_get(ch, CC_K(change_doc, result)), "status");
                applied |= status != NULL && strcmp(status, "done") == 0;
        }
        /* the doctor again: what is left of what was fixed */
        if (applied) {
                const cc_value *fs;
                cc_value *left = cc_v_array(err);

                TRY(cc_v_set(doc, "left", left, err));
                TRY(cudnnctl_doctor(m, &dopt, &after, err));
                fs = cc_v_get(after, "findings");
                for (i = 0; i < cc_v_len(fs); i++) {
                        const char *id = cc_v_get_str(cc_v_at(fs, i), "id");

                        if (id != NULL && strcmp(id, "linux-broken-symlinks") == 0) {
                                cc_value *l = cc_v_object(err);

                                TRY(cc_v_push(left, l, err));
                                TRY(cc_v_set_str(l, "finding", id, err));
                                TRY(cc_v_set_str(l, "summary", cc_v_get_str(cc_v_at(fs, i), "summary"), err));
                        }
                }
        } else {
                TRY(cc_v_set_null(doc, "left", err));
        }
        rc = 0;
fail:
        for (i = 0; i < ndirs; i++) {
                free(dirs[i].dir);
                ch_free(&dirs[i].c);
        }
        free(dirs);
        cc_v_free(before);
        cc_v_free(after);
        cc_v_free(list);
        if (rc == 0)
                *out = doc;
        else
                cc_v_free(doc);
        return rc;
}
