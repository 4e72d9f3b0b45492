/* C header reader and integer constant expression evaluator.
 *
 * The scanner walks the text once, honouring backslash-newline splices
 * (also with blanks between the backslash and the newline, as gcc does),
 * CRLF and lone CR line ends, comments and string/character literals, and
 * collects every #define and #include whatever conditional it sits in. A
 * literal never runs past the end of its line.
 *
 * The evaluator expands macros token by token: each expansion is a frame on
 * a stack holding the macro's body; a macro already on the stack is a
 * self-reference (an error, since C would leave the name unexpanded and we do
 * not guess what it means). Arithmetic follows C's rules for intmax_t and
 * uintmax_t (64 bits here): signed overflow, division by zero, shifts out of
 * range and left shifts of negative values are errors; unsigned arithmetic
 * wraps as C defines it. Operands C does not evaluate (the right of a false
 * &&, a true ||, the other branch of ?:) are parsed but not evaluated, so
 * `defined(X) && X > 1` works when X is not defined. */
#include "cheader.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define CH_MAX_INPUT ((size_t)64 << 20)
#define CH_MAX_MACROS 1000000
#define CH_MAX_INCLUDES 100000
#define CH_MAX_WARNINGS 100
#define CH_MAX_BODY ((size_t)1 << 20)
#define CH_MAX_NAME 1024
#define CH_LOOKS_SCAN ((size_t)64 << 10)

#define EV_MAX_DEPTH 32
#define EV_MAX_TOKENS 100000
#define EV_MAX_NEST 256
#define EV_MAX_EXPR ((size_t)1 << 20)

/* ---- helpers --------------------------------------------------------- */

static int is_ident_start(int c)
{
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_ident_char(int c)
{
        return is_ident_start(c) || (c >= '0' && c <= '9');
}

static int is_digit(int c)
{
        return c >= '0' && c <= '9';
}

static int is_hspace(int c)
{
        return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\0';
}

/* What the plain-code loop of cc_header_parse does at a byte (headers are
 * hundreds of kilobytes, read a byte at a time): a name's byte or
 * punctuation goes on and ends the start of a line (0), a blank goes on
 * (PC_BLANK, as is_hspace), a byte the reader folds or that starts
 * something stops (PC_STOP), a digit stops where a number starts, not
 * inside a name (PC_DIGIT). */
enum { PC_BLANK = 1, PC_STOP = 2, PC_DIGIT = 3 };
static const unsigned char plain_class[256] = {
    ['\0'] = PC_BLANK, [' '] = PC_BLANK, ['\t'] = PC_BLANK, ['\f'] = PC_BLANK, ['\v'] = PC_BLANK, ['\\'] = PC_STOP,
    ['\r'] = PC_STOP,  ['\n'] = PC_STOP, ['/'] = PC_STOP,   ['#'] = PC_STOP,   ['"'] = PC_STOP,   ['\''] = PC_STOP,
    ['0'] = PC_DIGIT,  ['1'] = PC_DIGIT, ['2'] = PC_DIGIT,  ['3'] = PC_DIGIT,  ['4'] = PC_DIGIT,  ['5'] = PC_DIGIT,
    ['6'] = PC_DIGIT,  ['7'] = PC_DIGIT, ['8'] = PC_DIGIT,  ['9'] = PC_DIGIT,
};

/* From i, the first byte whose plain_class is PC_STOP or more, or len: the
 * rest of a line of code, sixteen bytes at a time where the machine has
 * SSE2 (the stops are seven bytes and the ten digits). */
static size_t plain_run(const char *s, size_t i, size_t len)
{
#if defined(__SSE2__)
        const __m128i bs = _mm_set1_epi8('\\'), cr = _mm_set1_epi8('\r'), nl = _mm_set1_epi8('\n'),
                      sl = _mm_set1_epi8('/'), hs = _mm_set1_epi8('#'), dq = _mm_set1_epi8('"'),
                      sq = _mm_set1_epi8('\''), zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);

        while (len - i >= 16) {
                __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
                __m128i hit = _mm_or_si128(
                    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, bs), _mm_cmpeq_epi8(v, cr)),
                                 _mm_or_si128(_mm_cmpeq_epi8(v, nl), _mm_cmpeq_epi8(v, sl))),
                    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, hs), _mm_cmpeq_epi8(v, dq)), _mm_cmpeq_epi8(v, sq)));
                /* a digit: v - '0' is at most 9, unsigned */
                __m128i d = _mm_sub_epi8(v, zero);

                hit = _mm_or_si128(hit, _mm_cmpeq_epi8(_mm_min_epu8(d, nine), d));
                {
                        int m = _mm_movemask_epi8(hit);

                        if (m != 0)
                                return i + (size_t)__builtin_ctz((unsigned)m);
                }
                i += 16;
        }
#endif
        while (i < len && plain_class[(unsigned char)s[i]] < PC_STOP)
                i++;
        return i;
}

static uint64_t hash_name(const char *s, size_t n)
{
        uint64_t h = 1469598103934665603ULL;
        size_t i;

        for (i = 0; i < n; i++) {
                h ^= (unsigned char)s[i];
                h *= 1099511628211ULL;
        }
        return h;
}

static int name_eq(const char *name, const char *s, size_t n)
{
        return strncmp(name, s, n) == 0 && name[n] == '\0';
}

static const cc_macro *header_find_n(const cc_header *h, const char *s, size_t n)
{
        size_t i;

        if (h == NULL)
                return NULL;
        if (h->hidx != NULL && h->hcap != 0) {
                size_t mask = h->hcap - 1;

                i = (size_t)hash_name(s, n) & mask;
                while (h->hidx[i] != 0) {
                        const cc_macro *m = &h->macros[h->hidx[i] - 1];

                        if (name_eq(m->name, s, n))
                                return m;
                        i = (i + 1) & mask;
                }
                return NULL;
        }
        for (i = 0; i < h->nmacros; i++)
                if (h->macros[i].name != NULL && name_eq(h->macros[i].name, s, n))
                        return &h->macros[i];
        return NULL;
}

static const cc_macro *find_n(const cc_header *const *hs, size_t nh, const char *s, size_t n)
{
        size_t i;

        if (hs == NULL)
                return NULL;
        for (i = 0; i < nh; i++) {
                const cc_macro *m = header_find_n(hs[i], s, n);

                if (m != NULL)
                        return m;
        }
        return NULL;
}

const cc_macro *cc_header_find(const cc_header *const *hs, size_t nh, const char *name)
{
        if (name == NULL)
                return NULL;
        return find_n(hs, nh, name, strlen(name));
}

static int index_put(size_t *slots, size_t cap, const cc_macro *macros, size_t idx)
{
        size_t mask = cap - 1;
        size_t i = (size_t)hash_name(macros[idx].name, strlen(macros[idx].name)) & mask;

        while (slots[i] != 0)
                i = (i + 1) & mask;
        slots[i] = idx + 1;
        return 0;
}

