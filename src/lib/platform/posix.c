#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include "platform.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- file mappings ---------------------------------------------------------
 *
 * A file mapped with mmap can shrink under us: another process truncates it
 * or copies a new library over it (cp opens with O_TRUNC and writes again).
 * A read from a page past the new end then raises SIGBUS, which would kill
 * the whole tool in the middle of a parser that only ever sees "memory".
 *
 * Why a guard rather than read(2) everywhere: the parsers read large files
 * (libraries of hundreds of MB) at scattered offsets and keep pointers into
 * them; copying whole files into the heap would double the memory of every
 * read. So every live mapping is registered in a small fixed table that a
 * SIGBUS handler can read without locks. When a fault lands inside one, the
 * handler maps anonymous zero pages over that mapping from the faulting page
 * to its end (MAP_FIXED), marks it changed and returns: the faulting read is
 * retried and sees zeros, the parser goes on to its end on a consistent (if
 * meaningless) buffer, nothing is longjmp'ed over and nothing leaks (munmap
 * of the whole range later removes the zero pages too). Faults outside our
 * mappings go to the handler that was there before (or the default action).
 *
 * Callers must then ask cc_map_check()/cc_map_changed() before trusting what
 * they parsed: the flag, and the file's size and modification time against
 * what they were when it was mapped (a copy of the same size rewrites the
 * bytes without any fault), turn the result into "PATH: changed while read".
 *
 * When the table is full or the handler cannot be installed the file is read
 * with read(2) into the heap instead, so no mapping is ever unguarded. The
 * handler is put back whenever a mapping is made and another one has taken
 * its place (that one is then chained to). mmap is not on POSIX's list of
 * async-signal-safe functions, but it is a plain system call in every libc
 * this runs on, touching no lock. (Windows refuses to truncate a file with a
 * mapped view, so win32.c only compares the size and write time.)
 *
 * Small files (configuration, headers, metadata: most of what the tool
 * reads) are read with one pread(2) into the heap and not mapped: a mapping
 * costs mmap, a page fault, munmap and its TLB flush where the copy of a few
 * KiB costs nothing, and the heap's pages are reused from file to file. The
 * changed-while-read check is the same (size and modification time). */

#define MAP_SLOTS 64
#define MAP_SMALL ((off_t)64 << 10) /* read, not mapped, up to this size */

struct map_slot {
        atomic_int used;     /* 0 free, 1 claimed */
        atomic_uintptr_t lo; /* [lo, hi): the mapping, pages rounded */
        atomic_uintptr_t hi;
        atomic_int changed; /* set by the handler */
};

static struct map_slot map_slots[MAP_SLOTS];
static struct sigaction prev_sigbus; /* the handler before ours, chained to */
static uintptr_t page_size;
static int guard_ok;
static pthread_once_t guard_once = PTHREAD_ONCE_INIT;

struct posix_map {
        void *addr;    /* mmap'ed, or NULL */
        uint8_t *heap; /* read into the heap instead, or NULL */
        int fd;        /* kept open to compare the file's state at the end */
        int slot;      /* index into map_slots, -1 for heap reads */
        uint64_t size; /* st_size when mapped */
        int64_t mtime_s, mtime_ns;
};

static void chain_sigbus(int sig, siginfo_t *si, void *uc)
{
        if (prev_sigbus.sa_flags & SA_SIGINFO) {
                if (prev_sigbus.sa_sigaction != NULL)
                        prev_sigbus.sa_sigaction(sig, si, uc);
                return;
        }
        if (prev_sigbus.sa_handler != SIG_DFL && prev_sigbus.sa_handler != SIG_IGN) {
                prev_sigbus.sa_handler(sig);
                return;
        }
        /* The default action (ignoring a fault would only retry it forever):
         * put it back and raise the signal again; it is delivered, and ends
         * the process as it would have without us, once this handler returns. */
        {
                struct sigaction dfl;

                memset(&dfl, 0, sizeof(dfl));
                dfl.sa_handler = SIG_DFL;
                sigemptyset(&dfl.sa_mask);
                sigaction(SIGBUS, &dfl, NULL);
                raise(SIGBUS);
        }
}

/* Only async-signal-safe work: atomic loads and stores, mmap (a plain
 * system call on every system this runs on). errno is preserved. */
