#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include "platform.h"
#include "win32_util.h"

#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A mapped file cannot shrink on Windows: SetEndOfFile on a file with a
 * mapped view fails (ERROR_USER_MAPPED_FILE), so there is no SIGBUS to guard
 * against as on POSIX. But the file is opened with FILE_SHARE_WRITE (so that
 * reading never blocks an installer) and can be rewritten in place: the size
 * and last write time are kept to tell cc_map_changed. */
struct win_map {
        HANDLE file;
        HANDLE mapping;
        uint64_t size;
        FILETIME written;
};

/* UTF-8 to a new wide string (caller frees), or NULL with err set. */
wchar_t *cc_win_to_wide(const char *s, cc_error *err)
{
        int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
        wchar_t *w;

        if (n <= 0) {
                cc_err(err, CC_ERR_USAGE, "%s: path is not valid UTF-8", s);
                return NULL;
        }
        w = cc_malloc(err, (size_t)n * sizeof(wchar_t));
        if (w == NULL)
                return NULL;
        MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n);
        return w;
}

char *cc_win_from_wide(const wchar_t *w, cc_error *err)
{
        int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
        char *s;

        if (n <= 0) {
                cc_err(err, CC_ERR_FORMAT, "cannot convert a file name to UTF-8");
                return NULL;
        }
        s = cc_malloc(err, (size_t)n);
        if (s == NULL)
                return NULL;
        WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
        return s;
}

int cc_win_err(cc_error *err, DWORD code, const char *what, const char *path)
{
        char msg[256];
        DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, code, 0, msg,
                                 sizeof(msg), NULL);

        while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == '\r' || msg[n - 1] == ' ' || msg[n - 1] == '.'))
                msg[--n] = '\0';
        if (n == 0)
                strcpy(msg, "system error");
        return cc_err(err, code == ERROR_NOT_ENOUGH_MEMORY ? CC_ERR_NOMEM : CC_ERR_IO, "%s: %s: %s (error %lu)", path,
                      what, msg, (unsigned long)code);
}

/* The file at path opened for reading, or INVALID_HANDLE_VALUE with err: a
 * directory refused. Its volume and file index into *dev and *ino (when
 * asked for, and when the system tells). */
static HANDLE open_file(const char *path, uint64_t *dev, uint64_t *ino, cc_error *err)
{
        BY_HANDLE_FILE_INFORMATION info;
        wchar_t *w = cc_win_to_wide(path, err);
        HANDLE f;

        if (w == NULL)
                return INVALID_HANDLE_VALUE;
        f = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                        FILE_FLAG_BACKUP_SEMANTICS, NULL);
        free(w);
        if (f == INVALID_HANDLE_VALUE) {
                cc_win_err(err, GetLastError(), "cannot open", path);
                return INVALID_HANDLE_VALUE;
        }
        if (GetFileInformationByHandle(f, &info)) {
                if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) {
                        CloseHandle(f);
                        cc_err(err, CC_ERR_IO, "%s: is a directory", path);
                        return INVALID_HANDLE_VALUE;
                }
                if (dev != NULL)
                        *dev = info.dwVolumeSerialNumber;
                if (ino != NULL)
                        *ino = ((uint64_t)info.nFileIndexHigh << 32) | info.nFileIndexLow;
        }
        return f;
}

int cc_read_head(const char *path, void *buf, size_t n, size_t *got, cc_error *err)
{
        HANDLE f;

        *got = 0;
        f = open_file(path, NULL, NULL, err);
        if (f == INVALID_HANDLE_VALUE)
                return -1;
        while (*got < n) {
                DWORD want = n - *got > 0x10000000u ? 0x10000000u : (DWORD)(n - *got), r = 0;

                if (!ReadFile(f, (uint8_t *)buf + *got, want, &r, NULL)) {
                        DWORD e = GetLastError();

                        CloseHandle(f);
                        return cc_win_err(err, e, "cannot read", path);
                }
                if (r == 0)
                        break;
                *got += r;
        }
        CloseHandle(f);
        return 0;
}

