/* Fuzz target for NVIDIA's redistrib manifest reader (what `install
 * --manifest` holds an archive to, and `fetch` picks downloads from):
 * parse, then check what it hands out: a refusal is one line and leaves
 * nothing; every file has its strings, a relative path that cannot leave
 * the manifest's directory, lowercase digests of the right length (at least
 * one of the two), and a variant named or "". */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/redistrib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int lower_hex(const char *s, size_t n)
{
        size_t i;

        for (i = 0; i < n; i++)
                if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
                        return 0;
        return s[n] == '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        cc_redist_file *v = (cc_redist_file *)&size; /* reset by the parser */
        cc_error err = {0};
        size_t n = 7, i;

        if (cc_redist_parse((const char *)data, size, &v, &n, &err) != 0) {
                if (strchr(err.msg, '\n') != NULL || err.msg[0] == '\0' || v != NULL || n != 0)
                        abort();
                return 0;
        }
        if (n == 0 || v == NULL)
                abort();
        for (i = 0; i < n; i++) {
                const cc_redist_file *f = &v[i];
                const char *p = f->relative_path;

                if (f->product == NULL || f->version == NULL || f->platform == NULL || f->variant == NULL ||
                    p == NULL || f->sha256 == NULL || f->md5 == NULL)
                        abort();
                if (p[0] == '\0' || p[0] == '/' || strchr(p, '\\') != NULL || strstr(p, "//") != NULL ||
                    strcmp(p, "..") == 0 || strncmp(p, "../", 3) == 0 || strstr(p, "/../") != NULL ||
                    (strlen(p) >= 3 && strcmp(p + strlen(p) - 3, "/..") == 0))
                        abort();
                for (; *p; p++)
                        if ((unsigned char)*p < 0x20 || *p == 0x7f)
                                abort();
                if (f->sha256[0] ? !lower_hex(f->sha256, 64) : 0)
                        abort();
                if (f->md5[0] ? !lower_hex(f->md5, 32) : 0)
                        abort();
                if (!f->sha256[0] && !f->md5[0])
                        abort();
        }
        cc_redist_free(v, n);
        return 0;
}