static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
        uintptr_t a = si != NULL ? (uintptr_t)si->si_addr : 0;
        int saved = errno;
        size_t i;

        for (i = 0; a != 0 && i < MAP_SLOTS; i++) {
                struct map_slot *s = &map_slots[i];
                uintptr_t lo, hi, page;

                if (!atomic_load(&s->used))
                        continue;
                lo = atomic_load(&s->lo);
                hi = atomic_load(&s->hi);
                if (a < lo || a >= hi)
                        continue;
                page = a & ~(page_size - 1);
                if (mmap((void *)page, hi - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
                    MAP_FAILED)
                        break;
                atomic_store(&s->changed, 1);
                errno = saved;
                return;
        }
        errno = saved;
        chain_sigbus(sig, si, uc);
}

static void guard_init(void)
{
        long ps = sysconf(_SC_PAGESIZE);

        if (ps > 0 && (ps & (ps - 1)) == 0) {
                page_size = (uintptr_t)ps;
                guard_ok = 1;
        }
}

/* The handler is (re)installed whenever it is not the current one: a
 * program (or a test harness) may have set its own SIGBUS handler since, and
 * that one then becomes the handler chained to. */
static int guard_install(void)
{
        struct sigaction sa, cur;

        if (pthread_once(&guard_once, guard_init) != 0 || !guard_ok)
                return -1;
        if (sigaction(SIGBUS, NULL, &cur) < 0)
                return -1;
        if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_sigbus)
                return 0;
        memset(&sa, 0, sizeof(sa));
        sa.sa_sigaction = on_sigbus;
        sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        return sigaction(SIGBUS, &sa, &prev_sigbus);
}

static int slot_claim(void *addr, size_t len)
{
        size_t i;

        if (guard_install() < 0)
                return -1;
        for (i = 0; i < MAP_SLOTS; i++) {
                int expect = 0;

                if (atomic_compare_exchange_strong(&map_slots[i].used, &expect, 1)) {
                        uintptr_t lo = (uintptr_t)addr;

                        atomic_store(&map_slots[i].changed, 0);
                        atomic_store(&map_slots[i].hi, 0);
                        atomic_store(&map_slots[i].lo, lo);
                        atomic_store(&map_slots[i].hi, (lo + len + page_size - 1) & ~(page_size - 1));
                        return (int)i;
                }
        }
        return -1;
}

static void slot_release(int i)
{
        if (i < 0)
                return;
        atomic_store(&map_slots[i].hi, 0);
        atomic_store(&map_slots[i].lo, 0);
        atomic_store(&map_slots[i].used, 0);
}

static void stat_times(const struct stat *st, int64_t *s, int64_t *ns)
{
        *s = (int64_t)st->st_mtim.tv_sec;
        *ns = (int64_t)st->st_mtim.tv_nsec;
}

/* The whole file into the heap with read(2): the fallback when no guarded
 * mapping can be had. A file that ends early changed while it was read. */
static int read_whole(int fd, const char *path, size_t size, uint8_t **out, cc_error *err)
{
        uint8_t *p = cc_malloc(err, size);
        size_t got = 0;

        if (p == NULL)
                return -1;
        while (got < size) {
                ssize_t n = pread(fd, p + got, size - got, (off_t)got);

                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0) {
                        int e = errno;

                        free(p);
                        return cc_err_errno(err, e, "%s: cannot read", path);
                }
                if (n == 0) {
                        free(p);
                        return cc_err(err, CC_ERR_IO, "%s: changed while read (it became shorter)", path);
                }
                got += (size_t)n;
        }
        *out = p;
        return 0;
}

/* The regular file at path opened for reading (its stat in *st), or -1 with
 * err: directories and special files refused (a FIFO opened without
 * blocking, then refused). */
static int open_regular(const char *path, struct stat *st, cc_error *err)
{
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

        if (fd < 0)
                return cc_err_errno(err, errno, "%s: cannot open", path);
        if (fstat(fd, st) < 0) {
                int e = errno;

                close(fd);
                return cc_err_errno(err, e, "%s: cannot stat", path);
        }
        if (!S_ISREG(st->st_mode)) {
                close(fd);
                return S_ISDIR(st->st_mode) ? cc_err(err, CC_ERR_IO, "%s: is a directory", path)
                                            : cc_err(err, CC_ERR_UNSUPPORTED, "%s: not a regular file", path);
        }
        return fd;
}