/* Make room in the index for one more macro. */
static int index_grow(cc_header *h, cc_error *err)
{
        size_t ncap, i, *slots;

        if (h->hcap != 0 && (h->nmacros + 1) * 2 <= h->hcap)
                return 0;
        ncap = h->hcap ? h->hcap * 2 : 256;
        slots = cc_calloc(err, ncap, sizeof(*slots));
        if (slots == NULL)
                return -1;
        for (i = 0; i < h->nmacros; i++)
                index_put(slots, ncap, h->macros, i);
        free(h->hidx);
        h->hidx = slots;
        h->hcap = ncap;
        return 0;
}

static int add_warning(cc_header *h, cc_error *err, const char *fmt, ...) CC_PRINTF(3, 4);

static int add_warning(cc_header *h, cc_error *err, const char *fmt, ...)
{
        char msg[512];
        va_list ap;

        if (h->warnings.n > CH_MAX_WARNINGS)
                return 0;
        if (h->warnings.n == CH_MAX_WARNINGS)
                return cc_strv_push(&h->warnings, "more warnings not shown", err);
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        return cc_strv_push(&h->warnings, msg, err);
}

/* ---- the reader: characters with splices and line ends folded ----------- */

struct rd {
        const char *s;
        size_t len;
        size_t pos;
        int line; /* 1-based physical line of pos */
};

/* Length of a backslash-newline splice at pos (blanks allowed between the
 * two), 0 if there is none. */
static size_t splice_len(const struct rd *r, size_t pos)
{
        size_t p;

        if (pos >= r->len || r->s[pos] != '\\')
                return 0;
        p = pos + 1;
        while (p < r->len && (r->s[p] == ' ' || r->s[p] == '\t'))
                p++;
        if (p < r->len && r->s[p] == '\n')
                return p + 1 - pos;
        if (p < r->len && r->s[p] == '\r')
                return (p + 1 < r->len && r->s[p + 1] == '\n') ? p + 2 - pos : p + 1 - pos;
        return 0;
}

static void rd_splice(struct rd *r)
{
        size_t n;

        while ((n = splice_len(r, r->pos)) != 0) {
                r->pos += n;
                r->line++;
        }
}

/* The next character (CR and CRLF read as '\n'), -1 at the end. */
static int rd_peek(struct rd *r)
{
        int c;

        rd_splice(r);
        if (r->pos >= r->len)
                return -1;
        c = (unsigned char)r->s[r->pos];
        return c == '\r' ? '\n' : c;
}

static void rd_adv(struct rd *r)
{
        rd_splice(r);
        if (r->pos >= r->len)
                return;
        if (r->s[r->pos] == '\r') {
                r->pos++;
                if (r->pos < r->len && r->s[r->pos] == '\n')
                        r->pos++;
                r->line++;
                return;
        }
        if (r->s[r->pos] == '\n')
                r->line++;
        r->pos++;
}

static int rd_peek2(const struct rd *r)
{
        struct rd t = *r;

        rd_adv(&t);
        return rd_peek(&t);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
#define CH_WORDS 1
/* Eight bytes at a time: each byte c of a word in the high bit of the
 * matching byte of zero_bytes(w ^ REP8(c)), exactly (no borrow runs from a
 * byte into the next: the low seven bits are added apart from the eighth). */
#define REP8(c) ((uint64_t)(unsigned char)(c)*0x0101010101010101ull)

static uint64_t zero_bytes(uint64_t x)
{
        const uint64_t lo7 = 0x7f7f7f7f7f7f7f7full;

        return ~(((x & lo7) + lo7) | x | lo7);
}

/* From i, the first '/', CR or backslash (or the last full word's end),
 * counting the line ends passed into *line. */
static size_t comment_run(const char *s, size_t i, size_t len, int *line)
{
#if defined(__SSE2__)
        const __m128i sl = _mm_set1_epi8('/'), cr = _mm_set1_epi8('\r'), bs = _mm_set1_epi8('\\'),
                      lf = _mm_set1_epi8('\n');

        while (len - i >= 16) {
                __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
                unsigned stop = (unsigned)_mm_movemask_epi8(
                    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, sl), _mm_cmpeq_epi8(v, cr)), _mm_cmpeq_epi8(v, bs)));
                unsigned ends = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, lf));

                if (stop != 0) {
                        unsigned k = (unsigned)__builtin_ctz(stop);

                        *line += __builtin_popcount(ends & ((1u << k) - 1)); /* the line ends before it */
                        return i + k;
                }
                *line += __builtin_popcount(ends);
                i += 16;
        }
#endif
        while (len - i >= 8) {
                uint64_t w, stop, nl;

                memcpy(&w, s + i, 8);
                stop = zero_bytes(w ^ REP8('/')) | zero_bytes(w ^ REP8('\r')) | zero_bytes(w ^ REP8('\\'));
                nl = zero_bytes(w ^ REP8('\n'));
                if (stop != 0) {
                        unsigned k = (unsigned)__builtin_ctzll(stop) >> 3;

                        nl &= k ? (~0ull >> (64 - 8 * k)) : 0; /* the line ends before it */
                        for (; nl != 0; nl &= nl - 1)
                                (*line)++;
                        return i + k;
                }
                for (; nl != 0; nl &= nl - 1)
                        (*line)++;
                i += 8;
        }
        return i;
}
#endif

/* At "/ *": skip the comment. Returns 1 if it was unterminated. A comment
 * ends at a '/' whose character before (after splices) is a '*' of the
 * comment: the runs of plain bytes go at once up to a '/', and only a '/',
 * a CR or a backslash (a splice) goes through the reader (doc comments have
 * a '*' on every line, a '/' seldom). */
static int skip_block_comment(struct rd *r)
{
        int c, star = 0; /* the last character read was a '*' of the comment */

        rd_adv(r);
        rd_adv(r);
        for (;;) {
                size_t i = r->pos;

#ifdef CH_WORDS
                i = comment_run(r->s, i, r->len, &r->line);
#endif
                while (i < r->len && r->s[i] != '/' && r->s[i] != '\r' && r->s[i] != '\\') {
                        r->line += r->s[i] == '\n';
                        i++;
                }
                if (i > r->pos)
                        star = r->s[i - 1] == '*'; /* a plain byte: itself */
                r->pos = i;
                if ((c = rd_peek(r)) == -1)
                        return 1;
                rd_adv(r);
                if (c == '/' && star)
                        return 0;
                star = c == '*';
        }
}

/* Up to the end of the line (not past it): plain bytes at once, a
 * backslash through the reader (a splice continues the line). */
static void skip_to_eol(struct rd *r)
{
        for (;;) {
                size_t i = r->pos, n;

                while (i < r->len && r->s[i] != '\n' && r->s[i] != '\r' && r->s[i] != '\\')
                        i++;
                r->pos = i;
                if (i >= r->len || r->s[i] != '\\')
                        return;
                n = splice_len(r, i);
                if (n != 0)
                        r->line++;
                r->pos += n != 0 ? n : 1;
        }
}

static int put_c(cc_buf *out, int *toolong, int c, cc_error *err)
{
        if (out == NULL || *toolong)
                return 0;
        if (out->len >= CH_MAX_BODY) {
                *toolong = 1;
                return 0;
        }
        return cc_buf_putc(out, (char)(c ? c : ' '), err);
}

