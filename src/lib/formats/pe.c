/* PE/COFF reader and COFF import library reader. See pe.h.
 *
 * Layouts follow the Microsoft PE/COFF specification. Every read goes through
 * cc_rd_* or a mapped-range check; every count read from the file is capped
 * below; anything that is not fatal to the headers becomes a warning. */
#include "pe.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Bounds. The Windows loader refuses images with more than 96 sections. */
#define PE_MAX_SECTIONS 96
#define PE_MAX_DIRS 16
#define PE_MAX_IMPORT_DESCS 4096
#define PE_MAX_NAME 4096 /* bytes of one DLL or symbol name */
#define PE_MAX_EXPORT_NAMES ((uint32_t)1 << 20)
#define PE_MAX_EXPORT_FUNCS ((uint32_t)1 << 22)
#define PE_MAX_EXPORT_BYTES ((size_t)64 << 20) /* all export names together */
#define PE_MAX_RES_ENTRIES 4096                /* per resource directory */
#define PE_MAX_RES_DIRS 256                    /* directories visited in one walk */
#define PE_RES_DEPTH 3                         /* type, name, language */
#define PE_MAX_VERSION_RES 8
#define PE_MAX_STRINGS 4096
#define PE_MAX_TRANSLATIONS 1024
#define PE_MAX_WARNINGS 64

#define PE_DIR_EXPORT 0
#define PE_DIR_IMPORT 1
#define PE_DIR_RESOURCE 2
#define PE_DIR_DELAY_IMPORT 13

#define PE_RT_VERSION 16
#define PE_FIXED_SIGNATURE 0xFEEF04BDu
#define PE_FIXED_SIZE 52

#define IMPLIB_MAX_MEMBERS ((size_t)1 << 20)
#define IMPLIB_MAX_DLLS 1024
#define IMPLIB_MAX_OBJ_SECTIONS 256

struct pe_section {
        uint32_t va;
        uint32_t vsize;
        uint32_t raw_off;
        uint32_t raw_size;
};

struct pe_dir {
        uint32_t rva;
        uint32_t size;
};

struct pe_ctx {
        const uint8_t *d;
        size_t n;
        cc_pe *pe;
        cc_error *err;
        struct pe_section *secs;
        size_t nsecs;
        uint32_t size_of_headers;
        uint64_t image_base;
        struct pe_dir dirs[PE_MAX_DIRS];
        size_t ndirs;
        size_t nwarnings; /* including suppressed ones */
};

/* ---- helpers --------------------------------------------------------------- */

static int warn(struct pe_ctx *c, const char *fmt, ...) CC_PRINTF(2, 3);

/* Add a warning; -1 only when out of memory. */
static int warn(struct pe_ctx *c, const char *fmt, ...)
{
        cc_buf b = {0};
        va_list ap;
        int rv;

        c->nwarnings++;
        if (c->nwarnings > PE_MAX_WARNINGS + 1)
                return 0;
        if (c->nwarnings == PE_MAX_WARNINGS + 1)
                return cc_strv_push(&c->pe->warnings, "further warnings suppressed", c->err);
        va_start(ap, fmt);
        rv = cc_buf_vprintf(&b, c->err, fmt, ap);
        va_end(ap);
        if (rv < 0) {
                cc_buf_free(&b);
                return -1;
        }
        return cc_strv_take(&c->pe->warnings, cc_buf_steal(&b), c->err);
}

/* Map [rva, rva+len) to a file offset. *avail gets the number of bytes
 * readable from there to the end of the section's raw data (or of the
 * headers). Returns 0 when all len bytes are in the file, -1 if not. */
static int rva_map(const struct pe_ctx *c, uint32_t rva, uint64_t len, uint64_t *off, uint64_t *avail)
{
        size_t i;

        for (i = 0; i < c->nsecs; i++) {
                const struct pe_section *s = &c->secs[i];
                uint64_t span = s->vsize > s->raw_size ? s->vsize : s->raw_size;
                uint64_t delta, end;

                if (rva < s->va || (uint64_t)rva - s->va >= span)
                        continue;
                delta = (uint64_t)rva - s->va;
                if (delta >= s->raw_size || s->raw_off >= c->n)
                        return -1;
                end = (uint64_t)s->raw_off + s->raw_size;
                if (end > c->n)
                        end = c->n;
                if ((uint64_t)s->raw_off + delta >= end)
                        return -1;
                *off = (uint64_t)s->raw_off + delta;
                *avail = end - *off;
                return *avail >= len ? 0 : -1;
        }
        /* Not in a section: the headers are mapped at RVA 0. */
        {
                uint64_t hend = c->size_of_headers < c->n ? c->size_of_headers : c->n;

                if (rva >= hend)
                        return -1;
                *off = rva;
                *avail = hend - rva;
                return *avail >= len ? 0 : -1;
        }
}

static int rva_ok(const struct pe_ctx *c, uint32_t rva, uint64_t len)
{
        uint64_t off, avail;

        return rva_map(c, rva, len, &off, &avail) == 0;
}

static int rva_u16(const struct pe_ctx *c, uint32_t rva, uint16_t *out)
{
        uint64_t off, avail;

        if (rva_map(c, rva, 2, &off, &avail) < 0)
                return -1;
        return cc_rd_u16(c->d, c->n, off, 0, out);
}

static int rva_u32(const struct pe_ctx *c, uint32_t rva, uint32_t *out)
{
        uint64_t off, avail;

        if (rva_map(c, rva, 4, &off, &avail) < 0)
                return -1;
        return cc_rd_u32(c->d, c->n, off, 0, out);
}

/* rva + delta as an RVA; -1 if it does not fit in 32 bits. */
static int rva_add(uint32_t rva, uint64_t delta, uint32_t *out)
{
        uint64_t v = (uint64_t)rva + delta;

        if (v > UINT32_MAX)
                return -1;
        *out = (uint32_t)v;
        return 0;
}

