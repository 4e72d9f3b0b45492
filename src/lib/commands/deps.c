/* cudnnctl_deps: the dependency tree of a library or program, resolved
 * like the loader (docs/json.md, command "deps"). Finds the target (a path,
 * or a name resolved as a plain program would), opens the loader contexts,
 * walks (resolve/walk.c) from the target, the interpreter and the preloads
 * breadth first as ld.so does, and makes the document: each node with its
 * versions, the summary, what the missing driver library means, and whether
 * the process would load a mixed cuDNN set. */
#include "../facts/views.h"
#include "../inspect/inspect.h"
#include "../resolve/walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_DEPTH 32

/* Each node's versions from the bytes the walk mapped (one mapping and one
 * page-in of each file, not two) */
static int node_versions(struct cc_walk *w, struct cc_dnode *d, const uint8_t *data, size_t size, cc_error *err)
{
        (void)w;
        if (d->realpath == NULL)
                return 0; /* named by the file's own name only: node_facts reads it */
        d->versions = cc_bytes_versions(cc_basename(d->realpath), data, size, err);
        return d->versions ? 0 : -1;
}

static cc_value *node_facts(struct cc_walk *w, size_t i, cc_error *err)
{
        struct cc_dnode *d = &w->nodes[i];
        cc_value *o = cc_v_object(err), *vers;

        if (o == NULL)
                return NULL;
        if (cc_v_set_int(o, CC_K(node, id), (int64_t)i, err) < 0 ||
            cc_v_set_str(o, CC_K(node, path), d->path, err) < 0 ||
            cc_v_set(o, CC_K(node, realpath), cc_v_str(d->realpath, err), err) < 0 ||
            cc_v_set(o, CC_K(node, soname), cc_v_str(d->soname, err), err) < 0 ||
            cc_v_set_int(o, CC_K(node, depth), d->depth, err) < 0 ||
            cc_v_set(o, CC_K(node, parent),
                     d->parent == (size_t)-1 ? cc_v_null(err) : cc_v_int((int64_t)d->parent, err), err) < 0 ||
            cc_v_set_bool(o, CC_K(node, interpreter), d->interp, err) < 0 ||
            cc_v_set_bool(o, CC_K(node, preload), d->preload, err) < 0 ||
            cc_v_set(o, CC_K(node, error), cc_v_str(d->error, err), err) < 0)
                goto fail;
        vers = d->versions ? d->versions : cc_file_versions(w->m, d->path, err);
        d->versions = NULL;
        if (cc_v_set(o, CC_K(node, versions), vers, err) < 0)
                goto fail;
        if (d->release[0] > 0 &&
            cc_v_set(o, CC_K(node, release), cc_v_strf(err, "%d.%d.%d", d->release[0], d->release[1], d->release[2]),
                     err) < 0)
                goto fail;
        if (w->m->system == CC_SYS_LINUX && !d->interp && !d->error &&
            (cc_v_set(o, CC_K(node, rpath), cc_v_str(d->obj.rpath, err), err) < 0 ||
             cc_v_set(o, CC_K(node, runpath), cc_v_str(d->obj.runpath, err), err) < 0 ||
             cc_v_set_bool(o, CC_K(node, nodeflib), d->obj.nodeflib, err) < 0))
                goto fail;
        if (cc_v_set(o, CC_K(node, edges), d->edges, err) < 0) {
                d->edges = NULL;
                goto fail;
        }
        d->edges = NULL;
        return o;
fail:
        cc_v_free(o);
        return NULL;
}

/* libcuda.so.1 / nvcuda.dll come with the NVIDIA driver, not with CUDA or
 * cuDNN: when they are missing, say so, and point at the toolkit's stub
 * (which is for linking only) when one sits next to a library in the tree. */
