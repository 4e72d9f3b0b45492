/* HTTP through WinHTTP (http.h): the Windows builds. WinHTTP does not read
 * the proxy variables, so this file does: HTTPS_PROXY / https_proxy for
 * https, HTTP_PROXY / http_proxy for http, and NO_PROXY / no_proxy (host
 * names or suffixes separated by commas, "*" for all) to go direct. */
#include "http.h"

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <winhttp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cc_http_available(void)
{
        return 1;
}

const char *cc_http_backend(void)
{
        return "WinHTTP";
}

static wchar_t *widen(const char *s, cc_error *err)
{
        int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
        wchar_t *w;

        if (n <= 0)
                return cc_err(err, CC_ERR_FORMAT, "%s: not UTF-8", s), NULL;
        w = cc_calloc(err, (size_t)n, sizeof(*w));
        if (w != NULL)
                MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n);
        return w;
}

static char *narrow(const wchar_t *w, cc_error *err)
{
        int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
        char *s;

        if (n <= 0)
                return cc_strdup(err, "");
        s = cc_malloc(err, (size_t)n);
        if (s != NULL)
                WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
        return s;
}

static const char *env2(const char *a, const char *b)
{
        const char *v = getenv(a);

        if (v == NULL || v[0] == '\0')
                v = getenv(b);
        return v != NULL && v[0] != '\0' ? v : NULL;
}

/* Whether host is named by NO_PROXY. */
static int no_proxy_for(const char *host)
{
        const char *np = env2("NO_PROXY", "no_proxy"), *p;
        size_t hl = strlen(host);

        if (np == NULL)
                return 0;
        for (p = np; *p;) {
                size_t n = strcspn(p, ", ");

                if (n == 1 && p[0] == '*')
                        return 1;
                if (n > 0) {
                        const char *e = p[0] == '.' ? p + 1 : p;
                        size_t en = p[0] == '.' ? n - 1 : n;

                        if (hl == en && cc_strncasecmp(host, e, en) == 0)
                                return 1;
                        if (hl > en && host[hl - en - 1] == '.' && cc_strncasecmp(host + hl - en, e, en) == 0)
                                return 1;
                }
                p += n;
                while (*p == ',' || *p == ' ')
                        p++;
        }
        return 0;
}

/* "http://user@proxy:3128/" -> "proxy:3128" (WinHTTP's proxy name). */
static char *proxy_name(const char *v, cc_error *err)
{
        const char *h = strstr(v, "://"), *at;
        size_t n;

        h = h ? h + 3 : v;
        at = strchr(h, '@');
        if (at != NULL && at < h + strcspn(h, "/"))
                h = at + 1;
        n = strcspn(h, "/");
        return cc_strndup(err, h, n);
}

static int win_fail(cc_error *err, const char *url, DWORD e, int idle_s)
{
        switch (e) {
        case ERROR_WINHTTP_TIMEOUT:
                return cc_err(err, CC_ERR_IO, "%s: no data for %d s", url, idle_s);
        case ERROR_WINHTTP_NAME_NOT_RESOLVED:
                return cc_err(err, CC_ERR_IO, "%s: the host name could not be resolved", url);
        case ERROR_WINHTTP_CANNOT_CONNECT:
                return cc_err(err, CC_ERR_IO, "%s: could not connect", url);
        case ERROR_WINHTTP_CONNECTION_ERROR:
                return cc_err(err, CC_ERR_IO, "%s: the connection was reset", url);
        case ERROR_WINHTTP_REDIRECT_FAILED:
                return cc_err(err, CC_ERR_IO, "%s: a redirect could not be followed", url);
        case ERROR_WINHTTP_SECURE_FAILURE:
                return cc_err(err, CC_ERR_IO, "%s: the TLS certificate was refused", url);
        default:
                return cc_err(err, CC_ERR_IO, "%s: WinHTTP error %lu", url, (unsigned long)e);
        }
}

static char *query_str(HINTERNET req, DWORD what, cc_error *err)
{
        DWORD n = 0;
        wchar_t *w;
        char *s;

        WinHttpQueryHeaders(req, what, WINHTTP_HEADER_NAME_BY_INDEX, NULL, &n, WINHTTP_NO_HEADER_INDEX);
        if (n == 0)
                return cc_strdup(err, "");
        w = cc_calloc(err, n / sizeof(wchar_t) + 1, sizeof(wchar_t));
        if (w == NULL)
                return NULL;
        if (!WinHttpQueryHeaders(req, what, WINHTTP_HEADER_NAME_BY_INDEX, w, &n, WINHTTP_NO_HEADER_INDEX))
                w[0] = 0;
        s = narrow(w, err);
        free(w);
        return s;
}

