/* NVIDIA's redistrib JSON manifests (redistrib_<version>.json beside the
 * archives under https://developer.download.nvidia.com/compute/cudnn/redist/,
 * and CUDA's under .../compute/cuda/redist/): every archive of a release
 * with its size and digests. `install --manifest` checks an archive against
 * one; `fetch` picks its download from one.
 *
 * The shape: top-level "release_date", "release_label", "release_product"
 * (strings), and per product (the key: "cudnn"; CUDA's manifests hold many)
 * an object with "name", "license", "license_path", "version" (strings),
 * "cuda_variant" (a list, skipped), and per platform key ("linux-x86_64",
 * "linux-sbsa", "linux-aarch64", "windows-x86_64", ...) either one file
 * {"relative_path", "sha256", "md5", "size"} (the 8.x manifests) or an
 * object of CUDA variants {"cuda11": FILE, "cuda12": FILE, ...} (9.x).
 * "size" is a string of decimal digits in NVIDIA's files; a JSON integer is
 * taken too. Anything else is refused with a one-line reason naming where. */
#ifndef CC_FORMATS_REDISTRIB_H
#define CC_FORMATS_REDISTRIB_H

#include <stddef.h>
#include <stdint.h>

#include "../common.h"

typedef struct cc_redist_file {
        char *product;       /* the top-level key: "cudnn" */
        char *version;       /* the product's "version": "9.19.0.56" */
        char *platform;      /* "linux-x86_64", "windows-x86_64", ... */
        char *variant;       /* the CUDA variant's key ("cuda13"), "" when the platform holds one file */
        char *relative_path; /* from the manifest's directory: "cudnn/linux-x86_64/cudnn-...-archive.tar.xz" */
        char *sha256;        /* 64 lowercase hex digits, "" when the manifest gives none */
        char *md5;           /* 32 lowercase hex digits, "" when none (at least one of the two is given) */
        uint64_t size;       /* bytes */
} cc_redist_file;

/* Parse a manifest of len bytes into *out (n files, in the manifest's
 * order; caller frees with cc_redist_free). On failure -1 with err set
 * (CC_ERR_FORMAT, CC_ERR_LIMIT or CC_ERR_NOMEM), *out NULL and *n 0. */
int cc_redist_parse(const char *text, size_t len, cc_redist_file **out, size_t *n, cc_error *err);
void cc_redist_free(cc_redist_file *v, size_t n);

#endif
