/* cudnnctl_which: where the loader finds a name, what it shadows, and the
 * copies that are on the machine but on no search path. */
#include "which.h"

#include "../discover/discover.h"
#include "../facts/views.h"
#include "../inspect/inspect.h"
#include "../resolve/resolve.h"

#include <stdlib.h>
#include <string.h>

/* What was searched beyond the loader's places: the whole machine (`list`'s
 * discovery, whose installation ids are list's), or only the directories
 * of the copies the loader's search reached. */
struct found_in {
        const cc_discovery *d;
        int machine;
};

/* Add "versions" (and the installation) to each found/shadowed entry of a
 * resolution's facts (a RESOLUTION, a step of its `shadowed`, an entry of its
 * `elsewhere`: the keys are the same in the three). */
static int annotate(cc_machine *m, const struct found_in *fi, cc_value *entry, const char *path, const char *real,
                    cc_error *err)
{
        const cc_discovery *d = fi->d;
        cc_value *v, *problems = NULL;
        char *abs;

        if (real == NULL)
                return 0;
        abs = cc_machine_abs(m, path, err);
        if (abs == NULL)
                return -1;
        v = cc_file_versions_ex(m, abs, &problems, err);
        free(abs);
        if (cc_v_set(entry, CC_K(resolution, versions), v, err) < 0) {
                cc_v_free(problems);
                return -1;
        }
        if (cc_v_len(problems) > 0) {
                if (cc_v_set(entry, CC_K(resolution, problems), problems, err) < 0)
                        return -1;
        } else {
                cc_v_free(problems);
        }
        if (d != NULL) {
                int id = cc_discovery_install_of(d, real);

                cc_vw_installation inst;

                if (cc_v_set(entry, CC_K(resolution, installation),
                             id && fi->machine ? cc_v_int(id, err) : cc_v_null(err), err) < 0)
                        return -1;
                /* the installation's summary version: what a shim without a version of its own belongs to */
                if (id && cc_vw_installation_read(cc_discovery_install_facts(d, id), &inst, NULL) == 0 &&
                    (cc_v_set(entry, CC_K(resolution, installation_version), cc_v_str(inst.version, err), err) < 0 ||
                     cc_v_set(entry, CC_K(resolution, installation_prefix), cc_v_str(inst.prefix, err), err) < 0))
                        return -1;
        }
        return 0;
}

static int annotate_result(cc_machine *m, const struct found_in *d, cc_value *res, cc_error *err)
{
        cc_value *sh = cc_v_getm(res, CC_K(resolution, shadowed));
        cc_vw_resolution r;
        size_t i;

        /* the strings the views borrow stay where they are while keys are added */
        cc_vw_resolution_read(res, &r, NULL);
        if (r.found && annotate(m, d, res, r.path, r.realpath, err) < 0)
                return -1;
        for (i = 0; i < cc_v_len(sh); i++) {
                cc_vw_step e;

                cc_vw_step_at(sh, i, &e, NULL);
                if (annotate(m, d, cc_v_atm(sh, i), e.path, e.realpath, err) < 0)
                        return -1;
        }
        return 0;
}

/* Copies of name that discovery found but the search did not reach. */
static int elsewhere(cc_machine *m, const struct found_in *fi, const cc_resolution *r, cc_value *res, cc_error *err)
{
        const cc_discovery *d = fi->d;
        cc_strv paths = {0};
        cc_value *arr = cc_v_array(err);
        size_t i, k;
        int rv = -1;

        if (arr == NULL)
                return -1;
        if (d != NULL && cc_discovery_find(d, r->name, &paths, err) < 0)
                goto done;
        for (i = 0; i < paths.n; i++) {
                char *real = cc_tree_canonical(m->tree, paths.v[i], err);
                int reached = 0;
                cc_value *e;

                if (real == NULL) {
                        if (err->code == CC_ERR_NOMEM)
                                goto done;
                        continue;
                }
                for (k = 0; k < r->ntries && !reached; k++)
                        reached = r->tries[k].realpath && cc_tree_path_eq(m->tree, r->tries[k].realpath, real);
                if (reached) {
                        free(real);
                        continue;
                }
                e = cc_v_object(err);
                if (cc_v_push(arr, e, err) < 0 || cc_v_set_str(e, CC_K(elsewhere, path), paths.v[i], err) < 0 ||
                    cc_v_set_str(e, CC_K(elsewhere, realpath), real, err) < 0 ||
                    annotate(m, fi, e, paths.v[i], real, err) < 0) {
                        free(real);
                        goto done;
                }
                free(real);
        }
        rv = cc_v_set(res, CC_K(resolution, elsewhere), arr, err);
        arr = NULL;
done:
        cc_v_free(arr);
        cc_strv_free(&paths);
        return rv;
}

