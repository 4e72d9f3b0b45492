/* ELF reader. Pure: parses a byte buffer (usually an mmap of the file) and
 * touches only the headers, the dynamic section, the string table it names
 * and the dynamic symbol table. Every offset, size and count read from the
 * file is checked against the buffer before use. */
#include "elf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EHDR32_SIZE 52
#define EHDR64_SIZE 64
#define PHDR32_SIZE 32
#define PHDR64_SIZE 56
#define SHDR32_SIZE 40
#define SHDR64_SIZE 64
#define DYN32_SIZE 8
#define DYN64_SIZE 16
#define SYM32_SIZE 16
#define SYM64_SIZE 24

#define PT_LOAD 1
#define PT_DYNAMIC 2
#define PT_INTERP 3
#define PN_XNUM 0xffff

#define SHT_PROGBITS 1
#define SHT_STRTAB 3
#define SHT_DYNAMIC 6
#define SHT_DYNSYM 11

#define DT_NULL 0
#define DT_NEEDED 1
#define DT_HASH 4
#define DT_STRTAB 5
#define DT_SYMTAB 6
#define DT_STRSZ 10
#define DT_SYMENT 11
#define DT_SONAME 14
#define DT_RPATH 15
#define DT_RUNPATH 29
#define DT_FLAGS 30
#define DT_GNU_HASH 0x6ffffef5
#define DT_FLAGS_1 0x6ffffffb

#define STB_GLOBAL 1
#define STB_WEAK 2
#define STV_DEFAULT 0
#define STV_PROTECTED 3

#define MAX_NEEDED 4096u
#define MAX_SYMS 4000000u
#define MAX_PHNUM 65536u
#define MAX_SHNUM (1u << 20)
#define MAX_LOADS 4096u
#define MAX_WARNINGS 64
/* Longest string we copy out, and budgets over all symbol names: bytes
 * scanned looking for NULs and bytes copied (several symbols may name the
 * same long string). */
#define MAX_STRLEN 65536u
#define NAME_SCAN_BUDGET ((uint64_t)1 << 30)
#define NAME_ALLOC_BUDGET ((uint64_t)256 << 20)

/* A section header, widened. */
struct shdr {
        uint32_t name, type, link;
        uint64_t offset, size, entsize;
};

/* A region of the file: [off, off + len), always inside the buffer. */
struct region {
        uint64_t off, len;
};

struct ctx {
        const uint8_t *d;
        size_t size;
        int big, is64;
        cc_elf *e;
        cc_error *err;
        uint64_t shoff;
        uint32_t shnum;
        uint32_t shstrndx;
        int sections_ok;
        /* dynamic tags */
        uint64_t dyn_off, dyn_size;
        int dyn_link_ok; /* the SHT_DYNAMIC section's sh_link string table */
        struct region dyn_link_str;
        int have_strtab, have_strsz, have_symtab, have_hash, have_gnu_hash;
        uint64_t strtab, strsz, symtab, syment, hash, gnu_hash;
        size_t nneeded;
        int nsoname, nrpath, nrunpath;
        uint64_t soname_off, rpath_off, runpath_off;
        struct region str; /* the dynamic string table, once found */
        int nwarn;
        uint64_t name_scanned, name_alloced;
        cc_elf_keep_fn keep;
        void *keep_ctx;
        const char *needle; /* cc_elf_parse_kept: the start of every name kept */
        size_t needle_len;
};

static int warn(struct ctx *c, const char *fmt, ...) CC_PRINTF(2, 3);

static int warn(struct ctx *c, const char *fmt, ...)
{
        va_list ap;
        int rc;

        va_start(ap, fmt);
        rc = cc_vwarn(&c->e->warnings, &c->nwarn, MAX_WARNINGS, c->err, fmt, ap);
        va_end(ap);
        return rc;
}

static int rd16(const struct ctx *c, uint64_t off, uint16_t *v)
{
        return cc_rd_u16(c->d, c->size, off, c->big, v);
}

static int rd32(const struct ctx *c, uint64_t off, uint32_t *v)
{
        return cc_rd_u32(c->d, c->size, off, c->big, v);
}

/* A 4- or 8-byte field by class (addresses, offsets, sizes, d_tag/d_val). */
static int rdw(const struct ctx *c, uint64_t off, uint64_t *v)
{
        uint32_t v32;

        if (c->is64)
                return cc_rd_u64(c->d, c->size, off, c->big, v);
        if (rd32(c, off, &v32) < 0) {
                *v = 0;
                return -1;
        }
        *v = v32;
        return 0;
}

int cc_elf_is(const uint8_t *data, size_t size)
{
        return data != NULL && size >= 4 && data[0] == 0x7f && data[1] == 'E' && data[2] == 'L' && data[3] == 'F';
}

const char *cc_elf_machine_name(uint16_t machine)
{
        switch (machine) {
        case 2:
                return "SPARC";
        case CC_EM_386:
                return "i386";
        case 8:
                return "MIPS";
        case 20:
                return "PowerPC";
        case CC_EM_PPC64:
                return "PowerPC64";
        case CC_EM_S390:
                return "s390";
        case CC_EM_ARM:
                return "ARM";
        case 43:
                return "SPARC V9";
        case 50:
                return "IA-64";
        case CC_EM_X86_64:
                return "x86-64";
        case CC_EM_AARCH64:
                return "AArch64";
        case CC_EM_RISCV:
                return "RISC-V";
        case 258:
                return "LoongArch";
        default:
                return NULL;
        }
}

const char *cc_elf_type_name(uint16_t type)
{
        switch (type) {
        case CC_ET_REL:
                return "relocatable";
        case CC_ET_EXEC:
                return "executable";
        case CC_ET_DYN:
                return "shared object";
        case CC_ET_CORE:
                return "core";
        default:
                return NULL;
        }
}

