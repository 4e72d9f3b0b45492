/* POSIX: child processes with a time limit, dynamic loading (probe children
 * only), temporary directories and small file helpers. */
#if !defined(_WIN32)
#define _GNU_SOURCE

#include "platform.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

extern char **environ;

int64_t cc_monotonic_us(void)
{
        struct timespec ts;

        if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
                return 0;
        return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The name part of "NAME=VALUE" (or the whole string) equals name. */
static int env_name_is(const char *entry, const char *name)
{
        size_t n = strlen(name);

        return strncmp(entry, name, n) == 0 && (entry[n] == '=' || entry[n] == '\0');
}

static int env_removed(const cc_spawn_opts *o, const char *entry)
{
        size_t i;

        for (i = 0; i < o->nenv_unset; i++)
                if (env_name_is(entry, o->env_unset[i]))
                        return 1;
        for (i = 0; i < o->nenv_set; i++) {
                const char *eq = strchr(o->env_set[i], '=');
                size_t n = eq ? (size_t)(eq - o->env_set[i]) : strlen(o->env_set[i]);

                if (strncmp(entry, o->env_set[i], n) == 0 && entry[n] == '=')
                        return 1;
        }
        return 0;
}

/* The child's environment: ours, less env_unset and the names env_set
 * replaces, plus env_set. The strings are borrowed. */
static char **build_env(const cc_spawn_opts *o, cc_error *err)
{
        size_t n = 0, i, k = 0;
        char **envp;

        while (environ != NULL && environ[n] != NULL)
                n++;
        envp = cc_calloc(err, n + o->nenv_set + 1, sizeof(*envp));
        if (envp == NULL)
                return NULL;
        for (i = 0; i < n; i++)
                if (!env_removed(o, environ[i]))
                        envp[k++] = environ[i];
        for (i = 0; i < o->nenv_set; i++)
                if (strchr(o->env_set[i], '=') != NULL)
                        envp[k++] = (char *)(uintptr_t)o->env_set[i];
        envp[k] = NULL;
        return envp;
}

/* ---- what the process leaves behind -----------------------------------------
 * Every child cc_spawn_run starts (it leads its own process group) and every
 * directory cc_make_temp_dir makes is on a list while it lives, so that
 * however the program ends the rest can be ended and removed:
 *   - the function that made it removes it on every one of its own paths
 *     (cc_spawn_run ends the child's whole group and reaps it; the callers of
 *     cc_make_temp_dir call cc_remove_tree);
 *   - a program that calls cc_cleanup_install gets cc_cleanup_all at exit()
 *     and from a handler of the signals that end a process (SIGINT, SIGTERM,
 *     SIGHUP, SIGQUIT, SIGPIPE), which then re-raises the signal with its
 *     default action, so the exit status says what ended it;
 *   - SIGKILL cannot be caught: each child asks the kernel to SIGKILL it when
 *     its parent dies (PR_SET_PDEATHSIG), so at least the children end. What
 *     a child started in another process group, and the temporary
 *     directories, are left then; nothing of this process can run.
 * A child that leaves its process group (setsid(), as a daemon does) is out
 * of reach of the group kill. With cc_cleanup_install the process is the
 * reaper of its orphaned descendants (PR_SET_CHILD_SUBREAPER): when the
 * child that started such a process ends, the process becomes ours, and
 * every child of ours that is not a cc_spawn_run child running now is one of
 * those, ended at once (end_strays).
 *
 * The lists are fixed arrays so the signal handler can read them: slots are
 * claimed with atomic compare-and-swap (cc_spawn_run may run on several
 * threads), and the handler uses async-signal-safe calls only (kill,
 * waitpid, open, read, getdents64, unlinkat, nanosleep), no malloc, no
 * stdio. */

#define LIVE_MAX 64      /* children running at once (one per thread that spawns) */
#define TMPDIRS_MAX 16   /* temporary directories alive at once */
#define TMPPATH_MAX 4096 /* the longest temporary directory path kept */
#define RM_DEPTH 32      /* how deep the signal-safe removal goes */
#define STRAYS_MAX 256   /* children read per pass */

#define ATOMIC_LOAD(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define ATOMIC_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)
#define ATOMIC_CAS(p, expect, v) __atomic_compare_exchange_n((p), (expect), (v), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)

/* A running child's pid (= its process group); 0: free; -1: claimed before
 * the fork (the handler skips anything <= 1, never kill(-1) or kill(-0)). */
static pid_t live_pid[LIVE_MAX];
/* 0: free; 1: being written; 2: tmp_path[i] is a directory to remove. */
static int tmp_state[TMPDIRS_MAX];
static char tmp_path[TMPDIRS_MAX][TMPPATH_MAX];
/* The process that called cc_cleanup_install (0: none). A copy made by
 * fork() that has not yet exec'd must not clean up for it. */
static pid_t guard_pid;
static int guard_reaper; /* 1: PR_SET_CHILD_SUBREAPER is on */
/* Threads between fork() and recording the child: end_strays then waits,
 * so that it never takes such a child for a stray. */
static int spawning;

/* fork() copies every descriptor, close-on-exec ones too, into a child that
 * holds them until its exec: a program being written by one thread when
 * another forks stays open for writing in that child a moment longer, and
 * running it then fails with ETXTBSY ("Text file busy": the doctor's compile
 * proof, copied from its cache and run while the framework children start).
 * An executable is written, and fork() called, under this lock. */
static pthread_mutex_t fork_lock = PTHREAD_MUTEX_INITIALIZER;

static const int guard_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};

