/* Progress for a terminal (cudnnctl_progress_fn): the parts of the work as
 * they are done, and the children still running after a second, named by a
 * thread of its own that wakes when one is due. Every call of the caller's
 * function is made under one lock, so it is never called twice at once. A
 * NULL reporter (no function given) takes every call and does nothing. */
#ifndef CC_PROBE_PROGRESS_H
#define CC_PROBE_PROGRESS_H

#include "../common.h"

typedef struct cc_progress cc_progress;

/* NULL when fn is NULL, or when no thread or memory is left (progress is
 * only ever a courtesy: the work goes on without it). */
cc_progress *cc_progress_new(cudnnctl_progress_fn fn, void *ctx);
/* Stop its thread and free it (NULL: nothing). */
void cc_progress_free(cc_progress *p);
/* A part of the work is done. */
void cc_progress_done(cc_progress *p, const char *fmt, ...) CC_PRINTF(2, 3);
/* A child starts: its slot (for cc_progress_end), or -1. */
long cc_progress_begin(cc_progress *p, const char *fmt, ...) CC_PRINTF(2, 3);
void cc_progress_end(cc_progress *p, long slot);

#endif