static int driver_note(struct cc_walk *w, const cc_value *nodes, cc_error *err)
{
        size_t i, j;
        const char *missing = NULL;
        char *stub = NULL;
        int rv = 0;

        for (i = 0; i < cc_v_len(nodes) && missing == NULL; i++) {
                cc_vw_node n;

                cc_vw_node_at(nodes, i, &n, NULL);
                for (j = 0; j < cc_v_len(n.edges) && missing == NULL; j++) {
                        cc_vw_edge e;
                        const char *nm, *st;

                        cc_vw_edge_at(n.edges, j, &e, NULL);
                        nm = e.name;
                        st = e.status;

                        if (nm && st && strcmp(st, "missing") == 0 &&
                            (strncmp(nm, "libcuda.so", 10) == 0 || cc_strcasecmp(nm, "nvcuda.dll") == 0))
                                missing = nm;
                }
        }
        if (missing == NULL)
                return 0;
        for (i = 0; i < cc_v_len(nodes) && stub == NULL && w->m->system == CC_SYS_LINUX; i++) {
                cc_vw_node n;
                const char *real;
                char *dir, *p;
                cc_stat st;

                cc_vw_node_at(nodes, i, &n, NULL);
                real = n.realpath;
                if (real == NULL)
                        continue;
                dir = cc_tree_dirname(w->m->tree, real, err);
                p = dir ? cc_asprintf(err, "%s/stubs/libcuda.so", dir) : NULL;
                free(dir);
                if (p == NULL)
                        return -1;
                if (cc_tree_stat(w->m->tree, p, &st, err) == 0 && st.type == CC_FT_FILE)
                        stub = p;
                else
                        free(p);
        }
        rv = cc_strv_pushf(
            &w->notes, 1, err,
            "%s is the NVIDIA driver's library, not CUDA's or cuDNN's: the loader finds none, so no driver "
            "is installed (or it is not on the loader's path) and cuDNN cannot start on this machine%s%s%s",
            missing, stub ? " (" : "", stub ? stub : "",
            stub ? " is the CUDA toolkit's stub, for linking only: it must not be put on the path)" : "");
        free(stub);
        return rv;
}

/* One directory of the cuDNN a process would load. */
struct cudnn_dir {
        char *dir;
        cc_strv vers;    /* releases read from its modules */
        cc_strv files;   /* its modules' real file names, in load order */
        cc_strv unknown; /* those whose release could not be read */
};

/* The releases of node n: what its contents say (an exported constant, a
 * full file name), else the release its code names its loads by. */
static int node_releases(const cc_vw_node *n, cc_strv *out, cc_error *err)
{
        cudnnctl_ver pv;
        char buf[64];
        size_t j;

        for (j = 0; j < cc_v_len(n->versions); j++) {
                cc_vw_version e;

                cc_vw_version_at(n->versions, j, &e, NULL);
                if (e.version == NULL || (e.component && strcmp(e.component, "cudnn") != 0) ||
                    cudnnctl_ver_parse(e.version, &pv) < 0 || pv.n < 3 || !cc_cudnn_ver_plausible(&pv))
                        continue;
                pv.n = 3; /* releases, not builds: 9.19.0.56 and 9.19.0 are one */
                cudnnctl_ver_str(&pv, buf, sizeof(buf));
                if (!cc_strv_contains(out, buf) && cc_strv_push(out, buf, err) < 0)
                        return -1;
        }
        if (out->n == 0 && n->release != NULL && cc_strv_push(out, n->release, err) < 0)
                return -1;
        return 0;
}

/* "DIR: a, b; DIR2: c" (with each directory's releases when `vers`). */
static int sets_text(cc_buf *b, const struct cudnn_dir *ds, size_t n, int vers, cc_error *err)
{
        size_t i, j;

        for (i = 0; i < n; i++) {
                TRY_RET(cc_buf_printf(b, err, "%s", i ? "; " : ""));
                for (j = 0; vers && j < ds[i].vers.n; j++)
                        TRY_RET(cc_buf_printf(b, err, "%s%s", j ? " + " : "", ds[i].vers.v[j]));
                TRY_RET(cc_buf_printf(b, err, "%s%s: ", vers && ds[i].vers.n ? " from " : "", ds[i].dir));
                for (j = 0; j < ds[i].files.n && j < 4; j++)
                        TRY_RET(cc_buf_printf(b, err, "%s%s", j ? ", " : "", ds[i].files.v[j]));
                if (ds[i].files.n > 4)
                        TRY_RET(cc_buf_printf(b, err, " and %zu more", ds[i].files.n - 4));
        }
        return 0;
}

/* The cuDNN this process would load: from which directories, of which
 * releases. Two releases are a mixed set (catalog entries 4, 16, 19):
 * sub-libraries of different releases in one process, which fail. One
 * release from two directories works (cuDNN 9's shim takes its
 * sub-libraries by their full release name wherever the search finds
 * them first: a copy without those names takes another installation's),
 * but an update of either directory alone makes it a mixed set. */
