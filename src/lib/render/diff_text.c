/* The text of `cudnnctl diff`: the differences grouped by area, one line
 * each ("- removed", "+ added", "~ changed: old → new"), and a summary. */
#include "text.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A value on one line: a string as is, a number, true/false, "(none)" for
 * null, compact JSON for the rest. */
static int put_value(struct cc_text *o, const cc_value *v)
{
        cc_buf j = {0};
        int rv;

        switch (v ? cc_v_type(v) : CUDNNCTL_NULL) {
        case CUDNNCTL_NULL:
                return cc_buf_puts(o->b, "(none)", o->err);
        case CUDNNCTL_STRING:
                return cc_text_put(o, cc_v_as_str(v));
        case CUDNNCTL_INT:
                return cc_buf_printf(o->b, o->err, "%" PRId64, cc_v_as_int(v));
        case CUDNNCTL_BOOL:
                return cc_buf_puts(o->b, cc_v_as_bool(v) ? "true" : "false", o->err);
        default:
                if (cc_json_write(v, 0, &j, o->err) < 0) {
                        free(j.data);
                        return -1;
                }
                rv = cc_text_put(o, j.data ? j.data : "");
                free(j.data);
                return rv;
        }
}

static int change_line(struct cc_text *o, const cc_value *c)
{
        const char *kind = cc_v_get_str(c, "kind"), *what = cc_v_get_str(c, "what");
        const cc_value *files = cc_v_get(c, "files");
        int added = kind != NULL && strcmp(kind, "added") == 0, removed = kind != NULL && strcmp(kind, "removed") == 0;
        size_t i;

        TRY_RET(cc_buf_printf(o->b, o->err, "  %s%s ",
                              cc_text_sgr(o, added     ? CC_SGR_GREEN
                                             : removed ? CC_SGR_RED
                                                       : CC_SGR_YELLOW),
                              added     ? "+"
                              : removed ? "-"
                                        : "~"));
        TRY_RET(cc_text_put(o, cc_v_get_str(c, "subject")));
        if (what != NULL && what[0] &&
            strcmp(what, cc_v_get_str(c, "subject") ? cc_v_get_str(c, "subject") : "") != 0) {
                TRY_RET(cc_buf_putc(o->b, ' ', o->err));
                TRY_RET(cc_text_put(o, what));
        }
        TRY_RET(cc_buf_puts(o->b, cc_text_sgr(o, CC_SGR_OFF), o->err));
        if (added || removed) {
                const cc_value *v = cc_v_get(c, added ? "after" : "before");

                if (v != NULL && cc_v_type(v) != CUDNNCTL_NULL) {
                        TRY_RET(cc_buf_puts(o->b, ": ", o->err));
                        TRY_RET(put_value(o, v));
                }
                return cc_buf_putc(o->b, '\n', o->err);
        }
        TRY_RET(cc_buf_puts(o->b, ": ", o->err));
        TRY_RET(put_value(o, cc_v_get(c, "before")));
        TRY_RET(cc_buf_puts(o->b, " \xe2\x86\x92 ", o->err));
        TRY_RET(put_value(o, cc_v_get(c, "after")));
        if (files != NULL) {
                const cc_value *names = cc_v_get(files, "names");

                TRY_RET(cc_buf_printf(o->b, o->err,
                                      " files (%" PRId64 " added, %" PRId64 " removed, %" PRId64 " changed",
                                      cc_v_as_int(cc_v_get(files, "added")), cc_v_as_int(cc_v_get(files, "removed")),
                                      cc_v_as_int(cc_v_get(files, "changed"))));
                for (i = 0; i < cc_v_len(names); i++) {
                        TRY_RET(cc_buf_puts(o->b, i ? ", " : ": ", o->err));
                        TRY_RET(cc_text_put(o, cc_v_as_str(cc_v_at(names, i))));
                }
                TRY_RET(cc_buf_putc(o->b, ')', o->err));
        }
        return cc_buf_putc(o->b, '\n', o->err);
}

int cudnnctl_diff_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text o;
        const cc_value *groups = cc_v_get(doc, "groups"), *sum = cc_v_get(doc, "summary");
        int64_t n = cc_v_as_int(cc_v_get(sum, "differences")), vol = cc_v_as_int(cc_v_get(sum, "volatile"));
        size_t i, j;

        (void)verbose;
        *out = NULL;
        o.b = &b;
        o.color = color;
        o.err = err;
        for (i = 0; i < cc_v_len(groups); i++) {
                const cc_value *g = cc_v_at(groups, i), *cs = cc_v_get(g, "changes");

                TRY(cc_buf_printf(&b, err, "%s", cc_text_sgr(&o, CC_SGR_BOLD)));
                TRY(cc_text_put(&o, cc_v_get_str(g, "area")));
                TRY(cc_buf_puts(&b, ": ", err));
                TRY(cc_text_put(&o, cc_v_get_str(g, "title")));
                TRY(cc_buf_printf(&b, err, "%s\n", cc_text_sgr(&o, CC_SGR_OFF)));
                for (j = 0; j < cc_v_len(cs); j++)
                        TRY(change_line(&o, cc_v_at(cs, j)));
        }
        if (n == 0)
                TRY(cc_buf_puts(&b, "No differences", err));
        else
                TRY(cc_buf_printf(
                    &b, err, "%" PRId64 " difference%s (%" PRId64 " added, %" PRId64 " removed, %" PRId64 " changed)",
                    n, n == 1 ? "" : "s", cc_v_as_int(cc_v_get(sum, "added")), cc_v_as_int(cc_v_get(sum, "removed")),
                    cc_v_as_int(cc_v_get(sum, "changed"))));
        TRY(cc_buf_puts(&b, " between ", err));
        TRY(cc_text_put(&o, cc_v_get_str(cc_v_get(doc, "sources"), "before")));
        TRY(cc_buf_puts(&b, " and ", err));
        TRY(cc_text_put(&o, cc_v_get_str(cc_v_get(doc, "sources"), "after")));
        if (vol > 0 && !cc_v_as_bool(cc_v_get(doc, "all")))
                TRY(cc_buf_printf(&b, err,
                                  "; %" PRId64 " fact%s that differ%s from run to run left out (--all shows %s)", vol,
                                  vol == 1 ? "" : "s", vol == 1 ? "s" : "", vol == 1 ? "it" : "them"));
        else if (vol > 0)
                TRY(cc_buf_printf(&b, err, "; %" PRId64 " fact%s that differ%s from run to run", vol,
                                  vol == 1 ? "" : "s", vol == 1 ? "s" : ""));
        TRY(cc_buf_puts(&b, "\n", err));
        *out = b.data;
        return 0;
fail:
        free(b.data);
        return -1;
}
