/* SHA-256 as FIPS 180-4 section 6.2 gives it, with two compression functions
 * behind one dispatch: the x86 SHA extensions (SHA256RNDS2, SHA256MSG1,
 * SHA256MSG2, as Intel's SDM vol. 2 and its "Intel SHA Extensions" paper
 * describe them) where the CPU has them, and a portable one everywhere else.
 * The install hashes every file it stages (0.5-1 GB) and the archive, so the
 * hash must not be what makes it slower than tar. Tested against the
 * standard's vectors, path against path, and sha256sum
 * (tests/unit/test_sha256.c); timed by bench/sha256.sh. */
#include "sha256.h"

#include "mdblock.h"

#include <stdatomic.h>
#include <string.h>

/* The SHA-NI path: x86-64 with a compiler that can target the extensions per
 * function (gcc, clang, mingw-w64 gcc), so the rest of the build needs no
 * -msha and the binary still runs on CPUs without them. */
#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define CC_SHA256_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif

/* FIPS 180-4 4.2.2: the first 32 bits of the fractional parts of the cube
 * roots of the first 64 primes. Aligned for the SHA-NI path's loads. */
static _Alignas(16) const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* ---- the portable compression ---------------------------------------------------------------------------- */

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
/* FIPS 180-4 4.1.2, Ch and Maj with one operation fewer each (same truth tables). */
#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))
#define BSIG0(x) (ROR(x, 2) ^ ROR(x, 13) ^ ROR(x, 22))
#define BSIG1(x) (ROR(x, 6) ^ ROR(x, 11) ^ ROR(x, 25))
#define SSIG0(x) (ROR(x, 7) ^ ROR(x, 18) ^ ((x) >> 3))
#define SSIG1(x) (ROR(x, 17) ^ ROR(x, 19) ^ ((x) >> 10))

/* One round without moving the eight working variables: the caller rotates
 * the names instead (round t+1 passes h as a, a as b, ...), so a round is
 * only its two sums. */
#define ROUND(a, b, c, d, e, f, g, h, t, wt)                                                                           \
        do {                                                                                                           \
                uint32_t t1_ = (h) + BSIG1(e) + CH(e, f, g) + K[t] + (wt);                                             \
                (d) += t1_;                                                                                            \
                (h) = t1_ + BSIG0(a) + MAJ(a, b, c);                                                                   \
        } while (0)

#define ROUND8(t)                                                                                                      \
        do {                                                                                                           \
                ROUND(a, b, c, d, e, f, g, h, (t) + 0, w[(t) + 0]);                                                    \
                ROUND(h, a, b, c, d, e, f, g, (t) + 1, w[(t) + 1]);                                                    \
                ROUND(g, h, a, b, c, d, e, f, (t) + 2, w[(t) + 2]);                                                    \
                ROUND(f, g, h, a, b, c, d, e, (t) + 3, w[(t) + 3]);                                                    \
                ROUND(e, f, g, h, a, b, c, d, (t) + 4, w[(t) + 4]);                                                    \
                ROUND(d, e, f, g, h, a, b, c, (t) + 5, w[(t) + 5]);                                                    \
                ROUND(c, d, e, f, g, h, a, b, (t) + 6, w[(t) + 6]);                                                    \
                ROUND(b, c, d, e, f, g, h, a, (t) + 7, w[(t) + 7]);                                                    \
        } while (0)

/* n whole blocks straight from p (no alignment needed: bytes are read one by
 * one, which compilers turn into a load and a byte swap). */
static void compress_portable(uint32_t st[8], const uint8_t *p, size_t n)
{
        uint32_t w[64], a, b, c, d, e, f, g, h;
        int t;

        for (; n > 0; n--, p += 64) {
                for (t = 0; t < 16; t++)
                        w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 | (uint32_t)p[4 * t + 2] << 8 |
                               (uint32_t)p[4 * t + 3];
                /* The whole schedule first (FIPS 180-4 6.2.2 step 1): independent of
                 * the rounds, so it overlaps them; faster here than a ring of 16
                 * words computed round by round. */
                for (t = 16; t < 64; t++)
                        w[t] = SSIG1(w[t - 2]) + w[t - 7] + SSIG0(w[t - 15]) + w[t - 16];
                a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7];
                for (t = 0; t < 64; t += 8)
                        ROUND8(t);
                st[0] += a, st[1] += b, st[2] += c, st[3] += d, st[4] += e, st[5] += f, st[6] += g, st[7] += h;
        }
}

