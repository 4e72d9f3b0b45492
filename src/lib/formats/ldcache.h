/* ld.so.cache reader: the binary cache the Linux dynamic loader reads, in
 * both formats glibc writes: the old "ld.so-1.7.0" format (optionally with
 * a new-format cache appended, the "compat" layout) and the new
 * "glibc-ld.so.cache1.1" format with its extension directory (generator
 * string, glibc-hwcaps subdirectory names). Every offset is checked against
 * the buffer; either byte order is read. Pure: no I/O. */
#ifndef CC_FORMATS_LDCACHE_H
#define CC_FORMATS_LDCACHE_H

#include "../common.h"

/* Entry flags (glibc's FLAG_*): the low byte is the type, the next byte the
 * required architecture/ABI. */
#define CC_LDC_FLAG_TYPE_MASK 0x00ff
#define CC_LDC_FLAG_ELF_LIBC6 0x0003
#define CC_LDC_FLAG_REQUIRED_MASK 0xff00
#define CC_LDC_FLAG_X8664_LIB64 0x0300
#define CC_LDC_FLAG_AARCH64_LIB64 0x0a00

enum cc_ldcache_format {
        CC_LDCACHE_OLD = 1, /* "ld.so-1.7.0" only */
        CC_LDCACHE_NEW,     /* "glibc-ld.so.cache1.1" only (glibc >= 2.32 default) */
        CC_LDCACHE_COMPAT,  /* old format followed by a new-format cache */
};

typedef struct cc_ldcache_entry {
        int32_t flags;
        char *key;   /* the library name (SONAME), in the cache's string pool */
        char *value; /* the path, in the cache's string pool */
        uint32_t osversion;
        uint64_t hwcap;     /* 0 in the old format */
        int hwcaps_index;   /* index into cc_ldcache.hwcaps when the entry uses the glibc-hwcaps
                               extension (bit 62 set, ISA-level bits aside) and that name is
                               usable, else -1 */
        const char *hwcaps; /* that subdirectory name ("x86-64-v3"), or NULL; points into hwcaps */
} cc_ldcache_entry;

typedef struct cc_ldcache {
        int format;     /* enum cc_ldcache_format */
        int big_endian; /* byte order the new-format header declares (or that was detected) */
        /* The entries the loader uses, in file order: the new-format table when
         * there is one (glibc prefers it), else the old table. */
        cc_ldcache_entry *entries;
        size_t n;
        size_t n_old;     /* entries in the old-format table (0 if none) */
        cc_strv hwcaps;   /* glibc-hwcaps extension: subdirectory names, in table order, read
                             from the file offsets the loader uses ("" where none is usable) */
        int sorted;       /* 1 when no name is above the one before it in cc_ldcache_libcmp's order, as
                             ldconfig writes them: then each name's entries are one run */
        char *generator;  /* generator extension ("ldconfig (GNU libc) stable release version 2.36"), or NULL */
        cc_strv warnings; /* problems that did not stop parsing, one line each */
        cc_strpool strs;  /* the entries' strings */
} cc_ldcache;

/* 1 if the bytes start with either magic. */
int cc_ldcache_is(const uint8_t *data, size_t size);
/* Parse. On failure *out is NULL and err names the problem (no file name).
 * Bounded: at most 1 million entries, strings of at most 4096 bytes. An
 * entry whose name or path is not such a string inside the file is skipped
 * with a warning (so n can be less than the table's count); so are a bad
 * extension directory or section and a glibc-hwcaps index without a name. */
int cc_ldcache_parse(const uint8_t *data, size_t size, cc_ldcache **out, cc_error *err);
void cc_ldcache_free(cc_ldcache *c);

/* glibc's _dl_cache_libcmp, the order ldconfig sorts the entries in (the
 * largest name first): a run of digits compares as a number and above any
 * other byte, the number as glibc's int adds it up (modulo 2^32, signed: a
 * 10-digit run can wrap); other bytes compare as signed chars (x86's
 * `char`), the end of a name as 0. Equal names compare 0, and so do names
 * whose numbers are equal ("libx.so.01" and "libx.so.1"). A total order of
 * such classes, unlike glibc's subtraction of two ints, which can overflow. */
int cc_ldcache_libcmp(const char *a, const char *b);
/* The entries [*lo, *hi) that may be named name, in file order: on a sorted
 * cache the run of names equal to it in cc_ldcache_libcmp's order, found by
 * binary search (every entry with exactly that name is in it); otherwise
 * the whole table. The caller still compares each entry's key. */
void cc_ldcache_span(const cc_ldcache *c, const char *name, size_t *lo, size_t *hi);

/* The flags as `ldconfig -p` prints them inside the parentheses, without
 * hwcap or OS version: "libc6,x86-64", "libc6", "libc6,AArch64", "libc5",
 * "ELF", "libc6,x32", "libc6,hard-float", "libc6,IA-64"... As ldconfig
 * (glibc 2.36) does, an unknown type byte is written "unknown" and unknown
 * required-ABI bits as a comma and their decimal value ("unknown,65280" for
 * flags -1; LoongArch's 0x1100/0x1200 print as ",4352"/",4608"). Returns buf. */
const char *cc_ldcache_flags_str(int32_t flags, char *buf, size_t size);
/* The flags the loader of an ELF object of this class (32/64; ELFCLASS32/64
 * as 1/2 also accepted) and e_machine requires of a cache entry (glibc's
 * _DL_CACHE_DEFAULT_ID), or -1 if the table does not know the machine.
 * x86-64 64-bit: ELF_LIBC6|X8664_LIB64 (0x0303); x32: 0x0803; i386 and ARM:
 * ELF_LIBC6 (0x0003); AArch64: 0x0a03; ... Where the ABI depends on e_flags
 * this assumes the usual distribution ABI: MIPS o32/n64 with legacy NaN,
 * RISC-V and LoongArch double-float. */
int32_t cc_ldcache_flags_for(int elfclass, uint16_t e_machine);
/* As cc_ldcache_flags_for, with the object's e_flags deciding MIPS n32 and
 * NaN-2008, the RISC-V and LoongArch float ABI (-1 for one glibc has no
 * loader for). */
int32_t cc_ldcache_flags_for_elf(int elfclass, uint16_t e_machine, uint32_t e_flags);
/* 1 if the loader of such an object accepts a cache entry with these flags
 * (glibc's _dl_cache_check_flags): the default ID, plus FLAG_ELF (1) on the
 * targets using the generic check, plus plain ELF_LIBC6 or the matching
 * float ABI on ARM. */
int cc_ldcache_flags_accepted(int32_t flags, int elfclass, uint16_t e_machine, uint32_t e_flags);

#endif