/* At a quote: copy (if out) or skip the literal, through its closing quote or
 * up to (not including) the end of the line. */
static int copy_literal(struct rd *r, cc_buf *out, int *toolong, cc_error *err)
{
        int q = rd_peek(r), c, first = 1;

        for (;;) {
                c = rd_peek(r);
                if (c == -1 || c == '\n')
                        return 0;
                if (put_c(out, toolong, c, err) < 0)
                        return -1;
                rd_adv(r);
                if (!first && c == q)
                        return 0;
                first = 0;
                if (c == '\\') {
                        c = rd_peek(r);
                        if (c == -1 || c == '\n')
                                return 0;
                        if (put_c(out, toolong, c, err) < 0)
                                return -1;
                        rd_adv(r);
                }
        }
}

/* Copy (if out) or skip the rest of a directive line, through the newline.
 * Comments become one blank, runs of blanks collapse into one, leading and
 * trailing blanks are dropped; literals are kept verbatim. */
static int read_rest(cc_header *h, struct rd *r, cc_buf *out, int *toolong, cc_error *err)
{
        int pending = 0, c;

        while ((c = rd_peek(r)) != -1) {
                if (c == '\n') {
                        rd_adv(r);
                        break;
                }
                if (c == '/' && rd_peek2(r) == '/') {
                        skip_to_eol(r);
                        continue;
                }
                if (c == '/' && rd_peek2(r) == '*') {
                        int line = r->line;

                        if (skip_block_comment(r) && add_warning(h, err, "line %d: unterminated comment", line) < 0)
                                return -1;
                        pending = 1;
                        continue;
                }
                if (is_hspace(c)) {
                        rd_adv(r);
                        pending = 1;
                        continue;
                }
                if (pending && out != NULL && out->len > 0 && put_c(out, toolong, ' ', err) < 0)
                        return -1;
                pending = 0;
                if (c == '"' || c == '\'') {
                        if (copy_literal(r, out, toolong, err) < 0)
                                return -1;
                        continue;
                }
                if (put_c(out, toolong, c, err) < 0)
                        return -1;
                rd_adv(r);
        }
        return 0;
}

/* Skip blanks and block comments inside a directive line. */
static int skip_hspace(cc_header *h, struct rd *r, cc_error *err)
{
        int c;

        while ((c = rd_peek(r)) != -1) {
                if (is_hspace(c)) {
                        rd_adv(r);
                } else if (c == '/' && rd_peek2(r) == '*') {
                        int line = r->line;

                        if (skip_block_comment(r) && add_warning(h, err, "line %d: unterminated comment", line) < 0)
                                return -1;
                } else {
                        break;
                }
        }
        return 0;
}

/* Read an identifier at r into buf (NUL-terminated). Returns its length, 0
 * if there is none; a name longer than the buffer is consumed and reported as
 * size (not stored). */
static size_t read_ident(struct rd *r, char *buf, size_t size)
{
        size_t n = 0;
        int c;

        buf[0] = '\0';
        c = rd_peek(r);
        if (c == -1 || !is_ident_start(c))
                return 0;
        while ((c = rd_peek(r)) != -1 && is_ident_char(c)) {
                if (n + 1 < size)
                        buf[n] = (char)c;
                n++;
                rd_adv(r);
        }
        if (n >= size)
                return size;
        buf[n] = '\0';
        return n;
}

static int add_macro(cc_header *h, const char *name, char *body, int line, int fl, cc_error *err)
{
        const cc_macro *old = header_find_n(h, name, strlen(name));
        cc_macro *m;

        if (old != NULL) {
                int same = old->function_like == fl && strcmp(old->body, body) == 0;

                free(body);
                if (same)
                        return 0;
                h->macros[old - h->macros].redefinitions++;
                return add_warning(h, err, "line %d: %s redefined (the definition at line %d is kept)", line, name,
                                   old->line);
        }
        if (h->nmacros >= CH_MAX_MACROS) {
                free(body);
                return cc_err(err, CC_ERR_LIMIT, "more than %d macros", CH_MAX_MACROS);
        }
        if (index_grow(h, err) < 0) {
                free(body);
                return -1;
        }
        if ((h->nmacros & (h->nmacros - 1)) == 0) {
                size_t ncap = h->nmacros ? h->nmacros * 2 : 16;
                cc_macro *nm = cc_realloc(err, h->macros, ncap * sizeof(*nm));

                if (nm == NULL) {
                        free(body);
                        return -1;
                }
                h->macros = nm;
        }
        m = &h->macros[h->nmacros];
        m->name = cc_strdup(err, name);
        if (m->name == NULL) {
                free(body);
                return -1;
        }
        m->body = body;
        m->line = line;
        m->function_like = fl;
        m->redefinitions = 0;
        h->nmacros++;
        index_put(h->hidx, h->hcap, h->macros, h->nmacros - 1);
        return 0;
}

/* After "#define". */
static int parse_define(cc_header *h, struct rd *r, int line, cc_error *err)
{
        char name[CH_MAX_NAME];
        cc_buf body = {0};
        size_t n;
        int fl = 0, toolong = 0, rv = -1;
        char *text = NULL;

        if (skip_hspace(h, r, err) < 0)
                goto fail;
        n = read_ident(r, name, sizeof(name));
        if (n == 0 || n >= sizeof(name) || strcmp(name, "defined") == 0) {
                if (add_warning(h, err,
                                n == 0 ? "line %d: #define without a macro name"
                                       : "line %d: #define of an invalid or over-long name",
                                line) < 0)
                        goto fail;
                if (read_rest(h, r, NULL, &toolong, err) < 0)
                        goto fail;
                rv = 0;
                goto fail;
        }
        if (rd_peek(r) == '(') {
                int c;

                fl = 1;
                while ((c = rd_peek(r)) != -1 && c != '\n' && c != ')')
                        rd_adv(r);
                if (c == ')') {
                        rd_adv(r);
                } else {
                        if (add_warning(h, err, "line %d: unterminated parameter list of %s", line, name) < 0)
                                goto fail;
                        if (read_rest(h, r, NULL, &toolong, err) < 0)
                                goto fail;
                        rv = 0;
                        goto fail;
                }
        }
        if (read_rest(h, r, &body, &toolong, err) < 0)
                goto fail;
        if (toolong) {
                if (add_warning(h, err, "line %d: body of %s is longer than %zu bytes; ignored", line, name,
                                CH_MAX_BODY) < 0)
                        goto fail;
                rv = 0;
                goto fail;
        }
        text = body.data ? cc_buf_steal(&body) : cc_strdup(err, "");
        if (text == NULL)
                goto fail;
        rv = add_macro(h, name, text, line, fl, err);
fail:
        cc_buf_free(&body);
        return rv;
}

