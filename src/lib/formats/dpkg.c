/* dpkg database reader: the status file (deb822 stanzas) and .list file
 * lists. Pure: parses text held by the caller. Field names compare
 * ASCII-case-insensitively, as dpkg does; values lose their surrounding
 * blanks; CRLF line ends are accepted; a line of only blanks ends a stanza. */
#include "dpkg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STANZAS 1000000u
#define MAX_LINE ((size_t)1 << 20)
#define MAX_WARNINGS 64

enum { F_PACKAGE, F_ARCH, F_VERSION, F_SOURCE, F_STATUS, F_COUNT };

static const char *const field_names[F_COUNT] = {"Package", "Architecture", "Version", "Source", "Status"};

struct span {
        const char *p;
        size_t n;
};

struct stanza {
        struct span f[F_COUNT];
        int seen[F_COUNT];
        int any;     /* a field line was seen */
        int last;    /* field of the previous line (F_COUNT: another field, -1: none) */
        size_t line; /* first line number */
};

struct ctx {
        cc_dpkg_status *s;
        size_t cap;
        cc_error *err;
        int nwarn;
};

static int warn(struct ctx *x, const char *fmt, ...) CC_PRINTF(2, 3);

static int warn(struct ctx *x, const char *fmt, ...)
{
        va_list ap;
        int rc;

        va_start(ap, fmt);
        rc = cc_vwarn(&x->s->warnings, &x->nwarn, MAX_WARNINGS, x->err, fmt, ap);
        va_end(ap);
        return rc;
}

static int is_blank(char c)
{
        return c == ' ' || c == '\t';
}

static void pkg_free(cc_dpkg_pkg *p)
{
        free(p->package);
        free(p->architecture);
        free(p->version);
        free(p->source);
        free(p->status);
}

void cc_dpkg_status_free(cc_dpkg_status *s)
{
        size_t i;

        if (s == NULL)
                return;
        for (i = 0; i < s->n; i++)
                pkg_free(&s->pkgs[i]);
        free(s->pkgs);
        cc_strv_free(&s->warnings);
        free(s);
}

/* A copy of a span, or NULL in *out for an empty one. */
static int dup_span(struct ctx *x, struct span sp, char **out)
{
        *out = NULL;
        if (sp.n == 0)
                return 0;
        *out = cc_strndup(x->err, sp.p, sp.n);
        return *out == NULL ? -1 : 0;
}

/* The n-th (0-based) blank-separated word of a span equals w. */
static int word_is(struct span sp, int n, const char *w)
{
        size_t i = 0, wl = strlen(w);

        for (;;) {
                size_t start;

                while (i < sp.n && is_blank(sp.p[i]))
                        i++;
                if (i >= sp.n)
                        return 0;
                start = i;
                while (i < sp.n && !is_blank(sp.p[i]))
                        i++;
                if (n-- == 0)
                        return i - start == wl && memcmp(sp.p + start, w, wl) == 0;
        }
}

static int finish_stanza(struct ctx *x, struct stanza *st)
{
        cc_dpkg_status *s = x->s;
        cc_dpkg_pkg *p;
        struct span src;

        if (!st->any)
                return 0;
        if (!st->seen[F_PACKAGE] || st->f[F_PACKAGE].n == 0)
                return warn(x, "stanza at line %zu has no Package field; skipped", st->line);
        if (s->n >= MAX_STANZAS)
                return cc_err(x->err, CC_ERR_LIMIT, "too many packages (limit %u)", MAX_STANZAS);
        if (s->n == x->cap) {
                size_t ncap = x->cap ? x->cap * 2 : 64;
                cc_dpkg_pkg *np;

                if (ncap > MAX_STANZAS)
                        ncap = MAX_STANZAS;
                np = cc_realloc(x->err, s->pkgs, ncap * sizeof(*np));
                if (np == NULL)
                        return -1;
                s->pkgs = np;
                x->cap = ncap;
        }
        p = &s->pkgs[s->n];
        memset(p, 0, sizeof(*p));
        /* "Source: name (version)": the name only */
        src = st->f[F_SOURCE];
        if (src.n > 0) {
                size_t i = 0;

                while (i < src.n && !is_blank(src.p[i]) && src.p[i] != '(')
                        i++;
                src.n = i;
        }
        if (dup_span(x, st->f[F_PACKAGE], &p->package) < 0 || dup_span(x, st->f[F_ARCH], &p->architecture) < 0 ||
            dup_span(x, st->f[F_VERSION], &p->version) < 0 || dup_span(x, src, &p->source) < 0 ||
            dup_span(x, st->f[F_STATUS], &p->status) < 0) {
                pkg_free(p);
                return -1;
        }
        p->installed = word_is(st->f[F_STATUS], 2, "installed");
        s->n++;
        return 0;
}

