/* The text of `cudnnctl who-uses`: what each target stood for, each process
 * that maps one of its files with its command line, and how much could not
 * be looked at. */
#include "../facts/views.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>

static int target_line(struct cc_text *o, const cc_value *tv)
{
        cc_vw_who_target t;

        cc_vw_who_target_read(tv, &t, NULL);
        TRY_RET(cc_text_put(o, t.query));
        TRY_RET(cc_buf_puts(o->b, ": ", o->err));
        if (t.kind != NULL && strcmp(t.kind, "installation") == 0 && CC_VW_HAS(&t, who_target, installation))
                TRY_RET(cc_buf_printf(o->b, o->err, "installation %lld, ", (long long)t.installation));
        else if (t.kind != NULL && strcmp(t.kind, "installation") == 0)
                TRY_RET(cc_buf_puts(o->b, "installation (one 'cudnnctl list' finds only when named), ", o->err));
        else
                TRY_RET(cc_buf_printf(o->b, o->err, "%s ", t.kind ? t.kind : "target"));
        TRY_RET(cc_text_put(o, t.path));
        if (t.kind == NULL || strcmp(t.kind, "file") != 0 || t.files != 1)
                TRY_RET(cc_buf_printf(o->b, o->err, " (%lld library file%s%s)", (long long)t.files,
                                      t.files == 1 ? "" : "s", t.truncated ? ", stopped at the limit" : ""));
        return cc_buf_putc(o->b, '\n', o->err);
}

static int seen_list(struct cc_text *o, const cc_value *seen)
{
        size_t i;

        for (i = 0; i < cc_v_len(seen); i++) {
                TRY_RET(cc_buf_puts(o->b, i ? ", " : " [", o->err));
                TRY_RET(cc_text_put(o, cc_v_as_str(cc_v_at(seen, i))));
        }
        return i ? cc_buf_putc(o->b, ']', o->err) : 0;
}

int cudnnctl_who_uses_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text o;
        cc_vw_who_doc d;
        cc_vw_who_scan s;
        int64_t last = -1;
        size_t i, procs = 0, nfiles;
        cc_strv mapped = {0};

        *out = NULL;
        o.b = &b;
        o.color = color;
        o.err = err;
        cc_vw_who_doc_read(doc, &d, NULL);
        cc_vw_who_scan_read(doc, &s, NULL);
        nfiles = cc_v_len(d.files);
        for (i = 0; i < cc_v_len(d.targets); i++)
                TRY(target_line(&o, cc_v_at(d.targets, i)));
        for (i = 0; i < cc_v_len(s.users); i++) {
                cc_vw_who_user u;

                cc_vw_who_user_at(s.users, i, &u, NULL);
                if (u.pid != last) {
                        procs++;
                        last = u.pid;
                        TRY(cc_buf_printf(&b, err, "\n%s%lld%s  ", cc_text_sgr(&o, CC_SGR_BOLD), (long long)u.pid,
                                          cc_text_sgr(&o, CC_SGR_OFF)));
                        TRY(cc_text_put(&o, u.name ? u.name : "(name not readable)"));
                        TRY(cc_buf_puts(&b, "\n    command  ", err));
                        TRY(cc_text_put(&o, u.cmdline ? u.cmdline : "(not readable)"));
                        TRY(cc_buf_putc(&b, '\n', err));
                }
                TRY(cc_buf_puts(&b, "    maps     ", err));
                TRY(cc_text_put(&o, u.file));
                if (u.deleted)
                        TRY(cc_buf_printf(&b, err, " %s(deleted: a file of that name since replaced or removed)%s",
                                          cc_text_sgr(&o, CC_SGR_YELLOW), cc_text_sgr(&o, CC_SGR_OFF)));
                if (verbose)
                        TRY(seen_list(&o, u.seen));
                TRY(cc_buf_putc(&b, '\n', err));
                if (u.file != NULL && !cc_strv_contains(&mapped, u.file))
                        TRY(cc_strv_push(&mapped, u.file, err));
        }
        TRY(cc_buf_putc(&b, '\n', err));
        if (procs > 0)
                TRY(cc_buf_printf(&b, err, "%sin use%s: %zu process%s map%s %zu of %zu library file%s\n",
                                  cc_text_sgr(&o, CC_SGR_YELLOW), cc_text_sgr(&o, CC_SGR_OFF), procs,
                                  procs == 1 ? "" : "es", procs == 1 ? "s" : "", mapped.n, nfiles,
                                  nfiles == 1 ? "" : "s"));
        else if (nfiles == 0)
                TRY(cc_buf_puts(&b, "no library file there: nothing to ask about\n", err));
        else
                TRY(cc_buf_printf(
                    &b, err, "%snot in use%s: no process maps %s%zu library file%s (%lld processes looked at)\n",
                    cc_text_sgr(&o, CC_SGR_GREEN), cc_text_sgr(&o, CC_SGR_OFF), nfiles == 1 ? "the " : "these ", nfiles,
                    nfiles == 1 ? "" : "s", (long long)s.processes));
        if (s.unreadable > 0)
                TRY(cc_buf_printf(&b, err,
                                  "%lld process%s could not be read (no privilege to read it: another user's "
                                  "processes are visible to root, or an administrator)\n",
                                  (long long)s.unreadable, s.unreadable == 1 ? "" : "es"));
        for (i = 0; i < cc_v_len(s.notes); i++) {
                TRY(cc_buf_puts(&b, "note: ", err));
                TRY(cc_text_put(&o, cc_v_as_str(cc_v_at(s.notes, i))));
                TRY(cc_buf_putc(&b, '\n', err));
        }
        if (verbose && nfiles > 0) {
                TRY(cc_buf_puts(&b, "\nfiles asked about:\n", err));
                for (i = 0; i < nfiles; i++) {
                        TRY(cc_buf_puts(&b, "  ", err));
                        TRY(cc_text_put(&o, cc_v_as_str(cc_v_at(d.files, i))));
                        TRY(cc_buf_putc(&b, '\n', err));
                }
        }
        cc_strv_free(&mapped);
        *out = cc_buf_steal(&b);
        return *out ? 0 : -1;
fail:
        cc_strv_free(&mapped);
        cc_buf_free(&b);
        return -1;
}
