/* Fuzz target: the COFF import library (.lib archive) reader. */
#include <stdint.h>
#include <string.h>

#include "formats/pe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        cc_error err = {0};
        cc_implib *lib = NULL;
        volatile size_t sink = 0;
        size_t i;

        (void)cc_implib_is(data, size);
        if (cc_implib_parse(data, size, &lib, &err) < 0) {
                sink += strlen(err.msg);
                return 0;
        }
        for (i = 0; i < lib->dlls.n; i++)
                sink += strlen(lib->dlls.v[i]);
        sink += lib->nsymbols + lib->nmembers + lib->machine;
        (void)sink;
        cc_implib_free(lib);
        return 0;
}