int cc_map_file(const char *path, size_t max_size, cc_map *out, cc_error *err)
{
        struct posix_map *pm = NULL;
        struct stat st;
        void *p;
        int fd;

        memset(out, 0, sizeof(*out));
        fd = open_regular(path, &st, err);
        if (fd < 0)
                return -1;
        if (max_size && (uint64_t)st.st_size > max_size) {
                close(fd);
                return cc_err(err, CC_ERR_LIMIT, "%s: %lld bytes, over the limit of %zu", path, (long long)st.st_size,
                              max_size);
        }
        if ((uint64_t)st.st_size > (uint64_t)SIZE_MAX) {
                close(fd);
                return cc_err(err, CC_ERR_LIMIT, "%s: too large to map", path);
        }
        out->dev = (uint64_t)st.st_dev;
        out->ino = (uint64_t)st.st_ino;
        if (st.st_size == 0) {
                close(fd);
                return 0;
        }
        pm = cc_calloc(err, 1, sizeof(*pm));
        if (pm == NULL) {
                close(fd);
                return -1;
        }
        pm->fd = fd;
        pm->slot = -1;
        pm->size = (uint64_t)st.st_size;
        stat_times(&st, &pm->mtime_s, &pm->mtime_ns);
        if (st.st_size > MAP_SMALL) {
                p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
                if (p == MAP_FAILED) {
                        int e = errno;

                        close(fd);
                        free(pm);
                        return cc_err_errno(err, e, "%s: cannot map", path);
                }
                pm->slot = slot_claim(p, (size_t)st.st_size);
                if (pm->slot >= 0)
                        pm->addr = p;
                else
                        munmap(p, (size_t)st.st_size);
        }
        if (pm->addr == NULL) {
                /* small, or no guard for a mapping: into the heap */
                if (read_whole(fd, path, (size_t)st.st_size, &pm->heap, err) < 0) {
                        close(fd);
                        free(pm);
                        return -1;
                }
        }
        out->data = pm->addr != NULL ? (const uint8_t *)pm->addr : pm->heap;
        out->size = (size_t)st.st_size;
        out->priv_ = pm;
        return 0;
}

int cc_read_head(const char *path, void *buf, size_t n, size_t *got, cc_error *err)
{
        struct stat st;
        int fd, e;

        *got = 0;
        fd = open_regular(path, &st, err);
        if (fd < 0)
                return -1;
        while (*got < n) {
                ssize_t r = pread(fd, (uint8_t *)buf + *got, n - *got, (off_t)*got);

                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0) {
                        e = errno;
                        close(fd);
                        return cc_err_errno(err, e, "%s: cannot read", path);
                }
                if (r == 0)
                        break;
                *got += (size_t)r;
        }
        close(fd);
        return 0;
}

int cc_map_changed(const cc_map *m)
{
        const struct posix_map *pm;
        struct stat st;
        int64_t s, ns;

        if (m == NULL || m->priv_ == NULL)
                return 0;
        pm = m->priv_;
        if (pm->slot >= 0 && atomic_load(&map_slots[pm->slot].changed))
                return 1;
        if (fstat(pm->fd, &st) < 0)
                return 1;
        stat_times(&st, &s, &ns);
        return (uint64_t)st.st_size != pm->size || s != pm->mtime_s || ns != pm->mtime_ns;
}

void cc_unmap(cc_map *m)
{
        struct posix_map *pm;

        if (m == NULL)
                return;
        pm = m->priv_;
        if (pm != NULL) {
                /* out of the table first: the range is about to be someone else's */
                slot_release(pm->slot);
                if (pm->addr != NULL)
                        munmap(pm->addr, m->size);
                free(pm->heap);
                close(pm->fd);
                free(pm);
        }
        memset(m, 0, sizeof(*m));
}

static void fill_stat(const struct stat *st, cc_stat *out)
{
        if (S_ISREG(st->st_mode))
                out->type = CC_FT_FILE;
        else if (S_ISDIR(st->st_mode))
                out->type = CC_FT_DIR;
        else if (S_ISLNK(st->st_mode))
                out->type = CC_FT_LINK;
        else
                out->type = CC_FT_OTHER;
        out->size = (uint64_t)st->st_size;
        out->mode = (int)(st->st_mode & 07777);
        out->mtime = (int64_t)st->st_mtime;
}

static int do_stat(const char *path, cc_stat *out, int follow, cc_error *err)
{
        struct stat st;

        memset(out, 0, sizeof(*out));
        if ((follow ? stat(path, &st) : lstat(path, &st)) < 0) {
                if (errno == ENOENT || errno == ENOTDIR) {
                        out->type = CC_FT_NONE;
                        return 0;
                }
                return cc_err_errno(err, errno, "%s: cannot stat", path);
        }
        fill_stat(&st, out);
        return 0;
}