void cc_elf_free(cc_elf *e)
{
        size_t i;

        if (e == NULL)
                return;
        free(e->interp);
        free(e->soname);
        free(e->rpath);
        free(e->runpath);
        cc_strv_free(&e->needed);
        for (i = 0; i < e->nsyms; i++)
                free(e->syms[i].name);
        free(e->syms);
        free(e->loads);
        cc_strv_free(&e->warnings);
        free(e);
}

const cc_elf_sym *cc_elf_find_sym(const cc_elf *e, const char *name)
{
        size_t i;

        if (e == NULL || name == NULL)
                return NULL;
        for (i = 0; i < e->nsyms; i++)
                if (strcmp(e->syms[i].name, name) == 0)
                        return &e->syms[i];
        return NULL;
}

/* The file bytes behind virtual address vaddr: the file offset and how many
 * file-backed bytes follow it in the same PT_LOAD (clamped to the buffer).
 * -1 if no PT_LOAD holds file bytes at vaddr. */
static int vaddr_map(const cc_elf *e, size_t size, uint64_t vaddr, uint64_t *off, uint64_t *avail)
{
        size_t i;

        for (i = 0; i < e->nloads; i++) {
                const cc_elf_load *l = &e->loads[i];
                uint64_t delta, o, n;

                if (vaddr < l->vaddr)
                        continue;
                delta = vaddr - l->vaddr;
                if (delta >= l->filesz)
                        continue;
                if (l->offset > UINT64_MAX - delta)
                        continue;
                o = l->offset + delta;
                if (o >= (uint64_t)size)
                        continue;
                n = l->filesz - delta;
                if (n > (uint64_t)size - o)
                        n = (uint64_t)size - o;
                *off = o;
                *avail = n;
                return 0;
        }
        return -1;
}

int cc_elf_read_vaddr(const cc_elf *e, const uint8_t *data, size_t size, uint64_t vaddr, void *buf, size_t len,
                      cc_error *err)
{
        size_t i;

        if (e == NULL || data == NULL || (buf == NULL && len > 0))
                return cc_err(err, CC_ERR_USAGE, "cc_elf_read_vaddr: NULL argument");
        for (i = 0; i < e->nloads; i++) {
                const cc_elf_load *l = &e->loads[i];
                uint64_t delta;

                if (vaddr < l->vaddr)
                        continue;
                delta = vaddr - l->vaddr;
                if (delta >= l->memsz && delta >= l->filesz)
                        continue;
                if (delta > l->filesz || (uint64_t)len > l->filesz - delta)
                        return cc_err(err, CC_ERR_NOTFOUND,
                                      "address 0x%llx (%llu bytes) is not backed by file bytes (zero-filled memory)",
                                      (unsigned long long)vaddr, (unsigned long long)len);
                if (l->offset > UINT64_MAX - delta || !cc_range_ok(size, l->offset + delta, len))
                        return cc_err(err, CC_ERR_TRUNCATED, "address 0x%llx (%llu bytes) is past the end of the file",
                                      (unsigned long long)vaddr, (unsigned long long)len);
                if (len > 0)
                        memcpy(buf, data + (size_t)(l->offset + delta), len);
                return 0;
        }
        return cc_err(err, CC_ERR_NOTFOUND, "address 0x%llx is not inside any PT_LOAD segment",
                      (unsigned long long)vaddr);
}

static int read_shdr(const struct ctx *c, uint32_t i, struct shdr *s)
{
        uint64_t base = c->shoff + (uint64_t)i * (c->is64 ? SHDR64_SIZE : SHDR32_SIZE);

        if (rd32(c, base, &s->name) < 0 || rd32(c, base + 4, &s->type) < 0)
                return -1;
        if (c->is64)
                return (rdw(c, base + 24, &s->offset) < 0 || rdw(c, base + 32, &s->size) < 0 ||
                        rd32(c, base + 40, &s->link) < 0 || rdw(c, base + 56, &s->entsize) < 0)
                           ? -1
                           : 0;
        return (rdw(c, base + 16, &s->offset) < 0 || rdw(c, base + 20, &s->size) < 0 ||
                rd32(c, base + 24, &s->link) < 0 || rdw(c, base + 36, &s->entsize) < 0)
                   ? -1
                   : 0;
}

/* Section `idx` as a string table inside the file, or -1. */
static int section_strtab(const struct ctx *c, uint32_t idx, struct region *r)
{
        struct shdr s;

        if (!c->sections_ok || idx == 0 || idx >= c->shnum || read_shdr(c, idx, &s) < 0)
                return -1;
        if (s.type != SHT_STRTAB || !cc_range_ok(c->size, s.offset, s.size))
                return -1;
        r->off = s.offset;
        r->len = s.size;
        return 0;
}

/* The NUL-terminated string at `off` in table `t`, at most MAX_STRLEN bytes
 * long; NULL if there is none. *scanned (if not NULL) grows by the number of
 * bytes looked at. */
static const char *str_at(const struct ctx *c, const struct region *t, uint64_t off, uint64_t *scanned)
{
        const char *p, *nul;
        uint64_t n;

        if (off >= t->len)
                return NULL;
        n = t->len - off;
        if (n > MAX_STRLEN + 1)
                n = MAX_STRLEN + 1;
        p = (const char *)(c->d + t->off + off);
        nul = memchr(p, '\0', (size_t)n);
        /* the bytes actually looked at, not the window: a library with a
         * million short names must not exhaust the budget */
        if (scanned != NULL)
                *scanned += nul ? (uint64_t)(nul - p) + 1 : n;
        return nul ? p : NULL;
}

