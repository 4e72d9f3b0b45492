/* ld.so.cache reader. Pure: parses a byte buffer (usually an mmap of
 * /etc/ld.so.cache). The layouts are glibc's (sysdeps/generic/dl-cache.h):
 *
 *   old:    "ld.so-1.7.0" nlibs {int32 flags, uint32 key, uint32 value}[nlibs]
 *           strings, offsets relative to the end of the entry table;
 *   compat: the old table, then (aligned to 8, the alignment of struct
 *           cache_file_new) a complete new-format cache;
 *   new:    "glibc-ld.so.cache" "1.1" nlibs len_strings flags(byte) pad[3]
 *           extension_offset unused[3]
 *           {int32 flags, uint32 key, uint32 value, uint32 osversion,
 *            uint64 hwcap}[nlibs] strings, offsets relative to the start of
 *           the new-format header; then the extension directory, whose
 *           offsets (like the glibc-hwcaps string offsets) the loader takes
 *           relative to the start of the file.
 *
 * Every offset, size and count read from the file is checked before use. */
#include "ldcache.h"

#include "elf.h" /* CC_EM_* */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OLD_MAGIC "ld.so-1.7.0"
#define OLD_MAGIC_LEN 11
#define NEW_MAGIC "glibc-ld.so.cache"
#define NEW_MAGIC_LEN 17
#define NEW_VERSION "1.1"
#define NEW_VERSION_LEN 3

#define OLD_HDR_SIZE 16 /* magic[11], pad, uint32 nlibs */
#define OLD_ENT_SIZE 12
#define NEW_HDR_SIZE 48
#define NEW_ENT_SIZE 24

/* struct cache_file_new flags byte */
#define ENDIAN_MASK 3
#define ENDIAN_UNSET 0
#define ENDIAN_INVALID 1
#define ENDIAN_LITTLE 2
#define ENDIAN_BIG 3

#define EXT_MAGIC 0xeaa42174u
#define EXT_HDR_SIZE 8
#define EXT_SEC_SIZE 16
#define EXT_TAG_GENERATOR 0
#define EXT_TAG_HWCAPS 1
#define EXT_TAG_COUNT 2

#define HWCAP_EXTENSION (1ull << 62)
/* glibc 2.33 to 2.36 keep an ISA level in the 10 bits above bit 31 of an
 * extension entry's hwcap; dl_cache_hwcap_extension ignores them. */
#define HWCAP_ISA_LEVEL_MASK 0x3ffu

#define MAX_ENTRIES 1000000u
#define MAX_STRLEN 4096u
#define MAX_EXT_SECTIONS 1024u
#define MAX_HWCAPS 65536u
#define MAX_WARNINGS 64
/* Several entries may name the same long string: bound the bytes copied. */
#define STR_ALLOC_BUDGET ((uint64_t)256 << 20)

struct ctx {
        const uint8_t *d;
        size_t size;
        int big;
        cc_ldcache *c;
        cc_error *err;
        int nwarn;
        uint64_t alloced;
        /* hwcaps extension: 1 for each name that is a usable string */
        unsigned char *hwcaps_ok;
};

static int warn(struct ctx *x, const char *fmt, ...) CC_PRINTF(2, 3);

static int warn(struct ctx *x, const char *fmt, ...)
{
        va_list ap;
        int rc;

        va_start(ap, fmt);
        rc = cc_vwarn(&x->c->warnings, &x->nwarn, MAX_WARNINGS, x->err, fmt, ap);
        va_end(ap);
        return rc;
}

/* s for a warning: at most 64 bytes, anything but printable ASCII as '?'
 * (warnings are one line each). */
