/* Text for the doctor document: one line per area (like flutter doctor),
 * then the findings, most severe first, each with its evidence and fix,
 * then the verdict. */
#include <stdlib.h>
#include <string.h>

#include "text.h"

static const char *area_mark(const struct cc_text *t, const char *status, const char **sgr)
{
        if (status == NULL)
                status = "";
        if (strcmp(status, "error") == 0) {
                *sgr = cc_text_sgr(t, CC_SGR_RED);
                return "[x]";
        }
        if (strcmp(status, "warning") == 0) {
                *sgr = cc_text_sgr(t, CC_SGR_YELLOW);
                return "[!]";
        }
        if (strcmp(status, "ok") == 0) {
                *sgr = cc_text_sgr(t, CC_SGR_GREEN);
                return "[+]";
        }
        *sgr = cc_text_sgr(t, CC_SGR_DIM);
        return "[-]";
}

/* One evidence value on a line: strings as they are, numbers, arrays of
 * scalars joined, anything else as compact JSON (cut unless verbose). */
static int ev_value(struct cc_text *t, const cc_value *v, int verbose)
{
        cc_buf j = {0};
        int rc;

        switch (cc_v_type(v)) {
        case CUDNNCTL_STRING:
                return cc_text_put(t, cc_v_as_str(v));
        case CUDNNCTL_INT:
                return cc_text_printf(t, "%lld", (long long)cc_v_as_int(v));
        case CUDNNCTL_BOOL:
                return cc_text_put(t, cc_v_as_bool(v) ? "true" : "false");
        case CUDNNCTL_NULL:
                return cc_text_put(t, "unknown");
        default:
                break;
        }
        if (cc_json_write(v, 0, &j, t->err) < 0)
                return -1;
        if (!verbose && j.len > 300) {
                rc = cc_text_printf(t, "%.300s... (--verbose shows all)", j.data);
        } else {
                rc = cc_text_put(t, j.data);
        }
        cc_buf_free(&j);
        return rc;
}

/* How many instances of a repeated condition the text shows unless verbose. */
#define INSTANCES_SHOWN 5

/* A repeated condition's instances (the evidence "instances": one finding
 * for fifty missing entries): their number, then one line each (its summary,
 * else its values), the first INSTANCES_SHOWN unless verbose. */
static int ev_instances(struct cc_text *t, const cc_value *v, int verbose)
{
        size_t i, n = cc_v_len(v), shown = verbose || n <= INSTANCES_SHOWN + 1 ? n : INSTANCES_SHOWN;

        if (cc_text_printf(t, "%zu", n) < 0)
                return -1;
        for (i = 0; i < shown; i++) {
                const cc_value *in = cc_v_at(v, i);
                const char *s = cc_v_get_str(in, "summary");

                if (cc_buf_puts(t->b, "\n    - ", t->err) < 0 ||
                    (s != NULL ? cc_text_put(t, s) : ev_value(t, in, verbose)) < 0)
                        return -1;
        }
        if (shown < n && cc_text_printf(t, "\n    %s... and %zu more (--verbose shows all)%s",
                                        cc_text_sgr(t, CC_SGR_DIM), n - shown, cc_text_sgr(t, CC_SGR_OFF)) < 0)
                return -1;
        return 0;
}

