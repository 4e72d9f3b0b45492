/* Text for the verify document: the installation, then each layer with its
 * checks (pass / FAIL / n/c and the evidence in one line), then the verdict. */
#include <stdlib.h>
#include <string.h>

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
                const cc_value *o = cc_v_at(ops, i);
                const char *sgr;
                const char *m = mark(t, cc_v_get_str(o, "status"), &sgr);

                if (cc_text_printf(t, "           %s%s%s %-26s %-5s ", sgr, m, cc_text_sgr(t, CC_SGR_OFF),
                                   cc_v_get_str(o, "op") ? cc_v_get_str(o, "op") : "?",
                                   cc_v_get_str(o, "family") ? cc_v_get_str(o, "family") : "") < 0)
                        return -1;
                if (cc_v_get(o, "max_rel_error") != NULL &&
                    cc_text_printf(t, "max rel. error %.2e (tolerance %.0e), %lld elements, %lld us",
                                   cc_v_as_double(cc_v_get(o, "max_rel_error")),
                                   cc_v_as_double(cc_v_get(o, "tolerance")),
                                   (long long)cc_v_as_int(cc_v_get(o, "elements")),
                                   (long long)cc_v_as_int(cc_v_get(o, "time_us"))) < 0)
                        return -1;
                if (cc_v_get_str(o, "reason") != NULL &&
                    (cc_text_printf(t, "%s", cc_v_get(o, "max_rel_error") ? "; " : "") < 0 ||
                     cc_text_put(t, cc_v_get_str(o, "reason")) < 0))
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
        const cc_value *inst = cc_v_get(doc, "installation"), *layers = cc_v_get(doc, "layers");
        const cc_value *sum = cc_v_get(doc, "summary");
        size_t i, j;

        *out = NULL;
        if (cc_text_printf(&t, "%scuDNN %s%s at ", cc_text_sgr(&t, CC_SGR_BOLD),
                           cc_v_get_str(inst, "version") ? cc_v_get_str(inst, "version") : "(version unknown)",
                           cc_text_sgr(&t, CC_SGR_OFF)) < 0 ||
            cc_text_put(&t, cc_v_get_str(inst, "prefix")) < 0 ||
            cc_text_printf(&t, " (installation %lld, %s)\n", (long long)cc_v_as_int(cc_v_get(inst, "id")),
                           cc_v_get_str(inst, "provenance") ? cc_v_get_str(inst, "provenance") : "?") < 0 ||
            cc_text_field(&t, 2, 10, "chosen", cc_v_get_str(inst, "chosen_by")) < 0)
                goto fail;
        for (i = 0; i < cc_v_len(layers); i++) {
                const cc_value *l = cc_v_at(layers, i), *checks = cc_v_get(l, "checks");
                const char *sgr, *m = mark(&t, cc_v_get_str(l, "status"), &sgr);

                if (cc_text_printf(&t, "\n%s%s%s %zu. %s\n", sgr, m, cc_text_sgr(&t, CC_SGR_OFF), i + 1,
                                   cc_v_get_str(l, "title") ? cc_v_get_str(l, "title") : "?") < 0)
                        goto fail;
                for (j = 0; j < cc_v_len(checks); j++) {
                        const cc_value *c = cc_v_at(checks, j);
                        const char *csgr, *cm = mark(&t, cc_v_get_str(c, "status"), &csgr);

                        if (cc_text_printf(&t, "     %s%s%s %-38s ", csgr, cm, cc_text_sgr(&t, CC_SGR_OFF),
                                           cc_v_get_str(c, "title") ? cc_v_get_str(c, "title") : "?") < 0 ||
                            cc_text_put(&t, cc_v_get_str(c, "summary")) < 0 || cc_buf_putc(&b, '\n', err) < 0)
                                goto fail;
                        if (cc_v_get_str(c, "id") && strcmp(cc_v_get_str(c, "id"), "gpu-work") == 0 &&
                            gpu_lines(&t, cc_v_path(c, "evidence/operations")) < 0)
                                goto fail;
                        if (verbose && cc_v_get(c, "evidence") != NULL) {
                                char *js = NULL;

                                if (cudnnctl_to_json(cc_v_get(c, "evidence"), 0, &js, err) < 0)
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
        if (cc_text_printf(&t, "\nverdict: %s%s%s", cc_text_sgr(&t, CC_SGR_BOLD),
                           cc_v_get_str(sum, "verdict") ? cc_v_get_str(sum, "verdict") : "?",
                           cc_text_sgr(&t, CC_SGR_OFF)) < 0)
                goto fail;
        if (cc_v_as_int(cc_v_get(sum, "failed")) > 0 &&
            cc_text_printf(&t, ", %lld check%s failed", (long long)cc_v_as_int(cc_v_get(sum, "failed")),
                           cc_v_as_int(cc_v_get(sum, "failed")) == 1 ? "" : "s") < 0)
                goto fail;
        if (cc_v_as_int(cc_v_get(sum, "not_checked")) > 0 &&
            cc_text_printf(&t, ", %lld could not be checked (n/c: the reason is on its line)",
                           (long long)cc_v_as_int(cc_v_get(sum, "not_checked"))) < 0)
                goto fail;
        if (cc_text_printf(&t, " (%lld ms)\n", (long long)cc_v_as_int(cc_v_get(sum, "wall_ms"))) < 0)
                goto fail;
        *out = cc_buf_steal(&b);
        return 0;
fail:
        cc_buf_free(&b);
        return -1;
}
