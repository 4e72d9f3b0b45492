/* The tables of libarchive_dl.h: filled by dlopen when the build found the
 * libraries' sonames (CC_SONAME_LIBARCHIVE, CC_SONAME_LIBLZMA, from
 * CMakeLists.txt), else the functions' own addresses (the build links
 * them). */
#define CC_LIBARCHIVE_DL_IMPL
#include "libarchive_dl.h"

#if CC_HAVE_LIBARCHIVE

_Static_assert(sizeof(union cc_libarchive_fns) == sizeof(cc_dynfn[CC_LIBARCHIVE_N]),
               "the libarchive table is one pointer per function");

#ifdef CC_SONAME_LIBARCHIVE

union cc_libarchive_fns cc_la;

static const char *const la_names[] = {CC_LIBARCHIVE_FUNCS(CC_DYNLOAD_NAME) NULL};

static cc_dynlib la_lib = {
    .soname = CC_SONAME_LIBARCHIVE,
    .names = la_names,
    .fns = cc_la.slot,
    .without = "archives cannot be read without it",
};

int cc_libarchive_load(cc_error *err)
{
        return cc_dynload(&la_lib, err);
}

#else

union cc_libarchive_fns cc_la = {.f = {CC_LIBARCHIVE_FUNCS(CC_DYNLOAD_ADDR)}};

int cc_libarchive_load(cc_error *err)
{
        (void)err;
        return 0;
}

#endif

/* Through the table: this file does not rename the calls. */
#ifdef _WIN32
#include "../platform/win32_util.h"

#include <stdlib.h>

int cc_archive_open_path(struct archive *a, const char *path, size_t block)
{
        cc_error err = {0};
        wchar_t *w = cc_win_to_wide(path, &err);
        int r;

        if (w == NULL) {
                cc_la.f.archive_set_error(a, 0, "%s", err.msg);
                return ARCHIVE_FATAL;
        }
        r = cc_la.f.archive_read_open_filename_w(a, w, block);
        free(w);
        return r;
}

FILE *cc_fopen_read(const char *path)
{
        cc_error err = {0};
        wchar_t *w = cc_win_to_wide(path, &err);
        FILE *f;

        if (w == NULL)
                return NULL;
        f = _wfopen(w, L"rb");
        free(w);
        return f;
}
#else
int cc_archive_open_path(struct archive *a, const char *path, size_t block)
{
        return cc_la.f.archive_read_open_filename(a, path, block);
}

FILE *cc_fopen_read(const char *path)
{
        return fopen(path, "rb");
}
#endif

#if CC_HAVE_LZMA_MT

_Static_assert(sizeof(union cc_liblzma_fns) == sizeof(cc_dynfn[CC_LIBLZMA_N]),
               "the liblzma table is one pointer per function");

#ifdef CC_SONAME_LIBLZMA

union cc_liblzma_fns cc_lzma;

static const char *const lzma_names[] = {CC_LIBLZMA_FUNCS(CC_DYNLOAD_NAME) NULL};

/* Its only caller does without it: libarchive then decompresses the .xz
 * itself, on one thread. */
static cc_dynlib lzma_lib = {
    .soname = CC_SONAME_LIBLZMA,
    .names = lzma_names,
    .fns = cc_lzma.slot,
    .without = "xz archives are then decompressed on one thread",
};

int cc_liblzma_load(cc_error *err)
{
        return cc_dynload(&lzma_lib, err);
}

#else

union cc_liblzma_fns cc_lzma = {.f = {CC_LIBLZMA_FUNCS(CC_DYNLOAD_ADDR)}};

int cc_liblzma_load(cc_error *err)
{
        (void)err;
        return 0;
}

#endif
#endif /* CC_HAVE_LZMA_MT */

#endif /* CC_HAVE_LIBARCHIVE */
