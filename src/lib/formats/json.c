/* JSON reader, RFC 8259 and nothing more: no comments, no trailing commas,
 * no leading zeros, no NaN or Infinity, no control characters in strings,
 * no lone surrogates, no invalid UTF-8 anywhere in a string.
 *
 * One pass, no recursion: open arrays and objects live on an explicit stack
 * of at most max_depth frames. Every byte is looked at a bounded number of
 * times; object keys are merged (last value wins) in O(n log n) when the
 * object closes. An object key may not hold U+0000 (keys are C strings in a
 * fact tree); string values may.
 *
 * Numbers: integers in int64 range become integers; anything with a
 * fraction or an exponent, or out of range, becomes a double through strtod
 * on a copied token (the program never calls setlocale, so the decimal
 * point is '.'). A number too large for a double is refused. */
#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define JSON_DEFAULT_DEPTH 64

struct frame {
        cc_value *c; /* the open array or object */
        char *key;   /* object: the key of the member being read (owned) */
        int is_obj;
};

struct parser {
        const unsigned char *s;
        size_t n, pos;
        cc_buf str; /* the last string read (scratch) */
        struct frame *st;
        size_t depth, cap, max;
        cc_error *err;
};

static int fail_at(struct parser *p, int code, const char *what, size_t at)
{
        return cc_err(p->err, code, "JSON: %s at byte %zu", what, at);
}

static int fail_end(struct parser *p)
{
        return fail_at(p, CC_ERR_TRUNCATED, "unexpected end of input", p->n);
}

static void skip_ws(struct parser *p)
{
        while (p->pos < p->n) {
                unsigned char c = p->s[p->pos];

                if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
                        break;
                p->pos++;
        }
}

/* Four hex digits of a \u escape from s (have bytes there): 0, -1 for a
 * byte that is not a hex digit, -2 when the input ends first. */
static int hex4(const unsigned char *s, size_t have, uint32_t *out)
{
        uint32_t v = 0;
        size_t i;

        for (i = 0; i < 4; i++) {
                if (i >= have)
                        return -2;
                unsigned char c = s[i];

                v <<= 4;
                if (c >= '0' && c <= '9')
                        v |= (uint32_t)(c - '0');
                else if (c >= 'a' && c <= 'f')
                        v |= (uint32_t)(c - 'a' + 10);
                else if (c >= 'A' && c <= 'F')
                        v |= (uint32_t)(c - 'A' + 10);
                else
                        return -1;
        }
        *out = v;
        return 0;
}

