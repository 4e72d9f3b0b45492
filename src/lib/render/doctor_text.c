/* Text for the doctor document: one line per area (like flutter doctor),
 * then the findings, most severe first, each with its evidence and fix,
 * then the verdict. */
#include <stdlib.h>
#include <string.h>

#include "../facts/views.h"
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
                cc_vw_finding_instance in;

                cc_vw_finding_instance_at(v, i, &in, NULL);
                if (cc_buf_puts(t->b, "\n    - ", t->err) < 0 ||
                    (in.summary != NULL ? cc_text_put(t, in.summary) : ev_value(t, cc_v_at(v, i), verbose)) < 0)
                        return -1;
        }
        if (shown < n && cc_text_printf(t, "\n    %s... and %zu more (--verbose shows all)%s",
                                        cc_text_sgr(t, CC_SGR_DIM), n - shown, cc_text_sgr(t, CC_SGR_OFF)) < 0)
                return -1;
        return 0;
}

/* The findings a cause explains (the evidence "also", folded by the
 * doctor's relations): "explains:" and one line each, its id and summary. */
static int ev_also(struct cc_text *t, const cc_value *v)
{
        size_t i;

        if (cc_text_printf(t, "  %sexplains:%s", cc_text_sgr(t, CC_SGR_DIM), cc_text_sgr(t, CC_SGR_OFF)) < 0)
                return -1;
        for (i = 0; i < cc_v_len(v); i++) {
                const cc_value *o = cc_v_at(v, i);
                const char *id = cc_v_as_str(cc_v_get(o, "id")), *sum = cc_v_as_str(cc_v_get(o, "summary"));

                if (cc_text_printf(t, "\n    - %s: ", id ? id : "?") < 0 || cc_text_put(t, sum ? sum : "") < 0)
                        return -1;
        }
        return cc_buf_putc(t->b, '\n', t->err);
}