int cc_stat_path(const char *path, cc_stat *out, cc_error *err)
{
        return do_stat(path, out, 1, err);
}

int cc_lstat_path(const char *path, cc_stat *out, cc_error *err)
{
        return do_stat(path, out, 0, err);
}

int cc_file_stamp(const char *path, char *buf, size_t size, int64_t *newest, cc_error *err)
{
        struct stat st;
        int n;

        if (stat(path, &st) < 0) {
                if (errno == ENOENT || errno == ENOTDIR)
                        return 0;
                return cc_err_errno(err, errno, "%s: cannot stat", path);
        }
        n = snprintf(buf, size, "%llu %llu %lld %lld.%09ld %lld.%09ld", (unsigned long long)st.st_dev,
                     (unsigned long long)st.st_ino, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                     (long)st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec, (long)st.st_ctim.tv_nsec);
        if (n < 0 || (size_t)n >= size)
                return cc_err(err, CC_ERR_LIMIT, "%s: stamp buffer too small", path);
        if (newest != NULL)
                *newest = (int64_t)(st.st_mtim.tv_sec > st.st_ctim.tv_sec ? st.st_mtim.tv_sec : st.st_ctim.tv_sec);
        return 1;
}

int cc_private_dir(const char *path, cc_error *err)
{
        char *p = cc_strdup(err, path), *c;
        struct stat st;
        int rv = -1;

        if (p == NULL)
                return -1;
        if (p[0] != '/') {
                cc_err(err, CC_ERR_USAGE, "%s: not an absolute path", path);
                goto out;
        }
        for (c = p + 1;; c++) {
                if (*c == '/' || *c == '\0') {
                        char keep = *c;

                        *c = '\0';
                        if (mkdir(p, 0700) < 0 && errno != EEXIST) {
                                cc_err_errno(err, errno, "%s: cannot create the directory", p);
                                goto out;
                        }
                        *c = keep;
                        if (keep == '\0')
                                break;
                }
        }
        if (lstat(path, &st) < 0) {
                cc_err_errno(err, errno, "%s: cannot stat", path);
                goto out;
        }
        if (!S_ISDIR(st.st_mode))
                cc_err(err, CC_ERR_IO, "%s: not a directory (a link or a file)", path);
        else if (st.st_uid != geteuid())
                cc_err(err, CC_ERR_IO, "%s: owned by user %u, not by this user (%u)", path, (unsigned)st.st_uid,
                       (unsigned)geteuid());
        else if (st.st_mode & 022)
                cc_err(err, CC_ERR_IO, "%s: writable by others (mode %03o)", path, (unsigned)(st.st_mode & 0777));
        else
                rv = 0;
out:
        free(p);
        return rv;
}

int cc_own_rename(const char *from, const char *to, cc_error *err)
{
        if (rename(from, to) < 0)
                return cc_err_errno(err, errno, "%s: cannot rename to %s", from, to);
        return 0;
}

void cc_stdin_binary(void)
{
}

int cc_own_mkdir(const char *path, cc_error *err)
{
        if (mkdir(path, 0700) < 0)
                return cc_err_errno(err, errno, "%s: cannot create the directory", path);
        return 0;
}

char *cc_readlink(const char *path, cc_error *err)
{
        char buf[4096];
        ssize_t n = readlink(path, buf, sizeof(buf) - 1);

        if (n < 0) {
                cc_err_errno(err, errno, "%s: cannot read link", path);
                return NULL;
        }
        return cc_strndup(err, buf, (size_t)n);
}

int cc_list_dir_some(const char *path, size_t max_entries, cc_strv *out, int *more, cc_error *err)
{
        struct dirent *de;
        DIR *d;

        *more = 0;
        d = opendir(path);
        if (d == NULL)
                return cc_err_errno(err, errno, "%s: cannot list directory", path);
        for (;;) {
                errno = 0;
                de = readdir(d);
                if (de == NULL) {
                        if (errno != 0) {
                                int e = errno;

                                closedir(d);
                                cc_strv_free(out);
                                return cc_err_errno(err, e, "%s: cannot read directory", path);
                        }
                        break;
                }
                if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                        continue;
                if (out->n >= max_entries) {
                        *more = 1;
                        break;
                }
                if (cc_strv_push(out, de->d_name, err) < 0) {
                        closedir(d);
                        cc_strv_free(out);
                        return -1;
                }
        }
        closedir(d);
        cc_strv_sort(out);
        return 0;
}

char cc_path_sep(void)
{
        return '/';
}

