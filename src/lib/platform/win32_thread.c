/* The second thread and its hand-over lock (platform.h) on Windows: a
 * thread of CreateThread, an SRW lock and a condition variable. Console
 * control events are delivered on a thread of their own, so there is no
 * signal mask to set. */
#if defined(_WIN32)
#include <windows.h>

#include "platform.h"

#include <stdlib.h>

struct cc_thread {
        HANDLE h;
        void (*fn)(void *);
        void *arg;
};

struct cc_sync {
        SRWLOCK l;
        CONDITION_VARIABLE c;
};

static DWORD WINAPI trampoline(LPVOID p)
{
        cc_thread *t = p;

        t->fn(t->arg);
        return 0;
}

int cc_thread_start(void (*fn)(void *), void *arg, cc_thread **out, cc_error *err)
{
        cc_thread *t;

        *out = NULL;
        t = cc_calloc(err, 1, sizeof(*t));
        if (t == NULL)
                return -1;
        t->fn = fn;
        t->arg = arg;
        t->h = CreateThread(NULL, 0, trampoline, t, 0, NULL);
        if (t->h == NULL) {
                free(t);
                return cc_err(err, CC_ERR_IO, "cannot start a thread (error %lu)", (unsigned long)GetLastError());
        }
        *out = t;
        return 0;
}

void cc_thread_join(cc_thread *t)
{
        if (t == NULL)
                return;
        WaitForSingleObject(t->h, INFINITE);
        CloseHandle(t->h);
        free(t);
}

int cc_sync_new(cc_sync **out, cc_error *err)
{
        cc_sync *s = cc_calloc(err, 1, sizeof(*s));

        *out = NULL;
        if (s == NULL)
                return -1;
        InitializeSRWLock(&s->l);
        InitializeConditionVariable(&s->c);
        *out = s;
        return 0;
}

void cc_sync_free(cc_sync *s)
{
        free(s);
}

void cc_sync_lock(cc_sync *s)
{
        AcquireSRWLockExclusive(&s->l);
}

void cc_sync_unlock(cc_sync *s)
{
        ReleaseSRWLockExclusive(&s->l);
}

void cc_sync_wait(cc_sync *s)
{
        SleepConditionVariableSRW(&s->c, &s->l, INFINITE, 0);
}

void cc_sync_wait_ms(cc_sync *s, int ms)
{
        SleepConditionVariableSRW(&s->c, &s->l, (DWORD)ms, 0);
}

void cc_sync_wake(cc_sync *s)
{
        WakeAllConditionVariable(&s->c);
}
int cc_cpu_count(void)
{
        SYSTEM_INFO si;

        GetSystemInfo(&si);
        return si.dwNumberOfProcessors < 1 ? 1 : si.dwNumberOfProcessors > 1024 ? 1024 : (int)si.dwNumberOfProcessors;
}

#endif

/* Keeps the translation unit non-empty on the other system. */
typedef int cc_win32_thread_unit_;
