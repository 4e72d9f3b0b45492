/* fetch: a cuDNN release's archive (NVIDIA's redist directory) or wheel
 * (PyPI) into a cache, its size and SHA-256 checked while it streams.
 *
 * The cache (CACHE: --cache, else $XDG_CACHE_HOME/cudnnctl or
 * ~/.cache/cudnnctl; %LOCALAPPDATA%\cudnnctl on Windows):
 *   CACHE/redist/redistrib_X.Y.Z.json   the manifests read (a release's never changes)
 *   CACHE/redist/NAME                   an archive, whole and verified
 *   CACHE/pypi/NAME.whl                 a wheel, likewise
 *   .../NAME.sha256                     "HEX  NAME", written after the check: a later
 *                                       hit compares it and the size, without a re-hash
 *                                       (install reads it as the digest beside the file)
 *   .../NAME.part                       a download under way or broken off: the next
 *                                       run hashes it and asks for the rest (Range);
 *                                       it is renamed to NAME only once size and
 *                                       SHA-256 match, and removed when they do not.
 */
#ifndef CC_FETCH_FETCH_H
#define CC_FETCH_FETCH_H

#include "../value.h"
#include "index.h"

enum { CC_FETCH_REDIST = 1, CC_FETCH_PYPI = 2 };

#define CC_FETCH_REDIST_URL "https://developer.download.nvidia.com/compute/cudnn/redist/"
#define CC_FETCH_PYPI_URL "https://pypi.org/simple/"

typedef struct cc_fetch_opts {
        const char *version; /* "9", "9.19", "9.19.0", "9.19.0.56" */
        int cuda_major;      /* the CUDA variant; 0: the newest the release has */
        const char *system;  /* "linux" / "windows"; NULL: this machine's */
        const char *arch;    /* "x86_64" / "sbsa" / "aarch64"; NULL: this machine's */
        int source;          /* CC_FETCH_REDIST (0 too) or CC_FETCH_PYPI */
        const char *index;   /* the index's URL; NULL: the default of the source */
        const char *cache;   /* NULL: the default (above) */
        int offline;         /* the cache only: no request at all */
        int dry_run;         /* choose and say, download nothing (a cached file is still checked) */
        int timeout_ms;      /* connect and idle limit per request; <= 0: 30000 */
        /* The boundary to plan: whether a candidate fits the machine beyond
         * version, system, arch and CUDA major (NULL: every one does). */
        int (*fits)(void *ctx, const cc_fetch_file *f);
        /* Progress of a download (bytes of the whole file, total 0 when
         * unknown) and one-line notes ("resuming NAME at N bytes"). */
        void (*progress)(void *ctx, uint64_t done, uint64_t total);
        void (*note)(void *ctx, const char *line);
        void *ctx;
} cc_fetch_opts;

/* Choose the release and file, then answer from the cache or download it.
 * *out: the document of docs/json.md ("fetch"). -1 with a one-line error
 * on every failure: nothing matches (CC_ERR_NOTFOUND), a request failed
 * (404, time-out, closed early), an index or manifest that cannot be read,
 * a size or SHA-256 that does not match (the file is removed). */
int cc_fetch_run(const cc_fetch_opts *o, cc_value **out, cc_error *err);

/* The releases an index knows, newest first ("9.19.0" for the redist
 * directory: the manifests it lists; "9.19.0.56" for PyPI: the versions of
 * the nvidia-cudnn-cuNN wheels for cuda_major, or of 11, 12 and 13 when
 * cuda_major is 0). source, index and timeout_ms as in cc_fetch_opts. This
 * is how plan and compat learn of releases newer than the compiled-in
 * tables. -1 with the request's or the page's error. */
int cc_fetch_index_versions(int source, const char *index, int cuda_major, int timeout_ms, cc_strv *out, cc_error *err);

/* The default cache directory (caller frees). */
char *cc_fetch_default_cache(cc_error *err);

#endif
