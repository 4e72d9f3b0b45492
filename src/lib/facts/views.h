/* Typed views over the fact documents.
 *
 * The documents (trees of cc_value) stay the wire format: what `--json`
 * writes and `doctor --facts` reads. Their keys are declared once, in
 * schema.h, one X-macro list per kind of object (an installation, a file, a
 * which result, a search step, a dependency edge, a verify check, a probe
 * run, a framework, a search-path entry, a finding...). From that list come:
 *
 *   - the key a producer writes: CC_K(view, field) is the JSON key string, and
 *     a field that is not in the schema does not compile;
 *   - a typed view: struct cc_vw_VIEW with one C member per key (const char *
 *     for strings, int64_t, int for bools, double, const cc_value * for
 *     arrays, objects and any value), the object in `node_` and a bit per
 *     key in `present_`;
 *   - cc_vw_VIEW_read(): the view of one object, every missing required key
 *     and every key of the wrong type written to a report (so a foreign or
 *     older document read with --facts is said to be what it is, not trusted);
 *   - the key tables of docs/json.md are checked against the same lists by
 *     tests/docs/test_schema.py (through tests/docs/schema_dump.c).
 *
 * A view borrows from the tree: it lives as long as the tree. A member whose
 * key is missing, null or of another type reads as NULL / 0 / false, and its
 * `present_` bit is clear; CC_VW_HAS(view_ptr, view, field) tells. */
#ifndef CC_FACTS_VIEWS_H
#define CC_FACTS_VIEWS_H

#include <stddef.h>
#include <stdint.h>

#include "../value.h"
#include "schema.h"

/* Value kinds of the schema. */
enum cc_vw_kind {
        CC_VW_STR = 1, /* a string */
        CC_VW_INT,     /* an integer */
        CC_VW_BOOL,    /* true or false */
        CC_VW_NUM,     /* a number: integer or double */
        CC_VW_ARR,     /* an array (element views are read with cc_vw_VIEW_at) */
        CC_VW_OBJ,     /* an object */
        CC_VW_ANY,     /* any value: evidence, a value as a framework gave it */
};

/* Flags of a key. */
#define CC_VW_REQ 1u  /* always written: its absence is reported */
#define CC_VW_NULL 2u /* null is one of its values (not reported) */
#define CC_VW_OPT 0u  /* may be absent */

/* What reading found wrong, one line each ("installation 2: prefix is
 * missing", "which result: found is a string, not a bool"). */
typedef struct cc_vw_report {
        cc_strv problems;
        size_t count;  /* every problem, also those over `max` */
        size_t max;    /* lines kept; 0: 64 */
        cc_error *err; /* set when out of memory while recording (reading goes on) */
} cc_vw_report;

void cc_vw_report_free(cc_vw_report *r);

/* ---- generated from schema.h ------------------------------------------- */

#define CC_VW_CTYPE_STR const char *
#define CC_VW_CTYPE_INT int64_t
#define CC_VW_CTYPE_BOOL int
#define CC_VW_CTYPE_NUM double
#define CC_VW_CTYPE_ARR const cc_value *
#define CC_VW_CTYPE_OBJ const cc_value *
#define CC_VW_CTYPE_ANY const cc_value *

#define CC_VW_MEMBER_(view, field, key, kind, flags) CC_VW_CTYPE_##kind field;
#define CC_VW_ENUM_(view, field, key, kind, flags) CC_VF_##view##_##field,

#define CC_VW_DECLARE_(view, what)                                                                                     \
        enum { CC_SCHEMA_##view(CC_VW_ENUM_) CC_VF_##view##_COUNT_ };                                                  \
        typedef struct cc_vw_##view {                                                                                  \
                const cc_value *node_; /* the object read (NULL when it was not an object) */                          \
                uint64_t present_;     /* bit CC_VF_VIEW_FIELD: the key was there with its type */                     \
                CC_SCHEMA_##view(CC_VW_MEMBER_)                                                                        \
        } cc_vw_##view;                                                                                                \
        extern const char *const cc_vw_keys_##view[];                                                                  \
        /* Read obj; 0, or -1 when it is not an object (out is then empty). */                                         \
        int cc_vw_##view##_read(const cc_value *obj, cc_vw_##view *out, cc_vw_report *rep);                            \
        /* Read element i of the array arr (-1: no such element, or not an object). */                                 \
        int cc_vw_##view##_at(const cc_value *arr, size_t i, cc_vw_##view *out, cc_vw_report *rep);

CC_SCHEMA_VIEWS(CC_VW_DECLARE_)

/* The JSON key of a field: CC_K(installation, prefix) is "prefix". */
#define CC_K(view, field) (cc_vw_keys_##view[CC_VF_##view##_##field])
/* Whether a view's field was there with its type. */
#define CC_VW_HAS(v, view, field) ((((v)->present_) >> CC_VF_##view##_##field) & 1u)

/* The schema as data (tests/docs/schema_dump.c, and whoever documents it). */
typedef struct cc_vw_field_desc {
        const char *key;
        int kind; /* enum cc_vw_kind */
        unsigned flags;
        size_t offset;
} cc_vw_field_desc;

typedef struct cc_vw_view_desc {
        const char *name; /* "installation" */
        const char *what; /* where docs/json.md describes it: "INSTALLATION" */
        const cc_vw_field_desc *fields;
        size_t nfields;
} cc_vw_view_desc;

extern const cc_vw_view_desc cc_vw_views[];
extern const size_t cc_vw_nviews;

/* The name of a kind ("string", "int"...). */
const char *cc_vw_kind_name(int kind);

#endif