/* The NUL-terminated string at rva (at most PE_MAX_NAME bytes). Returns 1 and
 * sets *out (caller frees), 0 if it cannot be read, -1 when out of memory. */
static int rva_cstr(const struct pe_ctx *c, uint32_t rva, char **out, size_t *len)
{
        uint64_t off, avail;
        const uint8_t *nul;
        size_t max;

        *out = NULL;
        if (rva_map(c, rva, 1, &off, &avail) < 0)
                return 0;
        max = avail < PE_MAX_NAME ? (size_t)avail : PE_MAX_NAME;
        nul = memchr(c->d + off, 0, max);
        if (nul == NULL)
                return 0;
        *out = cc_strndup(c->err, (const char *)(c->d + off), (size_t)(nul - (c->d + off)));
        if (*out == NULL)
                return -1;
        if (len != NULL)
                *len = (size_t)(nul - (c->d + off));
        return 1;
}

static int all_zero(const uint8_t *p, size_t n)
{
        size_t i;

        for (i = 0; i < n; i++)
                if (p[i] != 0)
                        return 0;
        return 1;
}

/* Number of UTF-16 units before the first NUL unit in [p, p+nbytes); sets
 * *terminated. An odd trailing byte is ignored. */
static size_t utf16_len(const uint8_t *p, size_t nbytes, int *terminated)
{
        size_t i, n = nbytes / 2;

        for (i = 0; i < n; i++) {
                if (p[2 * i] == 0 && p[2 * i + 1] == 0) {
                        *terminated = 1;
                        return i;
                }
        }
        *terminated = 0;
        return n;
}

/* ---- headers ------------------------------------------------------------------ */

int cc_pe_is(const uint8_t *data, size_t size)
{
        uint32_t lfanew;

        if (data == NULL || size < 64 || data[0] != 'M' || data[1] != 'Z')
                return 0;
        if (cc_rd_u32(data, size, 0x3c, 0, &lfanew) < 0 || lfanew >= 0x80000000u)
                return 0;
        if (!cc_range_ok(size, lfanew, 4))
                return 0;
        return memcmp(data + lfanew, "PE\0\0", 4) == 0;
}

const char *cc_pe_machine_name(uint16_t machine)
{
        switch (machine) {
        case CC_PE_MACHINE_I386:
                return "x86";
        case CC_PE_MACHINE_AMD64:
                return "x64";
        case CC_PE_MACHINE_ARM64:
                return "arm64";
        case CC_PE_MACHINE_ARMNT:
                return "arm";
        default:
                return NULL;
        }
}

static int parse_headers(struct pe_ctx *c)
{
        const uint8_t *d = c->d;
        size_t n = c->n;
        cc_pe *pe = c->pe;
        uint32_t lfanew, nrva, u32;
        uint64_t coff, opt, sect, ddoff;
        uint16_t nsec, optsize, magic;
        size_t i;

        if (n < 64)
                return cc_err(c->err, CC_ERR_TRUNCATED, "too small for a DOS header (%zu bytes)", n);
        if (d[0] != 'M' || d[1] != 'Z')
                return cc_err(c->err, CC_ERR_FORMAT, "no MZ signature");
        if (cc_rd_u32(d, n, 0x3c, 0, &lfanew) < 0)
                return cc_err(c->err, CC_ERR_TRUNCATED, "DOS header truncated");
        if (lfanew >= 0x80000000u)
                return cc_err(c->err, CC_ERR_FORMAT, "e_lfanew is negative (0x%08x)", (unsigned)lfanew);
        if (!cc_range_ok(n, lfanew, 4))
                return cc_err(c->err, CC_ERR_TRUNCATED, "e_lfanew 0x%x points past the end of the file (%zu bytes)",
                              (unsigned)lfanew, n);
        if (memcmp(d + lfanew, "PE\0\0", 4) != 0)
                return cc_err(c->err, CC_ERR_FORMAT, "no PE signature at e_lfanew 0x%x", (unsigned)lfanew);
        coff = (uint64_t)lfanew + 4;
        if (!cc_range_ok(n, coff, 20))
                return cc_err(c->err, CC_ERR_TRUNCATED, "COFF header truncated");
        cc_rd_u16(d, n, coff, 0, &pe->machine);
        cc_rd_u16(d, n, coff + 2, 0, &nsec);
        cc_rd_u32(d, n, coff + 4, 0, &pe->timestamp);
        cc_rd_u16(d, n, coff + 16, 0, &optsize);
        cc_rd_u16(d, n, coff + 18, 0, &pe->characteristics);
        pe->is_dll = (pe->characteristics & 0x2000) != 0;

        opt = coff + 20;
        if (optsize < 2)
                return cc_err(c->err, CC_ERR_FORMAT, "no optional header (SizeOfOptionalHeader %u): not an image",
                              (unsigned)optsize);
        if (!cc_range_ok(n, opt, optsize))
                return cc_err(c->err, CC_ERR_TRUNCATED, "optional header (%u bytes) runs past the end of the file",
                              (unsigned)optsize);
        cc_rd_u16(d, n, opt, 0, &magic);
        if (magic == 0x20b) {
                pe->pe32plus = 1;
                if (optsize < 112)
                        return cc_err(c->err, CC_ERR_FORMAT, "PE32+ optional header too small (%u bytes)",
                                      (unsigned)optsize);
                cc_rd_u64(d, n, opt + 24, 0, &c->image_base);
                cc_rd_u32(d, n, opt + 108, 0, &nrva);
                ddoff = 112;
        } else if (magic == 0x10b) {
                if (optsize < 96)
                        return cc_err(c->err, CC_ERR_FORMAT, "PE32 optional header too small (%u bytes)",
                                      (unsigned)optsize);
                cc_rd_u32(d, n, opt + 28, 0, &u32);
                c->image_base = u32;
                cc_rd_u32(d, n, opt + 92, 0, &nrva);
                ddoff = 96;
        } else {
                return cc_err(c->err, CC_ERR_FORMAT, "unknown optional header magic 0x%x", (unsigned)magic);
        }
        cc_rd_u32(d, n, opt + 60, 0, &c->size_of_headers);
        cc_rd_u16(d, n, opt + 68, 0, &pe->subsystem);

        c->ndirs = nrva;
        if (nrva > PE_MAX_DIRS) {
                if (warn(c, "NumberOfRvaAndSizes is %u; reading 16", (unsigned)nrva) < 0)
                        return -1;
                c->ndirs = PE_MAX_DIRS;
        }
        if (c->ndirs > (optsize - ddoff) / 8) {
                if (warn(c, "NumberOfRvaAndSizes %u does not fit in the optional header", (unsigned)nrva) < 0)
                        return -1;
                c->ndirs = (size_t)((optsize - ddoff) / 8);
        }
        for (i = 0; i < c->ndirs; i++) {
                cc_rd_u32(d, n, opt + ddoff + 8 * i, 0, &c->dirs[i].rva);
                cc_rd_u32(d, n, opt + ddoff + 8 * i + 4, 0, &c->dirs[i].size);
        }

        if (nsec > PE_MAX_SECTIONS)
                return cc_err(c->err, CC_ERR_LIMIT, "NumberOfSections is %u (the limit is %d)", (unsigned)nsec,
                              PE_MAX_SECTIONS);
        sect = opt + optsize;
        if (!cc_range_ok(n, sect, (uint64_t)nsec * 40))
                return cc_err(c->err, CC_ERR_TRUNCATED,
                              "section table (%u entries at 0x%llx) runs past the end of the file", (unsigned)nsec,
                              (unsigned long long)sect);
        if (nsec > 0) {
                c->secs = cc_calloc(c->err, nsec, sizeof(*c->secs));
                if (c->secs == NULL)
                        return -1;
        }
        for (i = 0; i < nsec; i++) {
                uint64_t s = sect + 40 * (uint64_t)i;

                cc_rd_u32(d, n, s + 8, 0, &c->secs[i].vsize);
                cc_rd_u32(d, n, s + 12, 0, &c->secs[i].va);
                cc_rd_u32(d, n, s + 16, 0, &c->secs[i].raw_size);
                cc_rd_u32(d, n, s + 20, 0, &c->secs[i].raw_off);
                /* the first .rdata (read-only data) inside the file */
                if (c->pe->rdata_size == 0 && memcmp(d + s, ".rdata\0", 7) == 0 &&
                    cc_range_ok(n, c->secs[i].raw_off, c->secs[i].raw_size)) {
                        c->pe->rdata_off = c->secs[i].raw_off;
                        c->pe->rdata_size = c->secs[i].raw_size;
                }
        }
        c->nsecs = nsec;
        return 0;
}

