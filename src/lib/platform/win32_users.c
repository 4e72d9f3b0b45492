/* Win32: the processes that have a file loaded. A process snapshot, then a
 * module snapshot of each process, each module's path compared with the
 * files asked about case-insensitively, after both are made full and final
 * (GetFinalPathNameByHandleW: links and 8.3 names resolved); a module of the
 * same file name in another spelling is compared by the file's identity
 * (volume serial and file index). Then the Restart Manager (rstrtmgr.dll,
 * loaded at run time: a system without it is no error), which also sees
 * what holds a file open, merged by process id. The command line is read
 * where it is cheap (NtQueryInformationProcess ProcessCommandLineInformation,
 * Windows 8.1 and later, for a process this user may query), else none. */
#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <restartmanager.h>
#include <tlhelp32.h>

#include "platform.h"
#include "win32_util.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define CC_CMDLINE_SHOW 1024 /* bytes of a command line kept */
#define CC_RM_MAX_FILES 64   /* files asked of the Restart Manager (one session each) */

struct target {
        wchar_t *full;       /* GetFullPathNameW */
        wchar_t *final;      /* GetFinalPathNameByHandleW without \\?\, or NULL */
        const wchar_t *base; /* the file name in full */
        int have;            /* the identity below was read */
        DWORD vol;
        uint64_t idx;
};

static const wchar_t *base_of(const wchar_t *p)
{
        const wchar_t *b = p, *s;

        for (s = p; *s; s++)
                if (*s == L'\\' || *s == L'/')
                        b = s + 1;
        return b;
}

static int same_name(const wchar_t *a, const wchar_t *b)
{
        return CompareStringOrdinal(a, -1, b, -1, TRUE) == CSTR_EQUAL;
}

/* \\?\C:\x -> C:\x, \\?\UNC\srv\x -> \\srv\x, in place. */
static void strip_long_prefix(wchar_t *p)
{
        size_t n = wcslen(p);

        if (n >= 8 && wcsncmp(p, L"\\\\?\\UNC\\", 8) == 0) {
                memmove(p + 2, p + 8, (n - 8 + 1) * sizeof(wchar_t));
        } else if (n >= 4 && wcsncmp(p, L"\\\\?\\", 4) == 0) {
                memmove(p, p + 4, (n - 4 + 1) * sizeof(wchar_t));
        }
}

static HANDLE open_any(const wchar_t *p)
{
        return CreateFileW(p, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS, NULL);
}

static int identity(HANDLE h, DWORD *vol, uint64_t *idx)
{
        BY_HANDLE_FILE_INFORMATION fi;

        if (!GetFileInformationByHandle(h, &fi))
                return -1;
        *vol = fi.dwVolumeSerialNumber;
        *idx = ((uint64_t)fi.nFileIndexHigh << 32) | fi.nFileIndexLow;
        return 0;
}

