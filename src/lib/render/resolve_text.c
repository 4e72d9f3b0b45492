/* Text for people from the which and deps documents (the same trees --json
 * prints). */
#include "text.h"

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
        const cc_value *sh = cc_v_get(r, "shadowed"), *el = cc_v_get(r, "elsewhere"), *tried = cc_v_get(r, "tried");
        int found = cc_v_as_bool(cc_v_get(r, "found"));
        const cc_value *werr = cc_v_get(r, "windows_error");
        size_t i;

        TRY(cc_text_printf(t, "%s", cc_text_sgr(t, CC_SGR_BOLD)));
        TRY(cc_text_put(t, cc_v_get_str(r, "name")));
        TRY(cc_text_printf(t, "%s", cc_text_sgr(t, CC_SGR_OFF)));
        if (found) {
                const char *path = cc_v_get_str(r, "path"), *real = cc_v_get_str(r, "realpath");
                const char *origin = cc_v_get_str(r, "origin");

                TRY(cc_text_printf(t, " => %s", cc_text_sgr(t, CC_SGR_GREEN)));
                TRY(cc_text_put(t, path));
                TRY(cc_text_printf(t, "%s\n", cc_text_sgr(t, CC_SGR_OFF)));
                TRY(cc_text_printf(t, "  %s%-*s%s %s", cc_text_sgr(t, CC_SGR_DIM), W, "found by",
                                   cc_text_sgr(t, CC_SGR_OFF), how_text(cc_v_get_str(r, "how"))));
                if (origin != NULL) {
                        TRY(cc_text_printf(t, ": "));
                        TRY(cc_text_put(t, origin));
                }
                TRY(cc_text_printf(t, "\n"));
                if (real != NULL && path != NULL && strcmp(real, path) != 0)
                        TRY(cc_text_field(t, 2, W, "real path", real));
                TRY(versions_field(t, 2, "versions", cc_v_get(r, "versions")));
                if (cc_v_get_str(r, "installation_version") != NULL) {
                        TRY(cc_text_printf(t, "  %s%-*s%s installation %lld (cuDNN %s)\n", cc_text_sgr(t, CC_SGR_DIM),
                                           W, "part of", cc_text_sgr(t, CC_SGR_OFF),
                                           (long long)cc_v_as_int(cc_v_get(r, "installation")),
                                           cc_v_get_str(r, "installation_version")));
                }
                {
                        const cc_value *pr = cc_v_get(r, "problems");
                        size_t k;

                        for (k = 0; k < cc_v_len(pr); k++) {
                                TRY(cc_text_printf(t, "  %s%-*s%s %s", cc_text_sgr(t, CC_SGR_DIM), W, "problem",
                                                   cc_text_sgr(t, CC_SGR_OFF), cc_text_sgr(t, CC_SGR_YELLOW)));
                                TRY(cc_text_put(t, cc_v_as_str(cc_v_at(pr, k))));
                                TRY(cc_text_printf(t, "%s\n", cc_text_sgr(t, CC_SGR_OFF)));
                        }
                }
        } else if (cc_v_type(werr) == CUDNNCTL_INT && cc_v_as_int(werr) == 193) {
                const cc_value *last = cc_v_at(tried, cc_v_len(tried) ? cc_v_len(tried) - 1 : 0);

                TRY(cc_text_printf(t, ": %sthe loader stops with error 193%s at ", cc_text_sgr(t, CC_SGR_RED),
                                   cc_text_sgr(t, CC_SGR_OFF)));
                TRY(cc_text_put(t, last ? cc_v_get_str(last, "path") : "?"));
                TRY(cc_text_printf(t, "\n"));
                if (last && cc_v_get_str(last, "detail"))
                        TRY(cc_text_field(t, 2, W, "because", cc_v_get_str(last, "detail")));
        } else if (cc_v_len(tried) && cc_v_get_str(cc_v_at(tried, cc_v_len(tried) - 1), "outcome") &&
                   strcmp(cc_v_get_str(cc_v_at(tried, cc_v_len(tried) - 1), "outcome"), "failed") == 0) {
                const cc_value *last = cc_v_at(tried, cc_v_len(tried) - 1);

                TRY(cc_text_printf(t, ": %sthe load fails%s at ", cc_text_sgr(t, CC_SGR_RED),
                                   cc_text_sgr(t, CC_SGR_OFF)));
                TRY(cc_text_put(t, cc_v_get_str(last, "path")));
                TRY(cc_text_printf(t, "\n"));
                TRY(cc_text_field(t, 2, W, "because", cc_v_get_str(last, "detail")));
        } else {
                TRY(cc_text_printf(t, ": %snot found%s (%zu places tried%s)\n", cc_text_sgr(t, CC_SGR_RED),
                                   cc_text_sgr(t, CC_SGR_OFF), cc_v_len(tried), verbose ? "" : "; --all lists them"));
        }
        for (i = 0; i < cc_v_len(sh); i++) {
                const cc_value *e = cc_v_at(sh, i);

                TRY(cc_text_printf(t, "  %s%-*s%s ", cc_text_sgr(t, CC_SGR_DIM), W, i ? "" : "shadows",
                                   cc_text_sgr(t, CC_SGR_OFF)));
                TRY(cc_text_put(t, cc_v_get_str(e, "path")));
                TRY(cc_text_printf(t, "  [%s]  ", how_text(cc_v_get_str(e, "how"))));
                TRY(cc_text_versions(t, cc_v_get(e, "versions")));
                TRY(cc_text_printf(t, "\n"));
        }
        for (i = 0; i < cc_v_len(el); i++) {
                const cc_value *e = cc_v_at(el, i);
                const cc_value *id = cc_v_get(e, "installation");

                TRY(cc_text_printf(t, "  %s%-*s%s ", cc_text_sgr(t, CC_SGR_DIM), W, i ? "" : "elsewhere",
                                   cc_text_sgr(t, CC_SGR_OFF)));
                TRY(cc_text_put(t, cc_v_get_str(e, "path")));
                TRY(cc_text_printf(t, "  (on no search path"));
                if (cc_v_type(id) == CUDNNCTL_INT)
                        TRY(cc_text_printf(t, "; installation %lld", (long long)cc_v_as_int(id)));
                TRY(cc_text_printf(t, ")  "));
                if (cc_v_len(cc_v_get(e, "versions")) == 0 && cc_v_get_str(e, "installation_version") != NULL)
                        TRY(cc_text_printf(t, "%s (its installation)", cc_v_get_str(e, "installation_version")));
                else
                        TRY(cc_text_versions(t, cc_v_get(e, "versions")));
                TRY(cc_text_printf(t, "\n"));
        }
        TRY(notes(t, 2, cc_v_get(r, "notes")));
        if (verbose) {
                for (i = 0; i < cc_v_len(tried); i++) {
                        const cc_value *e = cc_v_at(tried, i);
                        const char *oc = cc_v_get_str(e, "outcome"), *detail = cc_v_get_str(e, "detail");
                        const char *col = oc && strcmp(oc, "found") == 0     ? CC_SGR_GREEN
                                          : oc && strcmp(oc, "missing") == 0 ? CC_SGR_DIM
                                                                             : CC_SGR_YELLOW;

                        TRY(cc_text_printf(t, "  %s%-*s%s %s%-8s%s ", cc_text_sgr(t, CC_SGR_DIM), W, i ? "" : "tried",
                                           cc_text_sgr(t, CC_SGR_OFF), cc_text_sgr(t, col), oc ? oc : "?",
                                           cc_text_sgr(t, CC_SGR_OFF)));
                        TRY(cc_text_put(t, cc_v_get_str(e, "path")));
                        TRY(cc_text_printf(t, "  %s(", cc_text_sgr(t, CC_SGR_DIM)));
                        TRY(cc_text_put(t, cc_v_get_str(e, "origin")));
                        TRY(cc_text_printf(t, ")%s\n", cc_text_sgr(t, CC_SGR_OFF)));
                        if (detail != NULL) {
                                TRY(cc_text_printf(t, "  %*s          ", W, ""));
                                TRY(cc_text_put(t, detail));
                                TRY(cc_text_printf(t, "\n"));
                        }
                }
        }
        return 0;
