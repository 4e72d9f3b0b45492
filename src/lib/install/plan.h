/* The plan of an install: what a source becomes in a target, decided whole
 * before anything is written (rpm's "check the transaction first").
 *
 * Pure over its inputs: the source (source.h), what the target holds (a
 * list of its entries, read by the caller), and the facts it is paired with
 * (the toolkit's CUDA major, the host's system and machine). The result is
 * the transaction's operations and a document: every pre-check with its
 * verdict (ok, warn, stop) and reason, and every operation with its path,
 * size, mode and digest where known. --dry-run prints that document and
 * stops; tests compare plans without touching a disk. */
#ifndef CC_INSTALL_PLAN_H
#define CC_INSTALL_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "../common.h"
#include "../txn/txn.h"
#include "../value.h"
#include "source.h"

/* One entry already in the target (below its layout directories). */
typedef struct cc_tgt_entry {
        char *path; /* relative to the target, '/'-separated */
        int type;   /* enum cc_ftype (platform.h): file, directory, link, other */
        unsigned mode;
        uint64_t size;
        char *link;      /* a link's target */
        int cudnn_major; /* the cuDNN major its name says (libcudnn_ops.so.9.1.0: 9), -1: not a cuDNN name
                            or no major in it (headers: the target's header release major, set by the caller) */
        char *owner;     /* the manifest (install id) that placed it, NULL: none */
        int changed;     /* owned, but its content differs from the manifest's digest */
} cc_tgt_entry;

typedef struct cc_plan_in {
        const char *target;     /* as shown (the directory the transaction runs in) */
        int system;             /* the target's system: CC_SYS_LINUX or CC_SYS_WINDOWS (names.h) */
        const char *machine;    /* the host's machine ("x86_64"), NULL unknown */
        int toolkit;            /* the target is a CUDA toolkit: merge with its own directory names */
        int toolkit_cuda_major; /* the toolkit's CUDA major, -1 unknown */
        const char *lib_dir;    /* the target's library directory on Linux ("lib64" or "lib") */
        int force;              /* turn the stops --force may lift into warnings */
        int target_world_writable;
        int target_writable;         /* by this user */
        uint64_t free_bytes;         /* on the target's file system, UINT64_MAX unknown */
        const cc_tgt_entry *entries; /* what the target holds, below its layout directories */
        size_t nentries;
        const char *manifest_id; /* the id this install's manifest gets ("cudnn-9.19.0") */
} cc_plan_in;

typedef struct cc_plan {
        cc_txn_op *ops;
        size_t nops;
        size_t *member;     /* per operation: the source member it stages, or (size_t)-1 */
        size_t manifest_op; /* the operation that writes the manifest */
        int stop;           /* a pre-check said stop: nothing may be written */
        uint64_t stage_bytes;
        cc_value *doc; /* the plan as a document (docs/json.md "install plan") */
} cc_plan;

/* Plan installing src into the target described by in. -1 only on an
 * internal error (memory); every reason not to install is a check with
 * verdict "stop" in the document, and plan->stop set. */
int cc_install_plan(const cc_source *src, const cc_plan_in *in, cc_plan *out, cc_error *err);
void cc_plan_free(cc_plan *p);

/* Append a pre-check {id, verdict, reason} to the array checks; *stop is
 * set when the verdict is "stop". The writing commands add theirs with it
 * (in-use, checksum; uninstall's and rollback's). */
int cc_plan_check(cc_value *checks, int *stop, cc_error *err, const char *id, const char *verdict, const char *fmt, ...)
    CC_PRINTF(6, 7);

/* Where a member's dest (source.h: "lib/...", "bin/...", "include/...",
 * "lib/x64/...") goes in this target (a toolkit's lib64 on Linux). Caller
 * frees. */
char *cc_install_dest(const cc_plan_in *in, const char *dest, cc_error *err);

#endif
