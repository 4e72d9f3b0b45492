/* Discovery, part one: the roots (environment variables, usual install
 * locations, the loader's directories, Python site-packages found without
 * running Python, Windows' Program Files, System32 and PATH) and the walk
 * over them. Every directory is listed at most once, by its canonical path;
 * the other paths that reached it are kept as aliases. The walk is bounded:
 * a directory count, an entry cap per directory, depth caps, and links are
 * resolved by the tree (40 at most), never followed forever. Grouping into
 * installations is group.c (group.h). */
#include "discover.h"
#include "uninstall.h"

#include "../formats/ldcache.h"
#include "../machine/ldso.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_DIRS 20000
#define MAX_DIR_ENTRIES 65536
#define MAX_ALIASES 32
#define MAX_SOURCES 8
#define MAX_PATH_ENTRIES 65536
#define MAX_ROOTS 200000
#define OPT_DEPTH 4

/* ---- small helpers -------------------------------------------------------- */

char *cc_disc_join(const cc_discovery *d, const char *dir, const char *name, cc_error *err)
{
        return cc_tree_join(d->t, dir, name, err);
}

int cc_disc_name_eq(const cc_discovery *d, const char *a, const char *b)
{
        return d->nocase ? cc_strcasecmp(a, b) == 0 : strcmp(a, b) == 0;
}

const char *cc_disc_has(const cc_discovery *d, size_t di, const char *name)
{
        const cc_strv *n = &d->dirs[di]->names;
        size_t lo = 0, hi = n->n, i;

        while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                int c = strcmp(n->v[mid], name);

                if (c == 0)
                        return n->v[mid];
                if (c < 0)
                        lo = mid + 1;
                else
                        hi = mid;
        }
        if (!d->nocase)
                return NULL;
        for (i = 0; i < n->n; i++)
                if (cc_strcasecmp(n->v[i], name) == 0)
                        return n->v[i];
        return NULL;
}

static int has_magic(const char *s)
{
        return strpbrk(s, "*?[") != NULL;
}

/* A message with the host directory of a --root tree taken off the paths
 * it starts with ("/tmp/img/opt/x: ..." -> "/opt/x: ..."). */
static const char *strip_root(const cc_discovery *d, const char *msg)
{
        const char *root = cc_tree_root(d->t);
        size_t n = root ? strlen(root) : 0;

        if (n && strncmp(msg, root, n) == 0 && (msg[n] == '/' || msg[n] == '\\'))
                return msg + n;
        return msg;
}

/* The message of a platform error without the host path it starts with
 * (the host path of a --root tree means nothing to the reader). */
