#include "common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CC_BUF_DEFAULT_MAX ((size_t)256 << 20)

static void set_msg(cc_error *err, int code, const char *fmt, va_list ap) CC_VPRINTF(3);

static void set_msg(cc_error *err, int code, const char *fmt, va_list ap)
{
        int n;

        err->code = code;
        n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
        if (n < 0)
                snprintf(err->msg, sizeof(err->msg), "error");
}

int cc_err(cc_error *err, int code, const char *fmt, ...)
{
        va_list ap;

        if (err == NULL)
                return -1;
        va_start(ap, fmt);
        set_msg(err, code, fmt, ap);
        va_end(ap);
        return -1;
}

int cc_err_errno(cc_error *err, int errnum, const char *fmt, ...)
{
        va_list ap;
        size_t len;

        if (err == NULL)
                return -1;
        va_start(ap, fmt);
        set_msg(err, errnum == ENOMEM ? CC_ERR_NOMEM : CC_ERR_IO, fmt, ap);
        va_end(ap);
        len = strlen(err->msg);
        snprintf(err->msg + len, sizeof(err->msg) - len, ": %s", strerror(errnum));
        return -1;
}

void cc_err_prefix(cc_error *err, const char *fmt, ...)
{
        char old[sizeof(err->msg)];
        va_list ap;
        size_t len;

        if (err == NULL)
                return;
        memcpy(old, err->msg, sizeof(old));
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
        va_end(ap);
        len = strlen(err->msg);
        snprintf(err->msg + len, sizeof(err->msg) - len, ": %s", old);
}

void cc_err_clear(cc_error *err)
{
        if (err == NULL)
                return;
        err->code = CC_OK;
        err->msg[0] = '\0';
}

int cc_err_keep_nomem(const cc_error *e, cc_error *err)
{
        if (e->code != CC_ERR_NOMEM)
                return 0;
        if (err != NULL)
                *err = *e;
        return -1;
}

void cc_utc_text(int64_t t, int compact, char buf[32])
{
        /* days to a civil date (Howard Hinnant's algorithm) */
        int64_t days = t >= 0 ? t / 86400 : (t - 86399) / 86400, secs = t - days * 86400;
        int64_t z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
        int64_t doe = z - era * 146097, yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        int64_t y = yoe + era * 400, doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
        int64_t d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;

        snprintf(buf, 32, compact ? "%04d%02d%02dT%02d%02d%02dZ" : "%04d-%02d-%02dT%02d:%02d:%02dZ",
                 (int)(y + (m <= 2)), (int)m, (int)d, (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60));
}

void *cc_malloc(cc_error *err, size_t size)
{
        void *p = malloc(size ? size : 1);

        if (p == NULL)
                cc_err(err, CC_ERR_NOMEM, "out of memory (%zu bytes)", size);
        return p;
}

void *cc_calloc(cc_error *err, size_t n, size_t size)
{
        void *p;

        if (n == 0 || size == 0)
                n = size = 1;
        p = calloc(n, size);
        if (p == NULL)
                cc_err(err, CC_ERR_NOMEM, "out of memory (%zu x %zu bytes)", n, size);
        return p;
}

void *cc_realloc(cc_error *err, void *p, size_t size)
{
        void *q = realloc(p, size ? size : 1);

        if (q == NULL)
                cc_err(err, CC_ERR_NOMEM, "out of memory (%zu bytes)", size);
        return q;
}

const void *cc_memmem_at(const void *hay, size_t h, const void *needle, size_t n, size_t at)
{
        const unsigned char *p, *end = (const unsigned char *)hay + h, *nd = needle;

        if (n == 0)
                return hay;
        if (at >= n)
                at = 0;
        if (n > h)
                return NULL;
        /* candidates for the needle's byte at: from hay + at to the last place it can be */
        p = (const unsigned char *)hay + at;
        while (p <= end - (n - at)) {
                const unsigned char *c = memchr(p, nd[at], (size_t)(end - (n - at) - p) + 1);

                if (c == NULL)
                        return NULL;
                if (memcmp(c - at, nd, n) == 0)
                        return c - at;
                p = c + 1;
        }
        return NULL;
}