/* After "#include". */
static int parse_include(cc_header *h, struct rd *r, int line, cc_error *err)
{
        cc_buf b = {0};
        int c, close, toolong = 0, rv = -1;

        if (skip_hspace(h, r, err) < 0)
                goto fail;
        c = rd_peek(r);
        if (c != '<' && c != '"') {
                if (add_warning(h, err, "line %d: #include of neither <file> nor \"file\"", line) < 0)
                        goto fail;
                rv = read_rest(h, r, NULL, &toolong, err);
                goto fail;
        }
        close = c == '<' ? '>' : '"';
        rd_adv(r);
        while ((c = rd_peek(r)) != -1 && c != '\n' && c != close) {
                if (b.len < CH_MAX_NAME && cc_buf_putc(&b, (char)c, err) < 0)
                        goto fail;
                rd_adv(r);
        }
        if (c != close || b.len == 0 || b.len >= CH_MAX_NAME) {
                if (add_warning(h, err, "line %d: malformed #include", line) < 0)
                        goto fail;
        } else if (h->includes.n >= CH_MAX_INCLUDES) {
                if (add_warning(h, err, "line %d: more than %d #include lines", line, CH_MAX_INCLUDES) < 0)
                        goto fail;
        } else if (cc_strv_push(&h->includes, b.data, err) < 0) {
                goto fail;
        }
        rv = read_rest(h, r, NULL, &toolong, err);
fail:
        cc_buf_free(&b);
        return rv;
}

/* At '#' at the start of a line. */
static int parse_directive(cc_header *h, struct rd *r, cc_error *err)
{
        char word[16];
        int line = r->line, toolong = 0;
        size_t n;

        rd_adv(r);
        if (skip_hspace(h, r, err) < 0)
                return -1;
        n = read_ident(r, word, sizeof(word));
        if (n > 0 && n < sizeof(word)) {
                if (strcmp(word, "define") == 0)
                        return parse_define(h, r, line, err);
                if (strcmp(word, "include") == 0 || strcmp(word, "include_next") == 0)
                        return parse_include(h, r, line, err);
        }
        return read_rest(h, r, NULL, &toolong, err);
}

void cc_header_free(cc_header *h)
{
        size_t i;

        if (h == NULL)
                return;
        for (i = 0; i < h->nmacros; i++) {
                free(h->macros[i].name);
                free(h->macros[i].body);
        }
        free(h->macros);
        free(h->hidx);
        cc_strv_free(&h->includes);
        cc_strv_free(&h->warnings);
        free(h);
}

int cc_header_parse(const char *text, size_t len, cc_header **out, cc_error *err)
{
        cc_header *h = NULL;
        struct rd r;
        int bol = 1, c, toolong = 0, rv = -1;

        if (out == NULL || (text == NULL && len != 0))
                return cc_err(err, CC_ERR_USAGE, "cc_header_parse: no input");
        *out = NULL;
        if (len > CH_MAX_INPUT)
                return cc_err(err, CC_ERR_LIMIT, "header larger than %zu bytes", CH_MAX_INPUT);
        h = cc_calloc(err, 1, sizeof(*h));
        if (h == NULL)
                goto fail;
        r.s = text;
        r.len = len;
        r.pos = 0;
        r.line = 1;
        /* a UTF-8 byte order mark */
        if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
                r.pos = 3;
        for (;;) {
                /* Plain code at once: blanks, punctuation and names, up to a
                 * byte the reader must fold or that starts something (a line
                 * end, comment, directive, literal, number or splice). */
                size_t i = r.pos;

                while (i < r.len) {
                        unsigned k = plain_class[(unsigned char)r.s[i]];

                        if (k >= PC_STOP) {
                                if (k == PC_STOP || i == 0 || !is_ident_char((unsigned char)r.s[i - 1]))
                                        break;
                        } else if (k != PC_BLANK) {
                                /* past the line's start: blanks and the rest
                                 * go on alike, up to a stop or a digit */
                                bol = 0;
                                i = plain_run(r.s, i + 1, r.len);
                                continue;
                        }
                        i++;
                }
                r.pos = i;
                if (i < r.len && r.s[i] == '\n') {
                        /* a line end (no splice starts at one): rd_adv's work at once */
                        r.pos++;
                        r.line++;
                        bol = 1;
                        continue;
                }
                if ((c = rd_peek(&r)) == -1)
                        break;
                if (c == '\n') {
                        rd_adv(&r);
                        bol = 1;
                } else if (is_hspace(c)) {
                        rd_adv(&r);
                } else if (c == '/' && rd_peek2(&r) == '/') {
                        skip_to_eol(&r);
                } else if (c == '/' && rd_peek2(&r) == '*') {
                        int line = r.line;

                        if (skip_block_comment(&r) && add_warning(h, err, "line %d: unterminated comment", line) < 0)
                                goto fail;
                } else if (c == '#' && bol) {
                        if (parse_directive(h, &r, err) < 0)
                                goto fail;
                        bol = 1;
                } else if (c == '"' || c == '\'') {
                        bol = 0;
                        if (copy_literal(&r, NULL, &toolong, err) < 0)
                                goto fail;
                } else if (is_ident_char(c)) {
                        int num = is_digit(c);

                        bol = 0;
                        for (;;) {
                                if (r.pos < r.len && is_ident_char((unsigned char)r.s[r.pos])) {
                                        r.pos++; /* a name's byte: no splice starts at it */
                                        continue;
                                }
                                c = rd_peek(&r);
                                if (c != -1 && is_ident_char(c)) {
                                        rd_adv(&r);
                                } else if (num && c == '\'' && is_ident_char(rd_peek2(&r))) {
                                        rd_adv(&r); /* C++14 digit separator */
                                } else {
                                        break;
                                }
                        }
                } else {
                        bol = 0;
                        rd_adv(&r);
                }
        }
        *out = h;
        h = NULL;
        rv = 0;
fail:
        cc_header_free(h);
        return rv;
}

int cc_header_looks_like(const uint8_t *data, size_t size)
{
        size_t i, scan = size < CH_LOOKS_SCAN ? size : CH_LOOKS_SCAN;

        if (data == NULL || size == 0)
                return 0;
        if (memchr(data, 0, scan) != NULL)
                return 0;
        /* each '#' (a license comment of kilobytes comes first): a directive
         * when only blanks stand between it and the line's start */
        for (i = 0; i < size; i++) {
                static const char *const words[] = {"define", "include", "ifndef", "ifdef", "if", "pragma"};
                const uint8_t *hash = memchr(data + i, '#', size - i);
                size_t j, k, b;

                if (hash == NULL)
                        return 0;
                i = (size_t)(hash - data);
                for (b = i; b > 0 && (data[b - 1] == ' ' || data[b - 1] == '\t' || data[b - 1] == '\r'); b--)
                        ;
                if (b > 0 && data[b - 1] != '\n')
                        continue;
                j = i + 1;
                while (j < size && (data[j] == ' ' || data[j] == '\t'))
                        j++;
                for (k = 0; k < CC_ARRAY_LEN(words); k++) {
                        size_t wl = strlen(words[k]);

                        if (size - j > wl && memcmp(data + j, words[k], wl) == 0 && !is_ident_char(data[j + wl]))
                                return 1;
                }
        }
        return 0;
}

