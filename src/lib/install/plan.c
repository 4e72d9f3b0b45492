/* The plan of an install (plan.h). */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../facts/views.h"
#include "../formats/names.h"
#include "../platform/platform.h"

#define NO_MEMBER ((size_t)-1)

struct pctx {
        const cc_source *src;
        const cc_plan_in *in;
        cc_plan *p;
        cc_value *checks, *ops;
        size_t cap;
        cc_error *err;
};

/* ---- checks --------------------------------------------------------------- */

int cc_plan_check(cc_value *checks, int *stop, cc_error *err, const char *id, const char *verdict, const char *fmt, ...)
{
        cc_value *o = cc_v_object(err);
        char *reason;
        va_list ap;

        if (o == NULL)
                return -1;
        va_start(ap, fmt);
        reason = cc_vasprintf(err, fmt, ap);
        va_end(ap);
        if (reason == NULL || cc_v_set_str(o, CC_K(plan_check, id), id, err) < 0 ||
            cc_v_set_str(o, CC_K(plan_check, verdict), verdict, err) < 0 ||
            cc_v_set_str(o, CC_K(plan_check, reason), reason, err) < 0) {
                free(reason);
                cc_v_free(o);
                return -1;
        }
        free(reason);
        if (strcmp(verdict, "stop") == 0)
                *stop = 1;
        return cc_v_push(checks, o, err);
}

/* A check of this plan (the format is checked by the macro's callers). */
#define check(c, id, verdict, ...) cc_plan_check((c)->checks, &(c)->p->stop, (c)->err, id, verdict, __VA_ARGS__)

/* A stop that --force turns into a warning. */
static const char *forceable(const struct pctx *c)
{
        return c->in->force ? "warn" : "stop";
}

/* ---- operations ----------------------------------------------------------- */

static int add_op(struct pctx *c, int kind, const char *path, const char *link, unsigned mode, uint64_t size,
                  size_t member)
{
        cc_plan *p = c->p;
        cc_txn_op *o;

        if (p->nops == c->cap) {
                size_t ncap = c->cap ? c->cap * 2 : 32;
                cc_txn_op *ops = cc_realloc(c->err, p->ops, ncap * sizeof(*ops));
                size_t *mem;

                if (ops == NULL)
                        return -1;
                p->ops = ops;
                mem = cc_realloc(c->err, p->member, ncap * sizeof(*mem));
                if (mem == NULL)
                        return -1;
                p->member = mem;
                c->cap = ncap;
        }
        o = &p->ops[p->nops];
        memset(o, 0, sizeof(*o));
        o->kind = kind;
        o->mode = mode;
        o->size = size;
        o->path = cc_strdup(c->err, path);
        if (o->path == NULL)
                return -1;
        if (link != NULL && (o->link = cc_strdup(c->err, link)) == NULL) {
                free(o->path);
                return -1;
        }
        p->member[p->nops++] = member;
        return 0;
}

static const cc_tgt_entry *entry_at(const cc_plan_in *in, const char *path)
{
        size_t i;

        for (i = 0; i < in->nentries; i++)
                if (strcmp(in->entries[i].path, path) == 0 ||
                    (in->system == CC_SYS_WINDOWS && cc_strcasecmp(in->entries[i].path, path) == 0))
                        return &in->entries[i];
        return NULL;
}

char *cc_install_dest(const cc_plan_in *in, const char *dest, cc_error *err)
{
        /* A Linux toolkit keeps its libraries in lib64 (or lib): the
         * release's lib/ goes there. */
        if (in->system == CC_SYS_LINUX && in->lib_dir != NULL && strcmp(in->lib_dir, "lib") != 0 &&
            cc_starts_with(dest, "lib/"))
                return cc_asprintf(err, "%s/%s", in->lib_dir, dest + 4);
        return cc_strdup(err, dest);
}

/* Every parent directory of path that the target lacks and no earlier
 * operation makes: an MKDIR each, outermost first. */
