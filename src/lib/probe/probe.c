/* The parent side of a probe: start the child, read its JSON lines, and turn
 * how it ended into facts (probe.h). */
#include "probe.h"

#include <stdlib.h>
#include <string.h>

#include "../facts/views.h"
#include "../formats/json.h"
#include "../platform/platform.h"

/* One protocol line into the result. Unknown or malformed lines are counted. */
static int take_line(cc_value *facts, cc_value *gpu, char **open_step, const char *line, size_t n, int *bad, int *done,
                     cc_error *err)
{
        cc_error perr = {0};
        cc_value *o = NULL;
        cc_vw_probe_line pl;
        const char *t;
        int rv = 0;

        *done = 0;
        if (cc_json_parse(line, n, 16, &o, &perr) < 0 || cc_v_type(o) != CUDNNCTL_OBJECT) {
                cc_v_free(o);
                (*bad)++;
                return 0;
        }
        cc_vw_probe_line_read(o, &pl, NULL);
        t = pl.t;
        /* "done" counts only as the last line: anything after it means the
         * report went on (or another writer spoke), so it was not the end. */
        *done = t != NULL && strcmp(t, "done") == 0 && cc_v_len(o) == 1;
        if (t == NULL) {
                (*bad)++;
        } else if (strcmp(t, "begin") == 0 && pl.step != NULL) {
                free(*open_step);
                *open_step = cc_strdup(err, pl.step);
                if (*open_step == NULL)
                        rv = -1;
        } else if (strcmp(t, "end") == 0) {
                free(*open_step);
                *open_step = NULL;
        } else if (strcmp(t, "fact") == 0 && pl.k != NULL && CC_VW_HAS(&pl, probe_line, v)) {
                const char *k = pl.k; /* a value of its own: taking v leaves it */
                size_t kl = strlen(k);
                cc_value *v = cc_v_take(o, CC_K(probe_line, v));

                if (kl > 2 && strcmp(k + kl - 2, "[]") == 0) {
                        char *name = cc_strndup(err, k, kl - 2);
                        cc_value *arr = name ? cc_v_getm(facts, name) : NULL;

                        if (name == NULL) {
                                cc_v_free(v);
                                rv = -1;
                        } else {
                                if (arr == NULL || cc_v_type(arr) != CUDNNCTL_ARRAY) {
                                        if (cc_v_set(facts, name, cc_v_array(err), err) < 0)
                                                rv = -1;
                                        arr = cc_v_getm(facts, name);
                                }
                                if (rv == 0 && cc_v_push(arr, v, err) < 0)
                                        rv = -1;
                                else if (rv < 0)
                                        cc_v_free(v);
                                free(name);
                        }
                } else if (cc_v_set(facts, k, v, err) < 0) {
                        rv = -1;
                }
        } else if (strcmp(t, "gpu") == 0 && CC_VW_HAS(&pl, probe_line, v)) {
                if (cc_v_push(gpu, cc_v_take(o, CC_K(probe_line, v)), err) < 0)
                        rv = -1;
        } else if (strcmp(t, "done") == 0) {
                /* the end of the report */
        } else {
                (*bad)++;
        }
        cc_v_free(o);
        return rv;
}

/* The last max bytes of s, starting at a line boundary when one is near. */
static cc_value *tail_text(const cc_buf *b, size_t max, cc_error *err)
{
        size_t start = 0;

        if (b->len == 0)
                return cc_v_str("", err);
        if (b->len > max) {
                start = b->len - max;
                for (size_t i = start; i < b->len && i < start + 200; i++)
                        if (b->data[i] == '\n') {
                                start = i + 1;
                                break;
                        }
        }
        return cc_v_strn(b->data + start, b->len - start, err);
}

