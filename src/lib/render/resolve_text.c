/* Text for people from the which and deps documents (the same trees --json
 * prints). */
#include "text.h"

#include "../facts/views.h"

#include <stdlib.h>
#include <string.h>

#define W 11 /* label width */

static int versions_field(struct cc_text *t, int ind, const char *label, const cc_value *versions)
{
        TRY(cc_text_printf(t, "%*s%s%-*s%s ", ind, "", cc_text_sgr(t, CC_SGR_DIM), W, label,
                           cc_text_sgr(t, CC_SGR_OFF)));
        TRY(cc_text_versions(t, versions));
        return cc_buf_putc(t->b, '\n', t->err);
fail:
        return -1;
}

static int notes(struct cc_text *t, int ind, const cc_value *arr)
{
        size_t i;

        for (i = 0; i < cc_v_len(arr); i++)
                TRY(cc_text_field(t, ind, W, "note", cc_v_as_str(cc_v_at(arr, i))));
        return 0;
fail:
        return -1;
}

static const char *how_text(const char *how)
{
        static const struct {
                const char *key, *text;
        } t[] = {
            {"direct", "the name is a path"},
            {"already-loaded", "already loaded"},
            {"preload", "LD_PRELOAD"},
            {"rpath", "DT_RPATH"},
            {"ld_library_path", "LD_LIBRARY_PATH"},
            {"runpath", "DT_RUNPATH"},
            {"ld.so.cache", "ld.so.cache"},
            {"default-dirs", "the loader's default directories"},
            {"api-set", "an API set (not a file)"},
            {"known-dll", "KnownDLLs"},
            {"application-dir", "the application directory"},
            {"dll-load-dir", "the DLL's own directory"},
            {"user-dir", "AddDllDirectory"},
            {"set-dll-directory", "SetDllDirectory"},
            {"system32", "System32"},
            {"system16", "the 16-bit system directory"},
            {"windows-dir", "the Windows directory"},
            {"current-dir", "the current directory"},
            {"path", "PATH"},
        };
        size_t i;

        if (how == NULL)
                return "?";
        for (i = 0; i < CC_ARRAY_LEN(t); i++)
                if (strcmp(t[i].key, how) == 0)
                        return t[i].text;
        return how;
}

