/* Fuzz target: `cudnnctl diff` on documents of any shape. The input is two
 * JSON texts separated by a NUL byte (no NUL: the text against itself);
 * each that parses and passes cc_diff_check is compared with the other,
 * with and without the run-to-run facts, and rendered as text. Nothing may
 * crash; a text against itself must have no differences. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "commands/diff.h"
#include "formats/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        const char *s = (const char *)data, *nul = memchr(data, 0, size);
        size_t na = nul ? (size_t)(nul - s) : size;
        cc_value *a = NULL, *b = NULL;
        cc_error err;
        int all;

        if (cc_json_parse(s, na, 0, &a, &err) < 0 || cc_diff_check(a, &err) < 0)
                goto done;
        if (nul == NULL)
                b = cc_v_copy(a, &err);
        else if (cc_json_parse(nul + 1, size - na - 1, 0, &b, &err) < 0 || cc_diff_check(b, &err) < 0)
                goto done;
        if (b == NULL)
                goto done;
        for (all = 0; all < 2; all++) {
                cc_value *d = NULL;
                char *text = NULL;

                if (cc_diff_docs(a, b, "a", "b", all, &d, &err) < 0) {
                        if (err.code != CC_ERR_NOMEM)
                                abort();
                        continue;
                }
                if (nul == NULL && cudnnctl_value_int(cudnnctl_value_path(d, "summary/differences")) != 0)
                        abort();
                if (cudnnctl_diff_text(d, 0, all, &text, &err) < 0 && err.code != CC_ERR_NOMEM)
                        abort();
                free(text);
                cc_v_free(d);
        }
done:
        cc_v_free(a);
        cc_v_free(b);
        return 0;
}
