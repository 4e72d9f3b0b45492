/* C header reader: collects object-like #define macros (line continuations
 * and comments handled), #include names, and evaluates integer constant
 * expressions over those macros (CUDNN_VERSION is defined in terms of
 * CUDNN_MAJOR...). Pure: no I/O, no preprocessor conditionals (every #define
 * is collected; a redefinition keeps the first and adds a warning). */
#ifndef CC_FORMATS_CHEADER_H
#define CC_FORMATS_CHEADER_H

#include "../common.h"

typedef struct cc_macro {
        char *name;
        char *body; /* replacement text, comments removed, whitespace trimmed */
        int line;   /* 1-based line of the #define */
        int function_like;
        /* Later #defines of the same name with another body (kept out: the
         * first wins). Real headers do this under #if/#else branches. */
        int redefinitions;
} cc_macro;

typedef struct cc_header {
        cc_macro *macros;
        size_t nmacros;
        cc_strv includes; /* as written: "cudnn_version.h", <cuda_runtime_api.h> -> cuda_runtime_api.h */
        cc_strv warnings;
        /* private to cheader.c: open-addressing index over macros (slot =
         * macro index + 1, 0 = empty); a header built by hand may leave it
         * NULL and is then searched linearly. */
        size_t *hidx;
        size_t hcap;
} cc_header;

/* A plausible C header: text (no NUL bytes in the first 64 KiB), with at least
 * one preprocessor directive (#define, #include, #ifndef, #pragma). */
int cc_header_looks_like(const uint8_t *data, size_t size);
int cc_header_parse(const char *text, size_t len, cc_header **out, cc_error *err);
void cc_header_free(cc_header *h);
const cc_macro *cc_header_find(const cc_header *const *hs, size_t nh, const char *name);

/* Evaluate macro `name` as an integer constant expression, expanding macros
 * found in any of the nh headers (first wins). Supports decimal, hex, octal
 * and character literals with U/L suffixes, parentheses, unary + - ~ !,
 * * / % + - << >> < <= > >= == != & ^ | && || ?:, and defined(X). Bounded
 * expansion depth (32) and length. -1 with err when undefined, function-like,
 * not an integer expression, or dividing by zero. */
int cc_header_eval(const cc_header *const *hs, size_t nh, const char *name, int64_t *out, cc_error *err);
int cc_header_eval_expr(const cc_header *const *hs, size_t nh, const char *expr, int64_t *out, cc_error *err);

#endif