static int one_result(struct cc_text *t, const cc_value *r, int verbose)
{
        cc_vw_resolution res;
        cc_vw_step last; /* the last place tried (empty when none was) */
        size_t i, ntried;

        cc_vw_resolution_read(r, &res, NULL);
        ntried = cc_v_len(res.tried);
        if (ntried == 0 || cc_vw_step_at(res.tried, ntried - 1, &last, NULL) < 0)
                memset(&last, 0, sizeof(last));
        TRY(cc_text_printf(t, "%s", cc_text_sgr(t, CC_SGR_BOLD)));
        TRY(cc_text_put(t, res.name));
        TRY(cc_text_printf(t, "%s", cc_text_sgr(t, CC_SGR_OFF)));
        if (res.found) {
                TRY(cc_text_printf(t, " => %s", cc_text_sgr(t, CC_SGR_GREEN)));
                TRY(cc_text_put(t, res.path));
                TRY(cc_text_printf(t, "%s\n", cc_text_sgr(t, CC_SGR_OFF)));
                TRY(cc_text_printf(t, "  %s%-*s%s %s", cc_text_sgr(t, CC_SGR_DIM), W, "found by",
                                   cc_text_sgr(t, CC_SGR_OFF), how_text(res.how)));
                if (res.origin != NULL) {
                        TRY(cc_text_printf(t, ": "));
                        TRY(cc_text_put(t, res.origin));
                }
                TRY(cc_text_printf(t, "\n"));
                if (res.realpath != NULL && res.path != NULL && strcmp(res.realpath, res.path) != 0)
                        TRY(cc_text_field(t, 2, W, "real path", res.realpath));
                TRY(versions_field(t, 2, "versions", res.versions));
                if (res.installation_version != NULL && res.installation > 0) {
                        TRY(cc_text_printf(t, "  %s%-*s%s installation %lld (cuDNN %s)\n", cc_text_sgr(t, CC_SGR_DIM),
                                           W, "part of", cc_text_sgr(t, CC_SGR_OFF), (long long)res.installation,
                                           res.installation_version));
                } else if (res.installation_version != NULL) {
                        /* only its directory was read: no `list` id */
                        TRY(cc_text_printf(t, "  %s%-*s%s cuDNN %s in ", cc_text_sgr(t, CC_SGR_DIM), W, "part of",
                                           cc_text_sgr(t, CC_SGR_OFF), res.installation_version));
                        TRY(cc_text_put(t, res.installation_prefix ? res.installation_prefix : "?"));
                        TRY(cc_text_printf(t, "\n"));
                }
                for (i = 0; i < cc_v_len(res.problems); i++) {
                        TRY(cc_text_printf(t, "  %s%-*s%s %s", cc_text_sgr(t, CC_SGR_DIM), W, "problem",
                                           cc_text_sgr(t, CC_SGR_OFF), cc_text_sgr(t, CC_SGR_YELLOW)));
                        TRY(cc_text_put(t, cc_v_as_str(cc_v_at(res.problems, i))));
                        TRY(cc_text_printf(t, "%s\n", cc_text_sgr(t, CC_SGR_OFF)));
                }
        } else if (CC_VW_HAS(&res, resolution, windows_error) && res.windows_error == 193 &&
                   !(last.outcome && strcmp(last.outcome, "failed") == 0)) {
                /* every copy found was for another machine: each passed over */
                TRY(cc_text_printf(t, ": %sonly DLLs for another machine: error 193%s\n", cc_text_sgr(t, CC_SGR_RED),
                                   cc_text_sgr(t, CC_SGR_OFF)));
                for (i = 0; i < ntried; i++) {
                        cc_vw_step e;

                        cc_vw_step_at(res.tried, i, &e, NULL);
                        if (e.outcome == NULL || strcmp(e.outcome, "skipped") != 0)
                                continue;
                        TRY(cc_text_printf(t, "  %s%-*s%s ", cc_text_sgr(t, CC_SGR_DIM), W, "passed over",
                                           cc_text_sgr(t, CC_SGR_OFF)));
                        TRY(cc_text_put(t, e.path));
                        TRY(cc_text_printf(t, "  [%s]\n", how_text(e.how)));
                        if (e.detail)
                                TRY(cc_text_field(t, 4, W - 2, "", e.detail));
                }
        } else if (CC_VW_HAS(&res, resolution, windows_error) && res.windows_error == 193) {
                TRY(cc_text_printf(t, ": %sthe loader stops with error 193%s at ", cc_text_sgr(t, CC_SGR_RED),
                                   cc_text_sgr(t, CC_SGR_OFF)));
                TRY(cc_text_put(t, last.node_ ? last.path : "?"));
                TRY(cc_text_printf(t, "\n"));
                if (last.detail)
                        TRY(cc_text_field(t, 2, W, "because", last.detail));
        } else if (last.outcome && strcmp(last.outcome, "failed") == 0) {
                TRY(cc_text_printf(t, ": %sthe load fails%s at ", cc_text_sgr(t, CC_SGR_RED),
                                   cc_text_sgr(t, CC_SGR_OFF)));
                TRY(cc_text_put(t, last.path));
                TRY(cc_text_printf(t, "\n"));
                TRY(cc_text_field(t, 2, W, "because", last.detail));
        } else {
                TRY(cc_text_printf(t, ": %snot found%s (%zu places tried%s)\n", cc_text_sgr(t, CC_SGR_RED),
                                   cc_text_sgr(t, CC_SGR_OFF), ntried, verbose ? "" : "; --all lists them"));
        }
        for (i = 0; i < cc_v_len(res.shadowed); i++) {
                cc_vw_step e;

                cc_vw_step_at(res.shadowed, i, &e, NULL);
                TRY(cc_text_printf(t, "  %s%-*s%s ", cc_text_sgr(t, CC_SGR_DIM), W, i ? "" : "shadows",
                                   cc_text_sgr(t, CC_SGR_OFF)));
                TRY(cc_text_put(t, e.path));
                TRY(cc_text_printf(t, "  [%s]  ", how_text(e.how)));
                TRY(cc_text_versions(t, e.versions));
                TRY(cc_text_printf(t, "\n"));
        }
        for (i = 0; i < cc_v_len(res.elsewhere); i++) {
                cc_vw_elsewhere e;

                cc_vw_elsewhere_at(res.elsewhere, i, &e, NULL);
                TRY(cc_text_printf(t, "  %s%-*s%s ", cc_text_sgr(t, CC_SGR_DIM), W, i ? "" : "elsewhere",
                                   cc_text_sgr(t, CC_SGR_OFF)));
                TRY(cc_text_put(t, e.path));
                TRY(cc_text_printf(t, "  (on no search path"));
                if (CC_VW_HAS(&e, elsewhere, installation))
                        TRY(cc_text_printf(t, "; installation %lld", (long long)e.installation));
                TRY(cc_text_printf(t, ")  "));
                if (cc_v_len(e.versions) == 0 && e.installation_version != NULL)
                        TRY(cc_text_printf(t, "%s (its installation)", e.installation_version));
                else
                        TRY(cc_text_versions(t, e.versions));
                TRY(cc_text_printf(t, "\n"));
        }
        TRY(notes(t, 2, res.notes));
        if (verbose) {
                for (i = 0; i < ntried; i++) {
                        cc_vw_step e;
                        const char *oc, *col;

                        cc_vw_step_at(res.tried, i, &e, NULL);
                        oc = e.outcome;
                        col = oc && strcmp(oc, "found") == 0     ? CC_SGR_GREEN
                              : oc && strcmp(oc, "missing") == 0 ? CC_SGR_DIM
                                                                 : CC_SGR_YELLOW;
                        TRY(cc_text_printf(t, "  %s%-*s%s %s%-8s%s ", cc_text_sgr(t, CC_SGR_DIM), W, i ? "" : "tried",
                                           cc_text_sgr(t, CC_SGR_OFF), cc_text_sgr(t, col), oc ? oc : "?",
                                           cc_text_sgr(t, CC_SGR_OFF)));
                        TRY(cc_text_put(t, e.path));
                        TRY(cc_text_printf(t, "  %s(", cc_text_sgr(t, CC_SGR_DIM)));
                        TRY(cc_text_put(t, e.origin));
                        TRY(cc_text_printf(t, ")%s\n", cc_text_sgr(t, CC_SGR_OFF)));
                        if (e.detail != NULL) {
                                TRY(cc_text_printf(t, "  %*s          ", W, ""));
                                TRY(cc_text_put(t, e.detail));
                                TRY(cc_text_printf(t, "\n"));
                        }
                }
        }
        return 0;
fail:
        return -1;
}