const void *cc_memmem(const void *hay, size_t h, const void *needle, size_t n)
{
        return cc_memmem_at(hay, h, needle, n, 0);
}

char *cc_strndup(cc_error *err, const char *s, size_t n)
{
        char *p = cc_malloc(err, n + 1);

        if (p == NULL)
                return NULL;
        memcpy(p, s, n);
        p[n] = '\0';
        return p;
}

char *cc_strdup(cc_error *err, const char *s)
{
        return cc_strndup(err, s, strlen(s));
}

char *cc_asprintf(cc_error *err, const char *fmt, ...)
{
        va_list ap;
        char *s;

        va_start(ap, fmt);
        s = cc_vasprintf(err, fmt, ap);
        va_end(ap);
        return s;
}

char *cc_vasprintf(cc_error *err, const char *fmt, va_list ap)
{
        cc_buf b = {0};

        if (cc_buf_vprintf(&b, err, fmt, ap) < 0) {
                cc_buf_free(&b);
                return NULL;
        }
        if (b.data == NULL)
                return cc_strdup(err, "");
        return cc_buf_steal(&b);
}

char *cc_cat(cc_error *err, ...)
{
        va_list ap;
        const char *s;
        size_t n = 0, l;
        char *r, *w;

        va_start(ap, err);
        while ((s = va_arg(ap, const char *)) != NULL) {
                l = strlen(s);
                if (l > SIZE_MAX - 1 - n) {
                        va_end(ap);
                        cc_err(err, CC_ERR_LIMIT, "a string too long to build");
                        return NULL;
                }
                n += l;
        }
        va_end(ap);
        r = cc_malloc(err, n + 1);
        if (r == NULL)
                return NULL;
        w = r;
        va_start(ap, err);
        while ((s = va_arg(ap, const char *)) != NULL) {
                l = strlen(s);
                memcpy(w, s, l);
                w += l;
        }
        va_end(ap);
        *w = '\0';
        return r;
}

static int buf_reserve(cc_buf *b, size_t extra, cc_error *err)
{
        size_t max = b->max ? b->max : CC_BUF_DEFAULT_MAX;
        size_t need, ncap;
        char *p;

        if (extra > max || b->len > max - extra)
                return cc_err(err, CC_ERR_LIMIT, "buffer over its limit of %zu bytes", max);
        need = b->len + extra + 1;
        if (need <= b->cap)
                return 0;
        ncap = b->cap ? b->cap : 64;
        while (ncap < need)
                ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
        p = cc_realloc(err, b->data, ncap);
        if (p == NULL)
                return -1;
        b->data = p;
        b->cap = ncap;
        return 0;
}

int cc_buf_append(cc_buf *b, const void *p, size_t n, cc_error *err)
{
        if (buf_reserve(b, n, err) < 0)
                return -1;
        if (n)
                memcpy(b->data + b->len, p, n);
        b->len += n;
        b->data[b->len] = '\0';
        return 0;
}

/* A valid UTF-8 sequence a terminal acts on instead of showing: a C1
 * control (U+0080-U+009F; 0x9B is CSI to some terminals) or a bidirectional
 * formatting character (U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), which
 * reorders what follows it on the line. */
static int is_format_char(const unsigned char *p, size_t len)
{
        if (len == 2)
                return p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F;
        if (len != 3 || p[0] != 0xE2)
                return 0;
        return (p[1] == 0x80 && (p[2] == 0x8E || p[2] == 0x8F || (p[2] >= 0xAA && p[2] <= 0xAE))) ||
               (p[1] == 0x81 && p[2] >= 0xA6 && p[2] <= 0xA9);
}

