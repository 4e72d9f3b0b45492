/* The second thread and its hand-over lock (platform.h) on POSIX systems. */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L

#include "platform.h"

#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

struct cc_thread {
        pthread_t id;
        void (*fn)(void *);
        void *arg;
        sigset_t before; /* the starting thread's mask: what a child it spawns gets (posix_proc.c) */
};

/* Set in a thread of cc_thread_start: the mask children started there get
 * (the thread itself blocks every signal but its own faults). */
static _Thread_local const sigset_t *child_mask;

const sigset_t *cc_posix_thread_child_mask(void);
const sigset_t *cc_posix_thread_child_mask(void)
{
        return child_mask;
}

struct cc_sync {
        pthread_mutex_t m;
        pthread_cond_t c;
};

static void *trampoline(void *p)
{
        cc_thread *t = p;

        child_mask = &t->before;
        t->fn(t->arg);
        return NULL;
}

int cc_thread_start(void (*fn)(void *), void *arg, cc_thread **out, cc_error *err)
{
        cc_thread *t;
        sigset_t all, old;
        int e;

        *out = NULL;
        t = cc_calloc(err, 1, sizeof(*t));
        if (t == NULL)
                return -1;
        t->fn = fn;
        t->arg = arg;
        /* The new thread inherits this mask: every signal stays with the
         * main thread, whose handlers clean up and re-raise. Not the faults
         * the thread raises itself: a blocked SIGBUS from a read of a mapped
         * file that shrank kills the process whatever the handler (Linux
         * resets it), where the mapping guard's handler would have mapped
         * zeros over the rest (posix.c). */
        sigfillset(&all);
        sigdelset(&all, SIGBUS);
        sigdelset(&all, SIGSEGV);
        sigdelset(&all, SIGFPE);
        sigdelset(&all, SIGILL);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        t->before = old;
        e = pthread_create(&t->id, NULL, trampoline, t);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (e != 0) {
                free(t);
                return cc_err_errno(err, e, "cannot start a thread");
        }
        *out = t;
        return 0;
}

void cc_thread_join(cc_thread *t)
{
        if (t == NULL)
                return;
        (void)pthread_join(t->id, NULL);
        free(t);
}

int cc_sync_new(cc_sync **out, cc_error *err)
{
        cc_sync *s = cc_calloc(err, 1, sizeof(*s));

        *out = NULL;
        if (s == NULL)
                return -1;
        if (pthread_mutex_init(&s->m, NULL) != 0) {
                free(s);
                return cc_err(err, CC_ERR_NOMEM, "cannot make a lock");
        }
        if (pthread_cond_init(&s->c, NULL) != 0) {
                pthread_mutex_destroy(&s->m);
                free(s);
                return cc_err(err, CC_ERR_NOMEM, "cannot make a condition variable");
        }
        *out = s;
        return 0;
}

void cc_sync_free(cc_sync *s)
{
        if (s == NULL)
                return;
        pthread_cond_destroy(&s->c);
        pthread_mutex_destroy(&s->m);
        free(s);
}

void cc_sync_lock(cc_sync *s)
{
        pthread_mutex_lock(&s->m);
}

void cc_sync_unlock(cc_sync *s)
{
        pthread_mutex_unlock(&s->m);
}

void cc_sync_wait(cc_sync *s)
{
        pthread_cond_wait(&s->c, &s->m);
}

void cc_sync_wait_ms(cc_sync *s, int ms)
{
        struct timespec ts;

        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += ms / 1000;
        ts.tv_nsec += (long)(ms % 1000) * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&s->c, &s->m, &ts);
}

void cc_sync_wake(cc_sync *s)
{
        pthread_cond_broadcast(&s->c);
}
int cc_cpu_count(void)
{
        long n = sysconf(_SC_NPROCESSORS_ONLN);

        return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

#endif

/* Keeps the translation unit non-empty on the other system. */
typedef int cc_posix_thread_unit_;
