/* Python package metadata of a *.dist-info directory.
 *
 * METADATA (core metadata, RFC 822 style): "Field: value" lines up to the
 * first empty line (the description follows it). Field names match without
 * regard to case; a line starting with a blank continues the field before
 * it (joined with one space). Name and Version are required; a line that is
 * not a field is skipped with a warning; a NUL byte or invalid UTF-8 in the
 * header part is an error (the file is not text).
 *
 * RECORD: CSV per RFC 4180 (quoted fields, "" for a quote, CRLF or LF rows,
 * quoted fields may hold commas and newlines), three columns path,hash,size.
 * A row with another column count or a path-less row is skipped with a
 * warning; an unterminated quote or text after a closing quote is an error. */
#include "distinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DI_MAX_INPUT ((size_t)64 << 20)
#define DI_MAX_VALUE ((size_t)64 << 10)
#define DI_MAX_REQUIRES 10000
#define DI_MAX_WARNINGS 100
#define DI_MAX_ENTRIES 1000000
#define DI_MAX_FIELD ((size_t)64 << 10)

static int warn(cc_strv *w, cc_error *err, const char *fmt, ...) CC_PRINTF(3, 4);

static int warn(cc_strv *w, cc_error *err, const char *fmt, ...)
{
        char msg[400];
        va_list ap;

        if (w->n > DI_MAX_WARNINGS)
                return 0;
        if (w->n == DI_MAX_WARNINGS)
                return cc_strv_push(w, "more warnings not shown", err);
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        return cc_strv_push(w, msg, err);
}

static size_t skip_bom(const char *text, size_t len)
{
        return len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

/* ---- METADATA --------------------------------------------------------- */

int cc_metadata_looks_like(const uint8_t *data, size_t size)
{
        static const char key[] = "Metadata-Version:";
        size_t off;

        if (data == NULL)
                return 0;
        off = skip_bom((const char *)data, size);
        return size - off >= sizeof(key) - 1 && cc_strncasecmp((const char *)data + off, key, sizeof(key) - 1) == 0;
}

void cc_metadata_free(cc_metadata *m)
{
        if (m == NULL)
                return;
        free(m->metadata_version);
        free(m->name);
        free(m->version);
        free(m->summary);
        cc_strv_free(&m->requires_dist);
        cc_strv_free(&m->warnings);
        free(m);
}

static int valid_field_name(const char *s, size_t n)
{
        size_t i;

        if (n == 0)
                return 0;
        for (i = 0; i < n; i++) {
                char c = s[i];

                if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                      c == '_' || c == '.'))
                        return 0;
        }
        return 1;
}

static int is_blank(char c)
{
        return c == ' ' || c == '\t';
}

/* The field being collected (its name and unfolded value). */
struct field {
        const char *name;
        size_t nlen;
        int line;
        cc_buf val;
        int toolong;
};

static int field_add(struct field *f, const char *s, size_t n, cc_error *err)
{
        while (n > 0 && is_blank(*s)) {
                s++;
                n--;
        }
        while (n > 0 && is_blank(s[n - 1]))
                n--;
        if (n == 0 || f->toolong)
                return 0;
        if (f->val.len + n + 1 > DI_MAX_VALUE) {
                f->toolong = 1;
                return 0;
        }
        if (f->val.len > 0 && cc_buf_putc(&f->val, ' ', err) < 0)
                return -1;
        return cc_buf_append(&f->val, s, n, err);
}

static int field_is(const struct field *f, const char *name)
{
        return strlen(name) == f->nlen && cc_strncasecmp(f->name, name, f->nlen) == 0;
}

