/* cudnnctl_plan: the public entry of plan (src/lib/plan/plan.h). The
 * decision is the plan module's, from the facts and the tables; what the
 * command adds is the one request it makes: NVIDIA's redist index, for the
 * releases newer than the tables (unless offline). */
#include "../fetch/fetch.h"
#include "../plan/plan.h"

#include <stdlib.h>
#include <string.h>

int cudnnctl_plan(const cudnnctl_value *facts, const cudnnctl_plan_options *o, cudnnctl_value **out,
                  cudnnctl_error *err)
{
        cc_plan_input *in = calloc(1, sizeof(*in));
        cc_strv versions = {0};
        cc_error ierr = {0};
        int rc = -1;

        *out = NULL;
        if (in == NULL)
                return cc_err(err, CC_ERR_NOMEM, "out of memory");
        if (cc_plan_input_init(in, facts, o, err) < 0)
                goto done;
        if (!o->offline) {
                in->index = o->index != NULL ? o->index : CC_FETCH_REDIST_URL;
                if (cc_fetch_index_versions(CC_FETCH_REDIST, in->index, 0, o->timeout_ms > 0 ? o->timeout_ms : 10000,
                                            &versions, &ierr) < 0) {
                        if (ierr.code == CC_ERR_NOMEM) {
                                *err = ierr;
                                goto done;
                        }
                        in->index_error = ierr.msg;
                } else {
                        in->index_versions = (const char *const *)versions.v;
                        in->nindex_versions = versions.n;
                }
        }
        rc = cc_plan_decide(in, out, err);
done:
        cc_strv_free(&versions);
        free(in);
        return rc;
}
