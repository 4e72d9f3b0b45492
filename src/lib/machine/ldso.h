/* What the Linux dynamic loader of a machine is set up with, read from the
 * machine's files: the program whose loader it is (its ELF class and
 * machine), the loader (PT_INTERP), the loader's default directories (read
 * from its bytes), glibc's release (the loader's banner, else libc.so.6's),
 * $LIB and $PLATFORM, the directories /etc/ld.so.conf lists (its includes
 * followed) and the parsed /etc/ld.so.cache. Discovery takes roots from
 * it; the loader emulation (resolve/linux.c) searches with it. Reads files
 * only. */
#ifndef CC_MACHINE_LDSO_H
#define CC_MACHINE_LDSO_H

#include "machine.h"

#include "../formats/ldcache.h"

typedef struct cc_ldso {
        char *exe;        /* the program (virtual path), or NULL: a plain program */
        char *exe_source; /* where elfclass and machine come from */
        int elfclass;     /* 32/64 */
        uint16_t machine; /* e_machine */
        int big_endian;
        char *interp; /* the loader, or NULL */
        char *interp_source;
        int exe_interp;  /* 1 when exe names its loader (PT_INTERP): a program, not a library */
        cc_strv sysdirs; /* the loader's default directories, without a trailing '/' */
        char *sysdirs_source;
        char *dst_lib;         /* $LIB */
        char *dst_platform;    /* $PLATFORM, or NULL */
        char *glibc;           /* "2.36", or NULL */
        int glibc_minor;       /* 36; -1 unknown */
        char *cache_path;      /* "/etc/ld.so.cache" */
        cc_ldcache *cache;     /* NULL when it could not be read */
        char *cache_error;     /* why not, or NULL */
        cc_strv conf_dirs;     /* the directories ld.so.conf lists, includes followed (ld.so reads only the cache) */
        cc_strv conf_warnings; /* what reading ld.so.conf found wrong, one line each */
        cc_strv notes;         /* what the user should know: defaults assumed, a cache ld.so ignores */
} cc_ldso;

/* Read the setup for the program exe (a virtual path), or for a plain
 * program of the machine (exe NULL: /bin/sh's class and loader). A loader,
 * cache or ld.so.conf that is missing or broken is recorded in *out; -1 only
 * when out of memory, for a machine that is not a Linux tree, or when exe
 * cannot be read as ELF (*out is then empty). */
int cc_ldso_read(cc_machine *m, const char *exe, cc_ldso *out, cc_error *err);
/* Free what *l holds (it may be empty). */
void cc_ldso_free(cc_ldso *l);

#endif
