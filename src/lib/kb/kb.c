/* The knowledge base's table reader (see kb.h). */
#include "kb/kb.h"

#include <stdlib.h>
#include <string.h>

enum { KB_MAX_COLS = 64, KB_MAX_TABLES = 64 };

void cc_kb_table_free(cc_kb_table *t)
{
        size_t i;

        if (t == NULL)
                return;
        for (i = 0; i < t->ncols; i++)
                free(t->cols[i]);
        for (i = 0; i < t->nrows * t->ncols; i++)
                free(t->cells[i]);
        free(t->cols);
        free(t->cells);
        free(t->line);
        free(t);
}

/* Split one line into at most KB_MAX_COLS cells (pointers into line). */
static size_t split(char *line, char **cells)
{
        size_t n = 0;
        char *p = line;

        for (;;) {
                char *tab = strchr(p, '\t');

                if (n == KB_MAX_COLS)
                        return KB_MAX_COLS + 1;
                cells[n++] = p;
                if (tab == NULL)
                        break;
                *tab = '\0';
                p = tab + 1;
        }
        return n;
}

int cc_kb_parse(const char *name, const char *text, size_t size, cc_kb_table **out, cc_error *err)
{
        cc_kb_table *t;
        size_t pos = 0, lineno = 0, cap = 0;
        char *line = NULL;
        int rc = -1;

        *out = NULL;
        t = cc_calloc(err, 1, sizeof(*t));
        if (t == NULL)
                return -1;
        t->name = name;
        while (pos < size) {
                const char *nl = memchr(text + pos, '\n', size - pos);
                size_t len = nl ? (size_t)(nl - (text + pos)) : size - pos;
                char *cells[KB_MAX_COLS + 1];
                size_t n, i;

                lineno++;
                free(line);
                line = cc_strndup(err, text + pos, len);
                pos += len + (nl != NULL);
                if (line == NULL)
                        goto out;
                if (len > 0 && line[len - 1] == '\r')
                        line[--len] = '\0';
                if (memchr(line, '\0', len) != NULL) {
                        cc_err(err, CC_ERR_FORMAT, "knowledge table %s line %zu: a NUL byte", name, lineno);
                        goto out;
                }
                if (len == 0 || line[0] == '#')
                        continue;
                n = split(line, cells);
                if (n > KB_MAX_COLS) {
                        cc_err(err, CC_ERR_LIMIT, "knowledge table %s line %zu: more than %d columns", name, lineno,
                               KB_MAX_COLS);
                        goto out;
                }
                if (t->cols == NULL) {
                        t->cols = cc_calloc(err, n, sizeof(char *));
                        if (t->cols == NULL)
                                goto out;
                        for (i = 0; i < n; i++) {
                                if (cells[i][0] == '\0') {
                                        cc_err(err, CC_ERR_FORMAT,
                                               "knowledge table %s line %zu: column %zu has no name", name, lineno,
                                               i + 1);
                                        goto out;
                                }
                                if ((t->cols[i] = cc_strdup(err, cells[i])) == NULL)
                                        goto out;
                                t->ncols = i + 1;
                        }
                        continue;
                }
                if (n != t->ncols) {
                        cc_err(err, CC_ERR_FORMAT, "knowledge table %s line %zu: %zu cells, the header names %zu", name,
                               lineno, n, t->ncols);
                        goto out;
                }
                if (t->nrows == cap) {
                        size_t ncap = cap ? cap * 2 : 32;
                        char **nc = cc_realloc(err, t->cells, ncap * t->ncols * sizeof(char *));
                        size_t *nlines;

                        if (nc == NULL)
                                goto out;
                        t->cells = nc;
                        nlines = cc_realloc(err, t->line, ncap * sizeof(size_t));
                        if (nlines == NULL)
                                goto out;
                        t->line = nlines;
                        cap = ncap;
                }
                for (i = 0; i < n; i++) {
                        char **slot = &t->cells[t->nrows * t->ncols + i];

                        *slot = NULL;
                        if (cells[i][0] == '\0' || strcmp(cells[i], "-") == 0)
                                continue;
                        if ((*slot = cc_strdup(err, cells[i])) == NULL) {
                                /* free the row's cells so far */
                                while (i-- > 0)
                                        free(t->cells[t->nrows * t->ncols + i]);
                                goto out;
                        }
                }
                t->line[t->nrows++] = lineno;
        }
        if (t->cols == NULL) {
                cc_err(err, CC_ERR_FORMAT, "knowledge table %s: no header line", name);
                goto out;
        }
        *out = t;
        t = NULL;
        rc = 0;
out:
        free(line);
        cc_kb_table_free(t);
        return rc;
}

static struct {
        const char *name;
        cc_kb_table *t;
} cache[KB_MAX_TABLES];

const cc_kb_table *cc_kb_get(const char *name, cc_error *err)
{
        size_t i;

        for (i = 0; i < KB_MAX_TABLES && cache[i].name != NULL; i++)
                if (strcmp(cache[i].name, name) == 0)
                        return cache[i].t;
        if (i == KB_MAX_TABLES) {
                cc_err(err, CC_ERR_LIMIT, "knowledge table %s: more than %d tables", name, KB_MAX_TABLES);
                return NULL;
        }
        for (const struct cc_kb_blob *b = cc_kb_blobs; b->name != NULL; b++) {
                cc_kb_table *t;

                if (strcmp(b->name, name) != 0)
                        continue;
                if (cc_kb_parse(b->name, b->data, b->size, &t, err) < 0)
                        return NULL;
                cache[i].name = b->name;
                cache[i].t = t;
                return t;
        }
        cc_err(err, CC_ERR_NOTFOUND, "knowledge table %s: not compiled in", name);
        return NULL;
}

long cc_kb_col(const cc_kb_table *t, const char *col)
{
        size_t i;

        for (i = 0; t != NULL && i < t->ncols; i++)
                if (strcmp(t->cols[i], col) == 0)
                        return (long)i;
        return -1;
}

const char *cc_kb_celli(const cc_kb_table *t, size_t r, size_t c)
{
        if (t == NULL || r >= t->nrows || c >= t->ncols)
                return NULL;
        return t->cells[r * t->ncols + c];
}

const char *cc_kb_cell(const cc_kb_table *t, size_t r, const char *col)
{
        long c = cc_kb_col(t, col);

        return c < 0 ? NULL : cc_kb_celli(t, r, (size_t)c);
}
