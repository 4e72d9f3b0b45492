/* MD5 (RFC 1321), streamed like sha256.h. Only to compare an archive with
 * a digest someone else published (a .md5 file beside it, a redistrib
 * manifest that gives no SHA-256): MD5 is not collision resistant, so the
 * tool never chooses it for a digest of its own. */
#ifndef CC_FORMATS_MD5_H
#define CC_FORMATS_MD5_H

#include <stddef.h>
#include <stdint.h>

typedef struct cc_md5 {
        uint32_t h[4];
        uint64_t bytes; /* message length so far */
        uint8_t block[64];
        size_t fill; /* bytes in block */
} cc_md5;

void cc_md5_init(cc_md5 *s);
void cc_md5_update(cc_md5 *s, const void *data, size_t n);
/* The digest as 32 lowercase hex digits and a NUL in hex[33]. */
void cc_md5_final_hex(cc_md5 *s, char hex[33]);

#endif
