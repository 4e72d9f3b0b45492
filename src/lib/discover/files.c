/* Reading each file discovery found, once: its symbolic link chain step by
 * step as stored (broken, looping and not-a-file ends kept), and its content
 * facts (inspect), read once for files that are one file under several names
 * or have the same size and identity. Decides nothing about installations. */
#include "group.h"

#include "../facts/views.h"

#include "../inspect/inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINK_STEPS 40

char *cc_disc_file_host(const cc_discovery *d, const cc_dfile *f, cc_error *err)
{
        return cc_path_join(d->dirs[f->dir]->host, f->name, err);
}

/* Read a small file of the tree; *text NULL (and 0) when it is not there or
 * cannot be read. -1 only when out of memory. */
int cc_disc_read_small(const cc_discovery *d, const char *vpath, size_t max, char **text, size_t *len, cc_error *err)
{
        cc_error rerr = {0};

        *text = NULL;
        *len = 0;
        if (cc_tree_read(d->t, vpath, max, text, len, &rerr) < 0) {
                free(*text);
                *text = NULL;
                if (rerr.code == CC_ERR_NOMEM) {
                        *err = rerr;
                        return -1;
                }
        }
        return 0;
}

int cc_disc_exists(const cc_discovery *d, const char *vpath, cc_error *err)
{
        cc_stat st;

        if (cc_tree_stat(d->t, vpath, &st, err) < 0)
                return err->code == CC_ERR_NOMEM ? -1 : (cc_err_clear(err), 0);
        return st.type != CC_FT_NONE;
}

/* f takes the content facts of file `same`, read already under another name
 * (a hard link): kind, SONAME, error and the versions, but its own
 * file-name version. */
static int facts_of_same(cc_dfile *f, const cc_dfile *same, uint64_t size, cc_error *err)
{
        size_t i;

        f->size = size;
        if ((same->kind && (f->kind = cc_strdup(err, same->kind)) == NULL) ||
            (same->soname && (f->soname = cc_strdup(err, same->soname)) == NULL) ||
            (same->error && (f->error = cc_strdup(err, same->error)) == NULL))
                return -1;
        f->versions = cc_v_array(err);
        if (f->versions == NULL)
                return -1;
        if (f->ln.version.n) {
                char vb[64];
                cc_value *e = cc_v_object(err);

                if (cc_v_push(f->versions, e, err) < 0 || cc_v_set_str(e, CC_K(version, component), "cudnn", err) < 0 ||
                    cc_v_set_str(e, CC_K(version, source), "file-name", err) < 0 ||
                    cc_v_set_str(e, CC_K(version, version), cudnnctl_ver_str(&f->ln.version, vb, sizeof(vb)), err) < 0)
                        return -1;
        }
        for (i = 0; i < cc_v_len(same->versions); i++) {
                cc_vw_version e;

                cc_vw_version_at(same->versions, i, &e, NULL);
                if (e.source != NULL && strcmp(e.source, "file-name") == 0)
                        continue;
                if (cc_v_push(f->versions, cc_v_copy(cc_v_at(same->versions, i), err), err) < 0)
                        return -1;
        }
        return 0;
}

/* The ids key of the headers of a size. */
static void size_key(char key[32], uint64_t size)
{
        snprintf(key, 32, "s:%llx", (unsigned long long)size);
}

/* What one examination of the files keeps: the first file read of each
 * (device, inode) and of each header size ("s:SIZE"), and the bytes of the
 * first headers of each size, up to a budget, so that its twin is compared
 * with them instead of read again. */
enum { KEEP_HEADERS = 64, KEEP_BYTES = 4 << 20 };

struct exam {
        cc_smap ids; /* "dev:ino" and "s:SIZE" -> index + 1 of the file read first */
        struct {
                size_t fi;
                cc_map map;
        } kept[KEEP_HEADERS];
        size_t nkept, bytes;
};

static const cc_map *kept_bytes(const struct exam *x, size_t fi)
{
        size_t i;

        for (i = 0; i < x->nkept; i++)
                if (x->kept[i].fi == fi)
                        return &x->kept[i].map;
        return NULL;
}

