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
 * the last one. The planned change (struct change, change.h) is shared with
 * use.c and fix.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../facts/views.h"
#include "../formats/json.h"
#include "../install/plan.h"
#include "../install/target.h"
#include "../machine/machine.h"
#include "../platform/platform.h"
#include "../txn/txn.h"
#include "change.h"

/* ---- a planned change ----------------------------------------------------- */

static int ch_grow(struct change *c)
{
        size_t ncap = c->cap ? c->cap * 2 : 32;
        cc_txn_op *ops;
        struct ch_src *src;

        if (c->n < c->cap)
                return 0;
        ops = cc_realloc(c->err, c->ops, ncap * sizeof(*ops));
        if (ops == NULL)
                return -1;
        c->ops = ops;
        src = cc_realloc(c->err, c->src, ncap * sizeof(*src));
        if (src == NULL)
                return -1;
        c->src = src;
        c->cap = ncap;
        return 0;
}

int ch_add(struct change *c, int kind, const char *path, const char *link, unsigned mode, uint64_t size,
           const char *from)
{
        cc_txn_op *o;
        struct ch_src *s;

        TRY_RET(ch_grow(c));
        o = &c->ops[c->n];
        s = &c->src[c->n];
        memset(o, 0, sizeof(*o));
        memset(s, 0, sizeof(*s));
        o->kind = kind;
        o->mode = mode;
        o->size = size;
        o->path = cc_strdup(c->err, path);
        if (o->path == NULL)
                return -1;
        if ((link != NULL && (o->link = cc_strdup(c->err, link)) == NULL) ||
            (from != NULL && (s->from = cc_strdup(c->err, from)) == NULL)) {
                free(o->path);
                free(o->link);
                return -1;
        }
        s->staged = from != NULL && link == NULL;
        c->n++;
        return 0;
}

int ch_add_data(struct change *c, int kind, const char *path, unsigned mode, const void *data, size_t len)
{
        struct ch_src *s;

        TRY_RET(ch_add(c, kind, path, NULL, mode, len, NULL));
        s = &c->src[c->n - 1];
        s->staged = 1;
        s->len = len;
        if ((s->data = cc_malloc(c->err, len ? len : 1)) == NULL) {
                c->n--;
                free(c->ops[c->n].path);
                return -1;
        }
        if (len)
                memcpy(s->data, data, len);
        return 0;
}

int ch_add_member(struct change *c, int kind, const char *path, const cc_source *src, size_t i)
{
        const cc_src_member *mb = &src->m[i];
        struct ch_src *s;

        if (c->arc != NULL && c->arc != src)
                return cc_err(c->err, CC_ERR_USAGE, "%s: a change stages from one source", path);
        if (mb->type == CC_SRC_LINK)
                return ch_add(c, kind, path, mb->link, 0, 0, NULL);
        if (mb->type != CC_SRC_FILE)
                return cc_err(c->err, CC_ERR_USAGE, "%s: %s is not a file or a link", path, mb->name);
        TRY_RET(ch_add(c, kind, path, NULL, mb->mode, mb->size, NULL));
        s = &c->src[c->n - 1];
        s->staged = s->arc = 1;
        s->member = i;
        c->arc = src;
        return 0;
}

void ch_drop(struct change *c, size_t j)
{
        if (j >= c->n)
                return;
        free(c->ops[j].path);
        free(c->ops[j].link);
        free(c->src[j].from);
        free(c->src[j].data);
        memmove(&c->ops[j], &c->ops[j + 1], (c->n - j - 1) * sizeof(*c->ops));
        memmove(&c->src[j], &c->src[j + 1], (c->n - j - 1) * sizeof(*c->src));
        c->n--;
}

void ch_free(struct change *c)
{
        size_t i;

        for (i = 0; i < c->n; i++) {
                free(c->ops[i].path);
                free(c->ops[i].link);
                free(c->src[i].from);
                free(c->src[i].data);
        }
        free(c->ops);
        free(c->src);
        cc_v_free(c->checks);
}

/* A PLACE or REPLACE of path from the backup file or link at from. */
int ch_restore(struct change *c, int kind, const char *path, const char *from)
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

/* ---- an interrupted transaction first --------------------------------------- */

int ch_interrupted(const char *host)
{
        cc_txn_info *v = NULL;
        size_t n = 0, i;
        cc_error ignored = {0};
        int any = 0;

        if (cc_txn_list(host, &v, &n, NULL, &ignored) == 0)
                for (i = 0; i < n; i++)
                        any |= !v[i].committed;
        cc_txn_info_free(v, n);
        return any;
}

static int add_recovered(cc_value *doc, cc_value *rec, cc_error *err)
{
        cc_value *have = cc_v_getm(doc, CC_K(change_doc, recovered));

        return have != NULL ? cc_v_concat(have, rec, err) : cc_v_set(doc, CC_K(change_doc, recovered), rec, err);
}

