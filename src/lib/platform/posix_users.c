/* POSIX (Linux): the processes that have a file mapped, from /proc. Every
 * /proc/PID/maps is read and each file-backed mapping compared with the files
 * asked about by device and inode (what the kernel maps, whatever the name:
 * a link, another hard link, a renamed file); a mapping of a deleted file
 * whose path is one asked about is reported too, marked (the process keeps
 * the old file after a replace). /proc/PID/map_files, where this process may
 * follow its links (root), confirms a match by the mapped file's own
 * identity, which also holds where the maps' device is not the one stat
 * gives (btrfs subvolumes, overlayfs). */
#if !defined(_WIN32)
#define _GNU_SOURCE

#include "platform.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define CC_MAPS_MAX ((size_t)64 << 20) /* a process with a million mappings still fits */
#define CC_CMDLINE_READ 65536          /* bytes of /proc/PID/cmdline read */
#define CC_CMDLINE_SHOW 1024           /* bytes of it kept */

struct target {
        int have;          /* stat gave its identity */
        dev_t dev;         /* as stat gives it */
        unsigned maj, min; /* as the maps write it */
        ino_t ino;
        char *canon; /* its canonical path (the path itself when it is gone) */
};

/* The whole of a /proc file into a new NUL-terminated buffer; -1 with errno
 * set (ENOENT/ESRCH: the process is gone; EACCES/EPERM: not ours). */
static char *read_proc(const char *path, size_t max, size_t *len)
{
        size_t cap = 4096, n = 0;
        char *buf = malloc(cap + 1), *nb;
        int fd, e;

        if (buf == NULL)
                return NULL;
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                goto fail;
        for (;;) {
                ssize_t r;

                if (n == cap) {
                        if (cap >= max) {
                                errno = EFBIG;
                                goto fail;
                        }
                        cap = cap * 2 > max ? max : cap * 2;
                        nb = realloc(buf, cap + 1);
                        if (nb == NULL)
                                goto fail;
                        buf = nb;
                }
                r = read(fd, buf + n, cap - n);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0)
                        goto fail;
                if (r == 0)
                        break;
                n += (size_t)r;
        }
        close(fd);
        buf[n] = '\0';
        *len = n;
        return buf;
fail:
        e = errno;
        if (fd >= 0)
                close(fd);
        free(buf);
        errno = e;
        return NULL;
}

static int add_user(cc_proc_users *u, int64_t pid, size_t file, unsigned how, size_t *first, cc_error *err)
{
        size_t i;

        for (i = *first; i < u->n; i++)
                if (u->v[i].file == file) {
                        u->v[i].how |= how;
                        return 0;
                }
        if (u->n == u->cap) {
                size_t cap = u->cap ? u->cap * 2 : 16;
                cc_proc_user *nv = cc_realloc(err, u->v, cap * sizeof(*nv));

                if (nv == NULL)
                        return -1;
                u->v = nv;
                u->cap = cap;
        }
        memset(&u->v[u->n], 0, sizeof(u->v[0]));
        u->v[u->n].pid = pid;
        u->v[u->n].file = file;
        u->v[u->n].how = how;
        u->n++;
        return 0;
}

/* The mapping's own file, through map_files (root, or CAP_CHECKPOINT_RESTORE). */
static int map_file_is(const char *pid, const cc_procmap *mp, const struct target *t)
{
        char path[128];
        struct stat st;

        if (!t->have ||
            snprintf(path, sizeof(path), "/proc/%s/map_files/%llx-%llx", pid, (unsigned long long)mp->start,
                     (unsigned long long)mp->end) >= (int)sizeof(path) ||
            stat(path, &st) != 0)
                return 0;
        return st.st_dev == t->dev && st.st_ino == t->ino;
}

/* The name, the command line of a process that maps something. */
static int describe(const char *pid, cc_proc_user *first, size_t count, cc_error *err)
{
        char path[64], *comm, *raw, *name = NULL, *cmd = NULL;
        size_t len, i;

        snprintf(path, sizeof(path), "/proc/%s/comm", pid);
        comm = read_proc(path, 4096, &len);
        if (comm != NULL) {
                while (len > 0 && comm[len - 1] == '\n')
                        comm[--len] = '\0';
                name = comm;
        }
        snprintf(path, sizeof(path), "/proc/%s/cmdline", pid);
        raw = read_proc(path, CC_CMDLINE_READ, &len);
        if (raw == NULL && errno == EFBIG) {
                /* longer than we show: its start is enough */
                int fd = open(path, O_RDONLY | O_CLOEXEC);

                raw = malloc(CC_CMDLINE_SHOW + 2);
                len = 0;
                if (fd >= 0 && raw != NULL) {
                        ssize_t r = read(fd, raw, CC_CMDLINE_SHOW + 1);

                        len = r > 0 ? (size_t)r : 0;
                }
                if (fd >= 0)
                        close(fd);
        }
        /* a kernel thread has an empty command line: none, not "" */
        if (raw != NULL && len > 0) {
                cmd = cc_cmdline_join(raw, len, CC_CMDLINE_SHOW, err);
                if (cmd == NULL) {
                        free(raw);
                        free(name);
                        return -1;
                }
        }
        free(raw);
        for (i = 0; i < count; i++) {
                if ((name && (first[i].name = cc_strdup(err, name)) == NULL) ||
                    (cmd && (first[i].cmdline = cc_strdup(err, cmd)) == NULL)) {
                        free(name);
                        free(cmd);
                        return -1;
                }
        }
        free(name);
        free(cmd);
        return 0;
}