/* ---- the evaluator --------------------------------------------------- */

enum { T_END, T_NUM, T_IDENT, T_PUNCT };

enum {
        P_SHL = 256,
        P_SHR,
        P_LE,
        P_GE,
        P_EQ,
        P_NE,
        P_LAND,
        P_LOR,
};

struct val {
        uint64_t v;
        int uns;
};

struct tok {
        int kind;
        int punct;
        struct val num;
        const char *s; /* identifier text */
        size_t n;
        const cc_macro *fm; /* a function-like macro */
};

struct frame {
        const char *s;
        size_t pos, len;
        const cc_macro *m;
};

struct ev {
        const cc_header *const *hs;
        size_t nh;
        struct frame fr[EV_MAX_DEPTH + 1];
        int nfr;
        struct tok cur;
        size_t ntok;
        int skip;
        int nest;
        cc_error *err;
};

static int ev_fail(struct ev *e, int code, const char *fmt, ...) CC_PRINTF(3, 4);

static int ev_fail(struct ev *e, int code, const char *fmt, ...)
{
        char msg[400];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        if (e->nfr > 1)
                return cc_err(e->err, code, "%s (in macro %s)", msg, e->fr[e->nfr - 1].m->name);
        return cc_err(e->err, code, "%s", msg);
}

static int64_t sval(struct val a)
{
        if (a.v <= (uint64_t)INT64_MAX)
                return (int64_t)a.v;
        return -(int64_t)(~a.v) - 1;
}

static struct val mk_s(int64_t x)
{
        struct val r;

        r.v = (uint64_t)x;
        r.uns = 0;
        return r;
}

static int lex_number(struct ev *e, struct frame *f, struct tok *t)
{
        const char *s = f->s + f->pos;
        size_t n = 0, i = 0, end = f->len - f->pos;
        uint64_t v = 0;
        int base = 10, digits = 0, u = 0, l = 0;

        /* the pp-number */
        while (n < end) {
                char c = s[n];

                if (is_ident_char((unsigned char)c) || c == '.') {
                        n++;
                } else if ((c == '+' || c == '-') &&
                           (s[n - 1] == 'e' || s[n - 1] == 'E' || s[n - 1] == 'p' || s[n - 1] == 'P')) {
                        n++;
                } else {
                        break;
                }
        }
        f->pos += n;
        if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
                base = 16;
                i = 2;
        } else if (s[0] == '0') {
                base = 8;
        }
        for (; i < n; i++) {
                int d;
                char c = s[i];

                if (c >= '0' && c <= '9')
                        d = c - '0';
                else if (base == 16 && c >= 'a' && c <= 'f')
                        d = c - 'a' + 10;
                else if (base == 16 && c >= 'A' && c <= 'F')
                        d = c - 'A' + 10;
                else
                        break;
                if (d >= base)
                        return ev_fail(e, CC_ERR_FORMAT, "invalid digit '%c' in octal constant %.*s", c,
                                       (int)(n > 40 ? 40 : n), s);
                if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
                        return ev_fail(e, CC_ERR_FORMAT, "integer constant %.*s is too large", (int)(n > 40 ? 40 : n),
                                       s);
                v = v * (uint64_t)base + (uint64_t)d;
                digits++;
        }
        if (base == 16 && digits == 0)
                return ev_fail(e, CC_ERR_FORMAT, "hexadecimal constant without digits");
        /* suffixes: u, l, ll in either order and case (ll/LL, not lL) */
        for (; i < n; i++) {
                char c = s[i];

                if ((c == 'u' || c == 'U') && !u) {
                        u = 1;
                } else if ((c == 'l' || c == 'L') && !l) {
                        l = 1;
                        if (i + 1 < n && s[i + 1] == c) {
                                l = 2;
                                i++;
                        }
                } else {
                        return ev_fail(e, CC_ERR_FORMAT, "%.*s is not an integer constant", (int)(n > 40 ? 40 : n), s);
                }
        }
        t->kind = T_NUM;
        t->num.v = v;
        t->num.uns = u;
        if (!u && v > (uint64_t)INT64_MAX) {
                if (base == 10)
                        return ev_fail(e, CC_ERR_FORMAT, "integer constant %.*s is too large for a signed type",
                                       (int)(n > 40 ? 40 : n), s);
                t->num.uns = 1;
        }
        return 0;
}

static int lex_char(struct ev *e, struct frame *f, struct tok *t)
{
        const char *s = f->s;
        size_t p = f->pos + 1;
        unsigned long v = 0;
        int count = 0;

        for (;;) {
                unsigned long c;

                if (p >= f->len || s[p] == '\n')
                        return ev_fail(e, CC_ERR_FORMAT, "unterminated character constant");
                if (s[p] == '\'')
                        break;
                c = (unsigned char)s[p++];
                if (c == '\\') {
                        if (p >= f->len)
                                return ev_fail(e, CC_ERR_FORMAT, "unterminated character constant");
                        c = (unsigned char)s[p++];
                        switch (c) {
                        case 'n':
                                c = 10;
                                break;
                        case 't':
                                c = 9;
                                break;
                        case 'r':
                                c = 13;
                                break;
                        case 'a':
                                c = 7;
                                break;
                        case 'b':
                                c = 8;
                                break;
                        case 'f':
                                c = 12;
                                break;
                        case 'v':
                                c = 11;
                                break;
                        case '\\':
                        case '\'':
                        case '"':
                        case '?':
                                break;
                        case 'x': {
                                int nd = 0;

                                c = 0;
                                while (p < f->len) {
                                        char h = s[p];
                                        unsigned long d;

                                        if (h >= '0' && h <= '9')
                                                d = (unsigned long)(h - '0');
                                        else if (h >= 'a' && h <= 'f')
                                                d = (unsigned long)(h - 'a' + 10);
                                        else if (h >= 'A' && h <= 'F')
                                                d = (unsigned long)(h - 'A' + 10);
                                        else
                                                break;
                                        c = c * 16 + d;
                                        if (c > 0xFF)
                                                return ev_fail(e, CC_ERR_FORMAT, "hex escape out of range");
                                        p++;
                                        nd++;
                                }
                                if (nd == 0)
                                        return ev_fail(e, CC_ERR_FORMAT, "\\x without hex digits");
                                break;
                        }
                        default:
                                if (c >= '0' && c <= '7') {
                                        int nd = 1;

                                        c -= '0';
                                        while (nd < 3 && p < f->len && s[p] >= '0' && s[p] <= '7') {
                                                c = c * 8 + (unsigned long)(s[p] - '0');
                                                p++;
                                                nd++;
                                        }
                                        if (c > 0xFF)
                                                return ev_fail(e, CC_ERR_FORMAT, "octal escape out of range");
                                        break;
                                }
                                return ev_fail(e, CC_ERR_FORMAT, "unknown escape sequence in character constant");
                        }
                }
                v = c;
                count++;
        }
        f->pos = p + 1;
        if (count != 1)
                return ev_fail(e, CC_ERR_FORMAT,
                               count ? "multi-character constant (its value depends on the compiler)"
                                     : "empty character constant");
        if (v > 127)
                return ev_fail(e, CC_ERR_FORMAT,
                               "character constant above 127 (its value depends on the signedness of char)");
        t->kind = T_NUM;
        t->num = mk_s((int64_t)v);
        return 0;
}