/* Keep mp (taken: unmapped here when there is no room) as the bytes of file fi. */
static void keep_bytes(struct exam *x, size_t fi, cc_map *mp)
{
        if (x->nkept < KEEP_HEADERS && mp->size <= KEEP_BYTES - x->bytes) {
                x->kept[x->nkept].fi = fi;
                x->kept[x->nkept].map = *mp;
                x->nkept++;
                x->bytes += mp->size;
                memset(mp, 0, sizeof(*mp));
                return;
        }
        cc_unmap(mp);
}

/* 1 when the header read first with this size (ids: "s:SIZE") holds the
 * same bytes as data: cuDNN ships each header twice (cudnn_ops.h and
 * cudnn_ops_v9.h, byte for byte), and comparing costs a hundredth of
 * parsing (its bytes kept, or read again past the budget). *same is then
 * its index. 0 otherwise (not read, not a header, different, changed while
 * compared); -1 only when out of memory. */
static int same_header(cc_discovery *d, struct exam *x, size_t fi, const cc_map *mp, size_t *same, cc_error *err)
{
        const cc_dfile *g;
        const cc_map *kept;
        char key[32], *host;
        cc_map gm;
        cc_error merr = {0};
        void *v;
        int eq;

        size_key(key, mp->size);
        if (mp->size == 0 || !cc_smap_get(&x->ids, key, &v) || xi(v) == fi)
                return 0;
        g = d->files[xi(v)];
        if (g->error != NULL || g->kind == NULL || strcmp(g->kind, "header") != 0 || g->size != mp->size)
                return 0;
        *same = xi(v);
        kept = kept_bytes(x, xi(v));
        if (kept != NULL)
                return kept->size == mp->size && memcmp(kept->data, mp->data, mp->size) == 0 && !cc_map_changed(kept) &&
                       !cc_map_changed(mp);
        host = cc_disc_file_host(d, g, err);
        if (host == NULL)
                return -1;
        if (cc_map_file(host, MAX_HEADER, &gm, &merr) < 0) {
                free(host);
                if (merr.code == CC_ERR_NOMEM) {
                        *err = merr;
                        return -1;
                }
                return 0;
        }
        free(host);
        eq = gm.size == mp->size && memcmp(gm.data, mp->data, mp->size) == 0 && !cc_map_changed(&gm) &&
             !cc_map_changed(mp);
        cc_unmap(&gm);
        return eq;
}

/* Inspect a file's content (the inspect module's reader: ELF, PE, headers,
 * archives) and keep what discovery needs. A file (device, inode) is read
 * once per discovery: ids maps "dev:ino" to the index + 1 of the file read
 * first, whose facts a hard link to it takes over; a header whose bytes are
 * those of a header read before (same_header) takes that one's facts too. */
