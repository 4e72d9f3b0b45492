/* The writing commands other than install: uninstall, rollback, recover
 * and history (docs/json.md "uninstall, rollback"). Each plans its
 * operations whole, shows them (--dry-run stops there), and runs them as
 * one transaction of the engine (txn/txn.h), like install.
 *
 *   uninstall  removes exactly what an install's manifest lists, puts back
 *              what it replaced (from that install's backup), keeps a file
 *              changed since (unless --force), and removes the directories
 *              the install made once they are empty;
 *   rollback   undoes the last committed install or uninstall of a target:
 *              each of its operations inverted, in reverse, from its
 *              backups;
 *   recover    finishes undoing an interrupted transaction;
 *   history    lists the transactions of a target.
 *
 * The machine's state directory keeps one line per committed transaction
 * (state.c), so that rollback, recover and history without a target act on
 * the last one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../doctor/registry.h"
#include "../facts/views.h"
#include "../formats/json.h"
#include "../install/plan.h"
#include "../install/target.h"
#include "../machine/machine.h"
#include "../platform/platform.h"
#include "../render/shell.h"
#include "../txn/txn.h"
#include "change.h"
#include "pick.h"

static char *run_ldconfig(cc_machine *m, cc_error *err);

/* ---- a planned change ----------------------------------------------------- */

struct change {
        cc_txn_op *ops;
        char **from; /* per operation: the file (a backup) it is staged from, or NULL */
        size_t n, cap;
        cc_value *checks;
        int stop;
        cc_error *err;
};

/* A check of this change (install/plan.h). */
#define ch_check(c, id, verdict, ...) cc_plan_check((c)->checks, &(c)->stop, (c)->err, id, verdict, __VA_ARGS__)

static int ch_add(struct change *c, int kind, const char *path, const char *link, unsigned mode, uint64_t size,
                  const char *from)
{
        cc_txn_op *o;

        if (c->n == c->cap) {
                size_t ncap = c->cap ? c->cap * 2 : 32;
                cc_txn_op *ops = cc_realloc(c->err, c->ops, ncap * sizeof(*ops));
                char **fr;

                if (ops == NULL)
                        return -1;
                c->ops = ops;
                fr = cc_realloc(c->err, c->from, ncap * sizeof(*fr));
                if (fr == NULL)
                        return -1;
                c->from = fr;
                c->cap = ncap;
        }
        o = &c->ops[c->n];
        memset(o, 0, sizeof(*o));
        o->kind = kind;
        o->mode = mode;
        o->size = size;
        c->from[c->n] = NULL;
        o->path = cc_strdup(c->err, path);
        if (o->path == NULL)
                return -1;
        if ((link != NULL && (o->link = cc_strdup(c->err, link)) == NULL) ||
            (from != NULL && (c->from[c->n] = cc_strdup(c->err, from)) == NULL)) {
                free(o->path);
                free(o->link);
                return -1;
        }
        c->n++;
        return 0;
}

static void ch_free(struct change *c)
{
        size_t i;

        for (i = 0; i < c->n; i++) {
                free(c->ops[i].path);
                free(c->ops[i].link);
                free(c->from[i]);
        }
        free(c->ops);
        free(c->from);
        cc_v_free(c->checks);
}

/* A PLACE or REPLACE of path from the backup file or link at from. */
static int ch_restore(struct change *c, int kind, const char *path, const char *from)
{
        cc_stat st;
        cc_error e2 = {0};

        TRY_RET(cc_lstat_path(from, &st, c->err));
        if (st.type == CC_FT_LINK) {
                char *to = cc_readlink(from, &e2);
                int rc;

                if (to == NULL)
                        return ch_check(c, "backup", "stop", "%s: %s", from, e2.msg);
                rc = ch_add(c, kind, path, to, 0, 0, NULL);
                free(to);
                return rc;
        }
        if (st.type != CC_FT_FILE)
                return ch_check(c, "backup", "stop",
                                "%s: the backup of %s is gone (kept backups: the last three transactions)", from, path);
        return ch_add(c, kind, path, NULL, st.mode < 0 ? 0644 : (unsigned)st.mode, st.size, from);
}

/* ---- the document --------------------------------------------------------- */

static cc_value *ops_doc(const struct change *c, cc_error *err)
{
        cc_value *arr = cc_v_array(err);
        size_t i;

        if (arr == NULL)
                return NULL;
        for (i = 0; i < c->n; i++) {
                const cc_txn_op *o = &c->ops[i];
                cc_value *v = cc_v_object(err);
                char mode[8];

                if (v == NULL || cc_v_push(arr, v, err) < 0)
                        goto fail;
                snprintf(mode, sizeof(mode), "%04o", o->mode & 07777);
                if (cc_v_set_str(v, CC_K(plan_op, op), cc_txn_kind_name(o->kind), err) < 0 ||
                    cc_v_set_str(v, CC_K(plan_op, path), o->path, err) < 0 ||
                    (o->link && cc_v_set_str(v, CC_K(plan_op, link), o->link, err) < 0) ||
                    (c->from[i] && !o->link && cc_v_set_int(v, CC_K(plan_op, size), (int64_t)o->size, err) < 0) ||
                    (c->from[i] && !o->link && cc_v_set_str(v, CC_K(plan_op, mode), mode, err) < 0) ||
                    (c->from[i] && cc_v_set_str(v, CC_K(plan_op, from), c->from[i], err) < 0))
                        goto fail;
        }
        return arr;
fail:
        cc_v_free(arr);
        return NULL;
}

static cc_value *summary_doc(const struct change *c, cc_error *err)
{
        cc_value *s = cc_v_object(err);
        size_t i, k[CC_TXN_RMDIR + 1] = {0};
        uint64_t bytes = 0;

        if (s == NULL)
                return NULL;
        for (i = 0; i < c->n; i++) {
                k[c->ops[i].kind]++;
                if (c->from[i] != NULL && c->ops[i].link == NULL)
                        bytes += c->ops[i].size;
        }
        if (cc_v_set_int(s, CC_K(plan_summary, mkdir), (int64_t)k[CC_TXN_MKDIR], err) < 0 ||
            cc_v_set_int(s, CC_K(plan_summary, place), (int64_t)k[CC_TXN_PLACE], err) < 0 ||
            cc_v_set_int(s, CC_K(plan_summary, replace), (int64_t)k[CC_TXN_REPLACE], err) < 0 ||
            cc_v_set_int(s, CC_K(plan_summary, remove), (int64_t)(k[CC_TXN_REMOVE] + k[CC_TXN_RMDIR]), err) < 0 ||
            cc_v_set_int(s, CC_K(plan_summary, bytes), (int64_t)bytes, err) < 0 ||
            cc_v_set(s, CC_K(plan_summary, other_majors), cc_v_array(err), err) < 0 ||
            cc_v_set_bool(s, CC_K(plan_summary, stop), c->stop, err) < 0) {
                cc_v_free(s);
                return NULL;
        }
        return s;
}

