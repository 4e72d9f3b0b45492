/* The message-pattern language of kb/messages.tsv (see explain.h): compile
 * and match, with backtracking bounded per attempt. */
#include "explain/explain.h"

#include <stdlib.h>
#include <string.h>

enum { EL_LIT = 1, EL_GAP, EL_CAP };

enum {
        GAP_MAX = 512,          /* a gap never spans more bytes than this */
        CAP_MAX = 256,          /* nor does a capture */
        STEP_BUDGET = 20000,    /* matching steps per attempt */
        ATTEMPT_BUDGET = 400000 /* anchor hits tried per call */
};

struct elem {
        int kind;
        char *lit; /* EL_LIT: lower case; ' ' means one or more blanks */
        size_t litlen;
        char *key; /* EL_CAP */
        int type;
        size_t capno;
};

struct cc_pattern {
        struct elem *e;
        size_t n;
        size_t ncap;
        char *anchor; /* the first literal up to its first space */
        size_t anchor_len;
};

static int is_space(int c)
{
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static int is_digit(int c)
{
        return c >= '0' && c <= '9';
}

static int is_alnum(int c)
{
        return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

void cc_pattern_free(cc_pattern *p)
{
        size_t i;

        if (p == NULL)
                return;
        for (i = 0; i < p->n; i++) {
                free(p->e[i].lit);
                free(p->e[i].key);
        }
        free(p->e);
        free(p->anchor);
        free(p);
}

static struct elem *add(cc_pattern *p, int kind, cc_error *err)
{
        struct elem *ne = cc_realloc(err, p->e, (p->n + 1) * sizeof(*ne));

        if (ne == NULL)
                return NULL;
        p->e = ne;
        memset(&ne[p->n], 0, sizeof(*ne));
        ne[p->n].kind = kind;
        return &ne[p->n++];
}

static int cap_type(const char *s, size_t n)
{
        static const struct {
                const char *name;
                int type;
        } types[] = {
            {"lib", CC_CAP_LIB}, {"name", CC_CAP_NAME}, {"word", CC_CAP_WORD},
            {"int", CC_CAP_INT}, {"ver", CC_CAP_VER},   {"tuple", CC_CAP_TUPLE},
        };
        size_t i;

        for (i = 0; i < CC_ARRAY_LEN(types); i++)
                if (strlen(types[i].name) == n && memcmp(types[i].name, s, n) == 0)
                        return types[i].type;
        return 0;
}

static size_t nonspace_len(const char *s)
{
        size_t n = 0;

        for (; *s; s++)
                n += *s != ' ';
        return n;
}

int cc_pattern_compile(const char *src, cc_pattern **out, cc_error *err)
{
        cc_pattern *p;
        cc_buf lit = {0};
        const char *s = src;
        size_t i, first;

        *out = NULL;
        p = cc_calloc(err, 1, sizeof(*p));
        if (p == NULL)
                return -1;
        while (*s) {
                if (*s == '*' || *s == '{') {
                        if (lit.len > 0) {
                                struct elem *e = add(p, EL_LIT, err);

                                if (e == NULL)
                                        goto fail;
                                e->litlen = lit.len;
                                e->lit = cc_buf_steal(&lit);
                        }
                        if (*s == '*') {
                                if (add(p, EL_GAP, err) == NULL)
                                        goto fail;
                                s++;
                                continue;
                        }
                        {
                                const char *close = strchr(s, '}'), *colon = strchr(s, ':');
                                struct elem *e;

                                if (close == NULL || colon == NULL || colon > close || colon == s + 1) {
                                        cc_err(err, CC_ERR_FORMAT, "pattern '%s': a capture is not {key:type}", src);
                                        goto fail;
                                }
                                if (p->ncap == CC_PAT_MAX_CAPS) {
                                        cc_err(err, CC_ERR_LIMIT, "pattern '%s': more than %d captures", src,
                                               CC_PAT_MAX_CAPS);
                                        goto fail;
                                }
                                e = add(p, EL_CAP, err);
                                if (e == NULL)
                                        goto fail;
                                e->type = cap_type(colon + 1, (size_t)(close - colon - 1));
                                if (e->type == 0) {
                                        cc_err(err, CC_ERR_FORMAT, "pattern '%s': unknown capture type '%.*s'", src,
                                               (int)(close - colon - 1), colon + 1);
                                        goto fail;
                                }
                                e->key = cc_strndup(err, s + 1, (size_t)(colon - s - 1));
                                if (e->key == NULL)
                                        goto fail;
                                e->capno = p->ncap++;
                                s = close + 1;
                                continue;
                        }
                }
                if (*s == '\\') {
                        if (s[1] == '\0') {
                                cc_err(err, CC_ERR_FORMAT, "pattern '%s': a '\\' at the end", src);
                                goto fail;
                        }
                        s++;
                }
                if (is_space((unsigned char)*s)) {
                        while (is_space((unsigned char)s[1]))
                                s++;
                        if (cc_buf_putc(&lit, ' ', err) < 0)
                                goto fail;
                } else if (cc_buf_putc(&lit, (char)cc_ascii_tolower((unsigned char)*s), err) < 0) {
                        goto fail;
                }
                s++;
        }
        if (lit.len > 0) {
                struct elem *e = add(p, EL_LIT, err);

                if (e == NULL)
                        goto fail;
                e->litlen = lit.len;
                e->lit = cc_buf_steal(&lit);
        }
        /* Shape: [CAP] LIT ...; no capture right after a capture, and a gap is
         * followed by a literal or a capture. */
        first = (p->n > 0 && p->e[0].kind == EL_CAP) ? 1 : 0;
        if (p->n <= first || p->e[first].kind != EL_LIT || nonspace_len(p->e[first].lit) < 3 ||
            p->e[first].lit[0] == ' ') {
                cc_err(err, CC_ERR_FORMAT,
                       "pattern '%s': must start with a literal of 3 or more characters (after at most one capture)",
                       src);
                goto fail;
        }
        for (i = 0; i < p->n; i++) {
                int next = i + 1 < p->n ? p->e[i + 1].kind : 0;

                if ((p->e[i].kind == EL_CAP && next == EL_CAP) ||
                    (p->e[i].kind == EL_GAP && next != EL_LIT && next != EL_CAP)) {
                        cc_err(err, CC_ERR_FORMAT,
                               "pattern '%s': a capture cannot follow a capture, and a '*' needs a literal or a "
                               "capture after it",
                               src);
                        goto fail;
                }
        }
        {
                const char *sp = strchr(p->e[first].lit, ' ');
                size_t n = sp ? (size_t)(sp - p->e[first].lit) : p->e[first].litlen;

                p->anchor = cc_strndup(err, p->e[first].lit, n);
                if (p->anchor == NULL)
                        goto fail;
                p->anchor_len = n;
        }
        *out = p;
        return 0;
fail:
        cc_buf_free(&lit);
        cc_pattern_free(p);
        return -1;
}

char *cc_pattern_fold(const char *text, size_t len, cc_error *err)
{
        char *f = cc_malloc(err, len + 1);
        size_t i;

        if (f == NULL)
                return NULL;
        for (i = 0; i < len; i++)
                f[i] = text[i] == '\0' ? ' ' : (char)cc_ascii_tolower((unsigned char)text[i]);
        f[len] = '\0';
        return f;
}

static int in_class(int type, int c)
{
        switch (type) {
        case CC_CAP_LIB:
        case CC_CAP_NAME:
                return is_alnum(c) || c == '_' || c == '.' || c == '+' || c == '-';
        case CC_CAP_WORD:
                return is_alnum(c) || c == '_';
        case CC_CAP_INT:
                return is_digit(c);
        case CC_CAP_VER:
                return is_digit(c) || c == '.';
        default:
                return 0;
        }
}

static int contains(const char *s, size_t n, const char *needle)
{
        size_t k = strlen(needle), i;

        for (i = 0; i + k <= n; i++)
                if (memcmp(s + i, needle, k) == 0)
                        return 1;
        return 0;
}

/* Is s[0, n) (folded) a valid capture of this type? */
static int valid(int type, const char *s, size_t n)
{
        size_t i;

        if (n == 0)
                return 0;
        switch (type) {
        case CC_CAP_LIB:
        case CC_CAP_NAME:
                if (!(is_alnum((unsigned char)s[0]) || s[0] == '_') || s[n - 1] == '.' || s[n - 1] == '-')
                        return 0;
                return type == CC_CAP_NAME || contains(s, n, ".so") || contains(s, n, ".dll");
        case CC_CAP_INT:
                return n <= 12;
        case CC_CAP_VER:
                if (n > 32 || !is_digit((unsigned char)s[0]) || !is_digit((unsigned char)s[n - 1]))
                        return 0;
                for (i = 1; i < n; i++)
                        if (s[i] == '.' && s[i - 1] == '.')
                                return 0;
                return 1;
        default:
                return 1;
        }
}

/* A tuple "(8, 5, 0)" at s: its length, or 0. */
static size_t tuple_len(const char *s, size_t avail)
{
        size_t i = 0, nums = 0;

        if (avail == 0 || s[0] != '(')
                return 0;
        i = 1;
        for (;;) {
                size_t d = 0;

                while (i < avail && (s[i] == ' ' || s[i] == '\t'))
                        i++;
                while (i < avail && is_digit((unsigned char)s[i]) && d < 9)
                        i++, d++;
                if (d == 0)
                        return 0;
                nums++;
                while (i < avail && (s[i] == ' ' || s[i] == '\t'))
                        i++;
                if (i < avail && s[i] == ')')
                        return nums >= 2 ? i + 1 : 0;
                if (i >= avail || s[i] != ',' || nums == 4)
                        return 0;
                i++;
        }
}

/* The end of the literal matched at i, or -1. */
static long lit_at(const struct elem *e, const char *f, size_t len, size_t i)
{
        size_t k;

        for (k = 0; k < e->litlen; k++) {
                if (e->lit[k] == ' ') {
                        if (i >= len || !is_space((unsigned char)f[i]))
                                return -1;
                        while (i < len && is_space((unsigned char)f[i]))
                                i++;
                } else {
                        if (i >= len || f[i] != e->lit[k])
                                return -1;
                        i++;
                }
        }
        return (long)i;
}

struct mstate {
        const cc_pattern *p;
        const char *f;
        size_t len;
        long budget;
        size_t gaps;
        cc_pmatch *m;
};

/* Match elements k.. at i; the end, or -1. */
static long rec(struct mstate *st, size_t k, size_t i)
{
        const struct elem *e;

        if (--st->budget <= 0)
                return -1;
        if (k == st->p->n)
                return (long)i;
        e = &st->p->e[k];
        if (e->kind == EL_LIT) {
                long j = lit_at(e, st->f, st->len, i);

                return j < 0 ? -1 : rec(st, k + 1, (size_t)j);
        }
        if (e->kind == EL_GAP) {
                size_t j;

                for (j = i; j <= st->len && j - i <= GAP_MAX; j++) {
                        long r;

                        st->gaps += j - i;
                        r = rec(st, k + 1, j);
                        st->gaps -= j - i;
                        if (r >= 0)
                                return r;
                        if (st->budget <= 0 || j == st->len || st->f[j] == '\n')
                                break;
                }
                return -1;
        }
        /* a capture */
        if (e->type == CC_CAP_TUPLE) {
                size_t l = tuple_len(st->f + i, st->len - i);

                if (l == 0)
                        return -1;
                st->m->cap[e->capno].off = i;
                st->m->cap[e->capno].len = l;
                return rec(st, k + 1, i + l);
        } else {
                size_t ext = 0, l;

                while (i + ext < st->len && ext < CAP_MAX && in_class(e->type, (unsigned char)st->f[i + ext]))
                        ext++;
                for (l = ext; l > 0; l--) {
                        long r;

                        if (!valid(e->type, st->f + i, l))
                                continue;
                        st->m->cap[e->capno].off = i;
                        st->m->cap[e->capno].len = l;
                        r = rec(st, k + 1, i + l);
                        if (r >= 0)
                                return r;
                        if (st->budget <= 0)
                                break;
                }
                return -1;
        }
}

/* The first place at or after pos where the anchor occurs (memchr and
 * memcmp: linear, also under sanitizers whose strstr reads the whole rest). */
static const char *find_anchor(const char *f, size_t len, size_t pos, const char *a, size_t alen)
{
        while (pos + alen <= len) {
                const char *hit = memchr(f + pos, a[0], len - pos);

                if (hit == NULL)
                        return NULL;
                pos = (size_t)(hit - f);
                if (pos + alen <= len && memcmp(hit, a, alen) == 0)
                        return hit;
                pos++;
        }
        return NULL;
}

int cc_pattern_find(const cc_pattern *p, const char *folded, size_t len, size_t from, cc_pmatch *m)
{
        size_t pos = from, first = p->e[0].kind == EL_CAP ? 1 : 0, i;
        long attempts = ATTEMPT_BUDGET;

        while (pos < len && attempts-- > 0) {
                const char *hit = find_anchor(folded, len, pos, p->anchor, p->anchor_len);
                struct mstate st;
                size_t s, start;
                long r;

                if (hit == NULL || (size_t)(hit - folded) >= len)
                        return 0;
                s = (size_t)(hit - folded);
                pos = s + 1;
                memset(m, 0, sizeof(*m));
                start = s;
                if (first == 1) {
                        /* the capture before the literal: the longest valid one ending at s */
                        const struct elem *c = &p->e[0];
                        size_t b = s, from_b;

                        while (b > 0 && s - b < CAP_MAX && in_class(c->type, (unsigned char)folded[b - 1]))
                                b--;
                        for (from_b = b; from_b < s; from_b++)
                                if (valid(c->type, folded + from_b, s - from_b))
                                        break;
                        if (from_b >= s)
                                continue;
                        m->cap[0].off = from_b;
                        m->cap[0].len = s - from_b;
                        start = from_b;
                }
                st.p = p;
                st.f = folded;
                st.len = len;
                st.budget = STEP_BUDGET;
                st.gaps = 0;
                st.m = m;
                r = rec(&st, first, s);
                if (r < 0)
                        continue;
                m->start = start;
                m->end = (size_t)r;
                m->score = m->end - m->start - st.gaps;
                m->ncap = p->ncap;
                for (i = 0; i < p->n; i++)
                        if (p->e[i].kind == EL_CAP) {
                                m->cap[p->e[i].capno].key = p->e[i].key;
                                m->cap[p->e[i].capno].type = p->e[i].type;
                        }
                return 1;
        }
        return 0;
}

char *cc_pattern_capture(const cc_pmatch *m, size_t i, const char *text, cc_error *err)
{
        const char *s = text + m->cap[i].off;
        size_t n = m->cap[i].len, k;

        if (m->cap[i].type == CC_CAP_TUPLE) {
                cc_buf b = {0};

                for (k = 0; k < n; k++) {
                        int c = (unsigned char)s[k];

                        if ((is_digit(c) && cc_buf_putc(&b, (char)c, err) < 0) ||
                            (c == ',' && cc_buf_putc(&b, '.', err) < 0)) {
                                cc_buf_free(&b);
                                return NULL;
                        }
                }
                return b.data ? cc_buf_steal(&b) : cc_strdup(err, "");
        }
        if (m->cap[i].type == CC_CAP_VER && memchr(s, '.', n) == NULL && n >= 4 && n <= 6) {
                char buf[16], out[64];
                cudnnctl_ver v;

                memcpy(buf, s, n);
                buf[n] = '\0';
                if (cudnnctl_cudnn_decode(strtol(buf, NULL, 10), &v) == 0)
                        return cc_strdup(err, cudnnctl_ver_str(&v, out, sizeof(out)));
        }
        return cc_strndup(err, s, n);
}