/* Store the finished field f into m. */
static int field_done(cc_metadata *m, struct field *f, cc_error *err)
{
        char **slot = NULL;
        const char *v;
        int rv = -1;

        if (f->name == NULL)
                return 0;
        v = f->val.data ? f->val.data : "";
        if (f->toolong) {
                if (warn(&m->warnings, err, "line %d: %.*s value longer than %zu bytes; ignored", f->line,
                         (int)(f->nlen > 64 ? 64 : f->nlen), f->name, DI_MAX_VALUE) < 0)
                        goto fail;
        } else if (field_is(f, "Metadata-Version")) {
                slot = &m->metadata_version;
        } else if (field_is(f, "Name")) {
                slot = &m->name;
        } else if (field_is(f, "Version")) {
                slot = &m->version;
        } else if (field_is(f, "Summary")) {
                slot = &m->summary;
        } else if (field_is(f, "Requires-Dist")) {
                if (m->requires_dist.n >= DI_MAX_REQUIRES) {
                        if (warn(&m->warnings, err, "line %d: more than %d Requires-Dist fields", f->line,
                                 DI_MAX_REQUIRES) < 0)
                                goto fail;
                } else if (v[0] != '\0' && cc_strv_push(&m->requires_dist, v, err) < 0) {
                        goto fail;
                }
        }
        if (slot != NULL) {
                if (*slot != NULL) {
                        if (warn(&m->warnings, err, "line %d: repeated %.*s field ignored", f->line, (int)f->nlen,
                                 f->name) < 0)
                                goto fail;
                } else {
                        *slot = cc_strdup(err, v);
                        if (*slot == NULL)
                                goto fail;
                }
        }
        rv = 0;
fail:
        cc_buf_free(&f->val);
        memset(f, 0, sizeof(*f));
        return rv;
}

int cc_metadata_parse(const char *text, size_t len, cc_metadata **out, cc_error *err)
{
        cc_metadata *m = NULL;
        struct field f;
        size_t pos;
        int line = 0, rv = -1;

        memset(&f, 0, sizeof(f));
        if (out == NULL || (text == NULL && len != 0))
                return cc_err(err, CC_ERR_USAGE, "cc_metadata_parse: no input");
        *out = NULL;
        if (len == 0)
                return cc_err(err, CC_ERR_FORMAT, "empty METADATA");
        if (len > DI_MAX_INPUT)
                return cc_err(err, CC_ERR_LIMIT, "METADATA larger than %zu bytes", DI_MAX_INPUT);
        m = cc_calloc(err, 1, sizeof(*m));
        if (m == NULL)
                goto fail;
        pos = skip_bom(text, len);
        while (pos < len) {
                const char *s = text + pos, *nl = memchr(s, '\n', len - pos), *colon;
                size_t n = nl ? (size_t)(nl - s) : len - pos;

                pos += n + (nl != NULL);
                line++;
                if (n > 0 && s[n - 1] == '\r')
                        n--;
                if (memchr(s, '\0', n) != NULL) {
                        cc_err(err, CC_ERR_FORMAT, "line %d: NUL byte (not a text file)", line);
                        goto fail;
                }
                if (!cc_utf8_valid(s, n)) {
                        cc_err(err, CC_ERR_FORMAT, "line %d: not UTF-8", line);
                        goto fail;
                }
                if (n == 0)
                        break; /* the description follows */
                if (is_blank(s[0])) {
                        if (f.name == NULL) {
                                if (warn(&m->warnings, err, "line %d: continuation line without a field", line) < 0)
                                        goto fail;
                        } else if (field_add(&f, s, n, err) < 0) {
                                goto fail;
                        }
                        continue;
                }
                if (field_done(m, &f, err) < 0)
                        goto fail;
                colon = memchr(s, ':', n);
                if (colon == NULL || !valid_field_name(s, (size_t)(colon - s))) {
                        if (warn(&m->warnings, err, "line %d: not a \"Field: value\" line", line) < 0)
                                goto fail;
                        continue;
                }
                f.name = s;
                f.nlen = (size_t)(colon - s);
                f.line = line;
                if (field_add(&f, colon + 1, n - f.nlen - 1, err) < 0)
                        goto fail;
        }
        if (field_done(m, &f, err) < 0)
                goto fail;
        if (m->name == NULL || m->name[0] == '\0') {
                cc_err(err, CC_ERR_FORMAT, "no Name field");
                goto fail;
        }
        if (m->version == NULL || m->version[0] == '\0') {
                cc_err(err, CC_ERR_FORMAT, "no Version field");
                goto fail;
        }
        if (m->metadata_version == NULL && warn(&m->warnings, err, "no Metadata-Version field") < 0)
                goto fail;
        *out = m;
        m = NULL;
        rv = 0;
fail:
        cc_buf_free(&f.val);
        cc_metadata_free(m);
        return rv;
}

