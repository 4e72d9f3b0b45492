/* Fuzz target: the JSON reader. The input is parsed with the default depth
 * and with a small one; when it parses, the tree is written back, the
 * writing is parsed again, and the second writing must equal the first. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void roundtrip(const uint8_t *data, size_t size, int max_depth)
{
        cc_value *v = NULL, *w = NULL;
        cc_buf a = {0}, b = {0};
        cc_error err;

        if (cc_json_parse((const char *)data, size, max_depth, &v, &err) < 0) {
                /* a refusal names the byte, inside the input */
                const char *at = strstr(err.msg, " at byte ");

                if (err.code != CC_ERR_NOMEM && (at == NULL || strtoull(at + 9, NULL, 10) > size))
                        abort();
                if (v != NULL)
                        abort();
                return;
        }
        if (cc_json_write(v, 0, &a, &err) < 0)
                abort();
        /* the writing is no deeper than the input (max_depth <= 64 here) */
        if (cc_json_parse(a.data, a.len, 0, &w, &err) < 0)
                abort();
        if (cc_json_write(w, 0, &b, &err) < 0)
                abort();
        if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
                abort();
        cc_buf_free(&b);
        /* pretty output reads back to the same tree too */
        if (cc_json_write(v, 1, &b, &err) < 0)
                abort();
        cc_v_free(w);
        w = NULL;
        if (cc_json_parse(b.data, b.len, 0, &w, &err) < 0)
                abort();
        cc_buf_free(&b);
        if (cc_json_write(w, 0, &b, &err) < 0)
                abort();
        if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
                abort();
        cc_v_free(v);
        cc_v_free(w);
        cc_buf_free(&a);
        cc_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        roundtrip(data, size, 0);
        roundtrip(data, size, 3);
        return 0;
}
