/* Fuzz target: the input, NUL-terminated, as a file name for the library,
 * archive and dist-info name parsers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/names.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        cc_libname l;
        cc_archname a;
        cc_distname d;
        size_t n = size < 1024 ? size : 1024, sum = 0;
        char *name = malloc(n + 1);

        if (name == NULL)
                return 0;
        memcpy(name, data, n);
        name[n] = '\0';
        if (cc_name_library(name, &l) == 0)
                sum += strlen(l.role) + (size_t)l.version.n;
        if (cc_name_archive(name, &a) == 0)
                sum += strlen(a.format) + strlen(a.platform) + strlen(a.arch) + strlen(a.cuda) + strlen(a.package) +
                       (size_t)a.version.n;
        if (cc_name_distinfo(name, &d) == 0)
                sum += strlen(d.package) + strlen(d.version_str) + (size_t)d.version.n;
        free(name);
        return sum == (size_t)-1;
}
