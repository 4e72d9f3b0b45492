/* Provenance of a distro package: the dpkg database (status and the
 * packages' file lists, read once per discovery) says which package owns each
 * file of /usr (a link update-alternatives made is owned through its target);
 * files no package owns were copied there. The file lists of packages named
 * for cuDNN are read first and the others (thousands on a desktop, 30x the
 * time) only when a file is still unowned. An rpm database is noted, not
 * read. */
#include "group.h"

#include "../formats/dpkg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dpkg_db {
        cc_map map;       /* the status file, mapped (a copy of megabytes cost a page fault per 4 KiB) */
        const char *text; /* its bytes, parsed on demand; NULL: there is none */
        size_t len;
        cc_dpkg_status *status; /* all of it, once a package was not found by its "Package:" line */
        int status_bad;         /* it could not be parsed (noted once) */
        cc_smap owner;          /* listed path of a cuDNN file -> package index + 1 */
        cc_strv pkgs;           /* package names */
        cc_strv archs;          /* their architectures ("" none) */
        cc_strv names;          /* the .list files of /var/lib/dpkg/info */
        size_t lists;           /* .list files read */
        int tier;               /* lists read: 0 none, 1 those named for cuDNN, 2 all */
        int rpm;                /* no dpkg, but an RPM database */
};