static int target_init(struct target *t, const char *path, cc_error *err)
{
        wchar_t *w = cc_win_to_wide(path, err);
        DWORD n, r;
        HANDLE h;

        if (w == NULL)
                return -1;
        n = GetFullPathNameW(w, 0, NULL, NULL);
        t->full = n ? malloc(n * sizeof(wchar_t)) : NULL;
        r = t->full ? GetFullPathNameW(w, n, t->full, NULL) : 0;
        if (r == 0 || r >= n) {
                free(t->full);
                t->full = w; /* as given */
                w = NULL;
        }
        free(w);
        strip_long_prefix(t->full);
        t->base = base_of(t->full);
        h = open_any(t->full);
        if (h != INVALID_HANDLE_VALUE) {
                n = GetFinalPathNameByHandleW(h, NULL, 0, FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
                t->final = n ? malloc((n + 1) * sizeof(wchar_t)) : NULL;
                r = t->final ? GetFinalPathNameByHandleW(h, t->final, n + 1, FILE_NAME_NORMALIZED | VOLUME_NAME_DOS)
                             : 0;
                if (t->final != NULL && (r == 0 || r > n)) {
                        free(t->final);
                        t->final = NULL;
                }
                if (t->final != NULL)
                        strip_long_prefix(t->final);
                t->have = identity(h, &t->vol, &t->idx) == 0;
                CloseHandle(h);
        }
        return 0;
}

static int module_is(const wchar_t *mod, const struct target *t)
{
        wchar_t buf[MAX_PATH + 8];
        HANDLE h;
        DWORD vol;
        uint64_t idx;
        int same;

        wcsncpy(buf, mod, MAX_PATH + 7);
        buf[MAX_PATH + 7] = L'\0';
        strip_long_prefix(buf);
        if (same_name(buf, t->full) || (t->final && same_name(buf, t->final)))
                return 1;
        /* another spelling of the same name (a link, a short name, another
         * drive letter for the volume): the file's identity decides */
        if (!t->have || !same_name(base_of(buf), t->base))
                return 0;
        h = open_any(buf);
        if (h == INVALID_HANDLE_VALUE)
                return 0;
        same = identity(h, &vol, &idx) == 0 && vol == t->vol && idx == t->idx;
        CloseHandle(h);
        return same;
}

static cc_proc_user *find_user(cc_proc_users *u, int64_t pid, size_t file)
{
        size_t i;

        for (i = 0; i < u->n; i++)
                if (u->v[i].pid == pid && u->v[i].file == file)
                        return &u->v[i];
        return NULL;
}

static cc_proc_user *add_user(cc_proc_users *u, int64_t pid, size_t file, cc_error *err)
{
        if (u->n == u->cap) {
                size_t cap = u->cap ? u->cap * 2 : 16;
                cc_proc_user *nv = cc_realloc(err, u->v, cap * sizeof(*nv));

                if (nv == NULL)
                        return NULL;
                u->v = nv;
                u->cap = cap;
        }
        memset(&u->v[u->n], 0, sizeof(u->v[0]));
        u->v[u->n].pid = pid;
        u->v[u->n].file = file;
        return &u->v[u->n++];
}

/* The layout of UNICODE_STRING, which ProcessCommandLineInformation returns. */
struct cc_ustr {
        USHORT Length, MaximumLength;
        PWSTR Buffer;
};
typedef LONG(NTAPI *nt_query_t)(HANDLE, ULONG, PVOID, ULONG, PULONG);

/* The command line of a process, or NULL (not queryable, too old a system). */
static char *command_line(DWORD pid)
{
        static nt_query_t query;
        static int looked;
        HANDLE h;
        ULONG len = 0;
        unsigned char *buf = NULL;
        char *utf8 = NULL, *out = NULL;
        const struct cc_ustr *us;

        if (!looked) {
                HMODULE nt = GetModuleHandleW(L"ntdll.dll");

                looked = 1;
                query = nt ? (nt_query_t)(void (*)(void))GetProcAddress(nt, "NtQueryInformationProcess") : NULL;
        }
        if (query == NULL)
                return NULL;
        h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
        if (h == NULL)
                return NULL;
        buf = malloc(65536 + sizeof(struct cc_ustr));
        /* 60: ProcessCommandLineInformation */
        if (buf != NULL && query(h, 60, buf, 65536, &len) == 0) {
                us = (const struct cc_ustr *)buf;
                if (us->Buffer != NULL && us->Length > 0 && (unsigned char *)us->Buffer >= buf &&
                    (unsigned char *)us->Buffer + us->Length <= buf + 65536) {
                        wchar_t *w = malloc(us->Length + sizeof(wchar_t));

                        if (w != NULL) {
                                memcpy(w, us->Buffer, us->Length);
                                w[us->Length / sizeof(wchar_t)] = L'\0';
                                utf8 = cc_win_from_wide(w, NULL);
                                free(w);
                        }
                }
        }
        CloseHandle(h);
        free(buf);
        if (utf8 != NULL)
                out = cc_cmdline_join(utf8, strlen(utf8), CC_CMDLINE_SHOW, NULL);
        free(utf8);
        return out;
}

static int describe(cc_proc_user *p, const wchar_t *exe, cc_error *err)
{
        if (p->name == NULL && exe != NULL && exe[0] != L'\0' && (p->name = cc_win_from_wide(exe, err)) == NULL)
                return -1;
        if (p->cmdline == NULL)
                p->cmdline = command_line((DWORD)p->pid);
        return 0;
}

/* One process's modules against the targets. 0, 1 (not readable), -1. */
static int scan_modules(DWORD pid, const wchar_t *exe, struct target *t, size_t n, cc_proc_users *u, cc_error *err)
{
        MODULEENTRY32W me;
        HANDLE snap;
        int tries;

        /* ERROR_BAD_LENGTH: the process was loading or unloading; ask again */
        for (tries = 0;; tries++) {
                snap = CreateToolhelp32Snapshot(TH32CS_SNAPMODULE | TH32CS_SNAPMODULE32, pid);
                if (snap != INVALID_HANDLE_VALUE || GetLastError() != ERROR_BAD_LENGTH || tries >= 4)
                        break;
        }
        if (snap == INVALID_HANDLE_VALUE)
                return 1;
        me.dwSize = sizeof(me);
        if (Module32FirstW(snap, &me)) {
                do {
                        size_t i;

                        for (i = 0; i < n; i++) {
                                cc_proc_user *p;

                                if (!module_is(me.szExePath, &t[i]))
                                        continue;
                                p = find_user(u, pid, i);
                                if (p == NULL && (p = add_user(u, pid, i, err)) == NULL) {
                                        CloseHandle(snap);
                                        return -1;
                                }
                                p->how |= CC_SEEN_MODULES;
                                if (describe(p, exe, err) < 0) {
                                        CloseHandle(snap);
                                        return -1;
                                }
                        }
                } while (Module32NextW(snap, &me));
        }
        CloseHandle(snap);
        return 0;
}

typedef DWORD(WINAPI *rm_start_t)(DWORD *, DWORD, WCHAR *);
typedef DWORD(WINAPI *rm_end_t)(DWORD);
typedef DWORD(WINAPI *rm_register_t)(DWORD, UINT, LPCWSTR *, UINT, RM_UNIQUE_PROCESS *, UINT, LPCWSTR *);
typedef DWORD(WINAPI *rm_list_t)(DWORD, UINT *, UINT *, RM_PROCESS_INFO *, LPDWORD);

/* The Restart Manager's answer for each file (one session each, so that each
 * process is tied to its file), merged into u. */
static int restart_manager(struct target *t, size_t n, cc_proc_users *u, cc_error *err)
{
        HMODULE rm = LoadLibraryExW(L"rstrtmgr.dll", NULL, LOAD_LIBRARY_SEARCH_SYSTEM32);
        rm_start_t start;
        rm_end_t end;
        rm_register_t reg;
        rm_list_t list;
        size_t i, asked = 0;
        int rv = 0;

        if (rm == NULL)
                rm = LoadLibraryW(L"rstrtmgr.dll"); /* systems without LOAD_LIBRARY_SEARCH_* */
        if (rm == NULL)
                return cc_strv_push(&u->notes, "the Restart Manager (rstrtmgr.dll) is not on this system", err);
        start = (rm_start_t)(void (*)(void))GetProcAddress(rm, "RmStartSession");
        end = (rm_end_t)(void (*)(void))GetProcAddress(rm, "RmEndSession");
        reg = (rm_register_t)(void (*)(void))GetProcAddress(rm, "RmRegisterResources");
        list = (rm_list_t)(void (*)(void))GetProcAddress(rm, "RmGetList");
        if (start == NULL || end == NULL || reg == NULL || list == NULL) {
                FreeLibrary(rm);
                return cc_strv_push(&u->notes, "the Restart Manager (rstrtmgr.dll) lacks its functions", err);
        }
        for (i = 0; i < n && rv == 0; i++) {
                WCHAR key[CCH_RM_SESSION_KEY + 1];
                DWORD session, reasons = 0, r;
                UINT needed = 0, count = 0, k;
                RM_PROCESS_INFO *info = NULL;
                LPCWSTR files[1];

                if (asked == CC_RM_MAX_FILES) {
                        rv = cc_strv_pushf(&u->notes, 1, err,
                                           "the Restart Manager was asked about the first %d files only",
                                           CC_RM_MAX_FILES);
                        break;
                }
                asked++;
                memset(key, 0, sizeof(key));
                if (start(&session, 0, key) != ERROR_SUCCESS)
                        continue;
                files[0] = t[i].full;
                if (reg(session, 1, files, 0, NULL, 0, NULL) != ERROR_SUCCESS) {
                        end(session);
                        continue;
                }
                r = list(session, &needed, &count, NULL, &reasons);
                if (r == ERROR_MORE_DATA && needed > 0 && needed < 65536) {
                        info = calloc(needed, sizeof(*info));
                        count = needed;
                        r = info ? list(session, &needed, &count, info, &reasons) : ERROR_OUTOFMEMORY;
                }
                for (k = 0; r == ERROR_SUCCESS && info != NULL && k < count; k++) {
                        DWORD pid = info[k].Process.dwProcessId;
                        cc_proc_user *p;

                        if (pid == GetCurrentProcessId())
                                continue;
                        p = find_user(u, pid, i);
                        if (p == NULL && (p = add_user(u, pid, i, err)) == NULL) {
                                rv = -1;
                                break;
                        }
                        p->how |= CC_SEEN_RESTART_MGR;
                        if (describe(p, info[k].strAppName, err) < 0)
                                rv = -1;
                }
                free(info);
                end(session);
        }
        FreeLibrary(rm);
        return rv;
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
        HANDLE snap = INVALID_HANDLE_VALUE;
        PROCESSENTRY32W pe;
        DWORD self = GetCurrentProcessId();
        size_t i;
        int rv = -1;

        memset(out, 0, sizeof(*out));
        t = cc_calloc(err, n ? n : 1, sizeof(*t));
        if (t == NULL)
                goto done;
        for (i = 0; i < n; i++)
                if (target_init(&t[i], paths[i], err) < 0)
                        goto done;
        snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
        if (snap == INVALID_HANDLE_VALUE) {
                cc_win_err(err, GetLastError(), "cannot list the processes", "CreateToolhelp32Snapshot");
                goto done;
        }
        pe.dwSize = sizeof(pe);
        if (Process32FirstW(snap, &pe)) {
                do {
                        int r;

                        if (pe.th32ProcessID == 0 || pe.th32ProcessID == self)
                                continue; /* the idle process; the tool itself */
                        r = scan_modules(pe.th32ProcessID, pe.szExeFile, t, n, out, err);
                        if (r < 0)
                                goto done;
                        if (r > 0)
                                out->unreadable++;
                        else
                                out->scanned++;
                } while (Process32NextW(snap, &pe));
        }
        if (restart_manager(t, n, out, err) < 0)
                goto done;
        if (out->n > 1)
                qsort(out->v, out->n, sizeof(out->v[0]), by_pid);
        rv = 0;
done:
        if (snap != INVALID_HANDLE_VALUE)
                CloseHandle(snap);
        for (i = 0; t != NULL && i < n; i++) {
                free(t[i].full);
                free(t[i].final);
        }
        free(t);
        if (rv < 0)
                cc_proc_users_free(out);
        return rv;
}

#else
typedef int cc_win32_users_unused_;
#endif
