/* ELF reader: 32/64-bit, both byte orders, every offset checked against the
 * buffer. Reads the file header, program headers (PT_LOAD, PT_INTERP,
 * PT_DYNAMIC), the dynamic section (DT_NEEDED, DT_SONAME, DT_RPATH, DT_RUNPATH,
 * DT_FLAGS, DT_FLAGS_1) and the exported dynamic symbols. Pure: no I/O. */
#ifndef CC_FORMATS_ELF_H
#define CC_FORMATS_ELF_H

#include "../common.h"

/* Values from the ELF specification, our own copies (no <elf.h> on MSVC). */
#define CC_ET_REL 1
#define CC_ET_EXEC 2
#define CC_ET_DYN 3
#define CC_ET_CORE 4
#define CC_EM_386 3
#define CC_EM_PPC64 21
#define CC_EM_S390 22
#define CC_EM_ARM 40
#define CC_EM_X86_64 62
#define CC_EM_AARCH64 183
#define CC_EM_RISCV 243
#define CC_STT_OBJECT 1
#define CC_STT_FUNC 2
#define CC_DF_1_NODEFLIB 0x800

typedef struct cc_elf_sym {
        char *name;
        uint64_t value; /* st_value: a virtual address for ET_DYN/ET_EXEC */
        uint64_t size;
        uint8_t type; /* STT_* */
        uint8_t bind; /* STB_* */
        uint16_t shndx;
} cc_elf_sym;

typedef struct cc_elf_load {
        uint64_t vaddr, offset, filesz, memsz;
} cc_elf_load;

typedef struct cc_elf {
        int bits;       /* 32 or 64 */
        int big_endian; /* 0: little, 1: big */
        uint8_t osabi;
        uint16_t type;    /* CC_ET_* */
        uint16_t machine; /* CC_EM_* */
        char *interp;     /* PT_INTERP, or NULL */
        int has_dynamic;  /* a PT_DYNAMIC / .dynamic was found */
        char *soname;     /* NULL if absent */
        char *rpath;      /* DT_RPATH, NULL if absent */
        char *runpath;    /* DT_RUNPATH, NULL if absent */
        cc_strv needed;   /* DT_NEEDED in order */
        uint64_t flags;   /* DT_FLAGS */
        uint64_t flags_1; /* DT_FLAGS_1 */
        /* Defined dynamic symbols with global or weak binding and default or
         * protected visibility (what another object can bind to), in table order. */
        cc_elf_sym *syms;
        size_t nsyms;
        /* Every symbol of that kind, also those a keep function left out. */
        size_t nexports;
        /* 1: only the names cc_elf_parse_kept asked for were looked at:
         * nexports counts only those. */
        int exports_uncounted;
        /* The .rodata and .text sections in the file (from the section
         * headers), 0/0 if there is none or no usable section table. */
        uint64_t rodata_off, rodata_size;
        uint64_t text_off, text_size;
        cc_elf_load *loads; /* PT_LOAD segments */
        size_t nloads;
        cc_strv warnings; /* problems that did not stop parsing, one line each */
} cc_elf;

/* 1 if the buffer starts with the ELF magic. */
int cc_elf_is(const uint8_t *data, size_t size);
/* Parse. On failure *out is NULL and err names the problem (without the file
 * name: the caller adds it). Bounded: at most 4096 DT_NEEDED, 4 million symbols. */
int cc_elf_parse(const uint8_t *data, size_t size, cc_elf **out, cc_error *err);
/* Flags for cc_elf_parse_opts. */
#define CC_ELF_NO_SYMBOLS 1u /* headers and the dynamic section only (what a loader reads) */
int cc_elf_parse_opts(const uint8_t *data, size_t size, unsigned flags, cc_elf **out, cc_error *err);
/* Decides whether an exported symbol is kept in syms (1) or only counted in
 * nexports (0): a library with millions of symbols then costs memory only for
 * the few asked about. */
typedef int (*cc_elf_keep_fn)(void *ctx, const char *name);
/* cc_elf_parse_opts with a keep function (NULL keeps every symbol). */
int cc_elf_parse_keep(const uint8_t *data, size_t size, unsigned flags, cc_elf_keep_fn keep, void *keep_ctx,
                      cc_elf **out, cc_error *err);
/* cc_elf_parse_keep for a caller that wants only the symbols its keep
 * function takes, every one of whose names starts with needle: when the
 * symbol string table ends in NUL (names cannot run off it), other names
 * are passed over without a call and without being counted, and
 * exports_uncounted is set. */
int cc_elf_parse_kept(const uint8_t *data, size_t size, unsigned flags, const char *needle, cc_elf_keep_fn keep,
                      void *keep_ctx, cc_elf **out, cc_error *err);
void cc_elf_free(cc_elf *e);
/* The exported symbol `name`, or NULL. */
const cc_elf_sym *cc_elf_find_sym(const cc_elf *e, const char *name);
/* Copy len bytes found at virtual address vaddr (through the PT_LOAD
 * segments) out of the file image. -1 if not backed by file bytes. */
int cc_elf_read_vaddr(const cc_elf *e, const uint8_t *data, size_t size, uint64_t vaddr, void *buf, size_t len,
                      cc_error *err);
/* "x86-64", "AArch64", "i386"...; "machine <n>" style for unknown into a static buffer is not allowed: returns NULL. */
const char *cc_elf_machine_name(uint16_t machine);
/* "relocatable", "executable", "shared object", "core" or NULL. */
const char *cc_elf_type_name(uint16_t type);

#endif