int cc_map_file(const char *path, size_t max_size, cc_map *out, cc_error *err)
{
        struct win_map *wm = NULL;
        LARGE_INTEGER sz;
        HANDLE f;
        void *p;

        memset(out, 0, sizeof(*out));
        f = open_file(path, &out->dev, &out->ino, err);
        if (f == INVALID_HANDLE_VALUE)
                return -1;
        if (!GetFileSizeEx(f, &sz)) {
                DWORD e = GetLastError();

                CloseHandle(f);
                return cc_win_err(err, e, "cannot get size", path);
        }
        if (max_size && (uint64_t)sz.QuadPart > max_size) {
                CloseHandle(f);
                return cc_err(err, CC_ERR_LIMIT, "%s: %lld bytes, over the limit of %zu", path, (long long)sz.QuadPart,
                              max_size);
        }
        if (sz.QuadPart == 0) {
                CloseHandle(f);
                return 0;
        }
        wm = cc_calloc(err, 1, sizeof(*wm));
        if (wm == NULL) {
                CloseHandle(f);
                return -1;
        }
        wm->file = f;
        wm->size = (uint64_t)sz.QuadPart;
        if (!GetFileTime(f, NULL, NULL, &wm->written))
                memset(&wm->written, 0, sizeof(wm->written));
        wm->mapping = CreateFileMappingW(f, NULL, PAGE_READONLY, 0, 0, NULL);
        if (wm->mapping == NULL) {
                DWORD e = GetLastError();

                CloseHandle(f);
                free(wm);
                return cc_win_err(err, e, "cannot map", path);
        }
        p = MapViewOfFile(wm->mapping, FILE_MAP_READ, 0, 0, 0);
        if (p == NULL) {
                DWORD e = GetLastError();

                CloseHandle(wm->mapping);
                CloseHandle(f);
                free(wm);
                return cc_win_err(err, e, "cannot map", path);
        }
        out->data = p;
        out->size = (size_t)sz.QuadPart;
        out->priv_ = wm;
        return 0;
}

int cc_map_changed(const cc_map *m)
{
        const struct win_map *wm;
        LARGE_INTEGER sz;
        FILETIME t;

        if (m == NULL || m->priv_ == NULL)
                return 0;
        wm = m->priv_;
        if (!GetFileSizeEx(wm->file, &sz) || !GetFileTime(wm->file, NULL, NULL, &t))
                return 1;
        return (uint64_t)sz.QuadPart != wm->size || CompareFileTime(&t, &wm->written) != 0;
}

void cc_unmap(cc_map *m)
{
        struct win_map *wm;

        if (m == NULL)
                return;
        wm = m->priv_;
        if (m->data != NULL)
                UnmapViewOfFile(m->data);
        if (wm != NULL) {
                CloseHandle(wm->mapping);
                CloseHandle(wm->file);
                free(wm);
        }
        memset(m, 0, sizeof(*m));
}

static int do_stat(const char *path, cc_stat *out, int follow, cc_error *err)
{
        WIN32_FILE_ATTRIBUTE_DATA fa;
        wchar_t *w;
        ULARGE_INTEGER t;

        memset(out, 0, sizeof(*out));
        w = cc_win_to_wide(path, err);
        if (w == NULL)
                return -1;
        if (!GetFileAttributesExW(w, GetFileExInfoStandard, &fa)) {
                DWORD e = GetLastError();

                free(w);
                if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND || e == ERROR_INVALID_NAME) {
                        out->type = CC_FT_NONE;
                        return 0;
                }
                return cc_win_err(err, e, "cannot stat", path);
        }
        free(w);
        if (!follow && (fa.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT))
                out->type = CC_FT_LINK;
        else if (fa.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)
                out->type = CC_FT_DIR;
        else
                out->type = CC_FT_FILE;
        out->size = ((uint64_t)fa.nFileSizeHigh << 32) | fa.nFileSizeLow;
        out->mode = -1;
        t.LowPart = fa.ftLastWriteTime.dwLowDateTime;
        t.HighPart = fa.ftLastWriteTime.dwHighDateTime;
        out->mtime = (int64_t)(t.QuadPart / 10000000ULL) - 11644473600LL;
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
        BY_HANDLE_FILE_INFORMATION fi;
        ULARGE_INTEGER t;
        wchar_t *w = cc_win_to_wide(path, err);
        HANDLE h;
        DWORD e;
        int n;

        if (w == NULL)
                return -1;
        h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                        FILE_FLAG_BACKUP_SEMANTICS, NULL);
        free(w);
        if (h == INVALID_HANDLE_VALUE) {
                e = GetLastError();
                if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND)
                        return 0;
                return cc_win_err(err, e, "cannot open", path);
        }
        if (!GetFileInformationByHandle(h, &fi)) {
                e = GetLastError();
                CloseHandle(h);
                return cc_win_err(err, e, "cannot read the file's information", path);
        }
        CloseHandle(h);
        t.LowPart = fi.ftLastWriteTime.dwLowDateTime;
        t.HighPart = fi.ftLastWriteTime.dwHighDateTime;
        n = snprintf(buf, size, "%lu %lu.%lu %lu.%lu %llu", (unsigned long)fi.dwVolumeSerialNumber,
                     (unsigned long)fi.nFileIndexHigh, (unsigned long)fi.nFileIndexLow, (unsigned long)fi.nFileSizeHigh,
                     (unsigned long)fi.nFileSizeLow, (unsigned long long)t.QuadPart);
        if (n < 0 || (size_t)n >= size)
                return cc_err(err, CC_ERR_LIMIT, "%s: stamp buffer too small", path);
        if (newest != NULL)
                *newest = (int64_t)(t.QuadPart / 10000000ULL) - 11644473600LL;
        return 1;
}

