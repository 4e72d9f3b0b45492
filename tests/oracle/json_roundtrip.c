/* Test helper for tests/oracle/json_oracle.py: reads one JSON text from
 * standard input, parses it with cc_json_parse and writes it back compact
 * to standard output (exit 0), or writes the error to standard error
 * (exit 1). Exit 2: the helper itself failed (input too large, write error). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/json.h"

#define MAX_INPUT ((size_t)64 << 20)

int main(void)
{
        cc_buf in = {0}, out = {0};
        cc_error err = {0};
        cc_value *v = NULL;
        char chunk[65536];
        size_t n;
        int rc = 2;

        in.max = MAX_INPUT;
        while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0) {
                if (cc_buf_append(&in, chunk, n, &err) < 0) {
                        fprintf(stderr, "json_roundtrip: %s\n", err.msg);
                        goto done;
                }
        }
        if (ferror(stdin)) {
                fprintf(stderr, "json_roundtrip: reading standard input failed\n");
                goto done;
        }
        if (cc_json_parse(in.data, in.len, 0, &v, &err) < 0) {
                fprintf(stderr, "%s\n", err.msg);
                rc = 1;
                goto done;
        }
        if (cc_json_write(v, 0, &out, &err) < 0) {
                fprintf(stderr, "json_roundtrip: %s\n", err.msg);
                goto done;
        }
        if (fwrite(out.data, 1, out.len, stdout) != out.len || fflush(stdout) != 0) {
                fprintf(stderr, "json_roundtrip: writing standard output failed\n");
                goto done;
        }
        rc = 0;
done:
        cc_v_free(v);
        cc_buf_free(&in);
        cc_buf_free(&out);
        return rc;
}