static int set_result(cc_value *doc, const char *status, const char *txn, const char *error, int undo_failed,
                      cc_error *err)
{
        return cc_v_set(doc, CC_K(change_doc, result), cc_result_new(status, txn, error, undo_failed, NULL, NULL, err),
                        err);
}
/* Show the change in doc, and unless a dry run or a stop, run it as one
 * transaction labelled label on the target host. */
static int ch_run(struct change *c, const char *vtarget, const char *host, const char *label, int dry_run,
                  cc_machine *m, cc_value *doc, cc_error *err)
{
        cc_value *rec = NULL;
        cc_txn *t = NULL;
        size_t i;
        int undo_failed = 0;

        {
                cc_strv lines = {0};

                if (!c->stop && cc_in_use(m, host, c->ops, c->n, &lines, err) < 0)
                        return -1;
                for (i = 0; i < lines.n; i++)
                        if (ch_check(c, "in-use",
                                     strstr(lines.v[i], "could not be read") || m->system != CC_SYS_WINDOWS ? "warn"
                                                                                                            : "stop",
                                     "%s", lines.v[i]) < 0) {
                                cc_strv_free(&lines);
                                return -1;
                        }
                cc_strv_free(&lines);
        }
        TRY_RET(cc_v_set(doc, CC_K(change_doc, operations), ops_doc(c, err), err));
        TRY_RET(cc_v_set(doc, CC_K(change_doc, summary), summary_doc(c, err), err));
        {
                cc_value *ch = c->checks;

                c->checks = NULL;
                TRY_RET(cc_v_set(doc, CC_K(change_doc, checks), ch, err));
        }
        if (dry_run || c->stop)
                return set_result(doc, c->stop ? "stopped" : "planned", NULL, NULL, 0, err);
        if (c->n == 0)
                return set_result(doc, "nothing-to-do", NULL, NULL, 0, err);
        TRY_RET(cc_txn_begin(host, c->ops, c->n, label, &rec, &t, err));
        {
                cc_value *have = cc_v_getm(doc, CC_K(change_doc, recovered));
                int r2 =
                    have != NULL ? cc_v_concat(have, rec, err) : cc_v_set(doc, CC_K(change_doc, recovered), rec, err);

                if (r2 < 0) { /* rec was freed by either */
                        cc_txn_abort(t);
                        return -1;
                }
        }
        for (i = 0; i < c->n; i++) {
                if (c->from[i] == NULL || c->ops[i].link != NULL)
                        continue;
                if (cc_txn_stage_copy(t, i, c->from[i], err) < 0) {
                        char msg[sizeof(err->msg)];

                        snprintf(msg, sizeof(msg), "%s", err->msg);
                        cc_err_clear(err);
                        cc_txn_abort(t);
                        return set_result(doc, "failed", NULL, msg, 0, err);
                }
        }
        if (cc_txn_apply_commit(t, &undo_failed, err) < 0) {
                char msg[sizeof(err->msg)];
                int rc;

                snprintf(msg, sizeof(msg), "%s", err->msg);
                cc_err_clear(err);
                rc = set_result(doc, "failed", cc_txn_id(t), msg, undo_failed, err);
                cc_txn_free(t);
                return rc;
        }
        {
                cc_error ignored = {0};

                (void)cc_state_record(m, vtarget, cc_txn_id(t), label, &ignored);
                (void)cc_txn_prune(host, CC_KEEP_BACKUPS, &ignored);
        }
        i = (size_t)set_result(doc, "done", cc_txn_id(t), NULL, 0, err);
        cc_txn_free(t);
        return (int)i;
}

/* ---- targets -------------------------------------------------------------- */

/* The target: dir (virtual, made absolute and canonical), or the last one
 * the machine recorded. *vt and *host: caller frees. */
static int resolve_target(cc_machine *m, const char *dir, char **vt, char **host, cc_error *err)
{
        char *abs;

        *vt = *host = NULL;
        if (dir == NULL) {
                abs = cc_state_last_target(m, err);
        } else {
                abs = cc_machine_abs(m, dir, err);
        }
        if (abs == NULL)
                return -1;
        *vt = cc_tree_canonical(m->tree, abs, err);
        free(abs);
        if (*vt == NULL)
                return -1;
        *host = cc_tree_host(m->tree, *vt, err);
        if (*host == NULL) {
                free(*vt);
                *vt = NULL;
                return -1;
        }
        return 0;
}

static cc_value *new_doc(cc_machine *m, const char *command, const char *vtarget, int dry_run, cc_error *err)
{
        cc_value *doc = cc_doc_new(command, m, err);

        if (doc == NULL)
                return NULL;
        if (cc_v_set_str(doc, CC_K(change_doc, target), vtarget, err) < 0 ||
            cc_v_set_bool(doc, CC_K(change_doc, dry_run), dry_run, err) < 0) {
                cc_v_free(doc);
                return NULL;
        }
        return doc;
}

static const cc_txn_info *find_txn(const cc_txn_info *v, size_t n, const char *id)
{
        size_t i;

        for (i = 0; i < n; i++)
                if (strcmp(v[i].id, id) == 0)
                        return &v[i];
        return NULL;
}

/* ---- uninstall ------------------------------------------------------------ */

/* The manifest an uninstall acts on: INSTALL is the manifest file itself,
 * or a target directory holding exactly one. */
