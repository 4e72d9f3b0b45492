/* HTTP through libcurl (http.h): Linux and other POSIX builds. Without
 * libcurl (CC_HAVE_CURL 0) every request fails with one line saying so. */
#include "http.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)

#if CC_HAVE_CURL
/* <curl/curl.h>, and libcurl's functions through a table loaded when
 * first needed (cc_libcurl_load) */
#include "libcurl_dl.h"

struct xfer {
        const cc_http_opts *o;
        CURL *c;
        const char *url;
        cc_error *err;
        int started;   /* start called */
        int failed;    /* start or sink said stop (err set) */
        int discard;   /* a status >= 300: the body is not the file */
        uint64_t got;  /* body bytes of the final response */
        uint64_t want; /* its Content-Length, 0 unknown */
};

static int once_done;

static int global_init(cc_error *err)
{
        /* The CLI is single-threaded when it first asks; the library's
         * callers are told to call it from one thread (curl's own rule). */
        if (!once_done) {
                /* loaded by the first request: every command that never
                 * downloads runs without it */
                TRY_RET(cc_libcurl_load(err));
                if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
                        return cc_err(err, CC_ERR_IO, "libcurl could not be initialised");
                once_done = 1;
        }
        return 0;
}

int cc_http_available(void)
{
        return 1;
}

const char *cc_http_backend(void)
{
        static char name[64];

        if (name[0] == '\0') {
                const curl_version_info_data *v;

                if (cc_libcurl_load(NULL) < 0)
                        return "libcurl (cannot be loaded)";
                v = curl_version_info(CURLVERSION_NOW);

                snprintf(name, sizeof(name), "libcurl/%s", v && v->version ? v->version : "?");
        }
        return name;
}

static int start_now(struct xfer *x)
{
        cc_http_response r;
        long code = 0;
        curl_off_t len = -1;
        char *ct = NULL, *eff = NULL;

        x->started = 1;
        curl_easy_getinfo(x->c, CURLINFO_RESPONSE_CODE, &code);
        if (code >= 300) {
                x->discard = 1;
                return 0;
        }
        curl_easy_getinfo(x->c, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &len);
        curl_easy_getinfo(x->c, CURLINFO_CONTENT_TYPE, &ct);
        curl_easy_getinfo(x->c, CURLINFO_EFFECTIVE_URL, &eff);
        memset(&r, 0, sizeof(r));
        r.status = code;
        r.partial = code == 206;
        r.length = len > 0 ? (uint64_t)len : 0;
        r.content_type = ct ? ct : "";
        r.url = eff ? eff : x->url;
        x->want = r.length;
        if (x->o->start != NULL && x->o->start(x->o->ctx, &r, x->err) < 0) {
                x->failed = 1;
                return -1;
        }
        return 0;
}

static size_t on_body(char *p, size_t size, size_t nmemb, void *ctx)
{
        struct xfer *x = ctx;
        size_t n = size * nmemb;

        if (!x->started && start_now(x) < 0)
                return 0;
        if (x->discard)
                return n;
        x->got += n;
        if (x->o->max_body != 0 && x->got > x->o->max_body) {
                cc_err(x->err, CC_ERR_LIMIT, "%s: the response is larger than %zu bytes", x->url, x->o->max_body);
                x->failed = 1;
                return 0;
        }
        if (x->o->sink != NULL && x->o->sink(x->o->ctx, p, n, x->err) < 0) {
                x->failed = 1;
                return 0;
        }
        return n;
}

static const char *reason(long code)
{
        switch (code) {
        case 400:
                return " Bad Request";
        case 401:
                return " Unauthorized";
        case 403:
                return " Forbidden";
        case 404:
                return " Not Found";
        case 410:
                return " Gone";
        case 416:
                return " Range Not Satisfiable";
        case 500:
                return " Internal Server Error";
        case 502:
                return " Bad Gateway";
        case 503:
                return " Service Unavailable";
        default:
                return "";
        }
}

