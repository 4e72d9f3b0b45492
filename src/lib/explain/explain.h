/* explain: error texts and codes to the failure catalog (kb/catalog.tsv,
 * kb/messages.tsv, kb/status.tsv, kb/cuda_errors.tsv, kb/winerrors.tsv).
 *
 * The message patterns are a small language of their own (no regular
 * expressions: the Windows build has none), described in kb/messages.tsv:
 * literal text matched case-insensitively where a space matches one or more
 * blanks or line ends, `*` any text on the same line (shortest first), and
 * `{key:type}` captures (lib, name, word, int, ver, tuple), with `\` quoting
 * the next character. A pattern starts with a literal of three or more
 * characters, or with one capture followed by a literal. */
#ifndef CC_EXPLAIN_H
#define CC_EXPLAIN_H

#include "common.h"
#include "value.h"

enum { CC_PAT_MAX_CAPS = 8 };

enum cc_cap_type { CC_CAP_LIB = 1, CC_CAP_NAME, CC_CAP_WORD, CC_CAP_INT, CC_CAP_VER, CC_CAP_TUPLE };

typedef struct cc_pattern cc_pattern;

/* Compile one pattern. err names what is wrong and where ("pattern
 * 'Could {x:foo}': unknown capture type 'foo'"). */
int cc_pattern_compile(const char *src, cc_pattern **out, cc_error *err);
void cc_pattern_free(cc_pattern *p);

typedef struct cc_pmatch {
        size_t start, end; /* the bytes matched, [start, end) */
        size_t score;      /* bytes matched by literals and captures (gaps not counted) */
        size_t ncap;
        struct {
                const char *key; /* points into the pattern */
                int type;        /* CC_CAP_* */
                size_t off, len; /* in the text */
        } cap[CC_PAT_MAX_CAPS];
} cc_pmatch;

/* The first match that starts at or after `from` in the len bytes of text.
 * `folded` is the same text with ASCII letters in lower case, NUL bytes
 * replaced by spaces, and a NUL after it (cc_pattern_fold makes it). Returns
 * 1 and fills m, or 0 when there is none. The work per call is bounded. */
int cc_pattern_find(const cc_pattern *p, const char *folded, size_t len, size_t from, cc_pmatch *m);

/* The folded copy of text for cc_pattern_find (caller frees). */
char *cc_pattern_fold(const char *text, size_t len, cc_error *err);

/* A capture's value, normalised: a tuple "(8, 5, 0)" becomes "8.5.0" and a
 * cuDNN version integer ("8100", "90101") its dotted form; others are the
 * bytes as they are. Caller frees. */
char *cc_pattern_capture(const cc_pmatch *m, size_t i, const char *text, cc_error *err);

/* The catalog entry `id` of kb/catalog.tsv as an object (id,
 * catalog_number, platform, area, title, meaning, causes, commands
 * [{command, shows}], fix, source), with {KEY} in the commands replaced by
 * the string member KEY of `captures` (or by KEY in capitals when absent).
 * NULL with CC_ERR_NOTFOUND when there is no such id. For the doctor too. */
cc_value *cc_catalog_entry(const char *id, const cc_value *captures, cc_error *err);

#endif