int cc_private_dir(const char *path, cc_error *err)
{
        return cc_err(err, CC_ERR_UNSUPPORTED, "%s: a private directory is not checked on Windows", path);
}

int cc_own_rename(const char *from, const char *to, cc_error *err)
{
        wchar_t *wf = cc_win_to_wide(from, err), *wt = wf ? cc_win_to_wide(to, err) : NULL;
        int rv = 0;

        if (wt == NULL) {
                free(wf);
                return -1;
        }
        if (!MoveFileW(wf, wt))
                rv = cc_win_err(err, GetLastError(), "cannot rename", from);
        free(wf);
        free(wt);
        return rv;
}

void cc_stdin_binary(void)
{
        (void)_setmode(_fileno(stdin), _O_BINARY);
}

int cc_own_mkdir(const char *path, cc_error *err)
{
        wchar_t *w = cc_win_to_wide(path, err);
        int rv = 0;

        if (w == NULL)
                return -1;
        if (!CreateDirectoryW(w, NULL))
                rv = cc_win_err(err, GetLastError(), "cannot create the directory", path);
        free(w);
        return rv;
}

char *cc_readlink(const char *path, cc_error *err)
{
        cc_err(err, CC_ERR_UNSUPPORTED, "%s: reading link targets is not supported on Windows", path);
        return NULL;
}

int cc_list_dir_some(const char *path, size_t max_entries, cc_strv *out, int *more, cc_error *err)
{
        WIN32_FIND_DATAW fd;
        HANDLE h;
        char *pattern;
        wchar_t *w;

        *more = 0;
        pattern = cc_path_join(path, "*", err);
        if (pattern == NULL)
                return -1;
        w = cc_win_to_wide(pattern, err);
        free(pattern);
        if (w == NULL)
                return -1;
        h = FindFirstFileW(w, &fd);
        free(w);
        if (h == INVALID_HANDLE_VALUE) {
                DWORD e = GetLastError();

                if (e == ERROR_FILE_NOT_FOUND)
                        return 0;
                return cc_win_err(err, e, "cannot list directory", path);
        }
        do {
                char *name;

                if (wcscmp(fd.cFileName, L".") == 0 || wcscmp(fd.cFileName, L"..") == 0)
                        continue;
                if (out->n >= max_entries) {
                        *more = 1;
                        break;
                }
                name = cc_win_from_wide(fd.cFileName, err);
                if (cc_strv_take(out, name, err) < 0) {
                        FindClose(h);
                        cc_strv_free(out);
                        return -1;
                }
        } while (FindNextFileW(h, &fd));
        FindClose(h);
        cc_strv_sort(out);
        return 0;
}

char cc_path_sep(void)
{
        return '\\';
}

int cc_read_stream(const char *path, size_t max_size, char **out, size_t *len, cc_error *err)
{
        return cc_read_file(path, max_size, out, len, err);
}

