/* The fact schema (src/lib/facts/schema.h) as text, one key a line:
 * VIEW <tab> DOCS-NAME <tab> KEY <tab> KIND <tab> required|optional <tab> null|-
 * for tests/docs/test_schema.py. */
#include <stdio.h>

#include "facts/views.h"

int main(void)
{
        size_t i, k;

        for (i = 0; i < cc_vw_nviews; i++)
                for (k = 0; k < cc_vw_views[i].nfields; k++) {
                        const cc_vw_field_desc *f = &cc_vw_views[i].fields[k];

                        printf("%s\t%s\t%s\t%s\t%s\t%s\n", cc_vw_views[i].name, cc_vw_views[i].what, f->key,
                               cc_vw_kind_name(f->kind), (f->flags & CC_VW_REQ) ? "required" : "optional",
                               (f->flags & CC_VW_NULL) ? "null" : "-");
                }
        return ferror(stdout) ? 1 : 0;
}