/* The loader lines of `which -v` (Linux: the interpreter and its defaults). */
static int loader_lines(struct cc_text *t, const cc_value *loader)
{
        cc_vw_loader ld;
        cc_vw_ld_so_cache cache;
        cc_buf l = {0};
        size_t i;

        cc_vw_loader_read(loader, &ld, NULL);
        TRY(cc_text_printf(t, "\n"));
        if (ld.interpreter != NULL) {
                TRY(cc_text_field(t, 0, W, "loader", ld.interpreter));
                for (i = 0; i < cc_v_len(ld.default_dirs); i++)
                        if ((i && cc_buf_puts(&l, ":", t->err) < 0) ||
                            cc_buf_puts(&l, cc_v_as_str(cc_v_at(ld.default_dirs, i)), t->err) < 0)
                                goto fail;
                TRY(cc_text_field(t, 0, W, "defaults", l.data ? l.data : ""));
                TRY(cc_text_field(t, 0, W, "hwcaps", ld.subdirs_source));
                cc_vw_ld_so_cache_read(ld.ld_so_cache, &cache, NULL);
                TRY(cc_text_field(t, 0, W, "cache", cache.path));
        }
        TRY(notes(t, 0, ld.notes));
        cc_buf_free(&l);
        return 0;
fail:
        cc_buf_free(&l);
        return -1;
}