static int field_line(struct ctx *x, struct stanza *st, const char *l, size_t n, size_t lineno)
{
        const char *colon = memchr(l, ':', n);
        size_t nl, i;
        struct span v;
        int f;

        if (colon == NULL || colon == l) {
                st->last = -1;
                return warn(x, "line %zu is not a \"Field: value\" line; ignored", lineno);
        }
        nl = (size_t)(colon - l);
        while (nl > 0 && is_blank(l[nl - 1]))
                nl--;
        v.p = colon + 1;
        v.n = n - (size_t)(v.p - l);
        while (v.n > 0 && is_blank(v.p[0])) {
                v.p++;
                v.n--;
        }
        while (v.n > 0 && is_blank(v.p[v.n - 1]))
                v.n--;
        if (!st->any) {
                st->any = 1;
                st->line = lineno;
        }
        for (f = 0; f < F_COUNT; f++) {
                i = strlen(field_names[f]);
                if (nl == i && cc_strncasecmp(l, field_names[f], i) == 0)
                        break;
        }
        st->last = f;
        if (f == F_COUNT)
                return 0;
        if (st->seen[f])
                return warn(x, "line %zu: a second %s field in the stanza; the first is used", lineno, field_names[f]);
        st->seen[f] = 1;
        st->f[f] = v;
        return 0;
}

int cc_dpkg_status_parse(const char *text, size_t len, cc_dpkg_status **out, cc_error *err)
{
        struct ctx x;
        struct stanza st;
        size_t pos = 0, lineno = 0;
        int rv = -1;

        if (out == NULL)
                return cc_err(err, CC_ERR_USAGE, "cc_dpkg_status_parse: NULL output");
        *out = NULL;
        if (text == NULL && len > 0)
                return cc_err(err, CC_ERR_USAGE, "cc_dpkg_status_parse: NULL text");
        memset(&x, 0, sizeof(x));
        memset(&st, 0, sizeof(st));
        st.last = -1;
        x.err = err;
        x.s = cc_calloc(err, 1, sizeof(*x.s));
        if (x.s == NULL)
                return -1;
        while (pos < len) {
                const char *l = text + pos, *nl = memchr(l, '\n', len - pos);
                size_t n = nl ? (size_t)(nl - l) : len - pos, i;

                pos += n + (nl ? 1 : 0);
                lineno++;
                if (n > MAX_LINE) {
                        cc_err(err, CC_ERR_LIMIT, "line %zu is longer than %zu bytes", lineno, MAX_LINE);
                        goto done;
                }
                if (n > 0 && l[n - 1] == '\r')
                        n--;
                if (memchr(l, '\0', n) != NULL) {
                        /* not text: values are C strings */
                        st.last = -1;
                        if (warn(&x, "line %zu holds a NUL byte; ignored", lineno) < 0)
                                goto done;
                        continue;
                }
                for (i = 0; i < n && is_blank(l[i]); i++)
                        ;
                if (i == n) { /* blank line: end of stanza */
                        if (finish_stanza(&x, &st) < 0)
                                goto done;
                        memset(&st, 0, sizeof(st));
                        st.last = -1;
                        continue;
                }
                if (i > 0) { /* continuation line */
                        if (st.last < 0) {
                                if (warn(&x, "line %zu: a continuation line without a field; ignored", lineno) < 0)
                                        goto done;
                        } else if (st.last < F_COUNT) {
                                if (warn(&x, "line %zu: the %s field has a continuation line; ignored", lineno,
                                         field_names[st.last]) < 0)
                                        goto done;
                        }
                        continue;
                }
                if (field_line(&x, &st, l, n, lineno) < 0)
                        goto done;
        }
        if (finish_stanza(&x, &st) < 0)
                goto done;
        *out = x.s;
        x.s = NULL;
        rv = 0;
done:
        cc_dpkg_status_free(x.s);
        return rv;
}

