/* Shared pieces of the text renderers: safe text, colour, labelled fields. */
#ifndef CC_RENDER_TEXT_H
#define CC_RENDER_TEXT_H

#include "../value.h"

struct cc_text {
        cc_buf *b;
        int color;
        cc_error *err;
};

/* The SGR sequence when colour is on, else "". */
const char *cc_text_sgr(const struct cc_text *t, const char *code);
/* Append s; bytes that are not printable UTF-8 are written as \xNN. NULL
 * prints "(none)". */
int cc_text_put(struct cc_text *t, const char *s);
int cc_text_printf(struct cc_text *t, const char *fmt, ...) CC_PRINTF(2, 3);
/* "<indent><label padded to width> value\n" with the label dimmed. */
int cc_text_field(struct cc_text *t, int indent, int width, const char *label, const char *value);
/* A versions array ([{component, source, version}...]) on one line:
 * "9.19.0 (exported-constant), 9.19.0 (file-name)"; "unknown" when empty. */
int cc_text_versions(struct cc_text *t, const cc_value *versions);

#define CC_SGR_DIM "\033[2m"
#define CC_SGR_BOLD "\033[1m"
#define CC_SGR_RED "\033[31m"
#define CC_SGR_GREEN "\033[32m"
#define CC_SGR_YELLOW "\033[33m"
#define CC_SGR_OFF "\033[0m"

#endif
