/* Internal building blocks shared by every module of libcudnnctl: the error
 * type, bounded growable buffers, string vectors and checked allocation.
 * Nothing here prints or exits. */
#ifndef CC_COMMON_H
#define CC_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cudnnctl/cudnnctl.h"

/* MinGW builds use its C99-conforming printf (__USE_MINGW_ANSI_STDIO=1, set by
 * the build), so formats are checked as gnu_printf there. */
#if defined(__MINGW32__)
#define CC_FMT_KIND gnu_printf
#else
#define CC_FMT_KIND printf
#endif

#if defined(__GNUC__) || defined(__clang__)
#define CC_PRINTF(a, b) __attribute__((format(CC_FMT_KIND, a, b)))
#define CC_WUR __attribute__((warn_unused_result))
#define CC_VPRINTF(a) __attribute__((format(CC_FMT_KIND, a, 0)))
#else
#define CC_PRINTF(a, b)
#define CC_WUR
#define CC_VPRINTF(a)
#endif

#define CC_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Propagating a failure (a call that returns < 0 on error, with err set):
 * TRY(x) jumps to the function's one cleanup label `fail` (the style of
 * every function that holds resources: rv = -1 first, rv = 0 just before
 * fail:); TRY_RET(x) returns -1 at once, for a function that holds nothing
 * to release. */
#define TRY(x)                                                                                                         \
        do {                                                                                                           \
                if ((x) < 0)                                                                                           \
                        goto fail;                                                                                     \
        } while (0)
#define TRY_RET(x)                                                                                                     \
        do {                                                                                                           \
                if ((x) < 0)                                                                                           \
                        return -1;                                                                                     \
        } while (0)

/* Error codes carried in struct cc_error. */
enum cc_errcode {
        CC_OK = 0,
        CC_ERR_IO,          /* the OS refused: open, read, stat, opendir... */
        CC_ERR_FORMAT,      /* the bytes are not what they claim to be */
        CC_ERR_TRUNCATED,   /* an offset or size points past the end */
        CC_ERR_LIMIT,       /* a count, size or depth is over our bound */
        CC_ERR_NOMEM,       /* allocation failed */
        CC_ERR_UNSUPPORTED, /* valid input that this build cannot read */
        CC_ERR_NOTFOUND,    /* the thing asked for is not there */
        CC_ERR_USAGE,       /* the caller passed something invalid */
};

/* One error, owned by the caller (the public cudnnctl_error). msg is one
 * line, no trailing newline. */
typedef struct cudnnctl_error cc_error;

/* Set err (if not NULL) and return -1, so callers can `return cc_err(...)`. */
int cc_err(cc_error *err, int code, const char *fmt, ...) CC_PRINTF(3, 4);
/* As cc_err, appending ": strerror(errnum)". */
int cc_err_errno(cc_error *err, int errnum, const char *fmt, ...) CC_PRINTF(3, 4);
/* Prefix an already-set error message with "prefix: ". */
void cc_err_prefix(cc_error *err, const char *fmt, ...) CC_PRINTF(2, 3);
void cc_err_clear(cc_error *err);
/* Pass an out-of-memory error e up into err (if not NULL) and return -1;
 * any other error is the caller's to record, and 0 is returned. */
int cc_err_keep_nomem(const cc_error *e, cc_error *err);

/* Seconds since the epoch as UTC text: "2026-12-07T03:41:09Z", or
 * "20261207T034109Z" when compact. Thread-safe (no gmtime). */
void cc_utc_text(int64_t t, int compact, char buf[32]);

/* Checked allocation: on failure set err to CC_ERR_NOMEM and return NULL. */
void *cc_malloc(cc_error *err, size_t size);
void *cc_calloc(cc_error *err, size_t n, size_t size);
void *cc_realloc(cc_error *err, void *p, size_t size);
char *cc_strdup(cc_error *err, const char *s);
char *cc_strndup(cc_error *err, const char *s, size_t n);
/* The first n-byte needle in the h-byte haystack, or NULL (memmem, which
 * not every C library has; memchr finds the candidates: a needle is best
 * searched from a byte that is rare in the haystack). */
const void *cc_memmem(const void *hay, size_t h, const void *needle, size_t n);
/* The same, the candidates found from the needle's byte at index at (one the
 * caller knows to be rarer than its first). */
const void *cc_memmem_at(const void *hay, size_t h, const void *needle, size_t n, size_t at);
/* printf into a new string; caller frees. */
char *cc_asprintf(cc_error *err, const char *fmt, ...) CC_PRINTF(2, 3);
/* The strings up to a NULL, one after another, in one new string: for hot
 * paths where a format's parsing costs more than the copying. */