cc_value *cc_probe_run(const cc_probe_ctl *c, const char *const *args, size_t nargs, cc_error *err)
{
        cc_spawn_opts so;
        cc_spawn_result sr;
        const char **argv = NULL;
        char *self = NULL, *open_step = NULL, *how = NULL;
        cc_value *res = NULL, *facts = NULL, *gpu = NULL;
        size_t i, pos = 0;
        int bad = 0, ok = 0, complete = 0;

        memset(&sr, 0, sizeof(sr));
        if (c->argv != NULL) {
                argv = cc_calloc(err, c->nargv + nargs + 1, sizeof(*argv));
                if (argv == NULL)
                        goto done;
                for (i = 0; i < c->nargv; i++)
                        argv[i] = c->argv[i];
                for (i = 0; i < nargs; i++)
                        argv[c->nargv + i] = args[i];
        } else {
                if (c->exe == NULL && (self = cc_self_exe(err)) == NULL)
                        return NULL;
                argv = cc_calloc(err, nargs + 3, sizeof(*argv));
                if (argv == NULL)
                        goto done;
                argv[0] = c->exe ? c->exe : self;
                argv[1] = "__probe";
                for (i = 0; i < nargs; i++)
                        argv[i + 2] = args[i];
        }
        memset(&so, 0, sizeof(so));
        so.argv = argv;
        so.env_set = c->env_set;
        so.nenv_set = c->nenv_set;
        so.env_unset = c->env_unset;
        so.nenv_unset = c->nenv_unset;
        so.cwd = c->cwd;
        so.timeout_ms = c->timeout_ms > 0 ? c->timeout_ms : 60000;
        so.max_output = (size_t)1 << 20;
        if (cc_spawn_run(&so, &sr, err) < 0)
                goto done;
        res = cc_v_object(err);
        facts = cc_v_object(err);
        gpu = cc_v_array(err);
        if (res == NULL || facts == NULL || gpu == NULL)
                goto done;
        /* The protocol stream: complete lines only (a crash may cut the last). */
        while (pos < sr.out.len) {
                const char *nl = memchr(sr.out.data + pos, '\n', sr.out.len - pos);

                if (nl == NULL) {
                        bad++;
                        complete = 0;
                        break;
                }
                if (take_line(facts, gpu, &open_step, sr.out.data + pos, (size_t)(nl - (sr.out.data + pos)), &bad,
                              &complete, err) < 0)
                        goto done;
                pos = (size_t)(nl - sr.out.data) + 1;
        }
        /* Lines past the cap were lost: the last one seen is not the last. */
        if (sr.out_total > sr.out.len)
                complete = 0;
        how = cc_spawn_describe(&sr, err);
        if (how == NULL)
                goto done;
        /* Ended with a status but without the end of its report: say so, or
         * "exited with status 0" reads like a success. */
        if (!complete && !sr.timed_out && !cc_spawn_crashed(&sr)) {
                char *cut = cc_asprintf(err, "%s before its report was complete", how);

                if (cut == NULL)
                        goto done;
                free(how);
                how = cut;
        }
        cc_v_set_bool(res, "ran", 1, err);
        cc_v_set_str(res, "how", how, err);
        if (sr.exited)
                cc_v_set_int(res, "exit", sr.exit_code, err);
        else
                cc_v_set_null(res, "exit", err);
        if (sr.signal)
                cc_v_set_int(res, "signal", sr.signal, err);
        else
                cc_v_set_null(res, "signal", err);
        cc_v_set_bool(res, "crashed", cc_spawn_crashed(&sr), err);
        cc_v_set_bool(res, "timed_out", sr.timed_out, err);
        cc_v_set_bool(res, "complete", complete, err);
        cc_v_set_int(res, "wall_ms", sr.wall_ms, err);
        /* A step that began and never ended: where the child crashed, hung
         * or ended the process (a library's exit(0) leaves the step open). */
        cc_v_set_str(res, "died_in", open_step, err);
        cc_v_set(res, "facts", facts, err);
        facts = NULL;
        cc_v_set(res, "gpu", gpu, err);
        gpu = NULL;
        /* What the loaded libraries printed (the child sends their standard
         * output to its standard error); protocol bytes past the cap are lost. */
        cc_v_set_int(res, "printed_bytes", (int64_t)sr.err_total, err);
        cc_v_set_bool(res, "protocol_cut", sr.out_total > sr.out.len, err);
        cc_v_set(res, "output_tail", tail_text(&sr.errout, 2048, err), err);
        if (cc_v_set_int(res, "bad_lines", bad, err) < 0)
                goto done;
        ok = 1;
done:
        if (!ok) {
                cc_v_free(res);
                res = NULL;
        }
        cc_v_free(facts);
        cc_v_free(gpu);
        cc_spawn_result_free(&sr);
        free(argv);
        free(self);
        free(open_step);
        free(how);
        return res;
}

int cudnnctl_probe_child(int argc, char **argv)
{
        return cc_probe_child(argc, argv);
}

int cudnnctl_cleanup_install(cudnnctl_error *err)
{
        return cc_cleanup_install(err);
}

void cudnnctl_cleanup(void)
{
        cc_cleanup_all();
}
