/* Discovery, part two: the files found become installations. One prefix
 * (the directory above lib, lib64, lib/x64, bin, bin/x64, bin/12.x,
 * include...; the distro's /usr with its multiarch directories;
 * site-packages/nvidia/cudnn; a conda environment) is one installation, with
 * its provenance (the package database, the dist-info, conda-meta, the
 * archive's name and license, the toolkit's own files), the versions every
 * source gives (kept apart, a summary only when they agree), the symbolic
 * link chains as they are, and the problems seen (broken, looping and
 * flattened chains, mixed versions in one directory, headers that disagree
 * with the libraries). Unknown stays unknown. */
#include "discover.h"

#include "../formats/cheader.h"
#include "../formats/distinfo.h"
#include "../formats/dpkg.h"
#include "../inspect/inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINK_STEPS 40
#define MAX_PREFIX_ALIASES 16
#define MAX_SMALL ((size_t)4 << 20)
#define MAX_HEADER ((size_t)16 << 20)
#define MAX_COMPARE ((uint64_t)512 << 20)

#define TRY(x)                                                                                                         \
        do {                                                                                                           \
                if ((x) < 0)                                                                                           \
                        goto fail;                                                                                     \
        } while (0)

/* ---- fact trees ------------------------------------------------------------- */

/* ---- virtual path components -------------------------------------------------- */

/* Split a canonical virtual path into components (a Windows drive is left
 * out: every path in a tree is on C:). */
static int split(const cc_discovery *d, const char *p, cc_strv *out, cc_error *err)
{
        if (d->system == CC_SYS_WINDOWS && p[0] && p[1] == ':')
                p += 2;
        while (*p) {
                const char *s;

                while (*p == '/' || *p == '\\')
                        p++;
                s = p;
                while (*p && *p != '/' && *p != '\\')
                        p++;
                if (p > s && cc_strv_pushn(out, s, (size_t)(p - s), err) < 0)
                        return -1;
        }
        return 0;
}

static char *join_comps(const cc_discovery *d, char *const *c, size_t n, cc_error *err)
{
        cc_buf b = {0};
        size_t i;

        if (cc_buf_puts(&b, d->system == CC_SYS_WINDOWS ? "C:\\" : "/", err) < 0)
                goto fail;
        for (i = 0; i < n; i++)
                if ((i && cc_buf_putc(&b, d->sep, err) < 0) || cc_buf_puts(&b, c[i], err) < 0)
                        goto fail;
        return cc_buf_steal(&b);
fail:
        cc_buf_free(&b);
        return NULL;
}

static int is_multiarch(const char *s)
{
        return strstr(s, "-linux-gnu") != NULL || strcmp(s, "sbsa-linux") == 0 || strcmp(s, "aarch64-linux") == 0;
}

static int digit_first(const char *s)
{
        return s[0] >= '0' && s[0] <= '9';
}

/* How many leading components of a library/header directory form its
 * installation prefix. */
static size_t prefix_len(const cc_discovery *d, const cc_strv *c)
{
        size_t n = c->n, base;

#define EQ(i, s) cc_disc_name_eq(d, c->v[i], s)
#define LIBDIR(i) (EQ(i, "lib") || EQ(i, "lib64") || EQ(i, "lib32"))
        if (n >= 3 && EQ(n - 3, "targets") && (LIBDIR(n - 1) || EQ(n - 1, "include")))
                return n - 3; /* the toolkit's targets/x86_64-linux/lib */
        if (n >= 2 && is_multiarch(c->v[n - 1]) && (LIBDIR(n - 2) || EQ(n - 2, "include")))
                return n - 2; /* /usr/lib/x86_64-linux-gnu */
        if (n >= 3 && EQ(n - 1, "x64") && digit_first(c->v[n - 2]) && (EQ(n - 3, "lib") || EQ(n - 3, "bin")))
                base = n - 3; /* lib/12.x/x64 */
        else if (n >= 2 && EQ(n - 1, "x64") && (EQ(n - 2, "lib") || EQ(n - 2, "bin")))
                base = n - 2; /* lib/x64, bin/x64 */
        else if (n >= 2 && digit_first(c->v[n - 1]) && (EQ(n - 2, "lib") || EQ(n - 2, "bin") || EQ(n - 2, "include")))
                base = n - 2; /* bin/12.x, include/12.x */
        else if (n >= 1 && (LIBDIR(n - 1) || EQ(n - 1, "bin") || EQ(n - 1, "include")))
                base = n - 1;
        else
                return n; /* the directory itself (System32, a PATH directory, torch/lib...) */
        if (d->system == CC_SYS_WINDOWS && base >= 1 && EQ(base - 1, "Library"))
                base--; /* a conda environment's Library\bin */
#undef EQ
#undef LIBDIR
        return base;
}

static char *prefix_of(const cc_discovery *d, const char *dir, char **rel, cc_error *err)
{
        cc_strv c = {0};
        char *p = NULL;
        size_t k, i;

        if (rel)
                *rel = NULL;
        if (split(d, dir, &c, err) < 0)
                goto done;
        k = prefix_len(d, &c);
        p = join_comps(d, c.v, k, err);
        /* A live Windows machine has other drives than C: (D:, Wine's Z:):
         * the prefix keeps the directory's own. */
        if (p != NULL && d->system == CC_SYS_WINDOWS && dir[0] != '\0' && dir[1] == ':' &&
            cc_ascii_tolower(dir[0]) != 'c')
                p[0] = dir[0];
        if (p != NULL && rel != NULL) {
                cc_buf b = {0};

                for (i = k; i < c.n; i++)
                        if ((i > k && cc_buf_putc(&b, '/', err) < 0) || cc_buf_puts(&b, c.v[i], err) < 0) {
                                cc_buf_free(&b);
                                free(p);
                                p = NULL;
                                goto done;
                        }
                *rel = b.data ? cc_buf_steal(&b) : cc_strdup(err, "");
                if (*rel == NULL) {
                        free(p);
                        p = NULL;
                }
        }
done:
        cc_strv_free(&c);
        return p;
}

/* ---- reading files -------------------------------------------------------------- */

static char *file_host(const cc_discovery *d, const cc_dfile *f, cc_error *err)
{
        return cc_path_join(d->dirs[f->dir]->host, f->name, err);
}

/* Read a small file of the tree; *text NULL (and 0) when it is not there or
 * cannot be read. -1 only when out of memory. */
static int read_small(const cc_discovery *d, const char *vpath, size_t max, char **text, size_t *len, cc_error *err)
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

static int exists(const cc_discovery *d, const char *vpath, cc_error *err)
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

                if (cc_v_push(f->versions, e, err) < 0 || cc_v_set_str(e, "component", "cudnn", err) < 0 ||
                    cc_v_set_str(e, "source", "file-name", err) < 0 ||
                    cc_v_set_str(e, "version", cudnnctl_ver_str(&f->ln.version, vb, sizeof(vb)), err) < 0)
                        return -1;
        }
        for (i = 0; i < cc_v_len(same->versions); i++) {
                const cc_value *e = cc_v_at(same->versions, i);
                const char *src = cc_v_get_str(e, "source");

                if (src != NULL && strcmp(src, "file-name") == 0)
                        continue;
                if (cc_v_push(f->versions, cc_v_copy(e, err), err) < 0)
                        return -1;
        }
        return 0;
}

/* Inspect a file's content (the inspect module's reader: ELF, PE, headers,
 * archives) and keep what discovery needs. A file (device, inode) is read
 * once per discovery: ids maps "dev:ino" to the index + 1 of the file read
 * first, whose facts a hard link to it takes over. */