/* The targets by the identity the maps write and by canonical path, so that
 * each mapping is looked up once, however many files are asked about. */
struct index {
        cc_smap by_id, by_name;      /* key -> index + 1 of the first target with it */
        size_t *next_id, *next_name; /* the next target with the same key, + 1; 0 none */
};

#define CC_NONE ((size_t)0)

static void id_key(char *buf, size_t size, unsigned maj, unsigned min, uint64_t ino)
{
        snprintf(buf, size, "%x:%x:%llu", maj, min, (unsigned long long)ino);
}

static int index_put(cc_smap *m, size_t *next, const char *key, size_t i, cc_error *err)
{
        void *old = NULL;

        if (cc_smap_get(m, key, &old)) {
                /* keep the first; chain the rest behind it, in order */
                size_t k = (size_t)(uintptr_t)old - 1;

                while (next[k] != CC_NONE)
                        k = next[k] - 1;
                next[k] = i + 1;
                return 0;
        }
        return cc_smap_put(m, key, (void *)(uintptr_t)(i + 1), NULL, err);
}

static int index_build(struct index *x, const struct target *t, size_t n, cc_error *err)
{
        char key[64];
        size_t i;

        x->next_id = cc_calloc(err, n ? n : 1, sizeof(size_t));
        x->next_name = cc_calloc(err, n ? n : 1, sizeof(size_t));
        if (x->next_id == NULL || x->next_name == NULL)
                return -1;
        for (i = 0; i < n; i++) {
                if (t[i].have) {
                        id_key(key, sizeof(key), t[i].maj, t[i].min, (uint64_t)t[i].ino);
                        if (index_put(&x->by_id, x->next_id, key, i, err) < 0)
                                return -1;
                }
                if (t[i].canon != NULL && index_put(&x->by_name, x->next_name, t[i].canon, i, err) < 0)
                        return -1;
        }
        return 0;
}

static void index_free(struct index *x)
{
        cc_smap_free(&x->by_id);
        cc_smap_free(&x->by_name);
        free(x->next_id);
        free(x->next_name);
}

static int scan_process(const char *pid, const struct target *t, const struct index *x, cc_proc_users *u, char *pathbuf,
                        cc_error *err)
{
        char path[64], key[64];
        char *maps, *line, *end;
        size_t len, first = u->n;
        int64_t id = strtoll(pid, NULL, 10);

        snprintf(path, sizeof(path), "/proc/%s/maps", pid);
        maps = read_proc(path, CC_MAPS_MAX, &len);
        if (maps == NULL) {
                if (errno == ENOMEM)
                        return cc_err(err, CC_ERR_NOMEM, "out of memory");
                if (errno != ENOENT && errno != ESRCH)
                        u->unreadable++;
                /* a process that ended meanwhile was never there */
                return 0;
        }
        u->scanned++;
        for (line = maps; line < maps + len; line = end + 1) {
                cc_procmap mp;
                void *v;
                size_t i;

                end = memchr(line, '\n', (size_t)(maps + len - line));
                if (end == NULL)
                        end = maps + len;
                if (cc_procmap_parse(line, (size_t)(end - line), &mp) < 0 || mp.path == NULL || mp.path[0] != '/')
                        continue;
                /* the file's device and inode; also through a name since
                 * deleted: another hard link of it is still there */
                id_key(key, sizeof(key), mp.dev_major, mp.dev_minor, mp.ino);
                if (cc_smap_get(&x->by_id, key, &v))
                        for (i = (size_t)(uintptr_t)v; i != CC_NONE; i = x->next_id[i - 1]) {
                                unsigned how = CC_SEEN_MAPS;

                                if (map_file_is(pid, &mp, &t[i - 1]))
                                        how |= CC_SEEN_MAP_FILES;
                                if (add_user(u, id, i - 1, how, &first, err) < 0)
                                        goto fail;
                        }
                /* its path: a deleted file of that path, or the file itself
                 * where the maps number its device apart from stat */
                if (cc_procmap_path(&mp, pathbuf, PATH_MAX + 1) < 0 || !cc_smap_get(&x->by_name, pathbuf, &v))
                        continue;
                for (i = (size_t)(uintptr_t)v; i != CC_NONE; i = x->next_name[i - 1]) {
                        const struct target *ti = &t[i - 1];
                        unsigned how = 0;

                        if (ti->have && mp.ino == (uint64_t)ti->ino && mp.dev_major == ti->maj &&
                            mp.dev_minor == ti->min)
                                continue; /* counted above */
                        if (mp.deleted)
                                how = CC_SEEN_DELETED;
                        else if (ti->have && mp.ino == (uint64_t)ti->ino)
                                how = CC_SEEN_MAPS;
                        if (map_file_is(pid, &mp, ti))
                                how = (how & ~(unsigned)CC_SEEN_DELETED) | CC_SEEN_MAP_FILES;
                        if (how && add_user(u, id, i - 1, how, &first, err) < 0)
                                goto fail;
                }
        }
        free(maps);
        if (u->n > first && describe(pid, u->v + first, u->n - first, err) < 0)
                return -1;
        return 0;
fail:
        free(maps);
        return -1;
}

