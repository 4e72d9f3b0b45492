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
