/* Win32 child processes, dynamic loading and the small file helpers the
 * probes need. Wide-character APIs only; paths are UTF-8 outside. */
#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <psapi.h>
#include <tlhelp32.h>

#include "platform.h"
#include "win32_util.h"

#include <io.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define CC_CMDLINE_MAX 32767           /* CreateProcessW's limit, in UTF-16 units */
#define CC_ENV_MAX (16u * 1024 * 1024) /* our cap on an environment block, in bytes */
#define CC_KILL_CODE 1                 /* the exit code of a process killed at the time limit */
#define CC_DRAIN_MS 2000               /* how long output is still read after the kill */
#define CC_TREE_DEPTH 256              /* cc_remove_tree's recursion cap */

/* Windows error text for code, trailing blanks and line ends removed, the
 * final period kept ("The specified module could not be found."). */
static void sys_msg(DWORD code, char *buf, size_t size)
{
        DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, code, 0, buf,
                                 (DWORD)size, NULL);

        while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' '))
                buf[--n] = '\0';
        if (n == 0)
                snprintf(buf, size, "unknown error");
}

/* ---- command line and environment ---------------------------------------- */

/* Append one argument quoted for CommandLineToArgvW and the MSVC C runtime:
 * backslashes are literal unless they precede a quote, so a run of n
 * backslashes before a quote (or the closing quote) becomes 2n (+1 and the
 * escaped quote). Arguments without blanks or quotes go in unchanged. */
static int quote_arg(cc_buf *b, const char *a, cc_error *err)
{
        const char *p;

        if (*a != '\0' && strpbrk(a, " \t\n\v\"") == NULL)
                return cc_buf_puts(b, a, err);
        if (cc_buf_putc(b, '"', err) < 0)
                return -1;
        for (p = a;; p++) {
                size_t nbs = 0, i;

                while (*p == '\\') {
                        nbs++;
                        p++;
                }
                if (*p == '\0') {
                        for (i = 0; i < 2 * nbs; i++)
                                if (cc_buf_putc(b, '\\', err) < 0)
                                        return -1;
                        break;
                }
                if (*p == '"') {
                        for (i = 0; i < 2 * nbs + 1; i++)
                                if (cc_buf_putc(b, '\\', err) < 0)
                                        return -1;
                } else {
                        for (i = 0; i < nbs; i++)
                                if (cc_buf_putc(b, '\\', err) < 0)
                                        return -1;
                }
                if (cc_buf_putc(b, *p, err) < 0)
                        return -1;
        }
        return cc_buf_putc(b, '"', err);
}

/* The wide command line for argv (caller frees). argv[0] is always quoted
 * and taken literally, as the runtime reads the program name. */
static wchar_t *build_cmdline(const char *const *argv, cc_error *err)
{
        cc_buf b = {0};
        wchar_t *w = NULL;
        size_t i;

        if (strchr(argv[0], '"') != NULL) {
                cc_err(err, CC_ERR_USAGE, "%s: a program path cannot contain '\"'", argv[0]);
                goto fail;
        }
        if (cc_buf_printf(&b, err, "\"%s\"", argv[0]) < 0)
                goto fail;
        for (i = 1; argv[i] != NULL; i++) {
                if (cc_buf_putc(&b, ' ', err) < 0 || quote_arg(&b, argv[i], err) < 0)
                        goto fail;
        }
        w = cc_win_to_wide(b.data, err);
        if (w != NULL && wcslen(w) >= CC_CMDLINE_MAX) {
                free(w);
                w = NULL;
                cc_err(err, CC_ERR_LIMIT, "%s: command line longer than %d characters", argv[0], CC_CMDLINE_MAX - 1);
        }
fail:
        cc_buf_free(&b);
        return w;
}

struct env_ent {
        const wchar_t *s; /* "NAME=VALUE" */
        size_t namelen;
        wchar_t *owned; /* s, when allocated here */
};

/* The length of the name of "NAME=VALUE"; "=C:=C:\\x" entries keep their
 * leading '=' in the name. */
static size_t env_name_len(const wchar_t *s)
{
        const wchar_t *eq = wcschr(s + (s[0] == L'='), L'=');

        return eq ? (size_t)(eq - s) : wcslen(s);
}

static int env_name_eq(const wchar_t *a, size_t la, const wchar_t *b, size_t lb)
{
        if (la > INT_MAX || lb > INT_MAX)
                return 0;
        return CompareStringOrdinal(a, (int)la, b, (int)lb, TRUE) == CSTR_EQUAL;
}

/* Windows keeps the block sorted by name, case-insensitively, in ordinal
 * (not locale) order. */
static int env_cmp(const void *pa, const void *pb)
{
        const struct env_ent *a = pa, *b = pb;
        int c = CompareStringOrdinal(a->s, (int)a->namelen, b->s, (int)b->namelen, TRUE);

        if (c == CSTR_LESS_THAN)
                return -1;
        if (c == CSTR_GREATER_THAN)
                return 1;
        return wcscmp(a->s, b->s) < 0 ? -1 : wcscmp(a->s, b->s) > 0;
}

/* Remove every entry named name (case-insensitive). */
static void env_remove(struct env_ent *v, size_t *n, const wchar_t *name, size_t namelen)
{
        size_t i = 0;

        while (i < *n) {
                if (env_name_eq(v[i].s, v[i].namelen, name, namelen)) {
                        free(v[i].owned);
                        v[i] = v[--*n];
                } else {
                        i++;
                }
        }
}

/* The current environment with o's changes, as a sorted
 * CREATE_UNICODE_ENVIRONMENT block (caller frees). */
