/* Fuzz target: `cudnnctl report` on documents of any shape. The input is
 * documents separated by NUL bytes (without one: one a line, blank lines
 * skipped, as on standard input); each goes through the report's selective
 * reader, then the report is finished twice (the same both times) and
 * rendered as text (plain and coloured, short and verbose) and as HTML.
 * Nothing may crash; each document is a node or unreadable, once; one that
 * is a JSON object the project's reader accepts is never unreadable as "not
 * JSON"; the outputs are valid UTF-8, the plain text has no escape byte and
 * the page no markup of a document's (its one <script> is the renderer's). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudnnctl/report.h"
#include "formats/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_DOCS = 4096 };

static size_t count(const char *s, const char *what)
{
        size_t n = 0;

        while ((s = strstr(s, what)) != NULL) {
                n++;
                s++;
        }
        return n;
}

/* Document i (named "doc:I") of the input, its bytes. */
struct span {
        const char *p;
        size_t n;
};

/* An unreadable document said to be "not JSON" must not be a JSON object. */
static void check_unreadable(const cc_value *un, const struct span *docs, size_t ndocs)
{
        size_t i;

        for (i = 0; i < cc_v_len(un); i++) {
                const char *file = cc_v_get_str(cc_v_at(un, i), "file"), *why = cc_v_get_str(cc_v_at(un, i), "reason");
                cc_value *v = NULL;
                cc_error e = {0};
                unsigned long k;
                char *end;

                if (file == NULL || why == NULL || strncmp(file, "doc:", 4) != 0)
                        abort();
                k = strtoul(file + 4, &end, 10);
                if (*end != '\0' || k >= ndocs)
                        abort();
                if (strncmp(why, "not JSON", 8) != 0)
                        continue;
                if (cc_json_parse(docs[k].p, docs[k].n, 0, &v, &e) == 0 && cc_v_type(v) == CUDNNCTL_OBJECT)
                        abort();
                cc_v_free(v);
        }
}

static void check_text(const char *s, int color)
{
        if (!cc_utf8_valid(s, strlen(s)) || (!color && strchr(s, 0x1b) != NULL))
                abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        const char *s = (const char *)data, *end = s + size, *p;
        char sep = memchr(data, 0, size) != NULL ? '\0' : '\n';
        struct span *docs = malloc(MAX_DOCS * sizeof(*docs));
        cudnnctl_report *r = NULL;
        cc_value *doc = NULL, *again = NULL;
        cc_buf j1 = {0}, j2 = {0};
        cc_error err = {0};
        size_t ndocs = 0, i;
        char *out = NULL;
        int v;

        if (docs == NULL)
                return 0;
        r = cudnnctl_report_new(&err);
        if (r == NULL)
                goto done;
        for (p = s; p <= end && ndocs < MAX_DOCS;) {
                const char *q = memchr(p, sep, (size_t)(end - p));
                size_t n = q != NULL ? (size_t)(q - p) : (size_t)(end - p), k;
                char name[32];

                for (k = 0; sep == '\n' && k < n && strchr(" \t\r", p[k]) != NULL; k++)
                        ;
                if (sep == '\0' || k < n) {
                        docs[ndocs].p = p;
                        docs[ndocs].n = n;
                        snprintf(name, sizeof(name), "doc:%zu", ndocs);
                        ndocs++;
                        if (cudnnctl_report_add_text(r, name, p, n, &err) < 0) {
                                if (err.code != CC_ERR_NOMEM)
                                        abort();
                                goto done;
                        }
                }
                if (q == NULL)
                        break;
                p = q + 1;
        }
        if (cudnnctl_report_finish(r, &doc, &err) < 0 || cudnnctl_report_finish(r, &again, &err) < 0) {
                if (err.code != CC_ERR_NOMEM)
                        abort();
                goto done;
        }
        if ((size_t)cudnnctl_value_int(cudnnctl_value_get(doc, "nodes")) + cc_v_len(cc_v_get(doc, "unreadable")) !=
            ndocs)
                abort();
        check_unreadable(cc_v_get(doc, "unreadable"), docs, ndocs);
        if (cc_json_write(doc, 0, &j1, &err) < 0 || cc_json_write(again, 0, &j2, &err) < 0)
                goto done;
        if (j1.len != j2.len || memcmp(j1.data, j2.data, j1.len) != 0 || !cc_utf8_valid(j1.data, j1.len))
                abort();
        for (v = 0; v < 2; v++) {
                if (cudnnctl_report_text(doc, v, v, &out, &err) < 0) {
                        if (err.code != CC_ERR_NOMEM)
                                abort();
                        goto done;
                }
                check_text(out, v);
                free(out);
                out = NULL;
        }
        if (cudnnctl_report_html(doc, &out, &err) < 0) {
                if (err.code != CC_ERR_NOMEM)
                        abort();
                goto done;
        }
        if (!cc_utf8_valid(out, strlen(out)) || count(out, "<script") != 1)
                abort();
        for (i = 0; out[i] != '\0'; i++)
                if ((unsigned char)out[i] < 0x20 && out[i] != '\n' && out[i] != '\t')
                        abort();
done:
        free(out);
        cc_buf_free(&j1);
        cc_buf_free(&j2);
        cc_v_free(doc);
        cc_v_free(again);
        cudnnctl_report_free(r);
        free(docs);
        return 0;
}
