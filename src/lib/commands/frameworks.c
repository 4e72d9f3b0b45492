/* cudnnctl_frameworks: which cuDNN each Python framework was built with and
 * which copy it loads. Lists the machine, asks which cuDNN a plain program
 * loads, runs the framework probe in every interpreter found
 * (frameworks/frameworks.c), judges each framework (frameworks/judge.c), and
 * builds the document (docs/json.md, command "frameworks"). */
#include "../facts/views.h"
#include "../frameworks/frameworks.h"
#include "../platform/platform.h"

#include <stdlib.h>
#include <string.h>

/* The which result of the cuDNN shim a plain program loads, or NULL. */
static int plain_program(cc_machine *m, cudnnctl_value **w, const cc_value **res, cc_error *err)
{
        const char *names[] = {"cudnn"};
        cudnnctl_which_options wo;
        cc_vw_which_doc wd;
        size_t i;

        *res = NULL;
        memset(&wo, 0, sizeof(wo));
        if (cudnnctl_which(m, names, 1, &wo, w, err) < 0)
                return -1;
        cc_vw_which_doc_read(*w, &wd, NULL);
        for (i = 0; i < cc_v_len(wd.results); i++) {
                cc_vw_resolution r;

                cc_vw_resolution_at(wd.results, i, &r, NULL);
                if (r.found) {
                        *res = r.node_;
                        break;
                }
        }
        return 0;
}

int cudnnctl_frameworks(cudnnctl_machine *m, const cudnnctl_frameworks_options *opts, cudnnctl_value **out,
                        cudnnctl_error *err)
{
        cudnnctl_frameworks_options defaults;
        cudnnctl_value *list = NULL, *w = NULL;
        cc_value *doc = NULL, *interps = NULL;
        const cc_value *plain = NULL;
        int64_t t0 = cc_monotonic_us();

        if (out == NULL || m == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_frameworks: no machine or no place for the result");
        *out = NULL;
        if (opts == NULL) {
                memset(&defaults, 0, sizeof(defaults));
                opts = &defaults;
        }
        if (!m->live)
                return cc_err(err, CC_ERR_UNSUPPORTED,
                              "frameworks runs Python interpreters, so it looks at this machine only: not with --root "
                              "or another --system");
        if (cudnnctl_list(m, NULL, &list, err) < 0 || plain_program(m, &w, &plain, err) < 0)
                goto fail;
        interps = cc_fw_gather(m, opts, list, err);
        if (interps == NULL || cc_fw_judge(interps, list, plain, opts->expect, m->system == CC_SYS_WINDOWS, err) < 0)
                goto fail;
        doc = cc_doc_new("frameworks", m, err);
        if (doc == NULL)
                goto fail;
        TRY(cc_v_set_str(doc, CC_K(fw_doc, gpu_requested),
                         opts->gpu == CUDNNCTL_GPU_ON    ? "on"
                         : opts->gpu == CUDNNCTL_GPU_OFF ? "off"
                                                         : "auto",
                         err));
        TRY(cc_v_set_str(doc, CC_K(fw_doc, expect), opts->expect, err));
        TRY(cc_v_set(doc, CC_K(fw_doc, plain_program), plain ? cc_v_copy(plain, err) : cc_v_null(err), err));
        TRY(cc_v_set(doc, CC_K(fw_doc, interpreters), interps, err));
        interps = NULL;
        TRY(cc_fw_summary(doc, err));
        TRY(cc_v_set_int(cc_v_getm(doc, CC_K(fw_doc, summary)), CC_K(fw_summary, wall_ms),
                         (cc_monotonic_us() - t0) / 1000, err));
        cc_v_free(list);
        cc_v_free(w);
        *out = doc;
        return 0;
fail:
        cc_v_free(list);
        cc_v_free(w);
        cc_v_free(interps);
        cc_v_free(doc);
        return -1;
}
