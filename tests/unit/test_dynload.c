/* The loader of optional libraries (src/lib/platform/dynload.c) and the
 * tables that use it (inspect/libarchive_dl.h, net/libcurl_dl.h): a soname
 * that does not exist fails with one line naming it, and every later call
 * fails the same way without trying again; a real library's functions are
 * callable through the table; a missing function fails naming it and
 * leaves nothing filled; threads that ask at once all get the one load;
 * libarchive, liblzma and libcurl are not in the process before their
 * first use (when the build opens them with dlopen) and are after it. */
#define _GNU_SOURCE
#include "testutil.h"

#include "platform/dynload.h"
#include "inspect/libarchive_dl.h"
#include "net/libcurl_dl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<gnu/lib-names.h>)
#include <gnu/lib-names.h>
#endif
#endif
#ifndef LIBM_SO
#define LIBM_SO "libm.so.6"
#endif
#ifndef LIBC_SO
#define LIBC_SO "libc.so.6"
#endif

#define NO_SUCH "libcudnnctl-no-such-library.so.7"

static void assert_one_line(const char *msg)
{
        assert_non_null(msg);
        assert_true(msg[0] != '\0');
        assert_null(strchr(msg, '\n'));
}

static int starts_with(const char *s, const char *prefix)
{
        return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_missing_library(void **state)
{
        static const char *const names[] = {"cos", NULL};
        cc_dynfn fns[1] = {NULL};
        cc_dynlib lib = {.soname = NO_SUCH, .names = names, .fns = fns, .without = "nothing works without it"};
        cc_error err, again;
        char first[sizeof(err.msg)];

        (void)state;
        memset(&err, 0, sizeof(err));
        assert_int_equal(cc_dynload(&lib, &err), -1);
        assert_int_equal(err.code, CC_ERR_UNSUPPORTED);
        assert_one_line(err.msg);
        /* the soname first, the loader's reason, what it is for, where to get it */
        assert_true(starts_with(err.msg, NO_SUCH " could not be loaded ("));
        assert_non_null(strstr(err.msg, "): nothing works without it"));
        assert_non_null(strstr(err.msg, "(Debian: apt-get install libcudnnctl-no-such-library7)"));
        assert_null(fns[0]);
        snprintf(first, sizeof(first), "%s", err.msg);

        /* Not tried again: even pointed at a library that loads, the same
         * failure, the same words. */
        lib.soname = LIBM_SO;
        memset(&again, 0, sizeof(again));
        assert_int_equal(cc_dynload(&lib, &again), -1);
        assert_int_equal(again.code, CC_ERR_UNSUPPORTED);
        assert_string_equal(again.msg, first);
        assert_null(fns[0]);
        /* and without an error to fill */
        assert_int_equal(cc_dynload(&lib, NULL), -1);
}

static void test_real_library(void **state)
{
        static const char *const names[] = {"cos", "sqrt", NULL};
        cc_dynfn fns[2] = {NULL, NULL};
        cc_dynlib lib = {.soname = LIBM_SO, .names = names, .fns = fns, .without = "no maths"};
        cc_error err;
        double (*c)(double), (*r)(double);
        cc_dynfn kept;

        (void)state;
        memset(&err, 0, sizeof(err));
        assert_int_equal(cc_dynload(&lib, &err), 0);
        assert_int_equal(err.code, 0);
        assert_non_null(fns[0]);
        assert_non_null(fns[1]);
        c = (double (*)(double))fns[0];
        r = (double (*)(double))fns[1];
        assert_true(c(0.0) == 1.0);
        assert_true(r(16.0) == 4.0);
        /* loaded once: the second call changes nothing */
        kept = fns[0];
        assert_int_equal(cc_dynload(&lib, &err), 0);
        assert_true(fns[0] == kept);
}

static void test_missing_function(void **state)
{
        static const char *const names[] = {"cos", "sqrt", "cc_no_such_function_in_libm", "floor", NULL};
        cc_dynfn fns[4] = {NULL, NULL, NULL, NULL};
        cc_dynlib lib = {.soname = LIBM_SO, .names = names, .fns = fns, .without = "no maths"};
        cc_error err;
        size_t i;

        (void)state;
        memset(&err, 0, sizeof(err));
        assert_int_equal(cc_dynload(&lib, &err), -1);
        assert_int_equal(err.code, CC_ERR_UNSUPPORTED);
        assert_one_line(err.msg);
        assert_true(starts_with(err.msg, LIBM_SO " could not be loaded ("));
        assert_non_null(strstr(err.msg, "cc_no_such_function_in_libm"));
        assert_non_null(strstr(err.msg, ": no maths"));
        /* all or nothing: the functions found before it are not left behind */
        for (i = 0; i < 4; i++)
                assert_null(fns[i]);
}

static void test_package_names(void **state)
{
        static const char *const names[] = {"f", NULL};
        static const struct {
                const char *soname, *hint;
        } cases[] = {
            {"libnosuchfoo2.so.1", "(Debian: apt-get install libnosuchfoo2-1)"},
            {"libnosuchbar.so.13.6.2", "(Debian: apt-get install libnosuchbar13)"},
        };
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                cc_dynfn fns[1] = {NULL};
                cc_dynlib lib = {.soname = cases[i].soname, .names = names, .fns = fns};
                cc_error err;

                memset(&err, 0, sizeof(err));
                assert_int_equal(cc_dynload(&lib, &err), -1);
                assert_one_line(err.msg);
                assert_non_null(strstr(err.msg, cases[i].hint));
        }
        {
                /* a name outside the policy gets no guess; one given is used */
                cc_dynfn fns[1] = {NULL};
                cc_dynlib lib = {.soname = "nosuch-plugin.bin", .names = names, .fns = fns, .package = "nosuch-pkg"};
                cc_dynlib bare = {.soname = "nosuch-plugin.bin", .names = names, .fns = fns};
                cc_error err;

                memset(&err, 0, sizeof(err));
                assert_int_equal(cc_dynload(&lib, &err), -1);
                assert_non_null(strstr(err.msg, "(Debian: apt-get install nosuch-pkg)"));
                memset(&err, 0, sizeof(err));
                assert_int_equal(cc_dynload(&bare, &err), -1);
                assert_null(strstr(err.msg, "Debian"));
        }
}

