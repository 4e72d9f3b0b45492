/* HTTP(S) GET for fetch: the index pages, the manifests and the archives.
 * libcurl on Linux (http_curl.c, when the build found it), WinHTTP on
 * Windows (http_winhttp.c). Proxies come from the environment: libcurl
 * reads http_proxy, https_proxy (HTTPS_PROXY), all_proxy and no_proxy
 * itself; the WinHTTP edge reads HTTPS_PROXY / https_proxy, HTTP_PROXY /
 * http_proxy and NO_PROXY / no_proxy (a comma-separated list of host names
 * or suffixes, "*" for every host). Nothing here prints. */
#ifndef CC_NET_HTTP_H
#define CC_NET_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "../common.h"

/* What the server answered, before the first byte of the body. */
typedef struct cc_http_response {
        long status;     /* the final response's status (after redirects): 200, 206 */
        int partial;     /* 1: 206, the body starts at the offset asked for */
        uint64_t length; /* the body's length from Content-Length (of this response, not the whole file); 0: unknown */
        const char *content_type; /* as sent, or "" */
        const char *url;          /* the final URL, after redirects */
} cc_http_response;

typedef struct cc_http_opts {
        uint64_t offset;        /* > 0: ask for the bytes from here on (Range: bytes=OFFSET-) */
        int connect_timeout_ms; /* <= 0: 30000 */
        int idle_timeout_ms;    /* no body byte for this long ends it: "no data for N s from URL"; <= 0: 60000 */
        int max_redirects;      /* < 0: 10; 0: a redirect is an error */
        const char *accept;     /* the Accept header, or NULL */
        size_t max_body;        /* 0: no cap; else a longer body ends it with CC_ERR_LIMIT */
        /* Called once, before the first byte of the body (also for an empty
         * body), with the response of status 2xx; -1 (err set) ends it. */
        int (*start)(void *ctx, const cc_http_response *r, cc_error *err);
        /* The body, in pieces, in order; -1 (err set) ends it. */
        int (*sink)(void *ctx, const void *data, size_t n, cc_error *err);
        void *ctx;
} cc_http_opts;

/* 1 when this build can make HTTP requests, 0 when it was built without
 * (CUDNNCTL_WITH_CURL off or libcurl not found). */
int cc_http_available(void);
/* The backend's name and version ("libcurl/8.5.0", "WinHTTP"), or "none". */
const char *cc_http_backend(void);

/* GET url (http:// or https://), the body through o->sink. 0 when the whole
 * body came (*status: the final status); -1 with a one-line error naming
 * the URL and what went wrong: "HTTP 404 Not Found", "no data for 30 s",
 * "the connection closed after 5000 of 9000 bytes", "more than 10
 * redirects", the resolver's or TLS layer's own words. A status >= 400 is
 * CC_ERR_NOTFOUND for 404 and 410, CC_ERR_IO otherwise; a sink's or
 * start's failure keeps its own error. */
int cc_http_get(const char *url, const cc_http_opts *o, long *status, cc_error *err);

/* The body of url into a new NUL-terminated buffer (caller frees *out), at
 * most max bytes (0: 64 MiB): for index pages and manifests. */
int cc_http_get_small(const char *url, const char *accept, int idle_timeout_ms, size_t max, char **out, size_t *len,
                      char **content_type, cc_error *err);

#endif