/* ---- the SHA-NI compression ------------------------------------------------------------------------------ */

#ifdef CC_SHA256_X86
#define TARGET_SHA __attribute__((target("sha,sse4.1,ssse3")))

/* SHA256RNDS2 does two rounds on the state split as ABEF and CDGH (A in the
 * high dword), taking W[t]+K[t] for both rounds from the low half of its
 * third operand. Four rounds: two of them on the low half of wk, two on its
 * high half moved down; the new ABEF comes out, and the old ABEF is the new
 * CDGH (after two rounds C,D,G,H are the old A,B,E,F). */
#define RNDS4(abef, cdgh, wk)                                                                                          \
        do {                                                                                                           \
                cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);                                                          \
                abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0e));                                 \
        } while (0)

/* W[t..t+3] from the four vectors before it, m0 = W[t-16..t-13] .. m3 =
 * W[t-4..t-1] (lowest index in the low dword): SHA256MSG1 gives
 * W[t-16+i] + s0(W[t-15+i]), W[t-7..t-4] is one byte shift across m2:m3,
 * and SHA256MSG2 adds s1(W[t-2+i]), feeding its own first two results to
 * the last two. */
#define SCHED(m0, m1, m2, m3)                                                                                          \
        _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(m0, m1), _mm_alignr_epi8(m3, m2, 4)), m3)

/* Rounds 4i..4i+3 on the schedule vector m (= W[4i..4i+3]). */
#define GROUP(i, m)                                                                                                    \
        do {                                                                                                           \
                __m128i wk_ = _mm_add_epi32(m, _mm_load_si128((const __m128i *)(const void *)&K[4 * (i)]));            \
                RNDS4(abef, cdgh, wk_);                                                                                \
        } while (0)

/* Rounds 4i..4i+3 for i >= 4: first m0 becomes W[4i..4i+3] from itself
 * (W[4i-16..]) and the three after it, which the caller rotates. */
#define GROUPS(i, m0, m1, m2, m3)                                                                                      \
        do {                                                                                                           \
                m0 = SCHED(m0, m1, m2, m3);                                                                            \
                GROUP(i, m0);                                                                                          \
        } while (0)

TARGET_SHA static void compress_shani(uint32_t st[8], const uint8_t *p, size_t n)
{
        /* Each big-endian word of the block to a dword, word 0 in the low dword. */
        const __m128i bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
        __m128i abcd = _mm_loadu_si128((const __m128i *)(const void *)&st[0]); /* D C B A, high to low */
        __m128i efgh = _mm_loadu_si128((const __m128i *)(const void *)&st[4]); /* H G F E */
        __m128i badc = _mm_shuffle_epi32(abcd, 0xb1);                          /* C D A B */
        __m128i hgfe = _mm_shuffle_epi32(efgh, 0x1b);                          /* E F G H */
        __m128i abef = _mm_alignr_epi8(badc, hgfe, 8);                         /* A B E F */
        __m128i cdgh = _mm_blend_epi16(hgfe, badc, 0xf0);                      /* C D G H */

        for (; n > 0; n--, p += 64) {
                const __m128i abef0 = abef, cdgh0 = cdgh;
                __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 0)), bswap);
                __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 16)), bswap);
                __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 32)), bswap);
                __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 48)), bswap);

                GROUP(0, m0);
                GROUP(1, m1);
                GROUP(2, m2);
                GROUP(3, m3);
                GROUPS(4, m0, m1, m2, m3);
                GROUPS(5, m1, m2, m3, m0);
                GROUPS(6, m2, m3, m0, m1);
                GROUPS(7, m3, m0, m1, m2);
                GROUPS(8, m0, m1, m2, m3);
                GROUPS(9, m1, m2, m3, m0);
                GROUPS(10, m2, m3, m0, m1);
                GROUPS(11, m3, m0, m1, m2);
                GROUPS(12, m0, m1, m2, m3);
                GROUPS(13, m1, m2, m3, m0);
                GROUPS(14, m2, m3, m0, m1);
                GROUPS(15, m3, m0, m1, m2);
                abef = _mm_add_epi32(abef, abef0);
                cdgh = _mm_add_epi32(cdgh, cdgh0);
        }
        abcd = _mm_blend_epi16(_mm_shuffle_epi32(abef, 0x1b), _mm_shuffle_epi32(cdgh, 0xb1), 0xf0);
        efgh = _mm_alignr_epi8(_mm_shuffle_epi32(cdgh, 0xb1), _mm_shuffle_epi32(abef, 0x1b), 8);
        _mm_storeu_si128((__m128i *)(void *)&st[0], abcd);
        _mm_storeu_si128((__m128i *)(void *)&st[4], efgh);
}