static void block_guard_signals(sigset_t *old)
{
        sigset_t s;

        sigemptyset(&s);
        for (size_t i = 0; i < CC_ARRAY_LEN(guard_signals); i++)
                sigaddset(&s, guard_signals[i]);
        sigprocmask(SIG_BLOCK, &s, old);
}

static void nap_ms(long ms)
{
        struct timespec ts = {0, ms * 1000000L};

        nanosleep(&ts, NULL);
}

static int live_claim(void)
{
        for (int i = 0; i < LIVE_MAX; i++) {
                pid_t zero = 0;

                if (ATOMIC_CAS(&live_pid[i], &zero, (pid_t)-1))
                        return i;
        }
        return -1;
}

static int is_live(pid_t pid)
{
        for (int i = 0; i < LIVE_MAX; i++)
                if (ATOMIC_LOAD(&live_pid[i]) == pid)
                        return 1;
        return 0;
}

static int tmp_record(const char *path)
{
        size_t n = strlen(path);

        if (n >= TMPPATH_MAX)
                return -1;
        for (int i = 0; i < TMPDIRS_MAX; i++) {
                int zero = 0;

                if (ATOMIC_CAS(&tmp_state[i], &zero, 1)) {
                        memcpy(tmp_path[i], path, n + 1);
                        ATOMIC_STORE(&tmp_state[i], 2);
                        return 0;
                }
        }
        return -1;
}

static void tmp_forget(const char *path)
{
        for (int i = 0; i < TMPDIRS_MAX; i++) {
                int two = 2;

                if (ATOMIC_LOAD(&tmp_state[i]) == 2 && strcmp(tmp_path[i], path) == 0 &&
                    ATOMIC_CAS(&tmp_state[i], &two, 1)) {
                        tmp_path[i][0] = '\0';
                        ATOMIC_STORE(&tmp_state[i], 0);
                }
        }
}

/* getdents64(2): the entries of an open directory, without malloc. */
static long read_dents(int fd, void *buf, size_t size)
{
        return syscall(SYS_getdents64, fd, buf, size);
}

struct dent64 {
        uint64_t ino;
        int64_t off;
        unsigned short reclen;
        unsigned char type;
        char name[];
};

static int all_digits(const char *s)
{
        if (*s == '\0')
                return 0;
        for (; *s; s++)
                if (*s < '0' || *s > '9')
                        return 0;
        return 1;
}

/* Parse the space-separated pids of an open file into out[*n...]. */
static void read_pids(int fd, pid_t *out, size_t max, size_t *n)
{
        char buf[512];
        long cur = -1;
        ssize_t got;

        while ((got = read(fd, buf, sizeof(buf))) > 0) {
                for (ssize_t i = 0; i < got; i++) {
                        if (buf[i] >= '0' && buf[i] <= '9') {
                                cur = (cur < 0 ? 0 : cur * 10) + (buf[i] - '0');
                                if (cur > 0x3fffffff)
                                        cur = -1;
                        } else if (cur >= 0) {
                                if (*n < max)
                                        out[(*n)++] = (pid_t)cur;
                                cur = -1;
                        }
                }
        }
        if (cur >= 0 && *n < max)
                out[(*n)++] = (pid_t)cur;
}

/* open(pre + name + post) for reading when name is a pid (all digits, at
 * most 20), else -1; async-signal-safe (no malloc, no stdio). */
static int open_pid_file(const char *pre, const char *name, const char *post)
{
        char path[128];
        size_t a = strlen(pre), b = strlen(name), c = strlen(post);

        if (!all_digits(name) || b > 20 || a + b + c >= sizeof(path))
                return -1;
        memcpy(path, pre, a);
        memcpy(path + a, name, b);
        memcpy(path + a + b, post, c + 1);
        return open(path, O_RDONLY | O_CLOEXEC);
}

/* The children of this process (alive or not yet reaped): from the
 * kernel's list of each thread's children; without one
 * (CONFIG_PROC_CHILDREN off), by the parent field of every /proc/PID/stat.
 * -1 when neither can be read. Async-signal-safe. */