fail:
        return -1;
}

int cudnnctl_which_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text t;
        const cc_value *results = cc_v_get(doc, "results");
        size_t i, nfound = 0, shown = 0;

        *out = NULL;
        t.b = &b;
        t.color = color;
        t.err = err;
        for (i = 0; i < cc_v_len(results); i++)
                nfound += cc_v_as_bool(cc_v_get(cc_v_at(results, i), "found")) ||
                          cc_v_len(cc_v_get(cc_v_at(results, i), "elsewhere")) > 0;
        for (i = 0; i < cc_v_len(results); i++) {
                const cc_value *r = cc_v_at(results, i);
                int interesting = cc_v_as_bool(cc_v_get(r, "found")) || cc_v_len(cc_v_get(r, "elsewhere")) > 0 ||
                                  cc_v_type(cc_v_get(r, "windows_error")) == CUDNNCTL_INT;

                /* for a short name, the majors with nothing at all get one line each */
                if (!interesting && nfound > 0 && !verbose) {
                        TRY(cc_text_put(&t, cc_v_get_str(r, "name")));
                        TRY(cc_text_printf(&t, ": not found\n"));
                        continue;
                }
                if (shown++ && cc_buf_putc(&b, '\n', err) < 0)
                        goto fail;
                TRY(one_result(&t, r, verbose));
        }
        if (verbose) {
                const cc_value *ld = cc_v_get(doc, "loader");

                TRY(cc_text_printf(&t, "\n"));
                if (cc_v_get_str(ld, "interpreter") != NULL) {
                        const cc_value *dd = cc_v_get(ld, "default_dirs");
                        cc_buf l = {0};

                        TRY(cc_text_field(&t, 0, W, "loader", cc_v_get_str(ld, "interpreter")));
                        for (i = 0; i < cc_v_len(dd); i++) {
                                if ((i && cc_buf_puts(&l, ":", err) < 0) ||
                                    cc_buf_puts(&l, cc_v_as_str(cc_v_at(dd, i)), err) < 0) {
                                        cc_buf_free(&l);
                                        goto fail;
                                }
                        }
                        if (cc_text_field(&t, 0, W, "defaults", l.data ? l.data : "") < 0) {
                                cc_buf_free(&l);
                                goto fail;
                        }
                        cc_buf_free(&l);
                        TRY(cc_text_field(&t, 0, W, "hwcaps", cc_v_get_str(ld, "subdirs_source")));
                        TRY(cc_text_field(&t, 0, W, "cache", cc_v_get_str(cc_v_get(ld, "ld_so_cache"), "path")));
                }
                TRY(notes(&t, 0, cc_v_get(ld, "notes")));
        }
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