int cc_http_get(const char *url, const cc_http_opts *o, long *status, cc_error *err)
{
        struct xfer x;
        CURLcode rc;
        char ebuf[CURL_ERROR_SIZE], range[48];
        struct curl_slist *hdr = NULL;
        char *accept = NULL;
        long code = 0;
        int rv = -1, idle_s = o->idle_timeout_ms > 0 ? (o->idle_timeout_ms + 999) / 1000 : 60;

        *status = 0;
        memset(&x, 0, sizeof(x));
        x.o = o;
        x.url = url;
        x.err = err;
        if (!cc_starts_with(url, "http://") && !cc_starts_with(url, "https://"))
                return cc_err(err, CC_ERR_USAGE, "%s: not an http:// or https:// URL", url);
        TRY_RET(global_init(err));
        x.c = curl_easy_init();
        if (x.c == NULL)
                return cc_err(err, CC_ERR_NOMEM, "%s: libcurl could not start a transfer", url);
        ebuf[0] = '\0';
        curl_easy_setopt(x.c, CURLOPT_URL, url);
        curl_easy_setopt(x.c, CURLOPT_ERRORBUFFER, ebuf);
        curl_easy_setopt(x.c, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(x.c, CURLOPT_FOLLOWLOCATION, o->max_redirects == 0 ? 0L : 1L);
        curl_easy_setopt(x.c, CURLOPT_MAXREDIRS, (long)(o->max_redirects < 0 ? 10 : o->max_redirects));
        curl_easy_setopt(x.c, CURLOPT_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(x.c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(x.c, CURLOPT_CONNECTTIMEOUT_MS,
                         (long)(o->connect_timeout_ms > 0 ? o->connect_timeout_ms : 30000));
        /* An idle connection: less than one byte a second for idle_s seconds. */
        curl_easy_setopt(x.c, CURLOPT_LOW_SPEED_LIMIT, 1L);
        curl_easy_setopt(x.c, CURLOPT_LOW_SPEED_TIME, (long)idle_s);
        curl_easy_setopt(x.c, CURLOPT_USERAGENT, "cudnnctl/" CUDNNCTL_VERSION_STRING);
        curl_easy_setopt(x.c, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(x.c, CURLOPT_WRITEDATA, &x);
        curl_easy_setopt(x.c, CURLOPT_BUFFERSIZE, 512L * 1024);
        curl_easy_setopt(x.c, CURLOPT_ACCEPT_ENCODING, NULL);
        if (o->offset > 0) {
                snprintf(range, sizeof(range), "%llu-", (unsigned long long)o->offset);
                curl_easy_setopt(x.c, CURLOPT_RANGE, range);
        }
        if (o->accept != NULL) {
                accept = cc_asprintf(err, "Accept: %s", o->accept);
                if (accept == NULL)
                        goto fail;
                hdr = curl_slist_append(NULL, accept);
                if (hdr == NULL) {
                        cc_err(err, CC_ERR_NOMEM, "out of memory");
                        goto fail;
                }
                curl_easy_setopt(x.c, CURLOPT_HTTPHEADER, hdr);
        }
        rc = curl_easy_perform(x.c);
        curl_easy_getinfo(x.c, CURLINFO_RESPONSE_CODE, &code);
        *status = code;
        if (x.failed)
                goto fail;
        if (rc == CURLE_OPERATION_TIMEDOUT) {
                cc_err(err, CC_ERR_IO, "%s: no data for %d s", url, idle_s);
                goto fail;
        }
        if (rc == CURLE_PARTIAL_FILE || (rc == CURLE_OK && code < 300 && x.want != 0 && x.got < x.want)) {
                cc_err(err, CC_ERR_TRUNCATED, "%s: the connection closed after %llu of %llu bytes", url,
                       (unsigned long long)x.got, (unsigned long long)x.want);
                goto fail;
        }
        if (rc == CURLE_TOO_MANY_REDIRECTS) {
                cc_err(err, CC_ERR_IO, "%s: more than %d redirects", url, o->max_redirects < 0 ? 10 : o->max_redirects);
                goto fail;
        }
        if (rc != CURLE_OK) {
                cc_err(err, CC_ERR_IO, "%s: %s", url, ebuf[0] ? ebuf : curl_easy_strerror(rc));
                goto fail;
        }
        if (code >= 300) {
                cc_err(err, code == 404 || code == 410 ? CC_ERR_NOTFOUND : CC_ERR_IO, "%s: HTTP %ld%s", url, code,
                       code < 400 ? " (a redirect not followed)" : reason(code));
                goto fail;
        }
        if (!x.started && start_now(&x) < 0)
                goto fail;
        rv = 0;
fail:
        curl_slist_free_all(hdr);
        free(accept);
        curl_easy_cleanup(x.c);
        return rv;
}

#else /* no libcurl */

int cc_http_available(void)
{
        return 0;
}

const char *cc_http_backend(void)
{
        return "none";
}

int cc_http_get(const char *url, const cc_http_opts *o, long *status, cc_error *err)
{
        (void)o;
        *status = 0;
        return cc_err(err, CC_ERR_UNSUPPORTED,
                      "%s: this cudnnctl was built without HTTP support (libcurl): use --offline with a cache, or "
                      "download the file and run 'cudnnctl install FILE'",
                      url);
}

#endif
#endif
