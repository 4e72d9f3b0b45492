#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include "platform.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int cc_map_file(const char *path, size_t max_size, cc_map *out, cc_error *err)
{
        struct stat st;
        void *p;
        int fd;

        memset(out, 0, sizeof(*out));
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0)
                return cc_err_errno(err, errno, "%s: cannot open", path);
        if (fstat(fd, &st) < 0) {
                int e = errno;

                close(fd);
                return cc_err_errno(err, e, "%s: cannot stat", path);
        }
        if (S_ISDIR(st.st_mode)) {
                close(fd);
                return cc_err(err, CC_ERR_IO, "%s: is a directory", path);
        }
        if (!S_ISREG(st.st_mode)) {
                close(fd);
                return cc_err(err, CC_ERR_UNSUPPORTED, "%s: not a regular file", path);
        }
        if (max_size && (uint64_t)st.st_size > max_size) {
                close(fd);
                return cc_err(err, CC_ERR_LIMIT, "%s: %lld bytes, over the limit of %zu", path, (long long)st.st_size,
                              max_size);
        }
        if ((uint64_t)st.st_size > (uint64_t)SIZE_MAX) {
                close(fd);
                return cc_err(err, CC_ERR_LIMIT, "%s: too large to map", path);
        }
        if (st.st_size == 0) {
                close(fd);
                return 0;
        }
        p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
                int e = errno;

                close(fd);
                return cc_err_errno(err, e, "%s: cannot map", path);
        }
        close(fd);
        out->data = p;
        out->size = (size_t)st.st_size;
        out->priv_ = p;
        return 0;
}

void cc_unmap(cc_map *m)
{
        if (m == NULL)
                return;
        if (m->priv_ != NULL)
                munmap(m->priv_, m->size);
        m->priv_ = NULL;
        m->data = NULL;
        m->size = 0;
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

int cc_list_dir(const char *path, size_t max_entries, cc_strv *out, cc_error *err)
{
        struct dirent *de;
        DIR *d;

        if (max_entries == 0)
                max_entries = 100000;
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
                        closedir(d);
                        cc_strv_free(out);
                        return cc_err(err, CC_ERR_LIMIT, "%s: more than %zu entries", path, max_entries);
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

int cc_reg_values(const char *hive, const char *key, cc_strv *names, cc_strv *data, cc_error *err)
{
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

int cc_is_sep(char c)
{
        return c == '/';
}
#endif

/* Keeps the translation unit non-empty on the other system. */
typedef int cc_platform_unit_;