char *cc_cat(cc_error *err, ...);
char *cc_vasprintf(cc_error *err, const char *fmt, va_list ap) CC_VPRINTF(2);

/* A growable byte buffer with a hard size cap. data is always NUL-terminated
 * once anything was appended. Zero-initialise, optionally set max. */
typedef struct cc_buf {
        char *data;
        size_t len;
        size_t cap;
        size_t max; /* 0 means the default cap (256 MiB) */
} cc_buf;

int cc_buf_append(cc_buf *b, const void *p, size_t n, cc_error *err) CC_WUR;
int cc_buf_puts(cc_buf *b, const char *s, cc_error *err) CC_WUR;
int cc_buf_putc(cc_buf *b, char c, cc_error *err) CC_WUR;
int cc_buf_printf(cc_buf *b, cc_error *err, const char *fmt, ...) CC_PRINTF(3, 4) CC_WUR;
/* Append s with every byte that is not printable UTF-8 (controls, DEL, a
 * broken or overlong sequence) written as \xNN, and the C1 controls and the
 * bidirectional formatting characters (U+202E...) as \u{XXXX}: what a
 * terminal may show. */
int cc_buf_put_escaped(cc_buf *b, const char *s, cc_error *err) CC_WUR;
int cc_buf_vprintf(cc_buf *b, cc_error *err, const char *fmt, va_list ap) CC_VPRINTF(3) CC_WUR;
/* Hand the string over to the caller (who frees it); the buffer is reset. */
char *cc_buf_steal(cc_buf *b);
void cc_buf_free(cc_buf *b);

/* A vector of owned strings. Zero-initialise. */
typedef struct cc_strv {
        char **v;
        size_t n;
        size_t cap;
} cc_strv;

int cc_strv_push(cc_strv *sv, const char *s, cc_error *err) CC_WUR;
int cc_strv_pushn(cc_strv *sv, const char *s, size_t n, cc_error *err) CC_WUR;
/* Take ownership of s (freed on failure too). */
int cc_strv_take(cc_strv *sv, char *s, cc_error *err) CC_WUR;
int cc_strv_contains(const cc_strv *sv, const char *s);
/* Push a formatted string; with unique, one equal to an entry already there
 * is dropped. */
int cc_strv_pushf(cc_strv *sv, int unique, cc_error *err, const char *fmt, ...) CC_PRINTF(4, 5) CC_WUR;
/* A parser's warning list with a cap: the first max warnings are kept
 * (cut to one line of at most 320 bytes), then one line saying the rest are
 * not shown. *count counts every call. -1 only when out of memory. */
int cc_vwarn(cc_strv *w, int *count, int max, cc_error *err, const char *fmt, va_list ap) CC_VPRINTF(5);
/* Sort bytewise (strcmp order). */
void cc_strv_sort(cc_strv *sv);
void cc_strv_free(cc_strv *sv);

/* Strings that live and die together, copied into a few blocks instead of an
 * allocation each (a block never moves: the pointers stay good until
 * cc_strpool_free). Blocks start at 1 KiB and double up to 64 KiB; a longer
 * string gets a block of its own. Zero-initialise. */
typedef struct cc_strpool {
        struct cc_strblock *head;
} cc_strpool;

/* A NUL-terminated copy of the n bytes at s. */
char *cc_strpool_add(cc_strpool *p, const char *s, size_t n, cc_error *err);
void cc_strpool_free(cc_strpool *p);

/* A hash map from owned string keys to caller-owned values. Zero-initialise.
 * nocase: keys compare ASCII case-insensitively (set before the first put).
 * borrow: the keys are the caller's, not copied (nor freed), and must
 * outlive the map (set before the first put): for a map over the strings
 * of a table that lives as long (the loader cache's names). */
typedef struct cc_smap {
        struct cc_smap_slot *slots;
        size_t cap;
        size_t n;
        int nocase;
        int borrow;
} cc_smap;

/* Room for n keys without growing (one allocation for a map whose size is
 * known). */
int cc_smap_reserve(cc_smap *m, size_t n, cc_error *err) CC_WUR;

/* Insert or replace; *old (if not NULL) receives the value replaced or NULL. */
int cc_smap_put(cc_smap *m, const char *key, void *value, void **old, cc_error *err) CC_WUR;
/* 1 and *value if key is there, 0 if not. */
int cc_smap_get(const cc_smap *m, const char *key, void **value);
/* Call fn for each entry (unspecified order). */
void cc_smap_each(const cc_smap *m, void (*fn)(void *ctx, const char *key, void *value), void *ctx);
/* Free the keys and slots; values are the caller's (free them first with cc_smap_each). */
void cc_smap_free(cc_smap *m);