static long list_children(pid_t *out, size_t max)
{
        _Alignas(8) char buf[2048];
        size_t n = 0;
        long got;
        int d, have_list = 0;
        pid_t me = getpid();

        d = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (d < 0)
                return -1;
        while ((got = read_dents(d, buf, sizeof(buf))) > 0) {
                for (long off = 0; off < got;) {
                        struct dent64 *e = (struct dent64 *)(void *)(buf + off);
                        int f;

                        off += e->reclen;
                        f = open_pid_file("/proc/self/task/", e->name, "/children");
                        if (f < 0)
                                continue;
                        have_list = 1;
                        read_pids(f, out, max, &n);
                        close(f);
                }
        }
        close(d);
        if (have_list)
                return (long)n;
        /* Every process's parent, from /proc/PID/stat: "PID (COMM) S PPID ...",
         * COMM may hold spaces and parentheses: the last ')' ends it. */
        d = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (d < 0)
                return -1;
        while ((got = read_dents(d, buf, sizeof(buf))) > 0) {
                for (long off = 0; off < got;) {
                        struct dent64 *e = (struct dent64 *)(void *)(buf + off);
                        char st[512];
                        ssize_t r;
                        int f;
                        char *rp = NULL;
                        long ppid = 0;

                        off += e->reclen;
                        f = open_pid_file("/proc/", e->name, "/stat");
                        if (f < 0)
                                continue;
                        r = read(f, st, sizeof(st) - 1);
                        close(f);
                        if (r <= 0)
                                continue;
                        st[r] = '\0';
                        for (ssize_t i = 0; i < r; i++)
                                if (st[i] == ')')
                                        rp = st + i;
                        if (rp == NULL || rp[1] != ' ' || rp[2] == '\0' || rp[3] != ' ')
                                continue;
                        for (rp += 4; *rp >= '0' && *rp <= '9'; rp++)
                                ppid = ppid * 10 + (*rp - '0');
                        if (ppid == (long)me && n < max) {
                                long pid = 0;

                                for (const char *q = e->name; *q; q++)
                                        pid = pid * 10 + (*q - '0');
                                out[n++] = (pid_t)pid;
                        }
                }
        }
        close(d);
        return (long)n;
}

/* SIGKILL to a child of ours and to the process group it leads, if it
 * leads one. Its pid cannot have been reused: it is ours and not reaped. */
static void kill_child_and_group(pid_t pid)
{
        if (pid <= 1)
                return;
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
}

/* With the subreaper on: end every child of ours that is not a cc_spawn_run
 * child running now, and reap it; what those leave comes back to us and is
 * ended in the next pass. At most about a second; not from the handler. */
static void end_strays(void)
{
        pid_t kids[STRAYS_MAX];
        int pass;

        if (!ATOMIC_LOAD(&guard_reaper) || ATOMIC_LOAD(&guard_pid) != getpid())
                return;
        for (pass = 0; pass < 200; pass++) {
                long n;
                int strays = 0;

                if (ATOMIC_LOAD(&spawning) != 0) {
                        nap_ms(5);
                        continue;
                }
                n = list_children(kids, STRAYS_MAX);
                /* A fork that began while the list was read: its child is not
                 * in it, but read again to be sure of the others. */
                if (n < 0 || ATOMIC_LOAD(&spawning) != 0) {
                        if (n < 0)
                                return;
                        continue;
                }
                for (long i = 0; i < n; i++) {
                        if (is_live(kids[i]))
                                continue;
                        strays++;
                        kill_child_and_group(kids[i]);
                        while (waitpid(kids[i], NULL, WNOHANG) < 0 && errno == EINTR)
                                ;
                }
                if (strays == 0)
                        return;
                nap_ms(5);
        }
}

/* Remove name under dirfd and everything in it, with async-signal-safe
 * calls only (getdents64 and unlinkat instead of opendir and malloc). Links
 * are removed, not followed. 0 when it is gone. */
static int rm_at(int dirfd, const char *name, int depth)
{
        _Alignas(8) char buf[1024];
        int fd, removed, pass;
        long got;

        if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT)
                return 0;
        if ((errno != EISDIR && errno != EPERM) || depth > RM_DEPTH)
                return -1;
        fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return -1;
        /* Removing entries while reading the directory may skip some: read it
         * again from the start while a pass still removes something. */
        for (pass = 0, removed = 1; removed && pass < 64; pass++) {
                removed = 0;
                if (lseek(fd, 0, SEEK_SET) != 0)
                        break;
                while ((got = read_dents(fd, buf, sizeof(buf))) > 0) {
                        for (long off = 0; off < got;) {
                                struct dent64 *e = (struct dent64 *)(void *)(buf + off);

                                off += e->reclen;
                                if (strcmp(e->name, ".") != 0 && strcmp(e->name, "..") != 0 &&
                                    rm_at(fd, e->name, depth + 1) == 0)
                                        removed = 1;
                        }
                }
        }
        close(fd);
        return unlinkat(dirfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT ? 0 : -1;
}

