/* The release a cuDNN 9 library names what it loads by (loadnames.h).
 *
 * cuDNN 9's shim (libcudnn.so.9) and libcudnn_graph build the names of the
 * libraries they dlopen with snprintf(buf, 64, "%s.%d.%d.%d", base, MAJOR,
 * MINOR, PATCH), then "%s.%d.%d", then "%s.%d", trying each in turn (the
 * loader traces of docs/device/traces-h200.txt). On x86-64 the three numbers
 * are constants of the call: the fourth and fifth integer arguments in r8d
 * and r9d, the sixth pushed, next to the lea that loads the format's
 * address. NVIDIA's 9.x builds read so (9.14.0, 9.19.0): a copy of the shim
 * named only libcudnn.so.9 still asks for libcudnn_graph.so.9.14.0. */
#include "loadnames.h"

#include <string.h>

#define WINDOW 64 /* bytes around the lea searched for the constants */

/* The file offset of the first "%s.%d.%d.%d" string, as a virtual address. */
static int fmt_vaddr(const cc_elf *e, const uint8_t *data, size_t size, uint64_t *va)
{
        static const char fmt[] = "%s.%d.%d.%d";
        uint64_t lo = e->rodata_size ? e->rodata_off : 0, hi = e->rodata_size ? e->rodata_off + e->rodata_size : size;
        const uint8_t *p;
        size_t i;

        if (hi > size || lo >= hi)
                return -1;
        for (p = data + lo; (size_t)(data + hi - p) >= sizeof(fmt);) {
                const uint8_t *q = memchr(p, '%', (size_t)(data + hi - p) - (sizeof(fmt) - 1));

                if (q == NULL)
                        return -1;
                if (memcmp(q, fmt, sizeof(fmt)) == 0) {
                        uint64_t off = (uint64_t)(q - data);

                        for (i = 0; i < e->nloads; i++) {
                                const cc_elf_load *l = &e->loads[i];

                                if (off >= l->offset && off - l->offset < l->filesz) {
                                        *va = l->vaddr + (off - l->offset);
                                        return 0;
                                }
                        }
                        return -1;
                }
                p = q + 1;
        }
        return -1;
}

static uint32_t rd32(const uint8_t *p)
{
        return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The constants around one lea at w[at] (w holds n bytes): 0 and v set when
 * each of r8d, r9d and the pushed byte has exactly one value there. */
static int constants(const uint8_t *w, size_t n, int v[3])
{
        int got[3] = {0, 0, 0}, val[3] = {0, 0, 0}, k;
        size_t j;

        for (j = 0; j + 1 < n; j++) {
                int reg = -1, x = 0;

                if (w[j] == 0x41 && (w[j + 1] == 0xb8 || w[j + 1] == 0xb9) && j + 6 <= n) {
                        uint32_t u = rd32(w + j + 2);

                        if (u > 999)
                                continue;
                        reg = w[j + 1] == 0xb8 ? 0 : 1, x = (int)u; /* mov r8d / r9d, imm32 */
                } else if (w[j] == 0x45 && w[j + 1] == 0x31 && j + 3 <= n && (w[j + 2] == 0xc0 || w[j + 2] == 0xc9)) {
                        reg = w[j + 2] == 0xc0 ? 0 : 1; /* xor r8d,r8d / r9d,r9d: 0 */
                } else if (w[j] == 0x6a) {
                        reg = 2, x = w[j + 1]; /* push imm8 */
                        if (x > 127)
                                continue;
                }
                if (reg < 0)
                        continue;
                if (got[reg] && val[reg] != x)
                        return -1;
                got[reg] = 1, val[reg] = x;
        }
        for (k = 0; k < 3; k++)
                if (!got[k])
                        return -1;
        if (val[0] < 1 || val[0] > 99 || val[1] > 99 || val[2] > 99)
                return -1;
        memcpy(v, val, sizeof(val));
        return 0;
}

int cc_lea_rip_scan(const uint8_t *seg, size_t n, uint64_t vaddr, uint64_t target, int (*hit)(void *ctx, size_t at),
                    void *ctx)
{
        /* the lea at i loads vaddr + i + 6 + disp: disp + i is one value c
         * (mod 2^32) at every lea that loads target. Over a run of offsets
         * where c - i keeps its bits 16-23, the disp's third byte is known:
         * memchr for it (about one byte in 256 of code) finds each candidate,
         * where a search for 0x8d would stop at every lea */
        uint32_t c = (uint32_t)(target - vaddr - 6);
        size_t i = 1; /* offsets 1 .. n - 6 hold a whole lea with its prefix */

        while (n >= 7 && i + 6 <= n) {
                uint32_t want = c - (uint32_t)i; /* the disp a lea at i needs */
                size_t stop = i + (size_t)(want & 0xffff) + 1;
                const uint8_t *p, *end;

                if (stop > n - 5)
                        stop = n - 5;
                p = seg + i + 4;
                end = seg + stop + 4;
                while (p < end) {
                        const uint8_t *h = memchr(p, (int)((want >> 16) & 0xff), (size_t)(end - p));
                        size_t k;

                        if (h == NULL)
                                break;
                        p = h + 1;
                        k = (size_t)(h - seg) - 4;
                        if (seg[k] != 0x8d || (seg[k - 1] & 0xfb) != 0x48 || (seg[k + 1] & 0xc7) != 0x05 ||
                            vaddr + (uint64_t)(k + 6) + (uint64_t)(int64_t)(int32_t)rd32(seg + k + 2) != target)
                                continue;
                        if (hit(ctx, k) < 0)
                                return -1;
                }
                i = stop;
        }
        return 0;
}

struct release_scan {
        const uint8_t *seg;
        size_t n, found;
        int first[3];
};

/* One lea that loads the format: the constants around it, the same at
 * every one. */
static int release_hit(void *ctx, size_t k)
{
        struct release_scan *r = ctx;
        size_t a = k > WINDOW ? k - WINDOW : 0, b = r->n - k > WINDOW ? k + WINDOW : r->n;
        int v[3];

        if (constants(r->seg + a, b - a, v) < 0)
                return -1; /* a call read otherwise: no answer rather than a guess */
        if (r->found++ && memcmp(v, r->first, sizeof(v)) != 0)
                return -1;
        memcpy(r->first, v, sizeof(v));
        return 0;
}

int cc_elf_load_release(const cc_elf *e, const uint8_t *data, size_t size, int out[3])
{
        uint64_t fva;
        size_t i;
        struct release_scan r;

        memset(&r, 0, sizeof(r));
        if (e->machine != CC_EM_X86_64 || e->bits != 64 || e->big_endian || fmt_vaddr(e, data, size, &fva) < 0)
                return -1;
        /* the code: .text where the section headers name it (a library's
         * first segment also holds its symbols, read-only data and unwind
         * tables: a third of cuDNN's graph library), else every segment */
        for (i = 0; i < e->nloads; i++) {
                const cc_elf_load *l = &e->loads[i];
                uint64_t off = l->offset, n = l->filesz;

                if (off > size || n > size - off)
                        continue;
                if (e->text_size > 0) {
                        if (e->text_off < off || e->text_off - off > n || e->text_size > n - (e->text_off - off))
                                continue;
                        n = e->text_size;
                        off = e->text_off;
                }
                r.seg = data + off;
                r.n = (size_t)n;
                if (cc_lea_rip_scan(r.seg, r.n, l->vaddr + (off - l->offset), fva, release_hit, &r) < 0)
                        return -1;
                if (e->text_size > 0)
                        break;
        }
        if (!r.found)
                return -1;
        memcpy(out, r.first, sizeof(r.first));
        return 0;
}
