/* Text for people from the uninstall, rollback, recover and history
 * documents (docs/json.md "uninstall, rollback"). Reads only the
 * document, through its views. */
#include "text.h"

#include "../facts/views.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int line_put(struct cc_text *t, const char *pre, const char *s)
{
        TRY_RET(cc_text_printf(t, "%s", pre));
        TRY_RET(cc_text_put(t, s));
        return cc_text_printf(t, "\n");
}

static int recovered(struct cc_text *t, const cc_value *arr)
{
        size_t i;

        for (i = 0; i < cc_v_len(arr); i++)
                TRY_RET(line_put(t, "recovered: ", cc_v_as_str(cc_v_at(arr, i))));
        return 0;
}

static const char *verdict_sgr(const struct cc_text *t, const char *v)
{
        if (v != NULL && strcmp(v, "stop") == 0)
                return cc_text_sgr(t, CC_SGR_RED);
        if (v != NULL && strcmp(v, "warn") == 0)
                return cc_text_sgr(t, CC_SGR_YELLOW);
        return cc_text_sgr(t, CC_SGR_GREEN);
}

int cudnnctl_change_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text t = {&b, color, err};
        cc_vw_change_doc d;
        cc_vw_plan_summary s;
        cc_vw_install_result r;
        const char *cmd;
        size_t i;

        (void)verbose;
        *out = NULL;
        cc_vw_change_doc_read(doc, &d, NULL);
        cmd = d.command;
        cc_vw_plan_summary_read(d.summary, &s, NULL);
        cc_vw_install_result_read(d.result, &r, NULL);
        TRY(recovered(&t, d.recovered));
        if (cmd != NULL && strcmp(cmd, "recover") == 0) {
                if (cc_v_len(d.recovered) == 0)
                        TRY(line_put(&t, "Nothing to recover in ", d.target));
                *out = cc_buf_steal(&b);
                return *out ? 0 : cc_err(err, CC_ERR_NOMEM, "out of memory");
        }
        TRY(cc_text_printf(&t, "%s%s%s ", cc_text_sgr(&t, CC_SGR_BOLD), cmd ? cmd : "?", cc_text_sgr(&t, CC_SGR_OFF)));
        if (cmd != NULL && strcmp(cmd, "use") == 0) {
                const cc_value *in = cc_v_get(doc, "installation");

                if (cc_v_get(in, "id") != NULL)
                        TRY(cc_text_printf(&t, "cuDNN %s (installation %lld, ",
                                           cc_v_get_str(in, "version") ? cc_v_get_str(in, "version") : "unknown",
                                           (long long)cc_v_as_int(cc_v_get(in, "id"))));
                else
                        TRY(cc_text_printf(&t, "--none ("));
                if (cc_v_get_str(doc, "registry") != NULL) {
                        TRY(cc_text_put(&t, cc_v_get_str(doc, "registry")));
                        TRY(cc_text_printf(&t, "\\Path"));
                } else {
                        TRY(cc_text_put(&t, cc_v_get_str(doc, "file")));
                }
                TRY(cc_text_printf(&t, ")"));
        } else {
                TRY(cc_text_put(&t, d.of));
        }
        TRY(line_put(&t, " in ", d.target));
        for (i = 0; i < cc_v_len(d.checks); i++) {
                cc_vw_plan_check c;

                cc_vw_plan_check_at(d.checks, i, &c, NULL);
                TRY(cc_text_printf(&t, "  %s%-4s%s  ", verdict_sgr(&t, c.verdict), c.verdict ? c.verdict : "?",
                                   cc_text_sgr(&t, CC_SGR_OFF)));
                TRY(line_put(&t, "", c.reason));
        }
        TRY(cc_text_printf(&t, "Plan: %lld placed, %lld replaced, %lld removed, %lld directories made",
                           (long long)s.place, (long long)s.replace, (long long)s.remove, (long long)s.mkdir));
        if (s.setreg)
                TRY(cc_text_printf(&t, ", %lld registry values set", (long long)s.setreg));
        TRY(cc_text_printf(&t, "\n"));
        for (i = 0; i < cc_v_len(d.operations); i++) {
                cc_vw_plan_op o;

                cc_vw_plan_op_at(d.operations, i, &o, NULL);
                TRY(cc_text_printf(&t, "  %-8s", o.op ? o.op : "?"));
                TRY(cc_text_put(&t, o.path));
                if (o.link != NULL) {
                        TRY(cc_text_printf(&t, " -> "));
                        TRY(cc_text_put(&t, o.link));
                }
                TRY(cc_text_printf(&t, "\n"));
        }
        if (r.status != NULL && strcmp(r.status, "planned") == 0)
                TRY(cc_text_printf(&t, "Dry run: nothing was written.\n"));
        else if (r.status != NULL && strcmp(r.status, "stopped") == 0)
                TRY(cc_text_printf(&t, "%sStopped%s: nothing was written.\n", cc_text_sgr(&t, CC_SGR_RED),
                                   cc_text_sgr(&t, CC_SGR_OFF)));
        else if (r.status != NULL && strcmp(r.status, "nothing-to-do") == 0)
                TRY(cc_text_printf(&t, "Nothing to do.\n"));
        else if (r.status != NULL && strcmp(r.status, "failed") == 0) {
                TRY(cc_text_printf(&t, "%sFailed%s: ", cc_text_sgr(&t, CC_SGR_RED), cc_text_sgr(&t, CC_SGR_OFF)));
                TRY(line_put(&t, "", r.error));
                TRY(cc_text_printf(&t, r.undo_failed
                                           ? "Undoing it failed too: `cudnnctl recover` on the target finishes it.\n"
                                           : "Everything was undone: the target is as it was.\n"));
        } else {
                TRY(cc_text_printf(&t, "%sDone%s (transaction ", cc_text_sgr(&t, CC_SGR_GREEN),
                                   cc_text_sgr(&t, CC_SGR_OFF)));
                TRY(cc_text_put(&t, r.transaction));
                TRY(cc_text_printf(&t, "; `cudnnctl rollback%s%s` undoes it).\n",
                                   cmd != NULL && strcmp(cmd, "use") == 0 ? " " : "",
                                   cmd != NULL && strcmp(cmd, "use") == 0 ? d.target : ""));
        }
        if (cc_v_get_str(doc, "registry") != NULL && cc_v_get_str(doc, "after") != NULL &&
            (cc_v_get_str(doc, "before") == NULL ||
             strcmp(cc_v_get_str(doc, "before"), cc_v_get_str(doc, "after")) != 0)) {
                TRY(line_put(&t, "Path was:  ", cc_v_get_str(doc, "before") ? cc_v_get_str(doc, "before") : "(none)"));
                TRY(line_put(&t, "Path now:  ", cc_v_get_str(doc, "after")));
        }
        if (cc_v_get_str(doc, "broadcast") != NULL)
                TRY(line_put(&t, "WM_SETTINGCHANGE: ", cc_v_get_str(doc, "broadcast")));
        if (cc_v_get_str(doc, "ldconfig") != NULL)
                TRY(line_put(&t, "ldconfig: ", cc_v_get_str(doc, "ldconfig")));
        if (cc_v_get(doc, "loads") != NULL) {
                const cc_value *l = cc_v_get(doc, "loads");

                TRY(cc_text_printf(&t, "A plain program loads %s from ", cc_v_get_str(l, "name")));
                TRY(cc_text_put(&t, cc_v_get_str(l, "path") ? cc_v_get_str(l, "path") : "nowhere (not found)"));
                TRY(cc_text_printf(&t, "%s\n",
                                   cc_v_as_bool(cc_v_get(l, "chosen")) ? ": the chosen installation"
                                                                       : ": NOT the chosen installation"));
        }
        *out = cc_buf_steal(&b);
        return 0;