int cudnnctl_doctor_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text t = {&b, color, err};
        cc_vw_doctor d;
        cc_vw_machine mach;
        cc_vw_doctor_summary sum;
        const char *mode;
        size_t i, j;

        *out = NULL;
        cc_vw_doctor_read(doc, &d, NULL);
        cc_vw_machine_read(d.machine, &mach, NULL);
        cc_vw_doctor_summary_read(d.summary, &sum, NULL);
        mode = d.mode;
        if (cc_text_printf(&t, "%scudnnctl doctor%s: %s", cc_text_sgr(&t, CC_SGR_BOLD), cc_text_sgr(&t, CC_SGR_OFF),
                           d.rechecked                           ? "checks re-run on the recorded facts of "
                           : mode && strcmp(mode, "static") == 0 ? "static check (nothing loaded or run) of "
                                                                 : "") < 0)
                goto fail;
        if (d.rechecked) {
                if (cc_text_printf(&t, "a %s machine (%s%s%s)", mach.system ? mach.system : "?",
                                   mode && strcmp(mode, "static") == 0 ? "static check" : "live check",
                                   mach.root ? " of " : "", mach.root ? mach.root : "") < 0)
                        goto fail;
        } else if (mach.root != NULL) {
                if (cc_text_printf(&t, "%s tree ", mach.system) < 0 || cc_text_put(&t, mach.root) < 0)
                        goto fail;
        } else if (cc_text_printf(&t, "this machine (%s)", mach.system ? mach.system : "?") < 0) {
                goto fail;
        }
        if (cc_buf_puts(&b, "\n\n", err) < 0)
                goto fail;
        for (i = 0; i < cc_v_len(d.areas); i++) {
                cc_vw_area a;
                const char *sgr, *m;

                cc_vw_area_at(d.areas, i, &a, NULL);
                m = area_mark(&t, a.status, &sgr);
                if (cc_text_printf(&t, "%s%s%s %-28s ", sgr, m, cc_text_sgr(&t, CC_SGR_OFF), a.title) < 0 ||
                    cc_text_put(&t, a.summary) < 0 || cc_buf_putc(&b, '\n', err) < 0)
                        goto fail;
        }
        if (cc_v_len(d.findings) > 0 &&
            cc_text_printf(&t, "\nFindings (%zu), most severe first:\n", cc_v_len(d.findings)) < 0)
                goto fail;
        for (i = 0; i < cc_v_len(d.findings); i++) {
                cc_vw_finding f;
                cc_vw_finding_catalog cat;
                const cc_value *ev;
                const char *sev, *sgr;

                cc_vw_finding_at(d.findings, i, &f, NULL);
                cc_vw_finding_catalog_read(f.catalog, &cat, NULL);
                ev = f.evidence;
                sev = f.severity;
                sgr = sev && strcmp(sev, "error") == 0     ? cc_text_sgr(&t, CC_SGR_RED)
                      : sev && strcmp(sev, "warning") == 0 ? cc_text_sgr(&t, CC_SGR_YELLOW)
                                                           : cc_text_sgr(&t, CC_SGR_DIM);
                if (cc_text_printf(&t, "\n%s%-7s%s %s%s%s\n  ", sgr, sev ? sev : "?", cc_text_sgr(&t, CC_SGR_OFF),
                                   cc_text_sgr(&t, CC_SGR_BOLD), f.id, cc_text_sgr(&t, CC_SGR_OFF)) < 0 ||
                    cc_text_put(&t, f.summary) < 0 || cc_buf_putc(&b, '\n', err) < 0)
                        goto fail;
                for (j = 0; j < cc_v_len(ev); j++) {
                        const cc_value *v = cc_v_at(ev, j);
                        int inst = strcmp(cc_v_key_at(ev, j), "instances") == 0 && cc_v_type(v) == CUDNNCTL_ARRAY;

                        /* what one cause explains: each folded finding on its line */
                        if (strcmp(cc_v_key_at(ev, j), "also") == 0 && cc_v_type(v) == CUDNNCTL_ARRAY) {
                                if (ev_also(&t, v) < 0)
                                        goto fail;
                                continue;
                        }

                        if (cc_text_printf(&t, "  %s%s:%s ", cc_text_sgr(&t, CC_SGR_DIM), cc_v_key_at(ev, j),
                                           cc_text_sgr(&t, CC_SGR_OFF)) < 0 ||
                            (inst ? ev_instances(&t, v, verbose) : ev_value(&t, v, verbose)) < 0 ||
                            cc_buf_putc(&b, '\n', err) < 0)
                                goto fail;
                }
                if (f.fix != NULL &&
                    (cc_text_printf(&t, "  %sfix:%s ", cc_text_sgr(&t, CC_SGR_BOLD), cc_text_sgr(&t, CC_SGR_OFF)) < 0 ||
                     cc_text_put(&t, f.fix) < 0 || cc_buf_putc(&b, '\n', err) < 0))
                        goto fail;
                if (verbose && cat.source != NULL &&
                    (cc_text_printf(&t, "  %ssource:%s ", cc_text_sgr(&t, CC_SGR_DIM), cc_text_sgr(&t, CC_SGR_OFF)) <
                         0 ||
                     cc_text_put(&t, cat.source) < 0 || cc_buf_putc(&b, '\n', err) < 0))
                        goto fail;
        }
        if (cc_text_printf(&t, "\n%s: %lld error(s), %lld warning(s), %lld note(s)", sum.verdict ? sum.verdict : "?",
                           (long long)sum.errors, (long long)sum.warnings, (long long)sum.infos) < 0)
                goto fail;
        if (CC_VW_HAS(&sum, doctor_summary, wall_ms) && cc_text_printf(&t, " (%lld ms)", (long long)sum.wall_ms) < 0)
                goto fail;
        if (cc_buf_putc(&b, '\n', err) < 0)
                goto fail;
        *out = cc_buf_steal(&b);
        return 0;
fail:
        cc_buf_free(&b);
        return -1;
}