static int inspect_host(cc_discovery *d, struct exam *x, size_t fi, const char *host, cc_error *err)
{
        cc_dfile *f = d->files[fi];
        cc_map mp;
        cc_error merr = {0};
        cc_value *obj = NULL, *vers;
        cc_vw_ins_facts fx;
        cc_vw_ins_elf elf;
        const char *s;
        char key[48] = "";
        void *v;

        if (cc_map_file(host, f->ln.kind == CC_FK_HEADER ? MAX_HEADER : 0, &mp, &merr) < 0) {
                if (merr.code == CC_ERR_NOMEM) {
                        *err = merr;
                        return -1;
                }
                {
                        const char *m = merr.msg;
                        size_t n = strlen(host);

                        if (strncmp(m, host, n) == 0 && m[n] == ':' && m[n + 1] == ' ')
                                m += n + 2;
                        f->error = cc_strdup(err, m);
                }
                f->kind = cc_strdup(err, "unreadable");
                f->versions = cc_v_array(err);
                return f->error && f->kind && f->versions ? 0 : -1;
        }
        if (mp.dev != 0 || mp.ino != 0) {
                snprintf(key, sizeof(key), "%llx:%llx", (unsigned long long)mp.dev, (unsigned long long)mp.ino);
                if (cc_smap_get(&x->ids, key, &v) && xi(v) != fi) {
                        uint64_t size = mp.size;

                        cc_unmap(&mp);
                        return facts_of_same(f, d->files[xi(v)], size, err);
                }
        }
        if (f->ln.kind == CC_FK_HEADER) {
                size_t same = 0;
                int rc = same_header(d, x, fi, &mp, &same, err);

                if (rc != 0) {
                        uint64_t size = mp.size;

                        cc_unmap(&mp);
                        return rc < 0 ? -1 : facts_of_same(f, d->files[same], size, err);
                }
        }
        obj = cc_v_object(err);
        if (obj == NULL || cc_inspect_bytes(f->name, mp.data, mp.size, CC_INSPECT_VERSIONS_ONLY, obj, err) < 0) {
                cc_unmap(&mp);
                cc_v_free(obj);
                return -1;
        }
        f->size = mp.size;
        if (cc_map_changed(&mp)) {
                /* truncated or rewritten while read (an upgrade in progress):
                 * nothing from its content, and not remembered for its links */
                cc_unmap(&mp);
                cc_v_free(obj);
                f->kind = cc_strdup(err, "unreadable");
                f->error = cc_strdup(err, "changed while read");
                f->versions = cc_v_array(err);
                return f->error && f->kind && f->versions ? 0 : -1;
        }
        if (key[0] != '\0' && !cc_smap_get(&x->ids, key, NULL) && cc_smap_put(&x->ids, key, ix(fi), NULL, err) < 0) {
                cc_unmap(&mp);
                goto fail;
        }
        cc_vw_ins_facts_read(obj, &fx, NULL);
        cc_vw_ins_elf_read(fx.elf, &elf, NULL);
        s = fx.kind;
        if (f->ln.kind == CC_FK_HEADER && f->size > 0 && fx.error == NULL && s != NULL && strcmp(s, "header") == 0) {
                char sk[32];

                size_key(sk, f->size);
                if (!cc_smap_get(&x->ids, sk, NULL)) {
                        if (cc_smap_put(&x->ids, sk, ix(fi), NULL, err) < 0) {
                                cc_unmap(&mp);
                                goto fail;
                        }
                        keep_bytes(x, fi, &mp); /* the first of its size: its twin is compared with it */
                }
        }
        cc_unmap(&mp);
        if (s != NULL && (f->kind = cc_strdup(err, s)) == NULL)
                goto fail;
        if ((s = elf.soname) != NULL && (f->soname = cc_strdup(err, s)) == NULL)
                goto fail;
        if ((s = fx.error) != NULL && (f->error = cc_strdup(err, s)) == NULL)
                goto fail;
        vers = cc_v_take(obj, CC_K(ins_facts, versions));
        f->versions = vers ? vers : cc_v_array(err);
        if (f->versions == NULL)
                goto fail;
        cc_v_free(obj);
        return 0;
fail:
        cc_v_free(obj);
        return -1;
}