int cc_buf_put_escaped(cc_buf *b, const char *s, cc_error *err)
{
        static const char hex[] = "0123456789abcdef";
        const unsigned char *p = (const unsigned char *)s, *run = p;

        /* Runs of printable ASCII and whole valid UTF-8 sequences are copied
         * as they are, but for the ones is_format_char names, which become
         * \u{XXXX}; any other byte becomes \xNN. cc_utf8_valid reads the
         * sequence in order and stops at the first byte that is not a
         * continuation byte (the NUL included), so nothing past the end is read. */
        for (;;) {
                size_t len = 0;

                if (*p >= 0x20 && *p != 0x7F && *p < 0x80) {
                        p++;
                        continue;
                }
                if (*p >= 0xC0) {
                        len = *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : 2;
                        if (cc_utf8_valid((const char *)p, len) && !is_format_char(p, len)) {
                                p += len;
                                continue;
                        }
                }
                if (p > run && cc_buf_append(b, run, (size_t)(p - run), err) < 0)
                        return -1;
                if (len > 0 && cc_utf8_valid((const char *)p, len)) {
                        /* a C1 control or a direction control: its code point, \u{...} */
                        unsigned cp =
                            len == 2 ? (unsigned)(p[0] & 0x1F) << 6 | (p[1] & 0x3F)
                                     : (unsigned)(p[0] & 0x0F) << 12 | (unsigned)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);

                        if (cc_buf_printf(b, err, "\\u{%04x}", cp) < 0)
                                return -1;
                        run = p += len;
                        continue;
                }
                if (*p == '\0')
                        return 0;
                {
                        char esc[4] = {'\\', 'x', hex[*p >> 4], hex[*p & 15]};

                        if (cc_buf_append(b, esc, sizeof(esc), err) < 0)
                                return -1;
                }
                run = ++p;
        }
}

int cc_buf_puts(cc_buf *b, const char *s, cc_error *err)
{
        return cc_buf_append(b, s, strlen(s), err);
}

int cc_buf_putc(cc_buf *b, char c, cc_error *err)
{
        return cc_buf_append(b, &c, 1, err);
}

int cc_buf_vprintf(cc_buf *b, cc_error *err, const char *fmt, va_list ap)
{
        va_list ap2;
        int n;

        va_copy(ap2, ap);
        n = vsnprintf(NULL, 0, fmt, ap2);
        va_end(ap2);
        if (n < 0)
                return cc_err(err, CC_ERR_FORMAT, "bad format string");
        if (buf_reserve(b, (size_t)n, err) < 0)
                return -1;
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
        b->len += (size_t)n;
        return 0;
}

int cc_buf_printf(cc_buf *b, cc_error *err, const char *fmt, ...)
{
        va_list ap;
        int rc;

        va_start(ap, fmt);
        rc = cc_buf_vprintf(b, err, fmt, ap);
        va_end(ap);
        return rc;
}

char *cc_buf_steal(cc_buf *b)
{
        char *p = b->data;

        b->data = NULL;
        b->len = b->cap = 0;
        return p;
}

void cc_buf_free(cc_buf *b)
{
        if (b == NULL)
                return;
        free(b->data);
        b->data = NULL;
        b->len = b->cap = 0;
}

int cc_strv_take(cc_strv *sv, char *s, cc_error *err)
{
        if (s == NULL)
                return -1;
        if (sv->n == sv->cap) {
                size_t ncap = sv->cap ? sv->cap * 2 : 8;
                char **v = cc_realloc(err, sv->v, ncap * sizeof(*v));

                if (v == NULL) {
                        free(s);
                        return -1;
                }
                sv->v = v;
                sv->cap = ncap;
        }
        sv->v[sv->n++] = s;
        return 0;
}

int cc_strv_pushn(cc_strv *sv, const char *s, size_t n, cc_error *err)
{
        return cc_strv_take(sv, cc_strndup(err, s, n), err);
}

