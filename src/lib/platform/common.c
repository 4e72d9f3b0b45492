/* Platform helpers written once over the per-system primitives. */
#include "platform.h"

#include <stdlib.h>
#include <string.h>

char *cc_path_join(const char *a, const char *b, cc_error *err)
{
        size_t la = strlen(a);

        if (la == 0)
                return cc_strdup(err, b);
        if (cc_is_sep(a[la - 1]))
                return cc_asprintf(err, "%s%s", a, b);
        return cc_asprintf(err, "%s%c%s", a, cc_path_sep(), b);
}

int cc_read_file(const char *path, size_t max_size, char **out, size_t *len, cc_error *err)
{
        cc_map m;
        char *p;

        *out = NULL;
        if (len)
                *len = 0;
        if (cc_map_file(path, max_size, &m, err) < 0)
                return -1;
        p = cc_strndup(err, m.data ? (const char *)m.data : "", m.size);
        if (p == NULL) {
                cc_unmap(&m);
                return -1;
        }
        if (len)
                *len = m.size;
        cc_unmap(&m);
        *out = p;
        return 0;
}
