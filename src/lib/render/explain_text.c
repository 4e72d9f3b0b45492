/* Text for the explain document: each match, most specific first, with
 * what it means, the likely causes, the commands that tell which cause
 * applies here, the fix and the source. */
#include <string.h>

#include "text.h"

enum { W = 10 };

static int str_or(struct cc_text *t, const char *s, const char *dflt)
{
        return cc_text_put(t, s != NULL ? s : dflt);
}

/* "8: 1, 9: 1001 (alias of X)" */
static int codes_line(struct cc_text *t, const cc_value *codes)
{
        size_t i;

        for (i = 0; i < cc_v_len(codes); i++) {
                const cc_value *c = cc_v_at(codes, i);

                if (cc_text_printf(t, "%s%lld in cuDNN %lld", i ? ", " : "",
                                   (long long)cc_v_as_int(cc_v_get(c, "code")),
                                   (long long)cc_v_as_int(cc_v_get(c, "major"))) < 0)
                        return -1;
                if (cc_v_get_str(c, "alias_of") != NULL &&
                    (cc_text_put(t, " (a deprecated alias of ") < 0 ||
                     cc_text_put(t, cc_v_get_str(c, "alias_of")) < 0 || cc_text_put(t, ")") < 0))
                        return -1;
        }
        return 0;
}

static int header(struct cc_text *t, size_t n, const cc_value *m)
{
        const char *kind = cc_v_get_str(m, "kind"), *name = cc_v_get_str(m, "name");
        const cc_value *code = cc_v_get(m, "code");

        if (cc_text_printf(t, "%s%zu. ", cc_text_sgr(t, CC_SGR_BOLD), n) < 0)
                return -1;
        if (kind != NULL && strcmp(kind, "message") != 0 && name != NULL) {
                if (cc_text_put(t, name) < 0)
                        return -1;
                if (cudnnctl_value_type(code) == CUDNNCTL_INT) {
                        if (kind != NULL && strcmp(kind, "windows-error") == 0) {
                                if (cc_text_printf(t, " (Windows error %lld", (long long)cc_v_as_int(code)) < 0 ||
                                    (cc_v_get_str(m, "hex") && cc_text_printf(t, ", %s", cc_v_get_str(m, "hex")) < 0) ||
                                    cc_text_put(t, ")") < 0)
                                        return -1;
                        } else if (strcmp(kind, "cudnn-status") == 0 &&
                                   cudnnctl_value_type(cc_v_get(m, "major")) == CUDNNCTL_INT) {
                                if (cc_text_printf(t, " = %lld (cuDNN %lld numbering)", (long long)cc_v_as_int(code),
                                                   (long long)cc_v_as_int(cc_v_get(m, "major"))) < 0)
                                        return -1;
                        } else if (cc_text_printf(t, " = %lld", (long long)cc_v_as_int(code)) < 0) {
                                return -1;
                        }
                }
        } else if (str_or(t, cc_v_get_str(m, "title"), "(not in the catalog)") < 0) {
                return -1;
        }
        return cc_text_printf(t, "%s\n", cc_text_sgr(t, CC_SGR_OFF));
}