int cudnnctl_doctor_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text t = {&b, color, err};
        const cc_value *areas = cc_v_get(doc, "areas"), *findings = cc_v_get(doc, "findings");
        const cc_value *sum = cc_v_get(doc, "summary"), *mach = cc_v_get(doc, "machine");
        const char *mode = cc_v_get_str(doc, "mode");
        size_t i, j;

        *out = NULL;
        if (cc_text_printf(&t, "%scudnnctl doctor%s: %s", cc_text_sgr(&t, CC_SGR_BOLD), cc_text_sgr(&t, CC_SGR_OFF),
                           cc_v_as_bool(cc_v_get(doc, "rechecked")) ? "checks re-run on the recorded facts of "
                           : mode && strcmp(mode, "static") == 0    ? "static check (nothing loaded or run) of "
                                                                    : "") < 0)
                goto fail;
        if (cc_v_as_bool(cc_v_get(doc, "rechecked"))) {
                if (cc_text_printf(&t, "a %s machine (%s%s%s)",
                                   cc_v_get_str(mach, "system") ? cc_v_get_str(mach, "system") : "?",
                                   mode && strcmp(mode, "static") == 0 ? "static check" : "live check",
                                   cc_v_get_str(mach, "root") ? " of " : "",
                                   cc_v_get_str(mach, "root") ? cc_v_get_str(mach, "root") : "") < 0)
                        goto fail;
        } else if (cc_v_get_str(mach, "root") != NULL) {
                if (cc_text_printf(&t, "%s tree ", cc_v_get_str(mach, "system")) < 0 ||
                    cc_text_put(&t, cc_v_get_str(mach, "root")) < 0)
                        goto fail;
        } else if (cc_text_printf(&t, "this machine (%s)",
                                  cc_v_get_str(mach, "system") ? cc_v_get_str(mach, "system") : "?") < 0) {
                goto fail;
        }
        if (cc_buf_puts(&b, "\n\n", err) < 0)
                goto fail;
        for (i = 0; i < cc_v_len(areas); i++) {
                const cc_value *a = cc_v_at(areas, i);
                const char *sgr;
                const char *m = area_mark(&t, cc_v_get_str(a, "status"), &sgr);

                if (cc_text_printf(&t, "%s%s%s %-28s ", sgr, m, cc_text_sgr(&t, CC_SGR_OFF), cc_v_get_str(a, "title")) <
                        0 ||
                    cc_text_put(&t, cc_v_get_str(a, "summary")) < 0 || cc_buf_putc(&b, '\n', err) < 0)
                        goto fail;
        }
        if (cc_v_len(findings) > 0 &&
            cc_text_printf(&t, "\nFindings (%zu), most severe first:\n", cc_v_len(findings)) < 0)
                goto fail;
        for (i = 0; i < cc_v_len(findings); i++) {
                const cc_value *f = cc_v_at(findings, i), *ev = cc_v_get(f, "evidence");
                const char *sev = cc_v_get_str(f, "severity");
                const char *sgr = sev && strcmp(sev, "error") == 0     ? cc_text_sgr(&t, CC_SGR_RED)
                                  : sev && strcmp(sev, "warning") == 0 ? cc_text_sgr(&t, CC_SGR_YELLOW)
                                                                       : cc_text_sgr(&t, CC_SGR_DIM);

                if (cc_text_printf(&t, "\n%s%-7s%s %s%s%s\n  ", sgr, sev ? sev : "?", cc_text_sgr(&t, CC_SGR_OFF),
                                   cc_text_sgr(&t, CC_SGR_BOLD), cc_v_get_str(f, "id"),
                                   cc_text_sgr(&t, CC_SGR_OFF)) < 0 ||
                    cc_text_put(&t, cc_v_get_str(f, "summary")) < 0 || cc_buf_putc(&b, '\n', err) < 0)
                        goto fail;
                for (j = 0; j < cc_v_len(ev); j++) {
                        const cc_value *v = cc_v_at(ev, j);
                        int inst = strcmp(cc_v_key_at(ev, j), "instances") == 0 && cc_v_type(v) == CUDNNCTL_ARRAY;

                        if (cc_text_printf(&t, "  %s%s:%s ", cc_text_sgr(&t, CC_SGR_DIM), cc_v_key_at(ev, j),
                                           cc_text_sgr(&t, CC_SGR_OFF)) < 0 ||
                            (inst ? ev_instances(&t, v, verbose) : ev_value(&t, v, verbose)) < 0 ||
                            cc_buf_putc(&b, '\n', err) < 0)
                                goto fail;
                }
                if (cc_v_get_str(f, "fix") != NULL &&
                    (cc_text_printf(&t, "  %sfix:%s ", cc_text_sgr(&t, CC_SGR_BOLD), cc_text_sgr(&t, CC_SGR_OFF)) < 0 ||
                     cc_text_put(&t, cc_v_get_str(f, "fix")) < 0 || cc_buf_putc(&b, '\n', err) < 0))
                        goto fail;
                if (verbose && cc_v_get_str(cc_v_get(f, "catalog"), "source") != NULL &&
                    (cc_text_printf(&t, "  %ssource:%s ", cc_text_sgr(&t, CC_SGR_DIM), cc_text_sgr(&t, CC_SGR_OFF)) <
                         0 ||
                     cc_text_put(&t, cc_v_get_str(cc_v_get(f, "catalog"), "source")) < 0 ||
                     cc_buf_putc(&b, '\n', err) < 0))
                        goto fail;
        }
        if (cc_text_printf(&t, "\n%s: %lld error(s), %lld warning(s), %lld note(s)",
                           cc_v_get_str(sum, "verdict") ? cc_v_get_str(sum, "verdict") : "?",
                           (long long)cc_v_as_int(cc_v_get(sum, "errors")),
                           (long long)cc_v_as_int(cc_v_get(sum, "warnings")),
                           (long long)cc_v_as_int(cc_v_get(sum, "infos"))) < 0)
                goto fail;
        if (cc_v_get(sum, "wall_ms") != NULL &&
            cc_text_printf(&t, " (%lld ms)", (long long)cc_v_as_int(cc_v_get(sum, "wall_ms"))) < 0)
                goto fail;
        if (cc_buf_putc(&b, '\n', err) < 0)
                goto fail;
        *out = cc_buf_steal(&b);
        return 0;
fail:
        cc_buf_free(&b);
        return -1;
}