/* ---- imports ------------------------------------------------------------------ */

/* The import (delay == 0) or delay-import directory. */
static int parse_imports(struct pe_ctx *c, int delay)
{
        const struct pe_dir *dir = &c->dirs[delay ? PE_DIR_DELAY_IMPORT : PE_DIR_IMPORT];
        const char *what = delay ? "delay-import" : "import";
        uint32_t desc_size = delay ? 32 : 20;
        cc_strv *out = delay ? &c->pe->delay_imports : &c->pe->imports;
        size_t i;

        if ((size_t)(delay ? PE_DIR_DELAY_IMPORT : PE_DIR_IMPORT) >= c->ndirs || dir->rva == 0)
                return 0;
        for (i = 0;; i++) {
                uint32_t rva, name_rva, attrs = 0;
                uint64_t off, avail;
                char *name = NULL;
                int r;

                if (i == PE_MAX_IMPORT_DESCS)
                        return warn(c, "%s directory has more than %d descriptors; stopped", what, PE_MAX_IMPORT_DESCS);
                if (rva_add(dir->rva, (uint64_t)i * desc_size, &rva) < 0 ||
                    rva_map(c, rva, desc_size, &off, &avail) < 0) {
                        if (i == 0)
                                return warn(c, "%s directory at RVA 0x%x is outside the file", what,
                                            (unsigned)dir->rva);
                        return warn(c, "%s directory has no terminating descriptor (%zu read)", what, i);
                }
                if (all_zero(c->d + off, desc_size))
                        break;
                if (delay) {
                        cc_rd_u32(c->d, c->n, off, 0, &attrs);
                        cc_rd_u32(c->d, c->n, off + 4, 0, &name_rva);
                        /* Old form (grAttrs bit 0 clear): virtual addresses. */
                        if (!(attrs & 1) && name_rva >= c->image_base && c->image_base != 0)
                                name_rva = (uint32_t)(name_rva - c->image_base);
                } else {
                        cc_rd_u32(c->d, c->n, off + 12, 0, &name_rva);
                }
                if (name_rva == 0)
                        break;
                r = rva_cstr(c, name_rva, &name, NULL);
                if (r < 0)
                        return -1;
                if (r == 0) {
                        if (warn(c, "%s descriptor %zu: DLL name at RVA 0x%x cannot be read", what, i,
                                 (unsigned)name_rva) < 0)
                                return -1;
                        continue;
                }
                if (cc_strv_take(out, name, c->err) < 0)
                        return -1;
        }
        return 0;
}

/* ---- exports ------------------------------------------------------------------ */