/* Follow a link step by step, recording each link and its target as stored. */
static int follow_links(cc_discovery *d, cc_dfile *f, cc_error *err)
{
        cc_strv seen = {0};
        char *cur = NULL, *dir = NULL, *next = NULL, *target = NULL;
        int steps, rv = -1;

        f->link_state = "dangling";
        cur = cc_strdup(err, f->canonical);
        if (cur == NULL || cc_strv_push(&seen, cur, err) < 0)
                goto fail;
        for (steps = 0;; steps++) {
                cc_tree_res r;
                cc_error lerr = {0};

                if (steps >= MAX_LINK_STEPS) {
                        f->link_state = "loop";
                        break;
                }
                target = cc_tree_readlink(d->t, cur, &lerr);
                if (target == NULL) {
                        if (lerr.code == CC_ERR_NOMEM) {
                                *err = lerr;
                                goto fail;
                        }
                        break;
                }
                if (steps == 0 && (f->target = cc_strdup(err, target)) == NULL)
                        goto fail;
                TRY(cc_strv_push(&f->chain, cur, err));
                TRY(cc_strv_push(&f->chain, target, err));
                if (cc_tree_is_abs(d->t, target)) {
                        next = cc_tree_abs(d->t, NULL, target, err);
                } else {
                        dir = cc_tree_dirname(d->t, cur, err);
                        next = dir ? cc_tree_abs(d->t, dir, target, err) : NULL;
                        free(dir);
                        dir = NULL;
                }
                free(target);
                target = NULL;
                if (next == NULL)
                        goto fail;
                TRY(cc_tree_resolve(d->t, next, 0, &r, err));
                free(next);
                next = NULL;
                if (r.st.type == CC_FT_NONE) {
                        f->link_state = strstr(r.why, "too many levels") ? "loop" : "dangling";
                        cc_tree_res_free(&r);
                        break;
                }
                if (r.st.type == CC_FT_LINK) {
                        if (cc_strv_contains(&seen, r.canonical)) {
                                f->link_state = "loop";
                                cc_tree_res_free(&r);
                                break;
                        }
                        free(cur);
                        cur = r.canonical;
                        r.canonical = NULL;
                        cc_tree_res_free(&r);
                        TRY(cc_strv_push(&seen, cur, err));
                        continue;
                }
                if (r.st.type == CC_FT_FILE) {
                        f->link_state = "ok";
                        f->resolves_to = r.canonical;
                        r.canonical = NULL;
                } else {
                        f->link_state = "not-a-file";
                }
                cc_tree_res_free(&r);
                break;
        }
        rv = 0;
fail:
        cc_strv_free(&seen);
        free(cur);
        free(dir);
        free(next);
        free(target);
        return rv;
}

int cc_disc_examine_files(cc_discovery *d, cc_error *err)
{
        size_t i, n = d->nfiles;
        struct exam x;
        int rv = -1;

        memset(&x, 0, sizeof(x));

        for (i = 0; i < n; i++) {
                cc_dfile *f = d->files[i];
                char *host;
                int rc;

                if (f->type != CC_FT_FILE)
                        continue;
                host = cc_disc_file_host(d, f, err);
                if (host == NULL)
                        goto fail;
                rc = inspect_host(d, &x, i, host, err);
                free(host);
                if (rc < 0)
                        goto fail;
        }
        for (i = 0; i < n; i++) {
                cc_dfile *f = d->files[i];
                void *v;

                if (f->type != CC_FT_LINK)
                        continue;
                if (follow_links(d, f, err) < 0)
                        goto fail;
                if (f->resolves_to == NULL)
                        continue;
                if (cc_smap_get(&d->file_idx, f->resolves_to, &v)) {
                        const cc_dfile *t = d->files[xi(v)];

                        if (t->soname && (f->soname = cc_strdup(err, t->soname)) == NULL)
                                goto fail;
                        continue;
                }
                /* a target outside every directory walked: read it for this link */
                {
                        cc_error herr = {0};
                        char *host = cc_tree_host(d->t, f->resolves_to, &herr);
                        int rc;

                        if (host == NULL) {
                                if (herr.code == CC_ERR_NOMEM) {
                                        *err = herr;
                                        goto fail;
                                }
                                continue;
                        }
                        rc = inspect_host(d, &x, i, host, err);
                        free(host);
                        if (rc < 0 || cc_smap_put(&d->file_idx, f->resolves_to, ix(i), NULL, err) < 0)
                                goto fail;
                }
        }
        for (i = 0; i < n; i++)
                if (d->files[i]->versions == NULL && d->files[i]->type == CC_FT_LINK &&
                    d->files[i]->resolves_to == NULL && (d->files[i]->versions = cc_v_array(err)) == NULL)
                        goto fail;
        rv = 0;
fail:
        for (i = 0; i < x.nkept; i++)
                cc_unmap(&x.kept[i].map);
        cc_smap_free(&x.ids);
        return rv;
}