int cc_http_get(const char *url, const cc_http_opts *o, long *status, cc_error *err)
{
        URL_COMPONENTS uc;
        HINTERNET ses = NULL, con = NULL, req = NULL;
        wchar_t *wurl = NULL, *whost = NULL, *wproxy = NULL, *wpath = NULL, *whdr = NULL;
        char *host = NULL, *proxy = NULL, *ctype = NULL, *clen = NULL, *final = NULL, *hdr = NULL, *buf = NULL;
        int rv = -1, https, idle_s = o->idle_timeout_ms > 0 ? (o->idle_timeout_ms + 999) / 1000 : 60;
        int idle_ms = idle_s * 1000, conn_ms = o->connect_timeout_ms > 0 ? o->connect_timeout_ms : 30000;
        DWORD code = 0, n = sizeof(code);
        uint64_t want = 0, got = 0;
        ULONGLONG last = 0;
        const char *pv;

        *status = 0;
        if (!cc_starts_with(url, "http://") && !cc_starts_with(url, "https://"))
                return cc_err(err, CC_ERR_USAGE, "%s: not an http:// or https:// URL", url);
        https = cc_starts_with(url, "https://");
        wurl = widen(url, err);
        if (wurl == NULL)
                goto fail;
        memset(&uc, 0, sizeof(uc));
        uc.dwStructSize = sizeof(uc);
        uc.dwHostNameLength = (DWORD)-1;
        uc.dwUrlPathLength = (DWORD)-1;
        uc.dwExtraInfoLength = (DWORD)-1;
        if (!WinHttpCrackUrl(wurl, 0, 0, &uc)) {
                cc_err(err, CC_ERR_USAGE, "%s: not a URL WinHTTP reads", url);
                goto fail;
        }
        whost = cc_calloc(err, uc.dwHostNameLength + 1, sizeof(wchar_t));
        wpath = cc_calloc(err, uc.dwUrlPathLength + uc.dwExtraInfoLength + 2, sizeof(wchar_t));
        if (whost == NULL || wpath == NULL)
                goto fail;
        memcpy(whost, uc.lpszHostName, uc.dwHostNameLength * sizeof(wchar_t));
        memcpy(wpath, uc.lpszUrlPath, uc.dwUrlPathLength * sizeof(wchar_t));
        if (uc.dwExtraInfoLength) /* the query; a fragment is never sent */
                memcpy(wpath + uc.dwUrlPathLength, uc.lpszExtraInfo, uc.dwExtraInfoLength * sizeof(wchar_t));
        {
                wchar_t *hash = wcschr(wpath, L'#');

                if (hash != NULL)
                        *hash = 0;
                if (wpath[0] == 0)
                        wpath[0] = L'/';
        }
        host = narrow(whost, err);
        if (host == NULL)
                goto fail;
        pv = https ? env2("HTTPS_PROXY", "https_proxy") : env2("HTTP_PROXY", "http_proxy");
        if (pv != NULL && !no_proxy_for(host)) {
                proxy = proxy_name(pv, err);
                if (proxy == NULL || (wproxy = widen(proxy, err)) == NULL)
                        goto fail;
        }
        ses = WinHttpOpen(L"cudnnctl/" CUDNNCTL_VERSION_STRING,
                          wproxy ? WINHTTP_ACCESS_TYPE_NAMED_PROXY : WINHTTP_ACCESS_TYPE_NO_PROXY,
                          wproxy ? wproxy : WINHTTP_NO_PROXY_NAME, WINHTTP_NO_PROXY_BYPASS, 0);
        if (ses == NULL) {
                win_fail(err, url, GetLastError(), idle_s);
                goto fail;
        }
        WinHttpSetTimeouts(ses, conn_ms, conn_ms, idle_ms, idle_ms);
        con = WinHttpConnect(ses, whost, uc.nPort, 0);
        if (con == NULL) {
                win_fail(err, url, GetLastError(), idle_s);
                goto fail;
        }
        req = WinHttpOpenRequest(con, L"GET", wpath, NULL, WINHTTP_NO_REFERER, WINHTTP_DEFAULT_ACCEPT_TYPES,
                                 https ? WINHTTP_FLAG_SECURE : 0);
        if (req == NULL) {
                win_fail(err, url, GetLastError(), idle_s);
                goto fail;
        }
        {
                DWORD pol = o->max_redirects == 0 ? WINHTTP_OPTION_REDIRECT_POLICY_NEVER
                                                  : WINHTTP_OPTION_REDIRECT_POLICY_DISALLOW_HTTPS_TO_HTTP;
                DWORD maxr = (DWORD)(o->max_redirects < 0 ? 10 : o->max_redirects);

                WinHttpSetOption(req, WINHTTP_OPTION_REDIRECT_POLICY, &pol, sizeof(pol));
                if (maxr > 0)
                        WinHttpSetOption(req, WINHTTP_OPTION_MAX_HTTP_AUTOMATIC_REDIRECTS, &maxr, sizeof(maxr));
        }
        hdr = cc_asprintf(err, "%s%s%s", o->accept ? "Accept: " : "", o->accept ? o->accept : "",
                          o->accept ? "\r\n" : "");
        if (hdr != NULL && o->offset > 0) {
                char *h2 = cc_asprintf(err, "%sRange: bytes=%llu-\r\n", hdr, (unsigned long long)o->offset);

                free(hdr);
                hdr = h2;
        }
        if (hdr == NULL || (whdr = widen(hdr, err)) == NULL)
                goto fail;
        if (!WinHttpSendRequest(req, whdr[0] ? whdr : WINHTTP_NO_ADDITIONAL_HEADERS, whdr[0] ? (DWORD)-1L : 0,
                                WINHTTP_NO_REQUEST_DATA, 0, 0, 0) ||
            !WinHttpReceiveResponse(req, NULL)) {
                win_fail(err, url, GetLastError(), idle_s);
                goto fail;
        }
        if (!WinHttpQueryHeaders(req, WINHTTP_QUERY_STATUS_CODE | WINHTTP_QUERY_FLAG_NUMBER,
                                 WINHTTP_HEADER_NAME_BY_INDEX, &code, &n, WINHTTP_NO_HEADER_INDEX)) {
                win_fail(err, url, GetLastError(), idle_s);
                goto fail;
        }
        *status = (long)code;
        if (code >= 300) {
                cc_err(err, code == 404 || code == 410 ? CC_ERR_NOTFOUND : CC_ERR_IO, "%s: HTTP %lu%s", url,
                       (unsigned long)code,
                       code == 404   ? " Not Found"
                       : code == 410 ? " Gone"
                       : code == 403 ? " Forbidden"
                       : code < 400  ? " (a redirect not followed)"
                                     : "");
                goto fail;
        }
        ctype = query_str(req, WINHTTP_QUERY_CONTENT_TYPE, err);
        clen = query_str(req, WINHTTP_QUERY_CONTENT_LENGTH, err);
        if (ctype == NULL || clen == NULL)
                goto fail;
        want = strtoull(clen, NULL, 10);
        {
                DWORD fl = 0;
                wchar_t *wf;

                WinHttpQueryOption(req, WINHTTP_OPTION_URL, NULL, &fl);
                wf = fl ? cc_calloc(err, fl / sizeof(wchar_t) + 1, sizeof(wchar_t)) : NULL;
                if (wf != NULL && WinHttpQueryOption(req, WINHTTP_OPTION_URL, wf, &fl))
                        final = narrow(wf, err);
                free(wf);
        }
        if (o->start != NULL) {
                cc_http_response r;

                memset(&r, 0, sizeof(r));
                r.status = (long)code;
                r.partial = code == 206;
                r.length = want;
                r.content_type = ctype;
                r.url = final ? final : url;
                if (o->start(o->ctx, &r, err) < 0)
                        goto fail;
        }
        last = GetTickCount64();
        buf = cc_malloc(err, 1u << 18);
        if (buf == NULL)
                goto fail;
        for (;;) {
                DWORD rd = 0;

                if (!WinHttpReadData(req, buf, 1u << 18, &rd)) {
                        DWORD e = GetLastError();

                        if (e != ERROR_WINHTTP_TIMEOUT && GetTickCount64() - last >= (ULONGLONG)idle_ms)
                                e = ERROR_WINHTTP_TIMEOUT; /* the read ended after the idle limit: that is why */
                        if (want != 0 && e != ERROR_WINHTTP_TIMEOUT)
                                cc_err(err, CC_ERR_TRUNCATED, "%s: the connection closed after %llu of %llu bytes", url,
                                       (unsigned long long)got, (unsigned long long)want);
                        else
                                win_fail(err, url, e, idle_s);
                        goto fail;
                }
                if (rd == 0)
                        break;
                last = GetTickCount64();
                got += rd;
                if (o->max_body != 0 && got > o->max_body) {
                        cc_err(err, CC_ERR_LIMIT, "%s: the response is larger than %zu bytes", url, o->max_body);
                        goto fail;
                }
                if (o->sink != NULL && o->sink(o->ctx, buf, rd, err) < 0)
                        goto fail;
        }
        if (want != 0 && got < want) {
                cc_err(err, CC_ERR_TRUNCATED, "%s: the connection closed after %llu of %llu bytes", url,
                       (unsigned long long)got, (unsigned long long)want);
                goto fail;
        }
        rv = 0;
fail:
        if (req)
                WinHttpCloseHandle(req);
        if (con)
                WinHttpCloseHandle(con);
        if (ses)
                WinHttpCloseHandle(ses);
        free(wurl);
        free(whost);
        free(wproxy);
        free(wpath);
        free(whdr);
        free(host);
        free(proxy);
        free(ctype);
        free(clen);
        free(final);
        free(hdr);
        free(buf);
        return rv;
}

#endif
