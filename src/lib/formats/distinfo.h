/* Python package metadata: a *.dist-info directory's METADATA (RFC 822 style
 * headers, continuation lines) and RECORD (CSV: path,hash,size). Pure. */
#ifndef CC_FORMATS_DISTINFO_H
#define CC_FORMATS_DISTINFO_H

#include "../common.h"

typedef struct cc_metadata {
        char *metadata_version;
        char *name;
        char *version;
        char *summary;
        cc_strv requires_dist;
        cc_strv warnings;
} cc_metadata;

/* 1 if the text starts like METADATA/PKG-INFO ("Metadata-Version:"). */
int cc_metadata_looks_like(const uint8_t *data, size_t size);
int cc_metadata_parse(const char *text, size_t len, cc_metadata **out, cc_error *err);
void cc_metadata_free(cc_metadata *m);

typedef struct cc_record_entry {
        char *path;
        char *hash;   /* "sha256=..." or NULL */
        int64_t size; /* -1 if empty */
} cc_record_entry;

typedef struct cc_record {
        cc_record_entry *entries;
        size_t n;
        cc_strv warnings;
} cc_record;

int cc_record_parse(const char *text, size_t len, cc_record **out, cc_error *err);
void cc_record_free(cc_record *r);

#endif