/* The directories of the copies the searches reached (the winners and
 * what they shadow), each once. */
static int found_dirs(cc_machine *m, const cc_resolution *rs, size_t n, cc_strv *dirs, cc_error *err)
{
        size_t i, k, j;

        for (i = 0; i < n; i++)
                for (k = 0; k < rs[i].ntries; k++) {
                        const cc_try *t = &rs[i].tries[k];
                        char *dir;
                        int seen = 0;

                        if (t->realpath == NULL || (t->outcome != CC_TRY_FOUND && t->outcome != CC_TRY_SHADOWED))
                                continue;
                        dir = cc_tree_dirname(m->tree, t->realpath, err);
                        if (dir == NULL)
                                return -1;
                        for (j = 0; j < dirs->n && !seen; j++)
                                seen = cc_tree_path_eq(m->tree, dirs->v[j], dir);
                        if (seen)
                                free(dir);
                        else if (cc_strv_take(dirs, dir, err) < 0)
                                return -1;
                }
        return 0;
}

static int which_run(cudnnctl_machine *m, const char *const *queries, size_t nq, const cudnnctl_which_options *opts,
                     int resolve_only, cudnnctl_value **out, cudnnctl_error *err);

int cudnnctl_which(cudnnctl_machine *m, const char *const *queries, size_t nq, const cudnnctl_which_options *opts,
                   cudnnctl_value **out, cudnnctl_error *err)
{
        return which_run(m, queries, nq, opts, 0, out, err);
}

int cc_which_resolve(cc_machine *m, const char *const *queries, size_t nq, const cudnnctl_which_options *opts,
                     cc_value **out, cc_error *err)
{
        return which_run(m, queries, nq, opts, 1, out, err);
}

