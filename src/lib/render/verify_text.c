/* Text for the verify document: the installation, then each layer with its
 * checks (pass / FAIL / n/c and the evidence in one line), then the verdict. */
#include <stdlib.h>
#include <string.h>

#include "../facts/views.h"
#include "text.h"

static const char *mark(const struct cc_text *t, const char *status, const char **sgr)
{
        if (status != NULL && strcmp(status, "passed") == 0) {
                *sgr = cc_text_sgr(t, CC_SGR_GREEN);
                return "pass";
        }
        if (status != NULL && strcmp(status, "failed") == 0) {
                *sgr = cc_text_sgr(t, CC_SGR_RED);
                return "FAIL";
        }
        *sgr = cc_text_sgr(t, CC_SGR_YELLOW);
        return "n/c ";
}

/* The GPU operations, one line each, for the gpu-work check. */
static int gpu_lines(struct cc_text *t, const cc_value *ops)
{
        size_t i;

        for (i = 0; i < cc_v_len(ops); i++) {
                cc_vw_gpu_op o;
                const char *sgr, *m;
                int compared;

                cc_vw_gpu_op_at(ops, i, &o, NULL);
                m = mark(t, o.status, &sgr);
                /* the errors are there when the outputs were compared and all finite */
                compared = CC_VW_HAS(&o, gpu_op, max_rel_error);
                if (cc_text_printf(t, "           %s%s%s %-26s %-5s ", sgr, m, cc_text_sgr(t, CC_SGR_OFF),
                                   o.op ? o.op : "?", o.family ? o.family : "") < 0)
                        return -1;
                if (compared &&
                    cc_text_printf(t, "max rel. error %.2e (tolerance %.0e), %lld elements, %lld us", o.max_rel_error,
                                   o.tolerance, (long long)o.elements, (long long)o.time_us) < 0)
                        return -1;
                if (o.reason != NULL &&
                    (cc_text_printf(t, "%s", compared ? "; " : "") < 0 || cc_text_put(t, o.reason) < 0))
                        return -1;
                if (cc_buf_putc(t->b, '\n', t->err) < 0)
                        return -1;
        }
        return 0;
}

