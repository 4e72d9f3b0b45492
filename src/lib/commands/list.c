/* cudnnctl_list: every cuDNN installation on a machine, as one document
 * (docs/json.md, command "list"). */
#include "../discover/discover.h"

#include <stdlib.h>
#include <string.h>

int cudnnctl_list(cudnnctl_machine *m, const cudnnctl_list_options *opts, cudnnctl_value **out, cudnnctl_error *err)
{
        cc_discovery *d = NULL;
        cc_value *doc = NULL, *body = NULL;

        if (out == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_list: no place for the result");
        *out = NULL;
        if (m == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_list: no machine");
        doc = cc_doc_new("list", m, err);
        if (doc == NULL)
                return -1;
        if (cc_discover(m, opts, &d, err) < 0)
                goto fail;
        body = cc_discovery_facts(d, err);
        if (body == NULL)
                goto fail;
        /* the body's members after the document's header, in their order */
        while (cc_v_len(body) > 0) {
                char *key = cc_strdup(err, cc_v_key_at(body, 0));

                if (key == NULL)
                        goto fail;
                if (cc_v_set(doc, key, cc_v_take(body, key), err) < 0) {
                        free(key);
                        goto fail;
                }
                free(key);
        }
        cc_v_free(body);
        cc_discovery_free(d);
        *out = doc;
        return 0;
fail:
        cc_v_free(body);
        cc_v_free(doc);
        cc_discovery_free(d);
        return -1;
}