static int parse_header(struct ctx *c, uint64_t *phoff, uint32_t *phnum)
{
        cc_elf *e = c->e;
        uint16_t phentsize, shentsize, phnum16, shnum16, shstrndx16 = 0;
        uint64_t shoff;
        uint32_t version;

        if (c->size < 16)
                return cc_err(c->err, CC_ERR_TRUNCATED, "file too small for an ELF header (%llu bytes)",
                              (unsigned long long)c->size);
        if (!cc_elf_is(c->d, c->size))
                return cc_err(c->err, CC_ERR_FORMAT, "not an ELF file (bad magic)");
        if (c->d[4] != 1 && c->d[4] != 2)
                return cc_err(c->err, CC_ERR_FORMAT, "bad ELF class %u (expected 1 or 2)", c->d[4]);
        if (c->d[5] != 1 && c->d[5] != 2)
                return cc_err(c->err, CC_ERR_FORMAT, "bad ELF data encoding %u (expected 1 or 2)", c->d[5]);
        if (c->d[6] != 1)
                return cc_err(c->err, CC_ERR_FORMAT, "bad ELF identification version %u", c->d[6]);
        c->is64 = c->d[4] == 2;
        c->big = c->d[5] == 2;
        e->bits = c->is64 ? 64 : 32;
        e->big_endian = c->big;
        e->osabi = c->d[7];
        if (c->size < (size_t)(c->is64 ? EHDR64_SIZE : EHDR32_SIZE))
                return cc_err(c->err, CC_ERR_TRUNCATED, "file too small for an ELF%d header (%llu bytes)", e->bits,
                              (unsigned long long)c->size);
        rd16(c, 16, &e->type);
        rd16(c, 18, &e->machine);
        rd32(c, 20, &version);
        if (c->is64) {
                rdw(c, 32, phoff);
                rdw(c, 40, &shoff);
                rd16(c, 54, &phentsize);
                rd16(c, 56, &phnum16);
                rd16(c, 58, &shentsize);
                rd16(c, 60, &shnum16);
                rd16(c, 62, &shstrndx16);
        } else {
                rdw(c, 28, phoff);
                rdw(c, 32, &shoff);
                rd16(c, 42, &phentsize);
                rd16(c, 44, &phnum16);
                rd16(c, 46, &shentsize);
                rd16(c, 48, &shnum16);
                rd16(c, 50, &shstrndx16);
        }
        if (version != 1 && warn(c, "unexpected e_version %u", version) < 0)
                return -1;

        /* Section headers are optional (the loader never reads them): a bad
         * table is a warning and the sections are ignored. */
        c->shoff = shoff;
        c->shnum = shnum16;
        c->sections_ok = 0;
        if (shoff != 0) {
                struct shdr s0;
                uint64_t shdr0_info = 0;
                uint32_t info32;

                if (shentsize != (c->is64 ? SHDR64_SIZE : SHDR32_SIZE)) {
                        if (warn(c, "e_shentsize %u is not %u; section headers ignored", shentsize,
                                 c->is64 ? SHDR64_SIZE : SHDR32_SIZE) < 0)
                                return -1;
                } else if (!cc_range_ok(c->size, shoff, shentsize)) {
                        if (warn(c, "section headers at 0x%llx are past the end of the file; ignored",
                                 (unsigned long long)shoff) < 0)
                                return -1;
                } else {
                        if (read_shdr(c, 0, &s0) < 0)
                                return cc_err(c->err, CC_ERR_TRUNCATED, "cannot read section header 0");
                        if (rd32(c, shoff + (c->is64 ? 44 : 28), &info32) < 0)
                                return cc_err(c->err, CC_ERR_TRUNCATED, "cannot read section header 0");
                        shdr0_info = info32;
                        c->shstrndx = shstrndx16 == 0xffff ? s0.link : shstrndx16; /* SHN_XINDEX */
                        if (shnum16 == 0)                                          /* extended numbering */
                                c->shnum = s0.size > MAX_SHNUM ? MAX_SHNUM + 1 : (uint32_t)s0.size;
                        if (phnum16 == PN_XNUM) {
                                phnum16 = 0;
                                *phnum = (uint32_t)shdr0_info;
                        }
                        if (c->shnum > MAX_SHNUM) {
                                if (warn(c, "too many section headers (more than %u); ignored", MAX_SHNUM) < 0)
                                        return -1;
                        } else if (!cc_range_ok(c->size, shoff, (uint64_t)c->shnum * shentsize)) {
                                if (warn(c, "%u section headers at 0x%llx run past the end of the file; ignored",
                                         c->shnum, (unsigned long long)shoff) < 0)
                                        return -1;
                        } else {
                                c->sections_ok = 1;
                        }
                }
        }
        if (!c->sections_ok)
                c->shnum = 0;
        if (phnum16 == PN_XNUM)
                return cc_err(c->err, CC_ERR_FORMAT,
                              "e_phnum is PN_XNUM but there is no section header 0 with the real count");
        if (phnum16 != 0)
                *phnum = phnum16;
        if (*phnum > MAX_PHNUM)
                return cc_err(c->err, CC_ERR_LIMIT, "too many program headers (%u, limit %u)", *phnum, MAX_PHNUM);
        if (*phnum > 0) {
                if (phentsize != (c->is64 ? PHDR64_SIZE : PHDR32_SIZE))
                        return cc_err(c->err, CC_ERR_FORMAT, "e_phentsize %u is not %u", phentsize,
                                      c->is64 ? PHDR64_SIZE : PHDR32_SIZE);
                if (!cc_range_ok(c->size, *phoff, (uint64_t)*phnum * phentsize))
                        return cc_err(c->err, CC_ERR_TRUNCATED,
                                      "%u program headers at 0x%llx run past the end of the file (%llu bytes)", *phnum,
                                      (unsigned long long)*phoff, (unsigned long long)c->size);
        }
        return 0;
}

