/* How a child process ended, in words, for both systems: POSIX signals and
 * Windows exception codes, read from the cc_spawn_result fields only. */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#endif

#include "platform.h"

#include <signal.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

/* The host's number where the macro exists (POSIX builds), else Linux's. */
#if defined(_WIN32)
#define CC_SIG(name, linux_num)                                                                                        \
        {                                                                                                              \
#name, linux_num                                                                                       \
        }
#else
#define CC_SIG(name, linux_num)                                                                                        \
        {                                                                                                              \
#name, name                                                                                            \
        }
#endif
#if !defined(_WIN32)
#if !defined(SIGSTKFLT)
#define SIGSTKFLT 16
#endif
#if !defined(SIGPWR)
#define SIGPWR 30
#endif
#if !defined(SIGWINCH)
#define SIGWINCH 28
#endif
#if !defined(SIGIO)
#define SIGIO 29
#endif
#endif

static const struct {
        const char *name;
        int num;
} signals[] = {
    CC_SIG(SIGHUP, 1),     CC_SIG(SIGINT, 2),   CC_SIG(SIGQUIT, 3),   CC_SIG(SIGILL, 4),   CC_SIG(SIGTRAP, 5),
    CC_SIG(SIGABRT, 6),    CC_SIG(SIGBUS, 7),   CC_SIG(SIGFPE, 8),    CC_SIG(SIGKILL, 9),  CC_SIG(SIGUSR1, 10),
    CC_SIG(SIGSEGV, 11),   CC_SIG(SIGUSR2, 12), CC_SIG(SIGPIPE, 13),  CC_SIG(SIGALRM, 14), CC_SIG(SIGTERM, 15),
    CC_SIG(SIGSTKFLT, 16), CC_SIG(SIGCHLD, 17), CC_SIG(SIGCONT, 18),  CC_SIG(SIGSTOP, 19), CC_SIG(SIGTSTP, 20),
    CC_SIG(SIGTTIN, 21),   CC_SIG(SIGTTOU, 22), CC_SIG(SIGURG, 23),   CC_SIG(SIGXCPU, 24), CC_SIG(SIGXFSZ, 25),
    CC_SIG(SIGVTALRM, 26), CC_SIG(SIGPROF, 27), CC_SIG(SIGWINCH, 28), CC_SIG(SIGIO, 29),   CC_SIG(SIGPWR, 30),
    CC_SIG(SIGSYS, 31),
};

/* Windows exception (NTSTATUS) codes a crashed process ends with. */
static const struct {
        uint32_t code;
        const char *what;
} exceptions[] = {
    {0xC0000005u, "access violation"},
    {0xC00000FDu, "stack overflow"},
    {0xC000001Du, "illegal instruction"},
    {0xC0000096u, "privileged instruction"},
    {0xC0000135u, "DLL not found"},
    {0xC0000139u, "entry point not found"},
    {0xC0000142u, "DLL initialization failed"},
    {0xC000007Bu, "invalid image format"},
    {0xC0000409u, "stack buffer overrun / fail fast"},
    {0xC0000374u, "heap corruption"},
    {0xC0000417u, "invalid C runtime parameter"},
    {0xC0000420u, "assertion failure"},
    {0xC0000006u, "in-page I/O error"},
    {0xC0000008u, "invalid handle"},
    {0xC0000017u, "out of memory"},
    {0xC000009Au, "insufficient system resources"},
    {0xC0000025u, "noncontinuable exception"},
    {0xC0000026u, "invalid exception disposition"},
    {0xC000008Cu, "array bounds exceeded"},
    {0xC000008Du, "floating-point denormal operand"},
    {0xC000008Eu, "floating-point division by zero"},
    {0xC000008Fu, "floating-point inexact result"},
    {0xC0000090u, "floating-point invalid operation"},
    {0xC0000091u, "floating-point overflow"},
    {0xC0000092u, "floating-point stack check"},
    {0xC0000093u, "floating-point underflow"},
    {0xC0000094u, "integer division by zero"},
    {0xC0000095u, "integer overflow"},
    {0x80000002u, "datatype misalignment"},
    {0x80000003u, "breakpoint"},
    {0x80000029u, "unwind consolidate"},
};

#define CC_STATUS_CONTROL_C_EXIT 0xC000013Au

static const char *signal_name(int sig)
{
        size_t i;

        for (i = 0; i < CC_ARRAY_LEN(signals); i++)
                if (signals[i].num == sig)
                        return signals[i].name;
        return NULL;
}

static const char *exception_name(uint32_t code)
{
        size_t i;

        for (i = 0; i < CC_ARRAY_LEN(exceptions); i++)
                if (exceptions[i].code == code)
                        return exceptions[i].what;
        return NULL;
}

/* 1 if an exit status is a Windows exception code: any error-severity
 * NTSTATUS (0xCxxxxxxx) but Ctrl+C's, or a known warning-severity one. A
 * POSIX exit status (0..255) never is; abort() on Windows exits with 3. */
static int is_exception(int exit_code)
{
        uint32_t u = (uint32_t)exit_code;

        if (u == CC_STATUS_CONTROL_C_EXIT)
                return 0;
        if ((u & 0xF0000000u) == 0xC0000000u)
                return 1;
        return exception_name(u) != NULL;
}

int cc_spawn_crashed(const cc_spawn_result *r)
{
        if (r == NULL || r->timed_out)
                return 0;
        if (r->signal != 0)
                return 1;
        return r->exited && is_exception(r->exit_code);
}

char *cc_spawn_describe(const cc_spawn_result *r, cc_error *err)
{
        const char *name;

        if (r == NULL) {
                cc_err(err, CC_ERR_USAGE, "cc_spawn_describe: no result");
                return NULL;
        }
        if (r->timed_out)
                return cc_asprintf(err, "timed out after %lld ms", (long long)r->wall_ms);
        if (r->signal != 0) {
                name = signal_name(r->signal);
                if (name != NULL)
                        return cc_asprintf(err, "killed by signal %d (%s)", r->signal, name);
                return cc_asprintf(err, "killed by signal %d", r->signal);
        }
        if (r->exited && is_exception(r->exit_code)) {
                uint32_t u = (uint32_t)r->exit_code;

                name = exception_name(u);
                if (name != NULL)
                        return cc_asprintf(err, "crashed with exception 0x%08" PRIX32 " (%s)", u, name);
                return cc_asprintf(err, "crashed with exception 0x%08" PRIX32, u);
        }
        if (r->exited)
                return cc_asprintf(err, "exited with status %d", r->exit_code);
        return cc_strdup(err, "ended in an unknown way");
}

void cc_spawn_result_free(cc_spawn_result *r)
{
        if (r == NULL)
                return;
        cc_buf_free(&r->out);
        cc_buf_free(&r->errout);
        memset(r, 0, sizeof(*r));
}