/* Everything cc_cleanup_all does; async-signal-safe. */
static void cleanup_now(void)
{
        int64_t until;
        int reaper = ATOMIC_LOAD(&guard_reaper) && ATOMIC_LOAD(&guard_pid) == getpid();

        for (int i = 0; i < LIVE_MAX; i++)
                kill_child_and_group(ATOMIC_LOAD(&live_pid[i]));
        /* Wait (a while) for them to end, so nothing writes into a directory
         * being removed; as the reaper, end whatever comes back to us too. */
        until = cc_monotonic_us() + 2000000;
        for (;;) {
                int left = 0;

                if (reaper) {
                        pid_t kids[STRAYS_MAX];
                        long n = list_children(kids, STRAYS_MAX);
                        pid_t w;

                        for (long i = 0; i < n; i++)
                                kill_child_and_group(kids[i]);
                        while ((w = waitpid(-1, NULL, WNOHANG)) > 0)
                                ;
                        left = !(w < 0 && errno == ECHILD);
                } else {
                        for (int i = 0; i < LIVE_MAX; i++) {
                                pid_t p = ATOMIC_LOAD(&live_pid[i]);

                                if (p > 1 && waitpid(p, NULL, WNOHANG) == 0)
                                        left = 1;
                        }
                }
                if (!left || cc_monotonic_us() >= until)
                        break;
                nap_ms(5);
        }
        for (int i = 0; i < TMPDIRS_MAX; i++) {
                int two = 2;

                if (ATOMIC_LOAD(&tmp_state[i]) == 2 && ATOMIC_CAS(&tmp_state[i], &two, 1)) {
                        rm_at(AT_FDCWD, tmp_path[i], 0);
                        ATOMIC_STORE(&tmp_state[i], 0);
                }
        }
}

void cc_cleanup_all(void)
{
        int saved = errno;

        cleanup_now();
        errno = saved;
}

static void on_guard_signal(int sig)
{
        struct sigaction dfl;
        sigset_t s;

        if (ATOMIC_LOAD(&guard_pid) == getpid())
                cleanup_now();
        /* End the way the signal would have ended the process. */
        memset(&dfl, 0, sizeof(dfl));
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        sigaction(sig, &dfl, NULL);
        sigemptyset(&s);
        sigaddset(&s, sig);
        sigprocmask(SIG_UNBLOCK, &s, NULL);
        raise(sig);
        _exit(128 + sig);
}

int cc_cleanup_install(cc_error *err)
{
        struct sigaction sa, old;
        size_t i;

        if (ATOMIC_LOAD(&guard_pid) == getpid())
                return 0;
#if defined(__linux__)
        /* Orphans of our children come to us, not to init: so a process
         * that left its group can still be found and ended. Not fatal when
         * refused (a kernel before 3.4): the rest still works. */
        ATOMIC_STORE(&guard_reaper, prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0);
#endif
        ATOMIC_STORE(&guard_pid, getpid());
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_guard_signal;
        sigemptyset(&sa.sa_mask);
        /* One cleanup at a time: the others wait until the first ends us. */
        for (i = 0; i < CC_ARRAY_LEN(guard_signals); i++)
                sigaddset(&sa.sa_mask, guard_signals[i]);
        for (i = 0; i < CC_ARRAY_LEN(guard_signals); i++) {
                /* A signal ignored by whoever started us (nohup, a background
                 * job of a shell without job control) stays ignored. */
                if (sigaction(guard_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
                        continue;
                if (sigaction(guard_signals[i], &sa, NULL) != 0)
                        return cc_err_errno(err, errno, "cannot catch signal %d", guard_signals[i]);
        }
        if (atexit(cc_cleanup_all) != 0)
                return cc_err(err, CC_ERR_NOMEM, "cannot register the clean-up at exit");
        return 0;
}

/* In the child between fork and exec: only async-signal-safe calls. mask:
 * the signal mask to give the program (the parent's before the fork). */
/* posix_thread.c: in a thread of cc_thread_start, the mask of the thread
 * that started it (a child spawned there gets that, not the thread's own,
 * which blocks every signal); else NULL. */
const sigset_t *cc_posix_thread_child_mask(void);

static void child_exec(const cc_spawn_opts *o, char **envp, int out_w, int err_w, int report_w, pid_t parent,
                       const sigset_t *mask)
{
        struct sigaction dfl;
        int e, devnull;

        /* The parent's clean-up handler is not this process's to run: the
         * default action, then the mask of before the fork. */
        memset(&dfl, 0, sizeof(dfl));
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        for (size_t i = 0; i < CC_ARRAY_LEN(guard_signals); i++) {
                struct sigaction cur;

                if (sigaction(guard_signals[i], NULL, &cur) == 0 && cur.sa_handler == on_guard_signal)
                        sigaction(guard_signals[i], &dfl, NULL);
        }
        signal(SIGPIPE, SIG_DFL);
        sigprocmask(SIG_SETMASK, mask, NULL);
        setpgid(0, 0);
#if defined(__linux__)
        /* SIGKILL when the parent dies, even by SIGKILL (which no handler
         * sees). It is tied to the thread that forked, which waits in
         * cc_spawn_run until the child ends. If the parent died before this
         * line, the child was re-parented already: do not run. */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0 || getppid() != parent)
                _exit(127);
#else
        (void)parent;
#endif
        devnull = open("/dev/null", O_RDONLY);
        if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0)
                goto fail;
        if (o->cwd != NULL && chdir(o->cwd) != 0)
                goto fail;
        execve(o->argv[0], (char *const *)(uintptr_t)o->argv, envp);
fail:
        e = errno;
        if (write(report_w, &e, sizeof(e)) < 0) {
                /* nothing more can be said */
        }
        _exit(127);
}

