/* The writing calls of platform.h on Windows. Paths are passed as long
 * paths (\\?\C:\...) so that a deep toolkit tree past MAX_PATH works;
 * CreateFileW opens reparse points themselves (FILE_FLAG_OPEN_REPARSE_POINT)
 * where a link could redirect a write. Replaces are MoveFileExW with
 * MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH; syncs are
 * FlushFileBuffers. Each changing call passes the test hook first. */
#if defined(_WIN32)
#include <windows.h>

#include "platform.h"
#include "win32_util.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

struct cc_wfile {
        HANDLE h;
        char *path;
};

struct cc_fs_lock {
        HANDLE h;
};

/* path as a wide long path: "\\?\" before a drive-absolute path, with
 * every '/' made '\' (the prefix turns off that translation). */
static wchar_t *wlong(const char *path, cc_error *err)
{
        wchar_t *w = cc_win_to_wide(path, err), *out;
        size_t n, i;

        if (w == NULL)
                return NULL;
        for (i = 0; w[i]; i++)
                if (w[i] == L'/')
                        w[i] = L'\\';
        n = wcslen(w);
        if (n < 3 || w[1] != L':' || w[2] != L'\\')
                return w;
        out = cc_malloc(err, (n + 5) * sizeof(wchar_t));
        if (out != NULL) {
                memcpy(out, L"\\\\?\\", 4 * sizeof(wchar_t));
                memcpy(out + 4, w, (n + 1) * sizeof(wchar_t));
        }
        free(w);
        return out;
}

/* A file for writing, created (CREATE_NEW) or opened (OPEN_ALWAYS), never
 * through a reparse point; what says what failed. */
static int open_for_writing(const char *path, DWORD disposition, const char *what, cc_wfile **out, cc_error *err)
{
        cc_wfile *f;
        wchar_t *w;

        *out = NULL;
        TRY_RET(cc_fs_fault(disposition == CREATE_NEW ? "create" : "open", path, err));
        w = wlong(path, err);
        if (w == NULL)
                return -1;
        f = cc_calloc(err, 1, sizeof(*f));
        if (f == NULL || (f->path = cc_strdup(err, path)) == NULL) {
                free(f);
                free(w);
                return -1;
        }
        f->h = CreateFileW(w, GENERIC_WRITE, 0, NULL, disposition, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT,
                           NULL);
        free(w);
        if (f->h == INVALID_HANDLE_VALUE) {
                DWORD e = GetLastError();

                free(f->path);
                free(f);
                return cc_win_err(err, e, what, path);
        }
        *out = f;
        return 0;
}

int cc_fs_create(const char *path, unsigned mode, cc_wfile **out, cc_error *err)
{
        (void)mode;
        return open_for_writing(path, CREATE_NEW, "cannot create", out, err);
}

int cc_fs_open_append(const char *path, unsigned mode, cc_wfile **out, uint64_t *size, cc_error *err)
{
        cc_wfile *f;
        LARGE_INTEGER li, zero;

        (void)mode;
        *size = 0;
        zero.QuadPart = 0;
        TRY_RET(open_for_writing(path, OPEN_ALWAYS, "cannot open for appending", out, err));
        f = *out;
        li.QuadPart = 0;
        /* The size, then the pointer at the end: a distance of 0 from
         * FILE_END (the size as the distance would leave a hole as long as
         * the file before the first write). */
        if (!GetFileSizeEx(f->h, &li) || !SetFilePointerEx(f->h, zero, NULL, FILE_END)) {
                DWORD e = GetLastError();

                CloseHandle(f->h);
                free(f->path);
                free(f);
                *out = NULL;
                return cc_win_err(err, e, "cannot open for appending", path);
        }
        *size = (uint64_t)li.QuadPart;
        return 0;
}

int cc_fs_write(cc_wfile *f, const void *p, size_t n, cc_error *err)
{
        const char *c = p;

        TRY_RET(cc_fs_fault("write", f->path, err));
        while (n > 0) {
                DWORD chunk = n > 0x40000000u ? 0x40000000u : (DWORD)n, done = 0;

                if (!WriteFile(f->h, c, chunk, &done, NULL) || done == 0)
                        return cc_win_err(err, GetLastError(), "cannot write", f->path);
                c += done;
                n -= done;
        }
        return 0;
}

void cc_fs_start_writeback(cc_wfile *f, uint64_t off, uint64_t len)
{
        /* No asynchronous range flush here: FlushFileBuffers at the close
         * writes everything. */
        (void)f;
        (void)off;
        (void)len;
}