static int mkdirs_for(struct pctx *c, const char *path)
{
        const char *s = path;

        while ((s = strchr(s, '/')) != NULL) {
                char *dir = cc_strndup(c->err, path, (size_t)(s - path));
                const cc_tgt_entry *e;
                size_t k;
                int have = 0;

                if (dir == NULL)
                        return -1;
                if (strcmp(dir, CC_TXN_STATE) == 0) { /* the engine's, made by cc_txn_begin */
                        free(dir);
                        s++;
                        continue;
                }
                e = entry_at(c->in, dir);
                for (k = 0; k < c->p->nops && !have; k++)
                        have = c->p->ops[k].kind == CC_TXN_MKDIR && strcmp(c->p->ops[k].path, dir) == 0;
                if (e != NULL && e->type != CC_FT_DIR) {
                        int rc = check(c, "target-layout", "stop", "%s/%s: %s where a directory is needed",
                                       c->in->target, dir, e->type == CC_FT_LINK ? "a symbolic link" : "a file");

                        free(dir);
                        return rc;
                }
                if (e == NULL && !have && add_op(c, CC_TXN_MKDIR, dir, NULL, 0755, 0, NO_MEMBER) < 0) {
                        free(dir);
                        return -1;
                }
                free(dir);
                s++;
        }
        return 0;
}

/* Whether some member lands on path. */
static int is_new_path(const cc_plan *p, const char *path, int windows)
{
        size_t k;

        for (k = 0; k < p->nops; k++)
                if ((p->ops[k].kind == CC_TXN_PLACE || p->ops[k].kind == CC_TXN_REPLACE) &&
                    (strcmp(p->ops[k].path, path) == 0 || (windows && cc_strcasecmp(p->ops[k].path, path) == 0)))
                        return 1;
        return 0;
}

/* Place or replace every installed member; pass 0 files, pass 1 links (a
 * link is made once what it points to is in place). */
static int place_members(struct pctx *c, int links, size_t *n_replace, size_t *n_foreign)
{
        const cc_source *s = c->src;
        size_t i;

        for (i = 0; i < s->n; i++) {
                const cc_src_member *m = &s->m[i];
                const cc_tgt_entry *e;
                char *path;
                int rc = 0;

                if (m->dest == NULL || (m->type == CC_SRC_LINK) != links ||
                    (m->type != CC_SRC_FILE && m->type != CC_SRC_LINK))
                        continue;
                if (links && c->in->system == CC_SYS_WINDOWS) {
                        TRY_RET(check(c, "links", "warn",
                                      "%s: a symbolic link; a Windows target gets no links, left out", m->name));
                        continue;
                }
                path = cc_install_dest(c->in, m->dest, c->err);
                if (path == NULL)
                        return -1;
                if (!cc_txn_path_ok(path)) {
                        rc = check(c, "source-safe", "stop", "%s: installs to %s, not a safe path", m->name, path);
                        free(path);
                        TRY_RET(rc);
                        continue;
                }
                rc = mkdirs_for(c, path);
                e = entry_at(c->in, path);
                if (rc == 0 && e != NULL && e->type != CC_FT_FILE && e->type != CC_FT_LINK) {
                        rc = check(c, "foreign-files", "stop", "%s/%s: a %s where %s goes", c->in->target, path,
                                   e->type == CC_FT_DIR ? "directory" : "special file", m->name);
                } else if (rc == 0 && e != NULL) {
                        /* Replaced: a file of another release of this major,
                         * or the same file again. A file that is not cuDNN's,
                         * or one changed since cudnnctl placed it, is not
                         * ours to overwrite. */
                        cc_libname ln;
                        int cudnn = cc_name_library(cc_basename(path), &ln) == 0;

                        if (!cudnn || e->changed) {
                                (*n_foreign)++;
                                rc = check(c, "foreign-files", forceable(c), "%s/%s: %s; would be overwritten%s",
                                           c->in->target, path,
                                           e->changed ? "changed since cudnnctl installed it" : "not a cuDNN file",
                                           c->in->force ? " (--force: kept in the backup)"
                                                        : " (--force to do it, with a backup)");
                        }
                        if (rc == 0) {
                                (*n_replace)++;
                                rc = add_op(c, CC_TXN_REPLACE, path, links ? m->link : NULL, m->mode,
                                            links ? 0 : m->size, links ? NO_MEMBER : i);
                        }
                } else if (rc == 0) {
                        rc = add_op(c, CC_TXN_PLACE, path, links ? m->link : NULL, m->mode, links ? 0 : m->size,
                                    links ? NO_MEMBER : i);
                }
                if (rc == 0 && !links)
                        c->p->stage_bytes += m->size;
                free(path);
                TRY_RET(rc);
        }
        return 0;
}