/* The canonical path a file that is gone had, as the maps write it: its
 * directory's links resolved (a file removed from /usr/local/cuda/lib64 is
 * mapped as /usr/local/cuda-13.0/targets/.../libx.so (deleted)). */
static char *gone_path(const char *path, cc_error *err)
{
        const char *slash = strrchr(path, '/');
        char *dir, *real, *out;

        dir = cc_strndup(err, path, slash > path ? (size_t)(slash - path) : 1);
        if (dir == NULL)
                return NULL;
        real = cc_realpath(dir, NULL);
        free(dir);
        if (real == NULL)
                return cc_strdup(err, path);
        out = cc_asprintf(err, "%s%s", strcmp(real, "/") == 0 ? "" : real, slash);
        free(real);
        return out;
}

static int by_pid(const void *a, const void *b)
{
        const cc_proc_user *x = a, *y = b;

        if (x->pid != y->pid)
                return x->pid < y->pid ? -1 : 1;
        return x->file < y->file ? -1 : x->file > y->file;
}

int cc_proc_mappers(const char *const *paths, size_t n, cc_proc_users *out, cc_error *err)
{
        struct target *t = NULL;
        struct index x;
        char *pathbuf = NULL;
        DIR *d = NULL;
        struct dirent *e;
        pid_t self = getpid();
        size_t i;
        int rv = -1;

        memset(out, 0, sizeof(*out));
        memset(&x, 0, sizeof(x));
        t = cc_calloc(err, n ? n : 1, sizeof(*t));
        pathbuf = cc_malloc(err, PATH_MAX + 1);
        if (t == NULL || pathbuf == NULL)
                goto done;
        for (i = 0; i < n; i++) {
                struct stat st;

                if (stat(paths[i], &st) == 0 && S_ISREG(st.st_mode)) {
                        t[i].have = 1;
                        t[i].dev = st.st_dev;
                        t[i].maj = major(st.st_dev);
                        t[i].min = minor(st.st_dev);
                        t[i].ino = st.st_ino;
                }
                t[i].canon = cc_realpath(paths[i], NULL);
                if (t[i].canon == NULL && paths[i][0] == '/' && (t[i].canon = gone_path(paths[i], err)) == NULL)
                        goto done;
        }
        if (index_build(&x, t, n, err) < 0)
                goto done;
        d = opendir("/proc");
        if (d == NULL) {
                cc_err_errno(err, errno, "/proc: cannot list the processes");
                goto done;
        }
        while ((e = readdir(d)) != NULL) {
                const char *c = e->d_name;

                if (*c < '1' || *c > '9' || strspn(c, "0123456789") != strlen(c) || strlen(c) > 19)
                        continue;
                if (strtoll(c, NULL, 10) == (long long)self)
                        continue; /* the tool itself */
                if (scan_process(c, t, &x, out, pathbuf, err) < 0)
                        goto done;
        }
        if (out->n > 1)
                qsort(out->v, out->n, sizeof(out->v[0]), by_pid);
        rv = 0;
done:
        if (d != NULL)
                closedir(d);
        index_free(&x);
        for (i = 0; t != NULL && i < n; i++)
                free(t[i].canon);
        free(t);
        free(pathbuf);
        if (rv < 0)
                cc_proc_users_free(out);
        return rv;
}

#else
typedef int cc_posix_users_unused_;
#endif