fail:
        cc_buf_free(&b);
        return -1;
}

int cudnnctl_history_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text t = {&b, color, err};
        cc_vw_change_doc d;
        size_t i;

        (void)verbose;
        *out = NULL;
        cc_vw_change_doc_read(doc, &d, NULL);
        TRY(line_put(&t, "Transactions in ", d.target));
        if (cc_v_len(d.transactions) == 0)
                TRY(cc_text_printf(&t, "  none\n"));
        for (i = 0; i < cc_v_len(d.transactions); i++) {
                cc_vw_history_txn h;

                cc_vw_history_txn_at(d.transactions, i, &h, NULL);
                TRY(cc_text_printf(&t, "  "));
                TRY(cc_text_put(&t, h.id));
                TRY(cc_text_printf(&t, "  %-11s ", h.state ? h.state : "?"));
                TRY(cc_text_put(&t, h.label));
                TRY(cc_text_printf(&t, ": %lld placed, %lld replaced, %lld removed, %lld directories made%s%s\n",
                                   (long long)h.place, (long long)h.replace, (long long)h.remove, (long long)h.mkdir,
                                   h.rolled_back ? "; rolled back" : "", h.backups_kept ? "" : "; backups pruned"));
        }
        for (i = 0; i < cc_v_len(d.unreadable); i++)
                TRY(line_put(&t, "  unreadable: ", cc_v_as_str(cc_v_at(d.unreadable, i))));
        *out = cc_buf_steal(&b);
        return 0;