static int parse_exports(struct pe_ctx *c)
{
        const struct pe_dir *dir = &c->dirs[PE_DIR_EXPORT];
        uint32_t name_rva, nfuncs, nnames, aof, aon, aono, i;
        uint64_t off, avail, total = 0;
        uint8_t *named = NULL;
        int rv = -1, r;

        if (PE_DIR_EXPORT >= c->ndirs || dir->rva == 0)
                return 0;
        if (rva_map(c, dir->rva, 40, &off, &avail) < 0)
                return warn(c, "export directory at RVA 0x%x is outside the file", (unsigned)dir->rva);
        cc_rd_u32(c->d, c->n, off + 12, 0, &name_rva);
        cc_rd_u32(c->d, c->n, off + 20, 0, &nfuncs);
        cc_rd_u32(c->d, c->n, off + 24, 0, &nnames);
        cc_rd_u32(c->d, c->n, off + 28, 0, &aof);
        cc_rd_u32(c->d, c->n, off + 32, 0, &aon);
        cc_rd_u32(c->d, c->n, off + 36, 0, &aono);

        if (name_rva != 0) {
                r = rva_cstr(c, name_rva, &c->pe->export_name, NULL);
                if (r < 0)
                        goto fail;
                if (r == 0 && warn(c, "export DLL name at RVA 0x%x cannot be read", (unsigned)name_rva) < 0)
                        goto fail;
        }

        if (nfuncs > PE_MAX_EXPORT_FUNCS) {
                if (warn(c, "NumberOfFunctions is %u; reading %u", (unsigned)nfuncs, (unsigned)PE_MAX_EXPORT_FUNCS) < 0)
                        goto fail;
                nfuncs = PE_MAX_EXPORT_FUNCS;
        }
        if (nfuncs > 0 && rva_map(c, aof, (uint64_t)nfuncs * 4, &off, &avail) < 0) {
                uint32_t fit = rva_map(c, aof, 4, &off, &avail) == 0 ? (uint32_t)(avail / 4) : 0;

                if (warn(c, "export address table (%u entries) runs past its section; reading %u", (unsigned)nfuncs,
                         (unsigned)fit) < 0)
                        goto fail;
                nfuncs = fit;
        }
        if (nfuncs > 0) {
                named = cc_calloc(c->err, nfuncs, 1);
                if (named == NULL)
                        goto fail;
        }

        if (nnames > PE_MAX_EXPORT_NAMES) {
                if (warn(c, "NumberOfNames is %u; reading %u", (unsigned)nnames, (unsigned)PE_MAX_EXPORT_NAMES) < 0)
                        goto fail;
                nnames = PE_MAX_EXPORT_NAMES;
        }
        if (nnames > 0 && rva_map(c, aon, (uint64_t)nnames * 4, &off, &avail) < 0) {
                uint32_t fit = rva_map(c, aon, 4, &off, &avail) == 0 ? (uint32_t)(avail / 4) : 0;

                if (warn(c, "export name table (%u entries) runs past its section; reading %u", (unsigned)nnames,
                         (unsigned)fit) < 0)
                        goto fail;
                nnames = fit;
        }
        for (i = 0; i < nnames; i++) {
                uint32_t nrva = 0;
                uint16_t ord;
                char *s = NULL;
                size_t len = 0;

                rva_u32(c, aon + 4 * i, &nrva); /* mapped above */
                if (rva_u16(c, (uint32_t)(aono + 2 * (uint64_t)i), &ord) == 0 && ord < nfuncs)
                        named[ord] = 1;
                r = rva_cstr(c, nrva, &s, &len);
                if (r < 0)
                        goto fail;
                if (r == 0) {
                        if (warn(c, "export name %u at RVA 0x%x cannot be read", (unsigned)i, (unsigned)nrva) < 0)
                                goto fail;
                        continue;
                }
                total += len + 1;
                if (total > PE_MAX_EXPORT_BYTES) {
                        free(s);
                        if (warn(c, "export names exceed %zu bytes; stopped", PE_MAX_EXPORT_BYTES) < 0)
                                goto fail;
                        break;
                }
                if (cc_strv_take(&c->pe->exports, s, c->err) < 0)
                        goto fail;
        }
        for (i = 0; i < nfuncs; i++) {
                uint32_t frva = 0;

                rva_u32(c, aof + 4 * i, &frva); /* mapped above */
                if (!named[i] && frva != 0)
                        c->pe->exports_by_ordinal_only++;
        }
        rv = 0;
fail:
        free(named);
        return rv;
}

/* ---- VS_VERSIONINFO ------------------------------------------------------------- */

/* One block of the version resource: WORD wLength, wValueLength, wType,
 * WCHAR szKey[], padding, Value, padding, Children. Offsets are relative to
 * the start of the resource data. */
struct ver_block {
        size_t off, end;
        uint16_t value_len, type;
        size_t key_off, key_units;
        size_t value_off;
        size_t children_off;
};

struct ver_ctx {
        struct pe_ctx *c;
        const uint8_t *p;
        size_t len;
        uint32_t phase; /* RVA of the data modulo 4: blocks are aligned on RVAs */
};

static size_t ver_align(const struct ver_ctx *v, size_t off)
{
        size_t a = ((off + v->phase + 3) & ~(size_t)3) - v->phase;

        return a < off ? off : a;
}

/* Read the block at off, inside [.., end). Returns 1 on success, 0 when there
 * is no block (the list ends), -1 when out of memory. */
static int ver_block_read(struct ver_ctx *v, size_t off, size_t end, int text_value, struct ver_block *b)
{
        uint16_t wlen;
        int term;
        size_t vbytes;

        if (end - off < 6)
                return 0;
        cc_rd_u16(v->p, v->len, off, 0, &wlen);
        cc_rd_u16(v->p, v->len, off + 2, 0, &b->value_len);
        cc_rd_u16(v->p, v->len, off + 4, 0, &b->type);
        if (wlen == 0)
                return 0; /* padding at the end of a list */
        if (wlen < 6)
                return warn(v->c, "version resource: block at offset %zu has wLength %u", off, (unsigned)wlen) < 0 ? -1
                                                                                                                   : 0;
        b->off = off;
        b->end = off + wlen;
        if (b->end > end) {
                if (warn(v->c, "version resource: block at offset %zu has wLength %u, past the data (%zu bytes left)",
                         off, (unsigned)wlen, end - off) < 0)
                        return -1;
                b->end = end;
        }
        b->key_off = off + 6;
        b->key_units = utf16_len(v->p + b->key_off, b->end - b->key_off, &term);
        if (!term)
                return warn(v->c, "version resource: key at offset %zu is not terminated", b->key_off) < 0 ? -1 : 0;
        b->value_off = ver_align(v, b->key_off + 2 * b->key_units + 2);
        if (b->value_off > b->end)
                b->value_off = b->end;
        vbytes = text_value ? 2 * (size_t)b->value_len : b->value_len;
        if (vbytes > b->end - b->value_off)
                vbytes = b->end - b->value_off;
        b->children_off = ver_align(v, b->value_off + vbytes);
        if (b->children_off > b->end)
                b->children_off = b->end;
        return 1;
}

