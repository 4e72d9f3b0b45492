/* The framing MD5 (RFC 1321 3.1-3.2) and SHA-256 (FIPS 180-4 5.1.1) share:
 * 64-byte blocks, a partial block kept between updates, and the padding (a
 * 1 bit, zeros, the message's length in bits in the last 8 bytes: low-order
 * byte first for MD5, high-order first for SHA-256). Internal to md5.c and
 * sha256.c. */
#ifndef CC_FORMATS_MDBLOCK_H
#define CC_FORMATS_MDBLOCK_H

#include <stddef.h>
#include <stdint.h>

/* Compress n whole 64-byte blocks at p into the state h. */
typedef void (*cc_md_compress)(uint32_t *h, const uint8_t *p, size_t n);

typedef struct cc_md_buf {
        uint8_t *block; /* 64 bytes */
        size_t *fill;   /* bytes in block */
        uint64_t *bytes;
} cc_md_buf;

/* Feed n bytes (data may be NULL when n is 0). */
void cc_md_update(const cc_md_buf *b, uint32_t *h, const void *data, size_t n, cc_md_compress compress);
/* Pad and compress the last block(s); the state is then the digest. */
void cc_md_final(const cc_md_buf *b, uint32_t *h, int big_endian, cc_md_compress compress);
/* The first n words of h as hex (2 * 4 * n digits and a NUL), each word's
 * bytes in the given order. */
void cc_md_hex(const uint32_t *h, size_t n, int big_endian, char *hex);

#endif
