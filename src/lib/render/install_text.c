/* Text for people from the "install" document: the release and the target,
 * every pre-check with its verdict, the operations (all of them with -v,
 * else the counts and what is replaced or removed), and the result. Reads
 * only the document, through its views. */
#include "text.h"

#include "../facts/views.h"

#include <stdio.h>
#include <string.h>

static const char *human(int64_t n, char *buf, size_t size)
{
        if (n >= 10LL << 30)
                snprintf(buf, size, "%.1f GiB", (double)n / (1 << 30));
        else if (n >= 10LL << 20)
                snprintf(buf, size, "%.1f MiB", (double)n / (1 << 20));
        else if (n >= 10LL << 10)
                snprintf(buf, size, "%.1f KiB", (double)n / (1 << 10));
        else
                snprintf(buf, size, "%lld bytes", (long long)n);
        return buf;
}

static const char *verdict_sgr(const struct cc_text *t, const char *v)
{
        if (v != NULL && strcmp(v, "stop") == 0)
                return cc_text_sgr(t, CC_SGR_RED);
        if (v != NULL && strcmp(v, "warn") == 0)
                return cc_text_sgr(t, CC_SGR_YELLOW);
        return cc_text_sgr(t, CC_SGR_GREEN);
}

static int header(struct cc_text *t, const cc_vw_plan_source *s, const cc_vw_plan_target *g)
{
        char b[32];

        TRY_RET(cc_text_printf(t, "%scuDNN %s%s", cc_text_sgr(t, CC_SGR_BOLD),
                               s->version ? s->version : "(version unknown)", cc_text_sgr(t, CC_SGR_OFF)));
        if (CC_VW_HAS(s, plan_source, cuda_major))
                TRY_RET(cc_text_printf(t, " for CUDA %lld", (long long)s->cuda_major));
        TRY_RET(cc_text_printf(t, ", %s %s, from ", s->system ? s->system : "system unknown",
                               s->machine ? s->machine : ""));
        TRY_RET(cc_text_put(t, s->path));
        TRY_RET(cc_text_printf(t, "\n  %s %s, %lld members, %s to install\ninto ", s->kind ? s->kind : "?",
                               s->layout ? s->layout : "?", (long long)s->members, human(s->bytes, b, sizeof(b))));
        TRY_RET(cc_text_put(t, g->path));
        if (g->kind != NULL && strcmp(g->kind, "cuda-toolkit") == 0) {
                if (CC_VW_HAS(g, plan_target, cuda_major))
                        TRY_RET(cc_text_printf(t, " (CUDA %lld toolkit)", (long long)g->cuda_major));
                else
                        TRY_RET(cc_text_printf(t, " (CUDA toolkit, version unknown)"));
        }
        return cc_text_printf(t, "\n");
}

static int checks(struct cc_text *t, const cc_value *arr)
{
        size_t i;

        TRY_RET(cc_text_printf(t, "\nChecks\n"));
        for (i = 0; i < cc_v_len(arr); i++) {
                cc_vw_plan_check c;

                cc_vw_plan_check_at(arr, i, &c, NULL);
                TRY_RET(cc_text_printf(t, "  %s%-4s%s  %-13s ", verdict_sgr(t, c.verdict), c.verdict ? c.verdict : "?",
                                       cc_text_sgr(t, CC_SGR_OFF), c.id ? c.id : "?"));
                TRY_RET(cc_text_put(t, c.reason));
                TRY_RET(cc_text_printf(t, "\n"));
        }
        return 0;
}

static int op_line(struct cc_text *t, const cc_vw_plan_op *o)
{
        char b[32];

        TRY_RET(cc_text_printf(t, "  %-8s", o->op ? o->op : "?"));
        TRY_RET(cc_text_put(t, o->path));
        if (o->link != NULL) {
                TRY_RET(cc_text_printf(t, " -> "));
                TRY_RET(cc_text_put(t, o->link));
        } else if (CC_VW_HAS(o, plan_op, size)) {
                TRY_RET(cc_text_printf(t, "  %s", human(o->size, b, sizeof(b))));
        }
        /* the digests' first 16 digits (--json has them whole) */
        if (o->sha256 != NULL)
                TRY_RET(cc_text_printf(t, "  sha256 %.16s", o->sha256));
        if (CC_VW_HAS(o, plan_op, old_size)) {
                TRY_RET(cc_text_printf(t, "  (now %s", human(o->old_size, b, sizeof(b))));
                if (o->old_sha256 != NULL)
                        TRY_RET(cc_text_printf(t, ", sha256 %.16s", o->old_sha256));
                TRY_RET(cc_text_printf(t, ")"));
        }
        return cc_text_printf(t, "\n");
}

static int operations(struct cc_text *t, const cc_value *ops, const cc_vw_plan_summary *s, int verbose)
{
        char b[32];
        size_t i, shown = 0;

        TRY_RET(cc_text_printf(t,
                               "\nPlan: %lld directories made, %lld placed, %lld replaced, %lld removed; %s staged\n",
                               (long long)s->mkdir, (long long)s->place, (long long)s->replace, (long long)s->remove,
                               human(s->bytes, b, sizeof(b))));
        for (i = 0; i < cc_v_len(ops); i++) {
                cc_vw_plan_op o;

                cc_vw_plan_op_at(ops, i, &o, NULL);
                /* without -v: what changes an existing file */
                if (!verbose && (o.op == NULL || (strcmp(o.op, "replace") != 0 && strcmp(o.op, "remove") != 0)))
                        continue;
                TRY_RET(op_line(t, &o));
                shown++;
        }
        if (!verbose && shown < cc_v_len(ops))
                TRY_RET(cc_text_printf(t, "  (-v lists every operation)\n"));
        for (i = 0; i < cc_v_len(s->other_majors); i++) {
                TRY_RET(cc_text_printf(t, i ? ", " : "  left as they are (other cuDNN majors): "));
                TRY_RET(cc_text_put(t, cc_v_as_str(cc_v_at(s->other_majors, i))));
                if (i + 1 == cc_v_len(s->other_majors))
                        TRY_RET(cc_text_printf(t, "\n"));
        }
        return 0;
}