/* Whether a result is worth its full block: found somewhere, or a load that
 * fails with a Windows error. */
static int interesting(const cc_value *r)
{
        cc_vw_resolution res;

        cc_vw_resolution_read(r, &res, NULL);
        return res.found || cc_v_len(res.elsewhere) > 0 || CC_VW_HAS(&res, resolution, windows_error);
}

int cudnnctl_which_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text t;
        cc_vw_which_doc wd;
        size_t i, nfound = 0, shown = 0;

        *out = NULL;
        t.b = &b;
        t.color = color;
        t.err = err;
        cc_vw_which_doc_read(doc, &wd, NULL);
        for (i = 0; i < cc_v_len(wd.results); i++) {
                cc_vw_resolution res;

                cc_vw_resolution_at(wd.results, i, &res, NULL);
                nfound += res.found || cc_v_len(res.elsewhere) > 0;
        }
        for (i = 0; i < cc_v_len(wd.results); i++) {
                const cc_value *r = cc_v_at(wd.results, i);

                /* for a short name, the majors with nothing at all get one line each */
                if (!interesting(r) && nfound > 0 && !verbose) {
                        cc_vw_resolution res;

                        cc_vw_resolution_read(r, &res, NULL);
                        TRY(cc_text_put(&t, res.name));
                        TRY(cc_text_printf(&t, ": not found\n"));
                        continue;
                }
                if (shown++ && cc_buf_putc(&b, '\n', err) < 0)
                        goto fail;
                TRY(one_result(&t, r, verbose));
        }
        if (verbose)
                TRY(loader_lines(&t, wd.loader));
        if (b.data == NULL && cc_buf_puts(&b, "", err) < 0)
                goto fail;
        *out = cc_buf_steal(&b);
        return 0;
fail:
        cc_buf_free(&b);
        return -1;
}

/* ---- deps ------------------------------------------------------------------------- */

struct tree_ctx {
        struct cc_text t;
        const cc_value *nodes;
        int missing_only;
        char *marks; /* per node: 1 = on the path to something missing */
        size_t nnodes;
};

/* The view of node id; -1 when there is no such node. */
static int node_at(const struct tree_ctx *c, int64_t id, cc_vw_node *n)
{
        if (id < 0 || (size_t)id >= c->nnodes)
                return -1;
        cc_vw_node_at(c->nodes, (size_t)id, n, NULL);
        return 0;
}

static int mark_of(const struct tree_ctx *c, const cc_vw_edge *e)
{
        return e->node >= 0 && (size_t)e->node < c->nnodes ? c->marks[e->node] : 0;
}

static int is(const char *s, const char *what)
{
        return s != NULL && strcmp(s, what) == 0;
}

static int edge_bad(const cc_vw_edge *e)
{
        return is(e->status, "missing") || is(e->status, "fails");
}

