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

int cc_elf_load_release(const cc_elf *e, const uint8_t *data, size_t size, int out[3])
{
        uint64_t fva;
        size_t i, found = 0;
        int first[3] = {0, 0, 0};

        if (e->machine != CC_EM_X86_64 || e->bits != 64 || e->big_endian || fmt_vaddr(e, data, size, &fva) < 0)
                return -1;
        for (i = 0; i < e->nloads; i++) {
                const cc_elf_load *l = &e->loads[i];
                const uint8_t *seg, *p, *end;

                if (l->offset > size || l->filesz > size - l->offset)
                        continue;
                seg = data + l->offset;
                end = seg + l->filesz;
                /* lea r64, [rip + disp32]: REX.W (0x48 or 0x4c), 0x8d, modrm 00 reg 101 */
                for (p = seg + 1; p + 6 <= end; p++) {
                        const uint8_t *q = memchr(p, 0x8d, (size_t)(end - p) - 5);
                        int v[3];
                        int32_t disp;
                        size_t a, b;

                        if (q == NULL)
                                break;
                        p = q;
                        if ((q[-1] & 0xfb) != 0x48 || (q[1] & 0xc7) != 0x05)
                                continue;
                        disp = (int32_t)rd32(q + 2);
                        if (l->vaddr + (uint64_t)(q + 6 - seg) + (uint64_t)(int64_t)disp != fva)
                                continue;
                        a = (size_t)(q - seg) > WINDOW ? (size_t)(q - seg) - WINDOW : 0;
                        b = (size_t)(end - q) > WINDOW ? (size_t)(q - seg) + WINDOW : (size_t)(end - seg);
                        if (constants(seg + a, b - a, v) < 0)
                                return -1; /* a call read otherwise: no answer rather than a guess */
                        if (found++ && memcmp(v, first, sizeof(v)) != 0)
                                return -1;
                        memcpy(first, v, sizeof(v));
                }
        }
        if (!found)
                return -1;
        memcpy(out, first, sizeof(first));
        return 0;
}