/* The next raw token of frame f. */
static int lex(struct ev *e, struct frame *f, struct tok *t)
{
        const char *s = f->s;
        char c, d;

        memset(t, 0, sizeof(*t));
        for (;;) {
                while (f->pos < f->len &&
                       (is_hspace((unsigned char)s[f->pos]) || s[f->pos] == '\n' || s[f->pos] == '\r'))
                        f->pos++;
                if (f->pos + 1 < f->len && s[f->pos] == '/' && s[f->pos + 1] == '*') {
                        const char *end = NULL;
                        size_t p;

                        for (p = f->pos + 2; p + 1 < f->len; p++) {
                                if (s[p] == '*' && s[p + 1] == '/') {
                                        end = s + p;
                                        break;
                                }
                        }
                        if (end == NULL)
                                return ev_fail(e, CC_ERR_FORMAT, "unterminated comment");
                        f->pos = (size_t)(end - s) + 2;
                        continue;
                }
                if (f->pos + 1 < f->len && s[f->pos] == '/' && s[f->pos + 1] == '/') {
                        while (f->pos < f->len && s[f->pos] != '\n')
                                f->pos++;
                        continue;
                }
                break;
        }
        if (f->pos >= f->len) {
                t->kind = T_END;
                return 0;
        }
        c = s[f->pos];
        d = f->pos + 1 < f->len ? s[f->pos + 1] : '\0';
        if (is_digit((unsigned char)c) || (c == '.' && is_digit((unsigned char)d)))
                return lex_number(e, f, t);
        if (c == '\'')
                return lex_char(e, f, t);
        if (c == '"')
                return ev_fail(e, CC_ERR_FORMAT, "string literal in an integer expression");
        if (is_ident_start((unsigned char)c)) {
                size_t st = f->pos;

                while (f->pos < f->len && is_ident_char((unsigned char)s[f->pos]))
                        f->pos++;
                if (f->pos < f->len && (s[f->pos] == '\'' || s[f->pos] == '"'))
                        return ev_fail(e, CC_ERR_FORMAT, "prefixed character or string literal %.*s",
                                       (int)(f->pos - st > 40 ? 40 : f->pos - st), s + st);
                t->kind = T_IDENT;
                t->s = s + st;
                t->n = f->pos - st;
                return 0;
        }
        t->kind = T_PUNCT;
        f->pos++;
        switch (c) {
        case '<':
        case '>':
                if (d == c) {
                        f->pos++;
                        if (f->pos < f->len && s[f->pos] == '=')
                                return ev_fail(e, CC_ERR_FORMAT, "assignment in an integer expression");
                        t->punct = c == '<' ? P_SHL : P_SHR;
                } else if (d == '=') {
                        f->pos++;
                        t->punct = c == '<' ? P_LE : P_GE;
                } else {
                        t->punct = c;
                }
                return 0;
        case '=':
        case '!':
                if (d == '=') {
                        f->pos++;
                        t->punct = c == '=' ? P_EQ : P_NE;
                        return 0;
                }
                if (c == '=')
                        return ev_fail(e, CC_ERR_FORMAT, "assignment in an integer expression");
                t->punct = c;
                return 0;
        case '&':
        case '|':
                if (d == c) {
                        f->pos++;
                        t->punct = c == '&' ? P_LAND : P_LOR;
                        return 0;
                }
                if (d == '=')
                        return ev_fail(e, CC_ERR_FORMAT, "assignment in an integer expression");
                t->punct = c;
                return 0;
        case '+':
        case '-':
                if (d == c)
                        return ev_fail(e, CC_ERR_FORMAT, "'%c%c' in an integer expression", c, c);
                /* fall through */
        case '*':
        case '/':
        case '%':
        case '^':
                if (d == '=')
                        return ev_fail(e, CC_ERR_FORMAT, "assignment in an integer expression");
                t->punct = c;
                return 0;
        case '(':
        case ')':
        case '~':
        case '?':
        case ':':
        case ',': /* only inside skipped macro calls; the grammar has no comma */
                t->punct = c;
                return 0;
        default:
                if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7F)
                        return ev_fail(e, CC_ERR_FORMAT, "unexpected '%c' in an integer expression", c);
                return ev_fail(e, CC_ERR_FORMAT, "unexpected byte 0x%02X in an integer expression",
                               (unsigned)(unsigned char)c);
        }
}

/* Read the next token into e->cur, expanding object-like macros if expand. */
static int fetch(struct ev *e, int expand)
{
        struct tok t;

        for (;;) {
                struct frame *f = &e->fr[e->nfr - 1];
                const cc_macro *m;
                int i;

                if (++e->ntok > EV_MAX_TOKENS)
                        return ev_fail(e, CC_ERR_LIMIT, "macro expansion longer than %d tokens", EV_MAX_TOKENS);
                if (lex(e, f, &t) < 0)
                        return -1;
                if (t.kind == T_END && e->nfr > 1) {
                        e->nfr--;
                        continue;
                }
                if (t.kind != T_IDENT || !expand || (t.n == 7 && memcmp(t.s, "defined", 7) == 0))
                        break;
                m = find_n(e->hs, e->nh, t.s, t.n);
                if (m == NULL)
                        break;
                if (m->function_like) {
                        t.fm = m;
                        break;
                }
                for (i = 1; i < e->nfr; i++)
                        if (e->fr[i].m == m)
                                return ev_fail(e, CC_ERR_FORMAT, "macro %s refers to itself", m->name);
                if (e->nfr > EV_MAX_DEPTH)
                        return ev_fail(e, CC_ERR_LIMIT, "macro expansion deeper than %d levels at %s", EV_MAX_DEPTH,
                                       m->name);
                e->fr[e->nfr].s = m->body ? m->body : "";
                e->fr[e->nfr].pos = 0;
                e->fr[e->nfr].len = strlen(e->fr[e->nfr].s);
                e->fr[e->nfr].m = m;
                e->nfr++;
        }
        e->cur = t;
        return 0;
}

static const char *punct_name(int p, char *buf)
{
        switch (p) {
        case P_SHL:
                return "<<";
        case P_SHR:
                return ">>";
        case P_LE:
                return "<=";
        case P_GE:
                return ">=";
        case P_EQ:
                return "==";
        case P_NE:
                return "!=";
        case P_LAND:
                return "&&";
        case P_LOR:
                return "||";
        default:
                buf[0] = (char)p;
                buf[1] = '\0';
                return buf;
        }
}

static int fail_unexpected(struct ev *e, const char *what)
{
        char pb[2];

        switch (e->cur.kind) {
        case T_END:
                return ev_fail(e, CC_ERR_FORMAT, "expected %s but the expression ended", what);
        case T_NUM:
                return ev_fail(e, CC_ERR_FORMAT, "expected %s but found a number", what);
        case T_IDENT:
                return ev_fail(e, CC_ERR_FORMAT, "expected %s but found '%.*s'", what,
                               (int)(e->cur.n > 64 ? 64 : e->cur.n), e->cur.s);
        default:
                return ev_fail(e, CC_ERR_FORMAT, "expected %s but found '%s'", what, punct_name(e->cur.punct, pb));
        }
}