static int ver_key_is(const struct ver_ctx *v, const struct ver_block *b, const char *key)
{
        size_t i, n = strlen(key);

        if (b->key_units != n)
                return 0;
        for (i = 0; i < n; i++)
                if (v->p[b->key_off + 2 * i] != (uint8_t)key[i] || v->p[b->key_off + 2 * i + 1] != 0)
                        return 0;
        return 1;
}

static int ver_strings(struct ver_ctx *v, const struct ver_block *sfi)
{
        cc_pe *pe = v->c->pe;
        struct ver_block tb, sb;
        size_t pos, spos;
        int r;

        for (pos = sfi->children_off; pos < sfi->end; pos = ver_align(v, tb.end)) {
                char *table;

                r = ver_block_read(v, pos, sfi->end, 0, &tb);
                if (r <= 0)
                        return r;
                table = cc_utf16le_to_utf8(v->p + tb.key_off, tb.key_units, v->c->err);
                if (table == NULL)
                        return -1;
                for (spos = tb.children_off; spos < tb.end; spos = ver_align(v, sb.end)) {
                        cc_pe_string *s;
                        size_t vunits;
                        int term;

                        r = ver_block_read(v, spos, tb.end, 1, &sb);
                        if (r <= 0)
                                break;
                        if (pe->nstrings == PE_MAX_STRINGS) {
                                r = warn(v->c, "version resource has more than %d strings; stopped", PE_MAX_STRINGS);
                                break;
                        }
                        s = cc_realloc(v->c->err, pe->strings, (pe->nstrings + 1) * sizeof(*s));
                        if (s == NULL) {
                                r = -1;
                                break;
                        }
                        pe->strings = s;
                        s = &pe->strings[pe->nstrings];
                        memset(s, 0, sizeof(*s));
                        vunits = 0;
                        if (sb.value_len > 0)
                                vunits = utf16_len(v->p + sb.value_off, sb.end - sb.value_off, &term);
                        s->table = cc_strdup(v->c->err, table);
                        s->key = cc_utf16le_to_utf8(v->p + sb.key_off, sb.key_units, v->c->err);
                        s->value = cc_utf16le_to_utf8(v->p + sb.value_off, vunits, v->c->err);
                        pe->nstrings++; /* freed by cc_pe_free even if incomplete */
                        if (s->table == NULL || s->key == NULL || s->value == NULL) {
                                r = -1;
                                break;
                        }
                }
                free(table);
                if (r < 0)
                        return -1;
        }
        return 0;
}

static int ver_vars(struct ver_ctx *v, const struct ver_block *vfi)
{
        cc_pe *pe = v->c->pe;
        struct ver_block vb;
        size_t pos, i, n;
        int r;

        for (pos = vfi->children_off; pos < vfi->end; pos = ver_align(v, vb.end)) {
                uint32_t *t;

                r = ver_block_read(v, pos, vfi->end, 0, &vb);
                if (r <= 0)
                        return r;
                if (!ver_key_is(v, &vb, "Translation"))
                        continue;
                n = vb.value_len;
                if (n > vb.end - vb.value_off)
                        n = vb.end - vb.value_off;
                n /= 4;
                if (n > PE_MAX_TRANSLATIONS - pe->ntranslations) {
                        if (warn(v->c, "version resource has more than %d translations", PE_MAX_TRANSLATIONS) < 0)
                                return -1;
                        n = PE_MAX_TRANSLATIONS - pe->ntranslations;
                }
                if (n == 0)
                        continue;
                t = cc_realloc(v->c->err, pe->translations, (pe->ntranslations + n) * sizeof(*t));
                if (t == NULL)
                        return -1;
                pe->translations = t;
                for (i = 0; i < n; i++) {
                        uint16_t lang, cp;

                        cc_rd_u16(v->p, v->len, vb.value_off + 4 * i, 0, &lang);
                        cc_rd_u16(v->p, v->len, vb.value_off + 4 * i + 2, 0, &cp);
                        t[pe->ntranslations++] = ((uint32_t)lang << 16) | cp;
                }
        }
        return 0;
}