static int result(struct cc_text *t, const cc_vw_install_result *r)
{
        const char *st = r->status ? r->status : "?";

        TRY_RET(cc_text_printf(t, "\n"));
        if (strcmp(st, "planned") == 0)
                return cc_text_printf(t, "Dry run: nothing was written.\n");
        if (strcmp(st, "stopped") == 0)
                return cc_text_printf(t, "%sStopped%s: a check says stop; nothing was written.\n",
                                      cc_text_sgr(t, CC_SGR_RED), cc_text_sgr(t, CC_SGR_OFF));
        if (strcmp(st, "failed") == 0) {
                TRY_RET(cc_text_printf(t, "%sFailed%s: ", cc_text_sgr(t, CC_SGR_RED), cc_text_sgr(t, CC_SGR_OFF)));
                TRY_RET(cc_text_put(t, r->error));
                if (r->undo_failed)
                        return cc_text_printf(
                            t, "\nUndoing it failed too: `cudnnctl recover` on the target finishes it.\n");
                return cc_text_printf(t, "\nEverything was undone: the target is as it was.\n");
        }
        TRY_RET(
            cc_text_printf(t, "%sInstalled%s (transaction ", cc_text_sgr(t, CC_SGR_GREEN), cc_text_sgr(t, CC_SGR_OFF)));
        TRY_RET(cc_text_put(t, r->transaction));
        TRY_RET(cc_text_printf(t, "; `cudnnctl rollback` undoes it).\n  manifest: "));
        TRY_RET(cc_text_put(t, r->manifest));
        TRY_RET(cc_text_printf(t, "\n"));
        if (r->use != NULL) {
                TRY_RET(cc_text_printf(t, "  to use it: "));
                TRY_RET(cc_text_put(t, r->use));
                TRY_RET(cc_text_printf(t, "\n"));
        }
        return 0;
}

int cudnnctl_install_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text t = {&b, color, err};
        cc_vw_install_doc d;
        cc_vw_install_plan p;
        cc_vw_plan_source s;
        cc_vw_plan_target g;
        cc_vw_plan_summary sum;
        cc_vw_install_result r;
        size_t i;

        *out = NULL;
        cc_vw_install_doc_read(doc, &d, NULL);
        cc_vw_install_plan_read(d.plan, &p, NULL);
        cc_vw_plan_source_read(p.source, &s, NULL);
        cc_vw_plan_target_read(p.target, &g, NULL);
        cc_vw_plan_summary_read(p.summary, &sum, NULL);
        cc_vw_install_result_read(d.result, &r, NULL);
        for (i = 0; i < cc_v_len(d.recovered); i++) {
                TRY(cc_text_printf(&t, "recovered: "));
                TRY(cc_text_put(&t, cc_v_as_str(cc_v_at(d.recovered, i))));
                TRY(cc_text_printf(&t, "\n"));
        }
        TRY(header(&t, &s, &g));
        TRY(checks(&t, p.checks));
        TRY(operations(&t, p.operations, &sum, verbose));
        TRY(result(&t, &r));
        if (r.ldconfig != NULL && strcmp(r.ldconfig, "not-needed") != 0) {
                TRY(cc_text_printf(&t, "  ldconfig: "));
                TRY(cc_text_put(&t, r.ldconfig));
                TRY(cc_text_printf(&t, "\n"));
        }
        if (d.verify_error != NULL) {
                TRY(cc_text_printf(&t, "  verify: not run: "));
                TRY(cc_text_put(&t, d.verify_error));
                TRY(cc_text_printf(&t, "\n"));
        } else if (d.verify != NULL) {
                cc_vw_verify_doc vd;
                cc_vw_verify_summary vs;
                int failed;

                cc_vw_verify_doc_read(d.verify, &vd, NULL);
                cc_vw_verify_summary_read(vd.summary, &vs, NULL);
                failed = vs.verdict != NULL && strcmp(vs.verdict, "failed") == 0;
                TRY(cc_text_printf(&t, "  verify: %s%s%s", failed ? cc_text_sgr(&t, CC_SGR_RED) : "",
                                   vs.verdict ? vs.verdict : "unknown", cc_text_sgr(&t, CC_SGR_OFF)));
                if (vs.failed > 0)
                        TRY(cc_text_printf(&t, ", %lld checks failed", (long long)vs.failed));
                TRY(cc_text_printf(
                    &t, failed ? "\n  (the install stands: `cudnnctl verify` says why; `cudnnctl rollback` undoes it)\n"
                               : "\n"));
        }
        if (d.log_error != NULL) {
                TRY(cc_text_printf(&t, "the log was not written: "));
                TRY(cc_text_put(&t, d.log_error));
                TRY(cc_text_printf(&t, "\n"));
        }
        *out = cc_buf_steal(&b);
        return 0;
fail:
        cc_buf_free(&b);
        return -1;
}