/* CPUID: leaf 7 (subleaf 0) EBX bit 29 is SHA; leaf 1 ECX bit 19 SSE4.1, bit 9
 * SSSE3 (the byte shuffles and the blend around the SHA instructions). Only
 * XMM registers are used, which every x86-64 OS saves, so no XGETBV check. */
static int cpu_has_sha(void)
{
        unsigned a, b, c, d;

        if (__get_cpuid_max(0, NULL) < 7)
                return 0;
        __cpuid(1, a, b, c, d);
        if (!(c & (1u << 19)) || !(c & (1u << 9)))
                return 0;
        __cpuid_count(7, 0, a, b, c, d);
        return (b >> 29) & 1;
}
#endif

/* ---- the dispatch ------------------------------------------------------------------------------------------ */

typedef void (*compress_fn)(uint32_t st[8], const uint8_t *p, size_t n);

/* What CPUID said: 0 not asked yet, 1 portable, 2 SHA-NI. Asked once; two
 * threads racing on the first call both store the same answer, and the
 * atomics make that race defined. */
static atomic_int cpu_kind;
static atomic_int forced_portable;

static compress_fn pick(void)
{
        int k = atomic_load_explicit(&cpu_kind, memory_order_relaxed);

        if (k == 0) {
#ifdef CC_SHA256_X86
                k = cpu_has_sha() ? 2 : 1;
#else
                k = 1;
#endif
                atomic_store_explicit(&cpu_kind, k, memory_order_relaxed);
        }
#ifdef CC_SHA256_X86
        if (k == 2 && !atomic_load_explicit(&forced_portable, memory_order_relaxed))
                return compress_shani;
#endif
        return compress_portable;
}

const char *cc_sha256_force_portable(int on)
{
        atomic_store_explicit(&forced_portable, on != 0, memory_order_relaxed);
        return pick() == compress_portable ? "portable" : "sha-ni";
}

/* ---- the stream ---------------------------------------------------------------------------------------------- */

void cc_sha256_init(cc_sha256 *s)
{
        static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

        memcpy(s->h, h0, sizeof(h0));
        s->bytes = 0;
        s->fill = 0;
}

void cc_sha256_update(cc_sha256 *s, const void *data, size_t n)
{
        cc_md_buf b = {s->block, &s->fill, &s->bytes};

        if (n == 0)
                return; /* data may be NULL then; no CPUID yet */
        cc_md_update(&b, s->h, data, n, pick());
}

void cc_sha256_final_hex(cc_sha256 *s, char hex[65])
{
        cc_md_buf b = {s->block, &s->fill, &s->bytes};

        /* FIPS 180-4 5.1.1: the length big-endian; the words' bytes likewise */
        cc_md_final(&b, s->h, 1, pick());
        cc_md_hex(s->h, 8, 1, hex);
}
