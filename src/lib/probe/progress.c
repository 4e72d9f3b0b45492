/* Progress for a terminal (progress.h). */
#include "progress.h"

#include "../platform/platform.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SLOTS = 32, WAIT_US = 1000000 };

struct slot {
        int used, told;
        int64_t since;
        char what[256];
};

struct cc_progress {
        cudnnctl_progress_fn fn;
        void *ctx;
        cc_sync *s;
        cc_thread *th;
        int stop;
        struct slot slots[MAX_SLOTS];
};

/* The thread: sleeps until the first running child is due (a second
 * after it started), names it, and sleeps again. */
static void ticker(void *arg)
{
        cc_progress *p = arg;

        cc_sync_lock(p->s);
        while (!p->stop) {
                int64_t now = cc_monotonic_us(), next = -1;
                size_t i;

                for (i = 0; i < MAX_SLOTS; i++) {
                        struct slot *sl = &p->slots[i];
                        char line[320];

                        if (!sl->used || sl->told)
                                continue;
                        if (now - sl->since >= WAIT_US) {
                                snprintf(line, sizeof(line), "%s (%lld s)", sl->what,
                                         (long long)((now - sl->since) / 1000000));
                                sl->told = 1;
                                p->fn(p->ctx, CUDNNCTL_PROGRESS_WAITING, line);
                        } else if (next < 0 || sl->since + WAIT_US < next) {
                                next = sl->since + WAIT_US;
                        }
                }
                if (p->stop)
                        break;
                if (next < 0)
                        cc_sync_wait(p->s);
                else
                        cc_sync_wait_ms(p->s, (int)((next - now) / 1000) + 1);
        }
        cc_sync_unlock(p->s);
}

cc_progress *cc_progress_new(cudnnctl_progress_fn fn, void *ctx)
{
        cc_progress *p;

        if (fn == NULL || (p = cc_calloc(NULL, 1, sizeof(*p))) == NULL)
                return NULL;
        p->fn = fn;
        p->ctx = ctx;
        if (cc_sync_new(&p->s, NULL) < 0) {
                free(p);
                return NULL;
        }
        if (cc_thread_start(ticker, p, &p->th, NULL) < 0) {
                cc_sync_free(p->s);
                free(p);
                return NULL;
        }
        return p;
}

void cc_progress_free(cc_progress *p)
{
        if (p == NULL)
                return;
        cc_sync_lock(p->s);
        p->stop = 1;
        cc_sync_wake(p->s);
        cc_sync_unlock(p->s);
        cc_thread_join(p->th);
        cc_sync_free(p->s);
        free(p);
}

void cc_progress_done(cc_progress *p, const char *fmt, ...)
{
        char line[320];
        va_list ap;

        if (p == NULL)
                return;
        va_start(ap, fmt);
        vsnprintf(line, sizeof(line), fmt, ap);
        va_end(ap);
        cc_sync_lock(p->s);
        p->fn(p->ctx, CUDNNCTL_PROGRESS_DONE, line);
        cc_sync_unlock(p->s);
}

long cc_progress_begin(cc_progress *p, const char *fmt, ...)
{
        va_list ap;
        long i;

        if (p == NULL)
                return -1;
        cc_sync_lock(p->s);
        for (i = 0; i < MAX_SLOTS && p->slots[i].used; i++)
                ;
        if (i < MAX_SLOTS) {
                p->slots[i].used = 1;
                p->slots[i].told = 0;
                p->slots[i].since = cc_monotonic_us();
                va_start(ap, fmt);
                vsnprintf(p->slots[i].what, sizeof(p->slots[i].what), fmt, ap);
                va_end(ap);
                cc_sync_wake(p->s);
        } else {
                i = -1; /* more children than slots: that one is not named */
        }
        cc_sync_unlock(p->s);
        return i;
}

void cc_progress_end(cc_progress *p, long slot)
{
        if (p == NULL || slot < 0 || slot >= MAX_SLOTS)
                return;
        cc_sync_lock(p->s);
        p->slots[slot].used = 0;
        cc_sync_unlock(p->s);
}
