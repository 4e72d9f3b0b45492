/* The installations as facts (docs/json.md "installations"): each with its
 * prefix, aliases, directories, files, provenance, versions and summary,
 * majors, counts, problems and notes, built once and kept. */
#include "group.h"

#include "../facts/views.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

                        if (cc_v_push(ch, s, err) < 0 ||
                            cc_v_set_str(s, CC_K(chain_link, path), f->chain.v[i], err) < 0 ||
                            cc_v_set_str(s, CC_K(chain_link, target), f->chain.v[i + 1], err) < 0)
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

static int majors_of(const cc_discovery *d, const cc_dinst *in, const struct cc_dvent *e, size_t n, cc_value *out,
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
        cc_vw_provenance p;
        size_t i;

        for (i = 0; i < in->nfiles; i++) {
                const cc_dfile *f = d->files[in->files[i]];

                if (f->type == CC_FT_LINK)
                        links++;
                else if (cc_disc_is_lib(f))
                        libs++;
                else if (f->ln.kind == CC_FK_HEADER)
                        hdrs++;
                else if (f->ln.kind == CC_FK_IMPLIB)
                        imp++;
                else if (f->ln.kind == CC_FK_STATIC)
                        sta++;
        }
        cc_vw_provenance_read(in->provenance, &p, NULL);
        if (cc_v_set_int(o, CC_K(inst_counts, libraries), libs, err) < 0 ||
            cc_v_set_int(o, CC_K(inst_counts, headers), hdrs, err) < 0 ||
            cc_v_set_int(o, CC_K(inst_counts, import_libraries), imp, err) < 0 ||
            cc_v_set_int(o, CC_K(inst_counts, static_libraries), sta, err) < 0 ||
            cc_v_set_int(o, CC_K(inst_counts, symlinks), links, err) < 0 ||
            cc_v_set_int(o, CC_K(inst_counts, dist_info), (int64_t)cc_v_len(p.packages), err) < 0)
                return -1;
        return 0;
}

cc_value *cc_disc_inst_facts(cc_discovery *d, size_t id, cc_error *err)
{
        cc_dinst *in = d->insts[id - 1];
        cc_value *o = cc_v_object(err), *vers = NULL, *arr, *sets = NULL, *counts;
        struct cc_dvent *ents = NULL;
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
        if (sets == NULL || cc_disc_collect_versions(d, in, vers, &ents, &nents, err) < 0 ||
            cc_disc_summarize_versions(in, ents, nents, o, err) < 0 || majors_of(d, in, ents, nents, arr, err) < 0 ||
            cc_disc_mixed_sets(d, in, sets, err) < 0)
                goto fail;
        TRY(cc_v_set(o, "versions", vers, err));
        vers = NULL;
        counts = cc_v_object(err);
        if (cc_v_set(o, CC_K(installation, counts), counts, err) < 0 || count_files(d, in, counts, err) < 0)
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
                pre = cc_disc_prefix_of(d, dd->canonical, &rel, err);
                free(pre);
                if (rel == NULL)
                        goto fail;
                {
                        cc_strv rc = {0};

                        if (cc_disc_split_path(d, rel, &rc, err) == 0 && rc.n >= 2 && cc_disc_digit_first(rc.v[1]) &&
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
                        rc = cc_disc_problem(in, "unreadable-file", NULL, &p, err, "%s: %s", f->canonical, f->error);
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