static const char *strip_host(const char *msg, const char *host)
{
        size_t n = host ? strlen(host) : 0;

        if (n && strncmp(msg, host, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ')
                return msg + n + 2;
        return msg;
}

int cc_disc_add_skipped(cc_discovery *d, const char *path, const char *reason, cc_error *err)
{
        cc_value *s = cc_v_object(err);

        if (cc_v_push(d->skipped, s, err) < 0)
                return -1;
        if (cc_v_set_str(s, "path", path, err) < 0 || cc_v_set_str(s, "reason", reason, err) < 0)
                return -1;
        return 0;
}

/* A note about the whole discovery (each said once). */
#define note(d, err, ...) cc_strv_pushf(&(d)->notes, 1, (err), __VA_ARGS__)

/* ---- roots ------------------------------------------------------------------ */

static int root_push(cc_discovery *d, cc_droot *r, cc_error *err)
{
        if (d->nroots == d->roots_cap) {
                size_t nc = d->roots_cap ? d->roots_cap * 2 : 64;
                cc_droot **nr = cc_realloc(err, d->roots, nc * sizeof(*nr));

                if (nr == NULL)
                        return -1;
                d->roots = nr;
                d->roots_cap = nc;
        }
        if (cc_smap_put(&d->root_idx, r->path, ix(d->nroots), NULL, err) < 0)
                return -1;
        d->roots[d->nroots++] = r;
        return 0;
}

static void root_free(cc_droot *r)
{
        if (r == NULL)
                return;
        free(r->path);
        cc_strv_free(&r->sources);
        free(r->reason);
        free(r->canonical);
        free(r->alias_of);
        free(r);
}

/* Add a root (merging it with an earlier root of the same path). state is
 * CC_ROOT_PENDING for roots to walk, or a final state (a pattern nothing
 * matched) with reason. */
static int add_root_full(cc_discovery *d, const char *path, const char *source, int walk, int depth, int state,
                         const char *reason, cc_error *err)
{
        char *abs;
        void *v;
        cc_droot *r;

        if (path == NULL || path[0] == '\0')
                return 0;
        abs = cc_machine_abs(d->m, path, err);
        if (abs == NULL)
                return err->code == CC_ERR_NOMEM ? -1 : (cc_err_clear(err), 0);
        if (cc_smap_get(&d->root_idx, abs, &v)) {
                r = d->roots[xi(v)];
                free(abs);
                if (!cc_strv_contains(&r->sources, source) && r->sources.n < MAX_SOURCES &&
                    cc_strv_push(&r->sources, source, err) < 0)
                        return -1;
                if (r->walk == CC_WALK_DIR && walk == CC_WALK_PREFIX)
                        r->walk = walk;
                if (r->walk == CC_WALK_TREE && walk == CC_WALK_TREE && depth > r->depth)
                        r->depth = depth;
                return 0;
        }
        if (d->nroots >= MAX_ROOTS) {
                free(abs);
                d->truncated = 1;
                return note(d, err, "more than %d roots: the rest were not searched", MAX_ROOTS);
        }
        r = cc_calloc(err, 1, sizeof(*r));
        if (r == NULL) {
                free(abs);
                return -1;
        }
        r->path = abs;
        r->walk = walk;
        r->depth = depth;
        r->state = state;
        if (cc_strv_push(&r->sources, source, err) < 0 || (reason && (r->reason = cc_strdup(err, reason)) == NULL) ||
            root_push(d, r, err) < 0) {
                root_free(r);
                return -1;
        }
        return 0;
}

static int add_root(cc_discovery *d, const char *path, const char *source, int walk, cc_error *err)
{
        return add_root_full(d, path, source, walk, 0, CC_ROOT_PENDING, NULL, err);
}

/* ---- directories -------------------------------------------------------------- */

static void dir_free(cc_ddir *dd)
{
        if (dd == NULL)
                return;
        free(dd->canonical);
        free(dd->first);
        free(dd->host);
        free(dd->why);
        cc_strv_free(&dd->aliases);
        cc_strv_free(&dd->names);
        free(dd);
}

static int add_alias(cc_discovery *d, cc_ddir *dd, const char *vpath, cc_error *err)
{
        size_t i;

        if (cc_tree_path_eq(d->t, vpath, dd->first) || cc_tree_path_eq(d->t, vpath, dd->canonical))
                return 0;
        for (i = 0; i < dd->aliases.n; i++)
                if (cc_tree_path_eq(d->t, vpath, dd->aliases.v[i]))
                        return 0;
        if (dd->aliases.n >= MAX_ALIASES) {
                dd->more_aliases++;
                return 0;
        }
        return cc_strv_push(&dd->aliases, vpath, err);
}

static void set_why(char *why, size_t wsize, const char *fmt, ...) CC_PRINTF(3, 4);

static void set_why(char *why, size_t wsize, const char *fmt, ...)
{
        va_list ap;

        if (why == NULL || wsize == 0)
                return;
        va_start(ap, fmt);
        vsnprintf(why, wsize, fmt, ap);
        va_end(ap);
}

int cc_disc_get_dir(cc_discovery *d, const char *vpath, size_t root, size_t *out, int *state, char *why, size_t wsize,
                    cc_error *err)
{
        cc_tree_res r;
        cc_error lerr = {0};
        cc_ddir *dd;
        void *v;
        size_t i;
        int more = 0;

        *out = SIZE_MAX;
        *state = CC_ROOT_MISSING;
        set_why(why, wsize, "no such directory");
        if (cc_tree_resolve(d->t, vpath, 1, &r, &lerr) < 0) {
                if (lerr.code == CC_ERR_NOMEM) {
                        *err = lerr;
                        return -1;
                }
                set_why(why, wsize, "%s", lerr.msg);
                return 0;
        }
        if (r.st.type == CC_FT_NONE) {
                if (r.why[0] != '\0') {
                        *state = strstr(r.why, "not a directory") ? CC_ROOT_NOT_DIR : CC_ROOT_UNREADABLE;
                        set_why(why, wsize, "%s", strip_root(d, r.why));
                        if (strstr(r.why, "too many levels"))
                                set_why(why, wsize, "a symbolic link loop (too many levels of symbolic links)");
                }
                cc_tree_res_free(&r);
                return 0;
        }
        if (r.st.type != CC_FT_DIR) {
                *state = CC_ROOT_NOT_DIR;
                set_why(why, wsize, "not a directory");
                cc_tree_res_free(&r);
                return 0;
        }
        if (cc_smap_get(&d->dir_idx, r.canonical, &v)) {
                i = xi(v);
                dd = d->dirs[i];
                cc_tree_res_free(&r);
                if (add_alias(d, dd, vpath, err) < 0)
                        return -1;
                if (dd->root == 0)
                        dd->root = root;
                *out = i;
                *state = dd->state;
                set_why(why, wsize, "%s", dd->why ? dd->why : "");
                return 0;
        }
        if (d->ndirs >= d->max_dirs) {
                d->truncated = 1;
                *state = CC_ROOT_OVER_LIMIT;
                set_why(why, wsize, "not read: %zu directories were read already (the --max-dirs limit)", d->max_dirs);
                cc_tree_res_free(&r);
                return 0;
        }
        if (d->ndirs == d->dirs_cap) {
                size_t nc = d->dirs_cap ? d->dirs_cap * 2 : 256;
                cc_ddir **nd = cc_realloc(err, d->dirs, nc * sizeof(*nd));

                if (nd == NULL) {
                        cc_tree_res_free(&r);
                        return -1;
                }
                d->dirs = nd;
                d->dirs_cap = nc;
        }
        dd = cc_calloc(err, 1, sizeof(*dd));
        if (dd == NULL) {
                cc_tree_res_free(&r);
                return -1;
        }
        dd->canonical = r.canonical;
        dd->host = r.host;
        r.canonical = r.host = NULL;
        dd->walked_depth = -1;
        dd->root = root;
        dd->first = cc_strdup(err, vpath);
        if (dd->first == NULL || cc_smap_put(&d->dir_idx, dd->canonical, ix(d->ndirs), NULL, err) < 0) {
                dir_free(dd);
                return -1;
        }
        d->dirs[d->ndirs++] = dd;
        /* A directory over the entry cap is read in part (the entries the
         * system lists first) and said so: its cuDNN files up to the cap are
         * still found, instead of the whole directory counting as empty. */
        if (cc_list_dir_some(dd->host, d->max_entries, &dd->names, &more, &lerr) < 0) {
                if (lerr.code == CC_ERR_NOMEM) {
                        *err = lerr;
                        return -1;
                }
                dd->listed = -1;
                dd->state = CC_ROOT_UNREADABLE;
                dd->why = cc_strdup(err, strip_host(lerr.msg, dd->host));
                if (dd->why == NULL || cc_disc_add_skipped(d, dd->canonical, dd->why, err) < 0)
                        return -1;
        } else {
                dd->listed = 1;
                dd->state = CC_ROOT_SEARCHED;
                d->entries += dd->names.n;
                if (more) {
                        char reason[160];

                        snprintf(reason, sizeof(reason),
                                 "only %zu of its entries were read (the limit per directory): what is found in it "
                                 "may be incomplete",
                                 dd->names.n);
                        if (cc_disc_add_skipped(d, dd->canonical, reason, err) < 0 ||
                            note(d, err, "%s has more than %zu entries: only the first %zu were read", dd->canonical,
                                 d->max_entries, d->max_entries) < 0)
                                return -1;
                }
        }
        *out = d->ndirs - 1;
        *state = dd->state;
        set_why(why, wsize, "%s", dd->why ? dd->why : "");
        return 0;
}

/* ---- files ------------------------------------------------------------------ */

static int add_file(cc_discovery *d, size_t di, const char *name, const cc_libname *ln, const cc_stat *st,
                    cc_error *err)
{
        cc_dfile *f;
        void *v;

        if (d->nfiles == d->files_cap) {
                size_t nc = d->files_cap ? d->files_cap * 2 : 128;
                cc_dfile **nf = cc_realloc(err, d->files, nc * sizeof(*nf));

                if (nf == NULL)
                        return -1;
                d->files = nf;
                d->files_cap = nc;
        }
        f = cc_calloc(err, 1, sizeof(*f));
        if (f == NULL)
                return -1;
        f->dir = di;
        f->ln = *ln;
        f->type = st->type;
        f->size = st->size;
        f->name = cc_strdup(err, name);
        f->canonical = cc_disc_join(d, d->dirs[di]->canonical, name, err);
        if (f->name == NULL || f->canonical == NULL) {
                free(f->name);
                free(f->canonical);
                free(f);
                return -1;
        }
        d->files[d->nfiles] = f;
        if (cc_smap_get(&d->name_idx, name, &v))
                f->prev_same_name = (size_t)(uintptr_t)v;
        d->nfiles++;
        if (cc_smap_put(&d->file_idx, f->canonical, ix(d->nfiles - 1), NULL, err) < 0 ||
            cc_smap_put(&d->name_idx, name, ix(d->nfiles - 1), NULL, err) < 0)
                return -1;
        return 0;
}

/* Collect the cuDNN entries of a listed directory (once). */
static int scan_dir(cc_discovery *d, size_t di, cc_error *err)
{
        cc_ddir *dd = d->dirs[di];
        size_t i;

        if (dd->scanned || dd->listed <= 0)
                return 0;
        dd->scanned = 1;
        for (i = 0; i < dd->names.n; i++) {
                const char *name = dd->names.v[i];
                cc_libname ln;
                cc_stat st;
                cc_error serr = {0};
                char *hp;

                if (cc_name_library(name, &ln) < 0)
                        continue;
                hp = cc_path_join(dd->host, name, err);
                if (hp == NULL)
                        return -1;
                if (cc_lstat_path(hp, &st, &serr) < 0) {
                        char *vp = cc_disc_join(d, dd->canonical, name, err);
                        int rc = vp ? cc_disc_add_skipped(d, vp, strip_host(serr.msg, hp), err) : -1;

                        free(vp);
                        free(hp);
                        if (rc < 0)
                                return -1;
                        continue;
                }
                free(hp);
                if (st.type != CC_FT_FILE && st.type != CC_FT_LINK)
                        continue;
                if (add_file(d, di, name, &ln, &st, err) < 0)
                        return -1;
        }
        return 0;
}

/* ---- walks ------------------------------------------------------------------ */

/* Where cuDNN lives below an installation prefix. */
static const char *const lnx_prefix_dirs[][4] = {
    {"lib", NULL},
    {"lib64", NULL},
    {"include", NULL},
    {"lib", "*-linux-gnu", NULL},
    {"include", "*-linux-gnu", NULL},
    {"targets", "*", "lib", NULL},
    {"targets", "*", "include", NULL},
};

static const char *const win_prefix_dirs[][4] = {
    {"bin", NULL},
    {"bin", "x64", NULL},
    {"bin", "[0-9]*", NULL},
    {"bin", "[0-9]*", "x64", NULL},
    {"lib", NULL},
    {"lib", "x64", NULL},
    {"lib", "[0-9]*", NULL},
    {"lib", "[0-9]*", "x64", NULL},
    {"include", NULL},
    {"include", "[0-9]*", NULL},
    {"Library", "bin", NULL},
    {"Library", "lib", NULL},
    {"Library", "include", NULL},
};

/* Call fn for base/NAME for each name of listed directory di that matches
 * pat (a literal name is looked up; a glob skips hidden names). */
static int each_match(cc_discovery *d, size_t di, const char *base, const char *pat,
                      int (*fn)(cc_discovery *, const char *, void *, cc_error *), void *ctx, cc_error *err)
{
        const cc_ddir *dd = d->dirs[di];
        size_t i;

        if (!has_magic(pat)) {
                const char *nm = cc_disc_has(d, di, pat);
                char *p;
                int rc;

                if (nm == NULL)
                        return 0;
                p = cc_disc_join(d, base, nm, err);
                if (p == NULL)
                        return -1;
                rc = fn(d, p, ctx, err);
                free(p);
                return rc;
        }
        for (i = 0; i < dd->names.n; i++) {
                const char *nm = dd->names.v[i];
                char *p;
                int rc;

                if (nm[0] == '.' || !cc_glob_match(pat, nm, d->nocase))
                        continue;
                p = cc_disc_join(d, base, nm, err);
                if (p == NULL)
                        return -1;
                rc = fn(d, p, ctx, err);
                free(p);
                if (rc < 0)
                        return -1;
        }
        return 0;
}

static int expand(cc_discovery *d, const char *vdir, const char *const *comps, size_t root, cc_error *err);

struct expand_ctx {
        const char *const *comps;
        size_t root;
};

static int expand_one(cc_discovery *d, const char *path, void *ctx, cc_error *err)
{
        const struct expand_ctx *ec = ctx;

        return expand(d, path, ec->comps, ec->root, err);
}

/* Visit vdir/comps[0]/comps[1]/... (glob components allowed) and collect
 * the cuDNN files of the last level. */
static int expand(cc_discovery *d, const char *vdir, const char *const *comps, size_t root, cc_error *err)
{
        size_t di;
        int st;

        if (cc_disc_get_dir(d, vdir, root, &di, &st, NULL, 0, err) < 0)
                return -1;
        if (di == SIZE_MAX)
                return 0;
        if (comps[0] == NULL)
                return scan_dir(d, di, err);
        {
                struct expand_ctx ec;

                ec.comps = comps + 1;
                ec.root = root;
                return each_match(d, di, vdir, comps[0], expand_one, &ec, err);
        }
}

int cc_disc_walk_prefix(cc_discovery *d, const char *vpath, size_t root, cc_error *err)
{
        static const char *const none[] = {NULL};
        char *canon;
        cc_error cerr = {0};
        size_t i;

        canon = cc_tree_canonical(d->t, vpath, &cerr);
        if (canon == NULL)
                return cerr.code == CC_ERR_NOMEM ? (*err = cerr, -1) : 0;
        /* walked already through another path: walk it again (every listing
         * is cached) so that this path is recorded as an alias of each
         * directory */
        if (!cc_smap_get(&d->prefix_walked, canon, NULL)) {
                if (cc_smap_put(&d->prefix_walked, canon, ix(0), NULL, err) < 0) {
                        free(canon);
                        return -1;
                }
                d->walked_prefixes++;
        }
        free(canon);
        if (expand(d, vpath, none, root, err) < 0)
                return -1;
        if (d->system == CC_SYS_WINDOWS) {
                for (i = 0; i < CC_ARRAY_LEN(win_prefix_dirs); i++)
                        if (expand(d, vpath, win_prefix_dirs[i], root, err) < 0)
                                return -1;
        } else {
                for (i = 0; i < CC_ARRAY_LEN(lnx_prefix_dirs); i++)
                        if (expand(d, vpath, lnx_prefix_dirs[i], root, err) < 0)
                                return -1;
        }
        return 0;
}

/* Directories a bounded tree walk never enters: documentation, sources,
 * caches, package caches and Python trees (those have walks of their own). */
static const char *const pruned[] = {
    ".git",     "__pycache__", "node_modules", "share",         "doc",           "docs", "man", "src", "samples",
    "examples", "pkgs",        "conda-meta",   "site-packages", "dist-packages", "proc", "sys", "dev",
};

static int is_pruned(const cc_discovery *d, const char *name)
{
        size_t i;

        for (i = 0; i < CC_ARRAY_LEN(pruned); i++)
                if (cc_disc_name_eq(d, name, pruned[i]))
                        return 1;
        return 0;
}

/* lib, lib64, bin, include: below them only per-CUDA subfolders (12.x) and
 * x64 can hold cuDNN. */
static int is_leaf_dir(const cc_discovery *d, const char *name)
{
        return cc_disc_name_eq(d, name, "lib") || cc_disc_name_eq(d, name, "lib64") ||
               cc_disc_name_eq(d, name, "bin") || cc_disc_name_eq(d, name, "include");
}

static int walk_tree(cc_discovery *d, const char *vdir, int depth, int leaf, size_t root, cc_error *err)
{
        size_t di, i;
        int st;
        cc_ddir *dd;

        if (cc_disc_get_dir(d, vdir, root, &di, &st, NULL, 0, err) < 0)
                return -1;
        if (di == SIZE_MAX)
                return 0;
        if (scan_dir(d, di, err) < 0)
                return -1;
        dd = d->dirs[di];
        if (depth <= 0 || dd->listed <= 0 || dd->walked_depth >= depth)
                return 0;
        dd->walked_depth = depth;
        for (i = 0; i < dd->names.n; i++) {
                const char *nm = dd->names.v[i];
                cc_stat lst;
                cc_error serr = {0};
                char *hp, *vp;
                int rc = 0;

                if (is_pruned(d, nm))
                        continue;
                if (leaf && !(nm[0] >= '0' && nm[0] <= '9') && !cc_disc_name_eq(d, nm, "x64"))
                        continue;
                hp = cc_path_join(dd->host, nm, err);
                if (hp == NULL)
                        return -1;
                if (cc_lstat_path(hp, &lst, &serr) < 0)
                        lst.type = CC_FT_NONE;
                free(hp);
                if (lst.type != CC_FT_DIR && lst.type != CC_FT_LINK)
                        continue;
                vp = cc_disc_join(d, vdir, nm, err);
                if (vp == NULL)
                        return -1;
                if (lst.type == CC_FT_LINK) {
                        cc_tree_res r;

                        if (cc_tree_resolve(d->t, vp, 1, &r, err) < 0) {
                                free(vp);
                                return -1;
                        }
                        if (r.st.type == CC_FT_NONE && strstr(r.why, "too many levels"))
                                rc = cc_disc_add_skipped(
                                    d, vp, "a symbolic link loop (too many levels of symbolic links)", err);
                        if (r.st.type != CC_FT_DIR) {
                                cc_tree_res_free(&r);
                                free(vp);
                                if (rc < 0)
                                        return -1;
                                continue;
                        }
                        cc_tree_res_free(&r);
                }
                rc = walk_tree(d, vp, depth - 1, is_leaf_dir(d, nm), root, err);
                free(vp);
                if (rc < 0)
                        return -1;
        }
        return 0;
}

/* A Python site-packages: the cuDNN wheels (nvidia/cudnn, the cu13
 * metapackage layout nvidia/cu13) and the copy bundled in torch/lib. */
static int walk_site(cc_discovery *d, const char *vsite, size_t root, cc_error *err)
{
        static const char *const lib[] = {"lib", NULL};
        size_t di, ni, i;
        int st;
        const char *nm;
        char *vnv = NULL;
        int rv = -1;

        if (cc_disc_get_dir(d, vsite, root, &di, &st, NULL, 0, err) < 0)
                return -1;
        if (di == SIZE_MAX)
                return 0;
        TRY(scan_dir(d, di, err));
        nm = cc_disc_has(d, di, "nvidia");
        if (nm != NULL) {
                vnv = cc_disc_join(d, vsite, nm, err);
                if (vnv == NULL)
                        goto fail;
                TRY(cc_disc_get_dir(d, vnv, root, &ni, &st, NULL, 0, err));
                if (ni != SIZE_MAX) {
                        const cc_ddir *nd = d->dirs[ni];

                        for (i = 0; i < nd->names.n; i++) {
                                const char *sub = nd->names.v[i];
                                char *p;
                                int rc;

                                if (!cc_disc_name_eq(d, sub, "cudnn") && !cc_glob_match("cu[0-9]*", sub, d->nocase))
                                        continue;
                                p = cc_disc_join(d, vnv, sub, err);
                                if (p == NULL)
                                        goto fail;
                                rc = cc_disc_walk_prefix(d, p, root, err);
                                free(p);
                                TRY(rc);
                        }
                }
        }
        nm = cc_disc_has(d, di, "torch");
        if (nm != NULL) {
                char *p = cc_disc_join(d, vsite, nm, err);
                int rc;

                if (p == NULL)
                        goto fail;
                rc = expand(d, p, lib, root, err);
                free(p);
                TRY(rc);
        }
        rv = 0;
fail:
        free(vnv);
        return rv;
}

/* ---- globbing over the listing cache ------------------------------------------- */

static int dglob(cc_discovery *d, const char *base, const char *const *comps, cc_strv *out, cc_error *err);

struct dglob_ctx {
        const char *const *comps;
        cc_strv *out;
};

static int dglob_one(cc_discovery *d, const char *path, void *ctx, cc_error *err)
{
        const struct dglob_ctx *gc = ctx;

        return dglob(d, path, gc->comps, gc->out, err);
}

/* The existing paths below base that match comps (glob components; the last
 * one may name any kind of entry), in listing order. */
static int dglob(cc_discovery *d, const char *base, const char *const *comps, cc_strv *out, cc_error *err)
{
        size_t di;
        int st;

        if (comps[0] == NULL)
                return cc_strv_push(out, base, err);
        if (cc_disc_get_dir(d, base, 0, &di, &st, NULL, 0, err) < 0)
                return -1;
        if (st == CC_ROOT_OVER_LIMIT)
                d->glob_limited = 1;
        if (di == SIZE_MAX)
                return 0;
        {
                struct dglob_ctx gc;

                gc.comps = comps + 1;
                gc.out = out;
                return each_match(d, di, base, comps[0], dglob_one, &gc, err);
        }
}

/* 1 if vpath is an existing directory (listed through the cache), or one
 * that the directory budget no longer lets us look at (the walk then reports
 * it as over the limit). */
static int is_dir(cc_discovery *d, const char *vpath, cc_error *err)
{
        size_t di;
        int st;

        if (cc_disc_get_dir(d, vpath, 0, &di, &st, NULL, 0, err) < 0)
                return -1;
        return di != SIZE_MAX || st == CC_ROOT_OVER_LIMIT;
}

static int exists(cc_discovery *d, const char *vpath, cc_error *err)
{
        cc_stat st;

        if (cc_tree_stat(d->t, vpath, &st, err) < 0)
                return err->code == CC_ERR_NOMEM ? -1 : (cc_err_clear(err), 0);
        return st.type != CC_FT_NONE;
}

/* Add the matches of base/comps as roots; a pattern nothing matches is
 * added as a missing root when report_missing is set. */
static int add_glob_roots(cc_discovery *d, const char *base, const char *const *comps, const char *source, int walk,
                          int report_missing, cc_error *err)
{
        cc_strv m = {0};
        size_t i;
        int rv = -1, limited;

        if (base == NULL || base[0] == '\0')
                return 0;
        d->glob_limited = 0;
        TRY(dglob(d, base, comps, &m, err));
        limited = d->glob_limited;
        for (i = 0; i < m.n; i++) {
                int r = is_dir(d, m.v[i], err);

                TRY(r);
                if (r)
                        TRY(add_root(d, m.v[i], source, walk, err));
        }
        if (limited || (m.n == 0 && report_missing)) {
                cc_buf b = {0};
                char *pat;
                int rc;

                TRY(cc_buf_puts(&b, base, err));
                for (i = 0; comps[i]; i++)
                        if (cc_buf_putc(&b, d->sep, err) < 0 || cc_buf_puts(&b, comps[i], err) < 0) {
                                cc_buf_free(&b);
                                goto fail;
                        }
                pat = cc_buf_steal(&b);
                if (pat == NULL)
                        goto fail;
                rc = add_root_full(d, pat, source, walk, 0, limited ? CC_ROOT_OVER_LIMIT : CC_ROOT_MISSING,
                                   limited ? "not expanded: the --max-dirs limit was reached" : "nothing matches", err);
                free(pat);
                TRY(rc);
        }
        rv = 0;
fail:
        cc_strv_free(&m);
        return rv;
}

/* ---- the roots of each kind ----------------------------------------------------- */

/* CUDA_PATH and CUDA_PATH_V*_* of one of the registry's environments, as
 * roots whose source says so ("CUDA_PATH_V12_4 (registry, machine)"). */
static int registry_env_roots(cc_discovery *d, const char *hive, const char *key, const char *label, cc_error *err)
{
        cc_strv names = {0}, data = {0}, keys = {0};
        cc_error rerr = {0};
        char *dir = NULL, *src = NULL;
        size_t i, k;
        int rv = -1;

        if (cc_reg_values(hive, key, &names, &data, &rerr) < 0) {
                if (rerr.code == CC_ERR_NOMEM) {
                        *err = rerr;
                        goto fail;
                }
                rv = 0; /* no such key, or it cannot be read: the process's variables are all there is */
                goto fail;
        }
        for (i = 0; i < names.n && i < data.n; i++)
                if (cc_strcasecmp(names.v[i], "CUDA_PATH") == 0 || cc_glob_match("CUDA_PATH_V*_*", names.v[i], 1))
                        TRY(cc_strv_push(&keys, names.v[i], err));
        cc_strv_sort(&keys);
        for (i = 0; i < keys.n; i++) {
                for (k = 0; k < names.n && strcmp(names.v[k], keys.v[i]) != 0; k++)
                        ;
                dir = cc_machine_expand(d->m, data.v[k], 0, err);
                src = cc_asprintf(err, "%s (registry, %s)", keys.v[i], label);
                if (dir == NULL || src == NULL)
                        goto fail;
                TRY(add_root(d, dir, src, CC_WALK_PREFIX, err));
                free(dir);
                free(src);
                dir = src = NULL;
        }
        rv = 0;
fail:
        free(dir);
        free(src);
        cc_strv_free(&names);
        cc_strv_free(&data);
        cc_strv_free(&keys);
        return rv;
}

/* The running Windows machine: CUDA_PATH and CUDA_PATH_V*_* as the
 * registry's environments have them (the machine's, then the user's), for a
 * process started before a toolkit's installer set them (a shell opened
 * earlier has none of them, or an older one). The same directory as the
 * process's variable is one root with both sources. */
static int registry_prefix_roots(cc_discovery *d, cc_error *err)
{
        if (!d->m->live || d->system != CC_SYS_WINDOWS || !cc_host_is_windows())
                return 0;
        if (registry_env_roots(d, "HKLM", "SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment", "machine",
                               err) < 0)
                return -1;
        return registry_env_roots(d, "HKCU", "Environment", "user", err);
}

static int env_prefix_roots(cc_discovery *d, cc_error *err)
{
        static const char *const first[] = {"CUDNN_PATH", "CUDNN_HOME", "CUDA_PATH"};
        cc_strv keys = {0};
        size_t i;
        int rv = -1;

        for (i = 0; i < CC_ARRAY_LEN(first); i++)
                TRY(add_root(d, cc_machine_getenv(d->m, first[i]), first[i], CC_WALK_PREFIX, err));
        /* CUDA_PATH_V11_4, CUDA_PATH_V12_4...: every variable of that form */
        for (i = 0; i < d->m->env.kv.n; i++) {
                const char *kv = d->m->env.kv.v[i], *eq = strchr(kv, '=');
                char key[128];

                if (eq == NULL || (size_t)(eq - kv) >= sizeof(key))
                        continue;
                memcpy(key, kv, (size_t)(eq - kv));
                key[eq - kv] = '\0';
                if (cc_glob_match("CUDA_PATH_V*_*", key, d->m->env.nocase))
                        TRY(cc_strv_push(&keys, key, err));
        }
        cc_strv_sort(&keys);
        for (i = 0; i < keys.n; i++)
                TRY(add_root(d, cc_machine_getenv(d->m, keys.v[i]), keys.v[i], CC_WALK_PREFIX, err));
        TRY(add_root(d, cc_machine_getenv(d->m, "CUDA_HOME"), "CUDA_HOME", CC_WALK_PREFIX, err));
        TRY(registry_prefix_roots(d, err));
        rv = 0;
fail:
        cc_strv_free(&keys);
        return rv;
}

/* A search-path variable split into absolute directories: relative entries
 * (and, for LD_LIBRARY_PATH, empty ones) are taken against the current
 * directory. */
static int split_env_list(cc_discovery *d, const char *var, cc_strv *out, cc_error *err)
{
        const char *s = cc_machine_getenv(d->m, var);
        cc_error serr = {0};

        if (s == NULL)
                return 0;
        if (cc_split_pathlist_any(s, cc_pathlist_seps(d->system, var), MAX_PATH_ENTRIES, out, &serr) < 0) {
                if (serr.code == CC_ERR_NOMEM) {
                        *err = serr;
                        return -1;
                }
                return note(d, err, "%s: %s; the rest was not searched", var, serr.msg);
        }
        return 0;
}

/* Windows PATH entries may carry quotes: "C:\Program Files\x". */
static const char *unquote(char *s)
{
        size_t n = strlen(s);

        if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
                s[n - 1] = '\0';
                return s + 1;
        }
        return s;
}

static int ld_library_path_roots(cc_discovery *d, cc_error *err)
{
        cc_strv v = {0};
        size_t i;
        int rv = -1;

        TRY(split_env_list(d, "LD_LIBRARY_PATH", &v, err));
        for (i = 0; i < v.n; i++) {
                char src[96];

                snprintf(src, sizeof(src), "LD_LIBRARY_PATH entry %zu%s", i + 1,
                         v.v[i][0] ? "" : " (empty: the current directory)");
                TRY(add_root(d, v.v[i][0] ? v.v[i] : d->m->cwd, src, CC_WALK_DIR, err));
        }
        rv = 0;
fail:
        cc_strv_free(&v);
        return rv;
}

static int site_roots_below(cc_discovery *d, const char *prefix, const char *source, cc_error *err)
{
        static const char *const lnx[] = {"lib", "python3*", "site-packages", NULL};
        static const char *const win[] = {"Lib", "site-packages", NULL};

        return add_glob_roots(d, prefix, d->system == CC_SYS_WINDOWS ? win : lnx, source, CC_WALK_SITE, 0, err);
}

/* A conda environment: its lib/include (Windows: Library\bin...) and its
 * site-packages. */
static int add_conda_env(cc_discovery *d, const char *env, const char *source, cc_error *err)
{
        if (add_root(d, env, source, CC_WALK_PREFIX, err) < 0)
                return -1;
        return site_roots_below(d, env, source, err);
}

static int venv_roots(cc_discovery *d, cc_error *err)
{
        const char *venv = cc_machine_getenv(d->m, "VIRTUAL_ENV");
        const char *conda = cc_machine_getenv(d->m, "CONDA_PREFIX");
        static const char *const lnx[] = {"lib", "python3*", "site-packages", NULL};
        static const char *const win[] = {"Lib", "site-packages", NULL};

        if (venv != NULL && venv[0] != '\0') {
                char *abs = cc_machine_abs(d->m, venv, err);
                int rc;

                if (abs == NULL)
                        return -1;
                rc = add_glob_roots(d, abs, d->system == CC_SYS_WINDOWS ? win : lnx, "VIRTUAL_ENV", CC_WALK_SITE, 1,
                                    err);
                free(abs);
                if (rc < 0)
                        return -1;
        }
        if (conda != NULL && conda[0] != '\0') {
                char *abs = cc_machine_abs(d->m, conda, err);
                int rc;

                if (abs == NULL)
                        return -1;
                rc = add_conda_env(d, abs, "CONDA_PREFIX", err);
                free(abs);
                if (rc < 0)
                        return -1;
        }
        return 0;
}

static int usual_prefix_roots(cc_discovery *d, cc_error *err)
{
        if (d->system == CC_SYS_WINDOWS) {
                static const char *const cuda[] = {"Program Files", "NVIDIA GPU Computing Toolkit", "CUDA", "v*", NULL};
                static const char *const cudnn[] = {"Program Files", "NVIDIA", "CUDNN", "v*", NULL};

                if (add_glob_roots(d, "C:\\", cuda, "usual location (CUDA toolkits)", CC_WALK_PREFIX, 1, err) < 0)
                        return -1;
                return add_glob_roots(d, "C:\\", cudnn, "usual location (cuDNN installer)", CC_WALK_PREFIX, 1, err);
        } else {
                static const char *const cuda[] = {"usr", "local", "cuda*", NULL};

                return add_glob_roots(d, "/", cuda, "usual location (/usr/local/cuda*)", CC_WALK_PREFIX, 1, err);
        }
}

/* Where path leads in the tree (its canonical path), or NULL when it cannot
 * be resolved (err set only when out of memory). */
static char *canonical_of(cc_discovery *d, const char *path, cc_error *err)
{
        cc_error cerr = {0};
        char *canon = cc_tree_canonical(d->m->tree, path, &cerr);

        if (canon == NULL && cerr.code == CC_ERR_NOMEM)
                *err = cerr;
        return canon;
}

static int loader_roots(cc_discovery *d, cc_error *err)
{
        cc_ldso ld;
        const cc_strv *v;
        const cc_ldcache *cache;
        cc_smap seen = {0};
        cc_strv cache_dirs = {0}, cached_canon = {0};
        cc_error lerr = {0};
        size_t i;
        int rv = -1;

        if (cc_ldso_read(d->m, NULL, &ld, &lerr) < 0) {
                if (lerr.code == CC_ERR_NOMEM) {
                        *err = lerr;
                        return -1;
                }
                return note(d, err, "the loader's directories are not known: %s", lerr.msg);
        }
        v = &ld.conf_dirs;
        for (i = 0; i < v->n; i++)
                TRY(add_root(d, v->v[i], "ld.so.conf", CC_WALK_DIR, err));
        v = &ld.conf_warnings;
        for (i = 0; i < v->n; i++)
                TRY(note(d, err, "ld.so.conf: %s", v->v[i]));
        cache = ld.cache;
        if (cache != NULL) {
                for (i = 0; i < cache->n; i++) {
                        const char *p = cache->entries[i].value;
                        const char *b = cc_basename(p);
                        char *dir;

                        if (p[0] != '/' || b == p)
                                continue;
                        dir = cc_dirname(p, 1, err);
                        if (dir == NULL)
                                goto fail;
                        if (cc_smap_get(&seen, dir, NULL)) {
                                free(dir);
                                continue;
                        }
                        if (cc_smap_put(&seen, dir, NULL, NULL, err) < 0 || cc_strv_push(&cache_dirs, dir, err) < 0 ||
                            add_root(d, dir, "ld.so.cache", CC_WALK_DIR, err) < 0) {
                                free(dir);
                                goto fail;
                        }
                        free(dir);
                }
        }
        /* a directory ld.so.conf lists that the cache has nothing of: no
         * ldconfig since it was added (a library there is found by no one) */
        for (i = 0; cache != NULL && i < ld.conf_dirs.n; i++) {
                char *canon;
                size_t k;

                if (cc_smap_get(&seen, ld.conf_dirs.v[i], NULL))
                        continue;
                /* the cache names a directory as ldconfig reached it (Debian's
                 * /lib/x86_64-linux-gnu for /usr/lib/x86_64-linux-gnu): compare
                 * where they lead */
                for (k = cached_canon.n; k < cache_dirs.n; k++) {
                        canon = canonical_of(d, cache_dirs.v[k], err);
                        if (canon == NULL && err->code == CC_ERR_NOMEM)
                                goto fail;
                        if (cc_strv_take(&cached_canon, canon ? canon : cc_strdup(err, ""), err) < 0)
                                goto fail;
                }
                canon = canonical_of(d, ld.conf_dirs.v[i], err);
                if (canon == NULL) {
                        if (err->code == CC_ERR_NOMEM)
                                goto fail;
                        continue;
                }
                if (cc_strv_contains(&cached_canon, canon) || cc_strv_contains(&d->uncached_conf, canon)) {
                        free(canon);
                        continue;
                }
                if (cc_strv_take(&d->uncached_conf, canon, err) < 0)
                        goto fail;
        }
        v = &ld.sysdirs;
        for (i = 0; i < v->n; i++)
                TRY(add_root(d, v->v[i], "the loader's default directories", CC_WALK_DIR, err));
        rv = 0;
fail:
        cc_smap_free(&seen);
        cc_strv_free(&cache_dirs);
        cc_strv_free(&cached_canon);
        cc_ldso_free(&ld);
        return rv;
}

static int distro_roots(cc_discovery *d, cc_error *err)
{
        static const char *const always[] = {"/usr/lib/x86_64-linux-gnu", "/usr/include/x86_64-linux-gnu",
                                             "/usr/include", "/usr/lib64"};
        static const char *const if_present[] = {"/usr/lib/aarch64-linux-gnu", "/usr/include/aarch64-linux-gnu",
                                                 "/usr/lib/sbsa-linux", "/usr/include/sbsa-linux"};
        size_t i;

        for (i = 0; i < CC_ARRAY_LEN(always); i++)
                if (add_root(d, always[i], "distro package location", CC_WALK_DIR, err) < 0)
                        return -1;
        for (i = 0; i < CC_ARRAY_LEN(if_present); i++) {
                int r = is_dir(d, if_present[i], err);

                if (r < 0 || (r && add_root(d, if_present[i], "distro package location", CC_WALK_DIR, err) < 0))
                        return -1;
        }
        return 0;
}

static int wsl_roots(cc_discovery *d, cc_error *err)
{
        cc_error rerr = {0};
        char *host, *text = NULL;
        size_t len = 0;
        int wsl = 0, r;

        host = cc_tree_host(d->t, "/proc/version", &rerr);
        if (host != NULL) {
                if (cc_read_stream(host, 64 << 10, &text, &len, &rerr) == 0) {
                        size_t i;

                        for (i = 0; i + 9 <= len && !wsl; i++)
                                wsl = cc_strncasecmp(text + i, "microsoft", 9) == 0;
                }
                free(text);
                free(host);
        }
        if (rerr.code == CC_ERR_NOMEM) {
                *err = rerr;
                return -1;
        }
        if (wsl)
                return add_root(d, "/usr/lib/wsl/lib", "WSL (/proc/version names Microsoft)", CC_WALK_DIR, err);
        r = is_dir(d, "/usr/lib/wsl/lib", err);
        if (r <= 0)
                return r;
        return add_root(d, "/usr/lib/wsl/lib", "WSL (the directory exists)", CC_WALK_DIR, err);
}

static int windows_dir_roots(cc_discovery *d, cc_error *err)
{
        const char *sr = cc_machine_getenv(d->m, "SystemRoot");
        char *s32 = NULL, *wow = NULL;
        cc_strv path = {0};
        size_t i;
        int rv = -1;

        if (sr == NULL || sr[0] == '\0')
                sr = cc_machine_getenv(d->m, "windir");
        if (sr == NULL || sr[0] == '\0')
                sr = "C:\\Windows";
        s32 = cc_disc_join(d, sr, "System32", err);
        wow = cc_disc_join(d, sr, "SysWOW64", err);
        if (s32 == NULL || wow == NULL)
                goto fail;
        TRY(add_root(d, s32, "System32", CC_WALK_DIR, err));
        TRY(add_root(d, wow, "SysWOW64", CC_WALK_DIR, err));
        TRY(split_env_list(d, "PATH", &path, err));
        for (i = 0; i < path.n; i++) {
                char src[48];
                const char *p = unquote(path.v[i]);

                if (p[0] == '\0')
                        continue;
                snprintf(src, sizeof(src), "PATH entry %zu", i + 1);
                TRY(add_root(d, p, src, CC_WALK_DIR, err));
        }
        rv = 0;
fail:
        free(s32);
        free(wow);
        cc_strv_free(&path);
        return rv;
}

/* The running Windows machine: the InstallLocation of each uninstall entry
 * of NVIDIA's CUDA or cuDNN (uninstall.h), as a prefix root whose source
 * names the entry ("uninstall entry NVIDIA cuDNN 9.1 (HKLM\...)"): a cuDNN
 * installed by the exe installer somewhere else than its usual directory is
 * found too. A location that does not exist is a root in state missing (the
 * entry outlived its files). */
static int uninstall_roots(cc_discovery *d, cc_error *err)
{
        size_t i;

        if (cc_disc_uninstall_read(d, err) < 0)
                return -1;
        for (i = 0; d->uninst != NULL && i < d->uninst->n; i++) {
                const cc_uentry *e = &d->uninst->v[i];
                char *src;
                int rc;

                if (e->location == NULL)
                        continue;
                src = cc_asprintf(err, "uninstall entry %s (%s)", e->name, e->key ? e->key : "?");
                if (src == NULL)
                        return -1;
                rc = add_root(d, e->location, src, CC_WALK_PREFIX, err);
                free(src);
                if (rc < 0)
                        return -1;
        }
        return 0;
}

static int conda_roots(cc_discovery *d, cc_error *err)
{
        static const char *const names[] = {"miniconda3", "anaconda3", "miniforge3", "mambaforge",
                                            "micromamba", "miniconda", "anaconda"};
        static const char *const envs[] = {"envs", "*", NULL};
        const char *home = cc_machine_getenv(d->m, d->system == CC_SYS_WINDOWS ? "USERPROFILE" : "HOME");
        const char *sysbase = d->system == CC_SYS_WINDOWS ? "C:\\ProgramData" : "/opt";
        size_t i, b;

        for (b = 0; b < 2; b++) {
                const char *base = b == 0 ? home : sysbase;

                if (base == NULL || base[0] == '\0' || !cc_tree_is_abs(d->t, base))
                        continue;
                for (i = 0; i < CC_ARRAY_LEN(names); i++) {
                        char *root = cc_disc_join(d, base, names[i], err), *src;
                        cc_strv m = {0};
                        size_t k;
                        int r, rc = 0;

                        if (root == NULL)
                                return -1;
                        r = is_dir(d, root, err);
                        if (r <= 0) {
                                free(root);
                                if (r < 0)
                                        return -1;
                                continue;
                        }
                        src = cc_asprintf(err, "conda installation %s", root);
                        if (src == NULL || add_conda_env(d, root, src, err) < 0 || dglob(d, root, envs, &m, err) < 0)
                                rc = -1;
                        for (k = 0; rc == 0 && k < m.n; k++) {
                                r = is_dir(d, m.v[k], err);
                                if (r < 0 || (r && add_conda_env(d, m.v[k], src, err) < 0))
                                        rc = -1;
                        }
                        cc_strv_free(&m);
                        free(src);
                        free(root);
                        if (rc < 0)
                                return -1;
                }
        }
        if (home != NULL && home[0] != '\0' && cc_tree_is_abs(d->t, home)) {
                static const char *const dotenvs[] = {".conda", "envs", "*", NULL};
                cc_strv m = {0};
                size_t k;
                int rc = dglob(d, home, dotenvs, &m, err);

                for (k = 0; rc == 0 && k < m.n; k++) {
                        int r = is_dir(d, m.v[k], err);

                        if (r < 0 || (r && add_conda_env(d, m.v[k], "conda environment in ~/.conda/envs", err) < 0))
                                rc = -1;
                }
                cc_strv_free(&m);
                if (rc < 0)
                        return -1;
        }
        return 0;
}

/* "python3", "python3.11", "python3.13t": an interpreter name, not
 * python3-config. *minor gets "3.11" when the name carries it. */
static int python_name(const char *name, int windows, char *minor, size_t msize)
{
        const char *p;

        minor[0] = '\0';
        if (windows) {
                if (cc_strcasecmp(name, "python.exe") == 0 || cc_strcasecmp(name, "python3.exe") == 0)
                        return 1;
                if (cc_strncasecmp(name, "python3", 7) != 0 || !cc_ends_with_nocase(name, ".exe"))
                        return 0;
                for (p = name + 7; *p && *p != '.'; p++)
                        if (*p < '0' || *p > '9')
                                return 0;
                return 1;
        }
        if (strncmp(name, "python3", 7) != 0)
                return 0;
        p = name + 7;
        if (*p == '\0')
                return 1;
        if (*p++ != '.' || *p < '0' || *p > '9')
                return 0;
        while (*p >= '0' && *p <= '9')
                p++;
        if (*p == 't')
                p++;
        if (*p != '\0')
                return 0;
        snprintf(minor, msize, "%s", name + 6);
        {
                char *t = strchr(minor, 't');

                if (t)
                        *t = '\0';
        }
        return 1;
}

/* The site-packages of one interpreter found on PATH (Linux). */
static int lnx_python_sites(cc_discovery *d, const char *dir, const char *name, cc_smap *seen, cc_error *err)
{
        static const char *const any[] = {"lib", "python3*", "site-packages", NULL};
        char *vpy = NULL, *canon = NULL, *cdir = NULL, *prefix = NULL, *parent = NULL, *cfg = NULL, *src = NULL;
        char minor[16], cminor[16];
        cc_error cerr = {0};
        int rv = -1, r;

        (void)python_name(name, 0, minor, sizeof(minor));
        vpy = cc_disc_join(d, dir, name, err);
        parent = cc_tree_dirname(d->t, dir, err);
        if (vpy == NULL || parent == NULL)
                goto fail;
        /* a virtual environment: pyvenv.cfg one level above bin/ */
        cfg = cc_disc_join(d, parent, "pyvenv.cfg", err);
        if (cfg == NULL)
                goto fail;
        r = exists(d, cfg, err);
        TRY(r);
        if (r && !cc_smap_get(seen, cfg, NULL)) {
                TRY(cc_smap_put(seen, cfg, NULL, NULL, err));
                src = cc_asprintf(err, "virtual environment of %s (%s)", vpy, cfg);
                if (src == NULL)
                        goto fail;
                TRY(add_glob_roots(d, parent, any, src, CC_WALK_SITE, 0, err));
                free(src);
                src = NULL;
        }
        canon = cc_tree_canonical(d->t, vpy, &cerr);
        if (canon == NULL) {
                rv = cerr.code == CC_ERR_NOMEM ? (*err = cerr, -1) : 0;
                goto fail;
        }
        if (cc_smap_get(seen, canon, NULL)) {
                rv = 0;
                goto fail;
        }
        TRY(cc_smap_put(seen, canon, NULL, NULL, err));
        (void)python_name(cc_basename(canon), 0, cminor, sizeof(cminor));
        if (cminor[0] == '\0')
                memcpy(cminor, minor, sizeof(cminor));
        cdir = cc_tree_dirname(d->t, canon, err);
        prefix = cdir ? cc_tree_dirname(d->t, cdir, err) : NULL;
        if (prefix == NULL)
                goto fail;
        src = cc_asprintf(err, "python3 on PATH (%s -> %s)", vpy, canon);
        if (src == NULL)
                goto fail;
        if (cminor[0]) {
                char pyd[32];
                const char *c1[] = {"lib", pyd, "site-packages", NULL};
                const char *c2[] = {"lib", pyd, "dist-packages", NULL};
                const char *c3[] = {"usr", "local", "lib", pyd, "dist-packages", NULL};

                snprintf(pyd, sizeof(pyd), "python%s", cminor);
                TRY(add_glob_roots(d, prefix, c1, src, CC_WALK_SITE, 0, err));
                TRY(add_glob_roots(d, prefix, c2, src, CC_WALK_SITE, 0, err));
                TRY(add_glob_roots(d, "/", c3, src, CC_WALK_SITE, 0, err));
        } else {
                TRY(add_glob_roots(d, prefix, any, src, CC_WALK_SITE, 0, err));
        }
        {
                static const char *const deb[] = {"lib", "python3", "dist-packages", NULL};

                TRY(add_glob_roots(d, prefix, deb, src, CC_WALK_SITE, 0, err));
        }
        rv = 0;
fail:
        free(vpy);
        free(canon);
        free(cdir);
        free(prefix);
        free(parent);
        free(cfg);
        free(src);
        return rv;
}

/* Windows: python.exe in a PATH directory (a venv's Scripts\ has pyvenv.cfg
 * one level up). */
static int win_python_sites(cc_discovery *d, const char *dir, const char *name, cc_smap *seen, cc_error *err)
{
        static const char *const sp[] = {"Lib", "site-packages", NULL};
        char *parent = NULL, *cfg = NULL, *src = NULL;
        int rv = -1, r;

        if (cc_smap_get(seen, dir, NULL))
                return 0;
        TRY(cc_smap_put(seen, dir, NULL, NULL, err));
        src = cc_asprintf(err, "Python on PATH (%s%c%s)", dir, d->sep, name);
        parent = cc_tree_dirname(d->t, dir, err);
        cfg = parent ? cc_disc_join(d, parent, "pyvenv.cfg", err) : NULL;
        if (src == NULL || cfg == NULL)
                goto fail;
        TRY(add_glob_roots(d, dir, sp, src, CC_WALK_SITE, 0, err));
        r = exists(d, cfg, err);
        TRY(r);
        if (r)
                TRY(add_glob_roots(d, parent, sp, src, CC_WALK_SITE, 0, err));
        rv = 0;
fail:
        free(parent);
        free(cfg);
        free(src);
        return rv;
}

static int path_python_roots(cc_discovery *d, cc_error *err)
{
        cc_strv path = {0};
        cc_smap seen = {0}, pyseen = {0};
        size_t i, k;
        int rv = -1, win = d->system == CC_SYS_WINDOWS;

        seen.nocase = pyseen.nocase = d->nocase;
        TRY(split_env_list(d, "PATH", &path, err));
        for (i = 0; i < path.n; i++) {
                const char *p = unquote(path.v[i]);
                char *abs;
                size_t di;
                int st;

                if (p[0] == '\0')
                        continue;
                abs = cc_machine_abs(d->m, p, err);
                if (abs == NULL)
                        goto fail;
                if (cc_smap_get(&seen, abs, NULL)) {
                        free(abs);
                        continue;
                }
                if (cc_smap_put(&seen, abs, NULL, NULL, err) < 0 ||
                    cc_disc_get_dir(d, abs, 0, &di, &st, NULL, 0, err) < 0) {
                        free(abs);
                        goto fail;
                }
                for (k = 0; di != SIZE_MAX && k < d->dirs[di]->names.n; k++) {
                        const char *nm = d->dirs[di]->names.v[k];
                        char minor[16];

                        if (!python_name(nm, win, minor, sizeof(minor)))
                                continue;
                        if ((win ? win_python_sites(d, abs, nm, &pyseen, err)
                                 : lnx_python_sites(d, abs, nm, &pyseen, err)) < 0) {
                                free(abs);
                                goto fail;
                        }
                }
                free(abs);
        }
        rv = 0;
fail:
        cc_strv_free(&path);
        cc_smap_free(&seen);
        cc_smap_free(&pyseen);
        return rv;
}

static int user_site_roots(cc_discovery *d, cc_error *err)
{
        if (d->system == CC_SYS_WINDOWS) {
                static const char *const local[] = {"Programs", "Python", "Python3*", "Lib", "site-packages", NULL};
                static const char *const roam[] = {"Python", "Python3*", "site-packages", NULL};
                const char *la = cc_machine_getenv(d->m, "LOCALAPPDATA");
                const char *ad = cc_machine_getenv(d->m, "APPDATA");
                const char *up = cc_machine_getenv(d->m, "USERPROFILE");
                char *la2 = NULL, *ad2 = NULL;
                int rv = -1;

                if ((la == NULL || la[0] == '\0') && up != NULL && up[0] != '\0') {
                        la2 = cc_asprintf(err, "%s\\AppData\\Local", up);
                        if (la2 == NULL)
                                return -1;
                        la = la2;
                }
                if ((ad == NULL || ad[0] == '\0') && up != NULL && up[0] != '\0') {
                        ad2 = cc_asprintf(err, "%s\\AppData\\Roaming", up);
                        if (ad2 == NULL)
                                goto wfail;
                        ad = ad2;
                }
                if (la != NULL && cc_tree_is_abs(d->t, la) &&
                    add_glob_roots(d, la, local, "Python (LOCALAPPDATA)", CC_WALK_SITE, 0, err) < 0)
                        goto wfail;
                if (ad != NULL && cc_tree_is_abs(d->t, ad) &&
                    add_glob_roots(d, ad, roam, "Python user site (APPDATA)", CC_WALK_SITE, 0, err) < 0)
                        goto wfail;
                rv = 0;
        wfail:
                free(la2);
                free(ad2);
                return rv;
        } else {
                static const char *const user[] = {".local", "lib", "python3*", "site-packages", NULL};
                static const char *const pyenv[] = {".pyenv",   "versions",      "*", "lib",
                                                    "python3*", "site-packages", NULL};
                const char *home = cc_machine_getenv(d->m, "HOME");

                if (home == NULL || home[0] == '\0' || !cc_tree_is_abs(d->t, home))
                        return 0;
                if (add_glob_roots(d, home, user, "user site-packages (HOME)", CC_WALK_SITE, 0, err) < 0)
                        return -1;
                return add_glob_roots(d, home, pyenv, "pyenv (HOME)", CC_WALK_SITE, 0, err);
        }
}

static int collect_roots(cc_discovery *d, cc_error *err)
{
        int win = d->system == CC_SYS_WINDOWS;

        if (env_prefix_roots(d, err) < 0)
                return -1;
        if (!win && ld_library_path_roots(d, err) < 0)
                return -1;
        if (venv_roots(d, err) < 0 || usual_prefix_roots(d, err) < 0)
                return -1;
        if (!win && (loader_roots(d, err) < 0 || distro_roots(d, err) < 0 || wsl_roots(d, err) < 0))
                return -1;
        if (win && (windows_dir_roots(d, err) < 0 || uninstall_roots(d, err) < 0))
                return -1;
        if (conda_roots(d, err) < 0 || user_site_roots(d, err) < 0 || path_python_roots(d, err) < 0)
                return -1;
        if (!win && add_root_full(d, "/opt", "usual location (/opt, bounded depth)", CC_WALK_TREE, OPT_DEPTH,
                                  CC_ROOT_PENDING, NULL, err) < 0)
                return -1;
        return 0;
}

/* ---- the walk over every root ---------------------------------------------------- */

static int walk_root(cc_discovery *d, size_t ri, cc_error *err)
{
        cc_droot *r = d->roots[ri];
        size_t di, before = d->nfiles;
        int st;
        char why[256];
        cc_ddir *dd;

        if (r->state != CC_ROOT_PENDING)
                return 0;
        if (cc_disc_get_dir(d, r->path, ri + 1, &di, &st, why, sizeof(why), err) < 0)
                return -1;
        if (di == SIZE_MAX) {
                r->state = st;
                r->reason = cc_strdup(err, why);
                return r->reason ? 0 : -1;
        }
        dd = d->dirs[di];
        r->canonical = cc_strdup(err, dd->canonical);
        if (r->canonical == NULL)
                return -1;
        if (dd->root != 0 && dd->root != ri + 1) {
                r->alias_of = cc_strdup(err, d->roots[dd->root - 1]->path);
                if (r->alias_of == NULL)
                        return -1;
        } else {
                dd->root = ri + 1;
        }
        if (dd->listed < 0) {
                r->state = dd->state;
                r->reason = cc_strdup(err, dd->why);
                return r->reason ? 0 : -1;
        }
        r->state = CC_ROOT_SEARCHED;
        switch (r->walk) {
        case CC_WALK_PREFIX:
                if (cc_disc_walk_prefix(d, r->path, ri + 1, err) < 0)
                        return -1;
                break;
        case CC_WALK_TREE:
                if (walk_tree(d, r->path, r->depth, 0, ri + 1, err) < 0)
                        return -1;
                break;
        case CC_WALK_SITE:
                if (walk_site(d, r->path, ri + 1, err) < 0)
                        return -1;
                break;
        default:
                if (scan_dir(d, di, err) < 0)
                        return -1;
                break;
        }
        r->found += d->nfiles - before;
        return 0;
}

static void file_free(cc_dfile *f)
{
        if (f == NULL)
                return;
        free(f->name);
        free(f->canonical);
        free(f->kind);
        free(f->soname);
        free(f->error);
        cc_v_free(f->versions);
        free(f->target);
        cc_strv_free(&f->chain);
        free(f->resolves_to);
        free(f);
}

void cc_discovery_free(cc_discovery *d)
{
        size_t i;

        if (d == NULL || d->lent)
                return;
        for (i = 0; i < d->nroots; i++)
                root_free(d->roots[i]);
        free(d->roots);
        for (i = 0; i < d->ndirs; i++)
                dir_free(d->dirs[i]);
        free(d->dirs);
        for (i = 0; i < d->nfiles; i++)
                file_free(d->files[i]);
        free(d->files);
        for (i = 0; i < d->ninsts; i++)
                cc_disc_inst_free(d->insts[i]);
        free(d->insts);
        cc_smap_free(&d->root_idx);
        cc_smap_free(&d->dir_idx);
        cc_smap_free(&d->file_idx);
        cc_smap_free(&d->name_idx);
        cc_smap_free(&d->prefix_walked);
        cc_v_free(d->skipped);
        cc_disc_dpkg_free(d->dpkg);
        cc_strv_free(&d->notes);
        cc_strv_free(&d->uncached_conf);
        if (d->uninst != NULL) {
                cc_uentries_free(d->uninst);
                free(d->uninst);
        }
        free(d);
}

static int shareable(const cc_machine *m, const cudnnctl_list_options *opts, const cc_strv *dirs)
{
        return m->share_discovery && dirs == NULL && (opts == NULL || (opts->max_dirs == 0 && opts->nextra_roots == 0));
}

static void free_shared(void *p)
{
        cc_discovery *d = p;

        d->lent = 0;
        cc_discovery_free(d);
}

void cc_discover_share(cc_machine *m, int on)
{
        if (m->shared_discovery != NULL)
                free_shared(m->shared_discovery);
        m->shared_discovery = NULL;
        m->share_discovery = on;
}

/* dirs: NULL for the whole machine, or the only directories looked at. */
static int discover(cc_machine *m, const cudnnctl_list_options *opts, const cc_strv *dirs, cc_discovery **out,
                    cc_error *err)
{
        cc_discovery *d;
        size_t i;

        *out = NULL;
        if (shareable(m, opts, dirs) && m->shared_discovery != NULL) {
                *out = m->shared_discovery;
                return 0;
        }
        d = cc_calloc(err, 1, sizeof(*d));
        if (d == NULL)
                return -1;
        d->m = m;
        d->t = m->tree;
        d->system = m->system;
        d->nocase = cc_tree_nocase(m->tree);
        d->sep = cc_tree_sep(m->tree);
        d->max_dirs = opts && opts->max_dirs ? opts->max_dirs : DEFAULT_MAX_DIRS;
        d->max_entries = MAX_DIR_ENTRIES;
        d->root_idx.nocase = d->dir_idx.nocase = d->file_idx.nocase = d->name_idx.nocase = d->nocase;
        d->prefix_walked.nocase = d->nocase;
        d->skipped = cc_v_array(err);
        if (d->skipped == NULL)
                goto fail;
        /* Places the caller names come first (verify INSTALL). */
        for (i = 0; opts != NULL && i < opts->nextra_roots; i++)
                if (add_root(d, opts->extra_roots[i], "named by the caller", CC_WALK_PREFIX, err) < 0)
                        goto fail;
        for (i = 0; dirs != NULL && i < dirs->n; i++)
                if (add_root(d, dirs->v[i], "the directory of a copy found", CC_WALK_DIR, err) < 0)
                        goto fail;
        if (dirs == NULL && collect_roots(d, err) < 0)
                goto fail;
        for (i = 0; i < d->nroots; i++)
                if (walk_root(d, i, err) < 0)
                        goto fail;
        if (cc_disc_group(d, err) < 0)
                goto fail;
        if (shareable(m, opts, dirs)) {
                d->lent = 1;
                m->shared_discovery = d;
                m->shared_discovery_free = free_shared;
        }
        *out = d;
        return 0;
fail:
        cc_discovery_free(d);
        return -1;
}

int cc_discover(cc_machine *m, const cudnnctl_list_options *opts, cc_discovery **out, cc_error *err)
{
        return discover(m, opts, NULL, out, err);
}

int cc_discover_dirs(cc_machine *m, const cc_strv *dirs, cc_discovery **out, cc_error *err)
{
        return discover(m, NULL, dirs, out, err);
}

/* ---- questions ------------------------------------------------------------------ */

int cc_discovery_find(const cc_discovery *d, const char *name, cc_strv *paths, cc_error *err)
{
        void *v;
        size_t i, start = paths->n;

        if (!cc_smap_get(&d->name_idx, name, &v))
                return 0;
        for (i = (size_t)(uintptr_t)v; i != 0; i = d->files[i - 1]->prev_same_name) {
                const cc_dfile *f = d->files[i - 1];
                char *p;

                if (f->type == CC_FT_LINK && f->resolves_to == NULL)
                        continue; /* a broken link is not a copy */
                p = cc_disc_join(d, d->dirs[f->dir]->first, f->name, err);
                if (p == NULL || cc_strv_take(paths, p, err) < 0)
                        return -1;
        }
        /* newest first above: put them back in discovery order (nothing to do
         * when every copy was a broken link and none was added) */
        for (size_t lo = start, hi = paths->n; lo + 1 < hi; lo++, hi--) {
                char *tmp = paths->v[lo];

                paths->v[lo] = paths->v[hi - 1];
                paths->v[hi - 1] = tmp;
        }
        return 0;
}

int cc_discovery_install_of(const cc_discovery *d, const char *canonical)
{
        void *v;

        if (canonical == NULL || !cc_smap_get(&d->file_idx, canonical, &v))
                return 0;
        return (int)d->files[xi(v)]->inst;
}

const cc_value *cc_discovery_install_facts(const cc_discovery *d, int id)
{
        if (id < 1 || (size_t)id > d->ninsts)
                return NULL;
        return d->insts[id - 1]->facts;
}

const cc_value *cc_discovery_file_versions(const cc_discovery *d, const char *canonical)
{
        void *v;
        const cc_dfile *f;

        if (canonical == NULL || !cc_smap_get(&d->file_idx, canonical, &v))
                return NULL;
        f = d->files[xi(v)];
        if (f->versions == NULL && f->resolves_to != NULL && cc_smap_get(&d->file_idx, f->resolves_to, &v))
                f = d->files[xi(v)];
        return f->versions;
}

/* ---- facts ------------------------------------------------------------------ */

static const char *walk_name(int w)
{
        switch (w) {
        case CC_WALK_PREFIX:
                return "prefix";
        case CC_WALK_TREE:
                return "tree";
        case CC_WALK_SITE:
                return "site-packages";
        default:
                return "directory";
        }
}

static const char *state_name(int s)
{
        switch (s) {
        case CC_ROOT_SEARCHED:
                return "searched";
        case CC_ROOT_MISSING:
                return "missing";
        case CC_ROOT_NOT_DIR:
                return "not-a-directory";
        case CC_ROOT_UNREADABLE:
                return "unreadable";
        case CC_ROOT_OVER_LIMIT:
                return "over-limit";
        default:
                return "not-searched";
        }
}

static cc_value *roots_facts(const cc_discovery *d, cc_error *err)
{
        cc_value *arr = cc_v_array(err);
        size_t i;

        for (i = 0; arr != NULL && i < d->nroots; i++) {
                const cc_droot *r = d->roots[i];
                cc_value *o = cc_v_object(err);

                if (cc_v_push(arr, o, err) < 0)
                        goto fail;
                TRY(cc_v_set_str(o, "path", r->path, err));
                TRY(cc_v_set(o, "sources", cc_v_strv(&r->sources, err), err));
                TRY(cc_v_set_str(o, "walk", walk_name(r->walk), err));
                if (r->walk == CC_WALK_TREE)
                        TRY(cc_v_set_int(o, "depth", r->depth, err));
                TRY(cc_v_set_str(o, "state", state_name(r->state), err));
                if (r->reason != NULL && r->state != CC_ROOT_SEARCHED)
                        TRY(cc_v_set_str(o, "reason", r->reason, err));
                if (r->canonical != NULL && !cc_tree_path_eq(d->t, r->canonical, r->path))
                        TRY(cc_v_set_str(o, "canonical", r->canonical, err));
                if (r->alias_of != NULL)
                        TRY(cc_v_set_str(o, "alias_of", r->alias_of, err));
                TRY(cc_v_set_int(o, "found", (int64_t)r->found, err));
        }
        return arr;
fail:
        cc_v_free(arr);
        return NULL;
}

cc_value *cc_discovery_facts(const cc_discovery *d, cc_error *err)
{
        cc_value *o = cc_v_object(err), *stats = NULL;

        if (o == NULL)
                return NULL;
        TRY(cc_v_set(o, "roots", roots_facts(d, err), err));
        TRY(cc_v_set(o, "installations", cc_disc_installations_facts(d, err), err));
        TRY(cc_v_set(o, "skipped", cc_v_copy(d->skipped, err), err));
        stats = cc_v_object(err);
        if (cc_v_set(o, "stats", stats, err) < 0)
                goto fail;
        TRY(cc_v_set_int(stats, "roots", (int64_t)d->nroots, err));
        TRY(cc_v_set_int(stats, "directories", (int64_t)d->ndirs, err));
        TRY(cc_v_set_int(stats, "entries", (int64_t)d->entries, err));
        TRY(cc_v_set_int(stats, "files", (int64_t)d->nfiles, err));
        TRY(cc_v_set_int(stats, "installations", (int64_t)d->ninsts, err));
        TRY(cc_v_set_int(stats, "max_dirs", (int64_t)d->max_dirs, err));
        TRY(cc_v_set_int(stats, "max_entries_per_directory", (int64_t)d->max_entries, err));
        TRY(cc_v_set_bool(stats, "truncated", d->truncated, err));
        TRY(cc_v_set(o, "notes", cc_v_strv(&d->notes, err), err));
        return o;
fail:
        cc_v_free(o);
        return NULL;
}
