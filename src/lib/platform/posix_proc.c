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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* In the child between fork and exec: only async-signal-safe calls. */
static void child_exec(const cc_spawn_opts *o, char **envp, int out_w, int err_w, int report_w)
{
        int e, devnull;

        setpgid(0, 0);
        signal(SIGPIPE, SIG_DFL);
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
        int open_out = 1, open_err = 1, reaped = 0, status = 0, child_errno = 0, rv = -1;
        char **envp = NULL;
        pid_t pid;
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
        start = cc_monotonic_us();
        pid = fork();
        if (pid < 0) {
                cc_err_errno(err, errno, "%s: cannot start", o->argv[0]);
                goto done;
        }
        if (pid == 0)
                child_exec(o, envp, outp[1], errp[1], rep[1]);
        setpgid(pid, pid); /* also here, so the group exists before any kill */
        close(outp[1]);
        close(errp[1]);
        close(rep[1]);
        outp[1] = errp[1] = rep[1] = -1;
        do
                got = read(rep[0], &child_errno, sizeof(child_errno));
        while (got < 0 && errno == EINTR);
        if (got == (ssize_t)sizeof(child_errno)) {
                waitpid(pid, NULL, 0);
                cc_err_errno(err, child_errno, "%s: cannot run", o->argv[0]);
                goto done;
        }
        deadline = start + (int64_t)timeout_ms * 1000;
        for (;;) {
                struct pollfd pf[2];
                int np = 0, slice;
                int64_t now = cc_monotonic_us();

                if (!reaped) {
                        pid_t w = waitpid(pid, &status, WNOHANG);

                        if (w == pid) {
                                reaped = 1;
                                reaped_at = now;
                        }
                }
                if (reaped && !open_out && !open_err)
                        break;
                /* A grandchild may hold the pipes after the child ended: give it
                 * a moment, then end the whole group. */
                if (now >= deadline || (reaped && now - reaped_at > 500000)) {
                        if (!reaped)
                                r->timed_out = 1;
                        kill(-pid, SIGKILL);
                        if (!reaped) {
                                kill(pid, SIGKILL);
                                while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                                        ;
                                reaped = 1;
                        }
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

char *cc_make_temp_dir(const char *prefix, cc_error *err)
{
        const char *tmp = getenv("TMPDIR");
        char *tmpl;

        if (tmp == NULL || tmp[0] != '/')
                tmp = "/tmp";
        tmpl = cc_asprintf(err, "%s/%s-XXXXXX", tmp, prefix ? prefix : "cudnnctl");
        if (tmpl == NULL)
                return NULL;
        if (mkdtemp(tmpl) == NULL) {
                cc_err_errno(err, errno, "%s: cannot make a temporary directory", tmpl);
                free(tmpl);
                return NULL;
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
        return remove_at(path, 0, err);
}

int cc_write_file(const char *path, const void *data, size_t len, int executable, cc_error *err)
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

#else
typedef int cc_posix_proc_unused_;
#endif