int cc_strv_push(cc_strv *sv, const char *s, cc_error *err)
{
        return cc_strv_pushn(sv, s, strlen(s), err);
}

int cc_strv_contains(const cc_strv *sv, const char *s)
{
        size_t i;

        for (i = 0; i < sv->n; i++)
                if (strcmp(sv->v[i], s) == 0)
                        return 1;
        return 0;
}

static int cmp_str(const void *a, const void *b)
{
        return strcmp(*(char *const *)a, *(char *const *)b);
}

int cc_vwarn(cc_strv *w, int *count, int max, cc_error *err, const char *fmt, va_list ap)
{
        char line[320];

        if (*count >= max)
                return 0;
        (*count)++;
        if (*count == max)
                return cc_strv_push(w, "too many warnings; the rest are not shown", err);
        vsnprintf(line, sizeof(line), fmt, ap);
        return cc_strv_push(w, line, err);
}

int cc_strv_pushf(cc_strv *sv, int unique, cc_error *err, const char *fmt, ...)
{
        va_list ap;
        char *s;

        va_start(ap, fmt);
        s = cc_vasprintf(err, fmt, ap);
        va_end(ap);
        if (s == NULL)
                return -1;
        if (unique && cc_strv_contains(sv, s)) {
                free(s);
                return 0;
        }
        return cc_strv_take(sv, s, err);
}

void cc_strv_sort(cc_strv *sv)
{
        if (sv->n > 1)
                qsort(sv->v, sv->n, sizeof(sv->v[0]), cmp_str);
}

struct cc_strblock {
        struct cc_strblock *next;
        size_t used, cap;
        char data[];
};

#define STRBLOCK_FIRST ((size_t)1 << 10)
#define STRBLOCK_MAX ((size_t)64 << 10)

char *cc_strpool_add(cc_strpool *p, const char *s, size_t n, cc_error *err)
{
        struct cc_strblock *b = p->head;
        char *out;

        if (n >= SIZE_MAX - sizeof(*b))
                return cc_err(err, CC_ERR_NOMEM, "out of memory (%zu bytes)", n), NULL;
        if (b == NULL || b->cap - b->used <= n) {
                size_t cap = b == NULL ? STRBLOCK_FIRST : b->cap < STRBLOCK_MAX ? b->cap * 2 : STRBLOCK_MAX;

                if (cap < n + 1)
                        cap = n + 1;
                b = cc_malloc(err, sizeof(*b) + cap);
                if (b == NULL)
                        return NULL;
                b->next = p->head;
                b->used = 0;
                b->cap = cap;
                p->head = b;
        }
        out = b->data + b->used;
        memcpy(out, s, n);
        out[n] = '\0';
        b->used += n + 1;
        return out;
}

void cc_strpool_free(cc_strpool *p)
{
        while (p->head != NULL) {
                struct cc_strblock *b = p->head;

                p->head = b->next;
                free(b);
        }
}

void cc_strv_free(cc_strv *sv)
{
        size_t i;

        if (sv == NULL)
                return;
        for (i = 0; i < sv->n; i++)
                free(sv->v[i]);
        free(sv->v);
        sv->v = NULL;
        sv->n = sv->cap = 0;
}

int cc_rd_u8(const uint8_t *p, size_t size, uint64_t off, uint8_t *out)
{
        if (!cc_range_ok(size, off, 1))
                return -1;
        *out = p[off];
        return 0;
}