/* Remove every file of another release of the same major that the new one
 * does not replace: no sub-library of the old release stays beside the new
 * one. Files of other majors are named and left. */
static int remove_old(struct pctx *c, size_t *n_removed, cc_strv *others)
{
        const cc_plan_in *in = c->in;
        size_t i;

        for (i = 0; i < in->nentries; i++) {
                const cc_tgt_entry *e = &in->entries[i];

                if (e->type != CC_FT_FILE && e->type != CC_FT_LINK)
                        continue;
                if (cc_starts_with(e->path, CC_TXN_STATE "/"))
                        continue;
                if (e->cudnn_major < 0)
                        continue;
                if (e->cudnn_major != c->src->major) {
                        if (!cc_strv_contains(others, e->path))
                                TRY_RET(cc_strv_push(others, e->path, c->err));
                        continue;
                }
                if (is_new_path(c->p, e->path, in->system == CC_SYS_WINDOWS))
                        continue;
                if (e->changed)
                        TRY_RET(
                            check(c, "foreign-files", forceable(c),
                                  "%s/%s: changed since cudnnctl installed it; would be removed%s", in->target, e->path,
                                  in->force ? " (--force: kept in the backup)" : " (--force to do it, with a backup)"));
                TRY_RET(add_op(c, CC_TXN_REMOVE, e->path, NULL, e->mode, e->size, NO_MEMBER));
                (*n_removed)++;
        }
        return 0;
}

/* The manifest of this install, and the removal of the manifest of the
 * release it replaces. */
static int manifest_ops(struct pctx *c)
{
        const cc_plan_in *in = c->in;
        char *path;
        size_t i;
        int rc;

        path = cc_asprintf(c->err, "%s/%s/%s.json", CC_TXN_STATE, CC_TXN_MANIFESTS, in->manifest_id);
        if (path == NULL)
                return -1;
        rc = mkdirs_for(c, path);
        for (i = 0; rc == 0 && i < in->nentries; i++) {
                const cc_tgt_entry *e = &in->entries[i];

                if (e->type == CC_FT_FILE && e->owner != NULL && strcmp(e->path, path) != 0 &&
                    cc_starts_with(e->path, CC_TXN_STATE "/" CC_TXN_MANIFESTS "/") && e->cudnn_major == c->src->major)
                        rc = add_op(c, CC_TXN_REMOVE, e->path, NULL, e->mode, e->size, NO_MEMBER);
        }
        if (rc == 0) {
                c->p->manifest_op = c->p->nops;
                rc = add_op(c, entry_at(in, path) ? CC_TXN_REPLACE : CC_TXN_PLACE, path, NULL, 0644,
                            CC_TXN_SIZE_UNKNOWN, NO_MEMBER);
        }
        free(path);
        return rc;
}

/* ---- the source and pairing checks ---------------------------------------- */

static const char *sys_name(int s)
{
        return s == CC_SYS_LINUX ? "linux" : s == CC_SYS_WINDOWS ? "windows" : "unknown";
}