static const cc_value *node_at(const struct tree_ctx *c, int64_t id)
{
        if (id < 0 || (size_t)id >= c->nnodes)
                return NULL;
        return cc_v_at(c->nodes, (size_t)id);
}

static int mark_of(const struct tree_ctx *c, const cc_value *e)
{
        int64_t id = cc_v_as_int(cc_v_get(e, "node"));

        return id >= 0 && (size_t)id < c->nnodes ? c->marks[id] : 0;
}

static int edge_bad(const cc_value *e)
{
        const char *st = cc_v_get_str(e, "status");

        return st && (strcmp(st, "missing") == 0 || strcmp(st, "fails") == 0);
}

/* Does node id's subtree (as first loaded) lead to something missing? */
static int mark(struct tree_ctx *c, int64_t id, int depth)
{
        const cc_value *n = node_at(c, id), *edges;
        size_t i;
        int bad = 0;

        if (n == NULL || depth > 300)
                return 0;
        if (c->marks[id])
                return c->marks[id] == 1;
        c->marks[id] = 2; /* visiting */
        edges = cc_v_get(n, "edges");
        if (cc_v_get_str(n, "error") != NULL)
                bad = 1;
        for (i = 0; i < cc_v_len(edges); i++) {
                const cc_value *e = cc_v_at(edges, i);
                const char *st = cc_v_get_str(e, "status");

                if (edge_bad(e))
                        bad = 1;
                else if (st && strcmp(st, "loaded") == 0 && mark(c, cc_v_as_int(cc_v_get(e, "node")), depth + 1))
                        bad = 1;
        }
        c->marks[id] = bad ? 1 : 3;
        return bad;
}