static wchar_t *build_env(const cc_spawn_opts *o, cc_error *err)
{
        wchar_t *block = GetEnvironmentStringsW(), *out = NULL, *q;
        struct env_ent *v = NULL;
        size_t n = 0, cap = 0, i, total = 1;
        const wchar_t *p;

        if (block == NULL) {
                cc_win_err(err, GetLastError(), "cannot read", "the environment");
                return NULL;
        }
        for (p = block; *p; p += wcslen(p) + 1)
                cap++;
        cap += o->nenv_set + 1;
        v = cc_calloc(err, cap, sizeof(*v));
        if (v == NULL)
                goto fail;
        for (p = block; *p; p += wcslen(p) + 1) {
                v[n].s = p;
                v[n].namelen = env_name_len(p);
                n++;
        }
        for (i = 0; i < o->nenv_unset; i++) {
                const char *name = o->env_unset[i];
                wchar_t *w;

                if (name == NULL || *name == '\0' || strchr(name, '=') != NULL) {
                        cc_err(err, CC_ERR_USAGE, "environment variable name \"%s\" is not valid", name ? name : "");
                        goto fail;
                }
                w = cc_win_to_wide(name, err);
                if (w == NULL)
                        goto fail;
                env_remove(v, &n, w, wcslen(w));
                free(w);
        }
        for (i = 0; i < o->nenv_set; i++) {
                const char *kv = o->env_set[i];
                wchar_t *w;

                if (kv == NULL || kv[0] == '=' || strchr(kv, '=') == NULL) {
                        cc_err(err, CC_ERR_USAGE, "environment setting \"%s\" is not NAME=VALUE", kv ? kv : "");
                        goto fail;
                }
                w = cc_win_to_wide(kv, err);
                if (w == NULL)
                        goto fail;
                env_remove(v, &n, w, env_name_len(w));
                v[n].s = v[n].owned = w;
                v[n].namelen = env_name_len(w);
                n++;
        }
        qsort(v, n, sizeof(*v), env_cmp);
        for (i = 0; i < n; i++) {
                total += wcslen(v[i].s) + 1;
                if (total > CC_ENV_MAX / sizeof(wchar_t)) {
                        cc_err(err, CC_ERR_LIMIT, "the child's environment is over %u bytes", CC_ENV_MAX);
                        goto fail;
                }
        }
        out = cc_malloc(err, (total + 1) * sizeof(wchar_t));
        if (out == NULL)
                goto fail;
        q = out;
        for (i = 0; i < n; i++) {
                size_t len = wcslen(v[i].s) + 1;

                memcpy(q, v[i].s, len * sizeof(wchar_t));
                q += len;
        }
        *q++ = L'\0';
        if (n == 0)
                *q = L'\0'; /* an empty block is two NULs */
fail:
        if (v != NULL)
                for (i = 0; i < n; i++)
                        free(v[i].owned);
        free(v);
        FreeEnvironmentStringsW(block);
        return out;
}

/* ---- pipes ----------------------------------------------------------------- */

struct stream {
        HANDLE h; /* our overlapped read end */
        OVERLAPPED ov;
        int pending; /* a ReadFile is in flight */
        int done;    /* end of file (or a read error) */
        cc_buf *dst;
        uint64_t *total;
        size_t max;
        char buf[16384];
};

/* A pipe whose read end (for us) is overlapped and whose write end (for the
 * child) is inheritable. Anonymous pipes cannot be overlapped, so this is a
 * uniquely named one-instance pipe. */
