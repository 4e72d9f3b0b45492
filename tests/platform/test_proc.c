/* The child-process, loading and file functions of platform.h, on both
 * systems. No cmocka (the mingw build has none): checks are counted and the
 * last line is "N passed, M failed"; the exit status is 0 only when M == 0.
 *
 * The program re-executes itself (cc_self_exe) in child modes:
 *   child exit N | crash | abort | sleep S | spawn-sleeper [wait] |
 *   flood N | env NAME | env-count NAME | cwd | stdin | channel | args ARG... |
 *   spawn-escaper [wait] | pidfile PATH S | spawn-pidfile PATH
 */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#endif

#include "platform/platform.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <direct.h>
#include <fcntl.h>
#include <io.h>
#define EXE_SUFFIX ".exe"
#define PATH_LIST_SEP ";"
#else
#include <errno.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#define EXE_SUFFIX ""
#define PATH_LIST_SEP ":"
extern char **environ;
#endif

static int n_passed, n_failed;
static char *self;

static void check_(int ok, int line, const char *what)
{
        if (ok) {
                n_passed++;
                return;
        }
        n_failed++;
        printf("FAIL line %d: %s\n", line, what);
        fflush(stdout);
}
#define CHECK(c) check_((c) != 0, __LINE__, #c)

/* ---- child side ------------------------------------------------------------ */

static void sleep_ms(int ms)
{
#if defined(_WIN32)
        Sleep((DWORD)ms);
#else
        struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

        while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
                ;
#endif
}

/* Start "self child sleep 60" holding our standard output and error;
 * print its process id. */
