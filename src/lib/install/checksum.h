/* The install's checksum pre-check: the archive's bytes against a digest
 * someone published for it, before anything is written. The authorities,
 * the first one present decides:
 *   1. --manifest FILE: NVIDIA's redistrib JSON (formats/redistrib.h). It
 *      must list the archive by file name, and the size and the SHA-256
 *      (or, when it gives only that, the MD5) must match; a manifest that
 *      cannot be read or parsed, or that does not list the archive, stops.
 *   2. ARCHIVE.sha256 beside it, 3. ARCHIVE.md5 beside it: "DIGEST" or
 *      "DIGEST  NAME" lines as sha256sum/md5sum write them; a NAME other
 *      than the archive's stops.
 *   4. kb/checksums.tsv, by the archive's file name (some rows know only
 *      the first digits: the start is compared).
 * None: a warning. A mismatch, or an archive that cannot be read, stops. A
 * digest is computed only when there is one to compare it with. */
#ifndef CC_INSTALL_CHECKSUM_H
#define CC_INSTALL_CHECKSUM_H

#include "plan.h"

struct cc_kb_table;

typedef struct cc_checksum_in {
        const char *archive; /* the archive's path (NULL or a directory source: "ok", nothing to compare) */
        int is_archive;
        const char *manifest; /* --manifest FILE, or NULL */
        const char *sha256;   /* the archive's SHA-256 when the caller already computed it while reading, or NULL */
} cc_checksum_in;

/* Add the check "checksum" to the plan (its verdict ok, warn or stop with
 * the reason; a stop sets p->stop and the summary's "stop"). -1 only on an
 * internal error (memory): everything about the inputs is the verdict. */
int cc_checksum_check(cc_plan *p, const cc_checksum_in *in, cc_error *err);
/* The same with kb as the table of known digests (kb/checksums.tsv's
 * columns: file, sha256, prefix): the tests' way to give their own. */
int cc_checksum_check_kb(cc_plan *p, const cc_checksum_in *in, const struct cc_kb_table *kb, cc_error *err);

#endif
