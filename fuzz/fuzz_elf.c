/* Fuzz target for the ELF reader: parse, walk everything the parser hands
 * out, read each 4-byte OBJECT symbol through cc_elf_read_vaddr, read the
 * release cuDNN's loading code names (cc_elf_load_release; its search for
 * the leas against a plain one, byte by byte), parse again keeping some symbols
 * (cc_elf_parse_keep, cc_elf_parse_kept), free. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/elf.h"
#include "formats/loadnames.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every lea that loads target, offset by offset: the reference for
 * cc_lea_rip_scan. */
struct leas {
        size_t n, at[64];
};

static int note_lea(void *ctx, size_t at)
{
        struct leas *l = ctx;

        if (l->n < 64)
                l->at[l->n] = at;
        l->n++;
        return 0;
}

static void plain_leas(const uint8_t *seg, size_t n, uint64_t vaddr, uint64_t target, struct leas *out)
{
        size_t k;

        for (k = 1; k + 6 <= n; k++) {
                uint32_t d = (uint32_t)seg[k + 2] | (uint32_t)seg[k + 3] << 8 | (uint32_t)seg[k + 4] << 16 |
                             (uint32_t)seg[k + 5] << 24;

                if (seg[k] == 0x8d && (seg[k - 1] & 0xfb) == 0x48 && (seg[k + 1] & 0xc7) == 0x05 &&
                    vaddr + (uint64_t)(k + 6) + (uint64_t)(int64_t)(int32_t)d == target)
                        (void)note_lea(out, k);
        }
}

/* cc_lea_rip_scan against the plain search, over the input as code mapped
 * at an address its first bytes choose, for a target near one of its leas
 * (or anywhere). */
static void check_leas(const uint8_t *data, size_t size)
{
        struct leas got = {0}, want = {0};
        uint64_t vaddr = 0, target;
        size_t i;

        if (size < 16)
                return;
        for (i = 0; i < 8; i++)
                vaddr |= (uint64_t)data[i] << (8 * i);
        vaddr &= 0xffffffffffffull; /* an address a process has */
        target = vaddr + (data[8] | (uint64_t)data[9] << 8 | (uint64_t)data[10] << 16);
        for (i = 1; i + 6 <= size; i++)
                if (data[i] == 0x8d && (data[i - 1] & 0xfb) == 0x48 && (data[i + 1] & 0xc7) == 0x05 && (data[11] & 1)) {
                        uint32_t d = (uint32_t)data[i + 2] | (uint32_t)data[i + 3] << 8 | (uint32_t)data[i + 4] << 16 |
                                     (uint32_t)data[i + 5] << 24;

                        target = vaddr + i + 6 + (uint64_t)(int64_t)(int32_t)d; /* the first lea's */
                        break;
                }
        (void)cc_lea_rip_scan(data, size, vaddr, target, note_lea, &got);
        plain_leas(data, size, vaddr, target, &want);
        if (got.n != want.n || memcmp(got.at, want.at, (got.n < 64 ? got.n : 64) * sizeof(got.at[0])) != 0)
                abort();
}

/* A keep function (cc_elf_parse_keep): names starting with 'c'. */
static int keep_c(void *ctx, const char *name)
{
        (void)ctx;
        return name[0] == 'c';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        cc_error err = {0};
        cc_elf *e = NULL;
        volatile size_t sink = 0;
        size_t i;

        (void)cc_elf_is(data, size);
        check_leas(data, size);
        if (cc_elf_parse(data, size, &e, &err) != 0) {
                /* one line, NUL-terminated */
                sink += strlen(err.msg);
                return 0;
        }
        (void)cc_elf_machine_name(e->machine);
        (void)cc_elf_type_name(e->type);
        if (e->soname)
                sink += strlen(e->soname);
        if (e->rpath)
                sink += strlen(e->rpath);
        if (e->runpath)
                sink += strlen(e->runpath);
        if (e->interp)
                sink += strlen(e->interp);
        for (i = 0; i < e->needed.n; i++)
                sink += strlen(e->needed.v[i]);
        for (i = 0; i < e->warnings.n; i++)
                sink += strlen(e->warnings.v[i]);
        for (i = 0; i < e->nsyms; i++) {
                const cc_elf_sym *s = &e->syms[i];
                uint8_t buf[4];

                sink += strlen(s->name);
                /* a lookup finds a symbol of that name (only the first few: linear) */
                if (i < 64 && cc_elf_find_sym(e, s->name) == NULL)
                        abort();
                if (s->type == CC_STT_OBJECT && s->size == 4 &&
                    cc_elf_read_vaddr(e, data, size, s->value, buf, sizeof(buf), &err) == 0)
                        sink += buf[0];
        }
        /* the sections noted are inside the file */
        if ((e->rodata_size && !cc_range_ok(size, e->rodata_off, e->rodata_size)) ||
            (e->text_size && !cc_range_ok(size, e->text_off, e->text_size)))
                abort();
        for (i = 0; i < e->nloads; i++) {
                uint8_t b;

                if (cc_elf_read_vaddr(e, data, size, e->loads[i].vaddr, &b, 1, &err) == 0)
                        sink += b;
        }
        {
                int rel[3];

                if (cc_elf_load_release(e, data, size, rel) == 0 &&
                    (rel[0] < 1 || rel[0] > 99 || rel[1] < 0 || rel[1] > 99 || rel[2] < 0 || rel[2] > 99))
                        abort();
        }
        /* the same parse keeping only some symbols: every one still counted */
        {
                cc_elf *k = NULL;
                cc_error kerr = {0};

                if (cc_elf_parse_keep(data, size, 0, keep_c, NULL, &k, &kerr) != 0 || k->nexports != e->nexports ||
                    e->nexports != e->nsyms || k->nsyms > k->nexports)
                        abort();
                for (i = 0; i < k->nsyms; i++)
                        if (k->syms[i].name[0] != 'c')
                                abort();
                cc_elf_free(k);
        }
        /* and only the names that start with "cu" looked at (cc_elf_parse_kept):
         * the full parse's such names, in its order */
        {
                cc_elf *k = NULL;
                cc_error kerr = {0};
                size_t j = 0;

                if (cc_elf_parse_kept(data, size, 0, "cu", keep_c, NULL, &k, &kerr) != 0)
                        abort();
                for (i = 0; i < e->nsyms; i++) {
                        if (strncmp(e->syms[i].name, "cu", 2) != 0)
                                continue;
                        /* the table walked whole (not ending in NUL): other 'c' names kept too */
                        while (j < k->nsyms && strncmp(k->syms[j].name, "cu", 2) != 0 && !k->exports_uncounted)
                                j++;
                        if (j >= k->nsyms || strcmp(k->syms[j].name, e->syms[i].name) != 0 ||
                            k->syms[j].value != e->syms[i].value)
                                abort();
                        j++;
                }
                if (k->exports_uncounted && (j != k->nsyms || k->nexports != k->nsyms))
                        abort();
                cc_elf_free(k);
        }
        cc_elf_free(e);
        (void)sink;
        return 0;
}