static int cudnn_summary(struct cc_walk *w, const cc_value *nodes, cc_value *sum, cc_error *err)
{
        struct cudnn_dir *ds = NULL;
        cc_strv vers = {0}, shim = {0}, subs = {0};
        cc_value *o = NULL, *sets = NULL;
        size_t nd = 0, i, j, nunknown = 0;
        int rv = -1;

        for (i = 0; i < cc_v_len(nodes); i++) {
                cc_vw_node n;
                const char *real;
                cc_libname ln;
                char *dir;
                struct cudnn_dir *d = NULL;
                cc_strv nv = {0};

                cc_vw_node_at(nodes, i, &n, NULL);
                real = n.realpath;
                if (real == NULL || cc_name_library(cc_basename(real), &ln) < 0 ||
                    (ln.kind != CC_FK_SHARED && ln.kind != CC_FK_DLL))
                        continue;
                dir = cc_tree_dirname(w->m->tree, real, err);
                if (dir == NULL)
                        goto done;
                for (j = 0; j < nd; j++)
                        if (strcmp(ds[j].dir, dir) == 0)
                                d = &ds[j];
                if (d == NULL) {
                        struct cudnn_dir *g = cc_realloc(err, ds, (nd + 1) * sizeof(*ds));

                        if (g == NULL) {
                                free(dir);
                                goto done;
                        }
                        ds = g;
                        d = &ds[nd++];
                        memset(d, 0, sizeof(*d));
                        d->dir = dir;
                } else {
                        free(dir);
                }
                if (node_releases(&n, &nv, err) < 0 || cc_strv_push(&d->files, cc_basename(real), err) < 0 ||
                    (nv.n == 0 && cc_strv_push(&d->unknown, cc_basename(real), err) < 0)) {
                        cc_strv_free(&nv);
                        goto done;
                }
                nunknown += nv.n == 0;
                for (j = 0; j < nv.n; j++) {
                        /* the target (node 0, the shim) apart from what it loads */
                        cc_strv *part = i == 0 ? &shim : &subs;

                        if ((!cc_strv_contains(&d->vers, nv.v[j]) && cc_strv_push(&d->vers, nv.v[j], err) < 0) ||
                            (!cc_strv_contains(&vers, nv.v[j]) && cc_strv_push(&vers, nv.v[j], err) < 0) ||
                            (!cc_strv_contains(part, nv.v[j]) && cc_strv_push(part, nv.v[j], err) < 0)) {
                                cc_strv_free(&nv);
                                goto done;
                        }
                }
                cc_strv_free(&nv);
        }
        o = cc_v_object(err);
        sets = cc_v_array(err);
        if (o == NULL || sets == NULL)
                goto done;
        for (i = 0; i < nd; i++) {
                cc_value *s = cc_v_object(err);

                if (cc_v_push(sets, s, err) < 0 ||
                    cc_v_set_str(s, CC_K(deps_cudnn_set, directory), ds[i].dir, err) < 0 ||
                    cc_v_set(s, CC_K(deps_cudnn_set, versions), cc_v_strv(&ds[i].vers, err), err) < 0 ||
                    cc_v_set(s, CC_K(deps_cudnn_set, files), cc_v_strv(&ds[i].files, err), err) < 0 ||
                    (ds[i].unknown.n > 0 &&
                     cc_v_set(s, CC_K(deps_cudnn_set, unknown), cc_v_strv(&ds[i].unknown, err), err) < 0))
                        goto done;
        }
        {
                cc_strv dirs = {0};
                int r = 0;

                for (i = 0; i < nd && r == 0; i++)
                        r = cc_strv_push(&dirs, ds[i].dir, err);
                if (r == 0 && cc_v_set(o, CC_K(deps_cudnn, directories), cc_v_strv(&dirs, err), err) < 0)
                        r = -1;
                cc_strv_free(&dirs);
                if (r < 0)
                        goto done;
        }
        if (cc_v_set(o, CC_K(deps_cudnn, versions), cc_v_strv(&vers, err), err) < 0 ||
            cc_v_set_bool(o, CC_K(deps_cudnn, mixed), vers.n > 1, err) < 0 ||
            cc_v_set_bool(o, CC_K(deps_cudnn, split), nd > 1 && vers.n <= 1, err) < 0 ||
            cc_v_set(o, CC_K(deps_cudnn, target_versions), cc_v_strv(&shim, err), err) < 0 ||
            cc_v_set(o, CC_K(deps_cudnn, loaded_versions), cc_v_strv(&subs, err), err) < 0)
                goto done;
        if (cc_v_set(o, CC_K(deps_cudnn, sets), sets, err) < 0) {
                sets = NULL;
                goto done;
        }
        sets = NULL;
        if (vers.n > 1 || nd > 1) {
                cc_buf b = {0};
                int r;

                if (vers.n > 1)
                        r = cc_buf_printf(&b, err, "this process would load cuDNN of %zu releases (", vers.n) < 0 ||
                                    sets_text(&b, ds, nd, 1, err) < 0 ||
                                    cc_buf_printf(&b, err,
                                                  "): a mixed set, which fails with "
                                                  "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH, missing symbols or "
                                                  "wrong results; keep one complete cuDNN on the path") < 0
                                ? -1
                                : 0;
                else
                        r = cc_buf_printf(&b, err, "this process would load cuDNN %s from %zu directories (",
                                          vers.n ? vers.v[0] : "(release unknown)", nd) < 0 ||
                                    sets_text(&b, ds, nd, 0, err) < 0 || cc_buf_printf(&b, err, ")") < 0 ||
                                    (nunknown > 0 &&
                                     cc_buf_printf(&b, err, " (the release of %zu of its modules could not be read)",
                                                   nunknown) < 0) ||
                                    cc_buf_printf(&b, err,
                                                  ": one release, which works, but an update of one directory "
                                                  "alone makes it a mixed set") < 0
                                ? -1
                                : 0;
                if (r < 0 || cc_strv_take(&w->notes, cc_buf_steal(&b), err) < 0) {
                        cc_buf_free(&b);
                        goto done;
                }
        }
        if (cc_v_set(sum, CC_K(deps_summary, cudnn), o, err) < 0) {
                o = NULL;
                goto done;
        }
        o = NULL;
        rv = 0;
done:
        cc_v_free(o);
        cc_v_free(sets);
        for (i = 0; i < nd; i++) {
                free(ds[i].dir);
                cc_strv_free(&ds[i].vers);
                cc_strv_free(&ds[i].files);
                cc_strv_free(&ds[i].unknown);
        }
        free(ds);
        cc_strv_free(&vers);
        cc_strv_free(&shim);
        cc_strv_free(&subs);
        return rv;
}