static int parse_phdrs(struct ctx *c, uint64_t phoff, uint32_t phnum, int *have_dyn)
{
        cc_elf *e = c->e;
        size_t cap = 0;
        uint32_t i;
        int ninterp = 0;

        *have_dyn = 0;
        for (i = 0; i < phnum; i++) {
                uint64_t base = phoff + (uint64_t)i * (c->is64 ? PHDR64_SIZE : PHDR32_SIZE);
                uint64_t off, vaddr, filesz, memsz;
                uint32_t type;

                /* In range: checked in parse_header. */
                rd32(c, base, &type);
                if (c->is64) {
                        rdw(c, base + 8, &off);
                        rdw(c, base + 16, &vaddr);
                        rdw(c, base + 32, &filesz);
                        rdw(c, base + 40, &memsz);
                } else {
                        rdw(c, base + 4, &off);
                        rdw(c, base + 8, &vaddr);
                        rdw(c, base + 16, &filesz);
                        rdw(c, base + 20, &memsz);
                }
                if (type == PT_LOAD) {
                        if (e->nloads == cap) {
                                cc_elf_load *n;

                                if (cap >= MAX_LOADS)
                                        return cc_err(c->err, CC_ERR_LIMIT, "too many PT_LOAD segments (limit %u)",
                                                      MAX_LOADS);
                                cap = cap ? cap * 2 : 8;
                                n = cc_realloc(c->err, e->loads, cap * sizeof(*n));
                                if (n == NULL)
                                        return -1;
                                e->loads = n;
                        }
                        e->loads[e->nloads].vaddr = vaddr;
                        e->loads[e->nloads].offset = off;
                        e->loads[e->nloads].filesz = filesz;
                        e->loads[e->nloads].memsz = memsz;
                        e->nloads++;
                        if (filesz > memsz && warn(c, "PT_LOAD %u: file size 0x%llx is larger than memory size 0x%llx",
                                                   i, (unsigned long long)filesz, (unsigned long long)memsz) < 0)
                                return -1;
                        if (!cc_range_ok(c->size, off, filesz) &&
                            warn(c, "PT_LOAD %u (offset 0x%llx, size 0x%llx) runs past the end of the file", i,
                                 (unsigned long long)off, (unsigned long long)filesz) < 0)
                                return -1;
                } else if (type == PT_DYNAMIC) {
                        if (*have_dyn) {
                                if (warn(c, "more than one PT_DYNAMIC; the first is used") < 0)
                                        return -1;
                                continue;
                        }
                        if (!cc_range_ok(c->size, off, filesz))
                                return cc_err(c->err, CC_ERR_TRUNCATED,
                                              "PT_DYNAMIC (offset 0x%llx, size 0x%llx) runs past the end of the file",
                                              (unsigned long long)off, (unsigned long long)filesz);
                        *have_dyn = 1;
                        c->dyn_off = off;
                        c->dyn_size = filesz;
                } else if (type == PT_INTERP) {
                        const char *p;

                        if (ninterp++) {
                                if (warn(c, "more than one PT_INTERP; the first is used") < 0)
                                        return -1;
                                continue;
                        }
                        if (!cc_range_ok(c->size, off, filesz) || filesz == 0) {
                                if (warn(c, "PT_INTERP (offset 0x%llx, size 0x%llx) is not inside the file",
                                         (unsigned long long)off, (unsigned long long)filesz) < 0)
                                        return -1;
                                continue;
                        }
                        p = (const char *)(c->d + off);
                        if (memchr(p, '\0', (size_t)filesz) == NULL) {
                                if (warn(c, "PT_INTERP is not NUL-terminated") < 0)
                                        return -1;
                                continue;
                        }
                        e->interp = cc_strdup(c->err, p);
                        if (e->interp == NULL)
                                return -1;
                }
        }
        return 0;
}

/* 1 if s is a SHT_PROGBITS section inside the file named want (n bytes,
 * its NUL included) in the section name table names. */
static int progbits_named(const struct ctx *c, const struct region *names, const struct shdr *s, const char *want,
                          size_t n)
{
        return s->type == SHT_PROGBITS && s->name < names->len && names->len - s->name >= n &&
               memcmp(c->d + names->off + s->name, want, n) == 0 && cc_range_ok(c->size, s->offset, s->size);
}

/* Find SHT_DYNAMIC (for its sh_link string table, and as the dynamic table
 * when there is no PT_DYNAMIC) and SHT_DYNSYM; note .rodata and .text. */
static int find_sections(struct ctx *c, int *have_dynsec, struct shdr *dynsec, int *have_dynsym, struct shdr *dynsym)
{
        uint32_t i;
        struct shdr s;

        struct region names;
        int have_names;

        *have_dynsec = *have_dynsym = 0;
        have_names = section_strtab(c, c->shstrndx, &names) == 0;
        for (i = 1; i < c->shnum; i++) {
                if (read_shdr(c, i, &s) < 0)
                        return cc_err(c->err, CC_ERR_TRUNCATED, "cannot read section header %u", i);
                if (have_names && c->e->rodata_size == 0 && progbits_named(c, &names, &s, ".rodata", 8)) {
                        c->e->rodata_off = s.offset;
                        c->e->rodata_size = s.size;
                }
                if (have_names && c->e->text_size == 0 && progbits_named(c, &names, &s, ".text", 6)) {
                        c->e->text_off = s.offset;
                        c->e->text_size = s.size;
                }
                if (s.type == SHT_DYNAMIC && !*have_dynsec) {
                        *dynsec = s;
                        *have_dynsec = 1;
                } else if (s.type == SHT_DYNSYM && !*have_dynsym) {
                        *dynsym = s;
                        *have_dynsym = 1;
                }
                if (*have_dynsec && *have_dynsym && ((c->e->rodata_size && c->e->text_size) || !have_names))
                        break;
        }
        return 0;
}