static int put_utf8(cc_buf *b, uint32_t cp, cc_error *err)
{
        unsigned char u[4];
        size_t n;

        if (cp < 0x80) {
                u[0] = (unsigned char)cp;
                n = 1;
        } else if (cp < 0x800) {
                u[0] = (unsigned char)(0xC0 | (cp >> 6));
                u[1] = (unsigned char)(0x80 | (cp & 0x3F));
                n = 2;
        } else if (cp < 0x10000) {
                u[0] = (unsigned char)(0xE0 | (cp >> 12));
                u[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
                u[2] = (unsigned char)(0x80 | (cp & 0x3F));
                n = 3;
        } else {
                u[0] = (unsigned char)(0xF0 | (cp >> 18));
                u[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
                u[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
                u[3] = (unsigned char)(0x80 | (cp & 0x3F));
                n = 4;
        }
        return cc_buf_append(b, u, n, err);
}

/* A \uXXXX escape at p->pos (the backslash), a surrogate pair taken whole. */
static int read_u_escape(struct parser *p)
{
        size_t at = p->pos;
        uint32_t cp, lo;
        int rc;

        rc = hex4(p->s + p->pos + 2, p->n - p->pos - 2, &cp);
        if (rc == -2)
                return fail_end(p);
        if (rc < 0)
                return fail_at(p, CC_ERR_FORMAT, "invalid \\u escape", at);
        p->pos += 6;
        if (cp >= 0xDC00 && cp <= 0xDFFF)
                return fail_at(p, CC_ERR_FORMAT, "lone low surrogate", at);
        if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (p->pos >= p->n)
                        return fail_end(p);
                if (p->s[p->pos] != '\\')
                        return fail_at(p, CC_ERR_FORMAT, "lone high surrogate", at);
                if (p->pos + 1 >= p->n)
                        return fail_end(p);
                if (p->s[p->pos + 1] != 'u')
                        return fail_at(p, CC_ERR_FORMAT, "lone high surrogate", at);
                rc = hex4(p->s + p->pos + 2, p->n - p->pos - 2, &lo);
                if (rc == -2)
                        return fail_end(p);
                if (rc < 0)
                        return fail_at(p, CC_ERR_FORMAT, "invalid \\u escape", p->pos);
                if (lo < 0xDC00 || lo > 0xDFFF)
                        return fail_at(p, CC_ERR_FORMAT, "lone high surrogate", at);
                p->pos += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        return put_utf8(&p->str, cp, p->err);
}

/* Length of a UTF-8 sequence from its lead byte, 0 if it cannot lead. */
static size_t utf8_len(unsigned char c)
{
        if (c >= 0xC2 && c <= 0xDF)
                return 2;
        if (c >= 0xE0 && c <= 0xEF)
                return 3;
        if (c >= 0xF0 && c <= 0xF4)
                return 4;
        return 0;
}

/* The string at p->pos (its opening quote) into p->str. */
static int read_string(struct parser *p)
{
        p->str.len = 0;
        if (p->str.data != NULL)
                p->str.data[0] = '\0';
        p->pos++;
        for (;;) {
                size_t run = p->pos, len;
                unsigned char c;

                while (p->pos < p->n) {
                        c = p->s[p->pos];
                        if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\')
                                break;
                        p->pos++;
                }
                if (p->pos > run && cc_buf_append(&p->str, p->s + run, p->pos - run, p->err) < 0)
                        return -1;
                if (p->pos >= p->n)
                        return fail_end(p);
                c = p->s[p->pos];
                if (c == '"') {
                        p->pos++;
                        return 0;
                }
                if (c < 0x20)
                        return fail_at(p, CC_ERR_FORMAT, "control character in a string", p->pos);
                if (c >= 0x80) {
                        len = utf8_len(c);
                        if (len == 0 || len > p->n - p->pos || !cc_utf8_valid((const char *)p->s + p->pos, len))
                                return fail_at(p, CC_ERR_FORMAT, "invalid UTF-8", p->pos);
                        if (cc_buf_append(&p->str, p->s + p->pos, len, p->err) < 0)
                                return -1;
                        p->pos += len;
                        continue;
                }
                /* a backslash */
                if (p->n - p->pos < 2)
                        return fail_end(p);
                switch (p->s[p->pos + 1]) {
                case '"':
                        c = '"';
                        break;
                case '\\':
                        c = '\\';
                        break;
                case '/':
                        c = '/';
                        break;
                case 'b':
                        c = '\b';
                        break;
                case 'f':
                        c = '\f';
                        break;
                case 'n':
                        c = '\n';
                        break;
                case 'r':
                        c = '\r';
                        break;
                case 't':
                        c = '\t';
                        break;
                case 'u':
                        if (read_u_escape(p) < 0)
                                return -1;
                        continue;
                default:
                        return fail_at(p, CC_ERR_FORMAT, "invalid escape", p->pos);
                }
                if (cc_buf_putc(&p->str, (char)c, p->err) < 0)
                        return -1;
                p->pos += 2;
        }
}

static int is_digit(const struct parser *p)
{
        return p->pos < p->n && p->s[p->pos] >= '0' && p->s[p->pos] <= '9';
}

/* A number at p->pos into *out. */
static int read_number(struct parser *p, cc_value **out)
{
        size_t start = p->pos, len;
        int neg = 0, is_int = 1;
        uint64_t mag = 0, limit;
        char small[64], *tok = NULL;
        double d;

        if (p->s[p->pos] == '-') {
                neg = 1;
                p->pos++;
        }
        if (p->pos >= p->n)
                return fail_end(p);
        if (p->s[p->pos] == '0') {
                p->pos++;
                if (is_digit(p))
                        return fail_at(p, CC_ERR_FORMAT, "leading zero in a number", start);
        } else if (is_digit(p)) {
                while (is_digit(p))
                        p->pos++;
        } else {
                return fail_at(p, CC_ERR_FORMAT, "digit expected", p->pos);
        }
        if (p->pos < p->n && p->s[p->pos] == '.') {
                p->pos++;
                if (p->pos >= p->n)
                        return fail_end(p);
                if (!is_digit(p))
                        return fail_at(p, CC_ERR_FORMAT, "digit expected after '.'", p->pos);
                while (is_digit(p))
                        p->pos++;
                is_int = 0;
        }
        if (p->pos < p->n && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
                p->pos++;
                if (p->pos < p->n && (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
                        p->pos++;
                if (p->pos >= p->n)
                        return fail_end(p);
                if (!is_digit(p))
                        return fail_at(p, CC_ERR_FORMAT, "digit expected in an exponent", p->pos);
                while (is_digit(p))
                        p->pos++;
                is_int = 0;
        }
        len = p->pos - start;
        if (is_int) {
                size_t i;

                limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
                for (i = start + (size_t)neg; i < p->pos; i++) {
                        unsigned dig = (unsigned)(p->s[i] - '0');

                        if (mag > (limit - dig) / 10)
                                break;
                        mag = mag * 10 + dig;
                }
                if (i == p->pos) {
                        if (!neg)
                                *out = cc_v_int((int64_t)mag, p->err);
                        else if (mag == (uint64_t)INT64_MAX + 1)
                                *out = cc_v_int(INT64_MIN, p->err);
                        else
                                *out = cc_v_int(-(int64_t)mag, p->err);
                        return *out == NULL ? -1 : 0;
                }
        }
        if (len < sizeof(small)) {
                memcpy(small, p->s + start, len);
                small[len] = '\0';
                d = strtod(small, NULL);
        } else {
                tok = cc_strndup(p->err, (const char *)p->s + start, len);
                if (tok == NULL)
                        return -1;
                d = strtod(tok, NULL);
                free(tok);
        }
        if (!isfinite(d))
                return fail_at(p, CC_ERR_FORMAT, "number out of the range of a double", start);
        *out = cc_v_double(d, p->err);
        return *out == NULL ? -1 : 0;
}

/* A literal (true, false, null) at p->pos. */
static int read_literal(struct parser *p, const char *word, cc_value **out)
{
        size_t len = strlen(word), have = p->n - p->pos;

        if (have < len) {
                if (memcmp(p->s + p->pos, word, have) == 0)
                        return fail_end(p);
                return fail_at(p, CC_ERR_FORMAT, "invalid literal", p->pos);
        }
        if (memcmp(p->s + p->pos, word, len) != 0)
                return fail_at(p, CC_ERR_FORMAT, "invalid literal", p->pos);
        p->pos += len;
        if (word[0] == 'n')
                *out = cc_v_null(p->err);
        else
                *out = cc_v_bool(word[0] == 't', p->err);
        return *out == NULL ? -1 : 0;
}

/* After '{' or ',' in an object: white space, a string key, white space, ':'.
 * The key goes to the top frame. */
static int read_key(struct parser *p)
{
        struct frame *f = &p->st[p->depth - 1];
        size_t at;

        skip_ws(p);
        if (p->pos >= p->n)
                return fail_end(p);
        if (p->s[p->pos] != '"')
                return fail_at(p, CC_ERR_FORMAT, "string key expected", p->pos);
        at = p->pos;
        if (read_string(p) < 0)
                return -1;
        if (p->str.len > 0 && memchr(p->str.data, '\0', p->str.len) != NULL)
                return fail_at(p, CC_ERR_UNSUPPORTED, "object key holds U+0000", at);
        free(f->key);
        f->key = cc_strdup(p->err, p->str.len > 0 ? p->str.data : "");
        if (f->key == NULL)
                return -1;
        skip_ws(p);
        if (p->pos >= p->n)
                return fail_end(p);
        if (p->s[p->pos] != ':')
                return fail_at(p, CC_ERR_FORMAT, "':' expected", p->pos);
        p->pos++;
        return 0;
}

static int push_frame(struct parser *p, int is_obj)
{
        struct frame *f;

        if (p->depth >= p->max)
                return cc_err(p->err, CC_ERR_LIMIT, "JSON: nested deeper than %zu levels at byte %zu", p->max, p->pos);
        if (p->depth == p->cap) {
                size_t ncap = p->cap ? p->cap * 2 : 8;

                if (ncap > p->max)
                        ncap = p->max;
                f = cc_realloc(p->err, p->st, ncap * sizeof(*f));
                if (f == NULL)
                        return -1;
                p->st = f;
                p->cap = ncap;
        }
        f = &p->st[p->depth];
        f->key = NULL;
        f->is_obj = is_obj;
        f->c = is_obj ? cc_v_object(p->err) : cc_v_array(p->err);
        if (f->c == NULL)
                return -1;
        p->depth++;
        p->pos++;
        return 0;
}

/* Close the top frame; *v receives its container. */
static int pop_frame(struct parser *p, cc_value **v)
{
        struct frame *f = &p->st[p->depth - 1];

        p->pos++;
        if (f->is_obj && cc_v_dedup(f->c, p->err) < 0)
                return -1;
        *v = f->c;
        f->c = NULL;
        free(f->key);
        f->key = NULL;
        p->depth--;
        return 0;
}

/* Read what starts a value: a scalar or an empty container (1, *v set), or
 * an open array or object whose first value comes next (0). */
static int read_value(struct parser *p, cc_value **v)
{
        unsigned char c;
        int is_obj;

        skip_ws(p);
        if (p->pos >= p->n)
                return fail_end(p);
        c = p->s[p->pos];
        switch (c) {
        case '{':
        case '[':
                is_obj = c == '{';
                if (push_frame(p, is_obj) < 0)
                        return -1;
                skip_ws(p);
                if (p->pos < p->n && p->s[p->pos] == (is_obj ? '}' : ']'))
                        return pop_frame(p, v) < 0 ? -1 : 1;
                if (is_obj && read_key(p) < 0)
                        return -1;
                return 0;
        case '"':
                if (read_string(p) < 0)
                        return -1;
                *v = cc_v_strn(p->str.len > 0 ? p->str.data : "", p->str.len, p->err);
                return *v == NULL ? -1 : 1;
        case 't':
                return read_literal(p, "true", v) < 0 ? -1 : 1;
        case 'f':
                return read_literal(p, "false", v) < 0 ? -1 : 1;
        case 'n':
                return read_literal(p, "null", v) < 0 ? -1 : 1;
        default:
                if (c == '-' || (c >= '0' && c <= '9'))
                        return read_number(p, v) < 0 ? -1 : 1;
                return fail_at(p, CC_ERR_FORMAT, "value expected", p->pos);
        }
}

/* Place the finished value *v into the open container and close every
 * container that ends here: 1 when the outermost value is complete (it is
 * in *v), 0 when another value follows a ',' (and, in an object, its key
 * was read). */
static int place_value(struct parser *p, cc_value **v)
{
        while (p->depth > 0) {
                struct frame *f = &p->st[p->depth - 1];
                cc_value *item = *v;
                unsigned char c;
                int rc;

                *v = NULL;
                if (f->is_obj)
                        rc = cc_v_append(f->c, f->key, item, p->err);
                else
                        rc = cc_v_push(f->c, item, p->err);
                if (rc < 0)
                        return -1;
                skip_ws(p);
                if (p->pos >= p->n)
                        return fail_end(p);
                c = p->s[p->pos];
                if (c == ',') {
                        p->pos++;
                        return f->is_obj ? read_key(p) : 0;
                }
                if (c != (f->is_obj ? '}' : ']'))
                        return fail_at(p, CC_ERR_FORMAT, f->is_obj ? "',' or '}' expected" : "',' or ']' expected",
                                       p->pos);
                if (pop_frame(p, v) < 0)
                        return -1;
        }
        return 1;
}

int cc_json_parse(const char *s, size_t n, int max_depth, cc_value **out, cc_error *err)
{
        struct parser p;
        cc_value *v = NULL;
        size_t i;
        int rv = -1, rc;

        memset(&p, 0, sizeof(p));
        p.err = err;
        if (out == NULL || (s == NULL && n > 0))
                return cc_err(err, CC_ERR_USAGE, "internal: cc_json_parse without input or output");
        *out = NULL;
        p.s = (const unsigned char *)s;
        p.n = n;
        p.max = max_depth > 0 ? (size_t)max_depth : JSON_DEFAULT_DEPTH;
        for (;;) {
                rc = read_value(&p, &v);
                if (rc < 0)
                        goto fail;
                if (rc == 0)
                        continue;
                rc = place_value(&p, &v);
                if (rc < 0)
                        goto fail;
                if (rc == 1)
                        break;
        }
        skip_ws(&p);
        if (p.pos != p.n) {
                fail_at(&p, CC_ERR_FORMAT, "unexpected data after the value", p.pos);
                goto fail;
        }
        *out = v;
        v = NULL;
        rv = 0;
fail:
        cc_v_free(v);
        for (i = 0; i < p.depth; i++) {
                cc_v_free(p.st[i].c);
                free(p.st[i].key);
        }
        free(p.st);
        cc_buf_free(&p.str);
        return rv;
}

int cudnnctl_json_parse(const char *text, size_t len, cudnnctl_value **out, cudnnctl_error *err)
{
        if (out == NULL || (text == NULL && len > 0))
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_json_parse: no text or no place for the result");
        return cc_json_parse(text ? text : "", len, 64, out, err);
}