static int make_pipe(HANDLE *rd, HANDLE *wr, cc_error *err)
{
        static LONG counter;
        SECURITY_ATTRIBUTES sa = {sizeof(sa), NULL, TRUE};
        char name[128];
        wchar_t *w;
        DWORD mode = PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT;

        *rd = *wr = INVALID_HANDLE_VALUE;
        snprintf(name, sizeof(name), "\\\\.\\pipe\\cudnnctl-%lu-%ld-%llu", (unsigned long)GetCurrentProcessId(),
                 (long)InterlockedIncrement(&counter), (unsigned long long)GetTickCount64());
        w = cc_win_to_wide(name, err);
        if (w == NULL)
                return -1;
        *rd = CreateNamedPipeW(w, PIPE_ACCESS_INBOUND | FILE_FLAG_OVERLAPPED | FILE_FLAG_FIRST_PIPE_INSTANCE,
                               mode | PIPE_REJECT_REMOTE_CLIENTS, 1, 0, 65536, 0, NULL);
        if (*rd == INVALID_HANDLE_VALUE && GetLastError() == ERROR_INVALID_PARAMETER)
                *rd = CreateNamedPipeW(w, PIPE_ACCESS_INBOUND | FILE_FLAG_OVERLAPPED | FILE_FLAG_FIRST_PIPE_INSTANCE,
                                       mode, 1, 0, 65536, 0, NULL);
        if (*rd == INVALID_HANDLE_VALUE) {
                free(w);
                return cc_win_err(err, GetLastError(), "cannot create", "a pipe for the child's output");
        }
        *wr = CreateFileW(w, GENERIC_WRITE, 0, &sa, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
        free(w);
        if (*wr == INVALID_HANDLE_VALUE) {
                DWORD e = GetLastError();

                CloseHandle(*rd);
                *rd = INVALID_HANDLE_VALUE;
                return cc_win_err(err, e, "cannot open", "a pipe for the child's output");
        }
        return 0;
}

/* Keep what fits under the cap, count everything. */
static void stream_take(struct stream *s, DWORD n)
{
        *s->total += n;
        if (s->dst->len < s->max) {
                size_t keep = s->max - s->dst->len;

                if (keep > n)
                        keep = n;
                if (cc_buf_append(s->dst, s->buf, keep, NULL) < 0)
                        s->max = s->dst->len; /* out of memory: keep counting only */
        }
}

/* Start the next read; a read that completes at once still signals the
 * event, so completions are all handled in one place. */
static void stream_start(struct stream *s)
{
        if (s->done || s->pending)
                return;
        if (ReadFile(s->h, s->buf, sizeof(s->buf), NULL, &s->ov) || GetLastError() == ERROR_IO_PENDING)
                s->pending = 1;
        else
                s->done = 1; /* ERROR_BROKEN_PIPE: every writer is gone */
}

/* The stream's event fired: collect the read and start the next one. */
static void stream_complete(struct stream *s)
{
        DWORD n = 0;

        if (GetOverlappedResult(s->h, &s->ov, &n, FALSE)) {
                s->pending = 0;
                stream_take(s, n);
                stream_start(s);
                return;
        }
        if (GetLastError() == ERROR_IO_INCOMPLETE)
                return;
        s->pending = 0;
        s->done = 1;
}

/* Stop a read in flight and wait until the system no longer uses its
 * buffer. */
static void stream_cancel(struct stream *s)
{
        DWORD n = 0;

        if (!s->pending)
                return;
        CancelIo(s->h);
        if (GetOverlappedResult(s->h, &s->ov, &n, TRUE))
                stream_take(s, n);
        s->pending = 0;
        s->done = 1;
}

static int64_t now_ms(void)
{
        return cc_monotonic_us() / 1000;
}

/* ---- what the process leaves behind ------------------------------------------
 * Each child runs in a job object with KILL_ON_JOB_CLOSE and without
 * JOB_OBJECT_LIMIT_BREAKAWAY_OK, so whatever it starts is in the job too
 * (CREATE_BREAKAWAY_FROM_JOB is refused), and the job ends with our last
 * handle to it: cc_spawn_run closes it on every path, and the kernel closes
 * it when this process ends in any way, TerminateProcess included. The
 * temporary directories need code to run: with cc_cleanup_install, at
 * exit() and from a console control handler (Ctrl+C, Ctrl+Break, closing the
 * console, log-off, shut-down), which ends the jobs on the list first (a
 * file in use cannot be deleted), removes the directories and then lets the
 * default handler end the process. The handler runs on a thread of its own,
 * so the lists are guarded by a lock; a job leaves the list before its
 * handle is closed. */

#define LIVE_MAX 64    /* jobs alive at once */
#define TMPDIRS_MAX 16 /* temporary directories alive at once */

static SRWLOCK guard_lock = SRWLOCK_INIT;
static HANDLE live_job[LIVE_MAX];
static char *tmp_dirs[TMPDIRS_MAX];
static LONG guard_on;

static int job_record(HANDLE job)
{
        int i, slot = -1;

        AcquireSRWLockExclusive(&guard_lock);
        for (i = 0; i < LIVE_MAX && slot < 0; i++)
                if (live_job[i] == NULL) {
                        live_job[i] = job;
                        slot = i;
                }
        ReleaseSRWLockExclusive(&guard_lock);
        return slot;
}

static void job_forget(int slot)
{
        if (slot < 0)
                return;
        AcquireSRWLockExclusive(&guard_lock);
        live_job[slot] = NULL;
        ReleaseSRWLockExclusive(&guard_lock);
}

/* path is copied; -1 when the list is full. */
static int tmp_record(const char *path)
{
        char *copy = malloc(strlen(path) + 1);
        int i, rv = -1;

        if (copy == NULL)
                return -1;
        memcpy(copy, path, strlen(path) + 1);
        AcquireSRWLockExclusive(&guard_lock);
        for (i = 0; i < TMPDIRS_MAX && rv < 0; i++)
                if (tmp_dirs[i] == NULL) {
                        tmp_dirs[i] = copy;
                        rv = 0;
                }
        ReleaseSRWLockExclusive(&guard_lock);
        if (rv < 0)
                free(copy);
        return rv;
}

static void tmp_forget(const char *path)
{
        char *gone = NULL;
        int i;

        AcquireSRWLockExclusive(&guard_lock);
        for (i = 0; i < TMPDIRS_MAX && gone == NULL; i++)
                if (tmp_dirs[i] != NULL && strcmp(tmp_dirs[i], path) == 0) {
                        gone = tmp_dirs[i];
                        tmp_dirs[i] = NULL;
                }
        ReleaseSRWLockExclusive(&guard_lock);
        free(gone);
}

void cc_cleanup_all(void)
{
        char *dirs[TMPDIRS_MAX];
        int i, n = 0;
        ULONGLONG until = GetTickCount64() + 2000;

        AcquireSRWLockExclusive(&guard_lock);
        for (i = 0; i < LIVE_MAX; i++)
                if (live_job[i] != NULL)
                        TerminateJobObject(live_job[i], CC_KILL_CODE);
        /* Until their processes are gone (a file in use cannot be removed),
         * for a while. */
        for (i = 0; i < LIVE_MAX; i++) {
                JOBOBJECT_BASIC_ACCOUNTING_INFORMATION ai;

                while (live_job[i] != NULL && GetTickCount64() < until &&
                       QueryInformationJobObject(live_job[i], JobObjectBasicAccountingInformation, &ai, sizeof(ai),
                                                 NULL) &&
                       ai.ActiveProcesses > 0)
                        Sleep(10);
        }
        for (i = 0; i < TMPDIRS_MAX; i++)
                if (tmp_dirs[i] != NULL) {
                        dirs[n++] = tmp_dirs[i];
                        tmp_dirs[i] = NULL;
                }
        ReleaseSRWLockExclusive(&guard_lock);
        for (i = 0; i < n; i++) {
                cc_error ignored = {0};

                (void)cc_remove_tree(dirs[i], &ignored);
                free(dirs[i]);
        }
}

static BOOL WINAPI on_console_event(DWORD event)
{
        (void)event;
        cc_cleanup_all();
        return FALSE; /* the next handler (the default one) ends the process */
}

static void cleanup_at_exit(void)
{
        cc_cleanup_all();
}

int cc_cleanup_install(cc_error *err)
{
        if (InterlockedExchange(&guard_on, 1) != 0)
                return 0;
        if (!SetConsoleCtrlHandler(on_console_event, TRUE))
                return cc_win_err(err, GetLastError(), "cannot install", "the console control handler");
        if (atexit(cleanup_at_exit) != 0)
                return cc_err(err, CC_ERR_NOMEM, "cannot register the clean-up at exit");
        return 0;
}

/* ---- cc_spawn_run ---------------------------------------------------------- */

int cc_spawn_run(const cc_spawn_opts *o, cc_spawn_result *r, cc_error *err)
{
        struct stream *st = NULL;
        wchar_t *wapp = NULL, *wcmd = NULL, *wenv = NULL, *wcwd = NULL;
        HANDLE job = NULL, nul = INVALID_HANDLE_VALUE, out_wr = INVALID_HANDLE_VALUE, err_wr = INVALID_HANDLE_VALUE;
        LPPROC_THREAD_ATTRIBUTE_LIST attrs = NULL;
        PROCESS_INFORMATION pi = {0};
        STARTUPINFOEXW si;
        SECURITY_ATTRIBUTES sa = {sizeof(sa), NULL, TRUE};
        HANDLE inherit[3];
        SIZE_T attr_size = 0;
        int64_t start, deadline, drain_until = 0;
        int timeout_ms, proc_done = 0, killed = 0, rv = -1, i, slot = -1;
        UINT old_mode;
        BOOL ok;

        if (r == NULL || o == NULL || o->argv == NULL || o->argv[0] == NULL || o->argv[0][0] == '\0')
                return cc_err(err, CC_ERR_USAGE, "cc_spawn_run: no program to run");
        memset(r, 0, sizeof(*r));
        if ((o->nenv_set > 0 && o->env_set == NULL) || (o->nenv_unset > 0 && o->env_unset == NULL))
                return cc_err(err, CC_ERR_USAGE, "%s: environment changes without their list", o->argv[0]);
        timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 30000;
        st = cc_calloc(err, 2, sizeof(*st));
        if (st == NULL)
                goto fail;
        for (i = 0; i < 2; i++) {
                st[i].h = INVALID_HANDLE_VALUE;
                st[i].max = o->max_output ? o->max_output : (size_t)1 << 20;
        }
        st[0].dst = &r->out;
        st[0].total = &r->out_total;
        st[1].dst = &r->errout;
        st[1].total = &r->err_total;

        wapp = cc_win_to_wide(o->argv[0], err);
        wcmd = wapp ? build_cmdline(o->argv, err) : NULL;
        wenv = wcmd ? build_env(o, err) : NULL;
        if (wenv == NULL)
                goto fail;
        if (o->cwd != NULL && (wcwd = cc_win_to_wide(o->cwd, err)) == NULL)
                goto fail;

        nul = CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa, OPEN_EXISTING, 0, NULL);
        if (nul == INVALID_HANDLE_VALUE) {
                cc_win_err(err, GetLastError(), "cannot open NUL for the standard input of", o->argv[0]);
                goto fail;
        }
        if (make_pipe(&st[0].h, &out_wr, err) < 0 || make_pipe(&st[1].h, &err_wr, err) < 0)
                goto fail;
        for (i = 0; i < 2; i++) {
                st[i].ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
                if (st[i].ov.hEvent == NULL) {
                        cc_win_err(err, GetLastError(), "cannot create an event for", o->argv[0]);
                        goto fail;
                }
        }

        /* A job kills the child and everything it starts, at the limit or
         * when we close it. Without one (a parent job that forbids nesting)
         * only the child itself can be killed. */
        job = CreateJobObjectW(NULL, NULL);
        if (job != NULL) {
                JOBOBJECT_EXTENDED_LIMIT_INFORMATION li;

                memset(&li, 0, sizeof(li));
                li.BasicLimitInformation.LimitFlags =
                    JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION;
                if (!SetInformationJobObject(job, JobObjectExtendedLimitInformation, &li, sizeof(li))) {
                        CloseHandle(job);
                        job = NULL;
                }
        }
        if (job != NULL && (slot = job_record(job)) < 0) {
                cc_err(err, CC_ERR_LIMIT, "%s: cannot start: %d child processes are running already", o->argv[0],
                       LIVE_MAX);
                goto fail;
        }

        /* Only these three handles are inherited, whatever else is
         * inheritable in this process at the moment. */
        inherit[0] = nul;
        inherit[1] = out_wr;
        inherit[2] = err_wr;
        InitializeProcThreadAttributeList(NULL, 1, 0, &attr_size);
        attrs = attr_size ? cc_malloc(err, attr_size) : NULL;
        if (attrs == NULL) {
                if (attr_size == 0)
                        cc_win_err(err, GetLastError(), "cannot prepare the start of", o->argv[0]);
                goto fail;
        }
        if (!InitializeProcThreadAttributeList(attrs, 1, 0, &attr_size)) {
                free(attrs);
                attrs = NULL;
                cc_win_err(err, GetLastError(), "cannot prepare the start of", o->argv[0]);
                goto fail;
        }
        if (!UpdateProcThreadAttribute(attrs, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, inherit, sizeof(inherit), NULL,
                                       NULL)) {
                cc_win_err(err, GetLastError(), "cannot prepare the start of", o->argv[0]);
                goto fail;
        }
        memset(&si, 0, sizeof(si));
        si.StartupInfo.cb = sizeof(si);
        si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
        si.StartupInfo.hStdInput = nul;
        si.StartupInfo.hStdOutput = out_wr;
        si.StartupInfo.hStdError = err_wr;
        si.lpAttributeList = attrs;

        /* The child inherits our error mode: no dialog box for a crash, a
         * missing DLL or a drive without a disk. (CREATE_DEFAULT_ERROR_MODE
         * would give it the system default, which shows them.) */
        old_mode = GetErrorMode();
        SetErrorMode(old_mode | SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX | SEM_NOOPENFILEERRORBOX);
        start = now_ms();
        ok = CreateProcessW(wapp, wcmd, NULL, NULL, TRUE,
                            CREATE_UNICODE_ENVIRONMENT | CREATE_NO_WINDOW | CREATE_SUSPENDED |
                                EXTENDED_STARTUPINFO_PRESENT,
                            wenv, wcwd, &si.StartupInfo, &pi);
        {
                DWORD e = GetLastError();

                SetErrorMode(old_mode);
                if (!ok) {
                        char msg[256];

                        sys_msg(e, msg, sizeof(msg));
                        cc_err(err,
                               e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND ? CC_ERR_NOTFOUND : CC_ERR_IO,
                               "%s: cannot start: error %lu: %s", o->argv[0], (unsigned long)e, msg);
                        goto fail;
                }
        }
        if (job != NULL && !AssignProcessToJobObject(job, pi.hProcess)) {
                CloseHandle(job);
                job = NULL;
        }
        ResumeThread(pi.hThread);
        /* Our copies of the child's ends: EOF comes when its last holder
         * ends. */
        CloseHandle(nul);
        CloseHandle(out_wr);
        CloseHandle(err_wr);
        nul = out_wr = err_wr = INVALID_HANDLE_VALUE;

        deadline = start + timeout_ms;
        stream_start(&st[0]);
        stream_start(&st[1]);
        for (;;) {
                HANDLE wait[3];
                struct stream *ws[3];
                DWORD nw = 0, w;
                int64_t left, until = killed ? drain_until : deadline;

                for (i = 0; i < 2; i++) {
                        if (st[i].pending && !st[i].done) {
                                ws[nw] = &st[i];
                                wait[nw++] = st[i].ov.hEvent;
                        }
                }
                if (!proc_done) {
                        ws[nw] = NULL;
                        wait[nw++] = pi.hProcess;
                }
                if (nw == 0)
                        break;
                left = until - now_ms();
                if (left <= 0) {
                        if (killed)
                                break;
                        /* The limit: kill the job (the child, and any
                         * grandchild that holds the pipes), then read what
                         * is still buffered for a moment. */
                        if (!proc_done)
                                r->timed_out = 1;
                        if (job != NULL)
                                TerminateJobObject(job, CC_KILL_CODE);
                        else if (!proc_done)
                                TerminateProcess(pi.hProcess, CC_KILL_CODE);
                        killed = 1;
                        drain_until = now_ms() + CC_DRAIN_MS;
                        continue;
                }
                w = WaitForMultipleObjects(nw, wait, FALSE, left > 0x7fffffff ? 0x7fffffff : (DWORD)left);
                if (w == WAIT_TIMEOUT)
                        continue;
                if (w >= WAIT_OBJECT_0 + nw) {
                        /* cannot wait: treat it as the limit */
                        deadline = drain_until = 0;
                        if (killed)
                                break;
                        continue;
                }
                if (ws[w - WAIT_OBJECT_0] == NULL) {
                        proc_done = 1;
                        /* What it started has nothing to say once it ended:
                         * end it now rather than wait for the pipes until the
                         * limit; read what is buffered for a moment. */
                        if (job != NULL && !killed) {
                                TerminateJobObject(job, CC_KILL_CODE);
                                killed = 1;
                                drain_until = now_ms() + CC_DRAIN_MS;
                        }
                } else
                        stream_complete(ws[w - WAIT_OBJECT_0]);
        }
        stream_cancel(&st[0]);
        stream_cancel(&st[1]);
        if (!proc_done) {
                if (job != NULL)
                        TerminateJobObject(job, CC_KILL_CODE);
                TerminateProcess(pi.hProcess, CC_KILL_CODE);
                WaitForSingleObject(pi.hProcess, 5000);
        }
        r->wall_ms = now_ms() - start;
        {
                DWORD code = 0;

                if (GetExitCodeProcess(pi.hProcess, &code) && code != STILL_ACTIVE) {
                        r->exited = 1;
                        r->exit_code = (int)code;
                }
        }
        rv = 0;
fail:
        if (rv < 0 && r != NULL && st != NULL) {
                cc_buf_free(&r->out);
                cc_buf_free(&r->errout);
        }
        if (pi.hThread)
                CloseHandle(pi.hThread);
        if (pi.hProcess)
                CloseHandle(pi.hProcess);
        job_forget(slot);
        if (job != NULL)
                CloseHandle(job); /* kills whatever the child left running */
        if (attrs != NULL) {
                DeleteProcThreadAttributeList(attrs);
                free(attrs);
        }
        if (nul != INVALID_HANDLE_VALUE)
                CloseHandle(nul);
        if (out_wr != INVALID_HANDLE_VALUE)
                CloseHandle(out_wr);
        if (err_wr != INVALID_HANDLE_VALUE)
                CloseHandle(err_wr);
        if (st != NULL) {
                for (i = 0; i < 2; i++) {
                        if (st[i].h != INVALID_HANDLE_VALUE)
                                CloseHandle(st[i].h);
                        if (st[i].ov.hEvent != NULL)
                                CloseHandle(st[i].ov.hEvent);
                }
        }
        free(st);
        free(wapp);
        free(wcmd);
        free(wenv);
        free(wcwd);
        return rv;
}