int cc_fs_close_synced(cc_wfile *f, cc_error *err)
{
        int rc = 0;

        if (cc_fs_fault("sync", f->path, err) < 0)
                rc = -1;
        else if (!FlushFileBuffers(f->h))
                rc = cc_win_err(err, GetLastError(), "cannot flush to disk", f->path);
        CloseHandle(f->h);
        free(f->path);
        free(f);
        return rc;
}

void cc_fs_close_abort(cc_wfile *f)
{
        if (f == NULL)
                return;
        CloseHandle(f->h);
        free(f->path);
        free(f);
}

int cc_fs_append_synced(const char *path, const char *line, cc_error *err)
{
        size_t n = strlen(line);
        wchar_t *w;
        HANDLE h;
        int rc = 0;

        TRY_RET(cc_fs_fault("append to", path, err));
        w = wlong(path, err);
        if (w == NULL)
                return -1;
        h = CreateFileW(w, FILE_APPEND_DATA, FILE_SHARE_READ, NULL, OPEN_ALWAYS,
                        FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
        free(w);
        if (h == INVALID_HANDLE_VALUE)
                return cc_win_err(err, GetLastError(), "cannot open", path);
        while (n > 0 && rc == 0) {
                DWORD done = 0;

                if (!WriteFile(h, line, (DWORD)n, &done, NULL) || done == 0)
                        rc = cc_win_err(err, GetLastError(), "cannot write", path);
                line += done;
                n -= done;
        }
        if (rc == 0 && !FlushFileBuffers(h))
                rc = cc_win_err(err, GetLastError(), "cannot flush to disk", path);
        CloseHandle(h);
        return rc;
}

/* One call on one wide path: 0, or -1 with err naming what failed. */
#define WCALL(what, path, call)                                                                                        \
        do {                                                                                                           \
                wchar_t *w_ = wlong((path), err);                                                                      \
                BOOL ok_;                                                                                              \
                if (w_ == NULL)                                                                                        \
                        return -1;                                                                                     \
                ok_ = (call);                                                                                          \
                free(w_);                                                                                              \
                if (!ok_)                                                                                              \
                        return cc_win_err(err, GetLastError(), what, (path));                                          \
        } while (0)

int cc_fs_mkdir(const char *path, unsigned mode, cc_error *err)
{
        (void)mode;
        TRY_RET(cc_fs_fault("mkdir", path, err));
        WCALL("cannot create the directory", path, CreateDirectoryW(w_, NULL));
        return 0;
}

int cc_fs_rmdir(const char *path, cc_error *err)
{
        TRY_RET(cc_fs_fault("rmdir", path, err));
        WCALL("cannot remove the directory", path, RemoveDirectoryW(w_));
        return 0;
}

int cc_fs_unlink(const char *path, cc_error *err)
{
        TRY_RET(cc_fs_fault("remove", path, err));
        WCALL("cannot remove", path, DeleteFileW(w_));
        return 0;
}

int cc_fs_rename(const char *from, const char *to, cc_error *err)
{
        wchar_t *wt;

        TRY_RET(cc_fs_fault("rename", to, err));
        wt = wlong(to, err);
        if (wt == NULL)
                return -1;
        {
                wchar_t *w_ = wlong(from, err);
                BOOL ok;

                if (w_ == NULL) {
                        free(wt);
                        return -1;
                }
                ok = MoveFileExW(w_, wt, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH);
                free(w_);
                free(wt);
                if (!ok)
                        return cc_win_err(err, GetLastError(), "cannot rename", from);
        }
        return 0;
}

int cc_fs_symlink(const char *target, const char *path, cc_error *err)
{
        (void)target;
        TRY_RET(cc_fs_fault("symlink", path, err));
        return cc_err(err, CC_ERR_UNSUPPORTED, "%s: a Windows target gets no symbolic links", path);
}

int cc_fs_chmod(const char *path, unsigned mode, cc_error *err)
{
        DWORD attr;

        TRY_RET(cc_fs_fault("chmod", path, err));
        {
                wchar_t *w_ = wlong(path, err);

                if (w_ == NULL)
                        return -1;
                attr = GetFileAttributesW(w_);
                if (attr == INVALID_FILE_ATTRIBUTES) {
                        free(w_);
                        return cc_win_err(err, GetLastError(), "cannot read the attributes", path);
                }
                if (attr & FILE_ATTRIBUTE_REPARSE_POINT) {
                        free(w_);
                        return cc_err(err, CC_ERR_IO, "%s: is a link, not changed", path);
                }
                attr = (mode & 0222) ? (attr & ~(DWORD)FILE_ATTRIBUTE_READONLY) : (attr | FILE_ATTRIBUTE_READONLY);
                if (!SetFileAttributesW(w_, attr)) {
                        DWORD e = GetLastError();

                        free(w_);
                        return cc_win_err(err, e, "cannot set the attributes", path);
                }
                free(w_);
        }
        return 0;
}

int cc_fs_sync_dir(const char *path, cc_error *err)
{
        /* NTFS journals its directory entries; MOVEFILE_WRITE_THROUGH has
         * flushed each rename. */
        (void)path;
        (void)err;
        return 0;
}

int cc_fs_lock_take(const char *path, cc_fs_lock **out, cc_error *err)
{
        cc_fs_lock *l;
        wchar_t *w;
        HANDLE h;
        OVERLAPPED ov;

        *out = NULL;
        w = wlong(path, err);
        if (w == NULL)
                return -1;
        /* FILE_SHARE_DELETE: the holder removes the lock file before it lets
         * the lock go (txn.c, tidy_state) */
        h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                        OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
        free(w);
        if (h == INVALID_HANDLE_VALUE)
                return cc_win_err(err, GetLastError(), "cannot open the lock", path);
        /* A process that ended holding the lock (killed, crashed) has it let
         * go by the system "after a time that depends on available system
         * resources" (LockFileEx's documentation), not at once as flock's is:
         * a second, in 50 ms tries, before saying someone holds it. */
        for (int tries = 0;; tries++) {
                memset(&ov, 0, sizeof(ov));
                if (LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ov))
                        break;
                if (GetLastError() != ERROR_LOCK_VIOLATION || tries == 20) {
                        CloseHandle(h);
                        return cc_err(err, CC_ERR_IO, "%s: another cudnnctl is changing this target", path);
                }
                Sleep(50);
        }
        l = cc_calloc(err, 1, sizeof(*l));
        if (l == NULL) {
                CloseHandle(h);
                return -1;
        }
        l->h = h;
        *out = l;
        return 0;
}