static int source_checks(struct pctx *c)
{
        const cc_source *s = c->src;
        const cc_plan_in *in = c->in;
        size_t i;

        if (s->stops.n == 0)
                TRY_RET(check(c, "source", "ok", "%s: %s layout, %zu members", s->path, s->layout, s->n));
        for (i = 0; i < s->stops.n; i++)
                TRY_RET(check(c, "source", "stop", "%s", s->stops.v[i]));
        for (i = 0; i < s->warnings.n; i++)
                TRY_RET(check(c, "source", "warn", "%s", s->warnings.v[i]));
        if (s->version == NULL)
                TRY_RET(check(c, "version", "warn", "the release's version could not be read"));
        else
                TRY_RET(check(c, "version", "ok", "cuDNN %s", s->version));
        if (s->system == NULL)
                TRY_RET(check(c, "system", "warn", "the source's files do not say which system they are for"));
        else if (strcmp(s->system, sys_name(in->system)) != 0)
                TRY_RET(check(c, "system", "stop", "a %s release cannot be installed on %s", s->system,
                              sys_name(in->system)));
        else
                TRY_RET(check(c, "system", "ok", "a %s release", s->system));
        if (s->machine != NULL && in->machine != NULL) {
                if (strcmp(s->machine, in->machine) != 0)
                        TRY_RET(
                            check(c, "machine", "stop", "built for %s; this machine is %s", s->machine, in->machine));
                else
                        TRY_RET(check(c, "machine", "ok", "built for %s", s->machine));
        }
        if (in->toolkit) {
                if (s->cuda_major < 0)
                        TRY_RET(check(c, "cuda", "warn", "the CUDA major the release was built for is unknown"));
                else if (in->toolkit_cuda_major < 0)
                        TRY_RET(check(c, "cuda", "warn", "the toolkit's CUDA version is unknown (built for CUDA %d)",
                                      s->cuda_major));
                else if (s->cuda_major != in->toolkit_cuda_major)
                        TRY_RET(check(c, "cuda", forceable(c), "built for CUDA %d; the toolkit is CUDA %d%s",
                                      s->cuda_major, in->toolkit_cuda_major,
                                      in->force ? " (--force)" : " (--force to install it anyway)"));
                else
                        TRY_RET(check(c, "cuda", "ok", "built for CUDA %d, as the toolkit", s->cuda_major));
        }
        return 0;
}

static int target_checks(struct pctx *c)
{
        const cc_plan_in *in = c->in;

        if (in->target_world_writable)
                TRY_RET(check(c, "target", "stop",
                              "%s: writable by every user; cuDNN there could be replaced by anyone", in->target));
        else if (!in->target_writable)
                TRY_RET(check(c, "target", "stop", "%s: not writable by this user", in->target));
        else
                TRY_RET(check(c, "target", "ok", "%s: writable by this user only", in->target));
        if (in->free_bytes != UINT64_MAX) {
                /* the staged copy, plus a margin for the journal and the
                 * manifest; backups are renames and take no space */
                uint64_t need = c->p->stage_bytes + c->p->stage_bytes / 100 + (1u << 20);

                if (need > in->free_bytes)
                        TRY_RET(check(c, "space", "stop", "%llu bytes needed, %llu free on the target's file system",
                                      (unsigned long long)need, (unsigned long long)in->free_bytes));
                else
                        TRY_RET(check(c, "space", "ok", "%llu bytes needed, %llu free", (unsigned long long)need,
                                      (unsigned long long)in->free_bytes));
        }
        return 0;
}

/* ---- the document --------------------------------------------------------- */

/* A file's or directory's mode as octal text ("0755"); links and removals
 * carry none. */
static int set_mode(cc_value *v, const cc_txn_op *o, cc_error *err)
{
        char m[8];

        if (o->link != NULL || o->kind == CC_TXN_REMOVE || o->kind == CC_TXN_RMDIR)
                return 0;
        snprintf(m, sizeof(m), "%04o", o->mode & 07777);
        return cc_v_set_str(v, CC_K(plan_op, mode), m, err);
}