static int inspect_host(cc_discovery *d, cc_smap *ids, size_t fi, const char *host, cc_error *err)
{
        cc_dfile *f = d->files[fi];
        cc_map mp;
        cc_error merr = {0};
        cc_value *obj = NULL, *vers;
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
                if (cc_smap_get(ids, key, &v) && xi(v) != fi) {
                        uint64_t size = mp.size;

                        cc_unmap(&mp);
                        return facts_of_same(f, d->files[xi(v)], size, err);
                }
        }
        obj = cc_v_object(err);
        if (obj == NULL || cc_inspect_bytes(f->name, mp.data, mp.size, 0, obj, err) < 0) {
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
        cc_unmap(&mp);
        if (key[0] != '\0' && !cc_smap_get(ids, key, NULL) && cc_smap_put(ids, key, ix(fi), NULL, err) < 0)
                goto fail;
        if ((s = cc_v_get_str(obj, "kind")) != NULL && (f->kind = cc_strdup(err, s)) == NULL)
                goto fail;
        if ((s = cc_v_getstr(cc_v_path(obj, "elf/soname"))) != NULL && (f->soname = cc_strdup(err, s)) == NULL)
                goto fail;
        if ((s = cc_v_get_str(obj, "error")) != NULL && (f->error = cc_strdup(err, s)) == NULL)
                goto fail;
        vers = cc_v_take(obj, "versions");
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

static int examine_files(cc_discovery *d, cc_error *err)
{
        size_t i, n = d->nfiles;
        cc_smap ids = {0}; /* "dev:ino" -> index + 1 of the file read first */
        int rv = -1;

        for (i = 0; i < n; i++) {
                cc_dfile *f = d->files[i];
                char *host;
                int rc;

                if (f->type != CC_FT_FILE)
                        continue;
                host = file_host(d, f, err);
                if (host == NULL)
                        goto fail;
                rc = inspect_host(d, &ids, i, host, err);
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
                        rc = inspect_host(d, &ids, i, host, err);
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
        cc_smap_free(&ids);
        return rv;
}

/* ---- the dpkg database ----------------------------------------------------------- */

struct dpkg_db {
        cc_dpkg_status *status;
        cc_smap owner; /* listed path of a cuDNN file -> package index + 1 */
        cc_strv pkgs;  /* package names */
        cc_strv archs; /* their architectures ("" none) */
        size_t lists;  /* .list files read */
        int rpm;       /* no dpkg, but an RPM database */
};

void cc_disc_dpkg_free(void *p)
{
        struct dpkg_db *db = p;

        if (db == NULL)
                return;
        cc_dpkg_status_free(db->status);
        cc_smap_free(&db->owner);
        cc_strv_free(&db->pkgs);
        cc_strv_free(&db->archs);
        free(db);
}

struct list_ctx {
        struct dpkg_db *db;
        size_t pkg;
        cc_error *err;
        int failed;
};

static int list_line(void *ctx, const char *path, size_t n)
{
        struct list_ctx *lc = ctx;
        cc_libname ln;

        (void)n;
        if (cc_name_library(cc_basename(path), &ln) < 0 || cc_smap_get(&lc->db->owner, path, NULL))
                return 0;
        if (cc_smap_put(&lc->db->owner, path, ix(lc->pkg), NULL, lc->err) < 0) {
                lc->failed = 1;
                return 1;
        }
        return 0;
}

static int dpkg_load(cc_discovery *d, cc_error *err)
{
        struct dpkg_db *db;
        char *text = NULL;
        size_t len, i;
        cc_strv names = {0};
        cc_error lerr = {0};
        int rv = -1;

        if (d->dpkg_state != 0)
                return 0;
        db = cc_calloc(err, 1, sizeof(*db));
        if (db == NULL)
                return -1;
        d->dpkg = db;
        d->dpkg_state = -1;
        TRY(read_small(d, "/var/lib/dpkg/status", (size_t)256 << 20, &text, &len, err));
        if (text == NULL) {
                int r1 = exists(d, "/var/lib/rpm", err), r2 = exists(d, "/usr/lib/sysimage/rpm", err);

                if (r1 < 0 || r2 < 0)
                        goto fail;
                db->rpm = r1 || r2;
                rv = 0;
                goto fail;
        }
        if (cc_dpkg_status_parse(text, len, &db->status, &lerr) < 0) {
                if (lerr.code == CC_ERR_NOMEM) {
                        *err = lerr;
                        goto fail;
                }
                TRY(cc_strv_push(&d->notes, "the dpkg status file could not be read; package versions are unknown",
                                 err));
                db->status = NULL;
        }
        free(text);
        text = NULL;
        d->dpkg_state = 1;
        if (cc_tree_list(d->t, "/var/lib/dpkg/info", 0, &names, &lerr) < 0) {
                if (lerr.code == CC_ERR_NOMEM) {
                        *err = lerr;
                        goto fail;
                }
                rv = 0;
                goto fail;
        }
        for (i = 0; i < names.n; i++) {
                char pkg[256], arch[64], *p;
                struct list_ctx lc;

                if (cc_dpkg_list_name(names.v[i], pkg, sizeof(pkg), arch, sizeof(arch)) < 0)
                        continue;
                p = cc_disc_join(d, "/var/lib/dpkg/info", names.v[i], err);
                if (p == NULL)
                        goto fail;
                if (read_small(d, p, (size_t)64 << 20, &text, &len, err) < 0) {
                        free(p);
                        goto fail;
                }
                free(p);
                if (text == NULL)
                        continue;
                db->lists++;
                TRY(cc_strv_push(&db->pkgs, pkg, err));
                TRY(cc_strv_push(&db->archs, arch, err));
                lc.db = db;
                lc.pkg = db->pkgs.n - 1;
                lc.err = err;
                lc.failed = 0;
                if (cc_dpkg_list_each(text, len, list_line, &lc) < 0 && !lc.failed) {
                        cc_err(err, CC_ERR_NOMEM, "out of memory reading the dpkg file lists");
                        goto fail;
                }
                if (lc.failed)
                        goto fail;
                free(text);
                text = NULL;
        }
        rv = 0;
fail:
        free(text);
        cc_strv_free(&names);
        return rv;
}

/* The package that lists path (also its /usr-merged twin), or -1. */
static long dpkg_owner(const struct dpkg_db *db, const char *path, cc_error *err)
{
        void *v;
        char *alt;
        long r = -1;

        if (cc_smap_get(&db->owner, path, &v))
                return (long)xi(v);
        alt = strncmp(path, "/usr/", 5) == 0 ? cc_strdup(err, path + 4) : cc_asprintf(err, "/usr%s", path);
        if (alt == NULL)
                return -2;
        if (cc_smap_get(&db->owner, alt, &v))
                r = (long)xi(v);
        free(alt);
        return r;
}

/* The Debian version's upstream part: "1:9.14.0.64-1" -> "9.14.0.64". */
static void upstream_version(const char *v, char *out, size_t n)
{
        const char *c = strchr(v, ':'), *e;

        if (c != NULL)
                v = c + 1;
        e = strrchr(v, '-');
        snprintf(out, n, "%.*s", (int)(e ? (size_t)(e - v) : strlen(v)), v);
}

/* ---- installations ---------------------------------------------------------------- */

void cc_disc_inst_free(cc_dinst *in)
{
        if (in == NULL)
                return;
        free(in->prefix);
        cc_strv_free(&in->aliases);
        free(in->files);
        cc_strv_free(&in->dirs);
        cc_v_free(in->provenance);
        cc_v_free(in->extra);
        cc_v_free(in->problems);
        cc_v_free(in->facts);
        cc_strv_free(&in->notes);
        free(in);
}

static int inst_add_file(cc_dinst *in, size_t fi, cc_error *err)
{
        if (in->nfiles == in->cap) {
                size_t nc = in->cap ? in->cap * 2 : 16;
                size_t *nf = cc_realloc(err, in->files, nc * sizeof(*nf));

                if (nf == NULL)
                        return -1;
                in->files = nf;
                in->cap = nc;
        }
        in->files[in->nfiles++] = fi;
        return 0;
}

static int add_prefix_alias(const cc_discovery *d, cc_dinst *in, const char *dirpath, cc_error *err)
{
        char *p = prefix_of(d, dirpath, NULL, err);
        size_t i;

        if (p == NULL)
                return -1;
        if (cc_tree_path_eq(d->t, p, in->prefix) || in->aliases.n >= MAX_PREFIX_ALIASES) {
                free(p);
                return 0;
        }
        for (i = 0; i < in->aliases.n; i++)
                if (cc_tree_path_eq(d->t, p, in->aliases.v[i])) {
                        free(p);
                        return 0;
                }
        return cc_strv_take(&in->aliases, p, err);
}

static int group(cc_discovery *d, cc_error *err)
{
        cc_smap by_prefix = {0};
        size_t i, k;
        int rv = -1;

        by_prefix.nocase = d->nocase;
        for (i = 0; i < d->nfiles; i++) {
                cc_dfile *f = d->files[i];
                const cc_ddir *dd = d->dirs[f->dir];
                char *p = prefix_of(d, dd->canonical, NULL, err);
                cc_dinst *in;
                void *v;

                if (p == NULL)
                        goto fail;
                if (cc_smap_get(&by_prefix, p, &v)) {
                        in = d->insts[xi(v)];
                        free(p);
                } else {
                        if (d->ninsts == d->insts_cap) {
                                size_t nc = d->insts_cap ? d->insts_cap * 2 : 16;
                                cc_dinst **ni = cc_realloc(err, d->insts, nc * sizeof(*ni));

                                if (ni == NULL) {
                                        free(p);
                                        goto fail;
                                }
                                d->insts = ni;
                                d->insts_cap = nc;
                        }
                        in = cc_calloc(err, 1, sizeof(*in));
                        if (in == NULL) {
                                free(p);
                                goto fail;
                        }
                        in->prefix = p;
                        d->insts[d->ninsts++] = in;
                        in->extra = cc_v_array(err);
                        in->problems = cc_v_array(err);
                        if (in->extra == NULL || in->problems == NULL ||
                            cc_smap_put(&by_prefix, p, ix(d->ninsts - 1), NULL, err) < 0)
                                goto fail;
                }
                TRY(inst_add_file(in, i, err));
                if (!cc_strv_contains(&in->dirs, dd->canonical)) {
                        TRY(cc_strv_push(&in->dirs, dd->canonical, err));
                        TRY(add_prefix_alias(d, in, dd->first, err));
                        for (k = 0; k < dd->aliases.n; k++)
                                TRY(add_prefix_alias(d, in, dd->aliases.v[k], err));
                }
        }
        for (i = 0; i < d->ninsts; i++)
                for (k = 0; k < d->insts[i]->nfiles; k++)
                        d->files[d->insts[i]->files[k]]->inst = i + 1;
        rv = 0;
fail:
        cc_smap_free(&by_prefix);
        return rv;
}

/* ---- evidence helpers -------------------------------------------------------------- */

struct pctx {
        cc_discovery *d;
        cc_dinst *in;
        cc_value *prov;
        cc_value *evidence;
        size_t pdir; /* the prefix's directory listing, SIZE_MAX if none */
        cc_error *err;
};

static int evidence(struct pctx *c, const char *fmt, ...) CC_PRINTF(2, 3);

static int evidence(struct pctx *c, const char *fmt, ...)
{
        va_list ap;
        char *s;

        va_start(ap, fmt);
        s = cc_vasprintf(c->err, fmt, ap);
        va_end(ap);
        if (s == NULL)
                return -1;
        if (cc_v_push(c->evidence, cc_v_str(s, c->err), c->err) < 0) {
                free(s);
                return -1;
        }
        free(s);
        return 0;
}

#define inst_note(in, err, ...) cc_strv_pushf(&(in)->notes, 0, (err), __VA_ARGS__)

/* An installation-level version source: {component, source, version, file}. */
static cc_value *extra_version(cc_dinst *in, const char *source, const char *version, const char *file, cc_error *err)
{
        cc_value *e = cc_v_object(err);

        if (cc_v_push(in->extra, e, err) < 0)
                return NULL;
        if (cc_v_set_str(e, "component", "cudnn", err) < 0 || cc_v_set_str(e, "source", source, err) < 0 ||
            cc_v_set_str(e, "version", version, err) < 0 || cc_v_set(e, "file", cc_v_str(file, err), err) < 0)
                return NULL;
        return e;
}

static int problem(cc_dinst *in, const char *kind, const char *failure_mode, const cc_strv *paths, cc_error *err,
                   const char *fmt, ...) CC_PRINTF(6, 7);

static int problem(cc_dinst *in, const char *kind, const char *failure_mode, const cc_strv *paths, cc_error *err,
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

/* A dist-info directory's METADATA: name and version (caller frees). */
static int read_metadata(const cc_discovery *d, const char *distdir, char **name, char **version, cc_error *err)
{
        char *p, *text = NULL;
        size_t len;
        cc_metadata *m = NULL;
        cc_error perr = {0};

        *name = *version = NULL;
        p = cc_disc_join(d, distdir, "METADATA", err);
        if (p == NULL)
                return -1;
        if (read_small(d, p, MAX_SMALL, &text, &len, err) < 0) {
                free(p);
                return -1;
        }
        free(p);
        if (text == NULL)
                return 0;
        if (cc_metadata_parse(text, len, &m, &perr) < 0) {
                free(text);
                if (perr.code == CC_ERR_NOMEM) {
                        *err = perr;
                        return -1;
                }
                return 0;
        }
        free(text);
        if (m->name && (*name = cc_strdup(err, m->name)) == NULL)
                goto fail;
        if (m->version && (*version = cc_strdup(err, m->version)) == NULL)
                goto fail;
        cc_metadata_free(m);
        return 0;
fail:
        cc_metadata_free(m);
        free(*name);
        *name = NULL;
        return -1;
}

/* How many RECORD lines of a dist-info start with rel ("nvidia/cudnn/");
 * -1 when there is no RECORD. */
static long record_count(const cc_discovery *d, const char *distdir, const char *rel, cc_error *err)
{
        char *p, *text = NULL;
        size_t len, rl = strlen(rel);
        long n = 0;
        const char *s;

        p = cc_disc_join(d, distdir, "RECORD", err);
        if (p == NULL)
                return -2;
        if (read_small(d, p, (size_t)64 << 20, &text, &len, err) < 0) {
                free(p);
                return -2;
        }
        free(p);
        if (text == NULL)
                return -1;
        for (s = text; *s;) {
                const char *e = strchr(s, '\n');
                size_t ll = e ? (size_t)(e - s) : strlen(s);

                if (ll >= rl && (d->nocase ? cc_strncasecmp(s, rel, rl) : strncmp(s, rel, rl)) == 0)
                        n++;
                s += ll + (e ? 1 : 0);
        }
        free(text);
        return n;
}

/* One package object for provenance.packages. */
static cc_value *package_obj(const char *manager, const char *name, const char *version, cc_error *err)
{
        cc_value *o = cc_v_object(err);

        if (o == NULL)
                return NULL;
        if (cc_v_set_str(o, "manager", manager, err) < 0 || cc_v_set(o, "name", cc_v_str(name, err), err) < 0 ||
            cc_v_set(o, "version", cc_v_str(version, err), err) < 0) {
                cc_v_free(o);
                return NULL;
        }
        return o;
}

static cc_value *packages_of(struct pctx *c)
{
        cc_value *p = cc_v_getm(c->prov, "packages");

        if (p == NULL && cc_v_set(c->prov, "packages", cc_v_array(c->err), c->err) == 0)
                p = cc_v_getm(c->prov, "packages");
        return p;
}

/* ---- provenance: pip wheels ----------------------------------------------------------- */

static int prov_pip(struct pctx *c, int *matched)
{
        cc_discovery *d = c->d;
        cc_error *err = c->err;
        const char *base = cc_basename(c->in->prefix);
        char *par = NULL, *site = NULL, *rel = NULL;
        size_t si, i;
        int st, torch = 0, rv = -1, found = 0;
        long cuda = -1;

        *matched = 0;
        par = cc_tree_dirname(d->t, c->in->prefix, err);
        if (par == NULL)
                goto fail;
        if (cc_disc_name_eq(d, cc_basename(par), "nvidia") &&
            (cc_disc_name_eq(d, base, "cudnn") || cc_glob_match("cu[0-9]*", base, d->nocase))) {
                site = cc_tree_dirname(d->t, par, err);
                rel = cc_asprintf(err, "nvidia/%s/", base);
                if (site == NULL || rel == NULL)
                        goto fail;
                if (base[2] >= '0' && base[2] <= '9')
                        cuda = strtol(base + 2, NULL, 10);
        } else if (cc_disc_name_eq(d, base, "torch")) {
                site = par;
                par = NULL;
                torch = 1;
        } else {
                rv = 0;
                goto fail;
        }
        TRY(cc_disc_get_dir(d, site, 0, &si, &st, NULL, 0, err));
        if (si == SIZE_MAX) {
                rv = 0;
                goto fail;
        }
        for (i = 0; i < d->dirs[si]->names.n; i++) {
                const char *nm = d->dirs[si]->names.v[i];
                cc_distname dn;
                char *dist = NULL, *mname = NULL, *mver = NULL;
                long nrec = -1;
                cc_value *pkg;

                if (cc_name_distinfo(nm, &dn) < 0 || !cc_ends_with(nm, ".dist-info"))
                        continue;
                if (torch ? strcmp(dn.package, "torch") != 0 : !dn.is_cudnn)
                        continue;
                dist = cc_disc_join(d, site, nm, err);
                if (dist == NULL)
                        goto fail;
                if (!torch) {
                        nrec = record_count(d, dist, rel, err);
                        if (nrec < -1) {
                                free(dist);
                                goto fail;
                        }
                        /* RECORD decides; without one, the CUDA major in the name */
                        if (nrec == 0 || (nrec < 0 && cuda >= 0 && dn.cuda_major >= 0 && dn.cuda_major != cuda)) {
                                free(dist);
                                continue;
                        }
                }
                if (read_metadata(d, dist, &mname, &mver, err) < 0) {
                        free(dist);
                        goto fail;
                }
                found = 1;
                if (torch) {
                        cc_value *b = cc_v_object(err);

                        if (cc_v_set(c->prov, "bundled_in", b, err) < 0 ||
                            cc_v_set_str(b, "name", mname ? mname : "torch", err) < 0 ||
                            cc_v_set_str(b, "version", mver ? mver : dn.version_str, err) < 0 ||
                            cc_v_set_str(b, "dist_info", dist, err) < 0 ||
                            evidence(c, "%s (the torch wheel bundles these cuDNN files)", dist) < 0) {
                                free(dist);
                                free(mname);
                                free(mver);
                                goto fail;
                        }
                } else {
                        cc_value *ve;
                        char *meta = cc_disc_join(d, dist, "METADATA", err);
                        const char *ver = mver ? mver : dn.version_str;
                        int rc;

                        pkg = package_obj("pip", mname ? mname : dn.package, ver, err);
                        rc = meta == NULL || cc_v_push(packages_of(c), pkg, err) < 0 ? -1 : 0;
                        if (rc == 0 && (cc_v_set_str(pkg, "dist_info", dist, err) < 0 ||
                                        (nrec >= 0 && cc_v_set_int(pkg, "record_files", nrec, err) < 0)))
                                rc = -1;
                        if (rc == 0)
                                rc = nrec >= 0
                                         ? evidence(c, "%s (its RECORD lists %ld files under %s)", dist, nrec, rel)
                                         : evidence(c, "%s (no RECORD)", dist);
                        if (rc == 0 && ((ve = extra_version(c->in, "dist-info", ver, meta, err)) == NULL ||
                                        cc_v_set_str(ve, "package", mname ? mname : dn.package, err) < 0 ||
                                        (dn.cuda_major >= 0 && cc_v_set_int(ve, "cuda_major", dn.cuda_major, err) < 0)))
                                rc = -1;
                        free(meta);
                        if (rc < 0) {
                                free(dist);
                                free(mname);
                                free(mver);
                                goto fail;
                        }
                }
                free(dist);
                free(mname);
                free(mver);
        }
        if (!found) {
                TRY(inst_note(c->in, err,
                              torch ? "no torch dist-info in %s: which wheel put these files there is unknown"
                                    : "no nvidia-cudnn dist-info in %s owns these files: copied in by hand?",
                              site));
                rv = 0;
                goto fail;
        }
        TRY(cc_v_set_str(c->prov, "kind", "pip-wheel", err));
        TRY(cc_v_set_str(c->prov, "site_packages", site, err));
        *matched = 1;
        rv = 0;
fail:
        free(par);
        free(site);
        free(rel);
        return rv;
}

/* ---- provenance: conda ------------------------------------------------------------------ */

static int prov_conda(struct pctx *c, int *matched)
{
        cc_discovery *d = c->d;
        cc_error *err = c->err;
        const char *cm;
        char *meta = NULL;
        size_t mi, i;
        int st, rv = -1, found = 0;

        *matched = 0;
        if (c->pdir == SIZE_MAX || (cm = cc_disc_has(d, c->pdir, "conda-meta")) == NULL)
                return 0;
        meta = cc_disc_join(d, c->in->prefix, cm, err);
        if (meta == NULL)
                return -1;
        TRY(cc_disc_get_dir(d, meta, 0, &mi, &st, NULL, 0, err));
        for (i = 0; mi != SIZE_MAX && i < d->dirs[mi]->names.n; i++) {
                const char *nm = d->dirs[mi]->names.v[i];
                char buf[256], *b1, *b2, *file;
                const char *name, *ver, *build;
                cc_value *pkg, *ve;

                if (!cc_ends_with(nm, ".json") || strlen(nm) >= sizeof(buf) || strstr(nm, "cudnn") == NULL)
                        continue;
                snprintf(buf, sizeof(buf), "%.*s", (int)(strlen(nm) - 5), nm);
                b2 = strrchr(buf, '-');
                if (b2 == NULL)
                        continue;
                *b2 = '\0';
                b1 = strrchr(buf, '-');
                if (b1 == NULL)
                        continue;
                *b1 = '\0';
                name = buf;
                ver = b1 + 1;
                build = b2 + 1;
                if (strstr(name, "cudnn") == NULL)
                        continue;
                file = cc_disc_join(d, meta, nm, err);
                pkg = package_obj("conda", name, ver, err);
                if (file == NULL || cc_v_push(packages_of(c), pkg, err) < 0 ||
                    cc_v_set_str(pkg, "build", build, err) < 0 || cc_v_set_str(pkg, "file", file, err) < 0) {
                        free(file);
                        goto fail;
                }
                found = 1;
                if (evidence(c, "%s", file) < 0 || (ve = extra_version(c->in, "conda-meta", ver, file, err)) == NULL ||
                    cc_v_set_str(ve, "package", name, err) < 0 || cc_v_set_str(ve, "build", build, err) < 0) {
                        free(file);
                        goto fail;
                }
                free(file);
        }
        if (found) {
                TRY(cc_v_set_str(c->prov, "kind", "conda-package", err));
        } else {
                TRY(cc_v_set_str(c->prov, "kind", "copy", err));
                TRY(cc_v_set_str(c->prov, "location", "conda-environment", err));
                TRY(evidence(c, "%s (no cudnn package in it)", meta));
                TRY(inst_note(c->in, err,
                              "a conda environment, but no conda package of cuDNN is installed in it: the files were "
                              "copied in by hand"));
        }
        *matched = 1;
        rv = 0;
fail:
        free(meta);
        return rv;
}

/* ---- provenance: the Windows installer ------------------------------------------------------ */

static int prov_installer(struct pctx *c, int *matched)
{
        cc_discovery *d = c->d;
        cc_error *err = c->err;
        cc_strv comps = {0};
        const char *base;
        cudnnctl_ver v;
        int rv = -1;

        *matched = 0;
        if (d->system != CC_SYS_WINDOWS)
                return 0;
        TRY(split(d, c->in->prefix, &comps, err));
        if (comps.n < 3 || !cc_disc_name_eq(d, comps.v[comps.n - 2], "CUDNN") ||
            !cc_disc_name_eq(d, comps.v[comps.n - 3], "NVIDIA")) {
                rv = 0;
                goto fail;
        }
        base = comps.v[comps.n - 1];
        TRY(cc_v_set_str(c->prov, "kind", "windows-installer", err));
        TRY(evidence(c, "%s (the cuDNN installer's directory)", c->in->prefix));
        if ((base[0] == 'v' || base[0] == 'V') && cudnnctl_ver_parse(base + 1, &v) == 0) {
                char vb[64];
                cc_value *o = cc_v_object(err);

                cudnnctl_ver_str(&v, vb, sizeof(vb));
                if (cc_v_set(c->prov, "installer", o, err) < 0 || cc_v_set_str(o, "version", vb, err) < 0 ||
                    extra_version(c->in, "installer-directory", vb, c->in->prefix, err) == NULL)
                        goto fail;
        }
        *matched = 1;
        rv = 0;
fail:
        cc_strv_free(&comps);
        return rv;
}

/* ---- provenance: distro packages -------------------------------------------------------------- */

static int prov_distro(struct pctx *c, int *matched)
{
        cc_discovery *d = c->d;
        cc_error *err = c->err;
        cc_dinst *in = c->in;
        struct dpkg_db *db;
        size_t *count = NULL, i, k, owned = 0;
        cc_strv unowned = {0};
        int rv = -1;

        *matched = 0;
        if (d->system != CC_SYS_LINUX || (strcmp(in->prefix, "/usr") != 0 && strcmp(in->prefix, "/") != 0))
                return 0;
        TRY(dpkg_load(d, err));
        db = d->dpkg;
        TRY(cc_v_set_str(c->prov, "location", "distro", err));
        if (d->dpkg_state < 0) {
                TRY(cc_v_set_str(c->prov, "kind", "distro-package", err));
                TRY(cc_v_set_bool(c->prov, "owner_known", 0, err));
                TRY(inst_note(in, err,
                              db->rpm ? "the files lie where distro packages put them; this is an RPM system (its "
                                        "database is not read), so the owning package is unknown"
                                      : "the files lie where distro packages put them; there is no dpkg or RPM "
                                        "database here, so the owning package is unknown"));
                *matched = 1;
                rv = 0;
                goto fail;
        }
        count = cc_calloc(err, db->pkgs.n + 1, sizeof(*count));
        if (count == NULL)
                goto fail;
        for (i = 0; i < in->nfiles; i++) {
                const cc_dfile *f = d->files[in->files[i]];
                const cc_ddir *dd = d->dirs[f->dir];
                long o = dpkg_owner(db, f->canonical, err);
                char *p;

                for (k = 0; o == -1 && k <= dd->aliases.n; k++) {
                        p = cc_disc_join(d, k == 0 ? dd->first : dd->aliases.v[k - 1], f->name, err);
                        if (p == NULL)
                                goto fail;
                        o = dpkg_owner(db, p, err);
                        free(p);
                }
                /* a link update-alternatives made: owned through its target */
                if (o == -1 && f->type == CC_FT_LINK && f->resolves_to)
                        o = dpkg_owner(db, f->resolves_to, err);
                if (o < -1)
                        goto fail;
                if (o >= 0) {
                        count[o]++;
                        owned++;
                } else {
                        TRY(cc_strv_push(&unowned, f->canonical, err));
                }
        }
        TRY(evidence(c, "/var/lib/dpkg/info/*.list (%zu package file lists read)", db->lists));
        for (i = 0; i < db->pkgs.n; i++) {
                const cc_dpkg_pkg *pk;
                cc_value *pkg;
                char up[128];

                if (count[i] == 0)
                        continue;
                pk = db->status ? cc_dpkg_find(db->status, db->pkgs.v[i], db->archs.v[i][0] ? db->archs.v[i] : NULL)
                                : NULL;
                pkg = package_obj("dpkg", db->pkgs.v[i], pk ? pk->version : NULL, err);
                if (cc_v_push(packages_of(c), pkg, err) < 0)
                        goto fail;
                TRY(cc_v_set(pkg, "architecture", cc_v_str(db->archs.v[i][0] ? db->archs.v[i] : NULL, err), err));
                TRY(cc_v_set(pkg, "status", cc_v_str(pk ? pk->status : NULL, err), err));
                TRY(cc_v_set_int(pkg, "files_owned", (int64_t)count[i], err));
                if (pk && pk->version && strstr(db->pkgs.v[i], "cudnn") != NULL) {
                        cc_value *ve;

                        upstream_version(pk->version, up, sizeof(up));
                        ve = extra_version(in, "package-database", up, "/var/lib/dpkg/status", err);
                        if (ve == NULL || cc_v_set_str(ve, "package", db->pkgs.v[i], err) < 0 ||
                            cc_v_set_str(ve, "package_version", pk->version, err) < 0)
                                goto fail;
                }
        }
        if (owned > 0) {
                TRY(cc_v_set_str(c->prov, "kind", "distro-package", err));
                TRY(cc_v_set_bool(c->prov, "owner_known", 1, err));
                if (unowned.n > 0) {
                        TRY(cc_v_set(c->prov, "unowned", cc_v_strv(&unowned, err), err));
                        TRY(inst_note(
                            in, err,
                            "files that no package owns (copied in by hand?): %zu, listed in provenance.unowned",
                            unowned.n));
                }
        } else {
                TRY(cc_v_set_str(c->prov, "kind", "copy", err));
                TRY(inst_note(in, err,
                              "no package owns these files (the dpkg file lists name none of them): they were copied "
                              "into a distro location by hand"));
        }
        *matched = 1;
        rv = 0;
fail:
        free(count);
        cc_strv_free(&unowned);
        return rv;
}

/* ---- provenance: CUDA toolkits ------------------------------------------------------------------ */

/* version.json: "cuda": { ..., "version": "12.4.1" } */
static int json_cuda_version(const char *text, char *out, size_t n)
{
        const char *p = text;

        while ((p = strstr(p, "\"cuda\"")) != NULL) {
                const char *q = p + 6, *end;

                p += 6;
                while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')
                        q++;
                if (*q++ != ':')
                        continue;
                while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')
                        q++;
                if (*q != '{')
                        continue;
                end = strchr(q, '}');
                q = strstr(q, "\"version\"");
                if (q == NULL || (end && q > end))
                        continue;
                q += 9;
                while (*q == ' ' || *q == '\t' || *q == ':' || *q == '\r' || *q == '\n')
                        q++;
                if (*q++ != '"')
                        continue;
                end = strchr(q, '"');
                if (end == NULL || (size_t)(end - q) >= n)
                        return -1;
                memcpy(out, q, (size_t)(end - q));
                out[end - q] = '\0';
                return 0;
        }
        return -1;
}

static int toolkit_source(cc_value *srcs, const char *source, const char *version, const char *file, cc_error *err)
{
        cc_value *o = cc_v_object(err);

        if (cc_v_push(srcs, o, err) < 0)
                return -1;
        if (cc_v_set_str(o, "source", source, err) < 0 || cc_v_set_str(o, "version", version, err) < 0 ||
            cc_v_set(o, "file", cc_v_str(file, err), err) < 0)
                return -1;
        return 0;
}

/* A toolkit's dist-info directory (a toolkit assembled from NVIDIA's
 * wheels keeps them in PREFIX/dist-info). */
static int toolkit_distinfo(struct pctx *c, cc_value *srcs, int *cudnn_from, cc_error *err)
{
        cc_discovery *d = c->d;
        const char *dn;
        char *dir = NULL;
        size_t di, i;
        int st, rv = -1;

        if (c->pdir == SIZE_MAX || (dn = cc_disc_has(d, c->pdir, "dist-info")) == NULL)
                return 0;
        dir = cc_disc_join(d, c->in->prefix, dn, err);
        if (dir == NULL)
                return -1;
        TRY(cc_disc_get_dir(d, dir, 0, &di, &st, NULL, 0, err));
        for (i = 0; di != SIZE_MAX && i < d->dirs[di]->names.n; i++) {
                const char *nm = d->dirs[di]->names.v[i];
                cc_distname n;
                char *p;

                if (cc_name_distinfo(nm, &n) < 0)
                        continue;
                p = cc_disc_join(d, dir, nm, err);
                if (p == NULL)
                        goto fail;
                if (cc_starts_with(n.package, "nvidia_cuda_runtime") || cc_starts_with(n.package, "nvidia_cuda_nvcc")) {
                        if (toolkit_source(srcs, "dist-info", n.version_str, p, err) < 0) {
                                free(p);
                                goto fail;
                        }
                } else if (n.is_cudnn) {
                        char *mname = NULL, *mver = NULL, *meta = cc_disc_join(d, p, "METADATA", err);
                        const char *ver;
                        cc_value *pkg, *ve;

                        if (meta == NULL || read_metadata(d, p, &mname, &mver, err) < 0) {
                                free(meta);
                                free(p);
                                goto fail;
                        }
                        ver = mver ? mver : n.version_str;
                        pkg = package_obj("pip", mname ? mname : n.package, ver, err);
                        if (cc_v_push(packages_of(c), pkg, err) < 0 || cc_v_set_str(pkg, "dist_info", p, err) < 0 ||
                            evidence(c, "%s (cuDNN came with the toolkit's wheels)", p) < 0 ||
                            (ve = extra_version(c->in, "dist-info", ver, meta, err)) == NULL ||
                            cc_v_set_str(ve, "package", mname ? mname : n.package, err) < 0 ||
                            (n.cuda_major >= 0 && cc_v_set_int(ve, "cuda_major", n.cuda_major, err) < 0)) {
                                free(mname);
                                free(mver);
                                free(meta);
                                free(p);
                                goto fail;
                        }
                        *cudnn_from = 1;
                        free(mname);
                        free(mver);
                        free(meta);
                }
                free(p);
        }
        rv = 0;
fail:
        free(dir);
        return rv;
}

static int prov_toolkit(struct pctx *c, int *matched)
{
        cc_discovery *d = c->d;
        cc_error *err = c->err;
        cc_dinst *in = c->in;
        int win = d->system == CC_SYS_WINDOWS, named = 0, nvcc = 0, r, rv = -1, cudnn_from = 0;
        const char *base = cc_basename(in->prefix);
        char *p = NULL, *text = NULL, *par = NULL, vb[64];
        size_t len, i;
        cc_value *tk = NULL, *srcs;
        cudnnctl_ver v, agreed = {0};
        int agree = 1;

        *matched = 0;
        tk = cc_v_object(err);
        srcs = cc_v_array(err);
        if (tk == NULL || cc_v_set(tk, "sources", srcs, err) < 0)
                goto fail;
        /* bin/nvcc */
        p = cc_asprintf(err, "%s%cbin%c%s", in->prefix, d->sep, d->sep, win ? "nvcc.exe" : "nvcc");
        if (p == NULL)
                goto fail;
        r = exists(d, p, err);
        TRY(r);
        if (r) {
                nvcc = 1;
                TRY(evidence(c, "%s", p));
        }
        free(p);
        p = NULL;
        /* version.json / version.txt */
        p = cc_disc_join(d, in->prefix, "version.json", err);
        if (p == NULL)
                goto fail;
        TRY(read_small(d, p, MAX_SMALL, &text, &len, err));
        if (text != NULL) {
                TRY(evidence(c, "%s", p));
                if (json_cuda_version(text, vb, sizeof(vb)) == 0)
                        TRY(toolkit_source(srcs, "version.json", vb, p, err));
                nvcc = 1;
        }
        free(text);
        text = NULL;
        free(p);
        p = cc_disc_join(d, in->prefix, "version.txt", err);
        if (p == NULL)
                goto fail;
        TRY(read_small(d, p, MAX_SMALL, &text, &len, err));
        if (text != NULL) {
                const char *q = strstr(text, "CUDA Version ");

                TRY(evidence(c, "%s", p));
                if (q != NULL) {
                        size_t k = 0;

                        q += 13;
                        while (k + 1 < sizeof(vb) && ((q[k] >= '0' && q[k] <= '9') || q[k] == '.'))
                                k++;
                        snprintf(vb, sizeof(vb), "%.*s", (int)k, q);
                        if (cudnnctl_ver_parse(vb, &v) == 0)
                                TRY(toolkit_source(srcs, "version.txt", vb, p, err));
                }
                nvcc = 1;
        }
        free(text);
        text = NULL;
        free(p);
        p = NULL;
        /* the directory's name: cuda-12.4, or CUDA\v11.4 on Windows */
        par = cc_tree_dirname(d->t, in->prefix, err);
        if (par == NULL)
                goto fail;
        if (!win && cc_starts_with(base, "cuda-") && cudnnctl_ver_parse(base + 5, &v) == 0)
                named = 1;
        else if (win && (base[0] == 'v' || base[0] == 'V') && cc_disc_name_eq(d, cc_basename(par), "CUDA") &&
                 cudnnctl_ver_parse(base + 1, &v) == 0)
                named = 1;
        if (!nvcc && !named) {
                rv = 0;
                goto fail;
        }
        if (named) {
                TRY(evidence(c, "%s (named for a CUDA release)", in->prefix));
                TRY(toolkit_source(srcs, "directory-name", cudnnctl_ver_str(&v, vb, sizeof(vb)), in->prefix, err));
        }
        /* cuda.h */
        p = cc_asprintf(err, "%s%cinclude%ccuda.h", in->prefix, d->sep, d->sep);
        if (p == NULL)
                goto fail;
        TRY(read_small(d, p, MAX_HEADER, &text, &len, err));
        if (text != NULL) {
                cc_header *h = NULL;
                cc_error herr = {0};
                int64_t cv;
                /* cuda.h is a megabyte; the macro is one line near its top */
                const char *line = strstr(text, "#define CUDA_VERSION");
                size_t ll = 0;

                while (line != NULL && line[20] != ' ' && line[20] != '\t')
                        line = strstr(line + 20, "#define CUDA_VERSION");

                while (line != NULL && line[ll] != '\0' && line[ll] != '\n')
                        ll++;
                if (line != NULL && cc_header_parse(line, ll, &h, &herr) == 0) {
                        const cc_header *hs[1] = {h};

                        if (cc_header_eval(hs, 1, "CUDA_VERSION", &cv, &herr) == 0 &&
                            cudnnctl_cuda_decode((long)cv, &v) == 0 &&
                            toolkit_source(srcs, "cuda.h", cudnnctl_ver_str(&v, vb, sizeof(vb)), p, err) < 0) {
                                cc_header_free(h);
                                goto fail;
                        }
                        cc_header_free(h);
                } else if (herr.code == CC_ERR_NOMEM) {
                        *err = herr;
                        goto fail;
                }
        }
        TRY(toolkit_distinfo(c, srcs, &cudnn_from, err));
        /* the toolkit's version: MAJOR.MINOR when every source agrees */
        for (i = 0; i < cc_v_len(srcs); i++) {
                cudnnctl_ver sv;

                if (cudnnctl_ver_parse(cc_v_get_str(cc_v_at(srcs, i), "version"), &sv) < 0 || sv.n < 2)
                        continue;
                sv.n = 2;
                if (agreed.n == 0)
                        agreed = sv;
                else if (cudnnctl_ver_cmp(&agreed, &sv) != 0)
                        agree = 0;
        }
        TRY(cc_v_set(tk, "version",
                     agree && agreed.n ? cc_v_str(cudnnctl_ver_str(&agreed, vb, sizeof(vb)), err) : cc_v_null(err),
                     err));
        if (!agree)
                TRY(inst_note(in, err, "the CUDA toolkit's own version sources disagree (see provenance.toolkit)"));
        TRY(cc_v_set_str(c->prov, "kind", "cuda-toolkit", err));
        TRY(cc_v_set(c->prov, "toolkit", tk, err));
        tk = NULL;
        TRY(cc_v_set_bool(c->prov, "copied_in", !cudnn_from, err));
        if (!cudnn_from)
                TRY(inst_note(in, err,
                              "cuDNN was copied into this CUDA toolkit: no dist-info, conda or package database "
                              "entry names its files"));
        *matched = 1;
        rv = 0;
fail:
        free(p);
        free(par);
        free(text);
        cc_v_free(tk);
        return rv;
}

/* ---- provenance: archives -------------------------------------------------------------------- */

static int prov_archive(struct pctx *c, int *matched)
{
        static const char *const exts[] = {".tar.xz", ".zip", ".tgz", ".tar.gz"};
        cc_discovery *d = c->d;
        cc_error *err = c->err;
        const char *names[2], *lic;
        char *par = NULL, *p = NULL, *text = NULL;
        size_t n = 0, i, k, len;
        int found = 0, rv = -1;

        *matched = 0;
        par = cc_tree_dirname(d->t, c->in->prefix, err);
        if (par == NULL)
                return -1;
        names[n++] = cc_basename(c->in->prefix);
        if (cc_disc_name_eq(d, names[0], "cuda"))
                names[n++] = cc_basename(par); /* the legacy layout: <archive>/cuda/lib64 */
        for (i = 0; i < n && !found; i++) {
                for (k = 0; k < CC_ARRAY_LEN(exts) && !found; k++) {
                        char buf[320];
                        cc_archname an;

                        if (snprintf(buf, sizeof(buf), "%s%s", names[i], exts[k]) >= (int)sizeof(buf))
                                continue;
                        if (cc_name_archive(buf, &an) < 0 || an.era == CC_ERA_WHEEL)
                                continue;
                        {
                                cc_value *o = cc_v_object(err);
                                char vb[64];
                                const char *era = an.era == CC_ERA_LEGACY ? "legacy" : "redist";
                                const char *dirp = i == 0 ? c->in->prefix : par;

                                if (cc_v_set(c->prov, "archive", o, err) < 0 ||
                                    cc_v_set_str(o, "name", names[i], err) < 0 ||
                                    cc_v_set_str(o, "era", era, err) < 0 ||
                                    cc_v_set(o, "version",
                                             an.version.n ? cc_v_str(cudnnctl_ver_str(&an.version, vb, sizeof(vb)), err)
                                                          : cc_v_null(err),
                                             err) < 0 ||
                                    cc_v_set(o, "cuda", an.cuda[0] ? cc_v_str(an.cuda, err) : cc_v_null(err), err) <
                                        0 ||
                                    cc_v_set_str(o, "platform", an.platform, err) < 0 ||
                                    evidence(c, "%s (named like a cuDNN %s archive)", dirp, era) < 0)
                                        goto fail;
                                if (an.version.n && extra_version(c->in, "archive-name", vb, dirp, err) == NULL)
                                        goto fail;
                        }
                        found = 1;
                }
        }
        if (c->pdir != SIZE_MAX && (lic = cc_disc_has(d, c->pdir, "NVIDIA_SLA_cuDNN_Support.txt")) != NULL) {
                TRY(evidence(c, "%s%c%s (the cuDNN license of a legacy archive)", c->in->prefix, d->sep, lic));
                found = 1;
        }
        if (c->pdir != SIZE_MAX && (lic = cc_disc_has(d, c->pdir, "LICENSE")) != NULL) {
                p = cc_disc_join(d, c->in->prefix, lic, err);
                if (p == NULL)
                        goto fail;
                TRY(read_small(d, p, MAX_SMALL, &text, &len, err));
                for (i = 0; text != NULL && i + 5 <= len; i++)
                        if (cc_strncasecmp(text + i, "cudnn", 5) == 0) {
                                TRY(evidence(c, "%s (a cuDNN license)", p));
                                found = 1;
                                break;
                        }
        }
        if (found) {
                TRY(cc_v_set_str(c->prov, "kind", "archive-copy", err));
                *matched = 1;
        }
        rv = 0;
fail:
        free(par);
        free(p);
        free(text);
        return rv;
}

static int is_system_dir(const cc_discovery *d, const char *prefix)
{
        const char *b = cc_basename(prefix);

        return d->system == CC_SYS_WINDOWS && (cc_strcasecmp(b, "System32") == 0 || cc_strcasecmp(b, "SysWOW64") == 0);
}

static int provenance(cc_discovery *d, cc_dinst *in, cc_error *err)
{
        int (*const steps[])(struct pctx *, int *) = {prov_pip,    prov_conda,   prov_installer,
                                                      prov_distro, prov_toolkit, prov_archive};
        struct pctx c;
        size_t i;
        int st, matched = 0;

        c.d = d;
        c.in = in;
        c.err = err;
        c.prov = in->provenance = cc_v_object(err);
        c.evidence = cc_v_array(err);
        if (c.prov == NULL || cc_v_set(c.prov, "kind", cc_v_null(err), err) < 0 ||
            cc_v_set(c.prov, "evidence", c.evidence, err) < 0)
                return -1;
        if (cc_disc_get_dir(d, in->prefix, 0, &c.pdir, &st, NULL, 0, err) < 0)
                return -1;
        if (c.pdir != SIZE_MAX && d->dirs[c.pdir]->listed <= 0)
                c.pdir = SIZE_MAX;
        for (i = 0; i < CC_ARRAY_LEN(steps) && !matched; i++)
                if (steps[i](&c, &matched) < 0)
                        return -1;
        if (matched)
                return 0;
        if (cc_v_set_str(c.prov, "kind", "copy", err) < 0)
                return -1;
        if (is_system_dir(d, in->prefix)) {
                if (cc_v_set_str(c.prov, "location", "system-directory", err) < 0 ||
                    inst_note(in, err, "cuDNN copied into %s: every program finds it before PATH", in->prefix) < 0)
                        return -1;
        } else if (cc_v_set_str(c.prov, "location", "directory", err) < 0 ||
                   inst_note(in, err,
                             "no package, toolkit, archive or installer layout explains these files: copied "
                             "there by hand") < 0) {
                return -1;
        }
        return 0;
}

/* ---- versions -------------------------------------------------------------------------------- */

struct vent {
        cudnnctl_ver v;
        const char *source;
        const char *file;
        const char *shown;
        int lib;    /* from a library (name, content, resource) */
        int header; /* from a header */
};

/* 1 if a problem of this kind names path first already. */
static int already_flagged(const cc_dinst *in, const char *kind, const char *path)
{
        size_t i;

        for (i = 0; i < cc_v_len(in->problems); i++) {
                const cc_value *p = cc_v_at(in->problems, i);
                const char *first = cc_v_getstr(cc_v_path(p, "paths/0"));

                if (strcmp(cc_v_get_str(p, "kind"), kind) == 0 && first != NULL && strcmp(first, path) == 0)
                        return 1;
        }
        return 0;
}

/* Collect the installation's version evidence into arr (each entry with its
 * file) and ents. */
static int collect_versions(cc_discovery *d, cc_dinst *in, cc_value *arr, struct vent **ents, size_t *nents,
                            cc_error *err)
{
        size_t i, j, cap = 0;

        *ents = NULL;
        *nents = 0;
        for (i = 0; i <= in->nfiles; i++) {
                const cc_dfile *f = i < in->nfiles ? d->files[in->files[i]] : NULL;
                const cc_value *fv = f ? f->versions : in->extra;

                for (j = 0; j < cc_v_len(fv); j++) {
                        const cc_value *e = cc_v_at(fv, j);
                        cc_value *c = cc_v_copy(e, err);
                        const char *comp = cc_v_get_str(e, "component"), *src = cc_v_get_str(e, "source");
                        const char *vs = cc_v_get_str(e, "version");
                        struct vent ve;

                        if (c == NULL)
                                return -1;
                        if (f != NULL && cc_v_set_str(c, "file", f->canonical, err) < 0) {
                                cc_v_free(c);
                                return -1;
                        }
                        if (cc_v_push(arr, c, err) < 0)
                                return -1;
                        if (comp == NULL || strcmp(comp, "cudnn") != 0 || src == NULL || vs == NULL ||
                            cudnnctl_ver_parse(vs, &ve.v) < 0)
                                continue;
                        ve.source = src;
                        ve.file = f ? f->canonical : cc_v_get_str(e, "file");
                        ve.shown = vs;
                        ve.header = f && f->ln.kind == CC_FK_HEADER;
                        ve.lib = f && !ve.header;
                        /* A version resource whose major is not the name's: either
                         * a renamed file (cudnn64_6.dll renamed cudnn64_5.dll: the
                         * resource reads like a cuDNN release) or a number that is not
                         * a cuDNN version at all (a driver-style 6.14.11.x). Neither
                         * decides the summary; the first is a problem. */
                        if (f && cc_starts_with(src, "version-resource") && f->ln.major >= 0 &&
                            ve.v.part[0] != f->ln.major) {
                                int plausible = cc_cudnn_ver_plausible(&ve.v);

                                if (!plausible && inst_note(in, err,
                                                            "%s: the version resource says %s, not a cuDNN %d version: "
                                                            "not used for the summary",
                                                            f->canonical, vs, f->ln.major) < 0)
                                        return -1;
                                if (plausible && !already_flagged(in, "name-content-mismatch", f->canonical)) {
                                        cc_strv p = {0};
                                        int rc = cc_strv_push(&p, f->canonical, err);

                                        if (rc == 0)
                                                rc = problem(in, "name-content-mismatch", "renamed-dll", &p, err,
                                                             "%s: the name says cuDNN %d but its version resource says "
                                                             "%s (a renamed file?)",
                                                             f->canonical, f->ln.major, vs);
                                        cc_strv_free(&p);
                                        if (rc < 0)
                                                return -1;
                                }
                                continue;
                        }
                        if (*nents == cap) {
                                size_t nc = cap ? cap * 2 : 32;
                                struct vent *ne = cc_realloc(err, *ents, nc * sizeof(*ne));

                                if (ne == NULL)
                                        return -1;
                                *ents = ne;
                                cap = nc;
                        }
                        (*ents)[(*nents)++] = ve;
                }
        }
        return 0;
}

static void ver_key(const cudnnctl_ver *v, int parts, char *buf, size_t n)
{
        cudnnctl_ver t = *v;

        if (t.n > parts)
                t.n = parts;
        cudnnctl_ver_str(&t, buf, n);
}

/* The summary: version (MAJOR.MINOR.PATCH) only when every full-version
 * source agrees and no partial source contradicts it; otherwise null, with
 * the disagreements. */
static int summarize(cc_dinst *in, const struct vent *e, size_t n, cc_value *out, cc_error *err)
{
        cc_strv keys = {0};
        cc_value *dis = NULL;
        size_t i, j;
        int rv = -1, full = 0, conflict = 0;
        char agreed[64] = "", key[64], four[64] = "";
        int four_ok = 1;
        cudnnctl_ver av = {0};

        for (i = 0; i < n; i++) {
                if (e[i].v.n < 3)
                        continue;
                ver_key(&e[i].v, 3, key, sizeof(key));
                if (!full) {
                        full = 1;
                        snprintf(agreed, sizeof(agreed), "%s", key);
                        av = e[i].v;
                        av.n = 3;
                } else if (strcmp(key, agreed) != 0) {
                        conflict = 1;
                }
                if (e[i].v.n >= 4) {
                        char k4[64];

                        ver_key(&e[i].v, 4, k4, sizeof(k4));
                        if (four[0] == '\0')
                                snprintf(four, sizeof(four), "%s", k4);
                        else if (strcmp(four, k4) != 0)
                                four_ok = 0;
                }
        }
        for (i = 0; full && i < n; i++) {
                cudnnctl_ver t = av;

                if (e[i].v.n >= 3)
                        continue;
                t.n = e[i].v.n;
                if (cudnnctl_ver_cmp(&t, &e[i].v) != 0)
                        conflict = 1;
        }
        if (!full) {
                /* partial sources only: still flag when they contradict each other */
                for (i = 1; i < n; i++) {
                        cudnnctl_ver a = e[0].v, b = e[i].v;

                        a.n = b.n = a.n < b.n ? a.n : b.n;
                        if (cudnnctl_ver_cmp(&a, &b) != 0)
                                conflict = 1;
                }
        }
        TRY(cc_v_set(out, "version", full && !conflict ? cc_v_str(agreed, err) : cc_v_null(err), err));
        TRY(cc_v_set(out, "full_version",
                     full && !conflict && four[0] && four_ok && strncmp(four, agreed, strlen(agreed)) == 0
                         ? cc_v_str(four, err)
                         : cc_v_null(err),
                     err));
        dis = cc_v_array(err);
        if (dis == NULL)
                goto fail;
        if (conflict) {
                for (i = 0; i < n; i++) {
                        ver_key(&e[i].v, e[i].v.n >= 3 ? 3 : e[i].v.n, key, sizeof(key));
                        if (cc_strv_contains(&keys, key))
                                continue;
                        TRY(cc_strv_push(&keys, key, err));
                }
                for (i = 0; i < keys.n; i++) {
                        cc_value *g = cc_v_object(err), *srcs, *files;

                        if (cc_v_push(dis, g, err) < 0)
                                goto fail;
                        srcs = cc_v_array(err);
                        files = cc_v_array(err);
                        if (cc_v_set_str(g, "version", keys.v[i], err) < 0 || cc_v_set(g, "sources", srcs, err) < 0 ||
                            cc_v_set(g, "files", files, err) < 0)
                                goto fail;
                        for (j = 0; j < n; j++) {
                                size_t k;
                                int dup = 0;

                                ver_key(&e[j].v, e[j].v.n >= 3 ? 3 : e[j].v.n, key, sizeof(key));
                                if (strcmp(key, keys.v[i]) != 0)
                                        continue;
                                for (k = 0; k < cc_v_len(srcs); k++)
                                        dup |= strcmp(cc_v_getstr(cc_v_at(srcs, k)), e[j].source) == 0;
                                if (!dup)
                                        TRY(cc_v_push(srcs, cc_v_str(e[j].source, err), err));
                                dup = 0;
                                for (k = 0; e[j].file && k < cc_v_len(files); k++)
                                        dup |= strcmp(cc_v_getstr(cc_v_at(files, k)), e[j].file) == 0;
                                if (!dup && e[j].file)
                                        TRY(cc_v_push(files, cc_v_str(e[j].file, err), err));
                        }
                }
        }
        TRY(cc_v_set(out, "disagreements", dis, err));
        dis = NULL;
        /* headers against libraries */
        if (conflict) {
                cc_strv hv = {0}, lv = {0};
                int overlap = 0, rc = 0;

                for (i = 0; i < n && rc == 0; i++) {
                        if (e[i].v.n < 3)
                                continue;
                        ver_key(&e[i].v, 3, key, sizeof(key));
                        if (e[i].header && !cc_strv_contains(&hv, key))
                                rc = cc_strv_push(&hv, key, err);
                        else if (e[i].lib && !cc_strv_contains(&lv, key))
                                rc = cc_strv_push(&lv, key, err);
                }
                for (i = 0; i < hv.n; i++)
                        overlap |= cc_strv_contains(&lv, hv.v[i]);
                if (rc == 0 && hv.n > 0 && lv.n > 0 && !overlap)
                        rc = problem(in, "header-library-mismatch", "header-lib-mismatch", NULL, err,
                                     "the headers say cuDNN %s but the libraries say %s: a build against these headers "
                                     "gets another cuDNN at run time",
                                     hv.v[0], lv.v[0]);
                cc_strv_free(&hv);
                cc_strv_free(&lv);
                TRY(rc);
        }
        rv = 0;
fail:
        cc_strv_free(&keys);
        cc_v_free(dis);
        return rv;
}

/* ---- problems -------------------------------------------------------------------------------- */

static int is_lib(const cc_dfile *f)
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
                        const cc_value *e = cc_v_at(f->versions, j);
                        const char *s = cc_v_get_str(e, "source");

                        if (s == NULL || strcmp(s, order[k]) != 0 ||
                            cudnnctl_ver_parse(cc_v_get_str(e, "version"), out) < 0 || out->n < 3)
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
        char *ha = file_host(d, a, err), *hb = ha ? file_host(d, b, err) : NULL;
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

static int link_problems(cc_discovery *d, cc_dinst *in, cc_error *err)
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
                        rc = problem(in, "symlink-loop", "linux-broken-symlinks", &paths, err,
                                     "%s -> %s: a symbolic link loop (the loader gives up on it)", f->canonical,
                                     f->target ? f->target : "?");
                else if (rc == 0)
                        rc = problem(in,
                                     strcmp(f->link_state, "dangling") == 0 ? "dangling-symlink" : "symlink-not-a-file",
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
                                rc = problem(in, "flattened-symlinks", "linux-broken-symlinks", &paths, err,
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
                                rc = problem(in, "missing-soname-link", "linux-broken-symlinks", &paths, err,
                                             "%s has SONAME %s but there is no %s beside it (run ldconfig, or make "
                                             "the link)",
                                             f->canonical, f->soname, f->soname);
                } else if (rc == 0) {
                        rc = problem(in, "not-soname", f->ln.dev_link ? "linux-broken-symlinks" : "renamed-dll", &paths,
                                     err,
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
static int mixed_sets(cc_discovery *d, cc_dinst *in, cc_value *sets, cc_error *err)
{
        size_t di, i, k;

        for (di = 0; di < in->dirs.n; di++) {
                cc_strv vers = {0};
                int rc = 0;

                for (i = 0; i < in->nfiles && rc == 0; i++) {
                        const cc_dfile *f = d->files[in->files[i]];
                        cudnnctl_ver v;
                        char vb[64];

                        if (f->type != CC_FT_FILE || !is_lib(f) ||
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

                                        if (f->type != CC_FT_FILE || !is_lib(f) ||
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
                                rc = problem(in, "mixed-versions",
                                             d->system == CC_SYS_WINDOWS ? "win-sublib-127"
                                                                         : "v9-sublibrary-version-mismatch",
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

/* The members each major ships (compat.md §3), to name what is missing. */
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

static int completeness(cc_discovery *d, cc_dinst *in, cc_error *err)
{
        int major;

        for (major = 8; major <= 9; major++) {
                const char *const *set = major == 8 ? set8 : set9;
                cc_strv missing = {0};
                size_t i, k, have = 0;
                int rc = 0;

                for (i = 0; i < in->nfiles; i++) {
                        const cc_dfile *f = d->files[in->files[i]];

                        have += is_lib(f) && f->ln.major == major && f->ln.known_role;
                }
                if (have == 0)
                        continue;
                for (k = 0; set[k] && rc == 0; k++) {
                        int found = 0;

                        for (i = 0; i < in->nfiles && !found; i++) {
                                const cc_dfile *f = d->files[in->files[i]];

                                found = is_lib(f) && f->ln.major == major && strcmp(f->ln.role, set[k]) == 0 &&
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
                                rc = problem(in, "incomplete-set",
                                             d->system == CC_SYS_WINDOWS ? "win-sublib-126"
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

static cc_value *inst_facts(cc_discovery *d, size_t id, cc_error *err);

/* ---- the whole step ----------------------------------------------------------------------- */

int cc_disc_group(cc_discovery *d, cc_error *err)
{
        size_t i;

        /* Complete every prefix a file was found in (a library found through
         * LD_LIBRARY_PATH brings its prefix's include/ along). */
        for (i = 0; i < d->nfiles; i++) {
                char *p = prefix_of(d, d->dirs[d->files[i]->dir]->canonical, NULL, err);
                int rc;

                if (p == NULL)
                        return -1;
                rc = cc_smap_get(&d->prefix_walked, p, NULL) ? 0 : cc_disc_walk_prefix(d, p, 0, err);
                free(p);
                if (rc < 0)
                        return -1;
        }
        if (examine_files(d, err) < 0 || group(d, err) < 0)
                return -1;
        for (i = 0; i < d->ninsts; i++) {
                cc_dinst *in = d->insts[i];

                if (provenance(d, in, err) < 0)
                        return -1;
                if (d->system == CC_SYS_WINDOWS && is_system_dir(d, in->prefix) &&
                    problem(in, "system-directory-copy", "win-stale-dll-shadow", NULL, err,
                            "cuDNN in %s is found before every PATH directory: an old copy here shadows the one you "
                            "installed",
                            in->prefix) < 0)
                        return -1;
                if (link_problems(d, in, err) < 0 || completeness(d, in, err) < 0)
                        return -1;
                in->facts = inst_facts(d, i + 1, err);
                if (in->facts == NULL)
                        return -1;
        }
        return 0;
}

/* ---- facts ------------------------------------------------------------------------------------ */

static cc_value *file_facts(const cc_discovery *d, const cc_dfile *f, cc_error *err)
{
        cc_value *o = cc_v_object(err);
        size_t i;
        char vb[64];

        if (o == NULL)
                return NULL;
        TRY(cc_v_set_str(o, "path", f->canonical, err));
        TRY(cc_v_set_str(o, "name", f->name, err));
        TRY(cc_v_set_str(o, "type", f->type == CC_FT_LINK ? "symlink" : "file", err));
        TRY(cc_v_set_str(o, "kind", cc_file_kind_name(f->ln.kind), err));
        TRY(cc_v_set_str(o, "role", f->ln.role, err));
        TRY(cc_v_set(o, "major", f->ln.major >= 0 ? cc_v_int(f->ln.major, err) : cc_v_null(err), err));
        TRY(cc_v_set(o, "name_version",
                     f->ln.version.n ? cc_v_str(cudnnctl_ver_str(&f->ln.version, vb, sizeof(vb)), err) : cc_v_null(err),
                     err));
        if (f->type == CC_FT_FILE)
                TRY(cc_v_set_int(o, "size", (int64_t)f->size, err));
        if (f->kind != NULL)
                TRY(cc_v_set_str(o, "content", f->kind, err));
        if (f->soname != NULL)
                TRY(cc_v_set_str(o, "soname", f->soname, err));
        if (f->type == CC_FT_LINK) {
                cc_value *ch = cc_v_array(err);

                TRY(cc_v_set(o, "link", cc_v_str(f->target, err), err));
                if (cc_v_set(o, "chain", ch, err) < 0)
                        goto fail;
                for (i = 0; i + 1 < f->chain.n; i += 2) {
                        cc_value *s = cc_v_object(err);

                        if (cc_v_push(ch, s, err) < 0 || cc_v_set_str(s, "path", f->chain.v[i], err) < 0 ||
                            cc_v_set_str(s, "target", f->chain.v[i + 1], err) < 0)
                                goto fail;
                }
                TRY(cc_v_set(o, "resolves_to", cc_v_str(f->resolves_to, err), err));
                TRY(cc_v_set_str(o, "link_state", f->link_state ? f->link_state : "dangling", err));
        }
        if (f->versions != NULL)
                TRY(cc_v_set(o, "versions", cc_v_copy(f->versions, err), err));
        if (f->error != NULL)
                TRY(cc_v_set_str(o, "error", f->error, err));
        (void)d;
        return o;
fail:
        cc_v_free(o);
        return NULL;
}

static int majors_of(const cc_discovery *d, const cc_dinst *in, const struct vent *e, size_t n, cc_value *out,
                     cc_error *err)
{
        int seen[1000] = {0}, m;
        size_t i;

        for (i = 0; i < in->nfiles; i++) {
                const cc_dfile *f = d->files[in->files[i]];

                if (f->ln.major >= 0 && f->ln.major < 1000)
                        seen[f->ln.major] = 1;
        }
        for (i = 0; i < n; i++)
                if (e[i].v.n >= 2 && e[i].v.part[0] >= 0 && e[i].v.part[0] < 1000)
                        seen[e[i].v.part[0]] = 1;
        for (m = 0; m < 1000; m++)
                if (seen[m] && cc_v_push(out, cc_v_int(m, err), err) < 0)
                        return -1;
        return 0;
}

static int count_files(const cc_discovery *d, const cc_dinst *in, cc_value *o, cc_error *err)
{
        int64_t libs = 0, hdrs = 0, imp = 0, sta = 0, links = 0;
        size_t i;

        for (i = 0; i < in->nfiles; i++) {
                const cc_dfile *f = d->files[in->files[i]];

                if (f->type == CC_FT_LINK)
                        links++;
                else if (is_lib(f))
                        libs++;
                else if (f->ln.kind == CC_FK_HEADER)
                        hdrs++;
                else if (f->ln.kind == CC_FK_IMPLIB)
                        imp++;
                else if (f->ln.kind == CC_FK_STATIC)
                        sta++;
        }
        if (cc_v_set_int(o, "libraries", libs, err) < 0 || cc_v_set_int(o, "headers", hdrs, err) < 0 ||
            cc_v_set_int(o, "import_libraries", imp, err) < 0 || cc_v_set_int(o, "static_libraries", sta, err) < 0 ||
            cc_v_set_int(o, "symlinks", links, err) < 0 ||
            cc_v_set_int(o, "dist_info", (int64_t)cc_v_len(cc_v_get(in->provenance, "packages")), err) < 0)
                return -1;
        return 0;
}

static cc_value *inst_facts(cc_discovery *d, size_t id, cc_error *err)
{
        cc_dinst *in = d->insts[id - 1];
        cc_value *o = cc_v_object(err), *vers = NULL, *arr, *sets = NULL, *counts;
        struct vent *ents = NULL;
        size_t nents = 0, i, k;
        cc_strv variants = {0};

        if (o == NULL)
                return NULL;
        TRY(cc_v_set_int(o, "id", (int64_t)id, err));
        TRY(cc_v_set_str(o, "prefix", in->prefix, err));
        TRY(cc_v_set(o, "aliases", cc_v_strv(&in->aliases, err), err));
        TRY(cc_v_set_str(o, "system", d->system == CC_SYS_WINDOWS ? "windows" : "linux", err));
        arr = cc_v_array(err);
        if (cc_v_set(o, "majors", arr, err) < 0)
                goto fail;
        TRY(cc_v_set(o, "provenance", cc_v_copy(in->provenance, err), err));
        vers = cc_v_array(err);
        if (vers == NULL)
                goto fail;
        sets = cc_v_array(err);
        if (sets == NULL || collect_versions(d, in, vers, &ents, &nents, err) < 0 ||
            summarize(in, ents, nents, o, err) < 0 || majors_of(d, in, ents, nents, arr, err) < 0 ||
            mixed_sets(d, in, sets, err) < 0)
                goto fail;
        TRY(cc_v_set(o, "versions", vers, err));
        vers = NULL;
        counts = cc_v_object(err);
        if (cc_v_set(o, "counts", counts, err) < 0 || count_files(d, in, counts, err) < 0)
                goto fail;
        /* directories, with the aliases that reached them and their place in the prefix */
        arr = cc_v_array(err);
        if (cc_v_set(o, "directories", arr, err) < 0)
                goto fail;
        for (i = 0; i < in->dirs.n; i++) {
                void *v;
                const cc_ddir *dd;
                cc_value *e = cc_v_object(err), *al;
                char *pre, *rel = NULL;

                if (cc_v_push(arr, e, err) < 0 || !cc_smap_get(&d->dir_idx, in->dirs.v[i], &v))
                        goto fail;
                dd = d->dirs[xi(v)];
                pre = prefix_of(d, dd->canonical, &rel, err);
                free(pre);
                if (rel == NULL)
                        goto fail;
                {
                        cc_strv rc = {0};

                        if (split(d, rel, &rc, err) == 0 && rc.n >= 2 && digit_first(rc.v[1]) &&
                            !cc_strv_contains(&variants, rc.v[1]) && cc_strv_push(&variants, rc.v[1], err) < 0) {
                                cc_strv_free(&rc);
                                free(rel);
                                goto fail;
                        }
                        cc_strv_free(&rc);
                }
                al = cc_v_array(err);
                if (cc_v_set_str(e, "path", dd->canonical, err) < 0 || cc_v_set_str(e, "in_prefix", rel, err) < 0 ||
                    cc_v_set(e, "aliases", al, err) < 0) {
                        free(rel);
                        goto fail;
                }
                free(rel);
                if (!cc_tree_path_eq(d->t, dd->first, dd->canonical))
                        TRY(cc_v_push(al, cc_v_str(dd->first, err), err));
                for (k = 0; k < dd->aliases.n; k++)
                        TRY(cc_v_push(al, cc_v_str(dd->aliases.v[k], err), err));
                if (dd->more_aliases)
                        TRY(cc_v_set_int(e, "more_aliases", (int64_t)dd->more_aliases, err));
        }
        if (variants.n > 0)
                TRY(cc_v_set(o, "cuda_variants", cc_v_strv(&variants, err), err));
        arr = cc_v_array(err);
        if (cc_v_set(o, "files", arr, err) < 0)
                goto fail;
        for (i = 0; i < in->nfiles; i++)
                TRY(cc_v_push(arr, file_facts(d, d->files[in->files[i]], err), err));
        if (cc_v_len(sets) > 0) {
                TRY(cc_v_set(o, "sets", sets, err));
                sets = NULL;
        }
        for (i = 0; i < in->nfiles; i++) {
                const cc_dfile *f = d->files[in->files[i]];
                cc_strv p = {0};
                int rc;

                if (f->error == NULL || f->kind == NULL || strcmp(f->kind, "unreadable") != 0)
                        continue;
                rc = cc_strv_push(&p, f->canonical, err);
                if (rc == 0)
                        rc = problem(in, "unreadable-file", NULL, &p, err, "%s: %s", f->canonical, f->error);
                cc_strv_free(&p);
                TRY(rc);
        }
        TRY(cc_v_set(o, "problems", cc_v_copy(in->problems, err), err));
        TRY(cc_v_set(o, "notes", cc_v_strv(&in->notes, err), err));
        cc_v_free(sets);
        free(ents);
        cc_strv_free(&variants);
        return o;
fail:
        cc_v_free(o);
        cc_v_free(vers);
        cc_v_free(sets);
        free(ents);
        cc_strv_free(&variants);
        return NULL;
}

cc_value *cc_disc_installations_facts(const cc_discovery *d, cc_error *err)
{
        cc_value *arr = cc_v_array(err);
        size_t i;

        for (i = 0; arr != NULL && i < d->ninsts; i++)
                if (cc_v_push(arr, cc_v_copy(d->insts[i]->facts, err), err) < 0) {
                        cc_v_free(arr);
                        return NULL;
                }
        return arr;
}