/* ---- threads asking at once ------------------------------------------------ */

#define NTHREADS 8

static const char *const thread_names[] = {"strlen", "memchr", NULL};
static cc_dynfn thread_fns[2];
static cc_dynlib thread_lib = {.soname = LIBC_SO, .names = thread_names, .fns = thread_fns};

typedef size_t (*strlen_fn)(const char *);

struct asker {
        int rv;
        size_t len;
};

static void *ask(void *p)
{
        struct asker *a = p;
        cc_error err;

        memset(&err, 0, sizeof(err));
        a->rv = cc_dynload(&thread_lib, &err);
        if (a->rv == 0)
                a->len = ((strlen_fn)thread_fns[0])("cudnnctl");
        return NULL;
}

static void test_threads(void **state)
{
        pthread_t t[NTHREADS];
        struct asker a[NTHREADS];
        size_t i;

        (void)state;
        memset(a, 0, sizeof(a));
        for (i = 0; i < NTHREADS; i++)
                assert_int_equal(pthread_create(&t[i], NULL, ask, &a[i]), 0);
        for (i = 0; i < NTHREADS; i++) {
                assert_int_equal(pthread_join(t[i], NULL), 0);
                assert_int_equal(a[i].rv, 0);
                assert_int_equal(a[i].len, 8);
        }
}

/* ---- the build's own tables ----------------------------------------------- */

#if defined(CC_SONAME_LIBARCHIVE) || defined(CC_SONAME_LIBCURL)
/* 1 if the library is in the process already (without loading it). */
static int mapped(const char *soname)
{
        void *h = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);

        if (h == NULL)
                return 0;
        dlclose(h);
        return 1;
}
#endif

static void test_libarchive_table(void **state)
{
        (void)state;
#if CC_HAVE_LIBARCHIVE
        {
                cc_error err;
                struct archive *a;
                size_t i;

#ifdef CC_SONAME_LIBARCHIVE
                /* not linked: nothing of it before the first use */
                assert_false(mapped(CC_SONAME_LIBARCHIVE));
#endif
                memset(&err, 0, sizeof(err));
                assert_int_equal(cc_libarchive_load(&err), 0);
                for (i = 0; i < CC_LIBARCHIVE_N; i++)
                        assert_non_null(cc_la.slot[i]);
#ifdef CC_SONAME_LIBARCHIVE
                assert_true(mapped(CC_SONAME_LIBARCHIVE));
#endif
                /* called through the table by its own name */
                a = archive_read_new();
                assert_non_null(a);
                assert_int_equal(archive_read_support_format_all(a), ARCHIVE_OK);
                assert_int_equal(archive_read_free(a), ARCHIVE_OK);
#if CC_HAVE_LZMA_MT
                assert_int_equal(cc_liblzma_load(&err), 0);
                for (i = 0; i < CC_LIBLZMA_N; i++)
                        assert_non_null(cc_lzma.slot[i]);
                assert_true(lzma_cputhreads() >= 1);
#endif
        }
#else
        skip();
#endif
}

static void test_libcurl_table(void **state)
{
        (void)state;
#if CC_HAVE_CURL
        {
                cc_error err;
                const curl_version_info_data *v;
                size_t i;

#ifdef CC_SONAME_LIBCURL
                assert_false(mapped(CC_SONAME_LIBCURL));
#endif
                memset(&err, 0, sizeof(err));
                assert_int_equal(cc_libcurl_load(&err), 0);
                for (i = 0; i < CC_LIBCURL_N; i++)
                        assert_non_null(cc_curl.slot[i]);
#ifdef CC_SONAME_LIBCURL
                assert_true(mapped(CC_SONAME_LIBCURL));
#endif
                v = curl_version_info(CURLVERSION_NOW);
                assert_non_null(v);
                assert_non_null(v->version);
                assert_string_equal(curl_easy_strerror(CURLE_OK), "No error");
        }
#else
        skip();
#endif
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_missing_library),  cmocka_unit_test(test_real_library),
            cmocka_unit_test(test_missing_function), cmocka_unit_test(test_package_names),
            cmocka_unit_test(test_threads),          cmocka_unit_test(test_libarchive_table),
            cmocka_unit_test(test_libcurl_table),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
