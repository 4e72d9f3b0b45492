/* cudnnctl_compat: the public entry of compat. The answers are the tables'
 * (src/lib/kb/compat.c); what the command adds, when asked, is the one
 * request for a cuDNN release the tables do not know: does NVIDIA's redist
 * index list it (a release newer than the tables), or is it no release. */
#include "../fetch/fetch.h"
#include "../kb/query.h"

#include <stdio.h>
#include <string.h>

/* The summary's count of a verdict, one more; its verdict again. */
static int count(cc_value *doc, const char *verdict, cc_error *err)
{
        cc_value *sum = cc_v_getm(doc, "summary");
        int64_t yes, no, unknown;

        if (sum == NULL)
                return 0;
        yes = cc_v_as_int(cc_v_get(sum, "yes")) + (strcmp(verdict, "yes") == 0);
        no = cc_v_as_int(cc_v_get(sum, "no")) + (strcmp(verdict, "no") == 0);
        unknown = cc_v_as_int(cc_v_get(sum, "unknown")) + (strcmp(verdict, "unknown") == 0);
        return cc_v_set_int(sum, "yes", yes, err) < 0 || cc_v_set_int(sum, "no", no, err) < 0 ||
                       cc_v_set_int(sum, "unknown", unknown, err) < 0 ||
                       cc_v_set_str(sum, "verdict",
                                    no        ? "no"
                                    : unknown ? "unknown"
                                              : "yes",
                                    err) < 0
                   ? -1
                   : 0;
}

/* Whether want is older than the release s (on the components want has). */
static int older_than(const cudnnctl_ver *want, const char *s)
{
        cudnnctl_ver v;
        int k;

        if (cudnnctl_ver_parse(s, &v) < 0)
                return 0;
        for (k = 0; k < want->n && k < v.n; k++)
                if (want->part[k] != v.part[k])
                        return want->part[k] < v.part[k];
        return 0;
}

/* The answer "cudnn-in-index" for a release the tables lack. */
static int ask_index(const cudnnctl_compat_options *o, const cudnnctl_ver *want, cc_value *doc, cc_error *err)
{
        const char *index = o->index != NULL ? o->index : CC_FETCH_REDIST_URL;
        cc_strv versions = {0};
        cc_error ierr = {0};
        cc_value *a, *answers = cc_v_getm(doc, "answers");
        char question[160], reason[1024];
        const char *verdict = "unknown";
        size_t i;
        int rc = -1;

        if (answers == NULL)
                return 0;
        snprintf(question, sizeof(question), "Does NVIDIA's redist index list cuDNN %s?", o->cudnn);
        if (cc_fetch_index_versions(CC_FETCH_REDIST, index, 0, o->timeout_ms > 0 ? o->timeout_ms : 10000, &versions,
                                    &ierr) < 0) {
                if (ierr.code == CC_ERR_NOMEM) {
                        *err = ierr;
                        return -1;
                }
                snprintf(reason, sizeof(reason), "the index could not be read (%s)", ierr.msg);
        } else {
                verdict = "no";
                for (i = 0; i < versions.n; i++) {
                        cudnnctl_ver v;
                        int k;

                        if (cudnnctl_ver_parse(versions.v[i], &v) < 0)
                                continue;
                        for (k = 0; k < want->n && k < v.n && v.part[k] == want->part[k]; k++)
                                ;
                        if (k == want->n || (k == v.n && k >= 3)) {
                                verdict = "yes";
                                break;
                        }
                }
                if (strcmp(verdict, "no") == 0 && versions.n > 0 && older_than(want, versions.v[versions.n - 1])) {
                        verdict = "unknown";
                        snprintf(reason, sizeof(reason),
                                 "%s begins at cuDNN %s: an older release is not in it, and the tables do not know "
                                 "cuDNN %s",
                                 index, versions.v[versions.n - 1], o->cudnn);
                } else if (strcmp(verdict, "yes") == 0)
                        snprintf(reason, sizeof(reason),
                                 "%s lists cuDNN %s, which the tables do not know: a release newer than (or missed "
                                 "by) this cudnnctl's tables, so its CUDA builds, driver and GPU support are unknown "
                                 "here; a newer cudnnctl knows them",
                                 index, versions.v[i]);
                else
                        snprintf(reason, sizeof(reason),
                                 "%s lists no cuDNN %s among its %zu releases (newest %s): not a release NVIDIA "
                                 "publishes there",
                                 index, o->cudnn, versions.n, versions.n ? versions.v[0] : "none");
        }
        a = cc_v_object(err);
        if (a == NULL || cc_v_push(answers, a, err) < 0 || cc_v_set_str(a, "id", "cudnn-in-index", err) < 0 ||
            cc_v_set_str(a, "question", question, err) < 0 || cc_v_set_str(a, "verdict", verdict, err) < 0 ||
            cc_v_set_str(a, "reason", reason, err) < 0 || cc_v_set_str(a, "source", "RDL", err) < 0 ||
            cc_v_set_str(a, "cudnn", o->cudnn, err) < 0 || cc_v_set_str(a, "index", index, err) < 0 ||
            count(doc, verdict, err) < 0)
                goto done;
        rc = 0;
done:
        cc_strv_free(&versions);
        return rc;
}

int cudnnctl_compat(const cudnnctl_compat_options *opts, cudnnctl_value **out, cudnnctl_error *err)
{
        cudnnctl_ver want;
        cc_strv builds = {0};
        cc_kb_answer a;
        int known;

        if (cc_compat_tables(opts, out, err) < 0)
                return -1;
        if (!opts->check_index || opts->cudnn == NULL || cudnnctl_ver_parse(opts->cudnn, &want) < 0)
                return 0;
        known = cc_kb_cudnn_cuda_builds(&want, &builds, &a);
        cc_strv_free(&builds);
        if (known != CC_KB_UNKNOWN)
                return 0;
        if (ask_index(opts, &want, *out, err) < 0) {
                cc_v_free(*out);
                *out = NULL;
                return -1;
        }
        return 0;
}