/* ---- clock, own path, files ------------------------------------------------ */

int64_t cc_monotonic_us(void)
{
        static LARGE_INTEGER freq;
        LARGE_INTEGER c;

        if (freq.QuadPart == 0)
                QueryPerformanceFrequency(&freq);
        QueryPerformanceCounter(&c);
        if (freq.QuadPart <= 0)
                return (int64_t)GetTickCount64() * 1000;
        return (c.QuadPart / freq.QuadPart) * 1000000 + (c.QuadPart % freq.QuadPart) * 1000000 / freq.QuadPart;
}

/* The file name of a loaded module (NULL: the program), any length. */
static char *module_file(HMODULE mod, cc_error *err)
{
        DWORD size = MAX_PATH, n;
        wchar_t *w = NULL, *nw;
        char *s;

        for (;;) {
                nw = cc_realloc(err, w, (size_t)size * sizeof(wchar_t));
                if (nw == NULL) {
                        free(w);
                        return NULL;
                }
                w = nw;
                n = GetModuleFileNameW(mod, w, size);
                if (n == 0) {
                        free(w);
                        cc_win_err(err, GetLastError(), "cannot read", "a module's file name");
                        return NULL;
                }
                if (n < size)
                        break;
                if (size >= 32768) {
                        free(w);
                        cc_err(err, CC_ERR_LIMIT, "a module's file name is longer than 32767 characters");
                        return NULL;
                }
                size *= 2;
        }
        s = cc_win_from_wide(w, err);
        free(w);
        return s;
}