/* Parse one VS_VERSIONINFO resource of len bytes at p (RVA rva). */
static int parse_version(struct pe_ctx *c, const uint8_t *p, size_t len, uint32_t rva)
{
        struct ver_ctx v;
        struct ver_block root, ch;
        cc_pe *pe = c->pe;
        size_t pos;
        int r;

        v.c = c;
        v.p = p;
        v.len = len;
        v.phase = rva & 3;
        r = ver_block_read(&v, 0, len, 0, &root);
        if (r <= 0)
                return r < 0 ? -1 : warn(c, "version resource at RVA 0x%x is empty or malformed", (unsigned)rva);
        if (!ver_key_is(&v, &root, "VS_VERSION_INFO"))
                return warn(c, "version resource at RVA 0x%x has no VS_VERSION_INFO key", (unsigned)rva);
        if (root.value_len >= PE_FIXED_SIZE && root.end - root.value_off >= PE_FIXED_SIZE) {
                const uint8_t *f = p + root.value_off;
                uint32_t sig;

                cc_rd_u32(f, PE_FIXED_SIZE, 0, 0, &sig);
                if (sig != PE_FIXED_SIGNATURE) {
                        if (warn(c, "VS_FIXEDFILEINFO signature is 0x%08x", (unsigned)sig) < 0)
                                return -1;
                } else if (!pe->has_version) {
                        pe->has_version = 1;
                        cc_rd_u32(f, PE_FIXED_SIZE, 8, 0, &pe->file_version_ms);
                        cc_rd_u32(f, PE_FIXED_SIZE, 12, 0, &pe->file_version_ls);
                        cc_rd_u32(f, PE_FIXED_SIZE, 16, 0, &pe->product_version_ms);
                        cc_rd_u32(f, PE_FIXED_SIZE, 20, 0, &pe->product_version_ls);
                        cc_rd_u32(f, PE_FIXED_SIZE, 24, 0, &pe->file_flags_mask);
                        cc_rd_u32(f, PE_FIXED_SIZE, 28, 0, &pe->file_flags);
                        cc_rd_u32(f, PE_FIXED_SIZE, 32, 0, &pe->file_os);
                        cc_rd_u32(f, PE_FIXED_SIZE, 36, 0, &pe->file_type);
                        cc_rd_u32(f, PE_FIXED_SIZE, 40, 0, &pe->file_subtype);
                }
        } else if (root.value_len != 0) {
                if (warn(c, "VS_FIXEDFILEINFO is truncated (%u bytes)", (unsigned)root.value_len) < 0)
                        return -1;
        }
        for (pos = root.children_off; pos < root.end; pos = ver_align(&v, ch.end)) {
                r = ver_block_read(&v, pos, root.end, 0, &ch);
                if (r <= 0)
                        return r;
                if (ver_key_is(&v, &ch, "StringFileInfo"))
                        r = ver_strings(&v, &ch);
                else if (ver_key_is(&v, &ch, "VarFileInfo"))
                        r = ver_vars(&v, &ch);
                if (r < 0)
                        return -1;
        }
        return 0;
}

/* ---- resources ------------------------------------------------------------------- */

struct res_walk {
        struct pe_ctx *c;
        uint32_t base; /* RVA of the resource directory */
        uint32_t seen[PE_MAX_RES_DIRS];
        size_t nseen;
        size_t nversions;
};

/* Returns 0 to go on, 1 to stop the walk, -1 when out of memory. */
static int res_data(struct res_walk *w, uint32_t rel)
{
        struct pe_ctx *c = w->c;
        uint32_t rva, data_rva, size;
        uint64_t off, avail;

        if (w->nversions == PE_MAX_VERSION_RES)
                return warn(c, "more than %d version resources; stopped", PE_MAX_VERSION_RES) < 0 ? -1 : 1;
        w->nversions++;
        if (rva_add(w->base, rel, &rva) < 0 || rva_map(c, rva, 16, &off, &avail) < 0)
                return warn(c, "resource data entry at offset 0x%x is outside the file", (unsigned)rel) < 0 ? -1 : 0;
        cc_rd_u32(c->d, c->n, off, 0, &data_rva);
        cc_rd_u32(c->d, c->n, off + 4, 0, &size);
        if (rva_map(c, data_rva, 1, &off, &avail) < 0)
                return warn(c, "version resource at RVA 0x%x is outside the file", (unsigned)data_rva) < 0 ? -1 : 0;
        if (avail < size) {
                if (warn(c, "version resource at RVA 0x%x (%u bytes) is truncated to %llu bytes", (unsigned)data_rva,
                         (unsigned)size, (unsigned long long)avail) < 0)
                        return -1;
                size = (uint32_t)avail;
        }
        return parse_version(c, c->d + off, size, data_rva) < 0 ? -1 : 0;
}

/* Walk the directory at rel (offset from the resource base) at level 0
 * (types), 1 (names) or 2 (languages). */
static int res_dir(struct res_walk *w, uint32_t rel, int level)
{
        struct pe_ctx *c = w->c;
        uint32_t rva, erva;
        uint16_t nnamed, nid;
        size_t i, n;
        int r;

        for (i = 0; i < w->nseen; i++)
                if (w->seen[i] == rel)
                        return warn(c, "resource directory at offset 0x%x is reached twice (a loop); stopped",
                                    (unsigned)rel) < 0
                                   ? -1
                                   : 1;
        if (w->nseen == PE_MAX_RES_DIRS)
                return warn(c, "more than %d resource directories; stopped", PE_MAX_RES_DIRS) < 0 ? -1 : 1;
        w->seen[w->nseen++] = rel;

        if (rva_add(w->base, rel, &rva) < 0 || !rva_ok(c, rva, 16))
                return warn(c, "resource directory at offset 0x%x is outside the file", (unsigned)rel) < 0 ? -1 : 0;
        rva_u16(c, rva + 12, &nnamed);
        rva_u16(c, rva + 14, &nid);
        n = (size_t)nnamed + nid;
        if (n > PE_MAX_RES_ENTRIES) {
                if (warn(c, "resource directory at offset 0x%x has %zu entries; reading %d", (unsigned)rel, n,
                         PE_MAX_RES_ENTRIES) < 0)
                        return -1;
                n = PE_MAX_RES_ENTRIES;
        }
        for (i = 0; i < n; i++) {
                uint32_t id, target;

                if (rva_add(rva, 16 + 8 * (uint64_t)i, &erva) < 0 || rva_u32(c, erva, &id) < 0 ||
                    rva_u32(c, erva + 4, &target) < 0)
                        return warn(c, "resource directory at offset 0x%x: entries run past the file", (unsigned)rel) <
                                       0
                                   ? -1
                                   : 0;
                if (level == 0 && id != PE_RT_VERSION)
                        continue;
                if (target & 0x80000000u) {
                        if (level + 1 >= PE_RES_DEPTH) {
                                if (warn(c, "resource tree is deeper than %d levels; skipped", PE_RES_DEPTH) < 0)
                                        return -1;
                                continue;
                        }
                        r = res_dir(w, target & 0x7FFFFFFFu, level + 1);
                } else if (level == 0) {
                        r = warn(c, "RT_VERSION resource entry is not a directory") < 0 ? -1 : 0;
                } else {
                        r = res_data(w, target);
                }
                if (r != 0)
                        return r;
        }
        return 0;
}