static int match_text(struct cc_text *t, size_t n, const cc_value *m, int verbose)
{
        const cc_value *caps = cc_v_get(m, "captures"), *causes = cc_v_get(m, "causes");
        const cc_value *cmds = cc_v_get(m, "commands"), *also = cc_v_get(m, "also"), *rule = cc_v_get(m, "rule");
        const char *id = cc_v_get_str(m, "id");
        size_t i;

        if (header(t, n, m) < 0)
                return -1;
        if (id != NULL) {
                if (cc_text_printf(t, "   %s%-*s%s ", cc_text_sgr(t, CC_SGR_DIM), W, "catalog",
                                   cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                    cc_text_put(t, id) < 0)
                        return -1;
                if (cc_v_get_str(m, "catalog_number") != NULL &&
                    cc_text_printf(t, " (#%s)", cc_v_get_str(m, "catalog_number")) < 0)
                        return -1;
                if (strcmp(cc_v_get_str(m, "kind") ? cc_v_get_str(m, "kind") : "", "message") != 0 &&
                    (cc_text_put(t, ": ") < 0 || str_or(t, cc_v_get_str(m, "title"), "") < 0))
                        return -1;
                if (cc_buf_putc(t->b, '\n', t->err) < 0)
                        return -1;
        }
        if (cc_v_get_str(m, "recogniser") != NULL) {
                if (cc_text_printf(t, "   %s%-*s%s \"", cc_text_sgr(t, CC_SGR_DIM), W, "matched",
                                   cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                    cc_text_put(t, cc_v_get_str(m, "text")) < 0 ||
                    cc_text_printf(t, "\" (line %lld", (long long)cc_v_as_int(cc_v_get(m, "line"))) < 0 ||
                    (cc_v_as_int(cc_v_get(m, "count")) > 1 &&
                     cc_text_printf(t, ", %lld times", (long long)cc_v_as_int(cc_v_get(m, "count"))) < 0) ||
                    cc_text_printf(t, ")\n") < 0)
                        return -1;
        }
        if (cc_v_len(caps) > 0) {
                if (cc_text_printf(t, "   %s%-*s%s ", cc_text_sgr(t, CC_SGR_DIM), W, "read",
                                   cc_text_sgr(t, CC_SGR_OFF)) < 0)
                        return -1;
                for (i = 0; i < cc_v_len(caps); i++)
                        if (cc_text_printf(t, "%s%s ", i ? ", " : "", cc_v_key_at(caps, i)) < 0 ||
                            cc_text_put(t, cc_v_as_str(cc_v_at(caps, i))) < 0)
                                return -1;
                if (cc_buf_putc(t->b, '\n', t->err) < 0)
                        return -1;
        }
        if (cc_v_len(cc_v_get(m, "codes")) > 0) {
                if (cc_text_printf(t, "   %s%-*s%s ", cc_text_sgr(t, CC_SGR_DIM), W, "codes",
                                   cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                    codes_line(t, cc_v_get(m, "codes")) < 0 || cc_buf_putc(t->b, '\n', t->err) < 0)
                        return -1;
        }
        if (strcmp(cc_v_get_str(m, "kind") ? cc_v_get_str(m, "kind") : "", "message") == 0 &&
            cc_v_get_str(m, "name") != NULL) {
                /* the code a message carries */
                if (cc_text_printf(t, "   %s%-*s%s ", cc_text_sgr(t, CC_SGR_DIM), W, "code",
                                   cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                    cc_text_put(t, cc_v_get_str(m, "name")) < 0 ||
                    (cudnnctl_value_type(cc_v_get(m, "code")) == CUDNNCTL_INT &&
                     cc_text_printf(t, " (%lld)", (long long)cc_v_as_int(cc_v_get(m, "code"))) < 0) ||
                    (cc_v_get_str(m, "code_meaning") != NULL &&
                     (cc_text_put(t, ": ") < 0 || cc_text_put(t, cc_v_get_str(m, "code_meaning")) < 0)) ||
                    cc_text_printf(t, "\n") < 0)
                        return -1;
        } else if (cc_v_get_str(m, "message") != NULL &&
                   cc_text_field(t, 3, W, "text", cc_v_get_str(m, "message")) < 0) {
                return -1;
        }
        if (cc_v_get_str(m, "meaning") != NULL && cc_text_field(t, 3, W, "means", cc_v_get_str(m, "meaning")) < 0)
                return -1;
        if (rule != NULL) {
                int holds = cudnnctl_value_type(cc_v_get(rule, "holds")) == CUDNNCTL_BOOL;
                const char *verdict = !holds                                  ? "cannot tell"
                                      : cc_v_as_bool(cc_v_get(rule, "holds")) ? "holds"
                                                                              : "FAILS";

                if (cc_text_printf(t, "   %s%-*s%s ", cc_text_sgr(t, CC_SGR_DIM), W, "rule",
                                   cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                    str_or(t, cc_v_get_str(rule, "statement"), "") < 0 || cc_text_put(t, ": build ") < 0 ||
                    str_or(t, cc_v_get_str(rule, "build"), "?") < 0 || cc_text_put(t, ", runtime ") < 0 ||
                    str_or(t, cc_v_get_str(rule, "runtime"), "?") < 0 ||
                    cc_text_printf(
                        t, ": %s%s%s (",
                        cc_text_sgr(t, holds && !cc_v_as_bool(cc_v_get(rule, "holds")) ? CC_SGR_RED : CC_SGR_BOLD),
                        verdict, cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                    str_or(t, cc_v_get_str(rule, "reason"), "") < 0 || cc_text_printf(t, ")\n") < 0)
                        return -1;
        }
        if (cc_v_get_str(m, "note") != NULL && cc_text_field(t, 3, W, "note", cc_v_get_str(m, "note")) < 0)
                return -1;
        for (i = 0; i < cc_v_len(causes); i++)
                if (cc_text_printf(t, "   %s%-*s%s - ", cc_text_sgr(t, CC_SGR_DIM), W, i ? "" : "causes",
                                   cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                    cc_text_put(t, cc_v_as_str(cc_v_at(causes, i))) < 0 || cc_buf_putc(t->b, '\n', t->err) < 0)
                        return -1;
        for (i = 0; i < cc_v_len(cmds); i++) {
                const cc_value *c = cc_v_at(cmds, i);

                if (cc_text_printf(t, "   %s%-*s%s ", cc_text_sgr(t, CC_SGR_DIM), W, i ? "" : "check",
                                   cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                    cc_text_put(t, cc_v_get_str(c, "command")) < 0 || cc_buf_putc(t->b, '\n', t->err) < 0)
                        return -1;
                if (cc_v_get_str(c, "shows") != NULL &&
                    (cc_text_printf(t, "   %-*s   ", W, "") < 0 || cc_text_put(t, cc_v_get_str(c, "shows")) < 0 ||
                     cc_buf_putc(t->b, '\n', t->err) < 0))
                        return -1;
        }
        if (cc_v_get_str(m, "fix") != NULL && cc_text_field(t, 3, W, "fix", cc_v_get_str(m, "fix")) < 0)
                return -1;
        if (cc_v_len(also) > 0) {
                if (cc_text_printf(t, "   %s%-*s%s ", cc_text_sgr(t, CC_SGR_DIM), W, "see also",
                                   cc_text_sgr(t, CC_SGR_OFF)) < 0)
                        return -1;
                for (i = 0; i < cc_v_len(also); i++)
                        if (cc_text_printf(t, "%s", i ? ", " : "") < 0 ||
                            cc_text_put(t, cc_v_as_str(cc_v_at(also, i))) < 0)
                                return -1;
                if (cc_buf_putc(t->b, '\n', t->err) < 0)
                        return -1;
        }
        if ((verbose || id != NULL) && cc_v_get_str(m, "source") != NULL &&
            cc_text_field(t, 3, W, "source", cc_v_get_str(m, "source")) < 0)
                return -1;
        return 0;
}

int cudnnctl_explain_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text t = {&b, color, err};
        const cc_value *matches = cc_v_get(doc, "matches"), *notes = cc_v_get(doc, "notes");
        const cc_value *sugg = cc_v_get(doc, "suggestions");
        size_t i;

        *out = NULL;
        for (i = 0; i < cc_v_len(matches); i++)
                if ((i > 0 && cc_buf_putc(&b, '\n', err) < 0) ||
                    match_text(&t, i + 1, cc_v_at(matches, i), verbose) < 0)
                        goto fail;
        for (i = 0; i < cc_v_len(notes); i++)
                if (cc_text_put(&t, "note: ") < 0 || cc_text_put(&t, cc_v_as_str(cc_v_at(notes, i))) < 0 ||
                    cc_buf_putc(&b, '\n', err) < 0)
                        goto fail;
        if (cc_v_len(matches) == 0 && cc_v_len(sugg) > 0) {
                if (cc_text_put(&t, "not recognised; closest names:") < 0)
                        goto fail;
                for (i = 0; i < cc_v_len(sugg); i++)
                        if (cc_text_put(&t, i ? ", " : " ") < 0 || cc_text_put(&t, cc_v_as_str(cc_v_at(sugg, i))) < 0)
                                goto fail;
                if (cc_buf_putc(&b, '\n', err) < 0)
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
