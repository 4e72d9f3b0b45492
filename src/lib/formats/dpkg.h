/* The dpkg package database, read as files (so it works on a --root tree):
 * /var/lib/dpkg/status (RFC 822 style stanzas: Package, Status, Version,
 * Architecture, Source, with continuation lines) and the per-package file
 * lists /var/lib/dpkg/info/<package>[:<arch>].list (one absolute path per
 * line). Pure: no I/O. */
#ifndef CC_FORMATS_DPKG_H
#define CC_FORMATS_DPKG_H

#include "../common.h"

typedef struct cc_dpkg_pkg {
        char *package;      /* "libcudnn9-cuda-12" */
        char *architecture; /* "amd64", "all", or NULL */
        char *version;      /* "9.14.0.64-1", or NULL */
        char *source;       /* Source: field without a "(version)" suffix, or NULL */
        char *status;       /* the Status: field as written ("install ok installed") */
        int installed;      /* the Status field's third word is "installed" */
} cc_dpkg_pkg;

typedef struct cc_dpkg_status {
        cc_dpkg_pkg *pkgs; /* in file order */
        size_t n;
        cc_strv warnings;
} cc_dpkg_status;

/* Parse a status file. Stanzas without a Package field are skipped with a
 * warning; bounded to 1 million stanzas and lines of at most 1 MiB. */
int cc_dpkg_status_parse(const char *text, size_t len, cc_dpkg_status **out, cc_error *err);
void cc_dpkg_status_free(cc_dpkg_status *s);
/* The stanza for package (and architecture, NULL for any: the first
 * installed one wins, else the first), or NULL. */
const cc_dpkg_pkg *cc_dpkg_find(const cc_dpkg_status *s, const char *package, const char *arch);

/* A .list file name ("libcudnn9-cuda-12:amd64.list") split into package and
 * architecture (arch[0] == '\0' when the name has none). -1 if the name does
 * not end in ".list" or a part does not fit. */
int cc_dpkg_list_name(const char *basename, char *package, size_t psize, char *arch, size_t asize);

/* Call fn for each path line of a .list file's text (lines that do not start
 * with '/' are skipped; a trailing '\r' or '/' is removed except for "/").
 * path is a NUL-terminated copy valid during the call, n its length (lines
 * holding a NUL byte are skipped). fn returns non-zero to stop early; that
 * value is returned. 0 at the end; -1 if fn is NULL or memory runs out. */
int cc_dpkg_list_each(const char *text, size_t len, int (*fn)(void *ctx, const char *path, size_t n), void *ctx);

#endif
