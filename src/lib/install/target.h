/* What an install's target directory holds, read before planning: the
 * entries of its layout directories (include, lib, lib64, bin, lib/x64),
 * which cuDNN major each file is of, which manifest placed it and whether it
 * changed since, whether the target is a CUDA toolkit (and which), and
 * whether this user may write it. Reads host paths (the transaction's
 * target is a host directory). */
#ifndef CC_INSTALL_TARGET_H
#define CC_INSTALL_TARGET_H

#include "plan.h"

typedef struct cc_target_scan {
        cc_tgt_entry *e;
        size_t n;
        int toolkit;           /* has bin/nvcc, include/cuda.h or version.json */
        int cuda_major;        /* the toolkit's CUDA major, -1 unknown */
        char cuda_version[32]; /* "13.0.48", "" unknown */
        const char *lib_dir;   /* Linux: "lib64" when the target has it, else "lib" */
        int writable, world_writable;
        uint64_t free_bytes; /* UINT64_MAX unknown */
        cc_value *manifests; /* [MANIFEST]: the manifests of earlier installs, as read */
        cc_strv notes;       /* what could not be read (a manifest that does not parse...) */
} cc_target_scan;

/* Scan the directory dir (host path) for a target of the given system. */
int cc_target_scan_dir(const char *dir, int system, cc_target_scan *out, cc_error *err);
void cc_target_scan_free(cc_target_scan *s);

/* The manifest of install id in the scan, or NULL. */
const cc_value *cc_target_manifest(const cc_target_scan *s, const char *id);

/* The SHA-256 of a file (host path; read through a guarded mapping: a file
 * cut short while read is an error), as 64 hex digits. */
int cc_file_sha256(const char *path, char hex[65], cc_error *err);

#endif
