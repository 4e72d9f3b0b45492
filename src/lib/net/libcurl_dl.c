/* The table of libcurl_dl.h: filled by dlopen when the build found
 * libcurl's soname (CC_SONAME_LIBCURL, from CMakeLists.txt), else its
 * functions' own addresses (the build links it). */
#define CC_LIBCURL_DL_IMPL
#include "libcurl_dl.h"

#if CC_HAVE_CURL && !defined(_WIN32)

_Static_assert(sizeof(union cc_libcurl_fns) == sizeof(cc_dynfn[CC_LIBCURL_N]),
               "the libcurl table is one pointer per function");

#ifdef CC_SONAME_LIBCURL

union cc_libcurl_fns cc_curl;

static const char *const curl_names[] = {CC_LIBCURL_FUNCS(CC_DYNLOAD_NAME) NULL};

static cc_dynlib curl_lib = {
    .soname = CC_SONAME_LIBCURL,
    .names = curl_names,
    .fns = cc_curl.slot,
    .without = "nothing can be downloaded without it",
};

int cc_libcurl_load(cc_error *err)
{
        return cc_dynload(&curl_lib, err);
}

#else

union cc_libcurl_fns cc_curl = {.f = {CC_LIBCURL_FUNCS(CC_DYNLOAD_ADDR)}};

int cc_libcurl_load(cc_error *err)
{
        (void)err;
        return 0;
}

#endif
#endif /* CC_HAVE_CURL */