char *cc_self_exe(cc_error *err)
{
        return module_file(NULL, err);
}

char *cc_make_temp_dir(const char *prefix, cc_error *err)
{
        static LONG counter;
        wchar_t tmp[MAX_PATH + 2];
        char *base = NULL, *path = NULL;
        wchar_t *w = NULL;
        DWORD n;
        int attempt;

        if (prefix == NULL || *prefix == '\0')
                prefix = "cudnnctl";
        if (strpbrk(prefix, "\\/:*?\"<>|") != NULL || strlen(prefix) > 64) {
                cc_err(err, CC_ERR_USAGE, "temporary directory prefix \"%s\" is not a plain short name", prefix);
                return NULL;
        }
        n = GetTempPathW(CC_ARRAY_LEN(tmp), tmp);
        if (n == 0 || n >= CC_ARRAY_LEN(tmp)) {
                cc_win_err(err, GetLastError(), "cannot find", "the temporary directory");
                return NULL;
        }
        base = cc_win_from_wide(tmp, err);
        if (base == NULL)
                return NULL;
        for (attempt = 0; attempt < 100; attempt++) {
                LARGE_INTEGER c;
                DWORD e;

                QueryPerformanceCounter(&c);
                free(path);
                free(w);
                w = NULL;
                path =
                    cc_asprintf(err, "%s%s%s-%lu-%lx-%llx", base, cc_is_sep(base[strlen(base) - 1]) ? "" : "\\", prefix,
                                (unsigned long)GetCurrentProcessId(), (unsigned long)InterlockedIncrement(&counter),
                                (unsigned long long)(c.QuadPart ^ ((LONGLONG)GetTickCount64() << 20)));
                if (path == NULL || (w = cc_win_to_wide(path, err)) == NULL)
                        break;
                if (CreateDirectoryW(w, NULL)) {
                        if (tmp_record(path) < 0) {
                                RemoveDirectoryW(w);
                                cc_err(err, CC_ERR_LIMIT,
                                       "%s: cannot make a temporary directory: %d are in use already", path,
                                       TMPDIRS_MAX);
                                break;
                        }
                        free(w);
                        free(base);
                        return path;
                }
                e = GetLastError();
                if (e != ERROR_ALREADY_EXISTS) {
                        cc_win_err(err, e, "cannot create", path);
                        break;
                }
                if (attempt == 99)
                        cc_err(err, CC_ERR_IO, "%s: cannot find an unused name", base);
        }
        free(w);
        free(path);
        free(base);
        return NULL;
}

