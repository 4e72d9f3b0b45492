/* SHA-256 (FIPS 180-4), streamed: the install's staging hashes each file as
 * it writes it, and the manifest records the digest of every file placed.
 * Uses the x86 SHA extensions where the CPU has them; the functions may be
 * called from several threads on different cc_sha256 states. */
#ifndef CC_FORMATS_SHA256_H
#define CC_FORMATS_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct cc_sha256 {
        uint32_t h[8];
        uint64_t bytes; /* message length so far */
        uint8_t block[64];
        size_t fill; /* bytes in block */
} cc_sha256;

void cc_sha256_init(cc_sha256 *s);
void cc_sha256_update(cc_sha256 *s, const void *data, size_t n);
/* The digest as 64 lowercase hex digits and a NUL in hex[65]. */
void cc_sha256_final_hex(cc_sha256 *s, char hex[65]);

/* For tests and benchmarks only: on != 0 makes every later call use the
 * portable compression even where the CPU has the x86 SHA extensions (which
 * are otherwise chosen, once, by CPUID); 0 goes back to that choice. Not for
 * use while another thread hashes. Returns the compression now in effect:
 * "sha-ni" or "portable". */
const char *cc_sha256_force_portable(int on);

#endif
