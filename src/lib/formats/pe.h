/* PE/COFF reader: PE32 and PE32+, any machine. Reads the COFF and optional
 * headers, the import and delay-import directories (DLL names), the export
 * directory (names), and the whole VS_VERSIONINFO resource. Also reads COFF
 * import libraries (.lib "!<arch>" archives) for the DLL names they bind to.
 * Every RVA and offset is checked; resource trees are walked with a depth cap
 * and loop detection. Pure: no I/O. */
#ifndef CC_FORMATS_PE_H
#define CC_FORMATS_PE_H

#include "../common.h"

#define CC_PE_MACHINE_I386 0x014c
#define CC_PE_MACHINE_AMD64 0x8664
#define CC_PE_MACHINE_ARM64 0xaa64
#define CC_PE_MACHINE_ARMNT 0x01c4

typedef struct cc_pe_string {
        char *table; /* the StringTable key, e.g. "040904b0" */
        char *key;   /* "FileVersion", "ProductName", ... (UTF-8) */
        char *value; /* UTF-8 */
} cc_pe_string;

typedef struct cc_pe {
        uint16_t machine;
        uint16_t characteristics;
        int is_dll;   /* IMAGE_FILE_DLL */
        int pe32plus; /* optional header magic 0x20b */
        uint16_t subsystem;
        uint32_t timestamp;
        cc_strv imports;       /* imported DLL names, table order */
        cc_strv delay_imports; /* delay-load DLL names, table order */
        char *export_name;     /* the DLL name in the export directory, or NULL */
        cc_strv exports;       /* exported names, table order */
        size_t exports_by_ordinal_only;
        int has_version; /* a VS_FIXEDFILEINFO was found */
        uint32_t file_version_ms, file_version_ls;
        uint32_t product_version_ms, product_version_ls;
        uint32_t file_flags_mask, file_flags, file_os, file_type, file_subtype;
        cc_pe_string *strings; /* StringFileInfo, in file order */
        size_t nstrings;
        uint32_t *translations; /* VarFileInfo\Translation: (lang << 16) | codepage */
        size_t ntranslations;
        uint64_t rdata_off, rdata_size; /* the .rdata section in the file, 0/0 if none */
        cc_strv warnings;
} cc_pe;

/* 1 if the buffer is an MZ file whose e_lfanew points at "PE\0\0". */
int cc_pe_is(const uint8_t *data, size_t size);
int cc_pe_parse(const uint8_t *data, size_t size, cc_pe **out, cc_error *err);
void cc_pe_free(cc_pe *pe);
/* "x64", "x86", "arm64", "arm" or NULL. */
const char *cc_pe_machine_name(uint16_t machine);
/* The StringFileInfo value for key in the first table that has it, or NULL. */
const char *cc_pe_string_value(const cc_pe *pe, const char *key);

/* COFF import library (.lib): the DLL names its import members refer to
 * (deduplicated, first-seen order) and how many import symbols it has. */
typedef struct cc_implib {
        cc_strv dlls;
        size_t nsymbols;
        size_t nmembers;
        uint16_t machine; /* of the first import member, 0 if none */
} cc_implib;

int cc_implib_is(const uint8_t *data, size_t size); /* "!<arch>\n" */
int cc_implib_parse(const uint8_t *data, size_t size, cc_implib **out, cc_error *err);
void cc_implib_free(cc_implib *lib);

#endif