static int set_once(struct ctx *c, int *count, uint64_t *slot, uint64_t val, const char *tag)
{
        if (*count == 0) {
                *count = 1;
                *slot = val;
                return 0;
        }
        if (*count == 1) {
                *count = 2;
                return warn(c, "more than one %s; the first is used", tag);
        }
        return 0;
}

/* First pass over the dynamic table: every tag we use except the strings. */
static int scan_dynamic(struct ctx *c)
{
        cc_elf *e = c->e;
        uint64_t ent = c->is64 ? DYN64_SIZE : DYN32_SIZE;
        uint64_t n = c->dyn_size / ent, i;
        int terminated = 0;

        for (i = 0; i < n; i++) {
                uint64_t tag, val;

                rdw(c, c->dyn_off + i * ent, &tag);
                rdw(c, c->dyn_off + i * ent + ent / 2, &val);
                switch (tag) {
                case DT_NULL:
                        terminated = 1;
                        break;
                case DT_NEEDED:
                        if (c->nneeded >= MAX_NEEDED)
                                return cc_err(c->err, CC_ERR_LIMIT, "too many DT_NEEDED entries (limit %u)",
                                              MAX_NEEDED);
                        c->nneeded++;
                        break;
                case DT_SONAME:
                        if (set_once(c, &c->nsoname, &c->soname_off, val, "DT_SONAME") < 0)
                                return -1;
                        break;
                case DT_RPATH:
                        if (set_once(c, &c->nrpath, &c->rpath_off, val, "DT_RPATH") < 0)
                                return -1;
                        break;
                case DT_RUNPATH:
                        if (set_once(c, &c->nrunpath, &c->runpath_off, val, "DT_RUNPATH") < 0)
                                return -1;
                        break;
                case DT_STRTAB:
                        c->have_strtab = 1;
                        c->strtab = val;
                        break;
                case DT_STRSZ:
                        c->have_strsz = 1;
                        c->strsz = val;
                        break;
                case DT_SYMTAB:
                        c->have_symtab = 1;
                        c->symtab = val;
                        break;
                case DT_SYMENT:
                        c->syment = val;
                        break;
                case DT_HASH:
                        c->have_hash = 1;
                        c->hash = val;
                        break;
                case DT_GNU_HASH:
                        c->have_gnu_hash = 1;
                        c->gnu_hash = val;
                        break;
                case DT_FLAGS:
                        e->flags = val;
                        break;
                case DT_FLAGS_1:
                        e->flags_1 = val;
                        break;
                default:
                        break;
                }
                if (terminated)
                        break;
        }
        if (!terminated && n > 0 && warn(c, "the dynamic table has no DT_NULL terminator") < 0)
                return -1;
        return 0;
}

/* Locate the dynamic string table: DT_STRTAB through the PT_LOAD mapping,
 * else the SHT_DYNAMIC section's sh_link. *found = 0 if neither works. */
static int find_dynstr(struct ctx *c, int *found)
{
        uint64_t off, avail;
        int need = c->nneeded || c->nsoname || c->nrpath || c->nrunpath;

        *found = 0;
        if (c->have_strtab) {
                if (vaddr_map(c->e, c->size, c->strtab, &off, &avail) == 0) {
                        uint64_t len = avail;

                        if (!c->have_strsz) {
                                if (warn(c, "no DT_STRSZ; the string table is taken to end with its segment") < 0)
                                        return -1;
                        } else if (c->strsz > avail) {
                                if (warn(c, "DT_STRSZ 0x%llx runs past the file bytes of its segment (0x%llx)",
                                         (unsigned long long)c->strsz, (unsigned long long)avail) < 0)
                                        return -1;
                        } else {
                                len = c->strsz;
                        }
                        c->str.off = off;
                        c->str.len = len;
                        *found = 1;
                        return 0;
                }
                if (c->dyn_link_ok) {
                        if (warn(c, "DT_STRTAB 0x%llx is not inside any PT_LOAD; using the section string table",
                                 (unsigned long long)c->strtab) < 0)
                                return -1;
                        c->str = c->dyn_link_str;
                        *found = 1;
                        return 0;
                }
                if (need)
                        return cc_err(c->err, CC_ERR_FORMAT, "DT_STRTAB 0x%llx is not inside any PT_LOAD segment",
                                      (unsigned long long)c->strtab);
                return warn(c, "DT_STRTAB 0x%llx is not inside any PT_LOAD segment", (unsigned long long)c->strtab);
        }
        if (c->dyn_link_ok) {
                c->str = c->dyn_link_str;
                *found = 1;
        }
        return 0;
}

static int dyn_string(struct ctx *c, uint64_t off, const char *tag, char **out)
{
        const char *s = str_at(c, &c->str, off, NULL);

        if (s == NULL)
                return cc_err(c->err, CC_ERR_FORMAT,
                              "%s string at offset 0x%llx is not a NUL-terminated string of at most %u bytes inside "
                              "the string table (size 0x%llx)",
                              tag, (unsigned long long)off, MAX_STRLEN, (unsigned long long)c->str.len);
        *out = cc_strdup(c->err, s);
        return *out == NULL ? -1 : 0;
}

