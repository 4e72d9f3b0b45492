/* Grouping files into installations (discovery's second part, group.h):
 * the step that reads every file found, decides one installation per prefix
 * (the directory above lib, lib64, lib/x64, bin, bin/x64, bin/12.x,
 * include...; the distro's /usr with its multiarch directories;
 * site-packages/nvidia/cudnn; a conda environment's Library), then its
 * provenance, its link problems and its completeness. Unknown stays
 * unknown. */
#include "group.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PREFIX_ALIASES 16

/* Split a canonical virtual path into components (a Windows drive is left
 * out: every path in a tree is on C:). */
int cc_disc_split_path(const cc_discovery *d, const char *p, cc_strv *out, cc_error *err)
{
        /* '\\' separates on Windows only: on Linux it is a name's character */
        const char *seps = d->system == CC_SYS_WINDOWS ? "/\\" : "/";

        if (d->system == CC_SYS_WINDOWS && p[0] && p[1] == ':')
                p += 2;
        while (*p) {
                const char *s;

                p += strspn(p, seps);
                s = p;
                p += strcspn(p, seps);
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

int cc_disc_digit_first(const char *s)
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
        if (n >= 3 && EQ(n - 1, "x64") && cc_disc_digit_first(c->v[n - 2]) && (EQ(n - 3, "lib") || EQ(n - 3, "bin")))
                base = n - 3; /* lib/12.x/x64 */
        else if (n >= 2 && EQ(n - 1, "x64") && (EQ(n - 2, "lib") || EQ(n - 2, "bin")))
                base = n - 2; /* lib/x64, bin/x64 */
        else if (n >= 2 && cc_disc_digit_first(c->v[n - 1]) &&
                 (EQ(n - 2, "lib") || EQ(n - 2, "bin") || EQ(n - 2, "include")))
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

char *cc_disc_prefix_of(const cc_discovery *d, const char *dir, char **rel, cc_error *err)
{
        cc_strv c = {0};
        char *p = NULL;
        size_t k, i;

        if (rel)
                *rel = NULL;
        if (cc_disc_split_path(d, dir, &c, err) < 0)
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
        char *p = cc_disc_prefix_of(d, dirpath, NULL, err);
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
                char *p = cc_disc_prefix_of(d, dd->canonical, NULL, err);
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

/* ---- the whole step ----------------------------------------------------------------------- */

/* A directory of the installation that ld.so.conf lists and ld.so.cache
 * has nothing of: ldconfig has not run since it was added. */
static int uncached(cc_discovery *d, cc_dinst *in, cc_error *err)
{
        size_t k;

        for (k = 0; k < in->dirs.n; k++)
                if (cc_strv_contains(&d->uncached_conf, in->dirs.v[k]))
                        return cc_disc_problem(in, "not-in-ld-cache", "ldconfig-not-run", NULL, err,
                                               "%s is listed in ld.so.conf but ld.so.cache has none of its libraries: "
                                               "ldconfig has not run since, so no program finds them by name",
                                               in->dirs.v[k]);
        return 0;
}

int cc_disc_group(cc_discovery *d, cc_error *err)
{
        size_t i;

        /* Complete every prefix a file was found in (a library found through
         * LD_LIBRARY_PATH brings its prefix's include/ along). */
        for (i = 0; i < d->nfiles; i++) {
                char *p = cc_disc_prefix_of(d, d->dirs[d->files[i]->dir]->canonical, NULL, err);
                int rc;

                if (p == NULL)
                        return -1;
                rc = cc_smap_get(&d->prefix_walked, p, NULL) ? 0 : cc_disc_walk_prefix(d, p, 0, err);
                free(p);
                if (rc < 0)
                        return -1;
        }
        if (cc_disc_examine_files(d, err) < 0 || group(d, err) < 0)
                return -1;
        for (i = 0; i < d->ninsts; i++) {
                cc_dinst *in = d->insts[i];

                if (cc_disc_provenance(d, in, err) < 0)
                        return -1;
                if (d->system == CC_SYS_WINDOWS && cc_disc_is_system_dir(d, in->prefix) &&
                    cc_disc_problem(
                        in, "system-directory-copy", "win-stale-dll-shadow", NULL, err,
                        "cuDNN in %s is found before every PATH directory: an old copy here shadows the one you "
                        "installed",
                        in->prefix) < 0)
                        return -1;
                if (cc_disc_link_problems(d, in, err) < 0 || cc_disc_completeness(d, in, err) < 0 ||
                    uncached(d, in, err) < 0)
                        return -1;
                in->facts = cc_disc_inst_facts(d, i + 1, err);
                if (in->facts == NULL)
                        return -1;
        }
        return 0;
}
