/* The text of `cudnnctl report`: the groups (count, stack, verdict, names),
 * the table of groups by area with the worst severity of each, the findings
 * by how many nodes have each, and the unreadable documents. */
#include "cudnnctl/report.h"

#include "report.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number a name ends with and where its digits start. */
static int tail_number(const char *s, size_t *digits_at, unsigned long long *num)
{
        size_t n = strlen(s), i = n;

        while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
                i--;
        if (i == n || n - i > 18)
                return -1;
        *digits_at = i;
        *num = strtoull(s + i, NULL, 10);
        return 0;
}

static int numbered_run(const cc_value *names)
{
        size_t n = cc_v_len(names), i, at0, at;
        unsigned long long first, v;
        const char *s0 = cc_v_as_str(cc_v_at(names, 0));

        if (s0 == NULL || tail_number(s0, &at0, &first) < 0)
                return 0;
        for (i = 1; i < n; i++) {
                const char *s = cc_v_as_str(cc_v_at(names, i));

                if (s == NULL || tail_number(s, &at, &v) < 0 || at != at0 || strlen(s) != strlen(s0) ||
                    memcmp(s, s0, at) != 0 || v != first + i)
                        return 0;
        }
        return 1;
}

int cc_report_names(const cc_value *names, int all, int (*put)(void *ctx, const char *s, size_t n, int own), void *ctx,
                    cc_error *err)
{
        size_t n = cc_v_len(names), i, shown;
        char more[64];

        (void)err;
        if (n == 0)
                return 0;
        if (!all && n > 4 && numbered_run(names)) {
                const char *a = cc_v_as_str(cc_v_at(names, 0)), *b = cc_v_as_str(cc_v_at(names, n - 1));

                TRY_RET(put(ctx, a, strlen(a), 0));
                TRY_RET(put(ctx, NULL, 0, 1)); /* the ellipsis */
                return put(ctx, b, strlen(b), 0);
        }
        shown = all || n <= 4 ? n : 3;
        for (i = 0; i < shown; i++) {
                const char *s = cc_v_as_str(cc_v_at(names, i));

                if (i > 0 && put(ctx, ", ", 2, 1) < 0)
                        return -1;
                TRY_RET(put(ctx, s ? s : "", s ? strlen(s) : 0, 0));
        }
        if (shown < n) {
                int len = snprintf(more, sizeof(more), " and %zu more", n - shown);

                return put(ctx, more, (size_t)len, 1);
        }
        return 0;
}

/* put for text: a name escaped for a terminal. */
static int text_put(void *ctx, const char *s, size_t n, int own)
{
        struct cc_text *o = ctx;
        char *copy;
        int rc;

        if (s == NULL)
                return cc_buf_puts(o->b, "\xe2\x80\xa6", o->err);
        if (own)
                return cc_buf_append(o->b, s, n, o->err);
        copy = cc_strndup(o->err, s, n);
        if (copy == NULL)
                return -1;
        rc = cc_text_put(o, copy);
        free(copy);
        return rc;
}

static const char *sgr_of(const struct cc_text *o, const char *state)
{
        if (strcmp(state, "error") == 0)
                return cc_text_sgr(o, CC_SGR_RED);
        if (strcmp(state, "warning") == 0)
                return cc_text_sgr(o, CC_SGR_YELLOW);
        if (strcmp(state, "ok") == 0)
                return cc_text_sgr(o, CC_SGR_GREEN);
        return cc_text_sgr(o, CC_SGR_DIM);
}

static int cell(struct cc_text *o, const char *state, int width)
{
        int n = (int)strlen(state);

        TRY_RET(cc_buf_printf(o->b, o->err, "%s%s%s", sgr_of(o, state), state, cc_text_sgr(o, "\033[0m")));
        return cc_buf_printf(o->b, o->err, "%*s", width > n ? width - n : 1, "");
}