char *cc_getcwd(cc_error *err)
{
        DWORD n = GetCurrentDirectoryW(0, NULL);
        wchar_t *w;
        char *s;

        if (n == 0) {
                cc_win_err(err, GetLastError(), "cannot read", "the current directory");
                return NULL;
        }
        w = cc_malloc(err, (size_t)n * sizeof(wchar_t));
        if (w == NULL)
                return NULL;
        if (GetCurrentDirectoryW(n, w) == 0) {
                free(w);
                cc_win_err(err, GetLastError(), "cannot read", "the current directory");
                return NULL;
        }
        s = cc_win_from_wide(w, err);
        free(w);
        return s;
}

int cc_environ(cc_strv *out, cc_error *err)
{
        wchar_t *block = GetEnvironmentStringsW(), *p;

        if (block == NULL)
                return cc_err(err, CC_ERR_IO, "cannot read the environment");
        for (p = block; *p; p += wcslen(p) + 1) {
                char *s;

                if (p[0] == L'=')
                        continue; /* "=C:=C:\\dir": per-drive current directories */
                s = cc_win_from_wide(p, err);
                if (s == NULL || cc_strv_take(out, s, err) < 0) {
                        FreeEnvironmentStringsW(block);
                        return -1;
                }
        }
        FreeEnvironmentStringsW(block);
        return 0;
}

int cc_host_is_windows(void)
{
        return 1;
}

char *cc_realpath(const char *path, cc_error *err)
{
        wchar_t *w = cc_win_to_wide(path, err), *buf;
        HANDLE h;
        DWORD n;
        char *s;

        if (w == NULL)
                return NULL;
        h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                        FILE_FLAG_BACKUP_SEMANTICS, NULL);
        free(w);
        if (h == INVALID_HANDLE_VALUE) {
                DWORD e = GetLastError();

                if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND)
                        cc_err(err, CC_ERR_NOTFOUND, "%s: no such file or directory", path);
                else
                        cc_win_err(err, e, "cannot open", path);
                return NULL;
        }
        n = GetFinalPathNameByHandleW(h, NULL, 0, FILE_NAME_NORMALIZED);
        buf = n ? cc_malloc(err, ((size_t)n + 1) * sizeof(wchar_t)) : NULL;
        if (buf == NULL || GetFinalPathNameByHandleW(h, buf, n + 1, FILE_NAME_NORMALIZED) == 0) {
                CloseHandle(h);
                free(buf);
                if (n == 0)
                        cc_win_err(err, GetLastError(), "cannot resolve", path);
                return NULL;
        }
        CloseHandle(h);
        /* \\?\C:\x -> C:\x; \\?\UNC\srv\x -> \\srv\x */
        if (wcsncmp(buf, L"\\\\?\\UNC\\", 8) == 0) {
                buf[6] = L'\\';
                s = cc_win_from_wide(buf + 6, err);
        } else if (wcsncmp(buf, L"\\\\?\\", 4) == 0) {
                s = cc_win_from_wide(buf + 4, err);
        } else {
                s = cc_win_from_wide(buf, err);
        }
        free(buf);
        return s;
}

static HKEY hive_key(const char *hive)
{
        return strcmp(hive, "HKCU") == 0 ? HKEY_CURRENT_USER : HKEY_LOCAL_MACHINE;
}

static int reg_open(const char *hive, const char *key, HKEY *out, cc_error *err)
{
        wchar_t *w = cc_win_to_wide(key, err);
        LSTATUS rc;

        if (w == NULL)
                return -1;
        rc = RegOpenKeyExW(hive_key(hive), w, 0, KEY_READ, out);
        free(w);
        if (rc == ERROR_FILE_NOT_FOUND)
                return cc_err(err, CC_ERR_NOTFOUND, "%s\\%s: no such registry key", hive, key);
        if (rc != ERROR_SUCCESS)
                return cc_win_err(err, (DWORD)rc, "cannot open registry key", key);
        return 0;
}

int cc_reg_get_dword(const char *hive, const char *key, const char *value, uint32_t *out, cc_error *err)
{
        HKEY k;
        DWORD type, data, size = sizeof(data);
        wchar_t *wv;
        LSTATUS rc;

        if (reg_open(hive, key, &k, err) < 0)
                return -1;
        wv = cc_win_to_wide(value, err);
        if (wv == NULL) {
                RegCloseKey(k);
                return -1;
        }
        rc = RegQueryValueExW(k, wv, NULL, &type, (BYTE *)&data, &size);
        free(wv);
        RegCloseKey(k);
        if (rc == ERROR_FILE_NOT_FOUND)
                return cc_err(err, CC_ERR_NOTFOUND, "%s\\%s\\%s: no such registry value", hive, key, value);
        if (rc != ERROR_SUCCESS)
                return cc_win_err(err, (DWORD)rc, "cannot read registry value", value);
        if (type != REG_DWORD || size != sizeof(data))
                return cc_err(err, CC_ERR_FORMAT, "%s\\%s\\%s: not a DWORD", hive, key, value);
        *out = data;
        return 0;
}

