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

int cc_is_sep(char c)
{
        return c == '/';
}
#endif

/* Keeps the translation unit non-empty on the other system. */
typedef int cc_platform_unit_;