int cudnnctl_report_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text o;
        const cc_value *groups = cc_v_get(doc, "groups"), *areas = cc_v_get(doc, "areas");
        const cc_value *findings = cc_v_get(doc, "findings"), *un = cc_v_get(doc, "unreadable");
        size_t i, k;

        *out = NULL;
        o.b = &b;
        o.color = color;
        o.err = err;
        TRY(cc_buf_printf(&b, err, "%lld node%s in %zu group%s", (long long)cc_v_as_int(cc_v_get(doc, "nodes")),
                          cc_v_as_int(cc_v_get(doc, "nodes")) == 1 ? "" : "s", cc_v_len(groups),
                          cc_v_len(groups) == 1 ? "" : "s"));
        if (cc_v_len(un) > 0)
                TRY(cc_buf_printf(&b, err, "; %zu unreadable document%s", cc_v_len(un), cc_v_len(un) == 1 ? "" : "s"));
        TRY(cc_buf_puts(&b, "\n", err));
        for (i = 0; i < cc_v_len(groups); i++) {
                const cc_value *g = cc_v_at(groups, i), *gf = cc_v_get(g, "findings");
                const char *verdict = cc_v_get_str(g, "verdict");
                int listed = 0;

                TRY(cc_buf_printf(&b, err, "\n%zu. %lld node%s: ", i + 1, (long long)cc_v_as_int(cc_v_get(g, "nodes")),
                                  cc_v_as_int(cc_v_get(g, "nodes")) == 1 ? "" : "s"));
                TRY(cc_text_put(&o, cc_v_get_str(g, "line")));
                TRY(cc_buf_puts(&b, ", ", err));
                for (k = 0; k < cc_v_len(gf); k++) {
                        const cc_value *f = cc_v_at(gf, k);
                        const char *sev = cc_v_get_str(f, "severity");

                        if (sev == NULL || strcmp(sev, "info") == 0)
                                continue;
                        TRY(cc_buf_printf(&b, err, "%s%s", listed++ ? " " : "", sgr_of(&o, sev)));
                        TRY(cc_text_put(&o, cc_v_get_str(f, "id")));
                        TRY(cc_buf_printf(&b, err, " (%s)%s", sev, cc_text_sgr(&o, "\033[0m")));
                }
                if (!listed)
                        TRY(cc_buf_printf(&b, err, "%s%s%s", cc_text_sgr(&o, CC_SGR_GREEN),
                                          verdict ? verdict : "healthy", cc_text_sgr(&o, "\033[0m")));
                TRY(cc_buf_puts(&b, "\n   ", err));
                TRY(cc_report_names(cc_v_get(g, "names"), verbose, text_put, &o, err));
                TRY(cc_buf_puts(&b, "\n", err));
        }
        if (cc_v_len(groups) > 0) {
                TRY(cc_buf_printf(&b, err, "\n%-6s %7s  ", "group", "nodes"));
                for (k = 0; k < cc_v_len(areas); k++)
                        TRY(cc_buf_printf(&b, err, "%-12s", cc_v_as_str(cc_v_at(areas, k))));
                while (b.len > 0 && b.data[b.len - 1] == ' ')
                        b.data[--b.len] = '\0';
                TRY(cc_buf_puts(&b, "\n", err));
                for (i = 0; i < cc_v_len(groups); i++) {
                        const cc_value *g = cc_v_at(groups, i), *cells = cc_v_get(g, "areas");

                        TRY(cc_buf_printf(&b, err, "%-6zu %7lld  ", i + 1,
                                          (long long)cc_v_as_int(cc_v_get(g, "nodes"))));
                        for (k = 0; k < cc_v_len(areas); k++) {
                                const char *st = cc_v_get_str(cells, cc_v_as_str(cc_v_at(areas, k)));

                                TRY(cell(&o, st ? st : "none", 12));
                        }
                        while (b.len > 0 && b.data[b.len - 1] == ' ')
                                b.data[--b.len] = '\0';
                        TRY(cc_buf_puts(&b, "\n", err));
                }
        }
        if (cc_v_len(findings) > 0) {
                TRY(cc_buf_puts(&b, "\nfindings, by nodes:\n", err));
                for (i = 0; i < cc_v_len(findings); i++) {
                        const cc_value *f = cc_v_at(findings, i);

                        TRY(cc_buf_puts(&b, "  ", err));
                        TRY(cell(&o, cc_v_get_str(f, "severity") ? cc_v_get_str(f, "severity") : "info", 9));
                        TRY(cc_buf_printf(&b, err, "%6lld  ", (long long)cc_v_as_int(cc_v_get(f, "nodes"))));
                        TRY(cc_text_put(&o, cc_v_get_str(f, "id")));
                        TRY(cc_buf_puts(&b, ": ", err));
                        TRY(cc_text_put(&o, cc_v_get_str(f, "summary")));
                        TRY(cc_buf_puts(&b, "\n", err));
                }
        }
        if (cc_v_len(un) > 0) {
                TRY(cc_buf_puts(&b, "\nunreadable:\n", err));
                for (i = 0; i < cc_v_len(un); i++) {
                        TRY(cc_buf_puts(&b, "  ", err));
                        TRY(cc_text_put(&o, cc_v_get_str(cc_v_at(un, i), "file")));
                        TRY(cc_buf_puts(&b, ": ", err));
                        TRY(cc_text_put(&o, cc_v_get_str(cc_v_at(un, i), "reason")));
                        TRY(cc_buf_puts(&b, "\n", err));
                }
        }
        *out = cc_buf_steal(&b);
        return *out != NULL ? 0 : cc_err(err, CC_ERR_NOMEM, "out of memory");
fail:
        cc_buf_free(&b);
        return -1;
}