/* A REG_SZ/REG_EXPAND_SZ value's data as UTF-8 (caller frees). */
static char *reg_sz(const BYTE *data, DWORD size, cc_error *err)
{
        size_t n = size / sizeof(wchar_t);
        wchar_t *w = cc_malloc(err, (n + 1) * sizeof(wchar_t));
        char *s;

        if (w == NULL)
                return NULL;
        memcpy(w, data, n * sizeof(wchar_t));
        w[n] = 0;
        s = cc_win_from_wide(w, err);
        free(w);
        return s;
}

char *cc_reg_get_str(const char *hive, const char *key, const char *value, cc_error *err)
{
        return cc_reg_get_str_type(hive, key, value, NULL, err);
}

char *cc_reg_get_str_type(const char *hive, const char *key, const char *value, uint32_t *type_out, cc_error *err)
{
        HKEY k;
        DWORD type, size = 0;
        BYTE *data;
        wchar_t *wv;
        LSTATUS rc;
        char *s;

        if (reg_open(hive, key, &k, err) < 0)
                return NULL;
        wv = cc_win_to_wide(value, err);
        if (wv == NULL) {
                RegCloseKey(k);
                return NULL;
        }
        rc = RegQueryValueExW(k, wv, NULL, &type, NULL, &size);
        if (rc != ERROR_SUCCESS || (type != REG_SZ && type != REG_EXPAND_SZ) || size > (1u << 20)) {
                free(wv);
                RegCloseKey(k);
                if (rc == ERROR_FILE_NOT_FOUND)
                        cc_err(err, CC_ERR_NOTFOUND, "%s\\%s\\%s: no such registry value", hive, key, value);
                else if (rc != ERROR_SUCCESS)
                        cc_win_err(err, (DWORD)rc, "cannot read registry value", value);
                else
                        cc_err(err, CC_ERR_FORMAT, "%s\\%s\\%s: not a string", hive, key, value);
                return NULL;
        }
        data = cc_malloc(err, size + sizeof(wchar_t));
        if (data == NULL) {
                free(wv);
                RegCloseKey(k);
                return NULL;
        }
        rc = RegQueryValueExW(k, wv, NULL, &type, data, &size);
        free(wv);
        RegCloseKey(k);
        if (rc != ERROR_SUCCESS) {
                free(data);
                cc_win_err(err, (DWORD)rc, "cannot read registry value", value);
                return NULL;
        }
        s = reg_sz(data, size, err);
        free(data);
        if (s != NULL && type_out != NULL)
                *type_out = (uint32_t)type;
        return s;
}

int cc_reg_values(const char *hive, const char *key, cc_strv *names, cc_strv *data, cc_error *err)
{
        HKEY k;
        DWORD i;
        int rv = -1;

        if (reg_open(hive, key, &k, err) < 0)
                return -1;
        for (i = 0; i < 10000; i++) {
                wchar_t name[512];
                BYTE buf[4096];
                DWORD nlen = CC_ARRAY_LEN(name), blen = sizeof(buf) - sizeof(wchar_t), type;
                LSTATUS rc = RegEnumValueW(k, i, name, &nlen, NULL, &type, buf, &blen);
                char *n, *d;

                if (rc == ERROR_NO_MORE_ITEMS)
                        break;
                if (rc == ERROR_MORE_DATA)
                        continue; /* a value too long for a DLL name */
                if (rc != ERROR_SUCCESS) {
                        cc_win_err(err, (DWORD)rc, "cannot list registry key", key);
                        goto fail;
                }
                if (type != REG_SZ && type != REG_EXPAND_SZ)
                        continue;
                name[nlen < CC_ARRAY_LEN(name) ? nlen : CC_ARRAY_LEN(name) - 1] = 0;
                n = cc_win_from_wide(name, err);
                d = reg_sz(buf, blen, err);
                if (n == NULL || d == NULL) {
                        free(n);
                        free(d);
                        goto fail;
                }
                if (cc_strv_take(names, n, err) < 0) {
                        free(d);
                        goto fail;
                }
                if (cc_strv_take(data, d, err) < 0)
                        goto fail;
        }
        rv = 0;
fail:
        RegCloseKey(k);
        return rv;
}