/* ---- RECORD ----------------------------------------------------------- */

void cc_record_free(cc_record *r)
{
        size_t i;

        if (r == NULL)
                return;
        for (i = 0; i < r->n; i++) {
                free(r->entries[i].path);
                free(r->entries[i].hash);
        }
        free(r->entries);
        cc_strv_free(&r->warnings);
        free(r);
}

/* One CSV row starting at *pos: up to 3 fields into f[] (NULL-terminated
 * strings, owned by the caller), the number of fields in *nf (more than 3
 * are counted but not kept). Advances *pos past the row's line end. */
static int csv_row(const char *t, size_t len, size_t *pos, int *line, char *f[3], size_t *nf, cc_error *err)
{
        cc_buf b = {0};
        size_t p = *pos;
        int startline = *line, rv = -1;

        *nf = 0;
        for (;;) {
                b.len = 0;
                if (b.data)
                        b.data[0] = '\0';
                if (p < len && t[p] == '"') {
                        p++;
                        for (;;) {
                                const char *q;
                                size_t run;

                                if (p >= len) {
                                        cc_err(err, CC_ERR_FORMAT, "line %d: unterminated quoted field", startline);
                                        goto fail;
                                }
                                q = memchr(t + p, '"', len - p);
                                run = q ? (size_t)(q - (t + p)) : len - p;
                                if (b.len + run >= DI_MAX_FIELD) {
                                        cc_err(err, CC_ERR_LIMIT, "line %d: field longer than %zu bytes", startline,
                                               DI_MAX_FIELD);
                                        goto fail;
                                }
                                if (cc_buf_append(&b, t + p, run, err) < 0)
                                        goto fail;
                                for (size_t i = 0; i < run; i++)
                                        if (t[p + i] == '\n')
                                                (*line)++;
                                p += run;
                                if (q == NULL)
                                        continue;
                                p++; /* the quote */
                                if (p < len && t[p] == '"') {
                                        if (cc_buf_putc(&b, '"', err) < 0)
                                                goto fail;
                                        p++;
                                        continue;
                                }
                                break;
                        }
                        if (p < len && t[p] != ',' && t[p] != '\n' && t[p] != '\r') {
                                cc_err(err, CC_ERR_FORMAT, "line %d: text after a closing quote", *line);
                                goto fail;
                        }
                } else {
                        size_t st = p;

                        while (p < len && t[p] != ',' && t[p] != '\n' && t[p] != '\r') {
                                if (t[p] == '"') {
                                        cc_err(err, CC_ERR_FORMAT, "line %d: quote inside an unquoted field", *line);
                                        goto fail;
                                }
                                p++;
                        }
                        if (p - st >= DI_MAX_FIELD) {
                                cc_err(err, CC_ERR_LIMIT, "line %d: field longer than %zu bytes", *line, DI_MAX_FIELD);
                                goto fail;
                        }
                        if (cc_buf_append(&b, t + st, p - st, err) < 0)
                                goto fail;
                }
                if (*nf < 3) {
                        f[*nf] = b.data ? cc_strndup(err, b.data, b.len) : cc_strdup(err, "");
                        if (f[*nf] == NULL)
                                goto fail;
                }
                (*nf)++;
                if (p < len && t[p] == ',') {
                        p++;
                        continue;
                }
                break;
        }
        if (p < len && t[p] == '\r')
                p++;
        if (p < len && t[p] == '\n')
                p++;
        (*line)++;
        *pos = p;
        rv = 0;
fail:
        cc_buf_free(&b);
        return rv;
}