int cudnnctl_deps(cudnnctl_machine *m, const char *target, const cudnnctl_deps_options *opts, cudnnctl_value **out,
                  cudnnctl_error *err)
{
        static cudnnctl_deps_options defaults;
        struct cc_walk w;
        cc_value *doc = NULL, *nodes = NULL, *sum = NULL;
        char *root_path = NULL;
        int root_program = 0; /* the target is a program (an interpreter named; an EXE) */
        cc_resolution rr;
        int rv = -1, is_path;
        size_t i;

        *out = NULL;
        memset(&w, 0, sizeof(w));
        memset(&rr, 0, sizeof(rr));
        if (opts == NULL)
                opts = &defaults;
        w.m = m;
        w.opts = opts;
        w.max_depth = opts->max_depth > 0 ? opts->max_depth : DEFAULT_MAX_DEPTH;
        w.cuda_major = -1;
        w.on_bytes = node_versions;
        doc = cc_doc_new("deps", m, err);
        if (doc == NULL || cc_v_set_str(doc, CC_K(deps_doc, target), target, err) < 0)
                goto done;
        is_path = strchr(target, '/') != NULL || (m->system == CC_SYS_WINDOWS && strchr(target, '\\') != NULL);
        if (!is_path) {
                cc_stat st;
                char *abs = cc_machine_abs(m, target, err);

                if (abs == NULL || cc_tree_stat(m->tree, abs, &st, err) < 0) {
                        free(abs);
                        goto done;
                }
                if (st.type == CC_FT_FILE)
                        is_path = 1;
                free(abs);
        }
        if (is_path) {
                cc_stat st;

                root_path = cc_machine_abs(m, target, err);
                if (root_path == NULL || cc_tree_stat(m->tree, root_path, &st, err) < 0)
                        goto done;
                if (st.type != CC_FT_FILE) {
                        cc_err(err, CC_ERR_NOTFOUND, "%s: %s", target,
                               st.type == CC_FT_NONE ? "no such file" : "not a regular file");
                        goto done;
                }
        }
        if (m->system == CC_SYS_LINUX) {
                /* the context reads the target's ELF headers once: a program
                 * names its loader (as cc_is_program judges one) */
                if (cc_lnx_ctx_open(m, root_path, &w.lc, err) < 0) {
                        /* not an ELF object the loader can take: the loader of a plain program */
                        cc_err_clear(err);
                        if (cc_lnx_ctx_open(m, NULL, &w.lc, err) < 0)
                                goto done;
                } else {
                        root_program = root_path != NULL && cc_lnx_ctx_exe_is_program(w.lc);
                }
                if (cc_v_set(doc, CC_K(deps_doc, loader), cc_lnx_ctx_facts(w.lc, err), err) < 0)
                        goto done;
                {
                        /* what the loader's own setup says (a corrupt cache, a preload not found) */
                        cc_vw_deps_doc dd;
                        cc_vw_loader ld;
                        size_t k;

                        cc_vw_deps_doc_read(doc, &dd, NULL);
                        cc_vw_loader_read(dd.loader, &ld, NULL);
                        for (k = 0; k < cc_v_len(ld.notes); k++)
                                if (cc_strv_push(&w.notes, cc_v_as_str(cc_v_at(ld.notes, k)), err) < 0)
                                        goto done;
                }
        } else {
                const char *app;

                root_program = root_path != NULL && cc_is_program(m, root_path);
                app = root_program ? root_path : NULL;

                if (cc_win_ctx_open(m, app, &opts->resolve, &w.wc, err) < 0)
                        goto done;
                if (cc_v_set(doc, CC_K(deps_doc, loader), cc_win_ctx_facts(w.wc, err), err) < 0)
                        goto done;
                if (opts->resolve.win_mode != CUDNNCTL_WIN_STANDARD) {
                        /* cuDNN's own run-time loads are plain LoadLibrary calls */
                        cudnnctl_which_options so = opts->resolve;

                        so.win_mode = CUDNNCTL_WIN_STANDARD;
                        so.win_search = 0;
                        if (cc_win_ctx_open(m, app, &so, &w.wc_std, err) < 0)
                                goto done;
                }
        }
        if (!is_path) {
                /* a name: what a plain program gets */
                if (w.lc ? cc_lnx_resolve(w.lc, target, NULL, 0, 0, &rr, err) < 0
                         : cc_win_resolve(w.wc, target, NULL, 0, &rr, err) < 0)
                        goto done;
                if (cc_v_set(doc, CC_K(deps_doc, target_resolution), cc_resolution_facts(&rr, err), err) < 0)
                        goto done;
                if (!rr.found) {
                        /* a result, not an error: the document says why */
                        int failed = cc_resolution_fails(&rr);

                        sum = cc_v_object(err);
                        if (sum == NULL || cc_v_set_int(sum, CC_K(deps_summary, objects), 0, err) < 0 ||
                            cc_v_set_int(sum, CC_K(deps_summary, edges), 0, err) < 0 ||
                            cc_v_set_int(sum, CC_K(deps_summary, missing), 1, err) < 0 ||
                            cc_v_set_int(sum, CC_K(deps_summary, runtime_missing), 0, err) < 0 ||
                            cc_v_set_int(sum, CC_K(deps_summary, fails), failed, err) < 0 ||
                            cc_v_set_int(sum, CC_K(deps_summary, unreadable), 0, err) < 0) {
                                cc_v_free(sum);
                                goto done;
                        }
                        if (cc_v_set_str(doc, CC_K(deps_doc, target_status), failed ? "fails" : "missing", err) < 0 ||
                            cc_v_set(doc, CC_K(deps_doc, nodes), cc_v_array(err), err) < 0 ||
                            cc_v_set(doc, CC_K(deps_doc, summary), sum, err) < 0 ||
                            cc_v_set(doc, CC_K(deps_doc, notes), cc_v_strv(&rr.notes, err), err) < 0)
                                goto done;
                        *out = doc;
                        doc = NULL;
                        rv = 0;
                        goto done;
                }
                root_path = cc_strdup(err, rr.path);
                if (root_path == NULL)
                        goto done;
        }
        if (cc_v_set_str(doc, CC_K(deps_doc, target_status), "found", err) < 0 ||
            cc_walk_add_node(&w, root_path, 0, (size_t)-1, err) == NULL)
                goto done;
        w.nodes[0].realpath = cc_tree_canonical(m->tree, root_path, err);
        w.nodes[0].program = root_program;
        if (w.nodes[0].realpath == NULL || cc_walk_add_name(&w, &w.nodes[0], root_path, err) < 0 ||
            (rr.name && cc_walk_add_name(&w, &w.nodes[0], rr.name, err) < 0))
                goto done;
        /* ld.so is loaded before anything else: its SONAME matches DT_NEEDED entries */
        if (w.lc != NULL) {
                const char *interp = cc_lnx_ctx_interp(w.lc);
                cc_stat st;

                if (interp != NULL && cc_tree_stat(m->tree, interp, &st, err) == 0 && st.type == CC_FT_FILE) {
                        struct cc_dnode *d = cc_walk_add_node(&w, interp, 0, (size_t)-1, err);

                        if (d == NULL)
                                goto done;
                        d->interp = 1;
                        d->realpath = cc_tree_canonical(m->tree, interp, err);
                        if (d->realpath == NULL || cc_walk_add_name(&w, d, interp, err) < 0 ||
                            cc_walk_add_name(&w, d, cc_basename(interp), err) < 0 ||
                            cc_walk_expand(&w, w.n - 1, err) < 0)
                                goto done;
                }
                /* then LD_PRELOAD and /etc/ld.so.preload, before the program's own dependencies */
                {
                        const cc_strv *pre = cc_lnx_ctx_preloads(w.lc);
                        size_t k;

                        for (k = 0; k < pre->n; k++) {
                                struct cc_dnode *d;

                                if (cc_walk_find_loaded(&w, pre->v[k], NULL) != (size_t)-1)
                                        continue;
                                d = cc_walk_add_node(&w, pre->v[k], 0, (size_t)-1, err);
                                if (d == NULL)
                                        goto done;
                                d->preload = 1;
                                d->realpath = cc_tree_canonical(m->tree, pre->v[k], err);
                                if (d->realpath == NULL || cc_walk_add_name(&w, d, pre->v[k], err) < 0 ||
                                    cc_walk_add_name(&w, d, cc_basename(pre->v[k]), err) < 0)
                                        goto done;
                        }
                }
        }
        /* breadth first, like ld.so */
        for (i = 0; i < w.n; i++)
                if (cc_walk_expand(&w, i, err) < 0)
                        goto done;
        nodes = cc_v_array(err);
        if (nodes == NULL)
                goto done;
        for (i = 0; i < w.n; i++) {
                if (w.nodes[i].error)
                        w.unreadable++;
                if (cc_v_push(nodes, node_facts(&w, i, err), err) < 0)
                        goto done;
        }
        if (cc_v_set(doc, CC_K(deps_doc, nodes), nodes, err) < 0) {
                nodes = NULL;
                goto done;
        }
        nodes = NULL;
        sum = cc_v_object(err);
        if (sum == NULL || cc_v_set_int(sum, CC_K(deps_summary, objects), (int64_t)w.n, err) < 0 ||
            cc_v_set_int(sum, CC_K(deps_summary, edges), (int64_t)w.edges, err) < 0 ||
            cc_v_set_int(sum, CC_K(deps_summary, missing), (int64_t)(w.missing + w.failed), err) < 0 ||
            cc_v_set_int(sum, CC_K(deps_summary, runtime_missing), (int64_t)w.runtime_missing, err) < 0 ||
            cc_v_set_int(sum, CC_K(deps_summary, fails), (int64_t)w.failed, err) < 0 ||
            cc_v_set_int(sum, CC_K(deps_summary, unreadable), (int64_t)w.unreadable, err) < 0) {
                cc_v_free(sum);
                goto done;
        }
        {
                cc_vw_deps_doc dd;

                cc_vw_deps_doc_read(doc, &dd, NULL);
                if (driver_note(&w, dd.nodes, err) < 0 || cudnn_summary(&w, dd.nodes, sum, err) < 0) {
                        cc_v_free(sum);
                        goto done;
                }
        }
        if (cc_v_set(doc, CC_K(deps_doc, summary), sum, err) < 0 ||
            cc_v_set(doc, CC_K(deps_doc, notes), cc_v_strv(&w.notes, err), err) < 0)
                goto done;
        *out = doc;
        doc = NULL;
        rv = 0;
done:
        cc_v_free(nodes);
        cc_v_free(doc);
        cc_walk_free(&w);
        cc_resolution_free(&rr);
        free(root_path);
        return rv;
}
