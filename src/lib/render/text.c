/* Shared pieces of the text renderers. */
#include "text.h"

#include "../facts/views.h"

#include <stdarg.h>
#include <string.h>

const char *cc_text_sgr(const struct cc_text *t, const char *code)
{
        return t->color ? code : "";
}

int cc_text_put(struct cc_text *t, const char *s)
{
        return cc_buf_put_escaped(t->b, s ? s : "(none)", t->err);
}

int cc_text_printf(struct cc_text *t, const char *fmt, ...)
{
        va_list ap;
        int rc;

        va_start(ap, fmt);
        rc = cc_buf_vprintf(t->b, t->err, fmt, ap);
        va_end(ap);
        return rc;
}

int cc_text_field(struct cc_text *t, int indent, int width, const char *label, const char *value)
{
        if (cc_buf_printf(t->b, t->err, "%*s%s%-*s%s ", indent, "", cc_text_sgr(t, CC_SGR_DIM), width, label,
                          cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
            cc_text_put(t, value) < 0)
                return -1;
        return cc_buf_putc(t->b, '\n', t->err);
}

int cc_text_versions(struct cc_text *t, const cc_value *versions)
{
        size_t i, n = cc_v_len(versions);

        if (n == 0)
                return cc_buf_puts(t->b, "unknown", t->err);
        for (i = 0; i < n; i++) {
                cc_vw_version v;

                cc_vw_version_at(versions, i, &v, NULL);
                if ((i && cc_buf_puts(t->b, ", ", t->err) < 0) || cc_text_put(t, v.version) < 0 ||
                    cc_buf_puts(t->b, " (", t->err) < 0 || cc_text_put(t, v.source) < 0)
                        return -1;
                if (v.component && strcmp(v.component, "cudnn") != 0 &&
                    (cc_buf_puts(t->b, ", ", t->err) < 0 || cc_text_put(t, v.component) < 0))
                        return -1;
                if (cc_buf_putc(t->b, ')', t->err) < 0)
                        return -1;
        }
        return 0;
}
