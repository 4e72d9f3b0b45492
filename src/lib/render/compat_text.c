/* Text for the compat document: one block per answer (the verdict and the
 * question, then the reason and the source), then the summary. */
#include <stdlib.h>
#include <string.h>

#include "text.h"

#include "../facts/views.h"

int cudnnctl_compat_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text t = {&b, color, err};
        cc_vw_compat_doc d;
        cc_vw_compat_summary sum;
        size_t i, j;

        *out = NULL;
        cc_vw_compat_doc_read(doc, &d, NULL);
        cc_vw_compat_summary_read(d.summary, &sum, NULL);
        for (i = 0; i < cc_v_len(d.answers); i++) {
                cc_vw_compat_answer a;
                const char *sgr = cc_text_sgr(&t, CC_SGR_YELLOW), *mark = "unknown";

                cc_vw_compat_answer_at(d.answers, i, &a, NULL);
                if (a.verdict != NULL && strcmp(a.verdict, "yes") == 0) {
                        sgr = cc_text_sgr(&t, CC_SGR_GREEN);
                        mark = "yes";
                } else if (a.verdict != NULL && strcmp(a.verdict, "no") == 0) {
                        sgr = cc_text_sgr(&t, CC_SGR_RED);
                        mark = "NO";
                }
                if (cc_text_printf(&t, "%s%s%-7s%s ", i ? "\n" : "", sgr, mark, cc_text_sgr(&t, CC_SGR_OFF)) < 0 ||
                    cc_text_put(&t, a.question) < 0 || cc_buf_putc(&b, '\n', err) < 0 ||
                    cc_text_field(&t, 8, 7, "reason", a.reason) < 0 ||
                    cc_text_field(&t, 8, 7, "source", a.source ? a.source : "-") < 0 ||
                    (a.support != NULL && strcmp(a.support, "binary-compatibility") == 0 &&
                     cc_text_field(&t, 8, 7, "support",
                                   "inferred: binary compatibility within the major, not listed support (lower "
                                   "confidence)") < 0))
                        goto fail;
                /* every release row with --verbose */
                for (j = 0; verbose && j < cc_v_len(a.releases); j++) {
                        cc_vw_compat_release r;

                        cc_vw_compat_release_at(a.releases, j, &r, NULL);
                        if (cc_text_printf(&t, "          %-10s", r.cudnn) < 0 ||
                            (r.cudnn_last && cc_text_printf(&t, " to %s", r.cudnn_last) < 0) ||
                            cc_text_printf(&t, "  CUDA %s build (%s)\n", r.cuda_build, r.match) < 0)
                                goto fail;
                }
        }
        if (cc_v_len(d.answers) == 0 && cc_text_printf(&t, "nothing asked\n") < 0)
                goto fail;
        if (cc_text_printf(&t, "\n%lld yes, %lld no, %lld unknown\n", (long long)sum.yes, (long long)sum.no,
                           (long long)sum.unknown) < 0)
                goto fail;
        if (b.data == NULL && cc_buf_puts(&b, "", err) < 0)
                goto fail;
        *out = cc_buf_steal(&b);
        return 0;
fail:
        cc_buf_free(&b);
        return -1;
}