fail:
        cc_buf_free(&b);
        return -1;
}

int cudnnctl_fix_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text t = {&b, color, err};
        const cc_value *fixes = cc_v_get(doc, "fixes"), *changes = cc_v_get(doc, "changes"),
                       *left = cc_v_get(doc, "left");
        size_t i, j;

        *out = NULL;
        if (cc_v_len(fixes) == 0)
                TRY(cc_text_printf(&t, "Nothing to fix: the doctor found nothing (no GPU, compile or framework checks "
                                       "here).\n"));
        for (i = 0; i < cc_v_len(fixes); i++) {
                const cc_value *f = cc_v_at(fixes, i);
                const char *action = cc_v_get_str(f, "action");

                TRY(cc_text_printf(&t, "%s%-6s%s %s: ", cc_text_sgr(&t, CC_SGR_BOLD), action ? action : "?",
                                   cc_text_sgr(&t, CC_SGR_OFF), cc_v_get_str(f, "finding")));
                TRY(line_put(&t, "", cc_v_get_str(f, "summary")));
                if (cc_v_get_str(f, "why") != NULL)
                        TRY(line_put(&t, "       not changed: ", cc_v_get_str(f, "why")));
                if (cc_v_get_str(f, "then") != NULL)
                        TRY(line_put(&t, "       then: ", cc_v_get_str(f, "then")));
                for (j = 0; j < cc_v_len(cc_v_get(f, "commands")); j++) {
                        const cc_value *c = cc_v_at(cc_v_get(f, "commands"), j);
                        const char *scope = cc_v_get_str(c, "scope");

                        TRY(cc_text_printf(&t, "       run (%s): ",
                                           scope == NULL                      ? "?"
                                           : strcmp(scope, "shell") == 0      ? "this shell"
                                           : strcmp(scope, "persistent") == 0 ? "every program, persistently"
                                           : strcmp(scope, "python") == 0     ? "in Python"
                                                                              : scope));
                        TRY(line_put(&t, "", cc_v_get_str(c, "command")));
                }
                if (cc_v_get_str(f, "fix") != NULL)
                        TRY(line_put(&t, "       by hand (not a change of files): ", cc_v_get_str(f, "fix")));
        }
        for (i = 0; i < cc_v_len(changes); i++) {
                char *one = NULL;

                int r2;

                TRY(cudnnctl_change_text(cc_v_at(changes, i), verbose, color, &one, err));
                r2 = cc_buf_puts(&b, one, err);
                free(one);
                TRY(r2);
        }
        if (left != NULL && cc_v_type(left) == CUDNNCTL_ARRAY) {
                if (cc_v_len(left) == 0)
                        TRY(cc_text_printf(&t, "Checked again: the findings fixed are gone.\n"));
                for (i = 0; i < cc_v_len(left); i++)
                        TRY(line_put(&t, "Still there: ", cc_v_get_str(cc_v_at(left, i), "summary")));
        }
        *out = cc_buf_steal(&b);
        return *out ? 0 : cc_err(err, CC_ERR_NOMEM, "out of memory");
fail:
        cc_buf_free(&b);
        return -1;
}