static int parse_resources(struct pe_ctx *c)
{
        struct res_walk *w;
        int r;

        if (PE_DIR_RESOURCE >= c->ndirs || c->dirs[PE_DIR_RESOURCE].rva == 0)
                return 0;
        w = cc_calloc(c->err, 1, sizeof(*w));
        if (w == NULL)
                return -1;
        w->c = c;
        w->base = c->dirs[PE_DIR_RESOURCE].rva;
        if (!rva_ok(c, w->base, 16)) {
                free(w);
                return warn(c, "resource directory at RVA 0x%x is outside the file",
                            (unsigned)c->dirs[PE_DIR_RESOURCE].rva);
        }
        r = res_dir(w, 0, 0);
        free(w);
        return r < 0 ? -1 : 0;
}

/* ---- cc_pe ------------------------------------------------------------------------ */

int cc_pe_parse(const uint8_t *data, size_t size, cc_pe **out, cc_error *err)
{
        struct pe_ctx c;
        cc_pe *pe = NULL;
        int rv = -1;

        memset(&c, 0, sizeof(c));
        *out = NULL;
        if (data == NULL && size > 0)
                return cc_err(err, CC_ERR_USAGE, "no data");
        pe = cc_calloc(err, 1, sizeof(*pe));
        if (pe == NULL)
                goto fail;
        c.d = data;
        c.n = size;
        c.pe = pe;
        c.err = err;
        if (parse_headers(&c) < 0)
                goto fail;
        if (parse_imports(&c, 0) < 0 || parse_imports(&c, 1) < 0 || parse_exports(&c) < 0 || parse_resources(&c) < 0)
                goto fail;
        *out = pe;
        pe = NULL;
        rv = 0;
fail:
        free(c.secs);
        cc_pe_free(pe);
        return rv;
}

void cc_pe_free(cc_pe *pe)
{
        size_t i;

        if (pe == NULL)
                return;
        cc_strv_free(&pe->imports);
        cc_strv_free(&pe->delay_imports);
        free(pe->export_name);
        cc_strv_free(&pe->exports);
        for (i = 0; i < pe->nstrings; i++) {
                free(pe->strings[i].table);
                free(pe->strings[i].key);
                free(pe->strings[i].value);
        }
        free(pe->strings);
        free(pe->translations);
        cc_strv_free(&pe->warnings);
        free(pe);
}

const char *cc_pe_string_value(const cc_pe *pe, const char *key)
{
        size_t i;

        if (pe == NULL || key == NULL)
                return NULL;
        for (i = 0; i < pe->nstrings; i++)
                if (strcmp(pe->strings[i].key, key) == 0)
                        return pe->strings[i].value;
        return NULL;
}

/* ---- COFF import libraries ------------------------------------------------------------- */

int cc_implib_is(const uint8_t *data, size_t size)
{
        return data != NULL && size >= 8 && memcmp(data, "!<arch>\n", 8) == 0;
}

/* A decimal field of an archive member header (digits, then spaces). */
static int ar_decimal(const uint8_t *p, size_t n, uint64_t *out)
{
        uint64_t v = 0;
        size_t i = 0;

        while (i < n && p[i] >= '0' && p[i] <= '9') {
                v = v * 10 + (uint64_t)(p[i] - '0');
                i++;
        }
        if (i == 0)
                return -1;
        for (; i < n; i++)
                if (p[i] != ' ')
                        return -1;
        *out = v;
        return 0;
}

static int implib_add_dll(cc_implib *lib, const char *name, size_t len, cc_error *err)
{
        char *s;
        int r;

        if (len == 0)
                return 0;
        s = cc_strndup(err, name, len);
        if (s == NULL)
                return -1;
        if (cc_strv_contains(&lib->dlls, s)) {
                free(s);
                return 0;
        }
        if (lib->dlls.n == IMPLIB_MAX_DLLS) {
                free(s);
                return cc_err(err, CC_ERR_LIMIT, "more than %d DLL names", IMPLIB_MAX_DLLS);
        }
        r = cc_strv_take(&lib->dlls, s, err);
        return r;
}

/* A short import object (Sig1 0, Sig2 0xFFFF, Version 0): header of 20 bytes,
 * then the symbol name and the DLL name, both NUL-terminated. */
static int implib_short(cc_implib *lib, const uint8_t *m, size_t sz, size_t pos, cc_error *err)
{
        uint16_t machine;
        uint32_t datasz;
        const uint8_t *sym, *dll, *end, *nul;

        cc_rd_u16(m, sz, 6, 0, &machine);
        cc_rd_u32(m, sz, 12, 0, &datasz);
        if (datasz > sz - 20)
                return cc_err(err, CC_ERR_TRUNCATED, "import object at offset %zu: SizeOfData %u runs past the member",
                              pos, (unsigned)datasz);
        sym = m + 20;
        end = sym + datasz;
        nul = memchr(sym, 0, (size_t)(end - sym));
        if (nul == NULL)
                return cc_err(err, CC_ERR_FORMAT, "import object at offset %zu: symbol name is not terminated", pos);
        dll = nul + 1;
        nul = memchr(dll, 0, (size_t)(end - dll));
        if (nul == NULL)
                return cc_err(err, CC_ERR_FORMAT, "import object at offset %zu: DLL name is not terminated", pos);
        if (lib->machine == 0)
                lib->machine = machine;
        lib->nsymbols++;
        return implib_add_dll(lib, (const char *)dll, (size_t)(nul - dll), err);
}

/* 1 if the n bytes at p are a non-empty printable ASCII name then a NUL;
 * sets *len. */