static int is_punct(const struct ev *e, int p)
{
        return e->cur.kind == T_PUNCT && e->cur.punct == p;
}

static int expect(struct ev *e, int p, const char *what)
{
        if (!is_punct(e, p))
                return fail_unexpected(e, what);
        return fetch(e, 1);
}

static int p_cond(struct ev *e, struct val *out);

/* Binary arithmetic with C's conversions; errors instead of undefined
 * behaviour. Unevaluated operands yield 0. */
static int apply(struct ev *e, int op, struct val a, struct val b, struct val *r)
{
        int uns = a.uns || b.uns;
        int64_t x = sval(a), y = sval(b);

        r->uns = uns;
        r->v = 0;
        if (op == P_SHL || op == P_SHR)
                r->uns = a.uns;
        if (op == '<' || op == '>' || op == P_LE || op == P_GE || op == P_EQ || op == P_NE)
                r->uns = 0;
        if (e->skip)
                return 0;
        switch (op) {
        case '*':
                if (uns) {
                        r->v = a.v * b.v;
                } else {
                        if (x > 0 ? (y > 0 ? x > INT64_MAX / y : y < INT64_MIN / x)
                                  : (y > 0 ? x < INT64_MIN / y : (x != 0 && y < INT64_MAX / x)))
                                return ev_fail(e, CC_ERR_FORMAT, "overflow in %" PRId64 " * %" PRId64, x, y);
                        r->v = (uint64_t)(x * y);
                }
                return 0;
        case '/':
        case '%':
                if (b.v == 0)
                        return ev_fail(e, CC_ERR_FORMAT, op == '/' ? "division by zero" : "modulo by zero");
                if (uns) {
                        r->v = op == '/' ? a.v / b.v : a.v % b.v;
                } else {
                        if (x == INT64_MIN && y == -1)
                                return ev_fail(e, CC_ERR_FORMAT, "overflow in %" PRId64 " %c -1", x, op);
                        r->v = (uint64_t)(op == '/' ? x / y : x % y);
                }
                return 0;
        case '+':
                if (uns) {
                        r->v = a.v + b.v;
                } else {
                        if ((y > 0 && x > INT64_MAX - y) || (y < 0 && x < INT64_MIN - y))
                                return ev_fail(e, CC_ERR_FORMAT, "overflow in %" PRId64 " + %" PRId64, x, y);
                        r->v = (uint64_t)(x + y);
                }
                return 0;
        case '-':
                if (uns) {
                        r->v = a.v - b.v;
                } else {
                        if ((y < 0 && x > INT64_MAX + y) || (y > 0 && x < INT64_MIN + y))
                                return ev_fail(e, CC_ERR_FORMAT, "overflow in %" PRId64 " - %" PRId64, x, y);
                        r->v = (uint64_t)(x - y);
                }
                return 0;
        case P_SHL:
        case P_SHR: {
                unsigned n;

                if (!b.uns && y < 0)
                        return ev_fail(e, CC_ERR_FORMAT, "negative shift count %" PRId64, y);
                if (b.v >= 64)
                        return ev_fail(e, CC_ERR_FORMAT, "shift count %" PRIu64 " out of range", b.v);
                n = (unsigned)b.v;
                if (a.uns) {
                        r->v = op == P_SHL ? a.v << n : a.v >> n;
                } else if (op == P_SHL) {
                        if (x < 0)
                                return ev_fail(e, CC_ERR_FORMAT, "left shift of negative value %" PRId64, x);
                        if (x > (INT64_MAX >> n))
                                return ev_fail(e, CC_ERR_FORMAT, "overflow in %" PRId64 " << %u", x, n);
                        r->v = (uint64_t)x << n;
                } else {
                        r->v = (uint64_t)(x >= 0 ? x >> n : ~(~x >> n));
                }
                return 0;
        }
        case '<':
                r->v = uns ? a.v < b.v : x < y;
                return 0;
        case '>':
                r->v = uns ? a.v > b.v : x > y;
                return 0;
        case P_LE:
                r->v = uns ? a.v <= b.v : x <= y;
                return 0;
        case P_GE:
                r->v = uns ? a.v >= b.v : x >= y;
                return 0;
        case P_EQ:
                r->v = a.v == b.v;
                return 0;
        case P_NE:
                r->v = a.v != b.v;
                return 0;
        case '&':
                r->v = a.v & b.v;
                return 0;
        case '^':
                r->v = a.v ^ b.v;
                return 0;
        case '|':
                r->v = a.v | b.v;
                return 0;
        default:
                return ev_fail(e, CC_ERR_FORMAT, "internal: unknown operator");
        }
}

static int p_unary(struct ev *e, struct val *out);

/* defined X / defined ( X ) */
static int p_defined(struct ev *e, struct val *out)
{
        int paren = 0;

        if (fetch(e, 0) < 0)
                return -1;
        if (is_punct(e, '(')) {
                paren = 1;
                if (fetch(e, 0) < 0)
                        return -1;
        }
        if (e->cur.kind != T_IDENT)
                return fail_unexpected(e, "a macro name after 'defined'");
        *out = mk_s(find_n(e->hs, e->nh, e->cur.s, e->cur.n) != NULL);
        if (paren) {
                if (fetch(e, 0) < 0)
                        return -1;
                if (!is_punct(e, ')'))
                        return fail_unexpected(e, "')' after 'defined(NAME'");
        }
        return fetch(e, 1);
}

static int p_primary(struct ev *e, struct val *out)
{
        if (e->cur.kind == T_NUM) {
                *out = e->cur.num;
                return fetch(e, 1);
        }
        if (is_punct(e, '(')) {
                if (fetch(e, 1) < 0 || p_cond(e, out) < 0)
                        return -1;
                return expect(e, ')', "')'");
        }
        if (e->cur.kind == T_IDENT) {
                if (e->cur.n == 7 && memcmp(e->cur.s, "defined", 7) == 0)
                        return p_defined(e, out);
                if (!e->skip) {
                        if (e->cur.fm != NULL)
                                return ev_fail(e, CC_ERR_FORMAT, "function-like macro %s cannot be evaluated",
                                               e->cur.fm->name);
                        return ev_fail(e, CC_ERR_FORMAT, "unknown identifier '%.*s'",
                                       (int)(e->cur.n > 64 ? 64 : e->cur.n), e->cur.s);
                }
                /* not evaluated: an unknown name is 0, a call is skipped */
                *out = mk_s(0);
                if (e->cur.fm != NULL) {
                        int depth = 0;

                        if (fetch(e, 1) < 0)
                                return -1;
                        if (!is_punct(e, '('))
                                return 0;
                        do {
                                if (e->cur.kind == T_END)
                                        return fail_unexpected(e, "')'");
                                if (is_punct(e, '('))
                                        depth++;
                                else if (is_punct(e, ')'))
                                        depth--;
                                if (fetch(e, 0) < 0)
                                        return -1;
                        } while (depth > 0);
                        return 0;
                }
                return fetch(e, 1);
        }
        return fail_unexpected(e, "a number, a name or '('");
}

