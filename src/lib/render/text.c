/* Shared pieces of the text renderers. */
#include "text.h"

#include <stdarg.h>
#include <string.h>

const char *cc_text_sgr(const struct cc_text *t, const char *code)
{
        return t->color ? code : "";
}

int cc_text_put(struct cc_text *t, const char *s)
{
        const unsigned char *p = (const unsigned char *)(s ? s : "(none)");

        while (*p) {
                if (*p >= 0x80) {
                        size_t len = (*p >= 0xF0) ? 4 : (*p >= 0xE0) ? 3 : (*p >= 0xC0) ? 2 : 1;

                        if (len > 1 && strlen((const char *)p) >= len && cc_utf8_valid((const char *)p, len)) {
                                if (cc_buf_append(t->b, p, len, t->err) < 0)
                                        return -1;
                                p += len;
                                continue;
                        }
                        if (cc_buf_printf(t->b, t->err, "\\x%02x", *p) < 0)
                                return -1;
                } else if (*p < 0x20 || *p == 0x7F) {
                        if (cc_buf_printf(t->b, t->err, "\\x%02x", *p) < 0)
                                return -1;
                } else if (cc_buf_append(t->b, p, 1, t->err) < 0) {
                        return -1;
                }
                p++;
        }
        return 0;
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
                const cc_value *v = cc_v_at(versions, i);
                const char *comp = cc_v_get_str(v, "component");

                if ((i && cc_buf_puts(t->b, ", ", t->err) < 0) || cc_text_put(t, cc_v_get_str(v, "version")) < 0 ||
                    cc_buf_puts(t->b, " (", t->err) < 0 || cc_text_put(t, cc_v_get_str(v, "source")) < 0)
                        return -1;
                if (comp && strcmp(comp, "cudnn") != 0 &&
                    (cc_buf_puts(t->b, ", ", t->err) < 0 || cc_text_put(t, comp) < 0))
                        return -1;
                if (cc_buf_putc(t->b, ')', t->err) < 0)
                        return -1;
        }
        return 0;
}
