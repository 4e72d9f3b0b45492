/* The writing calls of platform.h on POSIX systems. Nothing here follows a
 * link at the last component of a path: files are created O_EXCL|O_NOFOLLOW,
 * rename and unlink act on the name itself. Each changing call passes the
 * test hook first (cc_fs_fault). */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#if defined(__linux__)
#define _GNU_SOURCE /* sync_file_range */
#endif

#include "platform.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

struct cc_wfile {
        int fd;
        char *path;
};

struct cc_fs_lock {
        int fd;
};

static int sync_fd(int fd)
{
#if defined(__linux__)
        return fdatasync(fd);
#else
        return fsync(fd);
#endif
}

int cc_fs_create(const char *path, unsigned mode, cc_wfile **out, cc_error *err)
{
        cc_wfile *f;

        *out = NULL;
        TRY_RET(cc_fs_fault("create", path, err));
        f = cc_calloc(err, 1, sizeof(*f));
        if (f == NULL)
                return -1;
        f->path = cc_strdup(err, path);
        if (f->path == NULL) {
                free(f);
                return -1;
        }
        f->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode_t)(mode & 0777));
        if (f->fd < 0) {
                int e = errno;

                free(f->path);
                free(f);
                return cc_err_errno(err, e, "%s: cannot create", path);
        }
        *out = f;
        return 0;
}

int cc_fs_open_append(const char *path, unsigned mode, cc_wfile **out, uint64_t *size, cc_error *err)
{
        cc_wfile *f;
        struct stat st;

        *out = NULL;
        *size = 0;
        TRY_RET(cc_fs_fault("open", path, err));
        f = cc_calloc(err, 1, sizeof(*f));
        if (f == NULL)
                return -1;
        f->path = cc_strdup(err, path);
        if (f->path == NULL) {
                free(f);
                return -1;
        }
        f->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, (mode_t)(mode & 0777));
        if (f->fd < 0 || fstat(f->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
                int e = f->fd < 0 ? errno : EINVAL;

                if (f->fd >= 0)
                        (void)close(f->fd);
                free(f->path);
                free(f);
                return cc_err_errno(err, e, "%s: cannot open for appending", path);
        }
        *size = (uint64_t)st.st_size;
        *out = f;
        return 0;
}

int cc_fs_write(cc_wfile *f, const void *p, size_t n, cc_error *err)
{
        const char *c = p;

        TRY_RET(cc_fs_fault("write", f->path, err));
        while (n > 0) {
                ssize_t w = write(f->fd, c, n);

                if (w < 0 && errno == EINTR)
                        continue;
                if (w <= 0)
                        return cc_err_errno(err, w < 0 ? errno : EIO, "%s: cannot write", f->path);
                c += w;
                n -= (size_t)w;
        }
        return 0;
}

void cc_fs_start_writeback(cc_wfile *f, uint64_t off, uint64_t len)
{
#if defined(__linux__)
        /* Queues the dirty pages for writing; an error here comes back from
         * the fsync at the close, which is what the caller checks. */
        (void)sync_file_range(f->fd, (off_t)off, (off_t)len, SYNC_FILE_RANGE_WRITE);
#else
        (void)f;
        (void)off;
        (void)len;
#endif
}

int cc_fs_close_synced(cc_wfile *f, cc_error *err)
{
        int rc = 0;

        if (cc_fs_fault("sync", f->path, err) < 0)
                rc = -1;
        else if (fsync(f->fd) < 0)
                rc = cc_err_errno(err, errno, "%s: cannot flush to disk", f->path);
        if (close(f->fd) < 0 && rc == 0)
                rc = cc_err_errno(err, errno, "%s: cannot close", f->path);
        free(f->path);
        free(f);
        return rc;
}

void cc_fs_close_abort(cc_wfile *f)
{
        if (f == NULL)
                return;
        (void)close(f->fd);
        free(f->path);
        free(f);
}

int cc_fs_append_synced(const char *path, const char *line, cc_error *err)
{
        size_t n = strlen(line);
        int fd, rc = 0;

        TRY_RET(cc_fs_fault("append to", path, err));
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
                return cc_err_errno(err, errno, "%s: cannot open", path);
        while (n > 0) {
                ssize_t w = write(fd, line, n);

                if (w < 0 && errno == EINTR)
                        continue;
                if (w <= 0) {
                        rc = cc_err_errno(err, w < 0 ? errno : EIO, "%s: cannot write", path);
                        break;
                }
                line += w;
                n -= (size_t)w;
        }
        if (rc == 0 && sync_fd(fd) < 0)
                rc = cc_err_errno(err, errno, "%s: cannot flush to disk", path);
        (void)close(fd);
        return rc;
}

