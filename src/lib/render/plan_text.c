/* Text for the plan document: the verdict, the plan (release, build, where,
 * the command), the steps, then every reason. */
#include <stdlib.h>
#include <string.h>

#include "text.h"

int cudnnctl_plan_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text t = {&b, color, err};
        const cc_value *pl = cc_v_get(doc, "plan"), *steps = cc_v_get(doc, "steps"), *why = cc_v_get(doc, "why");
        const char *verdict = cc_v_get_str(doc, "verdict");
        size_t i;

        *out = NULL;
        if (verdict == NULL)
                verdict = "none";
        if (cc_text_printf(&t, "%s%s%s\n",
                           cc_text_sgr(&t, strcmp(verdict, "install") == 0 ? CC_SGR_GREEN : CC_SGR_YELLOW),
                           strcmp(verdict, "install") == 0        ? "plan: install cuDNN"
                           : strcmp(verdict, "driver-first") == 0 ? "plan: the NVIDIA driver first, then cuDNN"
                                                                  : "plan: nothing in the tables fits",
                           cc_text_sgr(&t, CC_SGR_OFF)) < 0)
                goto fail;
        if (cc_v_get_str(pl, "cudnn") != NULL) {
                const char *support = cc_v_get_str(pl, "support");

                if (cc_text_printf(&t, "  cuDNN %s, CUDA %s build (%s), with CUDA %s\n", cc_v_get_str(pl, "cudnn"),
                                   cc_v_get_str(pl, "cuda_build"), cc_v_get_str(pl, "platform"),
                                   cc_v_get_str(pl, "cuda") ? cc_v_get_str(pl, "cuda") : "unknown") < 0 ||
                    cc_text_field(&t, 2, 7, "where", cc_v_get_str(pl, "where")) < 0 ||
                    (cc_v_get_str(pl, "target") && cc_text_field(&t, 2, 7, "target", cc_v_get_str(pl, "target")) < 0) ||
                    (support != NULL && strcmp(support, "binary-compatibility") == 0 &&
                     cc_text_field(&t, 2, 7, "support",
                                   "a GPU only by binary compatibility within its major, not listed support (lower "
                                   "confidence)") < 0))
                        goto fail;
        }
        for (i = 0; i < cc_v_len(steps); i++)
                if (cc_text_printf(&t, "%s  %zu. %s\n", i == 0 ? "steps:\n" : "", i + 1,
                                   cudnnctl_value_str(cc_v_at(steps, i))) < 0)
                        goto fail;
        for (i = 0; i < cc_v_len(why); i++) {
                const cc_value *w = cc_v_at(why, i);
                const char *src = cc_v_get_str(w, "source");

                if (cc_text_printf(&t, "%s  - %-9s ", i == 0 ? "why:\n" : "", cc_v_get_str(w, "about")) < 0 ||
                    cc_text_put(&t, cc_v_get_str(w, "text")) < 0 ||
                    (verbose && src != NULL && cc_text_printf(&t, " [%s]", src) < 0) || cc_buf_putc(&b, '\n', err) < 0)
                        goto fail;
        }
        if (b.data == NULL && cc_buf_puts(&b, "", err) < 0)
                goto fail;
        *out = cc_buf_steal(&b);
        return 0;
fail:
        cc_buf_free(&b);
        return -1;
}