static int pick_manifest(cc_machine *m, const char *install, char **vtarget, char **host, char **id, cc_error *err)
{
        char *abs = cc_machine_abs(m, install, err), *canon = NULL, *h = NULL;
        cc_stat st;
        int rc = -1;

        *vtarget = *host = *id = NULL;
        if (abs == NULL)
                return -1;
        canon = cc_tree_canonical(m->tree, abs, err);
        if (canon == NULL)
                goto out;
        h = cc_tree_host(m->tree, canon, err);
        if (h == NULL)
                goto out;
        TRY(cc_lstat_path(h, &st, err));
        if (st.type == CC_FT_FILE && cc_ends_with(canon, ".json")) {
                /* TARGET/.cudnnctl/installed/ID.json */
                char *d1 = cc_tree_dirname(m->tree, canon, err), *d2 = d1 ? cc_tree_dirname(m->tree, d1, err) : NULL;
                char *d3 = d2 ? cc_tree_dirname(m->tree, d2, err) : NULL;
                const char *base = cc_basename(canon);

                if (d3 != NULL && strcmp(cc_basename(d1), CC_TXN_MANIFESTS) == 0 &&
                    strcmp(cc_basename(d2), CC_TXN_STATE) == 0) {
                        *vtarget = d3;
                        d3 = NULL;
                        *id = cc_strndup(err, base, strlen(base) - 5);
                }
                free(d1);
                free(d2);
                free(d3);
                if (*vtarget == NULL) {
                        if (err->code == 0)
                                cc_err(err, CC_ERR_USAGE,
                                       "%s: not a manifest of cudnnctl (TARGET/.cudnnctl/installed/ID.json)", canon);
                        goto out;
                }
                if (*id == NULL)
                        goto out;
        } else if (st.type == CC_FT_DIR) {
                char *dir = cc_asprintf(err, "%s/%s/%s", h, CC_TXN_STATE, CC_TXN_MANIFESTS);
                cc_strv names = {0}, ids = {0};
                cc_error e2 = {0};
                size_t i;

                if (dir == NULL)
                        goto out;
                if (cc_list_dir(dir, 0, &names, &e2) < 0) {
                        free(dir);
                        cc_err(err, CC_ERR_NOTFOUND, "%s: nothing installed here by cudnnctl (no %s/%s)", canon,
                               CC_TXN_STATE, CC_TXN_MANIFESTS);
                        goto out;
                }
                free(dir);
                for (i = 0; i < names.n; i++)
                        if (cc_ends_with(names.v[i], ".json") &&
                            cc_strv_take(&ids, cc_strndup(err, names.v[i], strlen(names.v[i]) - 5), err) < 0) {
                                cc_strv_free(&names);
                                cc_strv_free(&ids);
                                goto out;
                        }
                cc_strv_free(&names);
                if (ids.n != 1) {
                        cc_buf b = {0};

                        for (i = 0; i < ids.n; i++)
                                if (cc_buf_printf(&b, err, "%s%s", i ? ", " : "", ids.v[i]) < 0)
                                        break; /* out of memory: the list is cut */
                        if (ids.n == 0)
                                cc_err(err, CC_ERR_NOTFOUND, "%s: nothing installed here by cudnnctl", canon);
                        else
                                cc_err(err, CC_ERR_USAGE, "%s holds %zu installs (%s): name one as %s/%s/%s/ID.json",
                                       canon, ids.n, b.data ? b.data : "", canon, CC_TXN_STATE, CC_TXN_MANIFESTS);
                        cc_buf_free(&b);
                        cc_strv_free(&ids);
                        goto out;
                }
                *id = ids.v[0];
                ids.v[0] = NULL;
                cc_strv_free(&ids);
                *vtarget = canon;
                canon = NULL;
        } else {
                cc_err(err, CC_ERR_NOTFOUND, "%s: no such directory or manifest", canon);
                goto out;
        }
        *host = cc_tree_host(m->tree, *vtarget, err);
        if (*host == NULL)
                goto out;
        rc = 0;
fail:
out:
        if (rc < 0) {
                free(*vtarget);
                free(*id);
                *vtarget = *id = NULL;
        }
        free(abs);
        free(canon);
        free(h);
        return rc;
}

static const cc_tgt_entry *scan_find(const cc_target_scan *sc, const char *path)
{
        size_t i;

        for (i = 0; i < sc->n; i++)
                if (strcmp(sc->e[i].path, path) == 0)
                        return &sc->e[i];
        return NULL;
}

/* Whether every entry of directory rel (host dir) is removed by c. */
static int empties(const struct change *c, const char *host, const char *rel)
{
        char *d = cc_asprintf(NULL, "%s/%s", host, rel);
        cc_strv names = {0};
        cc_error e2 = {0};
        size_t i, k;
        int all = 1;

        if (d == NULL || cc_list_dir(d, 0, &names, &e2) < 0) {
                free(d);
                return 0;
        }
        for (i = 0; i < names.n && all; i++) {
                int gone = 0;
                size_t rl = strlen(rel);

                for (k = 0; k < c->n && !gone; k++)
                        gone = (c->ops[k].kind == CC_TXN_REMOVE || c->ops[k].kind == CC_TXN_RMDIR) &&
                               strncmp(c->ops[k].path, rel, rl) == 0 && c->ops[k].path[rl] == '/' &&
                               strcmp(c->ops[k].path + rl + 1, names.v[i]) == 0;
                all = gone;
        }
        cc_strv_free(&names);
        free(d);
        return all;
}