/* Read what is there from fd into b (up to max), counting every byte.
 * Returns 0 at end of file, 1 if more may come. */
static int drain(int fd, cc_buf *b, size_t max, uint64_t *total)
{
        char chunk[65536];
        ssize_t r = read(fd, chunk, sizeof(chunk));

        if (r < 0)
                return (errno == EINTR || errno == EAGAIN) ? 1 : 0;
        if (r == 0)
                return 0;
        *total += (uint64_t)r;
        if (b->len < max) {
                size_t take = (size_t)r < max - b->len ? (size_t)r : max - b->len;
                cc_error ignored = {0};

                if (cc_buf_append(b, chunk, take, &ignored) < 0) {
                        /* out of memory: the count stays right, the text is cut */
                }
        }
        return 1;
}

int cc_spawn_run(const cc_spawn_opts *o, cc_spawn_result *r, cc_error *err)
{
        int outp[2] = {-1, -1}, errp[2] = {-1, -1}, rep[2] = {-1, -1};
        int timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 30000;
        size_t max = o->max_output ? o->max_output : (size_t)1 << 20;
        int64_t start, deadline, reaped_at = -1;
        int open_out = 1, open_err = 1, reaped = 0, status = 0, child_errno = 0, rv = -1, slot = -1;
        char **envp = NULL;
        pid_t pid, parent;
        sigset_t mask;
        ssize_t got;

        memset(r, 0, sizeof(*r));
        if (o->argv == NULL || o->argv[0] == NULL)
                return cc_err(err, CC_ERR_USAGE, "no program to run");
        for (size_t i = 0; i < o->nenv_set; i++)
                if (o->env_set[i] == NULL || o->env_set[i][0] == '=' || strchr(o->env_set[i], '=') == NULL)
                        return cc_err(err, CC_ERR_USAGE, "%s: environment entry '%s' is not NAME=VALUE", o->argv[0],
                                      o->env_set[i] ? o->env_set[i] : "(null)");
        envp = build_env(o, err);
        if (envp == NULL)
                return -1;
        if (pipe2(outp, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0 || pipe2(rep, O_CLOEXEC) < 0) {
                cc_err_errno(err, errno, "%s: cannot make pipes", o->argv[0]);
                goto done;
        }
        slot = live_claim();
        if (slot < 0) {
                cc_err(err, CC_ERR_LIMIT, "%s: cannot start: %d child processes are running already", o->argv[0],
                       LIVE_MAX);
                goto done;
        }
        /* The guard's signals wait until the child is on the list, so the
         * handler never misses it; the child gets the mask back before exec. */
        parent = getpid();
        pthread_mutex_lock(&fork_lock);
        __atomic_add_fetch(&spawning, 1, __ATOMIC_SEQ_CST);
        block_guard_signals(&mask);
        start = cc_monotonic_us();
        pid = fork();
        if (pid == 0)
                child_exec(o, envp, outp[1], errp[1], rep[1], parent,
                           cc_posix_thread_child_mask() ? cc_posix_thread_child_mask() : &mask);
        if (pid > 0)
                ATOMIC_STORE(&live_pid[slot], pid);
        sigprocmask(SIG_SETMASK, &mask, NULL);
        __atomic_sub_fetch(&spawning, 1, __ATOMIC_SEQ_CST);
        pthread_mutex_unlock(&fork_lock);
        if (pid < 0) {
                cc_err_errno(err, errno, "%s: cannot start", o->argv[0]);
                goto done;
        }
        setpgid(pid, pid); /* also here, so the group exists before any kill */
        close(outp[1]);
        close(errp[1]);
        close(rep[1]);
        outp[1] = errp[1] = rep[1] = -1;
        do
                got = read(rep[0], &child_errno, sizeof(child_errno));
        while (got < 0 && errno == EINTR);
        if (got == (ssize_t)sizeof(child_errno)) {
                while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                        ;
                cc_err_errno(err, child_errno, "%s: cannot run", o->argv[0]);
                goto done;
        }
        deadline = start + (int64_t)timeout_ms * 1000;
        for (;;) {
                struct pollfd pf[2];
                int np = 0, slice;
                int64_t now = cc_monotonic_us();

                if (!reaped) {
                        siginfo_t si;

                        /* Seen without reaping: the zombie keeps the group's id
                         * from being reused while what the child left in its
                         * group is ended. Descendants have nothing to say once
                         * the child has ended; the output they wrote stays in
                         * the pipes. */
                        memset(&si, 0, sizeof(si));
                        if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid) {
                                kill(-pid, SIGKILL);
                                while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                                        ;
                                reaped = 1;
                                reaped_at = now;
                                end_strays();
                        }
                }
                if (reaped && !open_out && !open_err)
                        break;
                /* At the limit, end the whole group. A process outside it may
                 * still hold the pipes after the child ended (it left the group
                 * and there is no subreaper to find it): give up on the pipes
                 * after a moment. */
                if (now >= deadline || (reaped && now - reaped_at > 500000)) {
                        if (!reaped) {
                                r->timed_out = 1;
                                kill(-pid, SIGKILL);
                                kill(pid, SIGKILL);
                                while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                                        ;
                                reaped = 1;
                        }
                        end_strays();
                        break;
                }
                if (open_out)
                        pf[np++] = (struct pollfd){.fd = outp[0], .events = POLLIN};
                if (open_err)
                        pf[np++] = (struct pollfd){.fd = errp[0], .events = POLLIN};
                slice = (int)((deadline - now) / 1000) + 1;
                if (slice > 20)
                        slice = 20;
                if (np == 0) {
                        struct timespec ts = {0, (long)slice * 1000000L};

                        nanosleep(&ts, NULL);
                        continue;
                }
                if (poll(pf, (nfds_t)np, slice) <= 0)
                        continue;
                for (int i = 0; i < np; i++) {
                        if (!(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
                                continue;
                        if (pf[i].fd == outp[0])
                                open_out = drain(outp[0], &r->out, max, &r->out_total);
                        else
                                open_err = drain(errp[0], &r->errout, max, &r->err_total);
                }
        }
        r->wall_ms = (cc_monotonic_us() - start) / 1000;
        if (WIFEXITED(status)) {
                r->exited = 1;
                r->exit_code = WEXITSTATUS(status);
        } else if (WIFSIGNALED(status)) {
                r->signal = WTERMSIG(status);
        }
        rv = 0;
done:
        if (slot >= 0)
                ATOMIC_STORE(&live_pid[slot], 0);
        for (int i = 0; i < 2; i++) {
                if (outp[i] >= 0)
                        close(outp[i]);
                if (errp[i] >= 0)
                        close(errp[i]);
                if (rep[i] >= 0)
                        close(rep[i]);
        }
        free(envp);
        return rv;
}

char *cc_self_exe(cc_error *err)
{
        char buf[4096];
        ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

        if (n <= 0 || (size_t)n >= sizeof(buf) - 1) {
                cc_err(err, CC_ERR_IO, "/proc/self/exe: cannot read the program's own path");
                return NULL;
        }
        return cc_strndup(err, buf, (size_t)n);
}

/* The private directories of runs that were killed (kill -9 runs no
 * handler): PREFIX-PID-XXXXXX in tmp, of this user, whose process is gone
 * and that were last changed over an hour ago (a process of another PID
 * namespace sharing tmp may look gone: the hour is its margin). At most
 * 4096 names are looked at; nothing is said of what cannot be removed. */
static void sweep_stale(const char *tmp, const char *prefix)
{
        size_t pl = strlen(prefix), seen = 0;
        time_t now = time(NULL);
        struct dirent *e;
        DIR *d = opendir(tmp);

        if (d == NULL)
                return;
        while ((e = readdir(d)) != NULL && seen++ < 4096) {
                const char *q = e->d_name + pl + 1;
                char *end, *path;
                long pid;
                struct stat st;
                cc_error ignore = {0};

                if (strncmp(e->d_name, prefix, pl) != 0 || e->d_name[pl] != '-' || *q < '1' || *q > '9')
                        continue;
                pid = strtol(q, &end, 10);
                if (*end != '-' || strlen(end + 1) != 6 || pid <= 0 || pid == (long)getpid() ||
                    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
                        continue;
                path = cc_asprintf(NULL, "%s/%s", tmp, e->d_name);
                if (path != NULL && lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
                    now - st.st_mtime > 3600)
                        (void)cc_remove_tree(path, &ignore);
                free(path);
        }
        closedir(d);
}

char *cc_make_temp_dir(const char *prefix, cc_error *err)
{
        const char *tmp = getenv("TMPDIR");
        char *tmpl;

        if (tmp == NULL || tmp[0] != '/')
                tmp = "/tmp";
        if (prefix == NULL)
                prefix = "cudnnctl";
        sweep_stale(tmp, prefix);
        /* the PID in the name: a later run removes it if this one is killed */
        tmpl = cc_asprintf(err, "%s/%s-%ld-XXXXXX", tmp, prefix, (long)getpid());
        if (tmpl == NULL)
                return NULL;
        {
                sigset_t mask;
                int e = 0, recorded = 0;

                /* Made and on the list with no signal in between. */
                block_guard_signals(&mask);
                if (mkdtemp(tmpl) == NULL)
                        e = errno;
                else if (tmp_record(tmpl) == 0)
                        recorded = 1;
                else
                        rmdir(tmpl);
                sigprocmask(SIG_SETMASK, &mask, NULL);
                if (e != 0) {
                        cc_err_errno(err, e, "%s: cannot make a temporary directory", tmpl);
                        free(tmpl);
                        return NULL;
                }
                if (!recorded) {
                        cc_err(err, CC_ERR_LIMIT, "%s: cannot make a temporary directory: %d are in use already", tmpl,
                               TMPDIRS_MAX);
                        free(tmpl);
                        return NULL;
                }
        }
        return tmpl;
}

static int remove_at(const char *path, int depth, cc_error *err)
{
        struct stat st;
        DIR *d;
        struct dirent *e;
        int rv = 0;

        if (lstat(path, &st) != 0)
                return errno == ENOENT ? 0 : cc_err_errno(err, errno, "%s: cannot remove", path);
        if (!S_ISDIR(st.st_mode)) {
                if (unlink(path) != 0)
                        return cc_err_errno(err, errno, "%s: cannot remove", path);
                return 0;
        }
        if (depth > 64)
                return cc_err(err, CC_ERR_LIMIT, "%s: too deep to remove", path);
        d = opendir(path);
        if (d == NULL)
                return cc_err_errno(err, errno, "%s: cannot open", path);
        while ((e = readdir(d)) != NULL) {
                char *sub;

                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                        continue;
                sub = cc_asprintf(err, "%s/%s", path, e->d_name);
                if (sub == NULL || remove_at(sub, depth + 1, err) < 0)
                        rv = -1;
                free(sub);
                if (rv < 0)
                        break;
        }
        closedir(d);
        if (rv == 0 && rmdir(path) != 0)
                rv = cc_err_errno(err, errno, "%s: cannot remove", path);
        return rv;
}

int cc_remove_tree(const char *path, cc_error *err)
{
        if (remove_at(path, 0, err) < 0)
                return -1;
        tmp_forget(path); /* no longer for the clean-up at exit */
        return 0;
}

static int write_whole(const char *path, const void *data, size_t len, int executable, cc_error *err)
{
        const char *p = data;
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, executable ? 0755 : 0644);

        if (fd < 0)
                return cc_err_errno(err, errno, "%s: cannot create", path);
        while (len > 0) {
                ssize_t w = write(fd, p, len);

                if (w < 0 && errno == EINTR)
                        continue;
                if (w <= 0) {
                        int e = w < 0 ? errno : ENOSPC;

                        close(fd);
                        return cc_err_errno(err, e, "%s: cannot write", path);
                }
                p += w;
                len -= (size_t)w;
        }
        if (close(fd) != 0)
                return cc_err_errno(err, errno, "%s: cannot write", path);
        return 0;
}

int cc_write_file(const char *path, const void *data, size_t len, int executable, cc_error *err)
{
        int rc;

        if (!executable)
                return write_whole(path, data, len, 0, err);
        /* no fork while it is open for writing (fork_lock) */
        pthread_mutex_lock(&fork_lock);
        rc = write_whole(path, data, len, 1, err);
        pthread_mutex_unlock(&fork_lock);
        return rc;
}

static int is_exec_file(const char *path)
{
        struct stat st;

        return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

char *cc_find_program(const char *name, const char *path_value, cc_error *err)
{
        const char *p, *end;

        if (name == NULL || name[0] == '\0') {
                cc_err(err, CC_ERR_USAGE, "no program name");
                return NULL;
        }
        if (strchr(name, '/') != NULL) {
                if (is_exec_file(name))
                        return cc_strdup(err, name);
                cc_err(err, CC_ERR_NOTFOUND, "%s: not an executable file", name);
                return NULL;
        }
        for (p = path_value ? path_value : "";; p = end + 1) {
                char *cand;

                end = strchr(p, ':');
                if (end == NULL)
                        end = p + strlen(p);
                if (end == p)
                        cand = cc_asprintf(err, "./%s", name); /* an empty entry is the current directory */
                else
                        cand = cc_asprintf(err, "%.*s/%s", (int)(end - p), p, name);
                if (cand == NULL)
                        return NULL;
                if (is_exec_file(cand))
                        return cand;
                free(cand);
                if (*end == '\0')
                        break;
        }
        cc_err(err, CC_ERR_NOTFOUND, "%s: not found on PATH", name);
        return NULL;
}

/* ---- dynamic loading ------------------------------------------------------ */

FILE *cc_probe_channel(cc_error *err)
{
        int fd;
        FILE *f;

        fflush(stdout);
        fd = fcntl(1, F_DUPFD_CLOEXEC, 3);
        if (fd < 0) {
                cc_err_errno(err, errno, "standard output: cannot keep it");
                return NULL;
        }
        if (dup2(2, 1) < 0) {
                cc_err_errno(err, errno, "standard output: cannot redirect it");
                close(fd);
                return NULL;
        }
        f = fdopen(fd, "w");
        if (f == NULL) {
                cc_err_errno(err, errno, "standard output: cannot open a stream on it");
                close(fd);
        }
        return f;
}

void *cc_dl_open(const char *path_or_name, cc_error *err)
{
        void *h;
        const char *msg;

        dlerror();
        /* RTLD_GLOBAL as for a program linked against the library; RTLD_NOW so
         * that an undefined or wrongly versioned symbol shows at load time. */
        h = dlopen(path_or_name, RTLD_NOW | RTLD_GLOBAL);
        if (h != NULL)
                return h;
        msg = dlerror();
        cc_err(err, CC_ERR_NOTFOUND, "%s", msg ? msg : "cannot load (no reason given)");
        return NULL;
}

int cc_dl_is_loaded(const char *name)
{
        void *h = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);

        if (h == NULL)
                return 0;
        dlclose(h);
        return 1;
}

void *cc_dl_sym(void *handle, const char *name)
{
        return handle ? dlsym(handle, name) : NULL;
}

void cc_dl_close(void *handle)
{
        if (handle != NULL)
                dlclose(handle);
}

char *cc_dl_path_of_addr(const void *addr, cc_error *err)
{
        Dl_info info;
        struct link_map *lm;

        /* A handle from dlopen is glibc's link_map of that object: find it in
         * the loader's own list rather than dereferencing what was passed. */
        for (lm = _r_debug.r_map; addr != NULL && lm != NULL; lm = lm->l_next)
                if ((const void *)lm == addr && lm->l_name != NULL && lm->l_name[0] != '\0')
                        return cc_strdup(err, lm->l_name);
        if (addr == NULL || dladdr(addr, &info) == 0 || info.dli_fname == NULL) {
                cc_err(err, CC_ERR_NOTFOUND, "no module holds that address");
                return NULL;
        }
        return cc_strdup(err, info.dli_fname);
}

int cc_loaded_modules(cc_strv *out, cc_error *err)
{
        char *maps = NULL, *line, *save = NULL;
        size_t len;

        if (cc_read_stream("/proc/self/maps", (size_t)64 << 20, &maps, &len, err) < 0)
                return -1;
        for (line = strtok_r(maps, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
                char *path = strchr(line, '/');
                size_t n;

                /* "addr perms offset dev inode   /path": the path is the first '/'
                 * after the fixed fields; anonymous and [special] maps have none. */
                if (path == NULL)
                        continue;
                n = strlen(path);
                if (n > 10 && strcmp(path + n - 10, " (deleted)") == 0)
                        n -= 10;
                path[n] = '\0';
                if (cc_strv_contains(out, path))
                        continue;
                if (cc_strv_push(out, path, err) < 0) {
                        free(maps);
                        return -1;
                }
        }
        free(maps);
        return 0;
}

/* ---- env / exec --------------------------------------------------------- */

int cc_env_put(const char *name, const char *value, cc_error *err)
{
        if ((value != NULL ? setenv(name, value, 1) : unsetenv(name)) != 0)
                return cc_err_errno(err, errno, "%s", name);
        return 0;
}

char *cc_parent_name(void)
{
        char path[64], *text = NULL, *nl;
        size_t len = 0;
        cc_error e = {0};

        snprintf(path, sizeof(path), "/proc/%ld/comm", (long)getppid());
        if (cc_read_stream(path, 256, &text, &len, &e) < 0)
                return NULL;
        if ((nl = strchr(text, '\n')) != NULL)
                *nl = '\0';
        return text;
}

int cc_exec_program(const char *const *argv, int *status, cc_error *err)
{
        sigset_t none;

        *status = 127;
        if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0')
                return cc_err(err, CC_ERR_USAGE, "no program to run");
        /* the program gets the process as a shell would give it: not the
         * reaper of orphans, every signal unblocked (handlers reset by exec) */
        (void)prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
        sigemptyset(&none);
        (void)sigprocmask(SIG_SETMASK, &none, NULL);
        execvp(argv[0], (char *const *)(uintptr_t)argv);
        *status = errno == ENOENT ? 127 : 126;
        return cc_err(err, errno == ENOENT ? CC_ERR_NOTFOUND : CC_ERR_IO, "%s: %s", argv[0],
                      errno == ENOENT ? "no such program (searched on PATH)" : strerror(errno));
}

#else
typedef int cc_posix_proc_unused_;
#endif
