/* Fuzz target: an archive's bytes read with libarchive and judged
 * (cc_archive_inspect_mem), then rendered as JSON. The seeds are the hostile
 * archives of tests/fixtures/gen-hostile-archives.py. A compressed stream
 * may pass over 1 MiB of member data (not 256 MiB), so that every input runs
 * in milliseconds. */
#include <stdint.h>
#include <stdlib.h>

#include "inspect/inspect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        cc_error err = {0};
        cc_value *obj = cc_v_object(&err);
        char *json = NULL;

        if (obj == NULL)
                return 0;
        if (cc_archive_inspect_mem("fuzz.tar.gz", data, size, 0, (uint64_t)1 << 20, obj, &err) == 0 &&
            cudnnctl_to_json(obj, 0, &json, &err) == 0)
                cudnnctl_free(json);
        cc_v_free(obj);
        return 0;
}