static int printable_name(const uint8_t *p, size_t n, size_t *len)
{
        size_t i;

        for (i = 0; i < n && p[i] != 0; i++)
                if (p[i] < 0x20 || p[i] > 0x7E)
                        return 0;
        if (i == 0 || i == n)
                return 0;
        *len = i;
        return 1;
}

/* A COFF object member. Long-format import members (binutils dlltool, and the
 * import descriptor member of MSVC libraries) are recognised by their
 * .idata$N sections: the DLL name is the string in .idata$7 (dlltool's tail
 * member) or in .idata$6 next to .idata$2 (an MSVC import descriptor); a
 * member with .idata$5 and a hint/name (.idata$6) or a thunk reference
 * (.idata$7) but no .idata$2 is one imported symbol. */
static int implib_object(cc_implib *lib, const uint8_t *m, size_t sz, cc_error *err)
{
        uint16_t machine, nsec, optsize;
        size_t i;
        int has2 = 0, has5 = 0, has6 = 0, has7 = 0;
        const uint8_t *name6 = NULL, *name7 = NULL;
        size_t len6 = 0, len7 = 0;

        if (sz < 20)
                return 0;
        cc_rd_u16(m, sz, 0, 0, &machine);
        cc_rd_u16(m, sz, 2, 0, &nsec);
        cc_rd_u16(m, sz, 16, 0, &optsize);
        if (nsec == 0 || nsec > IMPLIB_MAX_OBJ_SECTIONS || !cc_range_ok(sz, 20 + (uint64_t)optsize, 40 * nsec))
                return 0;
        for (i = 0; i < nsec; i++) {
                const uint8_t *s = m + 20 + optsize + 40 * i;
                uint32_t rsize, roff;
                size_t len;

                if (memcmp(s, ".idata$", 7) != 0)
                        continue;
                cc_rd_u32(s, 40, 16, 0, &rsize);
                cc_rd_u32(s, 40, 20, 0, &roff);
                if (!cc_range_ok(sz, roff, rsize))
                        rsize = 0;
                switch (s[7]) {
                case '2':
                        has2 = 1;
                        break;
                case '5':
                        has5 = 1;
                        break;
                case '6':
                        has6 = 1;
                        if (rsize > 0 && printable_name(m + roff, rsize, &len)) {
                                name6 = m + roff;
                                len6 = len;
                        }
                        break;
                case '7':
                        has7 = 1;
                        if (rsize > 0 && printable_name(m + roff, rsize, &len)) {
                                name7 = m + roff;
                                len7 = len;
                        }
                        break;
                default:
                        break;
                }
        }
        if (name7 != NULL) {
                if (lib->machine == 0)
                        lib->machine = machine;
                return implib_add_dll(lib, (const char *)name7, len7, err);
        }
        if (has2 && name6 != NULL) {
                if (lib->machine == 0)
                        lib->machine = machine;
                return implib_add_dll(lib, (const char *)name6, len6, err);
        }
        if (has5 && !has2 && (has6 || has7)) {
                if (lib->machine == 0)
                        lib->machine = machine;
                lib->nsymbols++;
        }
        return 0;
}

int cc_implib_parse(const uint8_t *data, size_t size, cc_implib **out, cc_error *err)
{
        cc_implib *lib = NULL;
        uint64_t pos = 8;
        int rv = -1;

        *out = NULL;
        if (!cc_implib_is(data, size))
                return cc_err(err, CC_ERR_FORMAT, "not an archive (no !<arch> signature)");
        lib = cc_calloc(err, 1, sizeof(*lib));
        if (lib == NULL)
                goto fail;
        while (pos < size) {
                const uint8_t *h = data + pos, *m;
                uint64_t sz;

                if (size - pos == 1 && data[pos] == '\n')
                        break; /* padding after an odd-sized last member */
                if (lib->nmembers == IMPLIB_MAX_MEMBERS) {
                        cc_err(err, CC_ERR_LIMIT, "more than %zu archive members", IMPLIB_MAX_MEMBERS);
                        goto fail;
                }
                if (!cc_range_ok(size, pos, 60)) {
                        cc_err(err, CC_ERR_TRUNCATED, "member header at offset %llu is truncated",
                               (unsigned long long)pos);
                        goto fail;
                }
                if (h[58] != '`' || h[59] != '\n') {
                        cc_err(err, CC_ERR_FORMAT, "member header at offset %llu has no end marker",
                               (unsigned long long)pos);
                        goto fail;
                }
                if (ar_decimal(h + 48, 10, &sz) < 0) {
                        cc_err(err, CC_ERR_FORMAT, "member header at offset %llu has a bad size field",
                               (unsigned long long)pos);
                        goto fail;
                }
                if (!cc_range_ok(size, pos + 60, sz)) {
                        cc_err(err, CC_ERR_TRUNCATED, "member at offset %llu (%llu bytes) runs past the end",
                               (unsigned long long)pos, (unsigned long long)sz);
                        goto fail;
                }
                m = h + 60;
                lib->nmembers++;
                /* "/" (linker members) and "//" (long names) are not objects. */
                if (h[0] == '/' && (h[1] == ' ' || (h[1] == '/' && h[2] == ' '))) {
                        /* skip */
                } else if (sz >= 20 && m[0] == 0 && m[1] == 0 && m[2] == 0xFF && m[3] == 0xFF) {
                        if (m[4] == 0 && m[5] == 0 && implib_short(lib, m, (size_t)sz, (size_t)pos, err) < 0)
                                goto fail;
                } else if (implib_object(lib, m, (size_t)sz, err) < 0) {
                        goto fail;
                }
                pos += 60 + sz + (sz & 1);
        }
        *out = lib;
        lib = NULL;
        rv = 0;
fail:
        cc_implib_free(lib);
        return rv;
}

void cc_implib_free(cc_implib *lib)
{
        if (lib == NULL)
                return;
        cc_strv_free(&lib->dlls);
        free(lib);
}