/* Second pass: the strings, DT_NEEDED in order. */
static int read_dyn_strings(struct ctx *c)
{
        cc_elf *e = c->e;
        uint64_t ent = c->is64 ? DYN64_SIZE : DYN32_SIZE;
        uint64_t n = c->dyn_size / ent, i;

        if (c->nsoname && dyn_string(c, c->soname_off, "DT_SONAME", &e->soname) < 0)
                return -1;
        if (c->nrpath && dyn_string(c, c->rpath_off, "DT_RPATH", &e->rpath) < 0)
                return -1;
        if (c->nrunpath && dyn_string(c, c->runpath_off, "DT_RUNPATH", &e->runpath) < 0)
                return -1;
        if (c->nneeded == 0)
                return 0;
        for (i = 0; i < n; i++) {
                uint64_t tag, val;
                char *s = NULL;

                rdw(c, c->dyn_off + i * ent, &tag);
                if (tag == DT_NULL)
                        break;
                if (tag != DT_NEEDED)
                        continue;
                rdw(c, c->dyn_off + i * ent + ent / 2, &val);
                if (dyn_string(c, val, "DT_NEEDED", &s) < 0)
                        return -1;
                if (cc_strv_take(&e->needed, s, c->err) < 0)
                        return -1;
        }
        return 0;
}

/* Number of dynamic symbols from DT_HASH: nchain. */
static int count_sysv_hash(struct ctx *c, uint64_t *count, int *ok)
{
        uint64_t off, avail, nchain;
        /* 64-bit s390 uses 8-byte hash table entries. */
        int wide = c->is64 && c->e->machine == CC_EM_S390;

        *ok = 0;
        if (vaddr_map(c->e, c->size, c->hash, &off, &avail) < 0)
                return warn(c, "DT_HASH 0x%llx is not inside any PT_LOAD", (unsigned long long)c->hash);
        if (wide) {
                if (cc_rd_u64(c->d + off, (size_t)avail, 8, c->big, &nchain) < 0)
                        return warn(c, "DT_HASH table is truncated");
        } else {
                uint32_t v;

                if (cc_rd_u32(c->d + off, (size_t)avail, 4, c->big, &v) < 0)
                        return warn(c, "DT_HASH table is truncated");
                nchain = v;
        }
        *count = nchain;
        *ok = 1;
        return 0;
}

/* Number of dynamic symbols from DT_GNU_HASH: one past the end of the chain
 * of the highest bucket, walked inside the table's bytes only. */
static int count_gnu_hash(struct ctx *c, uint64_t *count, int *ok)
{
        const uint8_t *p;
        uint64_t off, avail, buckets, chains, idx, maxb = 0;
        uint32_t nbuckets, symoffset, bloom_size, v, i;
        size_t n;

        *ok = 0;
        if (vaddr_map(c->e, c->size, c->gnu_hash, &off, &avail) < 0)
                return warn(c, "DT_GNU_HASH 0x%llx is not inside any PT_LOAD", (unsigned long long)c->gnu_hash);
        p = c->d + off;
        n = (size_t)avail;
        if (cc_rd_u32(p, n, 0, c->big, &nbuckets) < 0 || cc_rd_u32(p, n, 4, c->big, &symoffset) < 0 ||
            cc_rd_u32(p, n, 8, c->big, &bloom_size) < 0)
                return warn(c, "DT_GNU_HASH header is truncated");
        buckets = 16 + (uint64_t)bloom_size * (c->is64 ? 8 : 4);
        chains = buckets + (uint64_t)nbuckets * 4;
        if (!cc_range_ok(n, buckets, (uint64_t)nbuckets * 4))
                return warn(c, "DT_GNU_HASH: %u buckets and %u bloom words do not fit in the file", nbuckets,
                            bloom_size);
        for (i = 0; i < nbuckets; i++) {
                cc_rd_u32(p, n, buckets + (uint64_t)i * 4, c->big, &v);
                if (v > maxb)
                        maxb = v;
        }
        if (maxb == 0) {
                *count = symoffset;
                *ok = 1;
                return 0;
        }
        if (maxb < symoffset)
                return warn(c, "DT_GNU_HASH: bucket value %llu is below symoffset %u", (unsigned long long)maxb,
                            symoffset);
        for (idx = maxb;; idx++) {
                if (idx >= MAX_SYMS)
                        return cc_err(c->err, CC_ERR_LIMIT, "more than %u dynamic symbols", MAX_SYMS);
                if (cc_rd_u32(p, n, chains + (idx - symoffset) * 4, c->big, &v) < 0)
                        return warn(c, "DT_GNU_HASH: a hash chain runs past the end of the table");
                if (v & 1)
                        break;
        }
        *count = idx + 1;
        *ok = 1;
        return 0;
}

/* The byte of a needle to search a string table from: the first that is
 * not one of the letters most names are made of (in C++ names 'c' is six
 * times as common as 'u'), else its last. */
static size_t rare_byte(const char *needle, size_t n)
{
        size_t i;

        for (i = 0; i < n; i++)
                if (strchr("_aceilnorst", needle[i]) == NULL)
                        return i;
        return n > 0 ? n - 1 : 0;
}