/* Edges the tree leaves out: a plain dependency on something already
 * loaded (ld.so reuses it; the JSON keeps it). */
static int edge_hidden(const struct tree_ctx *c, const cc_value *e)
{
        const char *st = cc_v_get_str(e, "status"), *kind = cc_v_get_str(e, "kind");
        int loaded = st && strcmp(st, "loaded") == 0;

        if (c->missing_only)
                return !edge_bad(e) && !(loaded && mark_of(c, e) == 1);
        return st && strcmp(st, "already-loaded") == 0 && !(kind && strcmp(kind, "runtime") == 0) &&
               !(cc_v_get_str(e, "how") && strcmp(cc_v_get_str(e, "how"), "preload") == 0);
}

static int print_node(struct tree_ctx *c, int64_t id, cc_buf *prefix, int depth)
{
        const cc_value *n = node_at(c, id), *edges;
        size_t i, last = 0, count = 0;

        if (n == NULL || depth > 300)
                return 0;
        edges = cc_v_get(n, "edges");
        for (i = 0; i < cc_v_len(edges); i++) {
                const cc_value *e = cc_v_at(edges, i);
                if (edge_hidden(c, e))
                        continue;
                last = i;
                count++;
        }
        for (i = 0; count && i < cc_v_len(edges); i++) {
                const cc_value *e = cc_v_at(edges, i);
                const char *st = cc_v_get_str(e, "status"), *kind = cc_v_get_str(e, "kind");
                int is_last = i == last, loaded = st && strcmp(st, "loaded") == 0;
                size_t plen = prefix->len;

                if (edge_hidden(c, e))
                        continue;
                TRY(cc_text_put(&c->t, prefix->data ? prefix->data : ""));
                TRY(cc_text_printf(&c->t, "%s",
                                   is_last ? "\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 "
                                           : "\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 "));
                TRY(cc_text_put(&c->t, cc_v_get_str(e, "resolved_name") ? cc_v_get_str(e, "resolved_name")
                                                                        : cc_v_get_str(e, "name")));
                if (st && strcmp(st, "api-set") == 0) {
                        TRY(cc_text_printf(&c->t, " %s(API set)%s", cc_text_sgr(&c->t, CC_SGR_DIM),
                                           cc_text_sgr(&c->t, CC_SGR_OFF)));
                } else if (edge_bad(e)) {
                        const cc_value *we = cc_v_get(e, "windows_error");

                        TRY(cc_text_printf(&c->t, " %s%s%s", cc_text_sgr(&c->t, CC_SGR_RED),
                                           strcmp(st, "fails") == 0 ? "fails to load" : "not found",
                                           cc_text_sgr(&c->t, CC_SGR_OFF)));
                        if (cc_v_type(we) == CUDNNCTL_INT)
                                TRY(cc_text_printf(&c->t, " (error %lld)", (long long)cc_v_as_int(we)));
                } else {
                        const char *how = cc_v_get_str(e, "how");

                        TRY(cc_text_printf(&c->t, " => "));
                        TRY(cc_text_put(&c->t, cc_v_get_str(e, "path")));
                        TRY(cc_text_printf(&c->t, " %s[%s]%s", cc_text_sgr(&c->t, CC_SGR_DIM), how_text(how),
                                           cc_text_sgr(&c->t, CC_SGR_OFF)));
                        if (st && strcmp(st, "depth-limit") == 0)
                                TRY(cc_text_printf(&c->t, " (not followed: --max-depth)"));
                }
                if (kind && strcmp(kind, "runtime") == 0)
                        TRY(cc_text_printf(&c->t, " %s(run time)%s", cc_text_sgr(&c->t, CC_SGR_YELLOW),
                                           cc_text_sgr(&c->t, CC_SGR_OFF)));
                else if (kind && strcmp(kind, "delay-import") == 0)
                        TRY(cc_text_printf(&c->t, " %s(delay load)%s", cc_text_sgr(&c->t, CC_SGR_DIM),
                                           cc_text_sgr(&c->t, CC_SGR_OFF)));
                TRY(cc_text_printf(&c->t, "\n"));
                if (loaded) {
                        if (cc_buf_puts(prefix, is_last ? "    " : "\xe2\x94\x82   ", c->t.err) < 0)
                                goto fail;
                        if (print_node(c, cc_v_as_int(cc_v_get(e, "node")), prefix, depth + 1) < 0)
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

int cudnnctl_deps_text(const cudnnctl_value *doc, int missing_only, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0}, prefix = {0};
        struct tree_ctx c;
        const cc_value *root, *sum = cc_v_get(doc, "summary");
        int rv = -1;

        *out = NULL;
        memset(&c, 0, sizeof(c));
        c.t.b = &b;
        c.t.color = color;
        c.t.err = err;
        c.nodes = cc_v_get(doc, "nodes");
        c.nnodes = cc_v_len(c.nodes);
        c.missing_only = missing_only;
        c.marks = cc_calloc(err, c.nnodes + 1, 1);
        if (c.marks == NULL)
                return -1;
        root = node_at(&c, 0);
        if (root == NULL && cc_v_get(doc, "target_resolution") != NULL) {
                /* the target name itself is not loaded */
                TRY(one_result(&c.t, cc_v_get(doc, "target_resolution"), 0));
        } else if (root == NULL) {
                TRY(cc_text_printf(&c.t, "(nothing)\n"));
        } else {
                TRY(cc_text_printf(&c.t, "%s", cc_text_sgr(&c.t, CC_SGR_BOLD)));
                TRY(cc_text_put(&c.t, cc_v_get_str(root, "path")));
                TRY(cc_text_printf(&c.t, "%s", cc_text_sgr(&c.t, CC_SGR_OFF)));
                if (cc_v_get_str(root, "error") != NULL) {
                        TRY(cc_text_printf(&c.t, ": %s", cc_text_sgr(&c.t, CC_SGR_RED)));
                        TRY(cc_text_put(&c.t, cc_v_get_str(root, "error")));
                        TRY(cc_text_printf(&c.t, "%s", cc_text_sgr(&c.t, CC_SGR_OFF)));
                }
                TRY(cc_text_printf(&c.t, "\n"));
                mark(&c, 0, 0);
                TRY(print_node(&c, 0, &prefix, 0));
        }
        TRY(cc_text_printf(&c.t, "\n%lld objects, %lld missing, %lld missing at run time\n",
                           (long long)cc_v_as_int(cc_v_get(sum, "objects")),
                           (long long)cc_v_as_int(cc_v_get(sum, "missing")),
                           (long long)cc_v_as_int(cc_v_get(sum, "runtime_missing"))));
        {
                const cc_value *cd = cc_v_path(doc, "summary/cudnn");

                if (cc_v_len(cc_v_get(cd, "versions")) > 0 && !missing_only) {
                        size_t k;

                        TRY(cc_text_printf(&c.t, "cuDNN loaded:"));
                        for (k = 0; k < cc_v_len(cc_v_get(cd, "versions")); k++) {
                                TRY(cc_text_printf(&c.t, " "));
                                TRY(cc_text_put(&c.t, cc_v_as_str(cc_v_at(cc_v_get(cd, "versions"), k))));
                        }
                        TRY(cc_text_printf(&c.t, " from %zu director%s%s\n", cc_v_len(cc_v_get(cd, "directories")),
                                           cc_v_len(cc_v_get(cd, "directories")) == 1 ? "y" : "ies",
                                           cc_v_as_bool(cc_v_get(cd, "mixed")) ? " (a mixed set)" : ""));
                }
        }
        TRY(notes(&c.t, 0, cc_v_get(doc, "notes")));
        *out = cc_buf_steal(&b);
        rv = 0;
fail:
        cc_buf_free(&b);
        cc_buf_free(&prefix);
        free(c.marks);
        return rv;
}
