/* The only place libcudnnctl touches the operating system. One POSIX and one
 * Win32 implementation behind this header; paths are UTF-8 everywhere (wide
 * strings only at Win32 calls). */
#ifndef CC_PLATFORM_H
#define CC_PLATFORM_H

#include "../common.h"

/* A read-only view of a whole file. data is NULL when size == 0. */
typedef struct cc_map {
        const uint8_t *data;
        size_t size;
        void *priv_; /* implementation state */
} cc_map;

/* Map the file at path read-only. Files over max_size (0: no cap) are refused
 * with CC_ERR_LIMIT. Directories and special files are refused. */
int cc_map_file(const char *path, size_t max_size, cc_map *out, cc_error *err);
void cc_unmap(cc_map *m);

enum cc_ftype {
        CC_FT_NONE = 0, /* does not exist */
        CC_FT_FILE,
        CC_FT_DIR,
        CC_FT_LINK,
        CC_FT_OTHER,
};

typedef struct cc_stat {
        int type; /* enum cc_ftype; CC_FT_LINK only from cc_lstat */
        uint64_t size;
        int mode;      /* permission bits where the system has them, else -1 */
        int64_t mtime; /* seconds since the epoch */
} cc_stat;

/* Follows links. A path that does not exist gives 0 with type CC_FT_NONE. */
int cc_stat_path(const char *path, cc_stat *out, cc_error *err);
/* Does not follow the last link. */
int cc_lstat_path(const char *path, cc_stat *out, cc_error *err);
/* The target of a symbolic link, as stored (caller frees). */
char *cc_readlink(const char *path, cc_error *err);

/* The names in a directory, without "." and "..", sorted bytewise. Refuses
 * directories with more than max_entries (0: 100000) names. */
int cc_list_dir(const char *path, size_t max_entries, cc_strv *out, cc_error *err);

/* Join two path parts with the system's separator (caller frees). */
char *cc_path_join(const char *a, const char *b, cc_error *err);
/* '/' on POSIX, '\\' on Windows. */
char cc_path_sep(void);
/* 1 if c separates path components on this system. */
int cc_is_sep(char c);

/* Read a whole (small) file into a NUL-terminated buffer (caller frees). */
int cc_read_file(const char *path, size_t max_size, char **out, size_t *len, cc_error *err);

#endif