static int child_spawn_sleeper(int wait)
{
#if defined(_WIN32)
        wchar_t exe[32768], cmd[33000];
        STARTUPINFOW si;
        PROCESS_INFORMATION pi;
        HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE), errh = GetStdHandle(STD_ERROR_HANDLE);

        if (GetModuleFileNameW(NULL, exe, 32768) == 0)
                return 100;
        _snwprintf(cmd, CC_ARRAY_LEN(cmd), L"\"%ls\" child sleep 60", exe);
        cmd[CC_ARRAY_LEN(cmd) - 1] = 0;
        SetHandleInformation(out, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
        SetHandleInformation(errh, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
        memset(&si, 0, sizeof(si));
        si.cb = sizeof(si);
        si.dwFlags = STARTF_USESTDHANDLES;
        si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
        si.hStdOutput = out;
        si.hStdError = errh;
        if (!CreateProcessW(exe, cmd, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi))
                return 101;
        printf("%lu\n", (unsigned long)pi.dwProcessId);
        CloseHandle(pi.hThread);
        CloseHandle(pi.hProcess);
#else
        pid_t pid = fork();

        if (pid < 0)
                return 101;
        if (pid == 0) {
                char *argv[] = {self, (char *)(uintptr_t) "child", (char *)(uintptr_t) "sleep",
                                (char *)(uintptr_t) "60", NULL};

                execv(self, argv);
                _exit(127);
        }
        printf("%ld\n", (long)pid);
#endif
        fflush(stdout);
        if (wait)
                sleep_ms(60000);
        return 0;
}

#if !defined(_WIN32)
/* Start "self child sleep 60" in a session of its own (setsid, as a daemon
 * does: out of our process group), holding our standard output and error;
 * print its process id. */
static int child_spawn_escaper(int wait)
{
        pid_t pid = fork();

        if (pid < 0)
                return 101;
        if (pid == 0) {
                char *argv[] = {self, (char *)(uintptr_t) "child", (char *)(uintptr_t) "sleep",
                                (char *)(uintptr_t) "60", NULL};

                setsid();
                execv(self, argv);
                _exit(127);
        }
        printf("%ld\n", (long)pid);
        fflush(stdout);
        if (wait)
                sleep_ms(60000);
        return 0;
}
#endif

/* Write this process's id to path, then sleep s seconds. */
static int child_pidfile(const char *path, int s)
{
        FILE *f = fopen(path, "w");

        if (f == NULL)
                return 108;
#if defined(_WIN32)
        fprintf(f, "%lu\n", (unsigned long)GetCurrentProcessId());
#else
        fprintf(f, "%ld\n", (long)getpid());
#endif
        if (fclose(f) != 0)
                return 109;
        sleep_ms(s * 1000);
        return 0;
}

/* Run "self child pidfile PATH 60" through cc_spawn_run (its own process
 * group), with a limit far beyond the parent's: the test kills this process
 * while it waits. */
static int child_spawn_pidfile(const char *path)
{
        const char *argv[] = {self, "child", "pidfile", path, "60", NULL};
        cc_spawn_opts o;
        cc_spawn_result r;
        cc_error err = {0};

        memset(&o, 0, sizeof(o));
        o.argv = argv;
        o.timeout_ms = 60000;
        if (cc_spawn_run(&o, &r, &err) < 0)
                return 110;
        cc_spawn_result_free(&r);
        return 0;
}

static int child_flood(unsigned long n)
{
        static char chunk[65536];
        unsigned long done = 0;

        memset(chunk, 'x', sizeof(chunk));
        /* Both streams alternately: a parent that reads one pipe to its end
         * before the other deadlocks here. */
        while (done < n) {
                size_t k = n - done < sizeof(chunk) ? (size_t)(n - done) : sizeof(chunk);

                if (fwrite(chunk, 1, k, stdout) != k || fflush(stdout) != 0)
                        return 102;
                if (fwrite(chunk, 1, k, stderr) != k || fflush(stderr) != 0)
                        return 103;
                done += k;
        }
        return 0;
}

static const char *env_get(const char *name)
{
#if defined(_WIN32)
        static char buf[4096];
        DWORD n = GetEnvironmentVariableA(name, buf, sizeof(buf));

        return n == 0 || n >= sizeof(buf) ? NULL : buf;
#else
        return getenv(name);
#endif
}

/* Entries of the environment whose name is name (case-insensitive on
 * Windows). */
static int env_count(const char *name)
{
        size_t len = strlen(name);
        int count = 0;
#if defined(_WIN32)
        char *block = GetEnvironmentStringsA(), *p;

        for (p = block; p && *p; p += strlen(p) + 1)
                if (cc_strncasecmp(p, name, len) == 0 && p[len] == '=')
                        count++;
        if (block)
                FreeEnvironmentStringsA(block);
#else
        char **e;

        for (e = environ; *e; e++)
                if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
                        count++;
#endif
        return count;
}

static int child_main(int argc, char **argv)
{
        const char *mode = argc > 2 ? argv[2] : "";
        const char *arg = argc > 3 ? argv[3] : "";

#if defined(_WIN32)
        _setmode(_fileno(stdout), _O_BINARY);
        _setmode(_fileno(stderr), _O_BINARY);
#endif
        if (strcmp(mode, "exit") == 0)
                return atoi(arg);
        if (strcmp(mode, "crash") == 0) {
#if defined(_WIN32)
                volatile uintptr_t zero = 0;

                *(volatile int *)zero = 1;
#else
                signal(SIGSEGV, SIG_DFL);
                raise(SIGSEGV);
#endif
                return 104;
        }
        if (strcmp(mode, "abort") == 0)
                abort();
        if (strcmp(mode, "sleep") == 0) {
                sleep_ms(atoi(arg) * 1000);
                return 0;
        }
        if (strcmp(mode, "spawn-sleeper") == 0)
                return child_spawn_sleeper(strcmp(arg, "wait") == 0);
#if !defined(_WIN32)
        if (strcmp(mode, "spawn-escaper") == 0)
                return child_spawn_escaper(strcmp(arg, "wait") == 0);
#endif
        if (strcmp(mode, "pidfile") == 0 && argc > 4)
                return child_pidfile(arg, atoi(argv[4]));
        if (strcmp(mode, "spawn-pidfile") == 0)
                return child_spawn_pidfile(arg);
        if (strcmp(mode, "flood") == 0)
                return child_flood(strtoul(arg, NULL, 10));
        if (strcmp(mode, "env") == 0) {
                const char *v = env_get(arg);

                printf("%s", v ? v : "<unset>");
                return 0;
        }
        if (strcmp(mode, "env-count") == 0) {
                printf("%d", env_count(arg));
                return 0;
        }
        if (strcmp(mode, "cwd") == 0) {
                char *cwd = cc_getcwd(NULL);

                printf("%s", cwd ? cwd : "<error>");
                free(cwd);
                return 0;
        }
        if (strcmp(mode, "stdin") == 0) {
                char buf[16];
                size_t n = fread(buf, 1, sizeof(buf), stdin);

                printf("%s", n == 0 ? "eof" : "data");
                return 0;
        }
        if (strcmp(mode, "channel") == 0) {
                FILE *chan = cc_probe_channel(NULL);

                if (chan == NULL)
                        return 106;
                printf("noise");
                fflush(stdout);
                fprintf(chan, "result");
                return fclose(chan) == 0 ? 0 : 107;
        }
        if (strcmp(mode, "args") == 0) {
                int i;

                for (i = 3; i < argc; i++)
                        printf("[%s]\n", argv[i]);
                return 0;
        }
        fprintf(stderr, "unknown child mode \"%s\"\n", mode);
        return 105;
}

/* ---- parent side ----------------------------------------------------------- */

static const char *str_or_empty(const cc_buf *b)
{
        return b->data ? b->data : "";
}

/* Run self with the given child arguments (NULL-terminated). */
static int run_child(cc_spawn_result *r, int timeout_ms, size_t max_output, const char *const *env_set, size_t nset,
                     const char *const *env_unset, size_t nunset, const char *cwd, const char *a1, const char *a2,
                     const char *a3)
{
        const char *argv[6] = {self, "child", a1, a2, a3, NULL};
        cc_spawn_opts o;
        cc_error err = {0};
        int rc;

        memset(&o, 0, sizeof(o));
        o.argv = argv;
        o.env_set = env_set;
        o.nenv_set = nset;
        o.env_unset = env_unset;
        o.nenv_unset = nunset;
        o.cwd = cwd;
        o.timeout_ms = timeout_ms;
        o.max_output = max_output;
        rc = cc_spawn_run(&o, r, &err);
        if (rc < 0)
                printf("note: spawn of child %s failed: %s\n", a1 ? a1 : "", err.msg);
        return rc;
}

static int describe_is(const cc_spawn_result *r, const char *want)
{
        cc_error err = {0};
        char *d = cc_spawn_describe(r, &err);
        int ok = d != NULL && strcmp(d, want) == 0;

        if (!ok)
                printf("note: describe gave \"%s\", want \"%s\"\n", d ? d : err.msg, want);
        free(d);
        return ok;
}

static int describe_has(const cc_spawn_result *r, const char *part)
{
        cc_error err = {0};
        char *d = cc_spawn_describe(r, &err);
        int ok = d != NULL && strstr(d, part) != NULL;

        if (!ok)
                printf("note: describe gave \"%s\", want it to contain \"%s\"\n", d ? d : err.msg, part);
        free(d);
        return ok;
}

static int names_equal(const char *a, const char *b)
{
#if defined(_WIN32)
        return cc_strcasecmp(a, b) == 0;
#else
        return strcmp(a, b) == 0;
#endif
}

static int pid_alive(unsigned long pid)
{
#if defined(_WIN32)
        HANDLE h = OpenProcess(SYNCHRONIZE, FALSE, (DWORD)pid);
        int alive;

        if (h == NULL)
                return 0;
        alive = WaitForSingleObject(h, 0) == WAIT_TIMEOUT;
        CloseHandle(h);
        return alive;
#else
        char path[64], *stat = NULL, *p;
        size_t len;
        int alive = 1;
        cc_error err = {0};

        if (kill((pid_t)pid, 0) < 0)
                return errno == EPERM;
        snprintf(path, sizeof(path), "/proc/%lu/stat", pid);
        if (cc_read_stream(path, 4096, &stat, &len, &err) == 0) {
                p = strrchr(stat, ')');
                if (p != NULL && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'))
                        alive = 0; /* a zombie waiting for its reaper */
                free(stat);
        }
        return alive;
#endif
}

/* Poll for up to ms for pid to end. */
static int pid_gone_within(unsigned long pid, int ms)
{
        int waited;

        for (waited = 0; waited < ms; waited += 50) {
                if (!pid_alive(pid))
                        return 1;
                sleep_ms(50);
        }
        return !pid_alive(pid);
}

static void test_describe(void)
{
        cc_spawn_result r;

        memset(&r, 0, sizeof(r));
        r.exited = 1;
        r.exit_code = 3;
        CHECK(describe_is(&r, "exited with status 3"));
        CHECK(!cc_spawn_crashed(&r));
        r.exit_code = (int)0xC0000005u;
        CHECK(describe_is(&r, "crashed with exception 0xC0000005 (access violation)"));
        CHECK(cc_spawn_crashed(&r));
        r.exit_code = (int)0xC0000135u;
        CHECK(describe_has(&r, "DLL not found"));
        CHECK(cc_spawn_crashed(&r));
        r.exit_code = (int)0xC0000139u;
        CHECK(describe_has(&r, "entry point not found"));
        r.exit_code = (int)0xC0000409u;
        CHECK(describe_has(&r, "stack buffer overrun"));
        CHECK(cc_spawn_crashed(&r));
        r.exit_code = (int)0xC00000FDu;
        CHECK(describe_has(&r, "stack overflow"));
        r.exit_code = (int)0xC000001Du;
        CHECK(describe_has(&r, "illegal instruction"));
        r.exit_code = (int)0xC0001234u;
        CHECK(describe_is(&r, "crashed with exception 0xC0001234"));
        CHECK(cc_spawn_crashed(&r));
        r.exit_code = -1; /* exit(-1) on Windows: 0xFFFFFFFF, not an exception */
        CHECK(!cc_spawn_crashed(&r));
        r.exit_code = (int)0xC000013Au; /* Ctrl+C */
        CHECK(!cc_spawn_crashed(&r));

        memset(&r, 0, sizeof(r));
        r.signal = 11;
        CHECK(describe_is(&r, "killed by signal 11 (SIGSEGV)"));
        CHECK(cc_spawn_crashed(&r));
        r.signal = 6;
        CHECK(describe_is(&r, "killed by signal 6 (SIGABRT)"));
        r.signal = 9;
        CHECK(describe_is(&r, "killed by signal 9 (SIGKILL)"));
        CHECK(cc_spawn_crashed(&r));
        r.timed_out = 1;
        r.wall_ms = 10000;
        CHECK(describe_is(&r, "timed out after 10000 ms"));
        CHECK(!cc_spawn_crashed(&r));
        CHECK(!cc_spawn_crashed(NULL));
}

static void test_exit_crash(void)
{
        cc_spawn_result r;

        CHECK(run_child(&r, 30000, 0, NULL, 0, NULL, 0, NULL, "exit", "7", NULL) == 0);
        CHECK(r.exited == 1 && r.exit_code == 7 && r.signal == 0 && r.timed_out == 0);
        CHECK(!cc_spawn_crashed(&r));
        CHECK(describe_is(&r, "exited with status 7"));
        cc_spawn_result_free(&r);

        CHECK(run_child(&r, 30000, 0, NULL, 0, NULL, 0, NULL, "exit", "0", NULL) == 0);
        CHECK(r.exited == 1 && r.exit_code == 0);
        cc_spawn_result_free(&r);

        CHECK(run_child(&r, 30000, 0, NULL, 0, NULL, 0, NULL, "crash", NULL, NULL) == 0);
        CHECK(cc_spawn_crashed(&r));
        CHECK(!r.timed_out);
#if defined(_WIN32)
        CHECK(r.exited == 1 && (uint32_t)r.exit_code == 0xC0000005u);
        CHECK(describe_is(&r, "crashed with exception 0xC0000005 (access violation)"));
#else
        CHECK(r.exited == 0 && r.signal == SIGSEGV);
        {
                char want[64];

                snprintf(want, sizeof(want), "killed by signal %d (SIGSEGV)", SIGSEGV);
                CHECK(describe_is(&r, want));
        }
#endif
        cc_spawn_result_free(&r);

        CHECK(run_child(&r, 30000, 0, NULL, 0, NULL, 0, NULL, "abort", NULL, NULL) == 0);
#if defined(_WIN32)
        /* msvcrt's abort() exits with 3 (an exit); the UCRT's fails fast. */
        CHECK(r.exited == 1 && (r.exit_code == 3 || (uint32_t)r.exit_code == 0xC0000409u));
        CHECK(cc_spawn_crashed(&r) == (r.exit_code != 3));
#else
        CHECK(r.signal == SIGABRT && cc_spawn_crashed(&r));
#endif
        cc_spawn_result_free(&r);
}

static void test_timeouts(void)
{
        cc_spawn_result r;
        int64_t t0;
        unsigned long pid = 0;

        t0 = cc_monotonic_us();
        CHECK(run_child(&r, 1000, 0, NULL, 0, NULL, 0, NULL, "sleep", "60", NULL) == 0);
        CHECK(r.timed_out == 1);
        CHECK(!cc_spawn_crashed(&r));
        CHECK(describe_has(&r, "timed out after"));
        CHECK(r.wall_ms >= 900 && r.wall_ms < 6000);
        CHECK(cc_monotonic_us() - t0 < 6000000);
        cc_spawn_result_free(&r);

        /* The child waits too: both are killed at the limit. */
        t0 = cc_monotonic_us();
        CHECK(run_child(&r, 1000, 0, NULL, 0, NULL, 0, NULL, "spawn-sleeper", "wait", NULL) == 0);
        CHECK(cc_monotonic_us() - t0 < 6000000);
        CHECK(r.timed_out == 1);
        CHECK(r.out.data != NULL && sscanf(r.out.data, "%lu", &pid) == 1 && pid != 0);
        CHECK(pid != 0 && pid_gone_within(pid, 3000));
        cc_spawn_result_free(&r);

        /* The child exits at once; the grandchild holds the pipes. */
        pid = 0;
        t0 = cc_monotonic_us();
        CHECK(run_child(&r, 1000, 0, NULL, 0, NULL, 0, NULL, "spawn-sleeper", NULL, NULL) == 0);
        CHECK(cc_monotonic_us() - t0 < 6000000);
        CHECK(r.out.data != NULL && sscanf(r.out.data, "%lu", &pid) == 1 && pid != 0);
        CHECK(pid != 0 && pid_gone_within(pid, 3000));
        cc_spawn_result_free(&r);
}

/* The parent of a cc_spawn_run child dies by SIGKILL (no handler runs): the
 * child, which leads a process group of its own, ends too (the kernel's
 * PR_SET_PDEATHSIG). Run before cc_cleanup_install: as the reaper, this
 * process would end the orphan itself and prove nothing. */
static void test_parent_death(void)
{
#if !defined(_WIN32)
        cc_error err = {0};
        char *dir = cc_make_temp_dir("cctest", &err), *pidpath = NULL, *text = NULL;
        cc_spawn_result r;
        unsigned long pid = 0;
        size_t len = 0;

        CHECK(dir != NULL);
        if (dir == NULL)
                return;
        pidpath = cc_path_join(dir, "pid", &err);
        CHECK(pidpath != NULL);
        if (pidpath != NULL) {
                /* The middle process is killed at its limit, 1.5 s, with its
                 * group; the grandchild is in a group of its own. */
                CHECK(run_child(&r, 1500, 0, NULL, 0, NULL, 0, NULL, "spawn-pidfile", pidpath, NULL) == 0);
                CHECK(r.timed_out == 1);
                cc_spawn_result_free(&r);
                CHECK(cc_read_file(pidpath, 64, &text, &len, &err) == 0 && sscanf(text, "%lu", &pid) == 1 && pid != 0);
                CHECK(pid != 0 && pid_gone_within(pid, 2000));
                if (pid != 0 && pid_alive(pid))
                        kill((pid_t)pid, SIGKILL);
        }
        free(text);
        free(pidpath);
        CHECK(cc_remove_tree(dir, &err) == 0);
        free(dir);
#endif
}

/* With cc_cleanup_install: a process the child started in a session of its
 * own (out of reach of the group kill) is ended when the child ends, or
 * is killed at its limit, and cc_spawn_run does not wait for the pipes it
 * holds. */
static void test_escaped(void)
{
#if !defined(_WIN32)
        cc_spawn_result r;
        unsigned long pid = 0;
        int64_t t0;

        t0 = cc_monotonic_us();
        CHECK(run_child(&r, 5000, 0, NULL, 0, NULL, 0, NULL, "spawn-escaper", NULL, NULL) == 0);
        CHECK(r.exited == 1 && r.exit_code == 0 && !r.timed_out);
        CHECK(cc_monotonic_us() - t0 < 3000000);
        CHECK(r.out.data != NULL && sscanf(r.out.data, "%lu", &pid) == 1 && pid != 0);
        CHECK(pid != 0 && !pid_alive(pid));
        if (pid != 0 && pid_alive(pid))
                kill((pid_t)pid, SIGKILL);
        cc_spawn_result_free(&r);

        pid = 0;
        CHECK(run_child(&r, 1000, 0, NULL, 0, NULL, 0, NULL, "spawn-escaper", "wait", NULL) == 0);
        CHECK(r.timed_out == 1);
        CHECK(r.out.data != NULL && sscanf(r.out.data, "%lu", &pid) == 1 && pid != 0);
        CHECK(pid != 0 && !pid_alive(pid));
        if (pid != 0 && pid_alive(pid))
                kill((pid_t)pid, SIGKILL);
        cc_spawn_result_free(&r);
#endif
}

static int make_dir(const char *path)
{
#if defined(_WIN32)
        return _mkdir(path);
#else
        return mkdir(path, 0755);
#endif
}

/* cc_cleanup_all removes the temporary directories still on the list, with
 * everything in them, never following a link out of them; one removed with
 * cc_remove_tree is off the list (a new directory of that name stays). */
static void test_cleanup_dirs(void)
{
        cc_error err = {0};
        char *left = cc_make_temp_dir("cctest", &err), *other = cc_make_temp_dir("cctest", &err);
        char *p = NULL, *target = NULL;
        const char sep = cc_path_sep();
        cc_stat st;

        CHECK(left != NULL && other != NULL);
        if (left == NULL || other == NULL)
                goto out;
        /* other: off the list, then made again, as if by someone else; it
         * holds the file a link in left points at */
        CHECK(cc_remove_tree(other, &err) == 0 && make_dir(other) == 0);
        target = cc_path_join(other, "outside", &err);
        CHECK(target != NULL && cc_write_file(target, "x", 1, 0, &err) == 0);
        /* left/a/b/c/file, left/file, and (POSIX) links to other and its file */
        p = cc_asprintf(&err, "%s%ca", left, sep);
        CHECK(p != NULL && make_dir(p) == 0);
        free(p);
        p = cc_asprintf(&err, "%s%ca%cb", left, sep, sep);
        CHECK(p != NULL && make_dir(p) == 0);
        free(p);
        p = cc_asprintf(&err, "%s%ca%cb%cc", left, sep, sep, sep);
        CHECK(p != NULL && make_dir(p) == 0);
        free(p);
        p = cc_asprintf(&err, "%s%ca%cb%cc%cfile", left, sep, sep, sep, sep);
        CHECK(p != NULL && cc_write_file(p, "data", 4, 0, &err) == 0);
        free(p);
        p = cc_asprintf(&err, "%s%cfile", left, sep);
        CHECK(p != NULL && cc_write_file(p, "data", 4, 1, &err) == 0);
        free(p);
#if !defined(_WIN32)
        p = cc_asprintf(&err, "%s/link", left);
        CHECK(p != NULL && symlink(other, p) == 0);
        free(p);
        p = cc_asprintf(&err, "%s/a/filelink", left);
        CHECK(p != NULL && target != NULL && symlink(target, p) == 0);
        free(p);
#endif
        cc_cleanup_all();
        CHECK(cc_stat_path(left, &st, &err) == 0 && st.type == CC_FT_NONE);
        CHECK(cc_stat_path(other, &st, &err) == 0 && st.type == CC_FT_DIR);
        CHECK(target != NULL && cc_stat_path(target, &st, &err) == 0 && st.type == CC_FT_FILE);
        cc_cleanup_all(); /* again: nothing left to do */
        CHECK(cc_stat_path(other, &st, &err) == 0 && st.type == CC_FT_DIR);
        CHECK(cc_remove_tree(other, &err) == 0);
out:
        free(target);
        free(left);
        free(other);
}

static void test_output(void)
{
        cc_spawn_result r;
        int64_t t0 = cc_monotonic_us();

        CHECK(run_child(&r, 120000, 1000, NULL, 0, NULL, 0, NULL, "flood", "10000000", NULL) == 0);
        CHECK(r.exited == 1 && r.exit_code == 0 && !r.timed_out);
        CHECK(r.out.len == 1000 && r.errout.len == 1000);
        CHECK(r.out_total == 10000000u && r.err_total == 10000000u);
        CHECK(r.out.data != NULL && r.out.data[0] == 'x' && r.out.data[999] == 'x');
        printf("note: 2 x 10000000 bytes through the pipes in %lld ms\n", (long long)((cc_monotonic_us() - t0) / 1000));
        cc_spawn_result_free(&r);

        /* The default cap keeps small output whole. */
        {
                const char *argv[] = {self,
                                      "child",
                                      "args",
                                      "",
                                      "a b",
                                      "a\"b",
                                      "trail\\",
                                      "back\\\\\"q",
                                      "tab\there",
                                      "x\\\\y",
                                      "\\\\srv\\share\\",
                                      "plain",
                                      NULL};
                const char *want = "[]\n[a b]\n[a\"b]\n[trail\\]\n[back\\\\\"q]\n[tab\there]\n[x\\\\y]\n"
                                   "[\\\\srv\\share\\]\n[plain]\n";
                cc_spawn_opts o;
                cc_error err = {0};

                memset(&o, 0, sizeof(o));
                o.argv = argv;
                CHECK(cc_spawn_run(&o, &r, &err) == 0);
                CHECK(r.exit_code == 0 && strcmp(str_or_empty(&r.out), want) == 0);
                if (strcmp(str_or_empty(&r.out), want) != 0)
                        printf("note: arguments came back as:\n%s\n", str_or_empty(&r.out));
                CHECK(r.out_total == strlen(want) && r.err_total == 0);
                cc_spawn_result_free(&r);
        }

        /* results on the kept standard output, library noise on stderr */
        CHECK(run_child(&r, 10000, 0, NULL, 0, NULL, 0, NULL, "channel", NULL, NULL) == 0);
        CHECK(r.exit_code == 0 && strcmp(str_or_empty(&r.out), "result") == 0);
        CHECK(strstr(str_or_empty(&r.errout), "noise") != NULL);
        cc_spawn_result_free(&r);

        CHECK(run_child(&r, 10000, 0, NULL, 0, NULL, 0, NULL, "stdin", NULL, NULL) == 0);
        CHECK(!r.timed_out && strcmp(str_or_empty(&r.out), "eof") == 0);
        cc_spawn_result_free(&r);
}

/* The child's view of one variable after the given changes. */
static int child_env_is(const char *name, const char *const *set, size_t nset, const char *const *unset, size_t nunset,
                        const char *want)
{
        cc_spawn_result r;
        int ok;

        if (run_child(&r, 30000, 0, set, nset, unset, nunset, NULL, "env", name, NULL) < 0)
                return 0;
        ok = r.exit_code == 0 && strcmp(str_or_empty(&r.out), want) == 0;
        if (!ok)
                printf("note: %s is \"%s\" in the child, want \"%s\"\n", name, str_or_empty(&r.out), want);
        cc_spawn_result_free(&r);
        return ok;
}

static int child_env_count(const char *name, const char *const *set, size_t nset, int want)
{
        cc_spawn_result r;
        int ok;

        if (run_child(&r, 30000, 0, set, nset, NULL, 0, NULL, "env-count", name, NULL) < 0)
                return 0;
        ok = r.exit_code == 0 && atoi(str_or_empty(&r.out)) == want;
        if (!ok)
                printf("note: %s is there %s times in the child, want %d\n", name, str_or_empty(&r.out), want);
        cc_spawn_result_free(&r);
        return ok;
}

static void test_env(void)
{
        const char *set_new[] = {"CC_TEST_NEW=hello world"};
        const char *set_repl[] = {"CC_TEST_HAVE=replaced"};
        const char *set_lower[] = {"cc_test_have=lower"};
        const char *unset_have[] = {"CC_TEST_HAVE"};
        const char *unset_lower[] = {"cc_test_have"};
        const char *set_empty[] = {"CC_TEST_NEW="};
        const char *bad_set[] = {"NOEQUALS"};
        cc_spawn_result r;

#if defined(_WIN32)
        SetEnvironmentVariableA("CC_TEST_HAVE", "present");
#else
        setenv("CC_TEST_HAVE", "present", 1);
#endif
        CHECK(child_env_is("CC_TEST_HAVE", NULL, 0, NULL, 0, "present"));
        CHECK(child_env_is("CC_TEST_NEW", NULL, 0, NULL, 0, "<unset>"));
        CHECK(child_env_is("CC_TEST_NEW", set_new, 1, NULL, 0, "hello world"));
        CHECK(child_env_is("CC_TEST_HAVE", set_repl, 1, NULL, 0, "replaced"));
        CHECK(child_env_count("CC_TEST_HAVE", set_repl, 1, 1));
        CHECK(child_env_is("CC_TEST_HAVE", NULL, 0, unset_have, 1, "<unset>"));
        /* set wins over unset of the same name */
        CHECK(child_env_is("CC_TEST_HAVE", set_repl, 1, unset_have, 1, "replaced"));
        {
                cc_spawn_result r2;

                CHECK(run_child(&r2, 30000, 0, NULL, 0, unset_have, 1, NULL, "env", "PATH", NULL) == 0);
                CHECK(r2.out.data != NULL && strcmp(r2.out.data, "<unset>") != 0); /* the rest is kept */
                cc_spawn_result_free(&r2);
        }
#if defined(_WIN32)
        /* Windows names are case-insensitive: one variable, whatever case. */
        CHECK(child_env_is("CC_TEST_HAVE", set_lower, 1, NULL, 0, "lower"));
        CHECK(child_env_count("CC_TEST_HAVE", set_lower, 1, 1));
        CHECK(child_env_is("CC_TEST_HAVE", NULL, 0, unset_lower, 1, "<unset>"));
#else
        CHECK(child_env_is("CC_TEST_HAVE", set_lower, 1, NULL, 0, "present"));
        CHECK(child_env_is("cc_test_have", set_lower, 1, NULL, 0, "lower"));
        CHECK(child_env_is("CC_TEST_HAVE", NULL, 0, unset_lower, 1, "present"));
        CHECK(child_env_is("CC_TEST_NEW", set_empty, 1, NULL, 0, ""));
#endif
        (void)set_empty;
        CHECK(run_child(&r, 30000, 0, bad_set, 1, NULL, 0, NULL, "exit", "0", NULL) < 0);
        cc_spawn_result_free(&r);
}

static void test_cwd_and_missing(const char *dir)
{
        cc_spawn_result r;
        cc_error err = {0};
        char *want = cc_realpath(dir, &err), *got;

        CHECK(run_child(&r, 30000, 0, NULL, 0, NULL, 0, dir, "cwd", NULL, NULL) == 0);
        got = cc_realpath(str_or_empty(&r.out), &err);
        CHECK(want != NULL && got != NULL && names_equal(want, got));
        if (want == NULL || got == NULL || !names_equal(want, got))
                printf("note: child cwd \"%s\", want \"%s\"\n", str_or_empty(&r.out), dir);
        free(want);
        free(got);
        cc_spawn_result_free(&r);

        {
                char *missing = cc_path_join(dir, "cc-no-such-program" EXE_SUFFIX, &err);
                char *notexe = cc_path_join(dir, "not-a-program" EXE_SUFFIX, &err);
                const char *argv[] = {missing, NULL};
                const char *argv2[] = {notexe, NULL};
                cc_spawn_opts o;

                memset(&o, 0, sizeof(o));
                o.argv = argv;
                memset(&err, 0, sizeof(err));
                CHECK(missing != NULL && cc_spawn_run(&o, &r, &err) < 0);
                CHECK(strstr(err.msg, "cc-no-such-program") != NULL);
                printf("note: missing program: %s\n", err.msg);
                cc_spawn_result_free(&r);

                /* a file that is not a program (not executable on POSIX,
                 * not a PE image on Windows) */
                CHECK(notexe != NULL && cc_write_file(notexe, "hello\n", 6, 0, &err) == 0);
                o.argv = argv2;
                memset(&err, 0, sizeof(err));
                CHECK(cc_spawn_run(&o, &r, &err) < 0);
                CHECK(strstr(err.msg, "not-a-program") != NULL);
                printf("note: not a program: %s\n", err.msg);
                cc_spawn_result_free(&r);
                free(missing);
                free(notexe);
        }
}

static void test_files(void)
{
        cc_error err = {0};
        char *dir = cc_make_temp_dir("cctest", &err), *dir2;
        char *tool = NULL, *found = NULL, *pathval = NULL, *content = NULL, *plain = NULL;
        cc_stat st;
        size_t len = 0;
        int64_t a, b;

        a = cc_monotonic_us();
        sleep_ms(20);
        b = cc_monotonic_us();
        CHECK(b > a && b - a >= 15000 && b - a < 5000000);

        {
                char *me = cc_self_exe(&err);

                CHECK(me != NULL && cc_stat_path(me, &st, &err) == 0 && st.type == CC_FT_FILE);
                free(me);
        }

        CHECK(dir != NULL);
        if (dir == NULL) {
                printf("note: %s\n", err.msg);
                return;
        }
        CHECK(cc_stat_path(dir, &st, &err) == 0 && st.type == CC_FT_DIR);
        CHECK(strstr(cc_basename(dir), "cctest") != NULL);
        dir2 = cc_make_temp_dir("cctest", &err);
        CHECK(dir2 != NULL && strcmp(dir, dir2) != 0);
        if (dir2 != NULL)
                CHECK(cc_remove_tree(dir2, &err) == 0);
        free(dir2);

        tool = cc_path_join(dir, "cc-tool" EXE_SUFFIX, &err);
        CHECK(tool != NULL && cc_write_file(tool, "#!/bin/sh\nexit 0\n", 17, 1, &err) == 0);
        CHECK(cc_read_file(tool, 0, &content, &len, &err) == 0 && len == 17 && memcmp(content, "#!/bin/sh\n", 10) == 0);
        free(content);
        /* rewrite: truncated */
        CHECK(cc_write_file(tool, "#!/bin/sh\n", 10, 1, &err) == 0);
        CHECK(cc_stat_path(tool, &st, &err) == 0 && st.size == 10);

        pathval = cc_asprintf(&err, "%s%s%s%s%s", PATH_LIST_SEP, "cc-no-such-dir", PATH_LIST_SEP, dir, PATH_LIST_SEP);
        found = pathval ? cc_find_program("cc-tool", pathval, &err) : NULL;
        CHECK(found != NULL && tool != NULL && names_equal(found, tool));
        if (found == NULL || tool == NULL || !names_equal(found, tool))
                printf("note: find_program gave \"%s\" (%s), want \"%s\"\n", found ? found : "", err.msg,
                       tool ? tool : "");
        free(found);
        memset(&err, 0, sizeof(err));
        found = cc_find_program("cc-no-such-tool", pathval, &err);
        CHECK(found == NULL && err.code == CC_ERR_NOTFOUND && strstr(err.msg, "cc-no-such-tool") != NULL);
        free(found);
        found = cc_find_program("cc-tool", "", &err);
        CHECK(found == NULL);
        free(found);
#if !defined(_WIN32)
        plain = cc_path_join(dir, "cc-plain", &err);
        CHECK(plain != NULL && cc_write_file(plain, "x", 1, 0, &err) == 0);
        found = cc_find_program("cc-plain", pathval, &err);
        CHECK(found == NULL); /* not executable */
        free(found);
        {
                /* a link to a directory outside: removed, not followed */
                char *outside = cc_make_temp_dir("cctest-out", &err);
                char *keep = outside ? cc_path_join(outside, "keep", &err) : NULL;
                char *link = cc_path_join(dir, "link", &err);

                CHECK(keep != NULL && cc_write_file(keep, "k", 1, 0, &err) == 0);
                CHECK(link != NULL && outside != NULL && symlink(outside, link) == 0);
                CHECK(cc_remove_tree(dir, &err) == 0);
                CHECK(keep != NULL && cc_stat_path(keep, &st, &err) == 0 && st.type == CC_FT_FILE);
                if (outside)
                        CHECK(cc_remove_tree(outside, &err) == 0);
                free(outside);
                free(keep);
                free(link);
        }
#endif
        free(plain);
        free(pathval);
        free(tool);
        /* a tree: file, directory inside, read-only file */
        if (cc_stat_path(dir, &st, &err) == 0 && st.type == CC_FT_NONE) {
                free(dir);
                dir = cc_make_temp_dir("cctest", &err);
        }
        CHECK(dir != NULL);
        if (dir == NULL)
                return;
        test_cwd_and_missing(dir);
        CHECK(cc_remove_tree(dir, &err) == 0);
        CHECK(cc_stat_path(dir, &st, &err) == 0 && st.type == CC_FT_NONE);
        free(dir);
}

static void test_dl(void)
{
#if defined(_WIN32)
        const char *missing = "cc-no-such-library.dll", *libc_names[] = {"kernel32.dll", "ntdll.dll"};
        const char *real = "kernel32.dll", *sym = "GetCurrentProcessId";
#else
        const char *missing = "cc-no-such-library.so", *libc_names[] = {"libc.so.6", "libc.so.6"};
        const char *real = "libm.so.6", *sym = "cos";
#endif
        cc_error err = {0};
        cc_strv mods = {0};
        void *h, *p;
        char *path;
        size_t i;
        int have_libc = 0;

        h = cc_dl_open(missing, &err);
        CHECK(h == NULL && strstr(err.msg, missing) != NULL);
        printf("note: missing library: %s\n", err.msg);
#if defined(_WIN32)
        CHECK(strstr(err.msg, "error 126") != NULL);
#endif
        CHECK(!cc_dl_is_loaded(missing));
        cc_dl_close(h);

        CHECK(cc_loaded_modules(&mods, &err) == 0 && mods.n > 0);
        for (i = 0; i < mods.n; i++) {
                if (names_equal(cc_basename(mods.v[i]), libc_names[0]) ||
                    names_equal(cc_basename(mods.v[i]), libc_names[1]))
                        have_libc = 1;
        }
        CHECK(have_libc);
        {
                size_t j, dups = 0;

                for (i = 0; i < mods.n; i++)
                        for (j = i + 1; j < mods.n; j++)
                                dups += strcmp(mods.v[i], mods.v[j]) == 0;
                CHECK(dups == 0); /* once each */
        }
        cc_strv_free(&mods);

        memset(&err, 0, sizeof(err));
        h = cc_dl_open(real, &err);
        CHECK(h != NULL);
        if (h == NULL) {
                printf("note: %s\n", err.msg);
                return;
        }
        CHECK(cc_dl_is_loaded(real));
        p = cc_dl_sym(h, sym);
        CHECK(p != NULL);
        CHECK(cc_dl_sym(h, "cc_no_such_symbol") == NULL);
        path = p ? cc_dl_path_of_addr(p, &err) : NULL;
        CHECK(path != NULL && names_equal(cc_basename(path), real));
        printf("note: %s from %s\n", sym, path ? path : err.msg);
        free(path);
        path = cc_dl_path_of_addr(h, &err);
        CHECK(path != NULL && names_equal(cc_basename(path), real));
        free(path);
        /* by full path, too */
        {
                char *full = cc_dl_path_of_addr(p, &err);
                void *h2 = full ? cc_dl_open(full, &err) : NULL;

                CHECK(h2 != NULL && cc_dl_sym(h2, sym) == p);
                cc_dl_close(h2);
                free(full);
        }
        cc_dl_close(h);
}

int main(int argc, char **argv)
{
        cc_error err = {0};

        if (argc > 1 && strcmp(argv[1], "child") == 0) {
                int rc;

                self = cc_self_exe(NULL);
                if (self == NULL)
                        self = argv[0];
                rc = child_main(argc, argv);
                if (self != argv[0])
                        free(self);
                return rc;
        }
        self = cc_self_exe(&err);
        if (self == NULL) {
                printf("cannot find this program: %s\n0 passed, 1 failed\n", err.msg);
                return 1;
        }
        test_describe();
        test_parent_death();
        /* From here on this process is what the CLI is: the reaper of its
         * orphans, with the clean-up at exit and on signals. */
        if (cc_cleanup_install(&err) < 0) {
                printf("note: cc_cleanup_install: %s\n", err.msg);
                CHECK(0);
        }
        test_exit_crash();
        test_output();
        test_env();
        test_timeouts();
        test_escaped();
        test_files();
        test_cleanup_dirs();
        test_dl();
        free(self);
        printf("%d passed, %d failed\n", n_passed, n_failed);
        return n_failed == 0 ? 0 : 1;
}
