/* Test helper for tests/oracle/json_oracle.py: reads one JSON text from
 * standard input, parses it with cc_json_parse and writes it back compact
 * to standard output (exit 0), or writes the error to standard error
 * (exit 1). Exit 2: the helper itself failed (input too large, write error).
 *
 * With --batch it answers many texts in one process (the oracle sends a few
 * thousand; one process each costs minutes under AddressSanitizer): each
 * input is "LEN\n" and LEN bytes, each answer "RC OUTLEN ERRLEN\n" and the
 * bytes of both, RC being what the single run would exit with. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/json.h"

#define MAX_INPUT ((size_t)64 << 20)

/* One text: 0 written back into *out, 1 refused with the error in *msg,
 * 2 the helper failed (the reason in *msg). */
static int roundtrip(const char *data, size_t len, cc_buf *out, char *msg, size_t msgsz)
{
        cc_error err = {0};
        cc_value *v = NULL;
        int rc;

        out->len = 0;
        if (cc_json_parse(data, len, 0, &v, &err) < 0) {
                snprintf(msg, msgsz, "%s", err.msg);
                return 1;
        }
        rc = 0;
        if (cc_json_write(v, 0, out, &err) < 0) {
                snprintf(msg, msgsz, "json_roundtrip: %s", err.msg);
                rc = 2;
        }
        cc_v_free(v);
        return rc;
}

static int batch(void)
{
        cc_buf out = {0};
        char msg[600];
        size_t len;
        int rc = 0;

        while (scanf("%zu", &len) == 1 && getchar() == '\n') {
                char *data;
                int r;

                if (len > MAX_INPUT || !(data = malloc(len ? len : 1))) {
                        fprintf(stderr, "json_roundtrip: an input of %zu bytes is too large\n", len);
                        rc = 2;
                        break;
                }
                if (fread(data, 1, len, stdin) != len) {
                        fprintf(stderr, "json_roundtrip: standard input ends inside an input\n");
                        free(data);
                        rc = 2;
                        break;
                }
                msg[0] = '\0';
                r = roundtrip(data, len, &out, msg, sizeof(msg));
                free(data);
                if (r == 2) {
                        fprintf(stderr, "%s\n", msg);
                        rc = 2;
                        break;
                }
                printf("%d %zu %zu\n", r, r == 0 ? out.len : 0, r == 0 ? 0 : strlen(msg));
                if (r == 0)
                        fwrite(out.data, 1, out.len, stdout);
                else
                        fputs(msg, stdout);
                if (fflush(stdout) != 0)
                        break;
        }
        if (fflush(stdout) != 0) {
                fprintf(stderr, "json_roundtrip: writing standard output failed\n");
                rc = 2;
        }
        cc_buf_free(&out);
        return rc;
}

int main(int argc, char **argv)
{
        cc_buf in = {0}, out = {0};
        cc_error err = {0};
        char chunk[65536], msg[600];
        size_t n;
        int rc = 2;

        if (argc == 2 && strcmp(argv[1], "--batch") == 0)
                return batch();
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
        rc = roundtrip(in.data ? in.data : "", in.len, &out, msg, sizeof(msg));
        if (rc != 0) {
                fprintf(stderr, "%s\n", msg);
                goto done;
        }
        if (fwrite(out.data, 1, out.len, stdout) != out.len || fflush(stdout) != 0) {
                fprintf(stderr, "json_roundtrip: writing standard output failed\n");
                rc = 2;
        }
done:
        cc_buf_free(&in);
        cc_buf_free(&out);
        return rc;
}