static int add_syms(struct ctx *c, const struct region *tab, uint64_t entsize, uint64_t count,
                    const struct region *strtab)
{
        cc_elf *e = c->e;
        size_t cap = 0;
        uint64_t i, badnames = 0;
        int terminated;

        if (count > MAX_SYMS)
                return cc_err(c->err, CC_ERR_LIMIT, "too many dynamic symbols (%llu, limit %u)",
                              (unsigned long long)count, MAX_SYMS);
        /* the string table inside the file (as the caller checked) and ending in NUL */
        terminated = strtab->len > 0 && cc_range_ok(c->size, strtab->off, strtab->len) &&
                     c->d[strtab->off + strtab->len - 1] == '\0';
        if (c->needle != NULL && terminated) {
                e->exports_uncounted = 1; /* only names that start with the needle are looked at */
                /* every name is a string of the table: none can start with a
                 * needle the table does not hold (a system library's table,
                 * read at memchr's speed instead of its symbols one by one) */
                if (cc_memmem_at(c->d + strtab->off, (size_t)strtab->len, c->needle, c->needle_len,
                                 rare_byte(c->needle, c->needle_len)) == NULL)
                        return 0;
        }
        for (i = 1; i < count; i++) {
                uint64_t b = tab->off + i * entsize, value = 0, size = 0;
                uint32_t name = 0;
                uint16_t shndx = 0;
                uint8_t info = 0, other = 0;
                const uint8_t *p;
                const char *s;
                cc_elf_sym *sym;

                if (!cc_range_ok(c->size, b, entsize) || entsize < (c->is64 ? 24u : 16u))
                        break;
                /* the entry is inside the file (checked above): its fields read
                 * straight from it, not through a bounds check each (libraries
                 * have tens of thousands of symbols) */
                p = c->d + b;
                name = (uint32_t)cc_rd_n(p, 4, c->big);
                if (c->is64) {
                        info = p[4];
                        other = p[5];
                        shndx = (uint16_t)cc_rd_n(p + 6, 2, c->big);
                        value = cc_rd_n(p + 8, 8, c->big);
                        size = cc_rd_n(p + 16, 8, c->big);
                } else {
                        value = cc_rd_n(p + 4, 4, c->big);
                        size = cc_rd_n(p + 8, 4, c->big);
                        info = p[12];
                        other = p[13];
                        shndx = (uint16_t)cc_rd_n(p + 14, 2, c->big);
                }
                if (shndx == 0)
                        continue;
                if ((info >> 4) != STB_GLOBAL && (info >> 4) != STB_WEAK)
                        continue;
                if ((other & 3) != STV_DEFAULT && (other & 3) != STV_PROTECTED)
                        continue;
                if (terminated) {
                        /* every offset inside a table that ends in NUL starts a
                         * terminated name: nothing to scan for the names the
                         * caller does not keep (most of them) */
                        s = name < strtab->len ? (const char *)(c->d + strtab->off + name) : NULL;
                } else {
                        s = str_at(c, strtab, name, &c->name_scanned);
                        if (c->name_scanned > NAME_SCAN_BUDGET)
                                return cc_err(c->err, CC_ERR_LIMIT, "symbol names: more than %llu bytes scanned",
                                              (unsigned long long)NAME_SCAN_BUDGET);
                }
                if (s == NULL) {
                        badnames++;
                        continue;
                }
                if (*s == '\0')
                        continue;
                if (e->exports_uncounted && (s[0] != c->needle[0] || strncmp(s, c->needle, c->needle_len) != 0))
                        continue;
                e->nexports++;
                if (c->keep != NULL && !c->keep(c->keep_ctx, s))
                        continue;
                if (terminated && memchr(s, '\0', MAX_STRLEN + 1) == NULL) {
                        /* kept, but longer than a name may be */
                        e->nexports--;
                        badnames++;
                        continue;
                }
                c->name_alloced += strlen(s) + 1;
                if (c->name_alloced > NAME_ALLOC_BUDGET)
                        return cc_err(c->err, CC_ERR_LIMIT, "symbol names: more than %llu bytes in all",
                                      (unsigned long long)NAME_ALLOC_BUDGET);
                if (e->nsyms == cap) {
                        cc_elf_sym *ns;

                        cap = cap ? cap * 2 : 64;
                        if (cap > count)
                                cap = (size_t)count;
                        ns = cc_realloc(c->err, e->syms, cap * sizeof(*ns));
                        if (ns == NULL)
                                return -1;
                        e->syms = ns;
                }
                sym = &e->syms[e->nsyms];
                sym->name = cc_strdup(c->err, s);
                if (sym->name == NULL)
                        return -1;
                sym->value = value;
                sym->size = size;
                sym->type = info & 0xf;
                sym->bind = info >> 4;
                sym->shndx = shndx;
                e->nsyms++;
        }
        if (badnames && warn(c, "%llu dynamic symbols have names outside the string table; skipped",
                             (unsigned long long)badnames) < 0)
                return -1;
        return 0;
}

static int parse_syms(struct ctx *c, int have_dynsym, const struct shdr *dynsym, int have_str)
{
        uint64_t want = c->is64 ? SYM64_SIZE : SYM32_SIZE;
        struct region tab, strtab;
        uint64_t count, off, avail;
        int ok;

        if (have_dynsym) {
                uint64_t entsize = dynsym->entsize;

                if (entsize != want) {
                        if (warn(c, ".dynsym entry size %llu is not %llu; %llu assumed", (unsigned long long)entsize,
                                 (unsigned long long)want, (unsigned long long)want) < 0)
                                return -1;
                        entsize = want;
                }
                if (!cc_range_ok(c->size, dynsym->offset, dynsym->size)) {
                        if (warn(c, ".dynsym (offset 0x%llx, size 0x%llx) runs past the end of the file",
                                 (unsigned long long)dynsym->offset, (unsigned long long)dynsym->size) < 0)
                                return -1;
                } else if (section_strtab(c, dynsym->link, &strtab) < 0 && !have_str) {
                        if (warn(c, ".dynsym has no usable string table (sh_link %u)", dynsym->link) < 0)
                                return -1;
                } else {
                        if (section_strtab(c, dynsym->link, &strtab) < 0) {
                                if (warn(c, ".dynsym sh_link %u is not a string table; DT_STRTAB used", dynsym->link) <
                                    0)
                                        return -1;
                                strtab = c->str;
                        }
                        tab.off = dynsym->offset;
                        tab.len = dynsym->size;
                        return add_syms(c, &tab, entsize, dynsym->size / entsize, &strtab);
                }
        }
        if (!c->have_symtab)
                return 0;
        if (!have_str)
                return warn(c, "DT_SYMTAB without a usable string table; symbols not read");
        if (c->syment != 0 && c->syment != want)
                return warn(c, "DT_SYMENT %llu is not %llu; symbols not read", (unsigned long long)c->syment,
                            (unsigned long long)want);
        ok = 0;
        if (c->have_gnu_hash && count_gnu_hash(c, &count, &ok) < 0)
                return -1;
        if (!ok && c->have_hash && count_sysv_hash(c, &count, &ok) < 0)
                return -1;
        if (!ok)
                return warn(c, "no section headers and no usable DT_HASH/DT_GNU_HASH: dynamic symbols not counted");
        if (vaddr_map(c->e, c->size, c->symtab, &off, &avail) < 0)
                return warn(c, "DT_SYMTAB 0x%llx is not inside any PT_LOAD", (unsigned long long)c->symtab);
        if (count > avail / want) {
                if (warn(c, "%llu dynamic symbols do not fit in the file; %llu read", (unsigned long long)count,
                         (unsigned long long)(avail / want)) < 0)
                        return -1;
                count = avail / want;
        }
        tab.off = off;
        tab.len = count * want;
        return add_syms(c, &tab, want, count, &c->str);
}

