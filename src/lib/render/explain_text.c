/* Text for the explain document: each match, most specific first, with
 * what it means, the likely causes, the commands that tell which cause
 * applies here, the fix and the source. */
#include <string.h>

#include "../facts/views.h"
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
                cc_vw_explain_code c;

                cc_vw_explain_code_at(codes, i, &c, NULL);
                if (cc_text_printf(t, "%s%lld in cuDNN %lld", i ? ", " : "", (long long)c.code, (long long)c.major) < 0)
                        return -1;
                if (c.alias_of != NULL && (cc_text_put(t, " (a deprecated alias of ") < 0 ||
                                           cc_text_put(t, c.alias_of) < 0 || cc_text_put(t, ")") < 0))
                        return -1;
        }
        return 0;
}

static int header(struct cc_text *t, size_t n, const cc_vw_explain_match *m)
{
        const char *kind = m->kind, *name = m->name;

        if (cc_text_printf(t, "%s%zu. ", cc_text_sgr(t, CC_SGR_BOLD), n) < 0)
                return -1;
        if (kind != NULL && strcmp(kind, "message") != 0 && name != NULL) {
                if (cc_text_put(t, name) < 0)
                        return -1;
                if (CC_VW_HAS(m, explain_match, code)) {
                        if (kind != NULL && strcmp(kind, "windows-error") == 0) {
                                if (cc_text_printf(t, " (Windows error %lld", (long long)m->code) < 0 ||
                                    (m->hex && cc_text_printf(t, ", %s", m->hex) < 0) || cc_text_put(t, ")") < 0)
                                        return -1;
                        } else if (strcmp(kind, "cudnn-status") == 0 && CC_VW_HAS(m, explain_match, major)) {
                                if (cc_text_printf(t, " = %lld (cuDNN %lld numbering)", (long long)m->code,
                                                   (long long)m->major) < 0)
                                        return -1;
                        } else if (cc_text_printf(t, " = %lld", (long long)m->code) < 0) {
                                return -1;
                        }
                }
        } else if (str_or(t, m->title, "(not in the catalog)") < 0) {
                return -1;
        }
        return cc_text_printf(t, "%s\n", cc_text_sgr(t, CC_SGR_OFF));
}

