/* What the text and the HTML page of `cudnnctl report` share. */
#ifndef CC_RENDER_REPORT_H
#define CC_RENDER_REPORT_H

#include "../value.h"

/* A group's node names (sorted) folded to one line: all of them up to 4
 * (or with all), "node001…node212" for a numbered run, else the first
 * three and "and N more". Each piece goes through put: a name (own 0: to be
 * escaped), text of ours (own 1), or s NULL for the ellipsis. */
int cc_report_names(const cc_value *names, int all, int (*put)(void *ctx, const char *s, size_t n, int own), void *ctx,
                    cc_error *err);

#endif