/* Does node id's subtree (as first loaded) lead to something missing? */
static int mark(struct tree_ctx *c, int64_t id, int depth)
{
        cc_vw_node n;
        size_t i;
        int bad = 0;

        if (node_at(c, id, &n) < 0 || depth > 300)
                return 0;
        if (c->marks[id])
                return c->marks[id] == 1;
        c->marks[id] = 2; /* visiting */
        if (n.error != NULL)
                bad = 1;
        for (i = 0; i < cc_v_len(n.edges); i++) {
                cc_vw_edge e;

                cc_vw_edge_at(n.edges, i, &e, NULL);
                if (edge_bad(&e))
                        bad = 1;
                else if (is(e.status, "loaded") && mark(c, e.node, depth + 1))
                        bad = 1;
        }
        c->marks[id] = bad ? 1 : 3;
        return bad;
}

/* Edges the tree leaves out: a plain dependency on something already
 * loaded (ld.so reuses it; the JSON keeps it). */
static int edge_hidden(const struct tree_ctx *c, const cc_vw_edge *e)
{
        if (c->missing_only)
                return !edge_bad(e) && !(is(e->status, "loaded") && mark_of(c, e) == 1);
        return is(e->status, "already-loaded") && !is(e->kind, "runtime") && !is(e->how, "preload");
}

static int print_node(struct tree_ctx *c, int64_t id, cc_buf *prefix, int depth)
{
        cc_vw_node n;
        size_t i, last = 0, count = 0;

        if (node_at(c, id, &n) < 0 || depth > 300)
                return 0;
        for (i = 0; i < cc_v_len(n.edges); i++) {
                cc_vw_edge e;

                cc_vw_edge_at(n.edges, i, &e, NULL);
                if (edge_hidden(c, &e))
                        continue;
                last = i;
                count++;
        }
        for (i = 0; count && i < cc_v_len(n.edges); i++) {
                cc_vw_edge e;
                int is_last = i == last;
                size_t plen = prefix->len;

                cc_vw_edge_at(n.edges, i, &e, NULL);
                if (edge_hidden(c, &e))
                        continue;
                TRY(cc_text_put(&c->t, prefix->data ? prefix->data : ""));
                TRY(cc_text_printf(&c->t, "%s",
                                   is_last ? "\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 "
                                           : "\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 "));
                TRY(cc_text_put(&c->t, e.resolved_name ? e.resolved_name : e.name));
                if (is(e.status, "api-set")) {
                        TRY(cc_text_printf(&c->t, " %s(API set)%s", cc_text_sgr(&c->t, CC_SGR_DIM),
                                           cc_text_sgr(&c->t, CC_SGR_OFF)));
                } else if (edge_bad(&e)) {
                        TRY(cc_text_printf(&c->t, " %s%s%s", cc_text_sgr(&c->t, CC_SGR_RED),
                                           is(e.status, "fails") ? "fails to load" : "not found",
                                           cc_text_sgr(&c->t, CC_SGR_OFF)));
                        if (CC_VW_HAS(&e, edge, windows_error))
                                TRY(cc_text_printf(&c->t, " (error %lld)", (long long)e.windows_error));
                } else {
                        TRY(cc_text_printf(&c->t, " => "));
                        TRY(cc_text_put(&c->t, e.path));
                        TRY(cc_text_printf(&c->t, " %s[%s]%s", cc_text_sgr(&c->t, CC_SGR_DIM), how_text(e.how),
                                           cc_text_sgr(&c->t, CC_SGR_OFF)));
                        if (is(e.status, "depth-limit"))
                                TRY(cc_text_printf(&c->t, " (not followed: --max-depth)"));
                }
                if (is(e.kind, "runtime"))
                        TRY(cc_text_printf(&c->t, " %s(run time)%s", cc_text_sgr(&c->t, CC_SGR_YELLOW),
                                           cc_text_sgr(&c->t, CC_SGR_OFF)));
                else if (is(e.kind, "delay-import"))
                        TRY(cc_text_printf(&c->t, " %s(delay load)%s", cc_text_sgr(&c->t, CC_SGR_DIM),
                                           cc_text_sgr(&c->t, CC_SGR_OFF)));
                TRY(cc_text_printf(&c->t, "\n"));
                if (is(e.status, "loaded")) {
                        if (cc_buf_puts(prefix, is_last ? "    " : "\xe2\x94\x82   ", c->t.err) < 0)
                                goto fail;
                        if (print_node(c, e.node, prefix, depth + 1) < 0)
                                goto fail;
                        prefix->len = plen;
                        if (prefix->data)
                                prefix->data[plen] = '\0';
                }
        }
        return 0;
fail:
        return -1;
}

