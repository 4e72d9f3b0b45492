/* Fuzz target: the two parsers of the compile proof's kept builds
 * (probe/compile_cache.c): a compiler's -MD make rule and an entry's
 * `inputs` list. The input is the text given to each. Nothing may crash;
 * every token of the rule is non-empty and holds no unescaped blank; a list
 * taken is as many stamps as paths, each stamp non-empty and without a tab
 * or a newline, each path absolute, and written back it is the same text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "probe/compile_cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        const char *s = (const char *)data;
        cc_strv toks = {0}, stamps = {0}, paths = {0};
        cc_error err = {0};
        cc_buf back = {0};
        size_t i;
        int r;

        if (cc_ccache_depfile(s, size, &toks, &err) < 0) {
                if (err.code != CC_ERR_NOMEM)
                        abort();
        } else {
                for (i = 0; i < toks.n; i++)
                        if (toks.v[i][0] == '\0' || strchr(toks.v[i], '\n') != NULL || strchr(toks.v[i], '\t') != NULL)
                                abort();
        }
        r = cc_ccache_inputs(s, size, &stamps, &paths, &err);
        if (r < 0 && err.code != CC_ERR_NOMEM)
                abort();
        if (r == 1) {
                if (stamps.n != paths.n)
                        abort();
                for (i = 0; i < stamps.n; i++) {
                        const char *p = paths.v[i];

                        if (stamps.v[i][0] == '\0' || strchr(stamps.v[i], '\t') != NULL ||
                            strchr(stamps.v[i], '\n') != NULL || strchr(p, '\n') != NULL ||
                            !(p[0] == '/' || p[0] == '\\' || (p[0] != '\0' && p[1] == ':')))
                                abort();
                        if (cc_buf_printf(&back, &err, "%s\t%s\n", stamps.v[i], p) < 0)
                                break;
                }
                if (i == stamps.n && (back.len != size || (size > 0 && memcmp(back.data, s, size) != 0)))
                        abort();
        }
        cc_buf_free(&back);
        cc_strv_free(&toks);
        cc_strv_free(&stamps);
        cc_strv_free(&paths);
        return 0;
}