static int64_t parse_size(const char *s)
{
        int64_t v = 0;
        size_t i;

        if (s[0] == '\0')
                return -1;
        for (i = 0; s[i] != '\0'; i++) {
                if (s[i] < '0' || s[i] > '9' || v > (INT64_MAX - 9) / 10)
                        return -2;
                v = v * 10 + (s[i] - '0');
        }
        return v;
}

int cc_record_parse(const char *text, size_t len, cc_record **out, cc_error *err)
{
        cc_record *r = NULL;
        char *f[3] = {NULL, NULL, NULL};
        size_t pos = 0, cap = 0, nf, i;
        int line = 1, rv = -1;

        if (out == NULL || (text == NULL && len != 0))
                return cc_err(err, CC_ERR_USAGE, "cc_record_parse: no input");
        *out = NULL;
        if (len > DI_MAX_INPUT)
                return cc_err(err, CC_ERR_LIMIT, "RECORD larger than %zu bytes", DI_MAX_INPUT);
        if (len != 0 && memchr(text, '\0', len) != NULL)
                return cc_err(err, CC_ERR_FORMAT, "NUL byte (not a text file)");
        r = cc_calloc(err, 1, sizeof(*r));
        if (r == NULL)
                goto fail;
        pos = skip_bom(text, len);
        while (pos < len) {
                int row = line;
                cc_record_entry *e;
                int64_t size;

                if (text[pos] == '\n' || text[pos] == '\r') {
                        if (text[pos] == '\r' && pos + 1 < len && text[pos + 1] == '\n')
                                pos++;
                        pos++;
                        line++;
                        continue;
                }
                if (csv_row(text, len, &pos, &line, f, &nf, err) < 0)
                        goto fail;
                if (nf != 3 || f[0][0] == '\0') {
                        int wr = nf != 3 ? warn(&r->warnings, err, "line %d: %zu fields, not path,hash,size; skipped",
                                                row, nf)
                                         : warn(&r->warnings, err, "line %d: no path; skipped", row);

                        if (wr < 0)
                                goto fail;
                        goto next;
                }
                if (!cc_utf8_valid(f[0], strlen(f[0])) &&
                    warn(&r->warnings, err, "line %d: path is not UTF-8", row) < 0)
                        goto fail;
                size = parse_size(f[2]);
                if (size == -2) {
                        if (warn(&r->warnings, err, "line %d: size '%.32s' is not a number", row, f[2]) < 0)
                                goto fail;
                        size = -1;
                }
                if (f[1][0] != '\0' && strchr(f[1], '=') == NULL &&
                    warn(&r->warnings, err, "line %d: hash '%.32s' is not ALGORITHM=DIGEST", row, f[1]) < 0)
                        goto fail;
                if (r->n >= DI_MAX_ENTRIES) {
                        cc_err(err, CC_ERR_LIMIT, "more than %d RECORD rows", DI_MAX_ENTRIES);
                        goto fail;
                }
                if (r->n == cap) {
                        size_t ncap = cap ? cap * 2 : 64;
                        cc_record_entry *ne = cc_realloc(err, r->entries, ncap * sizeof(*ne));

                        if (ne == NULL)
                                goto fail;
                        r->entries = ne;
                        cap = ncap;
                }
                e = &r->entries[r->n++];
                e->path = f[0];
                e->size = size;
                if (f[1][0] != '\0') {
                        e->hash = f[1];
                        f[1] = NULL;
                } else {
                        e->hash = NULL;
                }
                f[0] = NULL;
        next:
                for (i = 0; i < 3; i++) {
                        free(f[i]);
                        f[i] = NULL;
                }
        }
        *out = r;
        r = NULL;
        rv = 0;
fail:
        for (i = 0; i < 3; i++)
                free(f[i]);
        cc_record_free(r);
        return rv;
}