int cc_read_stream(const char *path, size_t max_size, char **out, size_t *len, cc_error *err)
{
        cc_buf b = {0};
        char chunk[4096];
        int fd;

        *out = NULL;
        if (len)
                *len = 0;
        b.max = max_size;
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0)
                return cc_err_errno(err, errno, "%s: cannot open", path);
        for (;;) {
                ssize_t n = read(fd, chunk, sizeof(chunk));

                if (n < 0) {
                        int e = errno;

                        if (e == EINTR)
                                continue;
                        close(fd);
                        cc_buf_free(&b);
                        return cc_err_errno(err, e, "%s: cannot read", path);
                }
                if (n == 0)
                        break;
                if (cc_buf_append(&b, chunk, (size_t)n, err) < 0) {
                        close(fd);
                        cc_buf_free(&b);
                        cc_err_prefix(err, "%s", path);
                        return -1;
                }
        }
        close(fd);
        if (len)
                *len = b.len;
        *out = b.data ? cc_buf_steal(&b) : cc_strdup(err, "");
        return *out ? 0 : -1;
}

char *cc_getcwd(cc_error *err)
{
        size_t size = 256;

        for (;;) {
                char *p = cc_malloc(err, size);

                if (p == NULL)
                        return NULL;
                if (getcwd(p, size) != NULL)
                        return p;
                free(p);
                if (errno != ERANGE || size > ((size_t)1 << 20)) {
                        cc_err_errno(err, errno, "cannot read the current directory");
                        return NULL;
                }
                size *= 2;
        }
}

extern char **environ;

int cc_environ(cc_strv *out, cc_error *err)
{
        char **e;

        for (e = environ; e != NULL && *e != NULL; e++)
                if (strchr(*e, '=') != NULL && cc_strv_push(out, *e, err) < 0)
                        return -1;
        return 0;
}

int cc_host_is_windows(void)
{
        return 0;
}

char *cc_realpath(const char *path, cc_error *err)
{
        char *r = realpath(path, NULL);

        if (r == NULL) {
                if (errno == ENOENT || errno == ENOTDIR)
                        cc_err(err, CC_ERR_NOTFOUND, "%s: no such file or directory", path);
                else
                        cc_err_errno(err, errno, "%s: cannot resolve", path);
                return NULL;
        }
        /* realpath's memory comes from malloc: hand over a copy from ours. */
        {
                char *c = cc_strdup(err, r);

                free(r);
                return c;
        }
}

int cc_reg_get_dword(const char *hive, const char *key, const char *value, uint32_t *out, cc_error *err)
{
        return cc_err(err, CC_ERR_UNSUPPORTED, "%s\\%s: no registry on this system", hive, key);
}

char *cc_reg_get_str(const char *hive, const char *key, const char *value, cc_error *err)
{
        cc_err(err, CC_ERR_UNSUPPORTED, "%s\\%s: no registry on this system", hive, key);
        return NULL;
}

char *cc_reg_get_str_type(const char *hive, const char *key, const char *value, uint32_t *type, cc_error *err)
{
        (void)type;
        return cc_reg_get_str(hive, key, value, err);
}

int cc_reg_values(const char *hive, const char *key, cc_strv *names, cc_strv *data, cc_error *err)
{
        return cc_err(err, CC_ERR_UNSUPPORTED, "%s\\%s: no registry on this system", hive, key);
}

int cc_reg_subkeys(const char *hive, const char *key, cc_strv *names, cc_error *err)
{
        (void)names;
        return cc_err(err, CC_ERR_UNSUPPORTED, "%s\\%s: no registry on this system", hive, key);
}

char *cc_win_system_dir(cc_error *err)
{
        cc_err(err, CC_ERR_UNSUPPORTED, "no Windows system directory on this system");
        return NULL;
}

char *cc_win_windows_dir(cc_error *err)
{
        cc_err(err, CC_ERR_UNSUPPORTED, "no Windows directory on this system");
        return NULL;
}

int cc_win_memory_status(cc_win_memory *out, cc_error *err)
{
        memset(out, 0, sizeof(*out));
        return cc_err(err, CC_ERR_UNSUPPORTED, "no Windows commit charge on this system");
}

int cc_is_sep(char c)
{
        return c == '/';
}

int cc_host_name(char *buf, size_t n)
{
        if (n == 0 || gethostname(buf, n) != 0)
                return -1;
        buf[n - 1] = '\0';
        return buf[0] != '\0' ? 0 : -1;
}

#endif

/* Keeps the translation unit non-empty on the other system. */
typedef int cc_platform_unit_;
