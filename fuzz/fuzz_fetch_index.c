/* Fuzz target for fetch's index readers (src/lib/fetch/index.c): the
 * first byte picks the reader (redist listing, redist manifest, PyPI JSON,
 * PyPI HTML, a wheel name, a URL reference), the rest is the page. A
 * refusal is one line and leaves nothing; every file handed out has an
 * http(s) URL, a version, a lowercase 64-digit SHA-256 or "", a known
 * system and arch; a listing's releases are digits and dots. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fetch/index.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_files(const cc_fetch_file *f, size_t n)
{
        size_t i, k;

        for (i = 0; i < n; i++) {
                if (f[i].version == NULL || f[i].name == NULL || f[i].url == NULL || f[i].sha256 == NULL)
                        abort();
                if (strncmp(f[i].url, "http://", 7) != 0 && strncmp(f[i].url, "https://", 8) != 0)
                        abort();
                if (f[i].sha256[0] != '\0') {
                        if (strlen(f[i].sha256) != 64)
                                abort();
                        for (k = 0; k < 64; k++)
                                if (!((f[i].sha256[k] >= '0' && f[i].sha256[k] <= '9') ||
                                      (f[i].sha256[k] >= 'a' && f[i].sha256[k] <= 'f')))
                                        abort();
                }
                if (strcmp(f[i].system, "linux") != 0 && strcmp(f[i].system, "windows") != 0)
                        abort();
                if (strcmp(f[i].arch, "x86_64") != 0 && strcmp(f[i].arch, "sbsa") != 0 &&
                    strcmp(f[i].arch, "aarch64") != 0)
                        abort();
        }
}

static void check_err(const cc_error *err)
{
        if (err->msg[0] == '\0' || strchr(err->msg, '\n') != NULL)
                abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        const char *text = (const char *)data + 1;
        size_t len = size ? size - 1 : 0, i, k;
        cc_error err = {0};
        cc_fetch_file *f = NULL;
        cc_strv v = {0};
        size_t n = 0;
        char *s;

        if (size == 0)
                return 0;
        switch (data[0] % 6) {
        case 0:
                if (cc_index_redist_listing(text, len, &v, &err) < 0) {
                        check_err(&err);
                        if (v.n != 0)
                                abort();
                }
                for (i = 0; i < v.n; i++)
                        for (k = 0; v.v[i][k]; k++)
                                if (!((v.v[i][k] >= '0' && v.v[i][k] <= '9') || v.v[i][k] == '.'))
                                        abort();
                cc_strv_free(&v);
                break;
        case 1:
        case 2:
        case 3:
                if ((data[0] % 6 == 1 ? cc_index_redist_files(text, len, "http://127.0.0.1/r/", &f, &n, &err)
                                      : cc_index_pypi_page(text, len, data[0] % 6 == 2, "http://127.0.0.1/s/p/", &f, &n,
                                                           &err)) < 0) {
                        check_err(&err);
                        if (f != NULL || n != 0)
                                abort();
                        break;
                }
                check_files(f, n);
                cc_fetch_file_free(f, n);
                break;
        default:
                /* a wheel name or a URL reference: NUL-terminated copies */
                s = malloc(len + 1);
                if (s == NULL)
                        return 0;
                memcpy(s, text, len);
                s[len] = '\0';
                if (data[0] % 6 == 4) {
                        char ver[64], sys[8], arch[8];
                        int cu = 0;

                        if (cc_wheel_name(s, ver, sizeof(ver), &cu, sys, arch) == 0 && strlen(ver) >= sizeof(ver))
                                abort();
                } else {
                        char *u = cc_url_resolve("http://127.0.0.1:8/a/b/", s, &err);

                        if (u == NULL)
                                check_err(&err);
                        free(u);
                }
                free(s);
                break;
        }
        return 0;
}
