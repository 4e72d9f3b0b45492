/* Fuzz target for the dpkg readers: the input is parsed as a status file
 * (and every package looked up again), walked as a .list file, and its
 * first line is split as a .list file name. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/dpkg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int each_path(void *ctx, const char *path, size_t n)
{
        size_t *count = ctx;

        if (strlen(path) != n || n == 0 || path[0] != '/' || (n > 1 && path[n - 1] == '/'))
                abort();
        (*count)++;
        return *count >= 100000 ? 7 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        const char *text = (const char *)data;
        cc_error err = {0};
        cc_dpkg_status *s = NULL;
        volatile size_t sink = 0;
        size_t i, count = 0, n;
        char name[256], pkg[128], arch[64];
        int r;

        if (cc_dpkg_status_parse(text, size, &s, &err) != 0) {
                sink += strlen(err.msg);
                if (s != NULL)
                        abort();
        } else {
                for (i = 0; i < s->warnings.n; i++) {
                        if (strchr(s->warnings.v[i], '\n') != NULL)
                                abort();
                        sink += strlen(s->warnings.v[i]);
                }
                for (i = 0; i < s->n; i++) {
                        const cc_dpkg_pkg *p = &s->pkgs[i];
                        const cc_dpkg_pkg *f;

                        if (p->package == NULL || p->package[0] == '\0')
                                abort();
                        sink += strlen(p->package);
                        if (p->version)
                                sink += strlen(p->version);
                        if (p->source)
                                sink += strlen(p->source);
                        if (p->status)
                                sink += strlen(p->status);
                        if (i < 64) { /* lookups are linear */
                                f = cc_dpkg_find(s, p->package, p->architecture);
                                if (f == NULL || strcmp(f->package, p->package) != 0)
                                        abort();
                                if (cc_dpkg_find(s, p->package, NULL) == NULL)
                                        abort();
                        }
                }
                cc_dpkg_status_free(s);
        }
        r = cc_dpkg_list_each(text, size, each_path, &count);
        if (r != 0 && r != 7)
                abort();
        n = 0;
        while (n < size && n + 1 < sizeof(name) && data[n] != '\n' && data[n] != '\0') {
                name[n] = (char)data[n];
                n++;
        }
        name[n] = '\0';
        if (cc_dpkg_list_name(name, pkg, sizeof(pkg), arch, sizeof(arch)) == 0) {
                if (pkg[0] == '\0' || strchr(pkg, ':') != NULL)
                        abort();
                sink += strlen(pkg) + strlen(arch);
        }
        (void)sink;
        return 0;
}