/* Remove w (a wide path, in a buffer with room for cap characters, which
 * this function extends and restores). Links and junctions are removed,
 * never followed. */
static int remove_wide(wchar_t *w, size_t cap, int depth, const char *top, cc_error *err)
{
        DWORD attr = GetFileAttributesW(w);
        size_t len = wcslen(w);
        WIN32_FIND_DATAW fd;
        HANDLE h;
        int rv = -1;

        if (attr == INVALID_FILE_ATTRIBUTES) {
                DWORD e = GetLastError();

                if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND)
                        return 0;
                return cc_win_err(err, e, "cannot remove a file in", top);
        }
        if (!(attr & FILE_ATTRIBUTE_DIRECTORY) || (attr & FILE_ATTRIBUTE_REPARSE_POINT)) {
                if (attr & FILE_ATTRIBUTE_READONLY)
                        SetFileAttributesW(w, attr & ~(DWORD)FILE_ATTRIBUTE_READONLY);
                if ((attr & FILE_ATTRIBUTE_DIRECTORY) ? RemoveDirectoryW(w) : DeleteFileW(w))
                        return 0;
                return cc_win_err(err, GetLastError(), "cannot remove a file in", top);
        }
        if (depth > CC_TREE_DEPTH)
                return cc_err(err, CC_ERR_LIMIT, "%s: deeper than %d levels", top, CC_TREE_DEPTH);
        if (len + 3 > cap)
                return cc_err(err, CC_ERR_LIMIT, "%s: a path inside is too long", top);
        wcscpy(w + len, L"\\*");
        h = FindFirstFileW(w, &fd);
        w[len] = L'\0';
        if (h == INVALID_HANDLE_VALUE) {
                DWORD e = GetLastError();

                if (e != ERROR_FILE_NOT_FOUND)
                        return cc_win_err(err, e, "cannot list a directory in", top);
        } else {
                do {
                        size_t nl = wcslen(fd.cFileName);

                        if (wcscmp(fd.cFileName, L".") == 0 || wcscmp(fd.cFileName, L"..") == 0)
                                continue;
                        if (len + 1 + nl + 1 > cap) {
                                cc_err(err, CC_ERR_LIMIT, "%s: a path inside is too long", top);
                                goto fail;
                        }
                        w[len] = L'\\';
                        memcpy(w + len + 1, fd.cFileName, (nl + 1) * sizeof(wchar_t));
                        if (remove_wide(w, cap, depth + 1, top, err) < 0) {
                                w[len] = L'\0';
                                goto fail;
                        }
                        w[len] = L'\0';
                } while (FindNextFileW(h, &fd));
        }
        if (attr & FILE_ATTRIBUTE_READONLY)
                SetFileAttributesW(w, attr & ~(DWORD)FILE_ATTRIBUTE_READONLY);
        if (!RemoveDirectoryW(w)) {
                cc_win_err(err, GetLastError(), "cannot remove a directory in", top);
                goto fail;
        }
        rv = 0;
fail:
        if (h != INVALID_HANDLE_VALUE)
                FindClose(h);
        return rv;
}

int cc_remove_tree(const char *path, cc_error *err)
{
        const size_t cap = 32768;
        wchar_t *w, *buf;
        int rv;

        if (path == NULL || *path == '\0')
                return cc_err(err, CC_ERR_USAGE, "cc_remove_tree: no path");
        w = cc_win_to_wide(path, err);
        if (w == NULL)
                return -1;
        if (wcslen(w) >= cap) {
                free(w);
                return cc_err(err, CC_ERR_LIMIT, "%s: path too long", path);
        }
        buf = cc_malloc(err, cap * sizeof(wchar_t));
        if (buf == NULL) {
                free(w);
                return -1;
        }
        wcscpy(buf, w);
        free(w);
        /* no trailing separator: "dir\\" + "\\*" would not list it */
        {
                size_t len = wcslen(buf);

                while (len > 1 && (buf[len - 1] == L'\\' || buf[len - 1] == L'/') && buf[len - 2] != L':')
                        buf[--len] = L'\0';
        }
        rv = remove_wide(buf, cap, 0, path, err);
        free(buf);
        if (rv == 0)
                tmp_forget(path); /* no longer for the clean-up at exit */
        return rv;
}