int ch_recover_first(struct change *c, const char *host, int dry_run, cc_value *doc)
{
        cc_value *rec = NULL;

        if (!ch_interrupted(host))
                return 0;
        if (dry_run)
                return ch_check(c, "target", "warn",
                                "an interrupted transaction is in the target: running this undoes it first (`cudnnctl "
                                "recover`), and this plan is of the target as it is now");
        TRY_RET(cc_txn_recover(host, &rec, c->err));
        return add_recovered(doc, rec, c->err);
}

/* ---- staging from a source ------------------------------------------------- */

struct member_sink {
        cc_txn *t;
        const size_t *op_of;
};

static int ms_begin(void *ctx, size_t i, cc_error *err)
{
        struct member_sink *s = ctx;

        return cc_txn_stage_open(s->t, s->op_of[i], err);
}

static int ms_data(void *ctx, const void *p, size_t n, cc_error *err)
{
        return cc_txn_stage_write(((struct member_sink *)ctx)->t, p, n, err);
}

static int ms_end(void *ctx, cc_error *err)
{
        return cc_txn_stage_close(((struct member_sink *)ctx)->t, err);
}

/* The members of c's source that its operations place, staged in one read
 * of the source. */
static int stage_members(const struct change *c, cc_txn *t, cc_error *err)
{
        const cc_source *src = c->arc;
        unsigned char *want = cc_calloc(err, src->n ? src->n : 1, 1);
        size_t *op_of = cc_calloc(err, src->n ? src->n : 1, sizeof(*op_of));
        struct member_sink ms = {t, op_of};
        cc_src_sink sink = {.ctx = &ms, .begin = ms_begin, .data = ms_data, .end = ms_end};
        size_t i;
        int rc = -1;

        if (want == NULL || op_of == NULL)
                goto out;
        for (i = 0; i < c->n; i++)
                if (c->src[i].arc && c->src[i].member < src->n) {
                        want[c->src[i].member] = 1;
                        op_of[c->src[i].member] = i;
                }
        if (cc_source_read(src, want, &sink, err) == 0)
                rc = cc_txn_stage_wait(t, err);
out:
        free(want);
        free(op_of);
        return rc;
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
                    (c->src[i].staged && cc_v_set_int(v, CC_K(plan_op, size), (int64_t)o->size, err) < 0) ||
                    (c->src[i].staged && cc_v_set_str(v, CC_K(plan_op, mode), mode, err) < 0) ||
                    (c->src[i].from && cc_v_set_str(v, CC_K(plan_op, from), c->src[i].from, err) < 0))
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
        size_t i, k[CC_TXN_KINDS] = {0};
        uint64_t bytes = 0;

        if (s == NULL)
                return NULL;
        for (i = 0; i < c->n; i++) {
                k[c->ops[i].kind]++;
                if (c->src[i].staged)
                        bytes += c->ops[i].size;
        }
        if (cc_v_set_int(s, CC_K(plan_summary, mkdir), (int64_t)k[CC_TXN_MKDIR], err) < 0 ||
            cc_v_set_int(s, CC_K(plan_summary, place), (int64_t)k[CC_TXN_PLACE], err) < 0 ||
            cc_v_set_int(s, CC_K(plan_summary, replace), (int64_t)k[CC_TXN_REPLACE], err) < 0 ||
            cc_v_set_int(s, CC_K(plan_summary, remove), (int64_t)(k[CC_TXN_REMOVE] + k[CC_TXN_RMDIR]), err) < 0 ||
            (k[CC_TXN_SETREG] && cc_v_set_int(s, CC_K(plan_summary, setreg), (int64_t)k[CC_TXN_SETREG], err) < 0) ||
            cc_v_set_int(s, CC_K(plan_summary, bytes), (int64_t)bytes, err) < 0 ||
            cc_v_set(s, CC_K(plan_summary, other_majors), cc_v_array(err), err) < 0 ||
            cc_v_set_bool(s, CC_K(plan_summary, stop), c->stop, err) < 0) {
                cc_v_free(s);
                return NULL;
        }
        return s;
}

int ch_result(cc_value *doc, const char *status, const char *txn, const char *error, int undo_failed, cc_error *err)
{
        return cc_v_set(doc, CC_K(change_doc, result), cc_result_new(status, txn, error, undo_failed, NULL, NULL, err),
                        err);
}
/* Show the change in doc, and unless a dry run or a stop, run it as one
 * transaction labelled label on the target host. */
int ch_after_done(cc_machine *m, cc_value *doc, int what, cc_error *err)
{
        const char *status = cc_v_get_str(cc_v_get(doc, CC_K(change_doc, result)), "status");
        char *text;
        int rc;

        if (status == NULL || strcmp(status, "done") != 0)
                return 0;
        text = what == CH_AFTER_BROADCAST ? cc_env_broadcast_text(err) : cc_ldconfig_run(m, err);
        if (text == NULL)
                return -1;
        rc = cc_v_set_str(doc, what == CH_AFTER_BROADCAST ? "broadcast" : "ldconfig", text, err);
        free(text);
        return rc;
}

