/* libarchive (and liblzma's multithreaded decoder) through a table of
 * function pointers, loaded with dlopen the first time an archive is read
 * (platform/dynload.h): the program does not link them, so the commands
 * that never read an archive do not load them and the libraries they pull
 * in at start-up. A build that finds no SONAME for them, or is configured
 * with CUDNNCTL_DLOPEN=OFF, links them and the same table holds their own
 * addresses: the call sites are the same either way.
 *
 * Include this instead of <archive.h>, <archive_entry.h> and <lzma.h>: it
 * includes them for their types, then renames each function used to its
 * slot in the table (archive_read_new() calls (cc_la.f.archive_read_new)()).
 * Call cc_libarchive_load before the first call of a public entry point,
 * cc_liblzma_load before the decoder's. */
#ifndef CC_LIBARCHIVE_DL_H
#define CC_LIBARCHIVE_DL_H

#include "../platform/dynload.h"

#include <stdio.h>

#ifndef CC_HAVE_LIBARCHIVE
#define CC_HAVE_LIBARCHIVE 0
#endif
#ifndef CC_HAVE_LZMA_MT
#define CC_HAVE_LZMA_MT 0
#endif

#if CC_HAVE_LIBARCHIVE
#include <archive.h>
#include <archive_entry.h>

/* Windows: paths are opened as UTF-16 (the narrow call takes the ANSI code
 * page, which cannot name every path). */
#ifdef _WIN32
#define CC_LIBARCHIVE_FUNCS_WIN(X) X(archive_read_open_filename_w)
#else
#define CC_LIBARCHIVE_FUNCS_WIN(X)
#endif

/* Every libarchive function that archive.c and install/source.c call. */
#define CC_LIBARCHIVE_FUNCS(X)                                                                                         \
        CC_LIBARCHIVE_FUNCS_WIN(X)                                                                                     \
        X(archive_read_new)                                                                                            \
        X(archive_read_support_filter_all)                                                                             \
        X(archive_read_support_format_all)                                                                             \
        X(archive_read_open)                                                                                           \
        X(archive_read_open_filename)                                                                                  \
        X(archive_read_open_memory)                                                                                    \
        X(archive_read_next_header)                                                                                    \
        X(archive_read_data)                                                                                           \
        X(archive_read_free)                                                                                           \
        X(archive_error_string)                                                                                        \
        X(archive_set_error)                                                                                           \
        X(archive_filter_bytes)                                                                                        \
        X(archive_filter_code)                                                                                         \
        X(archive_filter_count)                                                                                        \
        X(archive_filter_name)                                                                                         \
        X(archive_format)                                                                                              \
        X(archive_entry_filetype)                                                                                      \
        X(archive_entry_hardlink)                                                                                      \
        X(archive_entry_hardlink_utf8)                                                                                 \
        X(archive_entry_pathname)                                                                                      \
        X(archive_entry_pathname_utf8)                                                                                 \
        X(archive_entry_perm)                                                                                          \
        X(archive_entry_size)                                                                                          \
        X(archive_entry_size_is_set)                                                                                   \
        X(archive_entry_symlink)                                                                                       \
        X(archive_entry_symlink_utf8)

enum { CC_LIBARCHIVE_N = 0 CC_LIBARCHIVE_FUNCS(CC_DYNLOAD_COUNT) };

/* The table: typed members to call, the same pointers as an array for
 * cc_dynload to fill. */
union cc_libarchive_fns {
        struct {
                CC_LIBARCHIVE_FUNCS(CC_DYNLOAD_MEMBER)
        } f;
        cc_dynfn slot[CC_LIBARCHIVE_N];
};
extern union cc_libarchive_fns cc_la;

/* 0 when libarchive can be called (loaded now or before, or linked); else
 * -1 with one line: which library, why, and how to get it (the same line
 * every time). Thread-safe. */
int cc_libarchive_load(cc_error *err);
/* archive_read_open_filename for a UTF-8 path (on Windows through its
 * UTF-16 form); an archive error (archive_error_string) when it fails. */
int cc_archive_open_path(struct archive *a, const char *path, size_t block);
/* fopen(path, "rb") for a UTF-8 path (on Windows through its UTF-16 form). */
FILE *cc_fopen_read(const char *path);

#if CC_HAVE_LZMA_MT
#include <lzma.h>

#define CC_LIBLZMA_FUNCS(X)                                                                                            \
        X(lzma_stream_decoder_mt)                                                                                      \
        X(lzma_code)                                                                                                   \
        X(lzma_end)                                                                                                    \
        X(lzma_cputhreads)

enum { CC_LIBLZMA_N = 0 CC_LIBLZMA_FUNCS(CC_DYNLOAD_COUNT) };

union cc_liblzma_fns {
        struct {
                CC_LIBLZMA_FUNCS(CC_DYNLOAD_MEMBER)
        } f;
        cc_dynfn slot[CC_LIBLZMA_N];
};
extern union cc_liblzma_fns cc_lzma;

/* As cc_libarchive_load, for liblzma. */
int cc_liblzma_load(cc_error *err);
#endif

/* The renaming, but not in libarchive_dl.c, which takes the functions' own
 * addresses in a build that links them. */
#ifndef CC_LIBARCHIVE_DL_IMPL
#define archive_read_new (cc_la.f.archive_read_new)
#define archive_read_support_filter_all (cc_la.f.archive_read_support_filter_all)
#define archive_read_support_format_all (cc_la.f.archive_read_support_format_all)
#define archive_read_open (cc_la.f.archive_read_open)
#define archive_read_open_filename (cc_la.f.archive_read_open_filename)
#ifdef _WIN32
#define archive_read_open_filename_w (cc_la.f.archive_read_open_filename_w)
#endif
#define archive_read_open_memory (cc_la.f.archive_read_open_memory)
#define archive_read_next_header (cc_la.f.archive_read_next_header)
#define archive_read_data (cc_la.f.archive_read_data)
#define archive_read_free (cc_la.f.archive_read_free)
#define archive_error_string (cc_la.f.archive_error_string)
#define archive_set_error (cc_la.f.archive_set_error)
#define archive_filter_bytes (cc_la.f.archive_filter_bytes)
#define archive_filter_code (cc_la.f.archive_filter_code)
#define archive_filter_count (cc_la.f.archive_filter_count)
#define archive_filter_name (cc_la.f.archive_filter_name)
#define archive_format (cc_la.f.archive_format)
#define archive_entry_filetype (cc_la.f.archive_entry_filetype)
#define archive_entry_hardlink (cc_la.f.archive_entry_hardlink)
#define archive_entry_hardlink_utf8 (cc_la.f.archive_entry_hardlink_utf8)
#define archive_entry_pathname (cc_la.f.archive_entry_pathname)
#define archive_entry_pathname_utf8 (cc_la.f.archive_entry_pathname_utf8)
#define archive_entry_perm (cc_la.f.archive_entry_perm)
#define archive_entry_size (cc_la.f.archive_entry_size)
#define archive_entry_size_is_set (cc_la.f.archive_entry_size_is_set)
#define archive_entry_symlink (cc_la.f.archive_entry_symlink)
#define archive_entry_symlink_utf8 (cc_la.f.archive_entry_symlink_utf8)
#if CC_HAVE_LZMA_MT
#define lzma_stream_decoder_mt (cc_lzma.f.lzma_stream_decoder_mt)
#define lzma_code (cc_lzma.f.lzma_code)
#define lzma_end (cc_lzma.f.lzma_end)
#define lzma_cputhreads (cc_lzma.f.lzma_cputhreads)
#endif
#endif

#endif /* CC_HAVE_LIBARCHIVE */
#endif