int cudnnctl_verify_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text t = {&b, color, err};
        cc_vw_verify_doc d;
        cc_vw_verify_installation inst;
        cc_vw_verify_summary sum;
        const char *shown = NULL;
        size_t i, j, n;

        *out = NULL;
        cc_vw_verify_doc_read(doc, &d, NULL);
        cc_vw_verify_installation_read(d.installation, &inst, NULL);
        cc_vw_verify_summary_read(d.summary, &sum, NULL);
        if (cc_text_printf(&t, "%scuDNN %s%s at ", cc_text_sgr(&t, CC_SGR_BOLD),
                           inst.version ? inst.version : "(version unknown)", cc_text_sgr(&t, CC_SGR_OFF)) < 0 ||
            cc_text_put(&t, inst.prefix) < 0 ||
            cc_text_printf(&t, " (installation %lld, %s)\n", (long long)inst.id,
                           inst.provenance ? inst.provenance : "?") < 0 ||
            cc_text_field(&t, 2, 10, "chosen", inst.chosen_by) < 0)
                goto fail;
        if (cc_v_len(inst.cuda_variants) > 0) {
                /* the Windows installer's layout: which CUDA variant, and why */
                for (i = 0; i < cc_v_len(inst.cuda_variants); i++)
                        if (cc_text_printf(&t, "%s%s", i ? ", " : "  variants   ",
                                           cc_v_as_str(cc_v_at(inst.cuda_variants, i))) < 0)
                                goto fail;
                if (cc_buf_putc(&b, '\n', err) < 0 ||
                    cc_text_printf(&t, "  cuda       %s: ", inst.cuda_variant ? inst.cuda_variant : "every one") < 0 ||
                    cc_text_put(&t, inst.variant_chosen_by) < 0 || cc_buf_putc(&b, '\n', err) < 0)
                        goto fail;
        }
        for (i = 0, n = 0; i < cc_v_len(d.layers); i++, n++) {
                cc_vw_layer l;
                const char *sgr, *m;

                cc_vw_layer_at(d.layers, i, &l, NULL);
                if (l.cuda_variant != NULL && (shown == NULL || strcmp(shown, l.cuda_variant) != 0)) {
                        /* each variant's set apart, when several were verified */
                        shown = l.cuda_variant;
                        n = 0;
                        for (j = 0; j < cc_v_len(d.variants); j++) {
                                cc_vw_verify_variant vv;

                                cc_vw_verify_variant_at(d.variants, j, &vv, NULL);
                                if (inst.cuda_variant == NULL && vv.cuda_variant != NULL &&
                                    strcmp(vv.cuda_variant, shown) == 0 &&
                                    (cc_text_printf(&t, "\n%sCUDA %s%s: cuDNN %s in ", cc_text_sgr(&t, CC_SGR_BOLD),
                                                    shown, cc_text_sgr(&t, CC_SGR_OFF),
                                                    vv.version ? vv.version : "(header version unknown)") < 0 ||
                                     cc_text_put(&t, vv.lib_dir ? vv.lib_dir : "(no library directory)") < 0 ||
                                     cc_text_printf(&t, ": %s\n", vv.verdict ? vv.verdict : "?") < 0))
                                        goto fail;
                        }
                }
                m = mark(&t, l.status, &sgr);
                if (cc_text_printf(&t, "\n%s%s%s %zu. %s%s%s\n", sgr, m, cc_text_sgr(&t, CC_SGR_OFF), n + 1,
                                   l.title ? l.title : "?", l.cuda_variant ? ", CUDA " : "",
                                   l.cuda_variant ? l.cuda_variant : "") < 0)
                        goto fail;
                for (j = 0; j < cc_v_len(l.checks); j++) {
                        cc_vw_check c;
                        const char *csgr, *cm;

                        cc_vw_check_at(l.checks, j, &c, NULL);
                        cm = mark(&t, c.status, &csgr);
                        if (cc_text_printf(&t, "     %s%s%s %-38s ", csgr, cm, cc_text_sgr(&t, CC_SGR_OFF),
                                           c.title ? c.title : "?") < 0 ||
                            cc_text_put(&t, c.summary) < 0 || cc_buf_putc(&b, '\n', err) < 0)
                                goto fail;
                        if (c.id && strcmp(c.id, "gpu-work") == 0) {
                                cc_vw_gpu_work_evidence ev;

                                cc_vw_gpu_work_evidence_read(c.evidence, &ev, NULL);
                                if (gpu_lines(&t, ev.operations) < 0)
                                        goto fail;
                        }
                        if (verbose && CC_VW_HAS(&c, check, evidence)) {
                                char *js = NULL;

                                if (cudnnctl_to_json(c.evidence, 0, &js, err) < 0)
                                        goto fail;
                                if (cc_text_printf(&t, "           %sevidence%s ", cc_text_sgr(&t, CC_SGR_DIM),
                                                   cc_text_sgr(&t, CC_SGR_OFF)) < 0 ||
                                    cc_text_put(&t, js) < 0 || cc_buf_putc(&b, '\n', err) < 0) {
                                        free(js);
                                        goto fail;
                                }
                                free(js);
                        }
                }
        }
        if (cc_text_printf(&t, "\nverdict: %s%s%s", cc_text_sgr(&t, CC_SGR_BOLD), sum.verdict ? sum.verdict : "?",
                           cc_text_sgr(&t, CC_SGR_OFF)) < 0)
                goto fail;
        if (sum.failed > 0 &&
            cc_text_printf(&t, ", %lld check%s failed", (long long)sum.failed, sum.failed == 1 ? "" : "s") < 0)
                goto fail;
        if (sum.not_checked > 0 && cc_text_printf(&t, ", %lld could not be checked (n/c: the reason is on its line)",
                                                  (long long)sum.not_checked) < 0)
                goto fail;
        if (cc_text_printf(&t, " (%lld ms)\n", (long long)sum.wall_ms) < 0)
                goto fail;
        for (i = 0; inst.cuda_variant == NULL && i < cc_v_len(d.variants); i++) {
                cc_vw_verify_variant vv;

                cc_vw_verify_variant_at(d.variants, i, &vv, NULL);
                if (cc_text_printf(&t, "  CUDA %-6s %s", vv.cuda_variant ? vv.cuda_variant : "?",
                                   vv.verdict ? vv.verdict : "?") < 0 ||
                    (vv.failed > 0 && cc_text_printf(&t, ", %lld failed", (long long)vv.failed) < 0) ||
                    cc_buf_putc(&b, '\n', err) < 0)
                        goto fail;
        }
        *out = cc_buf_steal(&b);
        return 0;
fail:
        cc_buf_free(&b);
        return -1;
}
