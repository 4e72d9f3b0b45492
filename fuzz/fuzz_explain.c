/* Fuzz target: the input as a message or log for cudnnctl_explain (both
 * numberings, both systems) and its text rendering; and as a pattern of
 * the message language (compiled, then matched against itself). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "explain/explain.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        cudnnctl_explain_options o = {0, 0, 0};
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        char *text = malloc(size + 1), *s = NULL, *folded;
        cc_pattern *p = NULL;
        size_t sum = 0;

        if (text == NULL)
                return 0;
        memcpy(text, data, size);
        text[size] = '\0';
        o.input_len = size;
        o.major = size % 3 == 0 ? 0 : size % 3 == 1 ? 8 : 9;
        o.system = (int)(size % 3);
        if (cudnnctl_explain(text, &o, &doc, &err) == 0) {
                sum += cudnnctl_value_len(cudnnctl_value_get(doc, "matches"));
                if (cudnnctl_explain_text(doc, 1, (int)(size & 1), &s, &err) == 0)
                        sum += strlen(s);
                cudnnctl_free(s);
                cudnnctl_value_free(doc);
        }
        /* the bytes up to the first NUL as a pattern, matched against the whole input */
        if (cc_pattern_compile(text, &p, &err) == 0) {
                cc_pmatch m;

                folded = cc_pattern_fold(text, size, &err);
                if (folded != NULL && cc_pattern_find(p, folded, size, 0, &m)) {
                        size_t i;

                        sum += m.end - m.start;
                        for (i = 0; i < m.ncap; i++) {
                                char *v = cc_pattern_capture(&m, i, text, &err);

                                sum += v ? strlen(v) : 0;
                                free(v);
                        }
                }
                free(folded);
                cc_pattern_free(p);
        }
        free(text);
        return sum == (size_t)-1;
}