static int p_unary(struct ev *e, struct val *out)
{
        struct val a;
        int op, rv = -1;

        if (++e->nest > EV_MAX_NEST) {
                ev_fail(e, CC_ERR_LIMIT, "expression nested deeper than %d levels", EV_MAX_NEST);
                goto fail;
        }
        if (e->cur.kind != T_PUNCT ||
            (e->cur.punct != '-' && e->cur.punct != '+' && e->cur.punct != '~' && e->cur.punct != '!')) {
                rv = p_primary(e, out);
                goto fail;
        }
        op = e->cur.punct;
        if (fetch(e, 1) < 0 || p_unary(e, &a) < 0)
                goto fail;
        switch (op) {
        case '-':
                if (!a.uns && sval(a) == INT64_MIN && !e->skip) {
                        ev_fail(e, CC_ERR_FORMAT, "overflow in -(%" PRId64 ")", sval(a));
                        goto fail;
                }
                out->v = (uint64_t)0 - a.v;
                out->uns = a.uns;
                break;
        case '+':
                *out = a;
                break;
        case '~':
                out->v = ~a.v;
                out->uns = a.uns;
                break;
        default:
                *out = mk_s(a.v == 0);
                break;
        }
        rv = 0;
fail:
        e->nest--;
        return rv;
}

/* Binary levels, lowest binding last. */
static int level_of(const struct ev *e)
{
        if (e->cur.kind != T_PUNCT)
                return -1;
        switch (e->cur.punct) {
        case '*':
        case '/':
        case '%':
                return 9;
        case '+':
        case '-':
                return 8;
        case P_SHL:
        case P_SHR:
                return 7;
        case '<':
        case '>':
        case P_LE:
        case P_GE:
                return 6;
        case P_EQ:
        case P_NE:
                return 5;
        case '&':
                return 4;
        case '^':
                return 3;
        case '|':
                return 2;
        case P_LAND:
                return 1;
        case P_LOR:
                return 0;
        default:
                return -1;
        }
}

/* Left-associative binary operators of level >= min (precedence climbing;
 * the recursion is bounded by the number of levels). */
static int p_binary(struct ev *e, int min, struct val *out)
{
        struct val a, b;
        int lv;

        if (p_unary(e, &a) < 0)
                return -1;
        while ((lv = level_of(e)) >= min) {
                int op = e->cur.punct, skipped = 0;

                if (fetch(e, 1) < 0)
                        return -1;
                if ((op == P_LAND && !e->skip && a.v == 0) || (op == P_LOR && !e->skip && a.v != 0)) {
                        e->skip++;
                        skipped = 1;
                }
                if (p_binary(e, lv + 1, &b) < 0)
                        return -1;
                if (skipped)
                        e->skip--;
                if (op == P_LAND) {
                        a = mk_s(a.v != 0 && b.v != 0);
                } else if (op == P_LOR) {
                        a = mk_s(a.v != 0 || b.v != 0);
                } else {
                        struct val r;

                        if (apply(e, op, a, b, &r) < 0)
                                return -1;
                        a = r;
                }
        }
        *out = a;
        return 0;
}

static int p_cond(struct ev *e, struct val *out)
{
        struct val c, a, b;
        int rv = -1, take;

        if (++e->nest > EV_MAX_NEST) {
                ev_fail(e, CC_ERR_LIMIT, "expression nested deeper than %d levels", EV_MAX_NEST);
                goto fail;
        }
        if (p_binary(e, 0, &c) < 0)
                goto fail;
        if (!is_punct(e, '?')) {
                *out = c;
                rv = 0;
                goto fail;
        }
        if (fetch(e, 1) < 0)
                goto fail;
        take = c.v != 0;
        if (!take)
                e->skip++;
        rv = p_cond(e, &a);
        if (!take)
                e->skip--;
        if (rv < 0)
                goto fail;
        rv = -1;
        if (expect(e, ':', "':' in a ?: expression") < 0)
                goto fail;
        if (take)
                e->skip++;
        rv = p_cond(e, &b);
        if (take)
                e->skip--;
        if (rv < 0)
                goto fail;
        *out = take ? a : b;
        out->uns = a.uns || b.uns;
        rv = 0;
fail:
        e->nest--;
        return rv;
}

int cc_header_eval_expr(const cc_header *const *hs, size_t nh, const char *expr, int64_t *out, cc_error *err)
{
        struct ev e;
        struct val v;
        size_t len;

        if (expr == NULL || out == NULL)
                return cc_err(err, CC_ERR_USAGE, "cc_header_eval_expr: no expression");
        len = strlen(expr);
        if (len > EV_MAX_EXPR)
                return cc_err(err, CC_ERR_LIMIT, "expression longer than %zu bytes", EV_MAX_EXPR);
        memset(&e, 0, sizeof(e));
        e.hs = hs;
        e.nh = hs ? nh : 0;
        e.err = err;
        e.fr[0].s = expr;
        e.fr[0].len = len;
        e.nfr = 1;
        if (fetch(&e, 1) < 0)
                return -1;
        if (e.cur.kind == T_END)
                return cc_err(err, CC_ERR_FORMAT, "empty expression");
        if (p_cond(&e, &v) < 0)
                return -1;
        if (e.cur.kind != T_END)
                return fail_unexpected(&e, "an operator or the end of the expression");
        if (v.uns && v.v > (uint64_t)INT64_MAX)
                return cc_err(err, CC_ERR_FORMAT, "value %" PRIu64 " does not fit a signed 64-bit integer", v.v);
        *out = sval(v);
        return 0;
}

int cc_header_eval(const cc_header *const *hs, size_t nh, const char *name, int64_t *out, cc_error *err)
{
        const cc_macro *m;
        size_t i, n;

        if (name == NULL || out == NULL)
                return cc_err(err, CC_ERR_USAGE, "cc_header_eval: no macro name");
        n = strlen(name);
        if (n == 0 || n >= CH_MAX_NAME || !is_ident_start((unsigned char)name[0]))
                return cc_err(err, CC_ERR_USAGE, "'%.64s' is not a macro name", name);
        for (i = 1; i < n; i++)
                if (!is_ident_char((unsigned char)name[i]))
                        return cc_err(err, CC_ERR_USAGE, "'%.64s' is not a macro name", name);
        m = find_n(hs, hs ? nh : 0, name, n);
        if (m == NULL)
                return cc_err(err, CC_ERR_NOTFOUND, "%s is not defined", name);
        if (m->function_like)
                return cc_err(err, CC_ERR_FORMAT, "%s is a function-like macro", name);
        if (m->body == NULL || m->body[0] == '\0')
                return cc_err(err, CC_ERR_FORMAT, "%s is defined with an empty body", name);
        return cc_header_eval_expr(hs, nh, name, out, err);
}