int cc_ascii_tolower(int c)
{
        return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

int cc_strncasecmp(const char *a, const char *b, size_t n)
{
        size_t i;

        for (i = 0; i < n; i++) {
                int ca = cc_ascii_tolower((unsigned char)a[i]);
                int cb = cc_ascii_tolower((unsigned char)b[i]);

                if (ca != cb)
                        return ca - cb;
                if (ca == 0)
                        return 0;
        }
        return 0;
}

int cc_strcasecmp(const char *a, const char *b)
{
        return cc_strncasecmp(a, b, SIZE_MAX);
}

int cc_starts_with(const char *s, const char *prefix)
{
        return strncmp(s, prefix, strlen(prefix)) == 0;
}

int cc_ends_with(const char *s, const char *suffix)
{
        size_t ls = strlen(s), lx = strlen(suffix);

        return ls >= lx && memcmp(s + ls - lx, suffix, lx) == 0;
}

int cc_ends_with_nocase(const char *s, const char *suffix)
{
        size_t ls = strlen(s), lx = strlen(suffix);

        return ls >= lx && cc_strncasecmp(s + ls - lx, suffix, lx) == 0;
}

int cc_utf8_valid(const char *str, size_t n)
{
        const unsigned char *s = (const unsigned char *)str;
        size_t i = 0;

        while (i < n) {
                unsigned c = s[i];
                size_t k, need;
                uint32_t cp;

                if (c < 0x80) {
                        i++;
                        continue;
                }
                if (c >= 0xC2 && c <= 0xDF) {
                        need = 1;
                        cp = c & 0x1F;
                } else if (c >= 0xE0 && c <= 0xEF) {
                        need = 2;
                        cp = c & 0x0F;
                } else if (c >= 0xF0 && c <= 0xF4) {
                        need = 3;
                        cp = c & 0x07;
                } else {
                        return 0;
                }
                if (n - i <= need)
                        return 0;
                for (k = 1; k <= need; k++) {
                        if ((s[i + k] & 0xC0) != 0x80)
                                return 0;
                        cp = (cp << 6) | (s[i + k] & 0x3F);
                }
                if ((need == 2 && cp < 0x800) || (need == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
                    (cp >= 0xD800 && cp <= 0xDFFF))
                        return 0;
                i += need + 1;
        }
        return 1;
}

const char *cc_basename(const char *path)
{
        const char *b = path, *p;

        for (p = path; *p; p++)
                if (*p == '/' || *p == '\\')
                        b = p + 1;
        return b;
}

char *cc_next_token(char **p, const char *delims)
{
        char *s = *p, *e;

        if (s == NULL)
                return NULL;
        s += strspn(s, delims);
        if (*s == '\0') {
                *p = NULL;
                return NULL;
        }
        e = s + strcspn(s, delims);
        if (*e) {
                *e = '\0';
                *p = e + 1;
        } else {
                *p = NULL;
        }
        return s;
}

char *cc_dirname(const char *path, int windows, cc_error *err)
{
        const char *last = NULL, *p;

        for (p = path; *p; p++)
                if (*p == '/' || (windows && *p == '\\'))
                        last = p;
        if (last == NULL)
                return cc_strdup(err, ".");
        return cc_strndup(err, path, last == path ? 1 : (size_t)(last - path));
}

/* ---- string hash map ------------------------------------------------------ */

struct cc_smap_slot {
        char *key; /* NULL: empty */
        void *value;
        uint64_t hash;
};

static uint64_t smap_mix(uint64_t h, uint64_t w)
{
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        return h ^ (h >> 32);
}

static uint64_t smap_hash(const char *s, int nocase)
{
        uint64_t h, w;
        size_t n, i, k;

        if (nocase) {
                h = 1469598103934665603ULL; /* FNV-1a over the folded bytes */
                for (; *s; s++) {
                        h ^= (uint64_t)(unsigned char)cc_ascii_tolower((unsigned char)*s);
                        h *= 1099511628211ULL;
                }
                return h;
        }
        /* eight bytes at a time (keys are mostly paths of tens of bytes),
         * then a final mix so that the low bits, the slot, depend on all */
        n = strlen(s);
        h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)n;
        for (i = 0; i + 8 <= n; i += 8) {
                memcpy(&w, s + i, 8);
                h = smap_mix(h, w);
        }
        if (i < n) {
                for (w = 0, k = 0; i + k < n; k++)
                        w |= (uint64_t)(unsigned char)s[i + k] << (8 * k);
                h = smap_mix(h, w);
        }
        h ^= h >> 29;
        h *= 0xc4ceb9fe1a85ec53ULL;
        return h ^ (h >> 32);
}

static int smap_eq(const cc_smap *m, const char *a, const char *b)
{
        return m->nocase ? cc_strcasecmp(a, b) == 0 : strcmp(a, b) == 0;
}

static struct cc_smap_slot *smap_find(const cc_smap *m, const char *key, uint64_t h)
{
        size_t i;

        if (m->cap == 0)
                return NULL;
        for (i = (size_t)h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
                struct cc_smap_slot *s = &m->slots[i];

                if (s->key == NULL || (s->hash == h && smap_eq(m, s->key, key)))
                        return s;
        }
}

static int smap_resize(cc_smap *m, size_t ncap, cc_error *err)
{
        size_t i;
        struct cc_smap_slot *old = m->slots, *ns;
        size_t ocap = m->cap;

        if (ncap > SIZE_MAX / sizeof(*ns) / 2)
                return cc_err(err, CC_ERR_LIMIT, "hash map over its size limit");
        ns = cc_calloc(err, ncap, sizeof(*ns));
        if (ns == NULL)
                return -1;
        m->slots = ns;
        m->cap = ncap;
        for (i = 0; i < ocap; i++) {
                if (old[i].key != NULL) {
                        struct cc_smap_slot *s = smap_find(m, old[i].key, old[i].hash);

                        *s = old[i];
                }
        }
        free(old);
        return 0;
}

static int smap_grow(cc_smap *m, cc_error *err)
{
        return smap_resize(m, m->cap ? m->cap * 2 : 16, err);
}

int cc_smap_reserve(cc_smap *m, size_t n, cc_error *err)
{
        size_t cap = m->cap ? m->cap : 16;

        while (cap < SIZE_MAX / 8 && (n + 1) * 4 > cap * 3)
                cap *= 2;
        return cap > m->cap ? smap_resize(m, cap, err) : 0;
}

int cc_smap_put(cc_smap *m, const char *key, void *value, void **old, cc_error *err)
{
        uint64_t h = smap_hash(key, m->nocase);
        struct cc_smap_slot *s;

        if (old)
                *old = NULL;
        if ((m->n + 1) * 4 > m->cap * 3 && smap_grow(m, err) < 0)
                return -1;
        s = smap_find(m, key, h);
        if (s->key != NULL) {
                if (old)
                        *old = s->value;
                s->value = value;
                return 0;
        }
        s->key = m->borrow ? (char *)(uintptr_t)key : cc_strdup(err, key);
        if (s->key == NULL)
                return -1;
        s->value = value;
        s->hash = h;
        m->n++;
        return 0;
}

int cc_smap_get(const cc_smap *m, const char *key, void **value)
{
        struct cc_smap_slot *s = smap_find(m, key, smap_hash(key, m->nocase));

        if (s == NULL || s->key == NULL)
                return 0;
        if (value)
                *value = s->value;
        return 1;
}

void cc_smap_each(const cc_smap *m, void (*fn)(void *ctx, const char *key, void *value), void *ctx)
{
        size_t i;

        for (i = 0; i < m->cap; i++)
                if (m->slots[i].key != NULL)
                        fn(ctx, m->slots[i].key, m->slots[i].value);
}

void cc_smap_free(cc_smap *m)
{
        size_t i;

        for (i = 0; i < m->cap && !m->borrow; i++)
                free(m->slots[i].key);
        free(m->slots);
        m->slots = NULL;
        m->cap = m->n = 0;
}

/* UTF-16LE (nunits code units at p) to a new UTF-8 string. Surrogate pairs
 * are combined; an unpaired surrogate becomes U+FFFD. */
char *cc_utf16le_to_utf8(const uint8_t *p, size_t nunits, cc_error *err)
{
        char *out, *q;
        size_t i;

        if (nunits > SIZE_MAX / 3 - 1) {
                cc_err(err, CC_ERR_LIMIT, "UTF-16 string too long");
                return NULL;
        }
        out = cc_malloc(err, nunits * 3 + 1);
        if (out == NULL)
                return NULL;
        q = out;
        for (i = 0; i < nunits; i++) {
                uint32_t u = (uint32_t)p[2 * i] | ((uint32_t)p[2 * i + 1] << 8);

                if (u >= 0xD800 && u <= 0xDBFF && i + 1 < nunits) {
                        uint32_t lo = (uint32_t)p[2 * i + 2] | ((uint32_t)p[2 * i + 3] << 8);

                        if (lo >= 0xDC00 && lo <= 0xDFFF) {
                                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                                i++;
                        } else {
                                u = 0xFFFD;
                        }
                } else if (u >= 0xD800 && u <= 0xDFFF) {
                        u = 0xFFFD;
                }
                if (u < 0x80) {
                        *q++ = (char)u;
                } else if (u < 0x800) {
                        *q++ = (char)(0xC0 | (u >> 6));
                        *q++ = (char)(0x80 | (u & 0x3F));
                } else if (u < 0x10000) {
                        *q++ = (char)(0xE0 | (u >> 12));
                        *q++ = (char)(0x80 | ((u >> 6) & 0x3F));
                        *q++ = (char)(0x80 | (u & 0x3F));
                } else {
                        *q++ = (char)(0xF0 | (u >> 18));
                        *q++ = (char)(0x80 | ((u >> 12) & 0x3F));
                        *q++ = (char)(0x80 | ((u >> 6) & 0x3F));
                        *q++ = (char)(0x80 | (u & 0x3F));
                }
        }
        *q = '\0';
        return out;
}

int cc_utf8_to_utf16le(const char *s, cc_buf *out, cc_error *err)
{
        const unsigned char *p = (const unsigned char *)s;

        if (!cc_utf8_valid(s, strlen(s)))
                return cc_err(err, CC_ERR_FORMAT, "not UTF-8 text");
        while (*p) {
                uint32_t u;
                unsigned char b[4];
                size_t k = 0;

                if (p[0] < 0x80) {
                        u = p[0];
                        p += 1;
                } else if ((p[0] & 0xE0) == 0xC0) {
                        u = ((uint32_t)(p[0] & 0x1F) << 6) | (p[1] & 0x3F);
                        p += 2;
                } else if ((p[0] & 0xF0) == 0xE0) {
                        u = ((uint32_t)(p[0] & 0x0F) << 12) | ((uint32_t)(p[1] & 0x3F) << 6) | (p[2] & 0x3F);
                        p += 3;
                } else {
                        u = ((uint32_t)(p[0] & 0x07) << 18) | ((uint32_t)(p[1] & 0x3F) << 12) |
                            ((uint32_t)(p[2] & 0x3F) << 6) | (p[3] & 0x3F);
                        p += 4;
                }
                if (u >= 0x10000) {
                        uint32_t hi = 0xD800 + ((u - 0x10000) >> 10), lo = 0xDC00 + ((u - 0x10000) & 0x3FF);

                        b[k++] = (unsigned char)(hi & 0xFF);
                        b[k++] = (unsigned char)(hi >> 8);
                        b[k++] = (unsigned char)(lo & 0xFF);
                        b[k++] = (unsigned char)(lo >> 8);
                } else {
                        b[k++] = (unsigned char)(u & 0xFF);
                        b[k++] = (unsigned char)(u >> 8);
                }
                TRY_RET(cc_buf_append(out, b, k, err));
        }
        return 0;
}