static int match_text(struct cc_text *t, size_t n, const cc_value *node, int verbose)
{
        cc_vw_explain_match m;
        const cc_value *caps, *causes, *cmds, *also;
        const char *id, *kind;
        size_t i;

        cc_vw_explain_match_read(node, &m, NULL);
        caps = m.captures;
        causes = m.causes;
        cmds = m.commands;
        also = m.also;
        id = m.id;
        kind = m.kind ? m.kind : "";
        if (header(t, n, &m) < 0)
                return -1;
        if (id != NULL) {
                if (cc_text_printf(t, "   %s%-*s%s ", cc_text_sgr(t, CC_SGR_DIM), W, "catalog",
                                   cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                    cc_text_put(t, id) < 0)
                        return -1;
                if (m.catalog_number != NULL && cc_text_printf(t, " (#%s)", m.catalog_number) < 0)
                        return -1;
                if (strcmp(kind, "message") != 0 && (cc_text_put(t, ": ") < 0 || str_or(t, m.title, "") < 0))
                        return -1;
                if (cc_buf_putc(t->b, '\n', t->err) < 0)
                        return -1;
        }
        if (m.recogniser != NULL) {
                if (cc_text_printf(t, "   %s%-*s%s \"", cc_text_sgr(t, CC_SGR_DIM), W, "matched",
                                   cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                    cc_text_put(t, m.text) < 0 || cc_text_printf(t, "\" (line %lld", (long long)m.line) < 0 ||
                    (m.count > 1 && cc_text_printf(t, ", %lld times", (long long)m.count) < 0) ||
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
        if (cc_v_len(m.codes) > 0) {
                if (cc_text_printf(t, "   %s%-*s%s ", cc_text_sgr(t, CC_SGR_DIM), W, "codes",
                                   cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                    codes_line(t, m.codes) < 0 || cc_buf_putc(t->b, '\n', t->err) < 0)
                        return -1;
        }
        if (strcmp(kind, "message") == 0 && m.name != NULL) {
                /* the code a message carries */
                if (cc_text_printf(t, "   %s%-*s%s ", cc_text_sgr(t, CC_SGR_DIM), W, "code",
                                   cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                    cc_text_put(t, m.name) < 0 ||
                    (CC_VW_HAS(&m, explain_match, code) && cc_text_printf(t, " (%lld)", (long long)m.code) < 0) ||
                    (m.code_meaning != NULL && (cc_text_put(t, ": ") < 0 || cc_text_put(t, m.code_meaning) < 0)) ||
                    cc_text_printf(t, "\n") < 0)
                        return -1;
        } else if (m.message != NULL && cc_text_field(t, 3, W, "text", m.message) < 0) {
                return -1;
        }
        if (m.meaning != NULL && cc_text_field(t, 3, W, "means", m.meaning) < 0)
                return -1;
        if (m.rule != NULL) {
                cc_vw_explain_rule r;
                int holds;
                const char *verdict;

                cc_vw_explain_rule_read(m.rule, &r, NULL);
                holds = CC_VW_HAS(&r, explain_rule, holds);
                verdict = !holds ? "cannot tell" : r.holds ? "holds" : "FAILS";

                if (cc_text_printf(t, "   %s%-*s%s ", cc_text_sgr(t, CC_SGR_DIM), W, "rule",
                                   cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                    str_or(t, r.statement, "") < 0 || cc_text_put(t, ": build ") < 0 || str_or(t, r.build, "?") < 0 ||
                    cc_text_put(t, ", runtime ") < 0 || str_or(t, r.runtime, "?") < 0 ||
                    cc_text_printf(t, ": %s%s%s (", cc_text_sgr(t, holds && !r.holds ? CC_SGR_RED : CC_SGR_BOLD),
                                   verdict, cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                    str_or(t, r.reason, "") < 0 || cc_text_printf(t, ")\n") < 0)
                        return -1;
        }
        if (m.note != NULL && cc_text_field(t, 3, W, "note", m.note) < 0)
                return -1;
        for (i = 0; i < cc_v_len(causes); i++)
                if (cc_text_printf(t, "   %s%-*s%s - ", cc_text_sgr(t, CC_SGR_DIM), W, i ? "" : "causes",
                                   cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                    cc_text_put(t, cc_v_as_str(cc_v_at(causes, i))) < 0 || cc_buf_putc(t->b, '\n', t->err) < 0)
                        return -1;
        for (i = 0; i < cc_v_len(cmds); i++) {
                cc_vw_explain_command c;

                cc_vw_explain_command_at(cmds, i, &c, NULL);
                if (cc_text_printf(t, "   %s%-*s%s ", cc_text_sgr(t, CC_SGR_DIM), W, i ? "" : "check",
                                   cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                    cc_text_put(t, c.command) < 0 || cc_buf_putc(t->b, '\n', t->err) < 0)
                        return -1;
                if (c.shows != NULL && (cc_text_printf(t, "   %-*s   ", W, "") < 0 || cc_text_put(t, c.shows) < 0 ||
                                        cc_buf_putc(t->b, '\n', t->err) < 0))
                        return -1;
        }
        if (m.fix != NULL && cc_text_field(t, 3, W, "fix", m.fix) < 0)
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
        if ((verbose || id != NULL) && m.source != NULL && cc_text_field(t, 3, W, "source", m.source) < 0)
                return -1;
        return 0;
}

int cudnnctl_explain_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text t = {&b, color, err};
        cc_vw_explain_doc d;
        const cc_value *matches, *notes, *sugg;
        size_t i;

        *out = NULL;
        cc_vw_explain_doc_read(doc, &d, NULL);
        matches = d.matches;
        notes = d.notes;
        sugg = d.suggestions;
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
