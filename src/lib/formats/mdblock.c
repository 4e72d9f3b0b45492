/* The block framing of MD5 and SHA-256 (mdblock.h). */
#include "mdblock.h"

#include <string.h>

void cc_md_update(const cc_md_buf *b, uint32_t *h, const void *data, size_t n, cc_md_compress compress)
{
        const uint8_t *p = data;

        if (n == 0)
                return;
        *b->bytes += n;
        if (*b->fill) {
                size_t take = 64 - *b->fill < n ? 64 - *b->fill : n;

                memcpy(b->block + *b->fill, p, take);
                *b->fill += take, p += take, n -= take;
                if (*b->fill < 64)
                        return;
                compress(h, b->block, 1);
                *b->fill = 0;
        }
        /* the whole blocks straight from the caller's buffer, in one call */
        if (n >= 64) {
                compress(h, p, n / 64);
                p += n / 64 * 64;
                n %= 64;
        }
        if (n)
                memcpy(b->block, p, n);
        *b->fill = n;
}

void cc_md_final(const cc_md_buf *b, uint32_t *h, int big_endian, cc_md_compress compress)
{
        uint64_t bits = *b->bytes * 8;
        size_t fill = *b->fill;
        int i;

        b->block[fill++] = 0x80;
        if (fill > 56) {
                memset(b->block + fill, 0, 64 - fill);
                compress(h, b->block, 1);
                fill = 0;
        }
        memset(b->block + fill, 0, 56 - fill);
        for (i = 0; i < 8; i++)
                b->block[56 + i] = (uint8_t)(bits >> (big_endian ? 56 - 8 * i : 8 * i));
        compress(h, b->block, 1);
        *b->fill = 0;
}

void cc_md_hex(const uint32_t *h, size_t n, int big_endian, char *hex)
{
        static const char digits[] = "0123456789abcdef";
        size_t i;

        for (i = 0; i < 4 * n; i++) {
                int sh = big_endian ? 24 - 8 * (int)(i % 4) : 8 * (int)(i % 4);
                uint8_t v = (uint8_t)(h[i / 4] >> sh);

                hex[2 * i] = digits[v >> 4];
                hex[2 * i + 1] = digits[v & 15];
        }
        hex[8 * n] = '\0';
}
