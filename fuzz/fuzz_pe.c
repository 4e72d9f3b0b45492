/* Fuzz target: the PE/COFF reader. Parses, touches every string it returns
 * (so ASan sees any bad pointer) and frees. */
#include <stdint.h>
#include <string.h>

#include "formats/pe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t touch_strv(const cc_strv *sv)
{
        size_t i, n = 0;

        for (i = 0; i < sv->n; i++)
                n += strlen(sv->v[i]);
        return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static const char *const keys[] = {"FileVersion", "ProductVersion", "CompanyName", "FileDescription"};
        cc_error err = {0};
        cc_pe *pe = NULL;
        volatile size_t sink = 0;
        size_t i;

        (void)cc_pe_is(data, size);
        if (cc_pe_parse(data, size, &pe, &err) < 0) {
                sink += strlen(err.msg);
                return 0;
        }
        if (cc_pe_machine_name(pe->machine) != NULL)
                sink += strlen(cc_pe_machine_name(pe->machine));
        sink += touch_strv(&pe->imports) + touch_strv(&pe->delay_imports) + touch_strv(&pe->exports) +
                touch_strv(&pe->warnings);
        if (pe->export_name != NULL)
                sink += strlen(pe->export_name);
        for (i = 0; i < pe->nstrings; i++)
                sink += strlen(pe->strings[i].table) + strlen(pe->strings[i].key) + strlen(pe->strings[i].value);
        for (i = 0; i < pe->ntranslations; i++)
                sink += pe->translations[i] & 1;
        for (i = 0; i < CC_ARRAY_LEN(keys); i++) {
                const char *v = cc_pe_string_value(pe, keys[i]);

                if (v != NULL)
                        sink += strlen(v);
        }
        (void)sink;
        cc_pe_free(pe);
        return 0;
}