int cc_reg_subkeys(const char *hive, const char *key, cc_strv *names, cc_error *err)
{
        HKEY k;
        wchar_t *w = cc_win_to_wide(key, err);
        DWORD i;
        LSTATUS rc;
        int rv = -1;

        if (w == NULL)
                return -1;
        /* The 64-bit view whatever this process is (it is a 64-bit program:
         * the flag only says so). */
        rc = RegOpenKeyExW(hive_key(hive), w, 0, KEY_READ | KEY_WOW64_64KEY, &k);
        free(w);
        if (rc == ERROR_FILE_NOT_FOUND)
                return cc_err(err, CC_ERR_NOTFOUND, "%s\\%s: no such registry key", hive, key);
        if (rc != ERROR_SUCCESS)
                return cc_win_err(err, (DWORD)rc, "cannot open registry key", key);
        for (i = 0; i < 100000; i++) {
                wchar_t name[256]; /* a key name is 255 characters at most */
                DWORD nlen = CC_ARRAY_LEN(name);
                char *n;

                rc = RegEnumKeyExW(k, i, name, &nlen, NULL, NULL, NULL, NULL);
                if (rc == ERROR_NO_MORE_ITEMS)
                        break;
                if (rc == ERROR_MORE_DATA)
                        continue; /* longer than a key name can be: not one of ours */
                if (rc != ERROR_SUCCESS) {
                        cc_win_err(err, (DWORD)rc, "cannot list registry key", key);
                        goto fail;
                }
                name[nlen < CC_ARRAY_LEN(name) ? nlen : CC_ARRAY_LEN(name) - 1] = 0;
                n = cc_win_from_wide(name, err);
                if (n == NULL) {
                        if (err->code == CC_ERR_NOMEM)
                                goto fail;
                        cc_err_clear(err); /* a name that is no valid UTF-16 */
                        continue;
                }
                if (cc_strv_take(names, n, err) < 0)
                        goto fail;
        }
        rv = 0;
fail:
        RegCloseKey(k);
        return rv;
}

static char *win_dir(UINT (*fn)(LPWSTR, UINT), cc_error *err)
{
        wchar_t buf[MAX_PATH + 1];
        UINT n = fn(buf, MAX_PATH + 1);

        if (n == 0 || n > MAX_PATH) {
                cc_win_err(err, GetLastError(), "cannot read", "the Windows directories");
                return NULL;
        }
        return cc_win_from_wide(buf, err);
}

char *cc_win_system_dir(cc_error *err)
{
        return win_dir(GetSystemDirectoryW, err);
}

char *cc_win_windows_dir(cc_error *err)
{
        return win_dir(GetWindowsDirectoryW, err);
}

int cc_win_memory_status(cc_win_memory *out, cc_error *err)
{
        MEMORYSTATUSEX ms;

        memset(out, 0, sizeof(*out));
        memset(&ms, 0, sizeof(ms));
        ms.dwLength = sizeof(ms);
        if (!GlobalMemoryStatusEx(&ms))
                return cc_err(err, CC_ERR_IO, "GlobalMemoryStatusEx failed (error %lu)", (unsigned long)GetLastError());
        out->commit_limit = ms.ullTotalPageFile;
        out->commit_available = ms.ullAvailPageFile;
        out->physical_total = ms.ullTotalPhys;
        out->physical_available = ms.ullAvailPhys;
        return 0;
}

int cc_is_sep(char c)
{
        return c == '\\' || c == '/';
}
int cc_host_name(char *buf, size_t n)
{
        DWORD len = (DWORD)n;

        if (n == 0 || n > 0xFFFFFFFFu || !GetComputerNameExA(ComputerNameDnsHostname, buf, &len))
                return -1;
        buf[n - 1] = '\0';
        return buf[0] != '\0' ? 0 : -1;
}

#endif

/* Keeps the translation unit non-empty on the other system. */
typedef int cc_platform_unit_;
