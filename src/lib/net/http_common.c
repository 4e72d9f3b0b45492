/* What every HTTP backend shares (http.h): a small body into memory. */
#include "http.h"

#include <stdlib.h>
#include <string.h>

struct small {
        cc_buf b;
        char *ctype;
};

static int small_start(void *ctx, const cc_http_response *r, cc_error *err)
{
        struct small *s = ctx;

        s->ctype = cc_strdup(err, r->content_type ? r->content_type : "");
        return s->ctype == NULL ? -1 : 0;
}

static int small_sink(void *ctx, const void *data, size_t n, cc_error *err)
{
        struct small *s = ctx;

        return cc_buf_append(&s->b, data, n, err);
}

int cc_http_get_small(const char *url, const char *accept, int idle_timeout_ms, size_t max, char **out, size_t *len,
                      char **content_type, cc_error *err)
{
        struct small s;
        cc_http_opts o;
        long status = 0;

        *out = NULL;
        *len = 0;
        if (content_type != NULL)
                *content_type = NULL;
        memset(&s, 0, sizeof(s));
        memset(&o, 0, sizeof(o));
        s.b.max = max ? max : (size_t)64 << 20;
        o.idle_timeout_ms = idle_timeout_ms;
        o.connect_timeout_ms = idle_timeout_ms;
        o.max_redirects = -1;
        o.accept = accept;
        o.max_body = s.b.max;
        o.start = small_start;
        o.sink = small_sink;
        o.ctx = &s;
        if (cc_http_get(url, &o, &status, err) < 0 || (s.b.data == NULL && cc_buf_append(&s.b, "", 0, err) < 0)) {
                cc_buf_free(&s.b);
                free(s.ctype);
                return -1;
        }
        *len = s.b.len;
        *out = cc_buf_steal(&s.b);
        if (content_type != NULL)
                *content_type = s.ctype;
        else
                free(s.ctype);
        return 0;
}
