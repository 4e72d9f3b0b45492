/* A cuDNN release to install, read: an archive of any era and system (the
 * Linux .tgz of 7.x-8.2 with cuda/include and cuda/lib64; the .tar.xz of
 * 8.3+ and 9.x with include/ and lib/; the Windows .zip files, old and
 * new, with bin/, include/, lib/x64/), an nvidia-cudnn-cuXX wheel
 * (nvidia/cudnn/...), or an unpacked directory of any of those layouts.
 *
 * cc_source_open reads the list of members and judges it: where each
 * member goes (relative to the target's layout: "include/cudnn.h",
 * "lib/libcudnn.so.9.19.0", "bin/cudnn64_9.dll", "lib/x64/cudnn.lib"),
 * what the release is (version from every source kept apart, system,
 * machine, CUDA major), and every reason it must not be installed (the
 * hostile shapes archmodel.c finds; members over the limits; names not
 * valid on the target system). Nothing is extracted: cc_source_read
 * streams the contents of the members asked for, in the source's order,
 * into the caller's sink (the transaction's staging).
 *
 * An archive is listed and judged by inspect (cc_archive_inspect: its
 * layout, each member's install_to, the extraction model's verdicts, the
 * version evidence, the decompression bounds); a directory is walked here
 * (links are members, never followed) and judged by the same extraction
 * model (archmodel.h). Limits: 100000 members, 16 GiB of member bytes (an
 * archive's bytes passed over are bounded further by inspect: 32 times its
 * size, at least 256 MiB); over them, the source is a stop.
 *
 * dest keeps the release's own names below three roots: "include/...",
 * "lib/..." (Linux libraries, whether the source says lib or lib64;
 * "lib/x64/..." for Windows import libraries) and "bin/..." (DLLs;
 * "bin/x64/..." as 9.18+ Windows zips have it). The planner maps "lib" to
 * the target's lib64 or lib. An unpacked directory of the Windows
 * installer's layout (bin/13.0/..., include/13.0/..., lib/13.0/x64/...) loses
 * the CUDA version directory, with a warning naming it; several of them are
 * a stop, unless one is chosen (cc_source_open_cuda): then only its files
 * are installed. */
#ifndef CC_INSTALL_SOURCE_H
#define CC_INSTALL_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "../common.h"
#include "../value.h"

enum cc_src_type {
        CC_SRC_FILE = 1,
        CC_SRC_LINK, /* a symbolic link (link holds its target) */
        CC_SRC_DIR,
        CC_SRC_OTHER, /* hard link, device, FIFO, socket: never installed */
};

typedef struct cc_src_member {
        char *name;    /* as in the source, normalised: '/'-separated, no leading "./" */
        char *dest;    /* where it goes below the target's layout root, or NULL: not installed
                          (directories, licenses, dist-info, members outside the known roots) */
        int type;      /* enum cc_src_type */
        unsigned mode; /* permission bits (0644 / 0755 when the source has none) */
        uint64_t size; /* a file's bytes */
        char *link;    /* a link's target, as stored */
} cc_src_member;

typedef struct cc_source {
        char *path;          /* as given */
        int is_archive;      /* else a directory */
        const char *layout;  /* "legacy-cuda", "redist", "wheel", "flat", "unknown" (static strings; a
                                directory of the Windows installer's layout: "installer") */
        const char *system;  /* "linux", "windows", or NULL: the files do not say */
        const char *machine; /* "x86_64", "aarch64"... from the binaries, or NULL */
        char *version;       /* the release's cuDNN version ("9.19.0", "8.2.2") as the header says it,
                                else as the library names/constants say it; NULL: unknown */
        int major;           /* cuDNN major, -1 unknown */
        int cuda_major; /* the CUDA major it was built for (archive name, wheel name, the libraries' needs), -1 unknown
                         */
        cc_value *versions;    /* every version evidence, each source apart (the inspect document's "versions" array) */
        cc_strv cuda_variants; /* the CUDA version directories of the installer's layout ("12.9", "13.0"), as found */
        char *cuda_variant;    /* the one chosen (cc_source_open_cuda), whose files are installed; NULL: none */
        cc_src_member *m;
        size_t n;
        cc_strv stops;    /* each a one-line reason the source must not be installed; empty: none */
        cc_strv warnings; /* one-line remarks that do not stop it */
        uint64_t bytes;   /* total bytes of the FILE members that are installed */
        char sha256[65];  /* an archive's SHA-256, computed while it was listed; "" when it could not be
                             (a zip, read by its central directory; a listing that stopped early) */
        /* The archive as cc_source_open read it (size, modification time):
         * cc_source_read refuses an archive that changed since. */
        uint64_t file_size_;
        int64_t file_mtime_;
} cc_source;

/* Where the content of a member goes: begin(i), then data() calls with its
 * bytes in order, then end(). Any of them returning -1 stops the read with
 * that error. */
typedef struct cc_src_sink {
        void *ctx;
        int (*begin)(void *ctx, size_t i, cc_error *err);
        int (*data)(void *ctx, const void *p, size_t n, cc_error *err);
        int (*end)(void *ctx, cc_error *err);
} cc_src_sink;

/* Read the source at path. -1 only when it cannot be read at all (missing,
 * unreadable, not an archive or a directory); a hostile or broken source is
 * read as far as it safely can, with its reasons in stops. */
int cc_source_open(const char *path, cc_source *out, cc_error *err);
/* The same, reading an archive once: every regular file member's bytes go
 * to sink as the listing passes over them (begin(i) with i the member's
 * index in out->m), before the source is judged: the caller spools them
 * and drops them when the source has stops. A directory is only walked
 * (sink unused: cc_source_read copies its files). A sink failure is this
 * call's failure. */
int cc_source_open_read(const char *path, const cc_src_sink *sink, cc_source *out, cc_error *err);
/* The same, for a directory of the Windows installer's layout with a CUDA
 * version directory per build (bin/12.9/, bin/13.0/...): only the files of
 * cuda_variant ("13.0", as the directory is named) are installed; NULL: as
 * cc_source_open_read. A variant that is not there is a stop. */
int cc_source_open_cuda(const char *path, const char *cuda_variant, const cc_src_sink *sink, cc_source *out,
                        cc_error *err);
/* Which of the n CUDA version directories of the installer's layout
 * (variants: "12.9", "13.0", "12.x") a CUDA version names: want "13.0" or
 * "12.9.1" the one of that major and minor (or a "12.x"), want "13" the
 * newest of that major; by_major: a two- or three-part want that has no
 * directory of its own takes the newest of its major too. Its index, or -1:
 * none. */
int cc_cuda_variant_pick(const char *const *variants, size_t n, const char *want, int by_major);
/* Whether cc_source_open_read streams this source's contents while it
 * lists it (an archive), without reading it. */
int cc_source_streams(const char *path);
/* Free what out holds (a zeroed or opened source; also after a failed open). */
void cc_source_free(cc_source *s);

/* Stream the contents of the files i with want[i] != 0, in the source's
 * order, in one pass (an archive is read once). A member whose bytes differ
 * in count from what cc_source_open read (the file changed since) is an
 * error naming it. Memory stays bounded whatever the sizes: an archive is
 * read in 64 KiB blocks, a directory's file is mapped (cc_map_file) and
 * handed over in 1 MiB slices, then checked (cc_map_check: a file cut short
 * while read is an error). Reading stops after the last member wanted. A
 * source with stops is never to be read (the planner stops first); reading
 * one anyway is not refused here. */
int cc_source_read(const cc_source *s, const unsigned char *want, const cc_src_sink *sink, cc_error *err);

#endif
