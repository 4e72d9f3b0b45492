/* Text for the compat document: one block per answer (the verdict and the
 * question, then the reason and the source), then the summary. */
#include <stdlib.h>
#include <string.h>

#include "text.h"

int cudnnctl_compat_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text t = {&b, color, err};
        const cc_value *answers = cc_v_get(doc, "answers"), *sum = cc_v_get(doc, "summary");
        size_t i, j;

        *out = NULL;
        for (i = 0; i < cc_v_len(answers); i++) {
                const cc_value *a = cc_v_at(answers, i), *rel = cc_v_get(a, "releases");
                const char *v = cc_v_get_str(a, "verdict");
                const char *sgr = cc_text_sgr(&t, CC_SGR_YELLOW), *mark = "unknown";

                if (v != NULL && strcmp(v, "yes") == 0) {
                        sgr = cc_text_sgr(&t, CC_SGR_GREEN);
                        mark = "yes";
                } else if (v != NULL && strcmp(v, "no") == 0) {
                        sgr = cc_text_sgr(&t, CC_SGR_RED);
                        mark = "NO";
                }
                if (cc_text_printf(&t, "%s%s%-7s%s ", i ? "\n" : "", sgr, mark, cc_text_sgr(&t, CC_SGR_OFF)) < 0 ||
                    cc_text_put(&t, cc_v_get_str(a, "question")) < 0 || cc_buf_putc(&b, '\n', err) < 0 ||
                    cc_text_field(&t, 8, 7, "reason", cc_v_get_str(a, "reason")) < 0 ||
                    cc_text_field(&t, 8, 7, "source", cc_v_get_str(a, "source") ? cc_v_get_str(a, "source") : "-") < 0)
                        goto fail;
                /* every release row with --verbose */
                for (j = 0; verbose && j < cc_v_len(rel); j++) {
                        const cc_value *r = cc_v_at(rel, j);

                        if (cc_text_printf(&t, "          %-10s", cc_v_get_str(r, "cudnn")) < 0 ||
                            (cc_v_get_str(r, "cudnn_last") &&
                             cc_text_printf(&t, " to %s", cc_v_get_str(r, "cudnn_last")) < 0) ||
                            cc_text_printf(&t, "  CUDA %s build (%s)\n", cc_v_get_str(r, "cuda_build"),
                                           cc_v_get_str(r, "match")) < 0)
                                goto fail;
                }
        }
        if (cc_v_len(answers) == 0 && cc_text_printf(&t, "nothing asked\n") < 0)
                goto fail;
        if (cc_text_printf(&t, "\n%lld yes, %lld no, %lld unknown\n", (long long)cc_v_as_int(cc_v_get(sum, "yes")),
                           (long long)cc_v_as_int(cc_v_get(sum, "no")),
                           (long long)cc_v_as_int(cc_v_get(sum, "unknown"))) < 0)
                goto fail;
        if (b.data == NULL && cc_buf_puts(&b, "", err) < 0)
                goto fail;
        *out = cc_buf_steal(&b);
        return 0;
fail:
        cc_buf_free(&b);
        return -1;
}