static const char *printable(const char *s, char *buf, size_t size)
{
        size_t i;

        for (i = 0; s[i] != '\0' && i + 1 < size && i < 64; i++)
                buf[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
        buf[i] = '\0';
        return buf;
}

static uint32_t rd32(const struct ctx *x, uint64_t off)
{
        uint32_t v = 0;

        (void)cc_rd_u32(x->d, x->size, off, x->big, &v);
        return v;
}

static uint64_t rd64(const struct ctx *x, uint64_t off)
{
        uint64_t v = 0;

        (void)cc_rd_u64(x->d, x->size, off, x->big, &v);
        return v;
}

/* The NUL-terminated string at absolute offset off, at most MAX_STRLEN
 * bytes long, or NULL. *len receives its length. */
static const char *str_at(const struct ctx *x, uint64_t off, size_t *len)
{
        const char *s, *nul;
        uint64_t avail;

        if (off >= (uint64_t)x->size)
                return NULL;
        avail = (uint64_t)x->size - off;
        if (avail > MAX_STRLEN + 1)
                avail = MAX_STRLEN + 1;
        s = (const char *)(x->d + (size_t)off);
        nul = memchr(s, '\0', (size_t)avail);
        if (nul == NULL)
                return NULL;
        *len = (size_t)(nul - s);
        return s;
}

/* Copy the string at off, within the allocation budget. */
static int copy_str(struct ctx *x, const char *s, size_t len, char **out)
{
        x->alloced += len + 1;
        if (x->alloced > STR_ALLOC_BUDGET)
                return cc_err(x->err, CC_ERR_LIMIT, "cache strings: more than %llu bytes in all",
                              (unsigned long long)STR_ALLOC_BUDGET);
        *out = cc_strpool_add(&x->c->strs, s, len, x->err);
        return *out == NULL ? -1 : 0;
}

static int old_magic_at(const uint8_t *d, size_t size)
{
        return size >= OLD_MAGIC_LEN && memcmp(d, OLD_MAGIC, OLD_MAGIC_LEN) == 0;
}

static int new_magic_at(const uint8_t *d, size_t size, uint64_t off)
{
        return cc_range_ok(size, off, NEW_MAGIC_LEN + NEW_VERSION_LEN) &&
               memcmp(d + off, NEW_MAGIC NEW_VERSION, NEW_MAGIC_LEN + NEW_VERSION_LEN) == 0;
}

int cc_ldcache_is(const uint8_t *data, size_t size)
{
        if (data == NULL)
                return 0;
        return old_magic_at(data, size) || (size >= NEW_MAGIC_LEN && memcmp(data, NEW_MAGIC, NEW_MAGIC_LEN) == 0);
}

void cc_ldcache_free(cc_ldcache *c)
{
        if (c == NULL)
                return;
        cc_strpool_free(&c->strs);
        free(c->entries);
        cc_strv_free(&c->hwcaps);
        free(c->generator);
        cc_strv_free(&c->warnings);
        free(c);
}

/* ---- flags ------------------------------------------------------------------ */

const char *cc_ldcache_flags_str(int32_t flags, char *buf, size_t size)
{
        static const char *const type_names[] = {"libc4", "ELF", "libc5", "libc6"};
        /* print_entry in glibc's elf/cache.c, indexed by (flags & 0xff00) >> 8 */
        static const char *const req_names[] = {
            "",               /* 0x0000 */
            ",64bit",         /* 0x0100 FLAG_SPARC_LIB64 */
            ",IA-64",         /* 0x0200 FLAG_IA64_LIB64 */
            ",x86-64",        /* 0x0300 FLAG_X8664_LIB64 */
            ",64bit",         /* 0x0400 FLAG_S390_LIB64 */
            ",64bit",         /* 0x0500 FLAG_POWERPC_LIB64 */
            ",N32",           /* 0x0600 FLAG_MIPS64_LIBN32 */
            ",64bit",         /* 0x0700 FLAG_MIPS64_LIBN64 */
            ",x32",           /* 0x0800 FLAG_X8664_LIBX32 */
            ",hard-float",    /* 0x0900 FLAG_ARM_LIBHF */
            ",AArch64",       /* 0x0a00 FLAG_AARCH64_LIB64 */
            ",soft-float",    /* 0x0b00 FLAG_ARM_LIBSF */
            ",nan2008",       /* 0x0c00 FLAG_MIPS_LIB32_NAN2008 */
            ",N32,nan2008",   /* 0x0d00 FLAG_MIPS64_LIBN32_NAN2008 */
            ",64bit,nan2008", /* 0x0e00 FLAG_MIPS64_LIBN64_NAN2008 */
            ",soft-float",    /* 0x0f00 FLAG_RISCV_FLOAT_ABI_SOFT */
            ",double-float",  /* 0x1000 FLAG_RISCV_FLOAT_ABI_DOUBLE */
        };
        unsigned type = (unsigned)flags & CC_LDC_FLAG_TYPE_MASK;
        unsigned req = (unsigned)flags & CC_LDC_FLAG_REQUIRED_MASK;
        const char *t = type < CC_ARRAY_LEN(type_names) ? type_names[type] : "unknown";

        if (buf == NULL || size == 0)
                return buf;
        if ((req >> 8) < CC_ARRAY_LEN(req_names))
                snprintf(buf, size, "%s%s", t, req_names[req >> 8]);
        else /* ldconfig prints unknown required bits in decimal */
                snprintf(buf, size, "%s,%u", t, req);
        return buf;
}

/* e_machine values (our own copies) */
#define EM_SPARC 2
#define EM_68K 4
#define EM_MIPS 8
#define EM_PARISC 15
#define EM_SPARC32PLUS 18
#define EM_PPC 20
#define EM_SH 42
#define EM_SPARCV9 43
#define EM_IA_64 50
#define EM_OPENRISC 92
#define EM_ALTERA_NIOS2 113
#define EM_MICROBLAZE 189
#define EM_ARC_COMPACT2 195
#define EM_CSKY 252
#define EM_LOONGARCH 258
#define EM_ALPHA 0x9026

#define EF_MIPS_ABI2 0x20
#define EF_MIPS_NAN2008 0x400
#define EF_ARM_ABI_FLOAT_HARD 0x400
#define EF_RISCV_FLOAT_ABI_MASK 0x6
#define EF_RISCV_FLOAT_ABI_SOFT 0x0
#define EF_RISCV_FLOAT_ABI_DOUBLE 0x4
#define EF_LARCH_ABI_MASK 0x7
#define EF_LARCH_ABI_SOFT 0x1
#define EF_LARCH_ABI_DOUBLE 0x3

static int class_bits(int elfclass)
{
        if (elfclass == 1 || elfclass == 32)
                return 32;
        if (elfclass == 2 || elfclass == 64)
                return 64;
        return 0;
}

static int32_t flags_for(int bits, uint16_t m, uint32_t e_flags, int have_eflags)
{
        const int32_t libc6 = CC_LDC_FLAG_ELF_LIBC6;

        if (bits == 0)
                return -1;
        switch (m) {
        case CC_EM_X86_64:
                return bits == 64 ? libc6 | CC_LDC_FLAG_X8664_LIB64 : libc6 | 0x0800;
        case CC_EM_AARCH64:
                /* ILP32 was never merged into glibc */
                return bits == 64 ? libc6 | CC_LDC_FLAG_AARCH64_LIB64 : -1;
        case EM_IA_64:
                return bits == 64 ? libc6 | 0x0200 : -1;
        case CC_EM_S390:
                return bits == 64 ? libc6 | 0x0400 : libc6;
        case CC_EM_PPC64:
                return bits == 64 ? libc6 | 0x0500 : -1;
        case EM_SPARCV9:
                return bits == 64 ? libc6 | 0x0100 : -1;
        case EM_MIPS: {
                int nan2008 = have_eflags && (e_flags & EF_MIPS_NAN2008);

                if (bits == 64)
                        return libc6 | (nan2008 ? 0x0e00 : 0x0700);
                if (have_eflags && (e_flags & EF_MIPS_ABI2))
                        return libc6 | (nan2008 ? 0x0d00 : 0x0600);
                return libc6 | (nan2008 ? 0x0c00 : 0);
        }
        case CC_EM_RISCV:
                if (!have_eflags || (e_flags & EF_RISCV_FLOAT_ABI_MASK) == EF_RISCV_FLOAT_ABI_DOUBLE)
                        return libc6 | 0x1000;
                if ((e_flags & EF_RISCV_FLOAT_ABI_MASK) == EF_RISCV_FLOAT_ABI_SOFT)
                        return libc6 | 0x0f00;
                return -1; /* single or quad float: no glibc ABI */
        case EM_LOONGARCH:
                if (bits != 64)
                        return -1;
                if (!have_eflags || (e_flags & EF_LARCH_ABI_MASK) == EF_LARCH_ABI_DOUBLE)
                        return libc6 | 0x1200;
                if ((e_flags & EF_LARCH_ABI_MASK) == EF_LARCH_ABI_SOFT)
                        return libc6 | 0x1100;
                return -1;
        case CC_EM_386:
        case CC_EM_ARM:
        case EM_SPARC:
        case EM_SPARC32PLUS:
        case EM_PPC:
        case EM_68K:
        case EM_PARISC:
        case EM_SH:
        case EM_OPENRISC:
        case EM_ALTERA_NIOS2:
        case EM_MICROBLAZE:
        case EM_ARC_COMPACT2:
        case EM_CSKY:
                return bits == 32 ? libc6 : -1;
        case EM_ALPHA:
                return bits == 64 ? libc6 : -1;
        default:
                return -1;
        }
}

int32_t cc_ldcache_flags_for(int elfclass, uint16_t e_machine)
{
        return flags_for(class_bits(elfclass), e_machine, 0, 0);
}

int32_t cc_ldcache_flags_for_elf(int elfclass, uint16_t e_machine, uint32_t e_flags)
{
        return flags_for(class_bits(elfclass), e_machine, e_flags, 1);
}

int cc_ldcache_flags_accepted(int32_t flags, int elfclass, uint16_t e_machine, uint32_t e_flags)
{
        int bits = class_bits(elfclass);
        int32_t want = flags_for(bits, e_machine, e_flags, 1);

        if (want < 0)
                return 0;
        if (flags == want)
                return 1;
        switch (e_machine) {
        case CC_EM_ARM:
                /* unmarked objects are compatible with either float ABI */
                if (flags == (int32_t)CC_LDC_FLAG_ELF_LIBC6)
                        return 1;
                return flags ==
                       (int32_t)(CC_LDC_FLAG_ELF_LIBC6 | ((e_flags & EF_ARM_ABI_FLOAT_HARD) ? 0x0900 : 0x0b00));
        case CC_EM_386:
        case EM_SPARC:
        case EM_SPARC32PLUS:
        case EM_PPC:
        case CC_EM_S390:
        case EM_68K:
        case EM_PARISC:
        case EM_SH:
        case EM_OPENRISC:
        case EM_ALTERA_NIOS2:
        case EM_MICROBLAZE:
        case EM_ARC_COMPACT2:
        case EM_CSKY:
        case EM_ALPHA:
                /* the generic _dl_cache_check_flags also takes FLAG_ELF */
                return want == (int32_t)CC_LDC_FLAG_ELF_LIBC6 && flags == 1;
        case EM_MIPS:
                /* o32 with legacy NaN keeps the generic check */
                return want == (int32_t)CC_LDC_FLAG_ELF_LIBC6 && flags == 1;
        default:
                return 0;
        }
}

/* ---- parsing ------------------------------------------------------------------ */

/* The string pair of entry i at key/value (absolute offsets); 0 and the
 * copies, 1 if the entry is to be skipped (warned), -1 on error. */
static int entry_strings(struct ctx *x, const char *table, size_t i, uint64_t key, uint64_t value, cc_ldcache_entry *e)
{
        const char *k, *v;
        size_t klen = 0, vlen = 0;
        char pk[72];

        k = str_at(x, key, &klen);
        if (k == NULL)
                return warn(x,
                            "%s entry %zu: the name at offset 0x%llx is not a NUL-terminated string of at most %u "
                            "bytes inside the file; skipped",
                            table, i, (unsigned long long)key, MAX_STRLEN) < 0
                           ? -1
                           : 1;
        v = str_at(x, value, &vlen);
        if (v == NULL)
                return warn(x,
                            "%s entry %zu (%s): the path at offset 0x%llx is not a NUL-terminated string of at most "
                            "%u bytes inside the file; skipped",
                            table, i, printable(k, pk, sizeof(pk)), (unsigned long long)value, MAX_STRLEN) < 0
                           ? -1
                           : 1;
        if (copy_str(x, k, klen, &e->key) < 0)
                return -1;
        if (copy_str(x, v, vlen, &e->value) < 0) {
                e->key = NULL;
                return -1;
        }
        return 0;
}

/* The old-format table: n entries at 16, strings after them. */
static int parse_old_entries(struct ctx *x, uint32_t n)
{
        cc_ldcache *c = x->c;
        uint64_t strbase = OLD_HDR_SIZE + (uint64_t)n * OLD_ENT_SIZE;
        uint32_t i;

        if (n == 0)
                return 0;
        c->entries = cc_calloc(x->err, n, sizeof(*c->entries));
        if (c->entries == NULL)
                return -1;
        for (i = 0; i < n; i++) {
                uint64_t b = OLD_HDR_SIZE + (uint64_t)i * OLD_ENT_SIZE;
                cc_ldcache_entry *e = &c->entries[c->n];
                int r;

                e->flags = (int32_t)rd32(x, b);
                r = entry_strings(x, "old-format", i, strbase + rd32(x, b + 4), strbase + rd32(x, b + 8), e);
                if (r < 0)
                        return -1;
                if (r > 0)
                        continue;
                e->hwcaps_index = -1;
                c->n++;
        }
        return 0;
}

/* Is the hwcap value of an entry a glibc-hwcaps extension index? */
static int hwcap_is_extension(uint64_t hwcap)
{
        return (((hwcap >> 32) & ~(uint64_t)HWCAP_ISA_LEVEL_MASK) == (HWCAP_EXTENSION >> 32));
}

/* The glibc-hwcaps section: an array of uint32 string offsets. The loader
 * (and ldconfig -p) read each string relative to the start of the file. */
static int load_hwcaps(struct ctx *x, uint64_t base, uint32_t off, uint32_t size)
{
        cc_ldcache *c = x->c;
        uint32_t n, i;
        unsigned bad = 0;

        if (size == 0 || off % 4 != 0 || size % 4 != 0)
                return warn(x, "glibc-hwcaps extension section (offset 0x%x, size %u) is empty or misaligned; ignored",
                            off, size);
        n = size / 4;
        if (n > MAX_HWCAPS)
                return warn(x, "glibc-hwcaps extension section has %u names (limit %u); ignored", n, MAX_HWCAPS);
        x->hwcaps_ok = cc_calloc(x->err, n, 1);
        if (x->hwcaps_ok == NULL)
                return -1;
        for (i = 0; i < n; i++) {
                uint32_t so = rd32(x, (uint64_t)off + (uint64_t)i * 4);
                const char *s, *alt;
                size_t len = 0, alen = 0;
                char pa[72];

                s = str_at(x, so, &len);
                /* ldconfig writes these offsets relative to the new-format
                 * header; in the compat layout that is not where the
                 * loader looks. */
                alt = base != 0 ? str_at(x, base + so, &alen) : NULL;
                if (alt != NULL && alen > 0 && (s == NULL || len != alen || memcmp(s, alt, len) != 0) &&
                    warn(x,
                         "glibc-hwcaps name %u: read at file offset 0x%x as the loader does, but ldconfig meant \"%s\" "
                         "(offset 0x%x in the compat layout's new-format cache): the loader will not use these entries",
                         i, so, printable(alt, pa, sizeof(pa)), so) < 0)
                        return -1;
                if (s == NULL) {
                        bad++;
                        if (cc_strv_push(&c->hwcaps, "", x->err) < 0)
                                return -1;
                        continue;
                }
                x->alloced += len + 1;
                if (x->alloced > STR_ALLOC_BUDGET)
                        return cc_err(x->err, CC_ERR_LIMIT, "cache strings: more than %llu bytes in all",
                                      (unsigned long long)STR_ALLOC_BUDGET);
                if (cc_strv_pushn(&c->hwcaps, s, len, x->err) < 0)
                        return -1;
                x->hwcaps_ok[i] = 1;
        }
        if (bad && warn(x,
                        "%u glibc-hwcaps names are not NUL-terminated strings inside the file; their entries have no "
                        "subdirectory",
                        bad) < 0)
                return -1;
        return 0;
}

/* The extension directory of the new-format header at base. */
static int parse_extensions(struct ctx *x, uint64_t base, uint32_t ext)
{
        cc_ldcache *c = x->c;
        uint32_t magic, count, i;
        uint32_t sec_off[EXT_TAG_COUNT], sec_size[EXT_TAG_COUNT];
        int have[EXT_TAG_COUNT] = {0, 0};

        if (ext == 0)
                return 0;
        if (ext % 4 != 0)
                return warn(x, "extension directory offset 0x%x is not a multiple of 4; extensions ignored", ext);
        if (!cc_range_ok(x->size, ext, EXT_HDR_SIZE))
                return warn(x, "extension directory at 0x%x is past the end of the file; extensions ignored", ext);
        magic = rd32(x, ext);
        count = rd32(x, (uint64_t)ext + 4);
        if (magic != EXT_MAGIC)
                return warn(x, "extension directory at 0x%x has a bad magic 0x%08x; extensions ignored", ext, magic);
        if (count > MAX_EXT_SECTIONS)
                return warn(x, "extension directory has %u sections (limit %u); extensions ignored", count,
                            MAX_EXT_SECTIONS);
        if (!cc_range_ok(x->size, (uint64_t)ext + EXT_HDR_SIZE, (uint64_t)count * EXT_SEC_SIZE))
                return warn(x, "extension directory: %u sections run past the end of the file; extensions ignored",
                            count);
        for (i = 0; i < count; i++) {
                uint64_t b = (uint64_t)ext + EXT_HDR_SIZE + (uint64_t)i * EXT_SEC_SIZE;
                uint32_t tag = rd32(x, b), off = rd32(x, b + 8), size = rd32(x, b + 12);

                if (!cc_range_ok(x->size, off, size)) {
                        if (warn(x,
                                 "extension section %u (tag %u, offset 0x%x, size %u) runs past the end of the file; "
                                 "ignored",
                                 i, tag, off, size) < 0)
                                return -1;
                        continue;
                }
                if (tag >= EXT_TAG_COUNT)
                        continue; /* unknown tags are skipped, as glibc does */
                /* glibc keeps the last section of each tag */
                if (have[tag] && warn(x, "more than one extension section with tag %u; the last is used", tag) < 0)
                        return -1;
                have[tag] = 1;
                sec_off[tag] = off;
                sec_size[tag] = size;
        }
        if (have[EXT_TAG_GENERATOR]) {
                uint32_t n = sec_size[EXT_TAG_GENERATOR];
                const char *g = (const char *)(x->d + sec_off[EXT_TAG_GENERATOR]);
                const char *nul;

                if (n > MAX_STRLEN) {
                        if (warn(x, "generator string of %u bytes cut to %u", n, MAX_STRLEN) < 0)
                                return -1;
                        n = MAX_STRLEN;
                }
                nul = n ? memchr(g, '\0', n) : NULL;
                if (nul != NULL)
                        n = (uint32_t)(nul - g);
                c->generator = cc_strndup(x->err, g, n);
                if (c->generator == NULL)
                        return -1;
        }
        if (have[EXT_TAG_HWCAPS])
                return load_hwcaps(x, base, sec_off[EXT_TAG_HWCAPS], sec_size[EXT_TAG_HWCAPS]);
        return 0;
}

/* Byte order of a count at off when nothing says: the one in which the
 * count fits in the file; if both do, the one giving the smaller count. */
static int guess_big(const uint8_t *d, size_t size, uint64_t off, uint64_t avail, uint64_t entsize)
{
        uint32_t le = 0, be = 0;
        int le_fits, be_fits;

        (void)cc_rd_u32(d, size, off, 0, &le);
        (void)cc_rd_u32(d, size, off, 1, &be);
        le_fits = le <= avail / entsize;
        be_fits = be <= avail / entsize;
        if (le_fits != be_fits)
                return be_fits;
        return be < le;
}

/* The new-format cache whose header is at base. */
static int parse_new(struct ctx *x, uint64_t base, int big_hint)
{
        cc_ldcache *c = x->c;
        uint64_t avail, strend;
        uint32_t n, len_strings, ext, i;
        uint8_t flags = 0;

        if (!cc_range_ok(x->size, base, NEW_HDR_SIZE))
                return cc_err(x->err, CC_ERR_TRUNCATED, "file too small for a new-format cache header (%llu bytes)",
                              (unsigned long long)(x->size - (size_t)base));
        avail = (uint64_t)x->size - base - NEW_HDR_SIZE;
        (void)cc_rd_u8(x->d, x->size, base + 28, &flags);
        switch (flags & ENDIAN_MASK) {
        case ENDIAN_LITTLE:
                x->big = 0;
                break;
        case ENDIAN_BIG:
                x->big = 1;
                break;
        case ENDIAN_INVALID:
                if (warn(x, "the header marks the cache invalid (endianness flags 1): the loader ignores it") < 0)
                        return -1;
                /* fall through */
        default:
                x->big = big_hint >= 0 ? big_hint : guess_big(x->d, x->size, base + 20, avail, NEW_ENT_SIZE);
                break;
        }
        c->big_endian = x->big;
        n = rd32(x, base + 20);
        len_strings = rd32(x, base + 24);
        ext = rd32(x, base + 32);
        if (n > MAX_ENTRIES)
                return cc_err(x->err, CC_ERR_LIMIT, "too many cache entries (%u, limit %u)", n, MAX_ENTRIES);
        if (n > avail / NEW_ENT_SIZE)
                return cc_err(x->err, CC_ERR_TRUNCATED, "%u new-format entries do not fit in the file (%llu bytes)", n,
                              (unsigned long long)x->size);
        strend = base + NEW_HDR_SIZE + (uint64_t)n * NEW_ENT_SIZE + len_strings;
        if (strend > (uint64_t)x->size &&
            warn(x, "the string table (%u bytes) runs past the end of the file", len_strings) < 0)
                return -1;
        if (parse_extensions(x, base, ext) < 0)
                return -1;
        if (n == 0)
                return 0;
        c->entries = cc_calloc(x->err, n, sizeof(*c->entries));
        if (c->entries == NULL)
                return -1;
        for (i = 0; i < n; i++) {
                uint64_t b = base + NEW_HDR_SIZE + (uint64_t)i * NEW_ENT_SIZE;
                cc_ldcache_entry *e = &c->entries[c->n];
                int r;

                e->flags = (int32_t)rd32(x, b);
                r = entry_strings(x, "new-format", i, base + rd32(x, b + 4), base + rd32(x, b + 8), e);
                if (r < 0)
                        return -1;
                if (r > 0)
                        continue;
                e->osversion = rd32(x, b + 12);
                e->hwcap = rd64(x, b + 16);
                e->hwcaps_index = -1;
                c->n++;
                if (hwcap_is_extension(e->hwcap)) {
                        uint32_t idx = (uint32_t)e->hwcap;
                        char pk[72];

                        if (idx < c->hwcaps.n && x->hwcaps_ok[idx]) {
                                e->hwcaps_index = (int)idx;
                                e->hwcaps = c->hwcaps.v[idx];
                        } else if (warn(x,
                                        "entry %u (%s): glibc-hwcaps index %u has no usable name (%zu in the "
                                        "extension); the loader skips it",
                                        i, printable(e->key, pk, sizeof(pk)), idx, c->hwcaps.n) < 0) {
                                return -1;
                        }
                }
        }
        return 0;
}

/* An old-format file: the old table, and a new-format cache after it. */
static int parse_old(struct ctx *x)
{
        cc_ldcache *c = x->c;
        uint64_t avail;
        uint32_t n_le = 0, n_be = 0, n;
        int big, tries;

        if (x->size < OLD_HDR_SIZE)
                return cc_err(x->err, CC_ERR_TRUNCATED, "file too small for an old-format cache header (%llu bytes)",
                              (unsigned long long)x->size);
        avail = (uint64_t)x->size - OLD_HDR_SIZE;
        (void)cc_rd_u32(x->d, x->size, 12, 0, &n_le);
        (void)cc_rd_u32(x->d, x->size, 12, 1, &n_be);
        big = guess_big(x->d, x->size, 12, avail, OLD_ENT_SIZE);
        /* A new-format cache after the table settles the byte order: try
         * the likelier order first, then the other. */
        for (tries = 0; tries < 2; tries++) {
                int b = tries == 0 ? big : !big;
                uint32_t nb = b ? n_be : n_le;
                uint64_t end, al;

                if (nb > avail / OLD_ENT_SIZE)
                        continue;
                end = OLD_HDR_SIZE + (uint64_t)nb * OLD_ENT_SIZE;
                /* ALIGN_CACHE: 8 where uint64_t is 8-aligned, 4 on i386 */
                al = (end + 7) & ~(uint64_t)7;
                if (!new_magic_at(x->d, x->size, al) && new_magic_at(x->d, x->size, end))
                        al = end;
                if (new_magic_at(x->d, x->size, al)) {
                        uint8_t flags = 0;

                        (void)cc_rd_u8(x->d, x->size, al + 28, &flags);
                        if (((flags & ENDIAN_MASK) == ENDIAN_LITTLE && b) ||
                            ((flags & ENDIAN_MASK) == ENDIAN_BIG && !b)) {
                                if (warn(x, "the old-format table and the new-format header disagree on the byte "
                                            "order; the header is followed") < 0)
                                        return -1;
                        }
                        c->format = CC_LDCACHE_COMPAT;
                        c->n_old = nb;
                        return parse_new(x, al, b);
                }
        }
        n = big ? n_be : n_le;
        if (n > MAX_ENTRIES)
                return cc_err(x->err, CC_ERR_LIMIT, "too many cache entries (%u, limit %u)", n, MAX_ENTRIES);
        if (n > avail / OLD_ENT_SIZE)
                return cc_err(x->err, CC_ERR_TRUNCATED, "%u old-format entries do not fit in the file (%llu bytes)", n,
                              (unsigned long long)x->size);
        x->big = big;
        c->big_endian = big;
        c->format = CC_LDCACHE_OLD;
        c->n_old = n;
        return parse_old_entries(x, n);
}

/* ---- looking a name up ------------------------------------------------------- */

static int is_digit(signed char c)
{
        return c >= '0' && c <= '9';
}

int cc_ldcache_libcmp(const char *a, const char *b)
{
        /* signed bytes, as glibc's `char` on x86 and as ldconfig compared them there */
        const signed char *p1 = (const signed char *)a, *p2 = (const signed char *)b;
        size_t k = 0;

        /* the bytes both share compare equal: start where they part, or at
         * the run of digits the shared bytes end in (names in a cache share
         * long prefixes) */
        while (p1[k] != 0 && p1[k] == p2[k])
                k++;
        if (p1[k] == p2[k])
                return 0;
        while (k > 0 && is_digit(p1[k - 1]))
                k--;
        p1 += k;
        p2 += k;
        while (*p1 != 0) {
                if (is_digit(*p1)) {
                        uint32_t v1 = 0, v2 = 0;

                        if (!is_digit(*p2))
                                return 1;
                        /* glibc adds the digits up in an int: the value
                         * modulo 2^32, compared as a signed number (here
                         * with the sign bit flipped, compared unsigned) */
                        for (; is_digit(*p1); p1++)
                                v1 = v1 * 10u + (uint32_t)(*p1 - '0');
                        for (; is_digit(*p2); p2++)
                                v2 = v2 * 10u + (uint32_t)(*p2 - '0');
                        v1 ^= 0x80000000u;
                        v2 ^= 0x80000000u;
                        if (v1 != v2)
                                return v1 < v2 ? -1 : 1;
                } else if (is_digit(*p2)) {
                        return -1;
                } else if (*p1 != *p2) {
                        return *p1 - *p2;
                } else {
                        p1++;
                        p2++;
                }
        }
        return *p1 - *p2;
}

/* ldconfig writes the entries in decreasing name order: each name's
 * entries are then one run that a binary search finds. */
static int is_sorted(const cc_ldcache *c)
{
        size_t i;

        for (i = 1; i < c->n; i++)
                if (cc_ldcache_libcmp(c->entries[i - 1].key, c->entries[i].key) < 0)
                        return 0;
        return 1;
}

/* In a sorted cache, from entry a on: the first entry that compares below
 * `least` against name (least 1: the first not above name; least 0: the
 * first below it). */
static size_t first_past(const cc_ldcache *c, const char *name, size_t a, int least)
{
        size_t b = c->n;

        while (a < b) {
                size_t mid = a + (b - a) / 2;

                if (cc_ldcache_libcmp(c->entries[mid].key, name) >= least)
                        a = mid + 1;
                else
                        b = mid;
        }
        return a;
}

void cc_ldcache_span(const cc_ldcache *c, const char *name, size_t *lo, size_t *hi)
{
        if (c == NULL || name == NULL) {
                *lo = *hi = 0;
                return;
        }
        if (!c->sorted) {
                *lo = 0;
                *hi = c->n;
                return;
        }
        *lo = first_past(c, name, 0, 1);
        *hi = first_past(c, name, *lo, 0);
}

int cc_ldcache_parse(const uint8_t *data, size_t size, cc_ldcache **out, cc_error *err)
{
        struct ctx x;
        int rv = -1;

        if (out == NULL)
                return cc_err(err, CC_ERR_USAGE, "cc_ldcache_parse: NULL output");
        *out = NULL;
        if (data == NULL && size > 0)
                return cc_err(err, CC_ERR_USAGE, "cc_ldcache_parse: NULL data");
        memset(&x, 0, sizeof(x));
        x.d = data;
        x.size = size;
        x.err = err;
        if (old_magic_at(data, size)) {
                x.c = cc_calloc(err, 1, sizeof(*x.c));
                if (x.c == NULL)
                        goto done;
                if (parse_old(&x) < 0)
                        goto done;
        } else if (new_magic_at(data, size, 0)) {
                x.c = cc_calloc(err, 1, sizeof(*x.c));
                if (x.c == NULL)
                        goto done;
                x.c->format = CC_LDCACHE_NEW;
                if (parse_new(&x, 0, -1) < 0)
                        goto done;
        } else if (size >= NEW_MAGIC_LEN && memcmp(data, NEW_MAGIC, NEW_MAGIC_LEN) == 0) {
                if (size < NEW_MAGIC_LEN + NEW_VERSION_LEN)
                        cc_err(err, CC_ERR_TRUNCATED, "file too small for a new-format cache header (%llu bytes)",
                               (unsigned long long)size);
                else
                        cc_err(err, CC_ERR_UNSUPPORTED, "new-format cache version \"%c%c%c\" is not %s",
                               (data[17] >= 0x20 && data[17] < 0x7f) ? data[17] : '?',
                               (data[18] >= 0x20 && data[18] < 0x7f) ? data[18] : '?',
                               (data[19] >= 0x20 && data[19] < 0x7f) ? data[19] : '?', NEW_VERSION);
                goto done;
        } else {
                if (size < OLD_MAGIC_LEN && size > 0 && memcmp(data, OLD_MAGIC, size) == 0)
                        cc_err(err, CC_ERR_TRUNCATED, "file too small for a cache header (%llu bytes)",
                               (unsigned long long)size);
                else
                        cc_err(err, CC_ERR_FORMAT, "not an ld.so.cache file (bad magic)");
                goto done;
        }
        x.c->sorted = is_sorted(x.c);
        *out = x.c;
        x.c = NULL;
        rv = 0;
done:
        free(x.hwcaps_ok);
        cc_ldcache_free(x.c);
        return rv;
}
