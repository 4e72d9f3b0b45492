/* Fuzz target: the C header reader and the expression evaluator. The input
 * is parsed as a header (looks_like, parse, find, eval of the version macros
 * and of the first macros defined) and, NUL-terminated, evaluated as an
 * expression against the macros it defined. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/cheader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static const char *const names[] = {"CUDNN_VERSION", "CUDNN_MAJOR",    "CUDNN_MAX_DEVICE_VERSION",
                                            "CUDA_VERSION",  "CUDART_VERSION", "CUDNN_GRAPH_MAJOR"};
        cc_header *h = NULL;
        const cc_header *hs[1];
        cc_error err;
        int64_t v;
        size_t i, n;
        char *expr;

        (void)cc_header_looks_like(data, size);
        if (cc_header_parse((const char *)data, size, &h, &err) == 0) {
                hs[0] = h;
                for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
                        (void)cc_header_find(hs, 1, names[i]);
                        (void)cc_header_eval(hs, 1, names[i], &v, &err);
                }
                for (i = 0; i < h->nmacros && i < 8; i++)
                        (void)cc_header_eval(hs, 1, h->macros[i].name, &v, &err);
                for (i = 0; i < h->includes.n; i++)
                        (void)strlen(h->includes.v[i]);
                for (i = 0; i < h->warnings.n; i++)
                        (void)strlen(h->warnings.v[i]);
        }
        n = size < 4096 ? size : 4096;
        expr = malloc(n + 1);
        if (expr != NULL) {
                memcpy(expr, data, n);
                expr[n] = '\0';
                hs[0] = h;
                (void)cc_header_eval_expr(hs, h ? 1 : 0, expr, &v, &err);
                free(expr);
        }
        cc_header_free(h);
        return 0;
}
