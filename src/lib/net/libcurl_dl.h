/* libcurl through a table of function pointers, loaded with dlopen the
 * first time a download starts (platform/dynload.h), so that the commands
 * that never download do not load it and the libraries it pulls in (TLS,
 * Kerberos, LDAP...) at start-up. A build that finds no SONAME for it, or
 * is configured with CUDNNCTL_DLOPEN=OFF, links it and the same table holds
 * its own addresses: the call sites are the same either way.
 *
 * Include this instead of <curl/curl.h>: it includes it for its types, then
 * renames each function used to its slot in the table. Call
 * cc_libcurl_load before the first call. */
#ifndef CC_LIBCURL_DL_H
#define CC_LIBCURL_DL_H

#include "../platform/dynload.h"

#ifndef CC_HAVE_CURL
#define CC_HAVE_CURL 0
#endif

#if CC_HAVE_CURL && !defined(_WIN32)
#include <curl/curl.h>

/* Every libcurl function that http_curl.c calls. */
#define CC_LIBCURL_FUNCS(X)                                                                                            \
        X(curl_global_init)                                                                                            \
        X(curl_version_info)                                                                                           \
        X(curl_easy_init)                                                                                              \
        X(curl_easy_setopt)                                                                                            \
        X(curl_easy_perform)                                                                                           \
        X(curl_easy_getinfo)                                                                                           \
        X(curl_easy_cleanup)                                                                                           \
        X(curl_easy_strerror)                                                                                          \
        X(curl_slist_append)                                                                                           \
        X(curl_slist_free_all)

enum { CC_LIBCURL_N = 0 CC_LIBCURL_FUNCS(CC_DYNLOAD_COUNT) };

/* The table: typed members to call (curl_easy_setopt and curl_easy_getinfo
 * variadic, as declared), the same pointers as an array for cc_dynload. */
union cc_libcurl_fns {
        struct {
                CC_LIBCURL_FUNCS(CC_DYNLOAD_MEMBER)
        } f;
        cc_dynfn slot[CC_LIBCURL_N];
};
extern union cc_libcurl_fns cc_curl;

/* 0 when libcurl can be called (loaded now or before, or linked); else -1
 * with one line: which library, why, and how to get it (the same line
 * every time). Thread-safe. */
int cc_libcurl_load(cc_error *err);

#ifndef CC_LIBCURL_DL_IMPL
/* curl.h makes curl_easy_setopt and curl_easy_getinfo macros of three
 * arguments (with gcc, typecheck-gcc.h's, which check the argument's type
 * against the option at compile time and then call the function by its
 * name, which cannot be redirected). They become plain calls through the
 * table: the compile-time check of the option's argument type is lost, the
 * calls are the same. */
#undef curl_easy_setopt
#undef curl_easy_getinfo
#define curl_global_init (cc_curl.f.curl_global_init)
#define curl_version_info (cc_curl.f.curl_version_info)
#define curl_easy_init (cc_curl.f.curl_easy_init)
#define curl_easy_setopt (cc_curl.f.curl_easy_setopt)
#define curl_easy_perform (cc_curl.f.curl_easy_perform)
#define curl_easy_getinfo (cc_curl.f.curl_easy_getinfo)
#define curl_easy_cleanup (cc_curl.f.curl_easy_cleanup)
#define curl_easy_strerror (cc_curl.f.curl_easy_strerror)
#define curl_slist_append (cc_curl.f.curl_slist_append)
#define curl_slist_free_all (cc_curl.f.curl_slist_free_all)
#endif

#endif /* CC_HAVE_CURL */
#endif