void cc_fs_lock_release(cc_fs_lock *l)
{
        if (l == NULL)
                return;
        CloseHandle(l->h);
        free(l);
}

int cc_is_admin(void)
{
        SID_IDENTIFIER_AUTHORITY nt = {SECURITY_NT_AUTHORITY};
        PSID admins = NULL;
        BOOL member = FALSE;

        if (!AllocateAndInitializeSid(&nt, 2, SECURITY_BUILTIN_DOMAIN_RID, DOMAIN_ALIAS_RID_ADMINS, 0, 0, 0, 0, 0, 0,
                                      &admins))
                return 0;
        if (!CheckTokenMembership(NULL, admins, &member))
                member = FALSE;
        FreeSid(admins);
        return member ? 1 : 0;
}

int cc_fs_writable(const char *dir)
{
        (void)dir;
        return 1;
}

int cc_fs_free_bytes(const char *path, uint64_t *out, cc_error *err)
{
        ULARGE_INTEGER avail;
        wchar_t *w = wlong(path, err);
        BOOL ok;

        if (w == NULL)
                return -1;
        ok = GetDiskFreeSpaceExW(w, &avail, NULL, NULL);
        free(w);
        if (!ok)
                return cc_win_err(err, GetLastError(), "cannot read the free space", path);
        *out = avail.QuadPart;
        return 0;
}

int cc_fs_identity(const char *path, uint64_t *dev, uint64_t *ino, cc_error *err)
{
        BY_HANDLE_FILE_INFORMATION fi;
        wchar_t *w = wlong(path, err);
        HANDLE h;
        BOOL ok;

        if (w == NULL)
                return -1;
        h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                        FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
        free(w);
        if (h == INVALID_HANDLE_VALUE)
                return cc_win_err(err, GetLastError(), "cannot open", path);
        ok = GetFileInformationByHandle(h, &fi);
        CloseHandle(h);
        if (!ok)
                return cc_win_err(err, GetLastError(), "cannot read the file's identity", path);
        *dev = fi.dwVolumeSerialNumber;
        *ino = ((uint64_t)fi.nFileIndexHigh << 32) | fi.nFileIndexLow;
        return 0;
}

/* ---- the registry's values ------------------------------------------------ */

static HKEY hive_of(const char *hive)
{
        return strcmp(hive, "HKCU") == 0 ? HKEY_CURRENT_USER : HKEY_LOCAL_MACHINE;
}