static int op_docs(struct pctx *c)
{
        const cc_plan *p = c->p;
        size_t i;

        for (i = 0; i < p->nops; i++) {
                const cc_txn_op *o = &p->ops[i];
                cc_value *v = cc_v_object(c->err);

                if (v == NULL)
                        return -1;
                if (cc_v_set_str(v, CC_K(plan_op, op), cc_txn_kind_name(o->kind), c->err) < 0 ||
                    cc_v_set_str(v, CC_K(plan_op, path), o->path, c->err) < 0 ||
                    (o->link && cc_v_set_str(v, CC_K(plan_op, link), o->link, c->err) < 0) ||
                    ((o->kind == CC_TXN_PLACE || o->kind == CC_TXN_REPLACE) && !o->link &&
                     o->size != CC_TXN_SIZE_UNKNOWN &&
                     cc_v_set_int(v, CC_K(plan_op, size), (int64_t)o->size, c->err) < 0) ||
                    set_mode(v, o, c->err) < 0 ||
                    (p->member[i] != NO_MEMBER &&
                     cc_v_set_str(v, CC_K(plan_op, from), c->src->m[p->member[i]].name, c->err) < 0)) {
                        cc_v_free(v);
                        return -1;
                }
                TRY_RET(cc_v_push(c->ops, v, c->err));
        }
        return 0;
}

static int summary(struct pctx *c, size_t n_replace, size_t n_removed, const cc_strv *others, cc_value *doc)
{
        const cc_plan *p = c->p;
        cc_value *sum = cc_v_object(c->err), *ov;
        size_t i, counts[CC_TXN_RMDIR + 1] = {0};

        if (sum == NULL)
                return -1;
        for (i = 0; i < p->nops; i++)
                counts[p->ops[i].kind]++;
        ov = cc_v_strv(others, c->err);
        if (cc_v_set_int(sum, CC_K(plan_summary, mkdir), (int64_t)counts[CC_TXN_MKDIR], c->err) < 0 ||
            cc_v_set_int(sum, CC_K(plan_summary, place), (int64_t)counts[CC_TXN_PLACE], c->err) < 0 ||
            cc_v_set_int(sum, CC_K(plan_summary, replace), (int64_t)counts[CC_TXN_REPLACE], c->err) < 0 ||
            cc_v_set_int(sum, CC_K(plan_summary, remove), (int64_t)counts[CC_TXN_REMOVE], c->err) < 0 ||
            cc_v_set_int(sum, CC_K(plan_summary, bytes), (int64_t)p->stage_bytes, c->err) < 0 ||
            cc_v_set(sum, CC_K(plan_summary, other_majors), ov, c->err) < 0 ||
            cc_v_set_bool(sum, CC_K(plan_summary, stop), p->stop, c->err) < 0) {
                cc_v_free(sum);
                return -1;
        }
        (void)n_replace;
        (void)n_removed;
        return cc_v_set(doc, CC_K(install_plan, summary), sum, c->err);
}

static cc_value *source_doc(const cc_source *s, cc_error *err)
{
        cc_value *v = cc_v_object(err);

        if (v == NULL)
                return NULL;
        if (cc_v_set_str(v, CC_K(plan_source, path), s->path, err) < 0 ||
            cc_v_set_str(v, CC_K(plan_source, kind), s->is_archive ? "archive" : "directory", err) < 0 ||
            cc_v_set_str(v, CC_K(plan_source, layout), s->layout, err) < 0 ||
            cc_v_set_str(v, CC_K(plan_source, version), s->version, err) < 0 ||
            (s->major >= 0 ? cc_v_set_int(v, CC_K(plan_source, major), s->major, err)
                           : cc_v_set_null(v, CC_K(plan_source, major), err)) < 0 ||
            (s->cuda_major >= 0 ? cc_v_set_int(v, CC_K(plan_source, cuda_major), s->cuda_major, err)
                                : cc_v_set_null(v, CC_K(plan_source, cuda_major), err)) < 0 ||
            cc_v_set_str(v, CC_K(plan_source, system), s->system, err) < 0 ||
            cc_v_set_str(v, CC_K(plan_source, machine), s->machine, err) < 0 ||
            cc_v_set_int(v, CC_K(plan_source, members), (int64_t)s->n, err) < 0 ||
            cc_v_set_int(v, CC_K(plan_source, bytes), (int64_t)s->bytes, err) < 0 ||
            cc_v_set(v, CC_K(plan_source, versions), s->versions ? cc_v_copy(s->versions, err) : cc_v_array(err), err) <
                0) {
                cc_v_free(v);
                return NULL;
        }
        return v;
}