static int which_run(cudnnctl_machine *m, const char *const *queries, size_t nq, const cudnnctl_which_options *opts,
                     int resolve_only, cudnnctl_value **out, cudnnctl_error *err)
{
        static const cudnnctl_which_options defaults = {0};
        cc_value *doc = NULL, *results = NULL;
        cc_strv names = {0};
        cc_lnx_ctx *lc = NULL;
        cc_win_ctx *wc = NULL;
        cc_discovery *disc = NULL;
        struct found_in fi = {0};
        cc_resolution *rs = NULL; /* per expanded name */
        size_t nrs = 0;
        cc_lnx_obj from = {0};
        int have_from = 0, from_program = 0, any_failed = 0, rv = -1;
        size_t *owner = NULL, unsatisfied = 0; /* owner[i]: the query expanded name i came from */
        unsigned char *satisfied = NULL;
        char *from_abs = NULL;
        size_t i;

        *out = NULL;
        if (opts == NULL)
                opts = &defaults;
        {
                cc_strv qv = {0};

                for (i = 0; i < nq; i++) {
                        size_t before = names.n, k;
                        size_t *no;

                        if (cc_expand_name(queries[i], m->system, &names, err) < 0 ||
                            cc_strv_push(&qv, queries[i], err) < 0) {
                                cc_strv_free(&qv);
                                goto done;
                        }
                        no = cc_realloc(err, owner, (names.n + 1) * sizeof(*owner));
                        if (no == NULL) {
                                cc_strv_free(&qv);
                                goto done;
                        }
                        owner = no;
                        for (k = before; k < names.n; k++)
                                owner[k] = i;
                }
                satisfied = cc_calloc(err, nq + 1, 1);
                if (satisfied == NULL) {
                        cc_strv_free(&qv);
                        goto done;
                }
                doc = cc_doc_new("which", m, err);
                if (doc == NULL || cc_v_set(doc, CC_K(which_doc, queries), cc_v_strv(&qv, err), err) < 0 ||
                    cc_v_set(doc, CC_K(which_doc, names), cc_v_strv(&names, err), err) < 0) {
                        cc_strv_free(&qv);
                        goto done;
                }
                cc_strv_free(&qv);
        }
        if (opts->from != NULL) {
                cc_stat st;

                from_abs = cc_machine_abs(m, opts->from, err);
                if (from_abs == NULL || cc_tree_stat(m->tree, from_abs, &st, err) < 0)
                        goto done;
                if (st.type != CC_FT_FILE) {
                        cc_err(err, CC_ERR_NOTFOUND, "%s: %s", opts->from,
                               st.type == CC_FT_NONE ? "no such file" : "not a regular file");
                        goto done;
                }
                if (cc_v_set_str(doc, CC_K(which_doc, from), from_abs, err) < 0)
                        goto done;
        }
        from_program = from_abs != NULL && cc_is_program(m, from_abs);
        if (m->system == CC_SYS_LINUX) {
                const char *exe = from_program ? from_abs : NULL;

                if (cc_lnx_ctx_open(m, exe, &lc, err) < 0)
                        goto done;
                if (from_abs != NULL) {
                        if (cc_lnx_obj_load(lc, from_abs, &from, NULL, NULL, err) < 0)
                                goto done;
                        have_from = 1;
                        if (from_program) {
                                char *o = cc_lnx_program_origin(m->tree, from_abs, err);

                                if (o == NULL)
                                        goto done;
                                free(from.origin);
                                from.origin = o;
                        }
                }
                if (cc_v_set(doc, CC_K(which_doc, loader), cc_lnx_ctx_facts(lc, err), err) < 0)
                        goto done;
        } else {
                const char *app = from_program ? from_abs : NULL;

                if (cc_win_ctx_open(m, app, opts, &wc, err) < 0)
                        goto done;
                if (cc_v_set(doc, CC_K(which_doc, loader), cc_win_ctx_facts(wc, err), err) < 0)
                        goto done;
        }
        rs = cc_calloc(err, names.n ? names.n : 1, sizeof(*rs));
        if (rs == NULL)
                goto done;
        for (i = 0; i < names.n; i++) {
                int rc;

                if (lc != NULL)
                        rc =
                            cc_lnx_resolve(lc, names.v[i], have_from ? &from : NULL, have_from ? 1 : 0, 1, &rs[i], err);
                else
                        rc =
                            cc_win_resolve(wc, names.v[i], from_abs && !from_program ? from_abs : NULL, 1, &rs[i], err);
                nrs = i + 1;
                if (rc < 0)
                        goto done;
                if (rs[i].found)
                        satisfied[owner[i]] = 1;
                any_failed |= cc_resolution_fails(&rs[i]);
        }
        for (i = 0; i < nq; i++)
                unsatisfied += !satisfied[i];
        /* The whole machine when asked, or when a name is found nowhere (then
         * the copies on no search path are the answer's most useful part);
         * otherwise only the directories of the copies found: what they
         * belong to, without walking every root of the machine. */
        fi.machine = !resolve_only && (opts->everywhere || unsatisfied > 0);
        if (!resolve_only) {
                cc_strv dirs = {0};
                cc_error derr = {0};
                int drc = 0;

                if (!fi.machine && found_dirs(m, rs, names.n, &dirs, err) < 0) {
                        cc_strv_free(&dirs);
                        goto done;
                }
                if (fi.machine) {
                        cudnnctl_list_options lo = {0};

                        drc = cc_discover(m, &lo, &disc, &derr);
                } else if (dirs.n > 0) {
                        drc = cc_discover_dirs(m, &dirs, &disc, &derr);
                }
                cc_strv_free(&dirs);
                if (drc < 0) {
                        if (derr.code == CC_ERR_NOMEM) {
                                *err = derr;
                                goto done;
                        }
                        disc = NULL; /* copies elsewhere are then not listed */
                        if (cc_v_set_str(doc, CC_K(which_doc, discovery_error), derr.msg, err) < 0)
                                goto done;
                }
                fi.d = disc;
                if (cc_v_set_str(doc, CC_K(which_doc, searched), fi.machine ? "machine" : "directories", err) < 0)
                        goto done;
        }
        results = cc_v_array(err);
        if (results == NULL)
                goto done;
        for (i = 0; i < names.n; i++) {
                cc_value *f = cc_resolution_facts(&rs[i], err);

                if (f == NULL || cc_v_push(results, f, err) < 0 ||
                    (!resolve_only && annotate_result(m, &fi, f, err) < 0) ||
                    (fi.machine && elsewhere(m, &fi, &rs[i], f, err) < 0))
                        goto done;
        }
        if (cc_v_set(doc, CC_K(which_doc, results), results, err) < 0) {
                results = NULL;
                goto done;
        }
        results = NULL;
        if (cc_v_set_str(doc, CC_K(which_doc, verdict),
                         unsatisfied == 0 ? "found"
                         : any_failed     ? "fails"
                                          : "not-found",
                         err) < 0)
                goto done;
        *out = doc;
        doc = NULL;
        rv = 0;
done:
        cc_v_free(results);
        cc_v_free(doc);
        cc_strv_free(&names);
        cc_lnx_obj_free(&from);
        cc_lnx_ctx_free(lc);
        cc_win_ctx_free(wc);
        for (i = 0; i < nrs; i++)
                cc_resolution_free(&rs[i]);
        free(rs);
        cc_discovery_free(disc);
        free(from_abs);
        free(owner);
        free(satisfied);
        return rv;
}