/* The summary lines under the tree. */
static int summary_lines(struct cc_text *t, const cc_value *summary, int missing_only)
{
        cc_vw_deps_summary sum;
        cc_vw_deps_cudnn cd;
        size_t k;

        cc_vw_deps_summary_read(summary, &sum, NULL);
        cc_vw_deps_cudnn_read(sum.cudnn, &cd, NULL);
        TRY(cc_text_printf(t, "\n%lld objects, %lld missing, %lld missing at run time\n", (long long)sum.objects,
                           (long long)sum.missing, (long long)sum.runtime_missing));
        if (cc_v_len(cd.versions) > 0 && !missing_only) {
                TRY(cc_text_printf(t, "cuDNN loaded:"));
                for (k = 0; k < cc_v_len(cd.versions); k++) {
                        TRY(cc_text_printf(t, " "));
                        TRY(cc_text_put(t, cc_v_as_str(cc_v_at(cd.versions, k))));
                }
                TRY(cc_text_printf(t, " from %zu director%s%s\n", cc_v_len(cd.directories),
                                   cc_v_len(cd.directories) == 1 ? "y" : "ies",
                                   cd.mixed   ? " (a mixed set)"
                                   : cd.split ? " (one release in several directories)"
                                              : ""));
        }
        return 0;
fail:
        return -1;
}

int cudnnctl_deps_text(const cudnnctl_value *doc, int missing_only, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0}, prefix = {0};
        struct tree_ctx c;
        cc_vw_deps_doc dd;
        cc_vw_node root;
        int rv = -1, has_root;

        *out = NULL;
        memset(&c, 0, sizeof(c));
        cc_vw_deps_doc_read(doc, &dd, NULL);
        c.t.b = &b;
        c.t.color = color;
        c.t.err = err;
        c.nodes = dd.nodes;
        c.nnodes = cc_v_len(c.nodes);
        c.missing_only = missing_only;
        c.marks = cc_calloc(err, c.nnodes + 1, 1);
        if (c.marks == NULL)
                return -1;
        has_root = node_at(&c, 0, &root) == 0;
        if (!has_root && dd.target_resolution != NULL) {
                /* the target name itself is not loaded */
                TRY(one_result(&c.t, dd.target_resolution, 0));
        } else if (!has_root) {
                TRY(cc_text_printf(&c.t, "(nothing)\n"));
        } else {
                TRY(cc_text_printf(&c.t, "%s", cc_text_sgr(&c.t, CC_SGR_BOLD)));
                TRY(cc_text_put(&c.t, root.path));
                TRY(cc_text_printf(&c.t, "%s", cc_text_sgr(&c.t, CC_SGR_OFF)));
                if (root.error != NULL) {
                        TRY(cc_text_printf(&c.t, ": %s", cc_text_sgr(&c.t, CC_SGR_RED)));
                        TRY(cc_text_put(&c.t, root.error));
                        TRY(cc_text_printf(&c.t, "%s", cc_text_sgr(&c.t, CC_SGR_OFF)));
                }
                TRY(cc_text_printf(&c.t, "\n"));
                mark(&c, 0, 0);
                TRY(print_node(&c, 0, &prefix, 0));
        }
        TRY(summary_lines(&c.t, dd.summary, missing_only));
        TRY(notes(&c.t, 0, dd.notes));
        *out = cc_buf_steal(&b);
        rv = 0;
fail:
        cc_buf_free(&b);
        cc_buf_free(&prefix);
        free(c.marks);
        return rv;
}
