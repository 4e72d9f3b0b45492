/* The indexes fetch reads (pure functions over bytes; fetch.c does the I/O):
 *
 *  - NVIDIA's redist directory (https://developer.download.nvidia.com/
 *    compute/cudnn/redist/): an HTML listing whose links name one
 *    redistrib_X.Y.Z.json per release; each such manifest
 *    (formats/redistrib.h) lists the archives with size and digests.
 *  - PyPI's simple API for nvidia-cudnn-cu11/12/13: the JSON form (PEP 691,
 *    Content-Type application/vnd.pypi.simple.v1+json: {"meta":
 *    {"api-version": "1.x"}, "name", "files": [{"filename", "url",
 *    "hashes": {"sha256": HEX}, "size" (PEP 700, optional), "yanked": false
 *    or a reason}], ...}) and the HTML form (PEP 503: one <a href="URL#
 *    sha256=HEX">FILENAME</a> per file, data-yanked on a yanked one).
 *
 * Every input is hostile: sizes bounded, names checked, a URL taken only
 * when it is http(s) or relative to the page. */
#ifndef CC_FETCH_INDEX_H
#define CC_FETCH_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "../common.h"

/* One downloadable file of a release. */
typedef struct cc_fetch_file {
        char *version;  /* the release: "9.19.0.56" */
        char *name;     /* the file name: "cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz", a wheel's name */
        char *url;      /* absolute http(s) URL */
        char *sha256;   /* 64 lowercase hex digits, or "" when the index gives none */
        uint64_t size;  /* bytes; 0 when the index does not say */
        int cuda_major; /* the CUDA variant: 13; 0 unknown */
        char system[8]; /* "linux" or "windows" */
        char arch[8];   /* "x86_64", "sbsa" or "aarch64" */
} cc_fetch_file;

void cc_fetch_file_free(cc_fetch_file *v, size_t n);

/* The releases a redist directory listing names (redistrib_X.Y.Z.json,
 * each once), newest first, into out ("9.19.0"). A page that names none
 * is refused (CC_ERR_FORMAT): it is not that directory's listing. */
int cc_index_redist_listing(const char *text, size_t len, cc_strv *out, cc_error *err);

/* The files of a parsed redistrib manifest (formats/redistrib.h) of the
 * product "cudnn", as cc_fetch_files with URLs under base (the directory
 * URL the manifest came from, ending in '/'). Platforms other than
 * linux-x86_64, linux-sbsa, linux-aarch64 and windows-x86_64 are left out. */
int cc_index_redist_files(const char *manifest, size_t len, const char *base, cc_fetch_file **out, size_t *n,
                          cc_error *err);

/* The wheels of one project page of a PEP 691 JSON (json != 0) or PEP 503
 * HTML simple index, page_url resolving relative links. Yanked files,
 * files that are not nvidia_cudnn_cuNN wheels and wheels of other
 * platforms are left out; a page that is not of that form is refused. */
int cc_index_pypi_page(const char *text, size_t len, int json, const char *page_url, cc_fetch_file **out, size_t *n,
                       cc_error *err);

/* A wheel's file name: nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl.
 * 0 and the release (into version, size vsize), CUDA major, system and
 * arch; -1 when it is not such a wheel for a platform cuDNN ships. */
int cc_wheel_name(const char *name, char *version, size_t vsize, int *cuda_major, char system[8], char arch[8]);

/* ref resolved against base (RFC 3986's common cases: absolute, "//host",
 * "/path", relative with "./" and "../"); a fragment is kept. Caller frees. */
char *cc_url_resolve(const char *base, const char *ref, cc_error *err);

/* Whether a release matches what was asked: "9" matches every 9.x, "9.19"
 * every 9.19.x, "9.19.0.56" only itself. -1 when want is not a version. */
int cc_version_matches(const char *want, const char *have);
/* Newer first: > 0 when a is newer than b (component by component). */
int cc_version_cmp(const char *a, const char *b);

#endif