int cc_write_file(const char *path, const void *data, size_t len, int executable, cc_error *err)
{
        const char *p = data;
        wchar_t *w;
        HANDLE h;

        (void)executable; /* Windows runs files by their extension */
        if (len > 0 && data == NULL)
                return cc_err(err, CC_ERR_USAGE, "%s: no data to write", path);
        w = cc_win_to_wide(path, err);
        if (w == NULL)
                return -1;
        h = CreateFileW(w, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
        free(w);
        if (h == INVALID_HANDLE_VALUE)
                return cc_win_err(err, GetLastError(), "cannot create", path);
        while (len > 0) {
                DWORD chunk = len > (1u << 30) ? (1u << 30) : (DWORD)len, done = 0;

                if (!WriteFile(h, p, chunk, &done, NULL) || done == 0) {
                        DWORD e = GetLastError();

                        CloseHandle(h);
                        return cc_win_err(err, e, "cannot write", path);
                }
                p += done;
                len -= done;
        }
        if (!CloseHandle(h))
                return cc_win_err(err, GetLastError(), "cannot write", path);
        return 0;
}

char *cc_find_program(const char *name, const char *path_value, cc_error *err)
{
        const char *p, *base;
        char *file = NULL, *hit = NULL;

        if (name == NULL || *name == '\0') {
                cc_err(err, CC_ERR_USAGE, "cc_find_program: no program name");
                return NULL;
        }
        base = cc_basename(name);
        file = strchr(base, '.') ? cc_strdup(err, name) : cc_asprintf(err, "%s.exe", name);
        if (file == NULL)
                return NULL;
        for (p = path_value ? path_value : ""; *p; p += *p == ';') {
                const char *end = strchr(p, ';');
                size_t n = end ? (size_t)(end - p) : strlen(p);
                char *dir, *cand;
                wchar_t *w;
                DWORD attr;

                /* "C:\Program Files\x" entries may be quoted */
                dir =
                    (n >= 2 && p[0] == '"' && p[n - 1] == '"') ? cc_strndup(err, p + 1, n - 2) : cc_strndup(err, p, n);
                p += n;
                if (dir == NULL)
                        goto fail;
                if (*dir == '\0') {
                        free(dir);
                        continue;
                }
                cand = cc_path_join(dir, file, err);
                free(dir);
                if (cand == NULL)
                        goto fail;
                w = cc_win_to_wide(cand, NULL);
                attr = w ? GetFileAttributesW(w) : INVALID_FILE_ATTRIBUTES;
                free(w);
                if (attr != INVALID_FILE_ATTRIBUTES && !(attr & FILE_ATTRIBUTE_DIRECTORY)) {
                        hit = cand;
                        break;
                }
                free(cand);
        }
        if (hit == NULL)
                cc_err(err, CC_ERR_NOTFOUND, "%s: not found in PATH", file);
fail:
        free(file);
        return hit;
}

/* ---- dynamic loading ------------------------------------------------------- */

FILE *cc_probe_channel(cc_error *err)
{
        HANDLE h;
        FILE *f;
        int fd;

        fflush(stdout);
        fd = _dup(1);
        if (fd < 0) {
                cc_err(err, CC_ERR_IO, "standard output: cannot keep it");
                return NULL;
        }
        /* Only this process writes results: grandchildren do not inherit it. */
        h = (HANDLE)_get_osfhandle(fd);
        if (h != INVALID_HANDLE_VALUE)
                SetHandleInformation(h, HANDLE_FLAG_INHERIT, 0);
        /* Standard output, for the C runtime and for Win32 writers alike, is
         * now standard error. */
        if (_dup2(2, 1) < 0) {
                cc_err(err, CC_ERR_IO, "standard output: cannot redirect it");
                _close(fd);
                return NULL;
        }
        SetStdHandle(STD_OUTPUT_HANDLE, GetStdHandle(STD_ERROR_HANDLE));
        f = _fdopen(fd, "wb");
        if (f == NULL) {
                cc_err(err, CC_ERR_IO, "standard output: cannot open a stream on it");
                _close(fd);
        }
        return f;
}

void *cc_dl_open(const char *path_or_name, cc_error *err)
{
        wchar_t *w = NULL, *full = NULL, *c;
        HMODULE h = NULL;
        DWORD flags = 0, e, old_mode = 0;
        char msg[256];

        if (path_or_name == NULL || *path_or_name == '\0') {
                cc_err(err, CC_ERR_USAGE, "cc_dl_open: no library name");
                return NULL;
        }
        w = cc_win_to_wide(path_or_name, err);
        if (w == NULL)
                return NULL;
        if (wcspbrk(w, L"\\/") != NULL) {
                /* A path: that file, its dependencies searched from its
                 * directory first. The flag needs an absolute path with
                 * backslashes. */
                DWORD n = GetFullPathNameW(w, 0, NULL, NULL);

                full = n ? cc_malloc(err, ((size_t)n + 1) * sizeof(wchar_t)) : NULL;
                if (full == NULL || GetFullPathNameW(w, n + 1, full, NULL) == 0) {
                        if (n == 0)
                                cc_win_err(err, GetLastError(), "cannot resolve", path_or_name);
                        goto fail;
                }
                for (c = full; *c; c++)
                        if (*c == L'/')
                                *c = L'\\';
                flags = LOAD_WITH_ALTERED_SEARCH_PATH;
        }
        SetThreadErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX, &old_mode);
        h = LoadLibraryExW(full ? full : w, NULL, flags);
        e = GetLastError();
        SetThreadErrorMode(old_mode, NULL);
        if (h == NULL) {
                sys_msg(e, msg, sizeof(msg));
                cc_err(err,
                       e == ERROR_MOD_NOT_FOUND || e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND
                           ? CC_ERR_NOTFOUND
                           : (e == ERROR_BAD_EXE_FORMAT ? CC_ERR_FORMAT : CC_ERR_IO),
                       "%s: cannot load: error %lu: %s%s", path_or_name, (unsigned long)e, msg,
                       /* The loader catches an exception in a DLL's entry point
                        * (DllMain, C/C++ static constructors) and fails the
                        * load with the exception's Win32 error. */
                       e == ERROR_NOACCESS          ? " (an access violation, exception 0xC0000005, in the DLL's "
                                                      "initialisation: caught by the loader)"
                       : e == ERROR_DLL_INIT_FAILED ? " (its DllMain returned FALSE)"
                                                    : "");
        }
fail:
        free(w);
        free(full);
        return h;
}

int cc_dl_is_loaded(const char *name)
{
        wchar_t *w;
        HMODULE h;

        if (name == NULL || *name == '\0')
                return 0;
        w = cc_win_to_wide(name, NULL);
        if (w == NULL)
                return 0;
        h = GetModuleHandleW(w);
        free(w);
        return h != NULL;
}

void *cc_dl_sym(void *handle, const char *name)
{
        FARPROC f;
        void *p;

        if (handle == NULL || name == NULL)
                return NULL;
        f = GetProcAddress((HMODULE)handle, name);
        /* ISO C has no function-to-object pointer cast; the bits are the
         * address either way on Windows. */
        memcpy(&p, &f, sizeof(p) < sizeof(f) ? sizeof(p) : sizeof(f));
        return p;
}

void cc_dl_close(void *handle)
{
        if (handle != NULL)
                FreeLibrary((HMODULE)handle);
}