const cc_dpkg_pkg *cc_dpkg_find(const cc_dpkg_status *s, const char *package, const char *arch)
{
        const cc_dpkg_pkg *first = NULL;
        size_t i;

        if (s == NULL || package == NULL)
                return NULL;
        for (i = 0; i < s->n; i++) {
                const cc_dpkg_pkg *p = &s->pkgs[i];

                if (strcmp(p->package, package) != 0)
                        continue;
                if (arch != NULL && (p->architecture == NULL || strcmp(p->architecture, arch) != 0))
                        continue;
                if (p->installed)
                        return p;
                if (first == NULL)
                        first = p;
        }
        return first;
}

int cc_dpkg_list_name(const char *basename, char *package, size_t psize, char *arch, size_t asize)
{
        size_t n, plen, alen;
        const char *colon;

        if (basename == NULL || package == NULL || arch == NULL)
                return -1;
        n = strlen(basename);
        if (n <= 5 || memcmp(basename + n - 5, ".list", 5) != 0)
                return -1;
        n -= 5;
        colon = memchr(basename, ':', n);
        plen = colon ? (size_t)(colon - basename) : n;
        alen = colon ? n - plen - 1 : 0;
        if (plen == 0 || (colon && alen == 0) || memchr(basename, '/', n) != NULL)
                return -1;
        if (colon && memchr(colon + 1, ':', alen) != NULL)
                return -1;
        if (plen + 1 > psize || alen + 1 > asize)
                return -1;
        memcpy(package, basename, plen);
        package[plen] = '\0';
        if (colon)
                memcpy(arch, colon + 1, alen);
        arch[alen] = '\0';
        return 0;
}

int cc_dpkg_list_each(const char *text, size_t len, int (*fn)(void *ctx, const char *path, size_t n), void *ctx)
{
        char stackbuf[1024], *buf = stackbuf;
        size_t cap = sizeof(stackbuf), pos = 0;
        int rv = 0;

        if (fn == NULL || (text == NULL && len > 0))
                return -1;
        while (pos < len) {
                const char *l = text + pos, *nl = memchr(l, '\n', len - pos);
                size_t n = nl ? (size_t)(nl - l) : len - pos;

                pos += n + (nl ? 1 : 0);
                if (n > 0 && l[n - 1] == '\r')
                        n--;
                if (n == 0 || l[0] != '/' || memchr(l, '\0', n) != NULL)
                        continue;
                while (n > 1 && l[n - 1] == '/')
                        n--;
                if (n + 1 > cap) {
                        char *nb = malloc(n + 1);

                        if (nb == NULL) {
                                rv = -1;
                                break;
                        }
                        if (buf != stackbuf)
                                free(buf);
                        buf = nb;
                        cap = n + 1;
                }
                memcpy(buf, l, n);
                buf[n] = '\0';
                rv = fn(ctx, buf, n);
                if (rv != 0)
                        break;
        }
        if (buf != stackbuf)
                free(buf);
        return rv;
}
