/* MD5 as RFC 1321 section 3 gives it (little-endian words, four rounds of
 * sixteen steps; the table T[i] = floor(2^32 * abs(sin(i + 1)))). Tested
 * against the RFC's test suite (its appendix A.5) and against md5sum
 * (tests/unit/test_md5.c). */
#include "md5.h"

#include "mdblock.h"

static const uint32_t T[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

/* The shift of each step: four per round, repeated four times. */
static const unsigned char S[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

#define ROL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

static void compress1(uint32_t h[4], const uint8_t *p)
{
        uint32_t x[16], a = h[0], b = h[1], c = h[2], d = h[3], f, t;
        int i, k;

        for (i = 0; i < 16; i++)
                x[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 |
                       (uint32_t)p[4 * i + 3] << 24;
        for (i = 0; i < 64; i++) {
                /* the round's function F, G, H or I, and the word it takes at step i */
                switch (i / 16) {
                case 0:
                        f = (b & c) | (~b & d);
                        k = i;
                        break;
                case 1:
                        f = (b & d) | (c & ~d);
                        k = (5 * i + 1) % 16;
                        break;
                case 2:
                        f = b ^ c ^ d;
                        k = (3 * i + 5) % 16;
                        break;
                default:
                        f = c ^ (b | ~d);
                        k = (7 * i) % 16;
                        break;
                }
                t = a + f + x[k] + T[i];
                a = d, d = c, c = b;
                b = b + ROL(t, S[i / 16][i % 4]);
        }
        h[0] += a, h[1] += b, h[2] += c, h[3] += d;
}

static void compress(uint32_t *h, const uint8_t *p, size_t n)
{
        for (; n; n--, p += 64)
                compress1(h, p);
}

void cc_md5_init(cc_md5 *s)
{
        s->h[0] = 0x67452301;
        s->h[1] = 0xefcdab89;
        s->h[2] = 0x98badcfe;
        s->h[3] = 0x10325476;
        s->bytes = 0;
        s->fill = 0;
}

void cc_md5_update(cc_md5 *s, const void *data, size_t n)
{
        cc_md_buf b = {s->block, &s->fill, &s->bytes};

        cc_md_update(&b, s->h, data, n, compress);
}

void cc_md5_final_hex(cc_md5 *s, char hex[33])
{
        cc_md_buf b = {s->block, &s->fill, &s->bytes};

        cc_md_final(&b, s->h, 0, compress);
        cc_md_hex(s->h, 4, 0, hex);
}