int cudnnctl_uninstall(cudnnctl_machine *m, const cudnnctl_uninstall_options *o, cudnnctl_value **out,
                       cudnnctl_error *err)
{
        char *vt = NULL, *host = NULL, *id = NULL, *mrel = NULL, label[160];
        cc_target_scan sc;
        cc_txn_info *txns = NULL;
        size_t ntx = 0, i, k;
        cc_value *doc = NULL;
        const cc_value *man;
        cc_vw_manifest mv;
        const cc_txn_info *itx;
        struct change c;
        int rc = -1;

        memset(&sc, 0, sizeof(sc));
        memset(&c, 0, sizeof(c));
        c.err = err;
        if (out == NULL || m == NULL || o == NULL || o->install == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_uninstall: no machine, install or place for the result");
        *out = NULL;
        TRY(pick_manifest(m, o->install, &vt, &host, &id, err));
        doc = new_doc(m, "uninstall", vt, o->dry_run, err);
        c.checks = cc_v_array(err);
        if (doc == NULL || c.checks == NULL)
                goto fail;
        TRY(cc_v_set_str(doc, CC_K(change_doc, of), id, err));
        if (!o->dry_run) {
                cc_value *rec = NULL;

                /* the target as it was before an interrupted transaction */
                TRY(cc_txn_recover(host, &rec, err));
                TRY(cc_v_set(doc, CC_K(change_doc, recovered), rec, err));
        }
        TRY(cc_target_scan_dir(host, m->system, &sc, err));
        man = cc_target_manifest(&sc, id);
        if (man == NULL) {
                cc_err(err, CC_ERR_FORMAT, "%s/%s/%s/%s.json: cannot be read as a manifest%s%s", vt, CC_TXN_STATE,
                       CC_TXN_MANIFESTS, id, sc.notes.n ? ": " : "", sc.notes.n ? sc.notes.v[0] : "");
                goto fail;
        }
        cc_vw_manifest_read(man, &mv, NULL);
        TRY(cc_txn_list(host, &txns, &ntx, NULL, err));
        itx = mv.transaction ? find_txn(txns, ntx, mv.transaction) : NULL;
        for (i = 0; i < cc_v_len(mv.files); i++) {
                cc_vw_manifest_file f;
                const cc_tgt_entry *e;
                char *bk = NULL;

                cc_vw_manifest_file_at(mv.files, i, &f, NULL);
                if (f.path == NULL || !cc_txn_path_ok(f.path)) {
                        TRY(ch_check(&c, "manifest", "stop", "%s: an unsafe path in the manifest",
                                     f.path ? f.path : "(none)"));
                        continue;
                }
                e = scan_find(&sc, f.path);
                if (e == NULL || (e->type != CC_FT_FILE && e->type != CC_FT_LINK)) {
                        TRY(ch_check(&c, "files", "warn", "%s/%s: already gone", vt, f.path));
                        continue;
                }
                if (e->changed && !o->force) {
                        TRY(ch_check(&c, "files", "warn",
                                     "%s/%s: changed since it was installed: kept (--force removes it)", vt, f.path));
                        continue;
                }
                if (f.replaced && itx != NULL)
                        for (k = 0; k < itx->n && bk == NULL; k++)
                                if (itx->ops[k].kind == CC_TXN_REPLACE && strcmp(itx->ops[k].path, f.path) == 0) {
                                        bk = cc_txn_backup(host, itx->id, k, err);
                                        if (bk == NULL)
                                                goto fail;
                                }
                if (bk != NULL) {
                        cc_stat bs;

                        if (cc_lstat_path(bk, &bs, err) < 0) {
                                free(bk);
                                goto fail;
                        }
                        if (bs.type == CC_FT_FILE || bs.type == CC_FT_LINK) {
                                int r2 = ch_restore(&c, CC_TXN_REPLACE, f.path, bk);

                                free(bk);
                                TRY(r2);
                                continue;
                        }
                        free(bk);
                }
                if (f.replaced)
                        TRY(ch_check(&c, "backup", "warn", "%s/%s: the file it replaced is no longer kept; removed", vt,
                                     f.path));
                TRY(ch_add(&c, CC_TXN_REMOVE, f.path, NULL, e->mode, e->size, NULL));
        }
        mrel = cc_asprintf(err, "%s/%s/%s.json", CC_TXN_STATE, CC_TXN_MANIFESTS, id);
        if (mrel == NULL)
                goto fail;
        TRY(ch_add(&c, CC_TXN_REMOVE, mrel, NULL, 0644, 0, NULL));
        /* the directories the install made, deepest first, once empty */
        for (k = itx ? itx->n : 0; k-- > 0;) {
                const char *p = itx->ops[k].path;
                cc_stat ds;
                char *full;

                if (itx->ops[k].kind != CC_TXN_MKDIR)
                        continue;
                full = cc_asprintf(err, "%s/%s", host, p);
                if (full == NULL)
                        goto fail;
                if (cc_lstat_path(full, &ds, err) < 0) {
                        free(full);
                        goto fail;
                }
                free(full);
                if (ds.type == CC_FT_DIR && empties(&c, host, p))
                        TRY(ch_add(&c, CC_TXN_RMDIR, p, NULL, itx->ops[k].mode, 0, NULL));
        }
        /* What the install removed (the files of the release it replaced
         * that the new one has no counterpart for, and that release's
         * manifest) is put back from its backup where the place is free. */
        for (k = 0; itx != NULL && k < itx->n; k++) {
                const cc_txn_op *op = &itx->ops[k];
                char *bk;
                cc_stat bs;

                if (op->kind != CC_TXN_REMOVE || scan_find(&sc, op->path) != NULL)
                        continue;
                bk = cc_txn_backup(host, itx->id, k, err);
                if (bk == NULL || cc_lstat_path(bk, &bs, err) < 0) {
                        free(bk);
                        goto fail;
                }
                if (bs.type == CC_FT_FILE || bs.type == CC_FT_LINK) {
                        int r2 = ch_restore(&c, CC_TXN_PLACE, op->path, bk);

                        free(bk);
                        TRY(r2);
                } else {
                        free(bk);
                        TRY(ch_check(&c, "backup", "warn",
                                     "%s/%s: removed by the install, and its backup is no longer kept", vt, op->path));
                }
        }
        if (c.n == 1)
                TRY(ch_check(&c, "files", "warn", "no file of %s is left to remove", id));
        snprintf(label, sizeof(label), "uninstall %s", id);
        TRY(ch_run(&c, vt, host, label, o->dry_run, m, doc, err));
        rc = 0;
fail:
        ch_free(&c);
        cc_txn_info_free(txns, ntx);
        cc_target_scan_free(&sc);
        free(vt);
        free(host);
        free(id);
        free(mrel);
        if (rc == 0)
                *out = doc;
        else
                cc_v_free(doc);
        return rc;
}

/* ---- rollback ------------------------------------------------------------- */

/* Whether transaction id was rolled back (a later "rollback ID"). */
static int rolled_back(const cc_txn_info *v, size_t n, const char *id)
{
        size_t i;

        for (i = 0; i < n; i++)
                if (v[i].committed && v[i].label != NULL && cc_starts_with(v[i].label, "rollback ") &&
                    strcmp(v[i].label + 9, id) == 0)
                        return 1;
        return 0;
}

int cudnnctl_rollback(cudnnctl_machine *m, const cudnnctl_rollback_options *o, cudnnctl_value **out,
                      cudnnctl_error *err)
{
        char *vt = NULL, *host = NULL, label[160];
        cc_txn_info *v = NULL;
        const cc_txn_info *last = NULL;
        size_t n = 0, i;
        cc_value *doc = NULL;
        struct change c;
        int rc = -1;

        memset(&c, 0, sizeof(c));
        c.err = err;
        if (out == NULL || m == NULL || o == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_rollback: no machine, options or place for the result");
        *out = NULL;
        TRY(resolve_target(m, o->target, &vt, &host, err));
        doc = new_doc(m, "rollback", vt, o->dry_run, err);
        c.checks = cc_v_array(err);
        if (doc == NULL || c.checks == NULL)
                goto fail;
        {
                cc_value *rec = NULL;

                /* an interrupted transaction is finished first: it is not
                 * the last committed one */
                if (!o->dry_run) {
                        TRY(cc_txn_recover(host, &rec, err));
                        TRY(cc_v_set(doc, CC_K(change_doc, recovered), rec, err));
                }
        }
        TRY(cc_txn_list(host, &v, &n, NULL, err));
        for (i = n; i-- > 0 && last == NULL;)
                if (v[i].committed && v[i].label != NULL &&
                    (cc_starts_with(v[i].label, "install") || cc_starts_with(v[i].label, "uninstall") ||
                     cc_starts_with(v[i].label, "use") || cc_starts_with(v[i].label, "fix ")) &&
                    !rolled_back(v, n, v[i].id))
                        last = &v[i];
        if (last == NULL) {
                cc_err(err, CC_ERR_NOTFOUND, "%s: no install, uninstall, use or fix to roll back", vt);
                goto fail;
        }
        TRY(cc_v_set_str(doc, CC_K(change_doc, of), last->id, err));
        for (i = last->n; i-- > 0;) {
                const cc_txn_op *op = &last->ops[i];
                char *bk = NULL;
                int r2 = 0;

                switch (op->kind) {
                case CC_TXN_MKDIR:
                        if (empties(&c, host, op->path))
                                r2 = ch_add(&c, CC_TXN_RMDIR, op->path, NULL, op->mode, 0, NULL);
                        else
                                r2 = ch_check(&c, "files", "warn",
                                              "%s/%s: holds files the transaction did not put there: kept", vt,
                                              op->path);
                        break;
                case CC_TXN_PLACE:
                        r2 = ch_add(&c, CC_TXN_REMOVE, op->path, NULL, op->mode, op->size, NULL);
                        break;
                case CC_TXN_REPLACE:
                case CC_TXN_REMOVE:
                        bk = cc_txn_backup(host, last->id, i, err);
                        r2 = bk == NULL ? -1
                                        : ch_restore(&c, op->kind == CC_TXN_REPLACE ? CC_TXN_REPLACE : CC_TXN_PLACE,
                                                     op->path, bk);
                        free(bk);
                        break;
                case CC_TXN_RMDIR:
                        r2 = ch_add(&c, CC_TXN_MKDIR, op->path, NULL, op->mode ? op->mode : 0755, 0, NULL);
                        break;
                }
                TRY(r2);
        }
        snprintf(label, sizeof(label), "rollback %s", last->id);
        TRY(ch_run(&c, vt, host, label, o->dry_run, m, doc, err));
        if (cc_starts_with(last->label, "use")) {
                /* the loader's configuration changed back: its cache too */
                const char *status = cc_v_get_str(cc_v_get(doc, CC_K(change_doc, result)), "status");

                if (status != NULL && strcmp(status, "done") == 0) {
                        char *ld = run_ldconfig(m, err);

                        if (ld == NULL || cc_v_set_str(doc, "ldconfig", ld, err) < 0) {
                                free(ld);
                                goto fail;
                        }
                        free(ld);
                }
        }
        rc = 0;
fail:
        ch_free(&c);
        cc_txn_info_free(v, n);
        free(vt);
        free(host);
        if (rc == 0)
                *out = doc;
        else
                cc_v_free(doc);
        return rc;
}

/* ---- recover and history -------------------------------------------------- */

int cudnnctl_recover(cudnnctl_machine *m, const char *target, cudnnctl_value **out, cudnnctl_error *err)
{
        char *vt = NULL, *host = NULL;
        cc_value *doc = NULL, *rec = NULL;
        int rc = -1;

        if (out == NULL || m == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_recover: no machine or place for the result");
        *out = NULL;
        TRY(resolve_target(m, target, &vt, &host, err));
        doc = new_doc(m, "recover", vt, 0, err);
        if (doc == NULL)
                goto fail;
        TRY(cc_txn_recover(host, &rec, err));
        TRY(cc_v_set(doc, CC_K(change_doc, recovered), rec, err));
        rc = 0;
fail:
        free(vt);
        free(host);
        if (rc == 0)
                *out = doc;
        else
                cc_v_free(doc);
        return rc;
}

int cudnnctl_history(cudnnctl_machine *m, const char *target, cudnnctl_value **out, cudnnctl_error *err)
{
        char *vt = NULL, *host = NULL;
        cc_txn_info *v = NULL;
        cc_strv bad = {0};
        size_t n = 0, i, k;
        cc_value *doc = NULL, *arr = NULL;
        int rc = -1;

        if (out == NULL || m == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_history: no machine or place for the result");
        *out = NULL;
        TRY(resolve_target(m, target, &vt, &host, err));
        doc = new_doc(m, "history", vt, 0, err);
        arr = cc_v_array(err);
        if (doc == NULL || arr == NULL)
                goto fail;
        TRY(cc_txn_list(host, &v, &n, &bad, err));
        for (i = 0; i < n; i++) {
                cc_value *t = cc_v_object(err);
                size_t counts[CC_TXN_RMDIR + 1] = {0};
                char *bk = NULL;
                cc_stat st;

                if (t == NULL || cc_v_push(arr, t, err) < 0)
                        goto fail;
                for (k = 0; k < v[i].n; k++)
                        counts[v[i].ops[k].kind]++;
                bk = cc_asprintf(err, "%s/%s/txn-%s/old", host, CC_TXN_STATE, v[i].id);
                if (bk == NULL || cc_lstat_path(bk, &st, err) < 0) {
                        free(bk);
                        goto fail;
                }
                free(bk);
                TRY(cc_v_set_str(t, CC_K(history_txn, id), v[i].id, err));
                TRY(cc_v_set_str(t, CC_K(history_txn, label), v[i].label, err));
                TRY(cc_v_set_str(t, CC_K(history_txn, state), v[i].committed ? "committed" : "interrupted", err));
                TRY(cc_v_set_bool(t, CC_K(history_txn, rolled_back), rolled_back(v, n, v[i].id), err));
                TRY(cc_v_set_bool(t, CC_K(history_txn, backups_kept), st.type == CC_FT_DIR, err));
                TRY(cc_v_set_int(t, CC_K(history_txn, mkdir), (int64_t)counts[CC_TXN_MKDIR], err));
                TRY(cc_v_set_int(t, CC_K(history_txn, place), (int64_t)counts[CC_TXN_PLACE], err));
                TRY(cc_v_set_int(t, CC_K(history_txn, replace), (int64_t)counts[CC_TXN_REPLACE], err));
                TRY(cc_v_set_int(t, CC_K(history_txn, remove), (int64_t)(counts[CC_TXN_REMOVE] + counts[CC_TXN_RMDIR]),
                                 err));
        }
        {
                cc_value *a = arr; /* cc_v_set owns it, even when it fails */

                arr = NULL;
                TRY(cc_v_set(doc, CC_K(change_doc, transactions), a, err));
        }
        TRY(cc_v_set(doc, CC_K(change_doc, unreadable), cc_v_strv(&bad, err), err));
        rc = 0;
fail:
        cc_v_free(arr);
        cc_txn_info_free(v, n);
        cc_strv_free(&bad);
        free(vt);
        free(host);
        if (rc == 0)
                *out = doc;
        else
                cc_v_free(doc);
        return rc;
}

/* ---- use ------------------------------------------------------------------ */

#define USE_DIR "/etc/ld.so.conf.d"
#define USE_FILE "00-cudnnctl.conf" /* first of the directory: ldconfig keeps the first directory of a name */

/* ldconfig after a change of the loader's configuration: run as root
 * (ldconfig -r for a tree), else say that it must be. "ran", "needed: ...",
 * "failed: ...". */
static char *run_ldconfig(cc_machine *m, cc_error *err)
{
        static const char *const progs[] = {"/sbin/ldconfig", "/usr/sbin/ldconfig"};
        char *root = NULL, *out = NULL;
        cc_error e2 = {0};
        size_t i;

        if (!cc_is_admin())
                return cc_strdup(err, "needed: run `sudo ldconfig` (not run: not root)");
        if (!m->live && (root = cc_tree_host(m->tree, "/", &e2)) == NULL)
                return cc_asprintf(err, "needed: the tree's root: %s", e2.msg);
        for (i = 0; i < CC_ARRAY_LEN(progs) && out == NULL; i++) {
                const char *argv[] = {progs[i], root ? "-r" : NULL, root, NULL};
                cc_spawn_opts so;
                cc_spawn_result r;
                cc_stat st;

                if (cc_stat_path(progs[i], &st, &e2) < 0 || st.type != CC_FT_FILE)
                        continue;
                memset(&so, 0, sizeof(so));
                memset(&r, 0, sizeof(r));
                so.argv = argv;
                so.timeout_ms = 120000;
                if (cc_spawn_run(&so, &r, &e2) < 0) {
                        out = cc_asprintf(err, "failed: %s", e2.msg);
                } else if (r.exited && r.exit_code == 0) {
                        out = cc_strdup(err, "ran");
                } else {
                        char *how = cc_spawn_describe(&r, err);

                        out = cc_asprintf(err, "failed: ldconfig %s%s%.200s", how ? how : "failed",
                                          r.errout.len ? ": " : "", r.errout.data ? r.errout.data : "");
                        free(how);
                }
                cc_spawn_result_free(&r);
        }
        free(root);
        return out ? out : cc_strdup(err, "needed: no ldconfig was found: run it");
}

/* What a plain program loads for libcudnn.so.MAJOR now: {name, path,
 * installation, chosen}. */
static cc_value *loads_doc(cc_machine *m, int major, const char *prefix, cc_error *err)
{
        char name[32];
        const char *names[1] = {name};
        cudnnctl_which_options wo;
        cudnnctl_value *w = NULL;
        cc_value *o = cc_v_object(err);
        const cc_value *r;
        const char *path;

        if (o == NULL)
                return NULL;
        snprintf(name, sizeof(name), "libcudnn.so.%d", major);
        memset(&wo, 0, sizeof(wo));
        if (cudnnctl_which(m, names, 1, &wo, &w, err) < 0) {
                cc_v_free(o);
                return NULL;
        }
        r = cc_v_at(cc_v_get(w, "results"), 0);
        path = cc_v_get_str(r, "realpath") ? cc_v_get_str(r, "realpath") : cc_v_get_str(r, "path");
        if (cc_v_set_str(o, "name", name, err) < 0 || cc_v_set_str(o, "path", path, err) < 0 ||
            cc_v_set_str(o, "how", cc_v_get_str(r, "how"), err) < 0 ||
            cc_v_set_bool(o, "chosen",
                          path != NULL && prefix != NULL && cc_starts_with(path, prefix) &&
                              (path[strlen(prefix)] == '/' || path[strlen(prefix)] == '\0'),
                          err) < 0) {
                cc_v_free(o);
                o = NULL;
        }
        cc_v_free(w);
        return o;
}

#define BLOCK_BEGIN "# >>> cudnnctl use >>>\n"
#define BLOCK_END "# <<< cudnnctl use <<<\n"

/* text without the block a use --user --write put there before. */
static int without_block(const char *text, size_t len, cc_buf *out, cc_error *err)
{
        const char *b = text ? strstr(text, BLOCK_BEGIN) : NULL, *e;

        if (b == NULL || (b != text && b[-1] != '\n'))
                return len ? cc_buf_append(out, text, len, err) : 0;
        e = strstr(b, BLOCK_END);
        if (e == NULL)
                return cc_err(err, CC_ERR_FORMAT, "a '%.*s' line without its '%.*s' line: edit it by hand",
                              (int)strlen(BLOCK_BEGIN) - 1, BLOCK_BEGIN, (int)strlen(BLOCK_END) - 1, BLOCK_END);
        e += strlen(BLOCK_END);
        TRY_RET(cc_buf_append(out, text, (size_t)(b - text), err));
        return cc_buf_append(out, e, len - (size_t)(e - text), err);
}

/* use --user: the lines for this user's shell start file, and with write
 * the file with them in a marked block, as one transaction on its directory. */
static int use_user(cc_machine *m, const cudnnctl_use_options *o, cc_value **out, cc_error *err)
{
        static const struct {
                const char *shell, *file;
        } F[] = {{"bash", ".bashrc"}, {"zsh", ".zshrc"},    {"fish", ".config/fish/config.fish"},
                 {"sh", ".profile"},  {"dash", ".profile"}, {"ksh", ".profile"}};
        const char *shell = o->shell ? o->shell : "sh", *home = cc_machine_getenv(m, "HOME"), *rel = NULL;
        const int fish = strcmp(shell, "fish") == 0;
        char *vfile = NULL, *vdir = NULL, *host = NULL, *hfile = NULL, *tmp = NULL, *from = NULL, *old = NULL;
        cudnnctl_value *envdoc = NULL;
        cc_value *doc = NULL;
        cc_buf lines = {0}, text = {0};
        struct change c;
        size_t i, oldlen = 0;
        cc_stat st;
        int rc = -1;

        memset(&c, 0, sizeof(c));
        c.err = err;
        for (i = 0; i < CC_ARRAY_LEN(F) && rel == NULL; i++)
                if (strcmp(F[i].shell, shell) == 0)
                        rel = F[i].file;
        if (rel == NULL)
                return cc_err(err, CC_ERR_USAGE, "%s: use --user writes for sh, bash, zsh or fish", shell);
        if (home == NULL || !cc_tree_is_abs(m->tree, home))
                return cc_err(err, CC_ERR_NOTFOUND, "HOME is not set to an absolute directory: no start file");
        vfile = cc_tree_join(m->tree, home, rel, err);
        vdir = vfile ? cc_tree_dirname(m->tree, vfile, err) : NULL;
        if (vdir == NULL)
                goto fail;
        doc = new_doc(m, "use", vdir, o->dry_run || !o->write, err);
        c.checks = cc_v_array(err);
        if (doc == NULL || c.checks == NULL)
                goto fail;
        TRY(cc_v_set_str(doc, "scope", "user", err));
        TRY(cc_v_set_str(doc, "shell", shell, err));
        TRY(cc_v_set_str(doc, "file", vfile, err));
        if (o->none) {
                TRY(cc_v_set_null(doc, "installation", err));
        } else {
                cudnnctl_env_options eo;
                const cc_value *inst, *added;

                memset(&eo, 0, sizeof(eo));
                eo.install = o->install;
                eo.cuda = o->cuda;
                TRY(cudnnctl_env(m, &eo, &envdoc, err));
                inst = cc_v_get(envdoc, "installation");
                added = cc_v_get(envdoc, "added");
                TRY(cc_v_set(doc, "installation", cc_v_copy(inst, err), err));
                TRY(cc_buf_puts(&lines, BLOCK_BEGIN, err));
                TRY(cc_buf_printf(&lines, err,
                                  "# cuDNN %s (installation %lld) first for this user's programs. Undo: cudnnctl use "
                                  "--user --none --write\n",
                                  cc_v_get_str(inst, "version") ? cc_v_get_str(inst, "version") : "of unknown release",
                                  (long long)cc_v_as_int(cc_v_get(inst, "id"))));
                TRY(cc_buf_puts(&lines, fish ? "set -gx LD_LIBRARY_PATH" : "export LD_LIBRARY_PATH=", err));
                for (i = 0; i < cc_v_len(added); i++) {
                        const char *d = cc_v_as_str(cc_v_at(added, i));

                        if (d[strcspn(d, ":;")] != '\0') {
                                cc_err(err, CC_ERR_USAGE,
                                       "%s: a directory whose name holds '%c' cannot be on "
                                       "LD_LIBRARY_PATH (the loader splits it there)",
                                       d, d[strcspn(d, ":;")]);
                                goto fail;
                        }
                        if (fish)
                                TRY(cc_buf_putc(&lines, ' ', err));
                        else if (i)
                                TRY(cc_buf_putc(&lines, ':', err));
                        TRY(cc_shell_quote(&lines, shell, "LD_LIBRARY_PATH", d, err));
                }
                TRY(cc_buf_puts(&lines, fish ? " $LD_LIBRARY_PATH\n" : "\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"\n",
                                err));
                for (i = 0; i < 2; i++) {
                        const char *name = i ? "CUDNN_HOME" : "CUDNN_PATH";

                        TRY(cc_buf_printf(&lines, err, fish ? "set -gx %s " : "export %s=", name));
                        TRY(cc_shell_quote(&lines, shell, name, cc_v_get_str(inst, "prefix"), err));
                        TRY(cc_buf_putc(&lines, '\n', err));
                }
                TRY(cc_buf_puts(&lines, BLOCK_END, err));
                TRY(cc_v_set_str(doc, "lines", lines.data, err));
        }
        if (!o->write) {
                TRY(cc_v_set(doc, CC_K(change_doc, operations), cc_v_array(err), err));
                TRY(set_result(doc, "printed", NULL, NULL, 0, err));
                rc = 0;
                goto fail;
        }
        /* the file with the block replaced, as one transaction on its directory */
        host = cc_tree_host(m->tree, vdir, err);
        /* the file itself, not where a link there points */
        hfile = host ? cc_asprintf(err, "%s/%s", host, cc_basename(vfile)) : NULL;
        if (hfile == NULL)
                goto fail;
        if (cc_lstat_path(hfile, &st, err) < 0)
                goto fail;
        if (st.type == CC_FT_LINK) {
                TRY(ch_check(&c, "link", "stop",
                             "%s: a symbolic link (a dotfiles manager's?): not written through; add the lines "
                             "where it points",
                             vfile));
        } else if (st.type != CC_FT_NONE && st.type != CC_FT_FILE) {
                TRY(ch_check(&c, "file", "stop", "%s: not a regular file", vfile));
        } else {
                if (st.type == CC_FT_FILE && cc_read_file(hfile, 16u << 20, &old, &oldlen, err) < 0)
                        goto fail;
                TRY(without_block(old, oldlen, &text, err));
                if (!o->none) {
                        if (text.len && text.data[text.len - 1] != '\n')
                                TRY(cc_buf_putc(&text, '\n', err));
                        TRY(cc_buf_puts(&text, lines.data, err));
                }
                if (st.type == CC_FT_FILE && text.len == oldlen &&
                    (oldlen == 0 || memcmp(text.data, old, oldlen) == 0)) {
                        /* nothing changes: no transaction */
                } else if (st.type == CC_FT_NONE && o->none) {
                        /* no file, no block */
                } else {
                        tmp = cc_make_temp_dir("cudnnctl-use-", err);
                        from = tmp ? cc_asprintf(err, "%s/start", tmp) : NULL;
                        if (from == NULL || cc_write_file(from, text.data ? text.data : "", text.len, 0, err) < 0)
                                goto fail;
                        TRY(ch_add(&c, st.type == CC_FT_NONE ? CC_TXN_PLACE : CC_TXN_REPLACE, cc_basename(vfile), NULL,
                                   st.type == CC_FT_FILE && st.mode >= 0 ? (unsigned)st.mode & 0777 : 0644, text.len,
                                   from));
                }
        }
        {
                cc_stat ds;

                if (cc_lstat_path(host, &ds, err) < 0)
                        goto fail;
                if (ds.type != CC_FT_DIR)
                        TRY(ch_check(&c, "directory", "stop", "%s: no such directory (make it first)", vdir));
        }
        TRY(ch_run(&c, vdir, host, o->none ? "use --user --none" : "use --user", o->dry_run, m, doc, err));
        rc = 0;
fail:
        if (tmp != NULL) {
                cc_error ignored = {0};

                (void)cc_remove_tree(tmp, &ignored);
        }
        free(tmp);
        free(from);
        free(old);
        free(vfile);
        free(vdir);
        free(host);
        free(hfile);
        cc_buf_free(&lines);
        cc_buf_free(&text);
        cc_v_free(envdoc);
        ch_free(&c);
        if (rc == 0)
                *out = doc;
        else
                cc_v_free(doc);
        return rc;
}

int cudnnctl_use(cudnnctl_machine *m, const cudnnctl_use_options *o, cudnnctl_value **out, cudnnctl_error *err)
{
        char *host = NULL, *tmp = NULL, *from = NULL, *file = NULL;
        cudnnctl_value *envdoc = NULL;
        cc_value *doc = NULL;
        const cc_value *inst = NULL;
        struct change c;
        cc_buf content = {0};
        cc_stat st;
        int rc = -1, major = 0;
        size_t i;

        memset(&c, 0, sizeof(c));
        c.err = err;
        if (out == NULL || m == NULL || o == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_use: no machine, options or place for the result");
        *out = NULL;
        if ((o->install == NULL) == !o->none)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_use: an installation, or none");
        if (m->system == CC_SYS_WINDOWS)
                return cc_err(err, CC_ERR_UNSUPPORTED,
                              "use on Windows (the registry's Path) is not built yet: 'cudnnctl env' sets one shell");
        if (o->user)
                return use_user(m, o, out, err);
        host = cc_tree_host(m->tree, USE_DIR, err);
        if (host == NULL)
                return -1;
        if (cc_lstat_path(host, &st, err) < 0)
                goto fail;
        if (st.type != CC_FT_DIR) {
                cc_err(err, CC_ERR_NOTFOUND, "%s: not a directory here: this loader reads no drop-in files", USE_DIR);
                goto fail;
        }
        doc = new_doc(m, "use", USE_DIR, o->dry_run, err);
        c.checks = cc_v_array(err);
        file = cc_asprintf(err, "%s/%s", USE_DIR, USE_FILE);
        if (doc == NULL || c.checks == NULL || file == NULL)
                goto fail;
        TRY(cc_v_set_str(doc, "file", file, err));
        {
                char *fh = cc_asprintf(err, "%s/%s", host, USE_FILE);

                if (fh == NULL || cc_lstat_path(fh, &st, err) < 0) {
                        free(fh);
                        goto fail;
                }
                free(fh);
        }
        if (o->none) {
                TRY(cc_v_set_null(doc, "installation", err));
                TRY(cc_v_set_null(doc, "content", err));
                if (st.type != CC_FT_NONE)
                        TRY(ch_add(&c, CC_TXN_REMOVE, USE_FILE, NULL, 0, 0, NULL));
        } else {
                cudnnctl_env_options eo;
                const cc_value *added;

                memset(&eo, 0, sizeof(eo));
                eo.install = o->install;
                eo.cuda = o->cuda;
                TRY(cudnnctl_env(m, &eo, &envdoc, err));
                inst = cc_v_get(envdoc, "installation");
                added = cc_v_get(envdoc, "added");
                major = atoi(cc_v_get_str(inst, "version") ? cc_v_get_str(inst, "version") : "0");
                TRY(cc_v_set(doc, "installation", cc_v_copy(inst, err), err));
                TRY(cc_buf_printf(&content, err,
                                  "# Written by cudnnctl use: cuDNN %s (installation %lld) first for every program\n"
                                  "# that finds cuDNN through the loader's cache. Undo: cudnnctl use --none, or\n"
                                  "# cudnnctl rollback %s\n",
                                  cc_v_get_str(inst, "version") ? cc_v_get_str(inst, "version") : "of unknown release",
                                  (long long)cc_v_as_int(cc_v_get(inst, "id")), USE_DIR));
                for (i = 0; i < cc_v_len(added); i++) {
                        const char *d = cc_v_as_str(cc_v_at(added, i));
                        size_t n = d ? strlen(d) : 0;

                        /* ld.so.conf: a directory a line, '#' starts a comment, and
                         * ldconfig reads "dir=type", ',' and blanks specially */
                        if (n == 0 || d[strcspn(d, "#=,:\t\n\r")] != '\0' || d[0] == ' ' || d[n - 1] == ' ') {
                                cc_err(err, CC_ERR_USAGE,
                                       "%s: a directory ld.so.conf cannot name (a '#', '=', ',', ':', a tab, or "
                                       "blanks around it)",
                                       d ? d : "(none)");
                                goto fail;
                        }
                        TRY(cc_buf_printf(&content, err, "%s\n", d));
                }
                TRY(cc_v_set_str(doc, "content", content.data, err));
                tmp = cc_make_temp_dir("cudnnctl-use-", err);
                from = tmp ? cc_asprintf(err, "%s/%s", tmp, USE_FILE) : NULL;
                if (from == NULL || cc_write_file(from, content.data, content.len, 0, err) < 0)
                        goto fail;
                TRY(ch_add(&c, st.type == CC_FT_NONE ? CC_TXN_PLACE : CC_TXN_REPLACE, USE_FILE, NULL, 0644, content.len,
                           from));
                if (st.type == CC_FT_LINK)
                        TRY(ch_check(&c, "link", "stop", "%s: a symbolic link: not written through", file));
        }
        TRY(ch_run(&c, USE_DIR, host, o->none ? "use --none" : "use", o->dry_run, m, doc, err));
        {
                const char *status = cc_v_get_str(cc_v_get(doc, CC_K(change_doc, result)), "status");

                if (status != NULL && strcmp(status, "done") == 0) {
                        char *ld = run_ldconfig(m, err);

                        if (ld == NULL || cc_v_set_str(doc, "ldconfig", ld, err) < 0) {
                                free(ld);
                                goto fail;
                        }
                        free(ld);
                }
        }
        if (!o->none && major > 0)
                TRY(cc_v_set(doc, "loads", loads_doc(m, major, cc_v_get_str(inst, "prefix"), err), err));
        rc = 0;
fail:
        if (tmp != NULL) {
                cc_error ignored = {0};

                (void)cc_remove_tree(tmp, &ignored);
        }
        free(tmp);
        free(from);
        free(file);
        free(host);
        cc_buf_free(&content);
        cc_v_free(envdoc);
        ch_free(&c);
        if (rc == 0)
                *out = doc;
        else
                cc_v_free(doc);
        return rc;
}

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
