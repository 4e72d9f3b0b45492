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

/* A small file read through read(2), for files whose size stat cannot tell
 * (/proc/cpuinfo, /proc/version). NUL-terminated, caller frees. */
int cc_read_stream(const char *path, size_t max_size, char **out, size_t *len, cc_error *err);

/* The current directory (caller frees). */
char *cc_getcwd(cc_error *err);
/* The process's environment as "KEY=VALUE" strings, in the order the system
 * gives (on Windows the per-drive "=C:=..." entries are left out). */
int cc_environ(cc_strv *out, cc_error *err);
/* 1 when this program runs on Windows. */
int cc_host_is_windows(void);
/* The host's own canonical spelling of an existing path, links resolved
 * (caller frees); NULL with CC_ERR_NOTFOUND when it does not exist. */
char *cc_realpath(const char *path, cc_error *err);

/* The x86-64 micro-architecture level this CPU and OS support, as glibc's
 * loader decides it for glibc-hwcaps (1: baseline, 2: x86-64-v2, 3, 4); 0
 * when unknown or not x86-64. */
int cc_host_x86_64_level(void);

/* Windows registry, HKEY_LOCAL_MACHINE (hive "HKLM") or HKEY_CURRENT_USER
 * ("HKCU"). Off Windows every call fails with CC_ERR_UNSUPPORTED; a missing
 * key or value gives CC_ERR_NOTFOUND. */
int cc_reg_get_dword(const char *hive, const char *key, const char *value, uint32_t *out, cc_error *err);
/* A REG_SZ / REG_EXPAND_SZ value, unexpanded (caller frees). */
char *cc_reg_get_str(const char *hive, const char *key, const char *value, cc_error *err);
/* Every string value of a key: names[i] = data[i]. */
int cc_reg_values(const char *hive, const char *key, cc_strv *names, cc_strv *data, cc_error *err);
/* The Windows system directory (GetSystemDirectory) and Windows directory
 * (GetWindowsDirectory); off Windows CC_ERR_UNSUPPORTED. */
char *cc_win_system_dir(cc_error *err);
char *cc_win_windows_dir(cc_error *err);

#endif