void cc_disc_dpkg_free(void *p)
{
        struct dpkg_db *db = p;

        if (db == NULL)
                return;
        cc_unmap(&db->map);
        cc_dpkg_status_free(db->status);
        cc_smap_free(&db->owner);
        cc_strv_free(&db->pkgs);
        cc_strv_free(&db->archs);
        cc_strv_free(&db->names);
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

/* The file lists of tier 1 (packages named for cuDNN) or 2 (the others). */
static int dpkg_read_lists(cc_discovery *d, struct dpkg_db *db, int tier, cc_error *err)
{
        char *text = NULL;
        size_t len, i;
        int rv = -1;

        if (db->tier >= tier)
                return 0;
        db->tier = tier;
        for (i = 0; i < db->names.n; i++) {
                char pkg[256], arch[64], *p;
                struct list_ctx lc;

                if (cc_dpkg_list_name(db->names.v[i], pkg, sizeof(pkg), arch, sizeof(arch)) < 0 ||
                    (strstr(pkg, "cudnn") != NULL) != (tier == 1))
                        continue;
                p = cc_disc_join(d, "/var/lib/dpkg/info", db->names.v[i], err);
                if (p == NULL)
                        goto fail;
                if (cc_disc_read_small(d, p, (size_t)64 << 20, &text, &len, err) < 0) {
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
        return rv;
}

/* The status file and the names of the file lists (read by tier on demand). */
static int dpkg_load(cc_discovery *d, cc_error *err)
{
        struct dpkg_db *db;
        cc_error lerr = {0}, merr = {0};
        int rv = -1;

        if (d->dpkg_state != 0)
                return 0;
        db = cc_calloc(err, 1, sizeof(*db));
        if (db == NULL)
                return -1;
        d->dpkg = db;
        d->dpkg_state = -1;
        if (cc_tree_map(d->t, "/var/lib/dpkg/status", (size_t)256 << 20, &db->map, &merr) < 0) {
                if (merr.code == CC_ERR_NOMEM) {
                        *err = merr;
                        return -1;
                }
                memset(&db->map, 0, sizeof(db->map));
        } else {
                db->text = db->map.data ? (const char *)db->map.data : "";
                db->len = db->map.size;
        }
        if (db->text == NULL) {
                int r1 = cc_disc_exists(d, "/var/lib/rpm", err), r2 = cc_disc_exists(d, "/usr/lib/sysimage/rpm", err);

                if (r1 < 0 || r2 < 0)
                        goto fail;
                db->rpm = r1 || r2;
                rv = 0;
                goto fail;
        }
        d->dpkg_state = 1;
        if (cc_tree_list(d->t, "/var/lib/dpkg/info", 0, &db->names, &lerr) < 0) {
                cc_strv_free(&db->names);
                if (lerr.code == CC_ERR_NOMEM) {
                        *err = lerr;
                        goto fail;
                }
        }
        rv = 0;
fail:
        return rv;
}

/* Parse a status text; one that cannot be parsed is noted once and gives
 * NULL (versions unknown). -1 only when out of memory. */
static int status_parse(cc_discovery *d, struct dpkg_db *db, const char *text, size_t len, cc_dpkg_status **out,
                        cc_error *err)
{
        cc_error lerr = {0};

        if (cc_dpkg_status_parse(text, len, out, &lerr) == 0) {
                if (!cc_map_changed(&db->map))
                        return 0;
                /* rewritten in place while read: what was parsed is not to be trusted */
                cc_dpkg_status_free(*out);
        }
        *out = NULL;
        if (lerr.code == CC_ERR_NOMEM) {
                *err = lerr;
                return -1;
        }
        if (db->status_bad)
                return 0;
        db->status_bad = 1;
        return cc_strv_push(&d->notes, "the dpkg status file could not be read; package versions are unknown", err);
}

/* In text[from, len), the first line end followed by line (n bytes): the
 * '\n' before it, or NULL. The search stops at the line's first byte ('P'
 * of "Package: "), a few times a stanza, not at every line end as a search
 * for "\nPackage: " would. */
static const char *after_newline(const char *text, size_t from, size_t len, const char *line, size_t n)
{
        size_t at = from + 1;

        while (at < len) {
                const char *hit = cc_memmem(text + at, len - at, line, n);

                if (hit == NULL)
                        return NULL;
                if (hit[-1] == '\n')
                        return hit - 1;
                at = (size_t)(hit - text) + 1;
        }
        return NULL;
}

/* The stanzas of the packages in want, parsed: found by the "Package: NAME"
 * line dpkg writes (a memmem over the file, where parsing all of it costs
 * milliseconds on a desktop); when one is not found that way, the whole file
 * (dpkg accepts other spellings). *all = 1 when the result is
 * db->status (not to be freed). */
static int status_of(cc_discovery *d, struct dpkg_db *db, const cc_strv *want, cc_dpkg_status **out, int *all,
                     cc_error *err)
{
        cc_buf b = {0};
        size_t i;
        int rv = -1;

        *out = NULL;
        *all = 0;
        if (db->text == NULL)
                return 0;
        for (i = 0; db->status == NULL && !db->status_bad && i < want->n; i++) {
                char *needle = cc_cat(err, "\nPackage: ", want->v[i], "\n", (char *)NULL);
                const char *text = db->text, *hit;
                size_t nl, at = 0, start, stop;
                int found = 0;

                if (needle == NULL)
                        goto fail;
                nl = strlen(needle);
                for (;;) {
                        /* the first stanza has no newline before it */
                        if (at == 0 && db->len >= nl - 1 && memcmp(text, needle + 1, nl - 1) == 0) {
                                start = 0;
                        } else {
                                hit = after_newline(text, at, db->len, needle + 1, nl - 1);
                                if (hit == NULL)
                                        break;
                                size_t lb = at == 0 ? 0 : at + 1; /* where the stanzas not yet taken begin */

                                start = (size_t)(hit - text) + 1;
                                /* back to the stanza's first line, where Package is not the first field */
                                while (start > lb &&
                                       !(start >= 2 && text[start - 1] == '\n' && text[start - 2] == '\n'))
                                        start--;
                        }
                        hit = cc_memmem(text + start, db->len - start, "\n\n", 2);
                        stop = hit ? (size_t)(hit - text) + 1 : db->len;
                        if (cc_buf_append(&b, text + start, stop - start, err) < 0 ||
                            cc_buf_append(&b, "\n\n", 2, err) < 0) {
                                free(needle);
                                goto fail;
                        }
                        found = 1;
                        at = stop;
                        if (at >= db->len)
                                break;
                }
                free(needle);
                if (!found) {
                        TRY(status_parse(d, db, db->text, db->len, &db->status, err));
                        break;
                }
        }
        if (db->status != NULL || db->status_bad) {
                *out = db->status;
                *all = 1;
                rv = 0;
                goto fail;
        }
        rv = status_parse(d, db, b.data ? b.data : "", b.len, out, err);
fail:
        cc_buf_free(&b);
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

/* ---- provenance: distro packages -------------------------------------------------------------- */

int cc_disc_prov_distro(struct cc_dprov *c, int *matched)
{
        cc_discovery *d = c->d;
        cc_error *err = c->err;
        cc_dinst *in = c->in;
        struct dpkg_db *db;
        size_t *count = NULL, i, k, owned = 0;
        cc_strv unowned = {0}, want = {0};
        cc_dpkg_status *st = NULL;
        int rv = -1, tier, st_all = 0;

        *matched = 0;
        if (d->system != CC_SYS_LINUX || (strcmp(in->prefix, "/usr") != 0 && strcmp(in->prefix, "/") != 0))
                return 0;
        TRY(dpkg_load(d, err));
        db = d->dpkg;
        TRY(cc_v_set_str(c->prov, "location", "distro", err));
        if (d->dpkg_state < 0) {
                TRY(cc_v_set_str(c->prov, "kind", "distro-package", err));
                TRY(cc_v_set_bool(c->prov, "owner_known", 0, err));
                TRY(cc_disc_inst_note(in, err,
                                      db->rpm
                                          ? "the files lie where distro packages put them; this is an RPM system (its "
                                            "database is not read), so the owning package is unknown"
                                          : "the files lie where distro packages put them; there is no dpkg or RPM "
                                            "database here, so the owning package is unknown"));
                *matched = 1;
                rv = 0;
                goto fail;
        }
        /* the lists named for cuDNN first; all of them when a file is still unowned */
        for (tier = 1; tier <= 2; tier++) {
                TRY(dpkg_read_lists(d, db, tier, err));
                free(count);
                cc_strv_free(&unowned);
                owned = 0;
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
                if (unowned.n == 0)
                        break;
        }
        for (i = 0; i < db->pkgs.n; i++)
                if (count[i] > 0)
                        TRY(cc_strv_push(&want, db->pkgs.v[i], err));
        TRY(status_of(d, db, &want, &st, &st_all, err));
        TRY(cc_disc_evidence(c, "/var/lib/dpkg/info/*.list (%zu package file lists read)", db->lists));
        for (i = 0; i < db->pkgs.n; i++) {
                const cc_dpkg_pkg *pk;
                cc_value *pkg;
                char up[128];

                if (count[i] == 0)
                        continue;
                pk = st ? cc_dpkg_find(st, db->pkgs.v[i], db->archs.v[i][0] ? db->archs.v[i] : NULL) : NULL;
                pkg = cc_disc_package_obj("dpkg", db->pkgs.v[i], pk ? pk->version : NULL, err);
                if (cc_v_push(cc_disc_packages_of(c), pkg, err) < 0)
                        goto fail;
                TRY(cc_v_set(pkg, "architecture", cc_v_str(db->archs.v[i][0] ? db->archs.v[i] : NULL, err), err));
                TRY(cc_v_set(pkg, "status", cc_v_str(pk ? pk->status : NULL, err), err));
                TRY(cc_v_set_int(pkg, "files_owned", (int64_t)count[i], err));
                if (pk && pk->version && strstr(db->pkgs.v[i], "cudnn") != NULL) {
                        cc_value *ve;

                        upstream_version(pk->version, up, sizeof(up));
                        ve = cc_disc_extra_version(in, "package-database", up, "/var/lib/dpkg/status", err);
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
                        TRY(cc_disc_inst_note(
                            in, err,
                            "files that no package owns (copied in by hand?): %zu, listed in provenance.unowned",
                            unowned.n));
                }
        } else {
                TRY(cc_v_set_str(c->prov, "kind", "copy", err));
                TRY(cc_disc_inst_note(
                    in, err,
                    "no package owns these files (the dpkg file lists name none of them): they were copied "
                    "into a distro location by hand"));
        }
        *matched = 1;
        rv = 0;
fail:
        if (!st_all)
                cc_dpkg_status_free(st);
        free(count);
        cc_strv_free(&unowned);
        cc_strv_free(&want);
        return rv;
}
