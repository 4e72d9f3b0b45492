/* JSON reader: the probe children's results (one object per line) and, later,
 * facts files from other machines. Bounded: depth, sizes, and every byte
 * checked; invalid UTF-8 is refused. */
#ifndef CC_FORMATS_JSON_H
#define CC_FORMATS_JSON_H

#include "../value.h"

/* Parse one JSON text of n bytes (leading and trailing white space allowed,
 * nothing else after the value). Integers that fit int64 become integers;
 * other numbers become doubles. Duplicate keys: the last wins. max_depth
 * <= 0: 64. On failure the error says what is wrong and at which byte offset. */
int cc_json_parse(const char *s, size_t n, int max_depth, cc_value **out, cc_error *err);

#endif