/* 1 if [off, off+len) lies inside a buffer of `size` bytes (no overflow). */
static inline int cc_range_ok(size_t size, uint64_t off, uint64_t len)
{
        return off <= (uint64_t)size && len <= (uint64_t)size - off;
}

/* Bounds-checked little/big-endian reads. Return 0 on success, -1 (and 0
 * in *out) if [off, off+width) is not inside [0, size). Inline: the parsers read every
 * header field through them (a field a call and a byte loop before). */
int cc_rd_u8(const uint8_t *p, size_t size, uint64_t off, uint8_t *out);

/* The n-byte (2, 4, 8) unsigned value at p, big- or little-endian. */
static inline uint64_t cc_rd_n(const uint8_t *p, int n, int big)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) &&                                                                    \
    (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ || __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
        const int swap = big != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);

        if (n == 2) {
                uint16_t v;

                memcpy(&v, p, 2);
                return swap ? __builtin_bswap16(v) : v;
        }
        if (n == 4) {
                uint32_t v;

                memcpy(&v, p, 4);
                return swap ? __builtin_bswap32(v) : v;
        }
        if (n == 8) {
                uint64_t v;

                memcpy(&v, p, 8);
                return swap ? __builtin_bswap64(v) : v;
        }
#endif
        {
                uint64_t v = 0;
                int i;

                if (big)
                        for (i = 0; i < n; i++)
                                v = (v << 8) | p[i];
                else
                        for (i = n - 1; i >= 0; i--)
                                v = (v << 8) | p[i];
                return v;
        }
}

static inline int cc_rd_u16(const uint8_t *p, size_t size, uint64_t off, int big, uint16_t *out)
{
        if (!cc_range_ok(size, off, 2)) {
                *out = 0;
                return -1;
        }
        *out = (uint16_t)cc_rd_n(p + off, 2, big);
        return 0;
}

static inline int cc_rd_u32(const uint8_t *p, size_t size, uint64_t off, int big, uint32_t *out)
{
        if (!cc_range_ok(size, off, 4)) {
                *out = 0;
                return -1;
        }
        *out = (uint32_t)cc_rd_n(p + off, 4, big);
        return 0;
}

static inline int cc_rd_u64(const uint8_t *p, size_t size, uint64_t off, int big, uint64_t *out)
{
        if (!cc_range_ok(size, off, 8)) {
                *out = 0;
                return -1;
        }
        *out = cc_rd_n(p + off, 8, big);
        return 0;
}

/* ASCII helpers that ignore the locale. */
int cc_ascii_tolower(int c);
int cc_strcasecmp(const char *a, const char *b);
int cc_strncasecmp(const char *a, const char *b, size_t n);
int cc_starts_with(const char *s, const char *prefix);
int cc_ends_with(const char *s, const char *suffix);
int cc_ends_with_nocase(const char *s, const char *suffix);
/* 1 if the n bytes at s are valid UTF-8. */
int cc_utf8_valid(const char *s, size_t n);
/* UTF-16LE (nunits code units at p) to a new UTF-8 string. Surrogate pairs
 * are combined; an unpaired surrogate becomes U+FFFD. */
char *cc_utf16le_to_utf8(const uint8_t *p, size_t nunits, cc_error *err);
/* UTF-8 s (valid, else CC_ERR_FORMAT) appended to out as UTF-16LE, without
 * a terminator. */
int cc_utf8_to_utf16le(const char *s, cc_buf *out, cc_error *err);
/* strtok_r without its portability questions: the next token of *p
 * separated by any of delims, NUL-terminated in place (*p moves past it),
 * or NULL when there is none left. */
char *cc_next_token(char **p, const char *delims);
/* The last path component (after '/' or '\\'). Points into path. */
const char *cc_basename(const char *path);
/* The directory part of a path string, as glibc takes a library's $ORIGIN
 * from its path: everything before the last separator ('/', and '\\' too
 * when windows is set), the separator itself when it is the first byte
 * ("/" for "/a"), "." when there is none. No I/O and no normalising ("/a//b"
 * gives "/a/"); a path of a machine's tree wants cc_tree_dirname, which
 * knows its system's root ("C:\\"). Caller frees. */
char *cc_dirname(const char *path, int windows, cc_error *err);

/* The driver's version from /proc/driver/nvidia/version's text ("NVRM version:
 * NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  ..."): the first
 * dotted number after "Kernel Module". -1 when there is none. */
int cc_nvrm_version(const char *text, char *out, size_t n);

#endif