static cc_value *target_doc(const cc_plan_in *in, cc_error *err)
{
        cc_value *v = cc_v_object(err);

        if (v == NULL)
                return NULL;
        if (cc_v_set_str(v, CC_K(plan_target, path), in->target, err) < 0 ||
            cc_v_set_str(v, CC_K(plan_target, kind), in->toolkit ? "cuda-toolkit" : "prefix", err) < 0 ||
            cc_v_set_str(v, CC_K(plan_target, system), sys_name(in->system), err) < 0 ||
            (in->toolkit && in->toolkit_cuda_major >= 0
                 ? cc_v_set_int(v, CC_K(plan_target, cuda_major), in->toolkit_cuda_major, err)
                 : cc_v_set_null(v, CC_K(plan_target, cuda_major), err)) < 0 ||
            cc_v_set_str(v, CC_K(plan_target, manifest), in->manifest_id, err) < 0) {
                cc_v_free(v);
                return NULL;
        }
        return v;
}

int cc_install_plan(const cc_source *src, const cc_plan_in *in, cc_plan *out, cc_error *err)
{
        struct pctx c;
        cc_value *doc = NULL;
        cc_strv others = {0};
        size_t n_replace = 0, n_foreign = 0, n_removed = 0;

        memset(out, 0, sizeof(*out));
        memset(&c, 0, sizeof(c));
        c.src = src;
        c.in = in;
        c.p = out;
        c.err = err;
        c.checks = cc_v_array(err);
        c.ops = cc_v_array(err);
        doc = cc_v_object(err);
        if (c.checks == NULL || c.ops == NULL || doc == NULL)
                goto fail;
        TRY(source_checks(&c));
        if (src->stops.n == 0) {
                TRY(place_members(&c, 0, &n_replace, &n_foreign));
                TRY(place_members(&c, 1, &n_replace, &n_foreign));
                TRY(remove_old(&c, &n_removed, &others));
                TRY(manifest_ops(&c));
                if (n_replace + n_removed > 0)
                        TRY(check(&c, "same-major", "ok",
                                  "%zu files of the cuDNN %d release in the target replaced, %zu removed: no file of "
                                  "it stays",
                                  n_replace, src->major, n_removed));
                if (others.n > 0)
                        TRY(check(&c, "other-majors", "ok",
                                  "%zu files of other cuDNN majors in the target are left as they are", others.n));
                if (n_foreign == 0)
                        TRY(check(&c, "foreign-files", "ok", "nothing but cuDNN's own files is replaced"));
        }
        TRY(target_checks(&c));
        TRY(op_docs(&c));
        TRY(cc_v_set(doc, CC_K(install_plan, source), source_doc(src, err), err));
        TRY(cc_v_set(doc, CC_K(install_plan, target), target_doc(in, err), err));
        TRY(cc_v_set(doc, CC_K(install_plan, checks), c.checks, err));
        c.checks = NULL;
        TRY(cc_v_set(doc, CC_K(install_plan, operations), c.ops, err));
        c.ops = NULL;
        TRY(summary(&c, n_replace, n_removed, &others, doc));
        out->doc = doc;
        cc_strv_free(&others);
        return 0;
fail:
        cc_v_free(c.checks);
        cc_v_free(c.ops);
        cc_v_free(doc);
        cc_strv_free(&others);
        cc_plan_free(out);
        return -1;
}

void cc_plan_free(cc_plan *p)
{
        size_t i;

        for (i = 0; i < p->nops; i++) {
                free(p->ops[i].path);
                free(p->ops[i].link);
        }
        free(p->ops);
        free(p->member);
        cc_v_free(p->doc);
        memset(p, 0, sizeof(*p));
}