char *cc_dl_path_of_addr(const void *addr, cc_error *err)
{
        HMODULE mod = NULL;

        if (addr == NULL) {
                cc_err(err, CC_ERR_USAGE, "cc_dl_path_of_addr: no address");
                return NULL;
        }
        if (!GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                                (LPCWSTR)addr, &mod)) {
                DWORD e = GetLastError();
                char what[64];

                snprintf(what, sizeof(what), "address %p", addr);
                cc_win_err(err, e, "not inside a loaded module", what);
                return NULL;
        }
        return module_file(mod, err);
}

int cc_loaded_modules(cc_strv *out, cc_error *err)
{
        HANDLE self = GetCurrentProcess();
        HMODULE *mods = NULL, *nm;
        DWORD need = 0, have = 256 * sizeof(HMODULE);
        size_t i, count;
        int rv = -1;

        for (;;) {
                nm = cc_realloc(err, mods, have);
                if (nm == NULL)
                        goto fail;
                mods = nm;
                if (!EnumProcessModules(self, mods, have, &need)) {
                        cc_win_err(err, GetLastError(), "cannot list", "the modules of this process");
                        goto fail;
                }
                if (need <= have)
                        break;
                if (need > 65536 * sizeof(HMODULE)) {
                        cc_err(err, CC_ERR_LIMIT, "this process has more than 65536 modules");
                        goto fail;
                }
                have = need + 16 * sizeof(HMODULE); /* room for a module loaded meanwhile */
        }
        count = need / sizeof(HMODULE);
        for (i = 0; i < count; i++) {
                char *s = module_file(mods[i], NULL);

                if (s == NULL)
                        continue; /* unloaded since the list was taken */
                if (cc_strv_contains(out, s)) {
                        free(s);
                        continue;
                }
                if (cc_strv_take(out, s, err) < 0)
                        goto fail;
        }
        rv = 0;
fail:
        free(mods);
        return rv;
}
/* ---- env / exec --------------------------------------------------------- */

int cc_env_put(const char *name, const char *value, cc_error *err)
{
        wchar_t *wn = cc_win_to_wide(name, err), *wv = NULL;
        BOOL ok;

        if (wn == NULL)
                return -1;
        if (value != NULL && (wv = cc_win_to_wide(value, err)) == NULL) {
                free(wn);
                return -1;
        }
        ok = SetEnvironmentVariableW(wn, wv);
        free(wn);
        free(wv);
        if (!ok && !(value == NULL && GetLastError() == ERROR_ENVVAR_NOT_FOUND))
                return cc_win_err(err, GetLastError(), "cannot set the environment variable", name);
        /* the C runtime's copy too, which getenv reads */
        if (value == NULL) {
                char *kv = NULL;
                cc_buf b = {0};

                if (cc_buf_printf(&b, err, "%s=", name) < 0)
                        return -1;
                kv = cc_buf_steal(&b);
                (void)_putenv(kv);
                free(kv);
        } else {
                (void)_putenv_s(name, value);
        }
        return 0;
}

char *cc_parent_name(void)
{
        DWORD self = GetCurrentProcessId(), parent = 0;
        HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
        PROCESSENTRY32W pe;
        char *name = NULL;
        int pass;

        if (snap == INVALID_HANDLE_VALUE)
                return NULL;
        for (pass = 0; pass < 2 && name == NULL; pass++) {
                pe.dwSize = sizeof(pe);
                if (!Process32FirstW(snap, &pe))
                        break;
                do {
                        if (pass == 0 && pe.th32ProcessID == self) {
                                parent = pe.th32ParentProcessID;
                                break;
                        }
                        if (pass == 1 && pe.th32ProcessID == parent) {
                                name = cc_win_from_wide(pe.szExeFile, NULL);
                                break;
                        }
                } while (Process32NextW(snap, &pe));
                if (pass == 0 && parent == 0)
                        break;
        }
        CloseHandle(snap);
        return name;
}

int cc_exec_program(const char *const *argv, int *status, cc_error *err)
{
        const char *prog = argv != NULL ? argv[0] : NULL;
        char *found = NULL;
        wchar_t *wapp = NULL, *wcmd = NULL;
        STARTUPINFOW si;
        PROCESS_INFORMATION pi = {0};
        DWORD code = 1;
        int rv = -1;

        *status = 1;
        if (prog == NULL || prog[0] == '\0')
                return cc_err(err, CC_ERR_USAGE, "no program to run");
        if (strpbrk(prog, "\\/:") == NULL) {
                /* searched on the new PATH (CreateProcess would search the
                 * program's own directory and the old one first) */
                found = cc_find_program(prog, getenv("PATH"), err);
                if (found == NULL)
                        return cc_err(err, CC_ERR_NOTFOUND, "%s: no such program (searched on PATH)", prog);
                prog = found;
        }
        {
                const char **v;
                size_t n = 0, i;

                while (argv[n] != NULL)
                        n++;
                v = cc_calloc(err, n + 1, sizeof(*v));
                if (v == NULL)
                        goto fail;
                v[0] = prog;
                for (i = 1; i < n; i++)
                        v[i] = argv[i];
                wcmd = build_cmdline(v, err);
                free(v);
        }
        wapp = cc_win_to_wide(prog, err);
        if (wcmd == NULL || wapp == NULL)
                goto fail;
        memset(&si, 0, sizeof(si));
        si.cb = sizeof(si);
        if (!CreateProcessW(wapp, wcmd, NULL, NULL, TRUE, CREATE_UNICODE_ENVIRONMENT, NULL, NULL, &si, &pi)) {
                DWORD e = GetLastError();

                *status = 127;
                cc_win_err(err, e, "cannot start", prog);
                if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND)
                        err->code = CC_ERR_NOTFOUND;
                goto fail;
        }
        /* Ctrl+C goes to the program; this process only waits for it */
        SetConsoleCtrlHandler(NULL, TRUE);
        WaitForSingleObject(pi.hProcess, INFINITE);
        if (GetExitCodeProcess(pi.hProcess, &code))
                *status = (int)code;
        CloseHandle(pi.hProcess);
        CloseHandle(pi.hThread);
        rv = 0;
fail:
        free(found);
        free(wapp);
        free(wcmd);
        return rv;
}

#endif

/* Keeps the translation unit non-empty on the other system. */
typedef int cc_win32_proc_unit_;