static int reg_key(const char *hive, const char *key, REGSAM sam, HKEY *out, cc_error *err)
{
        wchar_t *w = cc_win_to_wide(key, err);
        LSTATUS rc;

        if (w == NULL)
                return -1;
        rc = RegOpenKeyExW(hive_of(hive), w, 0, sam, out);
        free(w);
        if (rc == ERROR_FILE_NOT_FOUND)
                return cc_err(err, CC_ERR_NOTFOUND, "%s\\%s: no such registry key", hive, key);
        if (rc == ERROR_ACCESS_DENIED)
                return cc_err(err, CC_ERR_IO, "%s\\%s: access denied (%s)", hive, key,
                              strcmp(hive, "HKLM") == 0 ? "the machine's settings need an administrator" : "no right");
        if (rc != ERROR_SUCCESS)
                return cc_win_err(err, (DWORD)rc, "cannot open registry key", key);
        return 0;
}

void cc_regval_free(cc_regval *v)
{
        if (v != NULL) {
                free(v->data);
                memset(v, 0, sizeof(*v));
        }
}

int cc_reg_read(const char *hive, const char *key, const char *value, cc_regval *out, cc_error *err)
{
        HKEY k;
        DWORD type = 0, size = 0;
        wchar_t *wv = NULL;
        LSTATUS rc;
        int tries, rv = -1;

        memset(out, 0, sizeof(*out));
        TRY_RET(reg_key(hive, key, KEY_QUERY_VALUE, &k, err));
        if ((wv = cc_win_to_wide(value, err)) == NULL)
                goto out;
        for (tries = 0; tries < 8; tries++) {
                rc = RegQueryValueExW(k, wv, NULL, &type, NULL, &size);
                if (rc == ERROR_FILE_NOT_FOUND) {
                        rv = 0;
                        goto out;
                }
                if (rc != ERROR_SUCCESS) {
                        cc_win_err(err, (DWORD)rc, "cannot read registry value", value);
                        goto out;
                }
                if (size > (4u << 20)) {
                        cc_err(err, CC_ERR_FORMAT, "%s\\%s\\%s: %lu bytes, more than a value of the environment can be",
                               hive, key, value, (unsigned long)size);
                        goto out;
                }
                free(out->data);
                if ((out->data = cc_malloc(err, size ? size : 1)) == NULL)
                        goto out;
                rc = RegQueryValueExW(k, wv, NULL, &type, out->data, &size);
                if (rc == ERROR_MORE_DATA)
                        continue; /* it grew between the two calls */
                if (rc != ERROR_SUCCESS) {
                        cc_win_err(err, (DWORD)rc, "cannot read registry value", value);
                        goto out;
                }
                out->present = 1;
                out->type = type;
                out->len = size;
                rv = 0;
                goto out;
        }
        cc_err(err, CC_ERR_IO, "%s\\%s\\%s: keeps changing while read", hive, key, value);
out:
        if (rv < 0)
                cc_regval_free(out);
        free(wv);
        RegCloseKey(k);
        return rv;
}

int cc_reg_write(const char *hive, const char *key, const char *value, const cc_regval *v, cc_error *err)
{
        HKEY k;
        wchar_t *wv;
        LSTATUS rc;

        TRY_RET(cc_fs_fault(v->present ? "set" : "delete", value, err));
        if (v->present && v->len > 0xffffffffu)
                return cc_err(err, CC_ERR_USAGE, "%s: a registry value of %zu bytes", value, v->len);
        TRY_RET(reg_key(hive, key, KEY_SET_VALUE, &k, err));
        if ((wv = cc_win_to_wide(value, err)) == NULL) {
                RegCloseKey(k);
                return -1;
        }
        if (v->present)
                rc = RegSetValueExW(k, wv, 0, v->type, v->data, (DWORD)v->len);
        else if ((rc = RegDeleteValueW(k, wv)) == ERROR_FILE_NOT_FOUND)
                rc = ERROR_SUCCESS;
        if (rc == ERROR_SUCCESS)
                rc = RegFlushKey(k);
        free(wv);
        RegCloseKey(k);
        if (rc == ERROR_ACCESS_DENIED)
                return cc_err(err, CC_ERR_IO, "%s\\%s\\%s: access denied", hive, key, value);
        if (rc != ERROR_SUCCESS)
                return cc_win_err(err, (DWORD)rc,
                                  v->present ? "cannot set registry value" : "cannot delete registry value", value);
        return 0;
}

int cc_env_broadcast(cc_error *err)
{
        DWORD_PTR res = 0;

        if (SendMessageTimeoutW(HWND_BROADCAST, WM_SETTINGCHANGE, 0, (LPARAM)L"Environment", SMTO_ABORTIFHUNG, 5000,
                                &res) == 0)
                return cc_win_err(err, GetLastError(), "cannot broadcast WM_SETTINGCHANGE", "Environment");
        return 0;
}
#endif

/* Keeps the translation unit non-empty on the other system. */
typedef int cc_win32_fsw_unit_;
