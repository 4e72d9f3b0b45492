/* Fuzz target: the knowledge base's table reader (cc_kb_parse) and the
 * query entry points that take text. The input is parsed as a table: a
 * refusal is one line naming the table; a table has ncols cells per row,
 * increasing line numbers and readable cells. The first line of the input
 * (up to 64 bytes) is also given to the GPU-name lookup and, as every value,
 * to cudnnctl_compat: it must answer or refuse with a usage error. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "kb/query.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        cc_error err = {0};
        cc_kb_table *t = NULL;
        char word[65];
        size_t r, c, n;

        if (cc_kb_parse("fuzz", (const char *)data, size, &t, &err) < 0) {
                if (t != NULL || strchr(err.msg, '\n') != NULL ||
                    (err.code != CC_ERR_NOMEM && strstr(err.msg, "knowledge table fuzz") == NULL))
                        abort();
        } else {
                if (t == NULL || t->ncols == 0 || t->cols == NULL)
                        abort();
                for (c = 0; c < t->ncols; c++)
                        if (t->cols[c] == NULL || t->cols[c][0] == '\0' || cc_kb_col(t, t->cols[c]) > (long)c)
                                abort();
                for (r = 0; r < t->nrows; r++) {
                        if (r > 0 && t->line[r] <= t->line[r - 1])
                                abort();
                        for (c = 0; c < t->ncols; c++) {
                                const char *s = cc_kb_celli(t, r, c);

                                if (s != NULL && (s[0] == '\0' || strcmp(s, "-") == 0 || strchr(s, '\t') != NULL))
                                        abort();
                        }
                }
                if (cc_kb_celli(t, t->nrows, 0) != NULL)
                        abort();
                cc_kb_table_free(t);
        }

        n = 0;
        while (n < size && n < sizeof(word) - 1 && data[n] != '\n' && data[n] != '\0')
                n++;
        memcpy(word, data, n);
        word[n] = '\0';
        {
                int sm = cc_kb_gpu_sm(word);
                cudnnctl_compat_options o;
                cudnnctl_value *doc = NULL;

                if (sm != -1 && (sm < 10 || sm > 159))
                        abort();
                memset(&o, 0, sizeof(o));
                o.cuda = o.cudnn = o.driver = o.gpu = o.torch = o.tf = word;
                if (cudnnctl_compat(&o, &doc, &err) < 0) {
                        if (doc != NULL || (err.code != CC_ERR_USAGE && err.code != CC_ERR_NOMEM))
                                abort();
                } else if (doc == NULL || cudnnctl_value_get(doc, "answers") == NULL) {
                        abort();
                }
                cudnnctl_value_free(doc);
        }
        return 0;
}