int cc_fs_mkdir(const char *path, unsigned mode, cc_error *err)
{
        TRY_RET(cc_fs_fault("mkdir", path, err));
        if (mkdir(path, (mode_t)(mode & 0777)) < 0)
                return cc_err_errno(err, errno, "%s: cannot create the directory", path);
        return 0;
}

int cc_fs_rmdir(const char *path, cc_error *err)
{
        TRY_RET(cc_fs_fault("rmdir", path, err));
        if (rmdir(path) < 0)
                return cc_err_errno(err, errno, "%s: cannot remove the directory", path);
        return 0;
}

int cc_fs_unlink(const char *path, cc_error *err)
{
        TRY_RET(cc_fs_fault("remove", path, err));
        if (unlink(path) < 0)
                return cc_err_errno(err, errno, "%s: cannot remove", path);
        return 0;
}

int cc_fs_rename(const char *from, const char *to, cc_error *err)
{
        TRY_RET(cc_fs_fault("rename", to, err));
        if (rename(from, to) < 0)
                return cc_err_errno(err, errno, "%s: cannot rename to %s", from, to);
        return 0;
}

int cc_fs_symlink(const char *target, const char *path, cc_error *err)
{
        TRY_RET(cc_fs_fault("symlink", path, err));
        if (symlink(target, path) < 0)
                return cc_err_errno(err, errno, "%s: cannot make the link", path);
        return 0;
}

int cc_fs_chmod(const char *path, unsigned mode, cc_error *err)
{
        int fd, rc = 0;

        TRY_RET(cc_fs_fault("chmod", path, err));
        /* Through a descriptor opened without following a link: a link put
         * at the path does not redirect the change. */
        fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
                return cc_err_errno(err, errno, "%s: cannot open to change its mode", path);
        if (fchmod(fd, (mode_t)(mode & 07777)) < 0)
                rc = cc_err_errno(err, errno, "%s: cannot change its mode", path);
        (void)close(fd);
        return rc;
}

int cc_fs_sync_dir(const char *path, cc_error *err)
{
        int fd, rc = 0;

        fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return cc_err_errno(err, errno, "%s: cannot open the directory", path);
        if (fsync(fd) < 0 && errno != EINVAL)
                rc = cc_err_errno(err, errno, "%s: cannot flush the directory", path);
        (void)close(fd);
        return rc;
}

int cc_fs_lock_take(const char *path, cc_fs_lock **out, cc_error *err)
{
        cc_fs_lock *l;
        int fd;

        *out = NULL;
        fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
                return cc_err_errno(err, errno, "%s: cannot open the lock", path);
        if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
                int e = errno;

                (void)close(fd);
                if (e == EWOULDBLOCK)
                        return cc_err(err, CC_ERR_IO, "%s: another cudnnctl is changing this target", path);
                return cc_err_errno(err, e, "%s: cannot lock", path);
        }
        l = cc_calloc(err, 1, sizeof(*l));
        if (l == NULL) {
                (void)close(fd);
                return -1;
        }
        l->fd = fd;
        *out = l;
        return 0;
}

void cc_fs_lock_release(cc_fs_lock *l)
{
        if (l == NULL)
                return;
        (void)close(l->fd);
        free(l);
}

int cc_is_admin(void)
{
        return geteuid() == 0;
}

int cc_fs_writable(const char *dir)
{
        return access(dir, W_OK | X_OK) == 0;
}

int cc_fs_free_bytes(const char *path, uint64_t *out, cc_error *err)
{
        struct statvfs s;

        if (statvfs(path, &s) < 0)
                return cc_err_errno(err, errno, "%s: cannot read the free space", path);
        *out = (uint64_t)s.f_bavail * (uint64_t)s.f_frsize;
        return 0;
}

int cc_fs_identity(const char *path, uint64_t *dev, uint64_t *ino, cc_error *err)
{
        struct stat st;

        if (lstat(path, &st) < 0)
                return cc_err_errno(err, errno, "%s", path);
        *dev = (uint64_t)st.st_dev;
        *ino = (uint64_t)st.st_ino;
        return 0;
}

int cc_reg_read(const char *hive, const char *key, const char *value, cc_regval *out, cc_error *err)
{
        memset(out, 0, sizeof(*out));
        return cc_err(err, CC_ERR_UNSUPPORTED, "%s\\%s: no registry on this system", hive, key);
}

void cc_regval_free(cc_regval *v)
{
        if (v != NULL) {
                free(v->data);
                memset(v, 0, sizeof(*v));
        }
}

int cc_reg_write(const char *hive, const char *key, const char *value, const cc_regval *v, cc_error *err)
{
        return cc_err(err, CC_ERR_UNSUPPORTED, "%s\\%s: no registry on this system", hive, key);
}

int cc_env_broadcast(cc_error *err)
{
        return cc_err(err, CC_ERR_UNSUPPORTED, "no window messages on this system");
}
#endif

/* Keeps the translation unit non-empty on the other system. */
typedef int cc_posix_fsw_unit_;