int ch_run(struct change *c, const char *vtarget, const char *host, const char *label, int dry_run, cc_machine *m,
           cc_value *doc, cc_error *err)
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
        if (!dry_run && !c->stop && c->n > 0 && ch_interrupted(host)) {
                /* planned from the target as a killed transaction left it:
                 * undone now, and the plan is of what is not there any more */
                TRY_RET(cc_txn_recover(host, &rec, err));
                TRY_RET(add_recovered(doc, rec, err));
                TRY_RET(ch_check(c, "target", "stop",
                                 "an interrupted transaction in the target was undone first (see recovered): this "
                                 "plan was made before that; run the command again"));
        }
        TRY_RET(cc_v_set(doc, CC_K(change_doc, operations), ops_doc(c, err), err));
        TRY_RET(cc_v_set(doc, CC_K(change_doc, summary), summary_doc(c, err), err));
        {
                cc_value *ch = c->checks;

                c->checks = NULL;
                TRY_RET(cc_v_set(doc, CC_K(change_doc, checks), ch, err));
        }
        if (dry_run || c->stop)
                return ch_result(doc, c->stop ? "stopped" : "planned", NULL, NULL, 0, err);
        if (c->n == 0)
                return ch_result(doc, "nothing-to-do", NULL, NULL, 0, err);
        TRY_RET(cc_txn_begin(host, c->ops, c->n, label, &rec, &t, err));
        if (add_recovered(doc, rec, err) < 0) { /* rec was freed by it */
                cc_txn_abort(t);
                return -1;
        }
        if (c->arc != NULL && stage_members(c, t, err) < 0) {
                char msg[sizeof(err->msg)];

                snprintf(msg, sizeof(msg), "%s", err->msg);
                cc_err_clear(err);
                cc_txn_abort(t);
                return ch_result(doc, "failed", NULL, msg, 0, err);
        }
        for (i = 0; i < c->n; i++) {
                const struct ch_src *src = &c->src[i];
                int r;

                if (!src->staged || src->arc)
                        continue;
                if (src->from != NULL) {
                        r = cc_txn_stage_copy(t, i, src->from, err);
                } else {
                        r = cc_txn_stage_open(t, i, err);
                        if (r == 0 && src->len)
                                r = cc_txn_stage_write(t, src->data, src->len, err);
                        if (r == 0)
                                r = cc_txn_stage_close(t, err);
                        if (r == 0)
                                r = cc_txn_stage_wait(t, err);
                }
                if (r < 0) {
                        char msg[sizeof(err->msg)];

                        snprintf(msg, sizeof(msg), "%s", err->msg);
                        cc_err_clear(err);
                        cc_txn_abort(t);
                        return ch_result(doc, "failed", NULL, msg, 0, err);
                }
        }
        if (cc_txn_apply_commit(t, &undo_failed, err) < 0) {
                char msg[sizeof(err->msg)];
                int rc;

                snprintf(msg, sizeof(msg), "%s", err->msg);
                cc_err_clear(err);
                rc = ch_result(doc, "failed", cc_txn_id(t), msg, undo_failed, err);
                cc_txn_free(t);
                return rc;
        }
        {
                cc_error ignored = {0};

                (void)cc_state_record(m, vtarget, cc_txn_id(t), label, &ignored);
                (void)cc_txn_prune(host, CC_KEEP_BACKUPS, &ignored);
        }
        i = (size_t)ch_result(doc, "done", cc_txn_id(t), NULL, 0, err);
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

cc_value *ch_new_doc(cc_machine *m, const char *command, const char *vtarget, int dry_run, cc_error *err)
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
        doc = ch_new_doc(m, "uninstall", vt, o->dry_run, err);
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
        int rc = -1, reg = 0;

        memset(&c, 0, sizeof(c));
        c.err = err;
        if (out == NULL || m == NULL || o == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_rollback: no machine, options or place for the result");
        *out = NULL;
        TRY(resolve_target(m, o->target, &vt, &host, err));
        doc = ch_new_doc(m, "rollback", vt, o->dry_run, err);
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
                case CC_TXN_SETREG:
                        /* the value as it was, type and bytes, from the backup */
                        bk = cc_txn_backup(host, last->id, i, err);
                        r2 = bk == NULL ? -1 : ch_restore(&c, CC_TXN_SETREG, op->path, bk);
                        free(bk);
                        reg = 1;
                        break;
                }
                TRY(r2);
        }
        snprintf(label, sizeof(label), "rollback %s", last->id);
        TRY(ch_run(&c, vt, host, label, o->dry_run, m, doc, err));
        /* the environment in the registry changed back: say so; the
         * loader's configuration changed back: its cache too */
        if (reg)
                TRY(ch_after_done(m, doc, CH_AFTER_BROADCAST, err));
        else if (cc_starts_with(last->label, "use"))
                TRY(ch_after_done(m, doc, CH_AFTER_LDCONFIG, err));
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
        doc = ch_new_doc(m, "recover", vt, 0, err);
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
        doc = ch_new_doc(m, "history", vt, 0, err);
        arr = cc_v_array(err);
        if (doc == NULL || arr == NULL)
                goto fail;
        TRY(cc_txn_list(host, &v, &n, &bad, err));
        for (i = 0; i < n; i++) {
                cc_value *t = cc_v_object(err);
                size_t counts[CC_TXN_KINDS] = {0};
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
