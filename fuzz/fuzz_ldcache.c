/* Fuzz target for the ld.so.cache reader: parse, walk everything the parser
 * hands out and check its invariants (hwcaps pointers point into the
 * extension table, the flags string is always terminated, every entry is
 * in its name's lookup span), free. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/ldcache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        cc_error err = {0};
        cc_ldcache *c = NULL;
        volatile size_t sink = 0;
        char buf[64];
        size_t i;

        (void)cc_ldcache_is(data, size);
        if (cc_ldcache_parse(data, size, &c, &err) != 0) {
                /* one line, NUL-terminated */
                sink += strlen(err.msg);
                if (c != NULL || strchr(err.msg, '\n') != NULL)
                        abort();
                return 0;
        }
        if (c->format < CC_LDCACHE_OLD || c->format > CC_LDCACHE_COMPAT)
                abort();
        if (c->generator)
                sink += strlen(c->generator);
        for (i = 0; i < c->hwcaps.n; i++)
                sink += strlen(c->hwcaps.v[i]);
        for (i = 0; i < c->warnings.n; i++) {
                /* one line each */
                if (strchr(c->warnings.v[i], '\n') != NULL)
                        abort();
                sink += strlen(c->warnings.v[i]);
        }
        for (i = 0; i < c->n; i++) {
                const cc_ldcache_entry *e = &c->entries[i];

                if (strlen(e->key) > 4096 || strlen(e->value) > 4096)
                        abort();
                if (e->hwcaps_index >= 0) {
                        if ((size_t)e->hwcaps_index >= c->hwcaps.n || e->hwcaps != c->hwcaps.v[e->hwcaps_index])
                                abort();
                } else if (e->hwcaps != NULL) {
                        abort();
                }
                if (cc_ldcache_flags_str(e->flags, buf, sizeof(buf)) != buf || strlen(buf) >= sizeof(buf))
                        abort();
                sink += strlen(buf);
                sink += (size_t)cc_ldcache_flags_accepted(e->flags, 64, (uint16_t)e->osversion, (uint32_t)e->hwcap);
                sink += (size_t)cc_ldcache_flags_for_elf(32, (uint16_t)e->flags, e->osversion);
        }
        /* every entry lies in the span of its own name (binary search on a
         * sorted table, the whole table otherwise) */
        for (i = 0; i < c->n && i < 256; i++) {
                size_t lo, hi;

                cc_ldcache_span(c, c->entries[i].key, &lo, &hi);
                if (lo > i || hi <= i || hi > c->n)
                        abort();
        }
        cc_ldcache_free(c);
        (void)sink;
        return 0;
}
