/* Fuzz target: METADATA and RECORD parsers, both over every input. */
#include <stdint.h>
#include <string.h>

#include "formats/distinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        cc_metadata *m = NULL;
        cc_record *r = NULL;
        cc_error err;
        size_t i, sum = 0;

        (void)cc_metadata_looks_like(data, size);
        if (cc_metadata_parse((const char *)data, size, &m, &err) == 0) {
                sum += strlen(m->name) + strlen(m->version);
                if (m->metadata_version != NULL)
                        sum += strlen(m->metadata_version);
                if (m->summary != NULL)
                        sum += strlen(m->summary);
                for (i = 0; i < m->requires_dist.n; i++)
                        sum += strlen(m->requires_dist.v[i]);
                for (i = 0; i < m->warnings.n; i++)
                        sum += strlen(m->warnings.v[i]);
        }
        cc_metadata_free(m);
        if (cc_record_parse((const char *)data, size, &r, &err) == 0) {
                for (i = 0; i < r->n; i++) {
                        sum += strlen(r->entries[i].path);
                        if (r->entries[i].hash != NULL)
                                sum += strlen(r->entries[i].hash);
                        sum += (size_t)(r->entries[i].size > 0);
                }
                for (i = 0; i < r->warnings.n; i++)
                        sum += strlen(r->warnings.v[i]);
        }
        cc_record_free(r);
        return sum == (size_t)-1;
}