int cc_elf_parse(const uint8_t *data, size_t size, cc_elf **out, cc_error *err)
{
        return cc_elf_parse_opts(data, size, 0, out, err);
}

int cc_elf_parse_opts(const uint8_t *data, size_t size, unsigned flags, cc_elf **out, cc_error *err)
{
        return cc_elf_parse_keep(data, size, flags, NULL, NULL, out, err);
}

static int parse(const uint8_t *data, size_t size, unsigned flags, const char *needle, cc_elf_keep_fn keep,
                 void *keep_ctx, cc_elf **out, cc_error *err);

int cc_elf_parse_keep(const uint8_t *data, size_t size, unsigned flags, cc_elf_keep_fn keep, void *keep_ctx,
                      cc_elf **out, cc_error *err)
{
        return parse(data, size, flags, NULL, keep, keep_ctx, out, err);
}

int cc_elf_parse_kept(const uint8_t *data, size_t size, unsigned flags, const char *needle, cc_elf_keep_fn keep,
                      void *keep_ctx, cc_elf **out, cc_error *err)
{
        if (needle == NULL || needle[0] == '\0' || keep == NULL)
                return cc_err(err, CC_ERR_USAGE, "cc_elf_parse_kept: no needle or no keep function");
        return parse(data, size, flags, needle, keep, keep_ctx, out, err);
}

static int parse(const uint8_t *data, size_t size, unsigned flags, const char *needle, cc_elf_keep_fn keep,
                 void *keep_ctx, cc_elf **out, cc_error *err)
{
        struct ctx c;
        struct shdr dynsec = {0}, dynsym = {0};
        uint64_t phoff = 0;
        uint32_t phnum = 0;
        int have_pt_dyn = 0, have_dynsec = 0, have_dynsym = 0, have_str = 0;
        int rv = -1;

        if (out == NULL)
                return cc_err(err, CC_ERR_USAGE, "cc_elf_parse: NULL output");
        *out = NULL;
        if (data == NULL && size > 0)
                return cc_err(err, CC_ERR_USAGE, "cc_elf_parse: NULL data");
        memset(&c, 0, sizeof(c));
        c.d = data;
        c.size = size;
        c.err = err;
        c.keep = keep;
        c.keep_ctx = keep_ctx;
        c.needle = needle;
        c.needle_len = needle ? strlen(needle) : 0;
        c.e = cc_calloc(err, 1, sizeof(*c.e));
        if (c.e == NULL)
                goto fail;
        if (parse_header(&c, &phoff, &phnum) < 0)
                goto fail;
        if (parse_phdrs(&c, phoff, phnum, &have_pt_dyn) < 0)
                goto fail;
        if (c.sections_ok && find_sections(&c, &have_dynsec, &dynsec, &have_dynsym, &dynsym) < 0)
                goto fail;
        if (have_dynsec)
                c.dyn_link_ok = section_strtab(&c, dynsec.link, &c.dyn_link_str) == 0;
        if (!have_pt_dyn && have_dynsec) {
                if (!cc_range_ok(size, dynsec.offset, dynsec.size)) {
                        cc_err(err, CC_ERR_TRUNCATED,
                               "the .dynamic section (offset 0x%llx, size 0x%llx) runs past the end of the file",
                               (unsigned long long)dynsec.offset, (unsigned long long)dynsec.size);
                        goto fail;
                }
                c.dyn_off = dynsec.offset;
                c.dyn_size = dynsec.size;
        }
        c.e->has_dynamic = have_pt_dyn || have_dynsec;
        if (c.e->has_dynamic) {
                if (scan_dynamic(&c) < 0)
                        goto fail;
                if (find_dynstr(&c, &have_str) < 0)
                        goto fail;
                if (!have_str && (c.nneeded || c.nsoname || c.nrpath || c.nrunpath)) {
                        cc_err(err, CC_ERR_FORMAT, "the dynamic table has strings but no DT_STRTAB");
                        goto fail;
                }
                if (read_dyn_strings(&c) < 0)
                        goto fail;
        }
        if ((have_dynsym || c.e->has_dynamic) && !(flags & CC_ELF_NO_SYMBOLS)) {
                if (parse_syms(&c, have_dynsym, &dynsym, have_str) < 0)
                        goto fail;
        }
        *out = c.e;
        c.e = NULL;
        rv = 0;
fail:
        cc_elf_free(c.e);
        return rv;
}
