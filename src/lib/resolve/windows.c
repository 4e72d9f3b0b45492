/* The Windows loader (LoadLibrary / LoadLibraryEx) as pure logic over a
 * machine's tree and environment: where a DLL name is found, every place
 * tried on the way, and the copies the winner shadows.
 *
 * What it follows (Microsoft, "Dynamic-link library search order" and
 * "LoadLibraryExW"):
 *  - API-set names (api-ms-*, ext-ms-*) are resolved by the API set schema,
 *    never as files; KnownDLLs always come from System32, with no search.
 *  - The standard order: the application directory, System32, the 16-bit
 *    system directory, the Windows directory, the current directory, PATH
 *    (SafeDllSearchMode on); with it off the current directory comes right
 *    after the application directory. CWDIllegalInDllSearch (the running
 *    machine's registry) can take the current directory out.
 *    SetDllDirectory(dir) puts dir where
 *    the current directory was (and "" drops the current directory).
 *  - LOAD_WITH_ALTERED_SEARCH_PATH with a full path: the DLL's directory
 *    takes the application directory's place for its imports.
 *  - LOAD_LIBRARY_SEARCH_*: the DLL's directory (for its imports only, and
 *    only with a fully qualified name), the application directory, the
 *    AddDllDirectory/SetDllDirectory directories, System32; never PATH or
 *    the current directory.
 *  - Python >= 3.8 extension modules: LOAD_LIBRARY_SEARCH_DEFAULT_DIRS |
 *    LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR for a path (the .pyd), DEFAULT_DIRS
 *    for a bare name (ctypes), os.add_dll_directory as the user dirs.
 *  - The search directories in effect for one LoadLibraryEx call are used
 *    for the whole tree of that DLL's imports: for ALTERED and DLL_LOAD_DIR
 *    the load directory is the directory of the DLL named in the call, so a
 *    dependency walk passes that DLL as loading_dll at every depth.
 *  - A name without an extension gets ".dll"; a trailing '.' means none. A
 *    fully qualified path is used as it is; a relative path with a
 *    directory part is appended to every directory of the search order.
 *  - The first file found for the process's machine is loaded. A DLL for
 *    another machine (the 32-bit zlibwapi.dll in an x64 process) is passed
 *    over and the search goes on; only when every file found was for
 *    another machine does the load fail, with error 193
 *    (ERROR_BAD_EXE_FORMAT). Wine's ntdll (dlls/ntdll/loader.c,
 *    search_dll_file: STATUS_IMAGE_MACHINE_TYPE_MISMATCH "continuing
 *    search") and ReactOS's reimplementation of the Windows 10 loader
 *    (LdrpMapDllSearchPath: only a machine mismatch goes on to the next
 *    directory; none found after one gives STATUS_INVALID_IMAGE_FORMAT) do
 *    this. A file that is no PE image, or cannot be opened, stops the search
 *    (193, or 5). Nothing anywhere is error 126. */
#include "resolve.h"

#include "../formats/pe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PATH_ENTRIES 65536
#define MAX_KNOWN 2048
#define MAX_PROBES 100000
#define MAX_PATH_NOTES 5
#define MAX_SUBDIR_SCAN 256
#define MAX_SUBDIRS 64
#define MAX_KNOWN_PE_SIZE ((size_t)256 << 20)

#define WIN_ERR_ACCESS_DENIED 5
#define WIN_ERR_INVALID_PARAMETER 87
#define WIN_ERR_MOD_NOT_FOUND 126
#define WIN_ERR_BAD_EXE_FORMAT 193

#define SESSION_KEY "SYSTEM\\CurrentControlSet\\Control\\Session Manager"
#define KNOWN_KEY SESSION_KEY "\\KnownDLLs"

/* HKLM\...\Session Manager\KnownDLLs of Windows 10 and 11 (x64), values as
 * the registry spells them, plus ntdll.dll, which is always known. */
static const char *const builtin_known[] = {
    "wow64cpu.dll", "wowarmhw.dll", "xtajit.dll",    "advapi32.dll", "clbcatq.dll",  "combase.dll",  "COMDLG32.dll",
    "coml2.dll",    "difxapi.dll",  "gdi32.dll",     "gdiplus.dll",  "IMAGEHLP.dll", "IMM32.dll",    "kernel32.dll",
    "MSCTF.dll",    "MSVCRT.dll",   "NORMALIZ.dll",  "NSI.dll",      "ole32.dll",    "OLEAUT32.dll", "PSAPI.DLL",
    "rpcrt4.dll",   "sechost.dll",  "Setupapi.dll",  "SHCORE.dll",   "SHELL32.dll",  "SHLWAPI.dll",  "user32.dll",
    "WLDAP32.dll",  "wow64.dll",    "wow64base.dll", "wow64con.dll", "wow64win.dll", "WS2_32.dll",   "ntdll.dll",
};

enum path_kind {
        PK_PLAIN = 0,
        PK_EMPTY,    /* "": the current directory */
        PK_RELATIVE, /* taken from the current directory */
        PK_QUOTED,   /* "C:\x": the loader keeps the quotes, nothing matches */
        PK_VARS,     /* %VAR% left unexpanded: the loader does not expand it */
        PK_OUTSIDE,  /* another drive or a UNC path (not in a --root tree) */
};

struct path_ent {
        char *raw;
        char *dir;    /* absolute virtual directory the loader uses; NULL: never matches */
        char *origin; /* "PATH entry 3", "PATH entry 4 (empty: the current directory)" ... */
        char *fixed;  /* quoted / unexpanded entries: the directory meant (quotes removed,
                         variables expanded), or NULL */
        int kind;     /* enum path_kind */
        int exists;   /* dir is a directory in the tree */
};

enum probe_kind {
        PR_MISSING = 0,
        PR_DIR,
        PR_UNREADABLE,
        PR_NOT_PE,
        PR_PE,
};

struct probe {
        int kind;
        uint16_t machine;
        char *canonical;
        char *why; /* why it is missing or unreadable, or NULL */
};

struct cc_win_ctx {
        cc_machine *m;
        cc_tree *t;
        char *app, *appdir;
        uint16_t machine;
        char *machine_source;
        char *windir, *sysdir, *sys16;
        int wow64; /* a 32-bit process on 64-bit Windows: System32 is SysWOW64 */
        const char *dirs_source;
        cc_strv known;          /* the list (registry or built-in) */
        cc_strv known_imported; /* what the known DLLs import from System32: also known */
        cc_strv known_importer; /* known_imported[i] is imported by known_importer[i] */
        cc_smap known_idx;      /* name -> index + 1 into known, or (index + 1) | KNOWN_IMPORTED */
        char *known_source;
        int safe;
        const char *safe_source;
        int cwd_illegal; /* CWDIllegalInDllSearch takes the current directory out of the search */
        int mode;
        unsigned flags; /* CUDNNCTL_WIN_SEARCH_* in effect for SEARCH and PYTHON */
        cc_strv user_dirs;
        int has_set_dll_dir;
        char *set_dll_dir; /* "" removes the current directory */
        char *cwd;
        struct path_ent *path;
        size_t npath;
        cc_strv notes;
        cc_smap probes;       /* virtual path -> struct probe (what exists) */
        struct probe scratch; /* the last answer "missing" */
};

#define KNOWN_IMPORTED ((size_t)1 << (sizeof(size_t) * 8 - 2))

/* ---- small string helpers ------------------------------------------------------ */

static int is_sep(char c)
{
        return c == '\\' || c == '/';
}

static int has_path_part(const char *name)
{
        return strchr(name, '\\') != NULL || strchr(name, '/') != NULL || (name[0] && name[1] == ':');
}

static const char *last_component(const char *name)
{
        const char *p = name, *s;

        if (name[0] && name[1] == ':')
                p = name + 2;
        for (s = p; *s; s++)
                if (is_sep(*s))
                        p = s + 1;
        return p;
}

/* The path made absolute against the current directory, with "." and ".."
 * resolved by name, as GetFullPathName does. Caller frees. */
static char *full_path(const cc_win_ctx *c, const char *vpath, cc_error *err)
{
        char *a = cc_tree_abs(c->t, c->cwd, vpath, err);
        char *r, *w;
        const char *p;
        size_t root;

        if (a == NULL)
                return NULL;
        /* a is "X:\c1\c2..." or "\\server\..."; keep the root, fold ".." */
        root = a[0] == '\\' ? 2 : 3;
        if (strlen(a) < root)
                return a;
        r = cc_malloc(err, strlen(a) + 1);
        if (r == NULL) {
                free(a);
                return NULL;
        }
        memcpy(r, a, root);
        w = r + root;
        p = a + root;
        while (*p) {
                const char *s = p;
                size_t n;

                while (*p && *p != '\\')
                        p++;
                n = (size_t)(p - s);
                if (*p)
                        p++;
                if (n == 2 && s[0] == '.' && s[1] == '.') {
                        if (w > r + root) {
                                w--;
                                while (w > r + root && w[-1] != '\\')
                                        w--;
                        }
                        continue;
                }
                if (w > r + root && w[-1] != '\\')
                        *w++ = '\\';
                memcpy(w, s, n);
                w += n;
        }
        while (w > r + root && w[-1] == '\\')
                w--;
        *w = '\0';
        free(a);
        return r;
}

static int note(cc_strv *notes, cc_error *err, const char *fmt, ...) CC_PRINTF(3, 4);

static int note(cc_strv *notes, cc_error *err, const char *fmt, ...)
{
        va_list ap;
        char *s;

        va_start(ap, fmt);
        s = cc_vasprintf(err, fmt, ap);
        va_end(ap);
        return cc_strv_take(notes, s, err);
}

static const char *machine_name(uint16_t m)
{
        const char *n = cc_pe_machine_name(m);

        return n ? n : "unknown machine";
}

/* ---- probing files --------------------------------------------------------------- */

static void free_probe(void *ctx, const char *key, void *v)
{
        struct probe *p = v;

        (void)ctx;
        (void)key;
        if (p != NULL) {
                free(p->canonical);
                free(p->why);
                free(p);
        }
}

/* What is at vpath, as the loader sees it when it opens the file: nothing, a
 * directory, something it cannot read, a file that is no PE image, or a PE
 * image for some machine. What exists is cached; an answer of "missing" is
 * only valid until the next call (the tree caches the directories anyway).
 * NULL only when out of memory. */
static const struct probe *probe(cc_win_ctx *c, const char *vpath, cc_error *err)
{
        struct probe *p;
        void *v = NULL;
        cc_tree_res res;
        cc_map map = {0};
        cc_error merr = {0};
        const char *why = NULL;

        if (cc_smap_get(&c->probes, vpath, &v))
                return v;
        p = cc_calloc(err, 1, sizeof(*p));
        if (p == NULL)
                return NULL;
        if (cc_tree_resolve(c->t, vpath, 1, &res, &merr) < 0) {
                if (merr.code == CC_ERR_NOMEM) {
                        *err = merr;
                        free(p);
                        return NULL;
                }
                p->kind = PR_MISSING;
                why = merr.msg;
                goto store;
        }
        why = res.why;
        if (res.st.type == CC_FT_NONE) {
                p->kind = PR_MISSING;
        } else if (res.st.type == CC_FT_DIR) {
                p->kind = PR_DIR;
        } else {
                p->canonical = res.canonical;
                res.canonical = NULL;
                if (cc_tree_map(c->t, vpath, 0, &map, &merr) < 0) {
                        if (merr.code == CC_ERR_NOMEM) {
                                *err = merr;
                                cc_tree_res_free(&res);
                                free_probe(NULL, NULL, p);
                                return NULL;
                        }
                        p->kind = PR_UNREADABLE;
                        why = merr.msg;
                } else {
                        uint32_t lfanew = 0;
                        uint16_t mach = 0;

                        if (cc_pe_is(map.data, map.size) && cc_rd_u32(map.data, map.size, 0x3c, 0, &lfanew) == 0 &&
                            cc_rd_u16(map.data, map.size, (uint64_t)lfanew + 4, 0, &mach) == 0 &&
                            cc_range_ok(map.size, (uint64_t)lfanew, 24)) {
                                p->kind = PR_PE;
                                p->machine = mach;
                        } else {
                                p->kind = PR_NOT_PE;
                        }
                        if (cc_map_check(&map, vpath, &merr) < 0) {
                                /* truncated or rewritten while read */
                                p->kind = PR_UNREADABLE;
                                why = merr.msg;
                        }
                        cc_unmap(&map);
                }
        }
store:
        if (why != NULL && why[0] != '\0' && (p->why = cc_strdup(err, why)) == NULL) {
                cc_tree_res_free(&res);
                free_probe(NULL, NULL, p);
                return NULL;
        }
        cc_tree_res_free(&res);
        if (p->kind == PR_MISSING) {
                free(c->scratch.why);
                free(c->scratch.canonical);
                c->scratch = *p;
                free(p);
                return &c->scratch;
        }
        if (c->probes.n >= MAX_PROBES) {
                cc_smap_each(&c->probes, free_probe, NULL);
                cc_smap_free(&c->probes);
                c->probes.nocase = 1;
        }
        if (cc_smap_put(&c->probes, vpath, p, NULL, err) < 0) {
                free_probe(NULL, NULL, p);
                return NULL;
        }
        return p;
}

static int is_dir(cc_win_ctx *c, const char *vpath)
{
        cc_stat st;
        cc_error e = {0};

        return cc_tree_stat(c->t, vpath, &st, &e) == 0 && st.type == CC_FT_DIR;
}

/* ---- opening the context ----------------------------------------------------------- */

static int known_add(cc_win_ctx *c, const char *name, const char *importer, cc_error *err)
{
        void *v = NULL;
        size_t idx;

        if (name[0] == '\0' || cc_smap_get(&c->known_idx, name, &v))
                return 0;
        if (c->known.n + c->known_imported.n >= MAX_KNOWN)
                return 0;
        if (importer == NULL) {
                if (cc_strv_push(&c->known, name, err) < 0)
                        return -1;
                idx = c->known.n;
        } else {
                if (cc_strv_push(&c->known_imported, name, err) < 0)
                        return -1;
                if (cc_strv_push(&c->known_importer, importer, err) < 0)
                        return -1;
                idx = c->known_imported.n | KNOWN_IMPORTED;
        }
        return cc_smap_put(&c->known_idx, name, (void *)(uintptr_t)idx, NULL, err);
}

static int is_apiset_name(const char *name)
{
        return cc_strncasecmp(name, "api-ms-", 7) == 0 || cc_strncasecmp(name, "ext-ms-", 7) == 0;
}

/* The known DLLs' own static imports that System32 holds are mapped as known
 * DLLs too (the session manager walks their import tables). Only what the
 * tree's System32 shows can be followed. */
static int known_closure(cc_win_ctx *c, cc_error *err)
{
        size_t i;
        cc_strv todo = {0};
        int rv = -1;

        if (!is_dir(c, c->sysdir))
                return 0;
        for (i = 0; i < c->known.n; i++)
                if (cc_strv_push(&todo, c->known.v[i], err) < 0)
                        goto done;
        for (i = 0; i < todo.n && i < MAX_KNOWN; i++) {
                char *p = cc_tree_join(c->t, c->sysdir, todo.v[i], err);
                cc_map map = {0};
                cc_error merr = {0};
                cc_pe *pe = NULL;
                size_t k;

                if (p == NULL)
                        goto done;
                if (cc_tree_map(c->t, p, MAX_KNOWN_PE_SIZE, &map, &merr) < 0) {
                        free(p);
                        if (merr.code == CC_ERR_NOMEM) {
                                *err = merr;
                                goto done;
                        }
                        continue;
                }
                free(p);
                if (!cc_pe_is(map.data, map.size) || cc_pe_parse(map.data, map.size, &pe, &merr) < 0 ||
                    cc_map_changed(&map)) {
                        cc_pe_free(pe);
                        pe = NULL;
                        cc_unmap(&map);
                        if (merr.code == CC_ERR_NOMEM) {
                                *err = merr;
                                goto done;
                        }
                        continue;
                }
                cc_unmap(&map);
                for (k = 0; k < pe->imports.n; k++) {
                        const char *imp = pe->imports.v[k];
                        void *v = NULL;
                        char *ip;
                        const struct probe *pr;

                        if (is_apiset_name(imp) || cc_smap_get(&c->known_idx, imp, &v))
                                continue;
                        ip = cc_tree_join(c->t, c->sysdir, imp, err);
                        if (ip == NULL) {
                                cc_pe_free(pe);
                                goto done;
                        }
                        pr = probe(c, ip, err);
                        free(ip);
                        if (pr == NULL) {
                                cc_pe_free(pe);
                                goto done;
                        }
                        if (pr->kind != PR_PE)
                                continue;
                        if (known_add(c, imp, todo.v[i], err) < 0 || cc_strv_push(&todo, imp, err) < 0) {
                                cc_pe_free(pe);
                                goto done;
                        }
                }
                cc_pe_free(pe);
        }
        rv = 0;
done:
        cc_strv_free(&todo);
        return rv;
}

static int load_known(cc_win_ctx *c, cc_error *err)
{
        size_t i;

        c->known_idx.nocase = 1;
        if (c->m->live && cc_host_is_windows()) {
                cc_strv names = {0}, data = {0};
                cc_error rerr = {0};

                if (cc_reg_values("HKLM", KNOWN_KEY, &names, &data, &rerr) == 0) {
                        for (i = 0; i < data.n; i++) {
                                if (cc_strncasecmp(names.v[i], "DllDirectory", 12) == 0)
                                        continue;
                                if (known_add(c, data.v[i], NULL, err) < 0) {
                                        cc_strv_free(&names);
                                        cc_strv_free(&data);
                                        return -1;
                                }
                        }
                        cc_strv_free(&names);
                        cc_strv_free(&data);
                        if (known_add(c, "ntdll.dll", NULL, err) < 0)
                                return -1;
                        c->known_source = cc_strdup(err, "registry");
                        return c->known_source ? known_closure(c, err) : -1;
                }
                cc_strv_free(&names);
                cc_strv_free(&data);
                if ((rerr.code == CC_ERR_NOTFOUND
                         ? note(&c->notes, err,
                                "KnownDLLs: HKLM\\%s is not in the registry; using the built-in Windows 10/11 list",
                                KNOWN_KEY)
                         : note(&c->notes, err,
                                "KnownDLLs: cannot read the registry (%s); using the built-in Windows 10/11 list",
                                rerr.msg)) < 0)
                        return -1;
        }
        for (i = 0; i < CC_ARRAY_LEN(builtin_known); i++)
                if (known_add(c, builtin_known[i], NULL, err) < 0)
                        return -1;
        c->known_source = cc_strdup(err, "built-in Windows 10/11 list");
        return c->known_source ? known_closure(c, err) : -1;
}

static int load_safe_search(cc_win_ctx *c, const cudnnctl_which_options *opts, cc_error *err)
{
        if (opts->safe_search == CUDNNCTL_SAFE_SEARCH_ON || opts->safe_search == CUDNNCTL_SAFE_SEARCH_OFF) {
                c->safe = opts->safe_search == CUDNNCTL_SAFE_SEARCH_ON;
                c->safe_source = "option";
                return 0;
        }
        c->safe = 1;
        c->safe_source = "default (on)";
        if (c->m->live && cc_host_is_windows()) {
                uint32_t v = 1;
                cc_error rerr = {0};

                if (cc_reg_get_dword("HKLM", SESSION_KEY, "SafeDllSearchMode", &v, &rerr) == 0) {
                        c->safe = v != 0;
                        c->safe_source = "registry";
                } else if (rerr.code == CC_ERR_NOTFOUND) {
                        c->safe_source = "registry (absent: on)";
                } else if (note(&c->notes, err, "SafeDllSearchMode: cannot read the registry (%s); taken as on",
                                rerr.msg) < 0) {
                        return -1;
                }
        }
        return 0;
}

static int has_nocase(const char *hay, const char *needle)
{
        size_t n = strlen(needle);

        for (; *hay; hay++)
                if (cc_strncasecmp(hay, needle, n) == 0)
                        return 1;
        return 0;
}

/* CWDIllegalInDllSearch (KB 2264107), the running machine only: the
 * application's own value under Image File Execution Options, else Session
 * Manager's. 0xFFFFFFFF takes the current directory out of the standard
 * search order; 2 when it is a remote folder (a UNC path here: a mapped
 * drive cannot be told from the files); 1 when it is a WebDAV folder (a UNC
 * path naming DavWWWRoot or @SSL). Any other value changes nothing. */
static int load_cwd_illegal(cc_win_ctx *c, cc_error *err)
{
        uint32_t v = 0;
        cc_error rerr = {0};
        const char *where = "Session Manager";
        char *ifeo = NULL;
        int remote, webdav, own = 0, rv = -1;

        if (!c->m->live || !cc_host_is_windows())
                return 0;
        if (c->app != NULL) {
                ifeo = cc_asprintf(err,
                                   "SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Image File Execution Options\\%s",
                                   cc_basename(c->app));
                if (ifeo == NULL)
                        return -1;
                own = cc_reg_get_dword("HKLM", ifeo, "CWDIllegalInDllSearch", &v, &rerr) == 0;
                if (own)
                        where = "Image File Execution Options";
                else if (rerr.code == CC_ERR_NOMEM)
                        goto nomem;
        }
        if (!own) {
                rerr.code = 0;
                if (cc_reg_get_dword("HKLM", SESSION_KEY, "CWDIllegalInDllSearch", &v, &rerr) < 0) {
                        if (rerr.code == CC_ERR_NOMEM)
                                goto nomem;
                        rv = 0; /* absent (the default): the current directory is searched */
                        goto done;
                }
        }
        remote = c->cwd != NULL && (c->cwd[0] == '\\' || c->cwd[0] == '/') && (c->cwd[1] == '\\' || c->cwd[1] == '/');
        webdav = remote && (has_nocase(c->cwd, "DavWWWRoot") || has_nocase(c->cwd, "@SSL"));
        c->cwd_illegal = v == 0xFFFFFFFFu || (v == 2 && remote) || (v == 1 && webdav);
        rv = note(&c->notes, err, "CWDIllegalInDllSearch is 0x%x (%s): %s", (unsigned)v, where,
                  c->cwd_illegal ? "the current directory is not searched"
                                 : "the current directory is still searched (it is not a folder that value excludes)");
        goto done;
nomem:
        *err = rerr;
done:
        free(ifeo);
        return rv;
}

static int load_dirs(cc_win_ctx *c, cc_error *err)
{
        const char *v = NULL;

        if (c->m->live && cc_host_is_windows()) {
                cc_error e = {0};

                c->windir = cc_win_windows_dir(&e);
                c->sysdir = c->windir ? cc_win_system_dir(&e) : NULL;
                if (c->windir != NULL && c->sysdir != NULL) {
                        c->dirs_source = "GetWindowsDirectory/GetSystemDirectory";
                        goto sys16;
                }
                free(c->windir);
                free(c->sysdir);
                c->windir = c->sysdir = NULL;
                if (e.code == CC_ERR_NOMEM) {
                        *err = e;
                        return -1;
                }
        }
        c->dirs_source = "default";
        if ((v = cc_machine_getenv(c->m, "SystemRoot")) != NULL && v[0])
                c->dirs_source = "SystemRoot";
        else if ((v = cc_machine_getenv(c->m, "windir")) != NULL && v[0])
                c->dirs_source = "windir";
        else
                v = NULL;
        if (v != NULL && !(((v[0] | 0x20) >= 'a' && (v[0] | 0x20) <= 'z') && v[1] == ':' && is_sep(v[2]))) {
                if (note(&c->notes, err,
                         "%s=%s is not a full path (X:\\...); the Windows directory is taken as C:\\Windows",
                         c->dirs_source, v) < 0)
                        return -1;
                v = NULL;
                c->dirs_source = "default";
        }
        c->windir = full_path(c, v ? v : "C:\\Windows", err);
        if (c->windir == NULL)
                return -1;
        c->sysdir = cc_tree_join(c->t, c->windir, "System32", err);
        if (c->sysdir == NULL)
                return -1;
sys16:
        c->sys16 = cc_tree_join(c->t, c->windir, "System", err);
        if (c->sys16 == NULL)
                return -1;
        if (c->machine == CC_PE_MACHINE_I386) {
                char *wow = cc_tree_join(c->t, c->windir, "SysWOW64", err);

                if (wow == NULL)
                        return -1;
                if (is_dir(c, wow)) {
                        free(c->sysdir);
                        c->sysdir = wow;
                        c->wow64 = 1;
                        if (note(&c->notes, err,
                                 "a 32-bit (x86) process on 64-bit Windows: file system redirection makes its "
                                 "System32 %s",
                                 c->sysdir) < 0)
                                return -1;
                } else {
                        free(wow);
                }
        }
        if (!c->m->live && !is_dir(c, c->windir) &&
            note(&c->notes, err, "the Windows directory %s is not in the tree", c->windir) < 0)
                return -1;
        return 0;
}

static int load_app(cc_win_ctx *c, const char *app, cc_error *err)
{
        const struct probe *p;

        c->machine = CC_PE_MACHINE_AMD64;
        if (app == NULL || app[0] == '\0') {
                c->machine_source = cc_strdup(err, "default (no application)");
                if (c->machine_source == NULL)
                        return -1;
                return note(&c->notes, err,
                            "no application given: the application directory (searched first) is left out, and the "
                            "process is taken as x64");
        }
        c->app = full_path(c, app, err);
        if (c->app == NULL)
                return -1;
        c->appdir = cc_tree_dirname(c->t, c->app, err);
        if (c->appdir == NULL)
                return -1;
        p = probe(c, c->app, err);
        if (p == NULL)
                return -1;
        if (p->kind == PR_PE) {
                c->machine = p->machine;
                c->machine_source = cc_strdup(err, "application");
        } else {
                c->machine_source = cc_asprintf(err, "default (%s: %s)", c->app,
                                                p->kind == PR_MISSING  ? "not there"
                                                : p->kind == PR_NOT_PE ? "not a PE image"
                                                                       : "cannot be read");
                if (c->machine_source == NULL)
                        return -1;
                return note(&c->notes, err,
                            "the application %s cannot be read as a PE image; the process is taken as x64", c->app);
        }
        return c->machine_source ? 0 : -1;
}

static int load_user_dirs(cc_win_ctx *c, const cudnnctl_which_options *opts, cc_error *err)
{
        const char *fn = c->mode == CUDNNCTL_WIN_PYTHON ? "os.add_dll_directory" : "AddDllDirectory";
        size_t i;

        for (i = 0; i < opts->ndll_dirs; i++) {
                const char *d = opts->dll_dirs[i];
                char *full;

                if (d == NULL || d[0] == '\0')
                        continue;
                if (!cc_tree_is_abs(c->t, d) || !(d[1] == ':' || (is_sep(d[0]) && is_sep(d[1])))) {
                        if (note(&c->notes, err,
                                 "%s(\"%s\") fails (ERROR_INVALID_PARAMETER): it takes only a fully qualified path; "
                                 "the directory is not added",
                                 fn, d) < 0)
                                return -1;
                        continue;
                }
                full = full_path(c, d, err);
                if (full == NULL)
                        return -1;
                if (!is_dir(c, full)) {
                        if (note(&c->notes, err, "%s(\"%s\") fails: no such directory; it is not added", fn, d) < 0) {
                                free(full);
                                return -1;
                        }
                        free(full);
                        continue;
                }
                if (cc_strv_take(&c->user_dirs, full, err) < 0)
                        return -1;
        }
        if (opts->set_dll_dir != NULL) {
                c->has_set_dll_dir = 1;
                if (opts->set_dll_dir[0] == '\0')
                        c->set_dll_dir = cc_strdup(err, "");
                else
                        c->set_dll_dir = full_path(c, opts->set_dll_dir, err);
                if (c->set_dll_dir == NULL)
                        return -1;
        }
        return 0;
}

/* What a quoted or unexpanded entry was meant to name, as a full path. */
static int fix_entry(const cc_win_ctx *c, struct path_ent *e, cc_error *err)
{
        char *t = NULL, *w;
        const char *r;

        if (e->kind == PK_QUOTED) {
                t = cc_malloc(err, strlen(e->raw) + 1);
                if (t == NULL)
                        return -1;
                for (r = e->raw, w = t; *r; r++)
                        if (*r != '"')
                                *w++ = *r;
                *w = '\0';
        } else if (e->kind == PK_VARS) {
                cc_error xerr = {0};

                t = cc_machine_expand(c->m, e->raw, 1, &xerr);
                if (t == NULL) {
                        if (xerr.code == CC_ERR_NOMEM) {
                                *err = xerr;
                                return -1;
                        }
                        return 0;
                }
        } else {
                return 0;
        }
        if (t[0] != '\0' && strchr(t, '"') == NULL && strchr(t, '%') == NULL) {
                cc_error ferr = {0};

                e->fixed = full_path(c, t, &ferr);
                if (e->fixed == NULL && ferr.code == CC_ERR_NOMEM) {
                        *err = ferr;
                        free(t);
                        return -1;
                }
        }
        free(t);
        return 0;
}

static int load_path(cc_win_ctx *c, cc_error *err)
{
        const char *pv = cc_machine_getenv(c->m, "PATH");
        cc_strv parts = {0};
        size_t i, nmissing = 0;
        cc_buf missing = {0};
        int rv = -1;

        if (pv == NULL)
                return 0;
        if (cc_split_pathlist(pv, ';', MAX_PATH_ENTRIES, &parts, err) < 0)
                return -1;
        if (strlen(pv) > 32767 && note(&c->notes, err,
                                       "PATH is %zu characters: over the 32767 that an environment variable can hold "
                                       "on Windows",
                                       strlen(pv)) < 0)
                goto done;
        c->path = cc_calloc(err, parts.n ? parts.n : 1, sizeof(*c->path));
        if (c->path == NULL)
                goto done;
        for (i = 0; i < parts.n; i++) {
                struct path_ent *e = &c->path[c->npath++];
                const char *raw = parts.v[i];
                size_t n = strlen(raw);

                e->raw = parts.v[i];
                parts.v[i] = NULL;
                if (n == 0) {
                        e->kind = PK_EMPTY;
                        e->dir = cc_strdup(err, c->cwd);
                        e->origin = cc_asprintf(err, "PATH entry %zu (empty: the current directory)", i + 1);
                } else if (strchr(raw, '"') != NULL) {
                        e->kind = PK_QUOTED;
                        e->dir = NULL;
                        e->origin = cc_asprintf(err, "PATH entry %zu (%s: quoted)", i + 1, raw);
                } else if (strchr(raw, '%') != NULL && strchr(strchr(raw, '%') + 1, '%') != NULL) {
                        e->kind = PK_VARS;
                        e->dir = full_path(c, raw, err);
                        e->origin = cc_asprintf(err, "PATH entry %zu (%s: %%VAR%% not expanded)", i + 1, raw);
                } else if (!cc_tree_is_abs(c->t, raw) || (raw[1] == ':' && !is_sep(raw[2]))) {
                        e->kind = PK_RELATIVE;
                        e->dir = full_path(c, raw, err);
                        e->origin = e->dir
                                        ? cc_asprintf(err, "PATH entry %zu (%s: relative, from the current directory)",
                                                      i + 1, raw)
                                        : NULL;
                } else {
                        e->kind = PK_PLAIN;
                        e->dir = full_path(c, raw, err);
                        e->origin = cc_asprintf(err, "PATH entry %zu", i + 1);
                }
                if ((e->kind != PK_QUOTED && e->dir == NULL) || e->origin == NULL)
                        goto done;
                if (fix_entry(c, e, err) < 0)
                        goto done;
                if (e->dir != NULL && !c->m->live && (e->dir[0] == '\\' || (e->dir[0] & ~0x20) != 'C')) {
                        e->kind = PK_OUTSIDE;
                        free(e->origin);
                        e->origin = cc_asprintf(err, "PATH entry %zu (%s: outside the tree)", i + 1, raw);
                        if (e->origin == NULL)
                                goto done;
                }
                e->exists = e->dir != NULL && e->kind != PK_OUTSIDE && is_dir(c, e->dir);
                switch (e->kind) {
                case PK_EMPTY:
                        if (note(&c->notes, err,
                                 "PATH entry %zu is empty: the loader takes it as the current directory (%s)", i + 1,
                                 c->cwd) < 0)
                                goto done;
                        break;
                case PK_QUOTED:
                        if (note(&c->notes, err,
                                 "PATH entry %zu (%s) is quoted: the loader does not remove quotes, so nothing is ever "
                                 "found there; remove them",
                                 i + 1, raw) < 0)
                                goto done;
                        break;
                case PK_VARS:
                        if (note(&c->notes, err,
                                 "PATH entry %zu (%s) holds an unexpanded %%VARIABLE%%: the loader takes it literally "
                                 "(was PATH saved as REG_SZ instead of REG_EXPAND_SZ?)",
                                 i + 1, raw) < 0)
                                goto done;
                        break;
                case PK_RELATIVE:
                        if (note(&c->notes, err,
                                 "PATH entry %zu (%s) is relative: it names %s from the current directory, and changes "
                                 "with it",
                                 i + 1, raw, e->dir) < 0)
                                goto done;
                        break;
                case PK_OUTSIDE:
                        if (note(&c->notes, err, "PATH entry %zu (%s) is outside the tree (only C:\\ is in it)", i + 1,
                                 raw) < 0)
                                goto done;
                        break;
                default:
                        break;
                }
                if (!e->exists && e->kind != PK_QUOTED && e->kind != PK_OUTSIDE && e->kind != PK_EMPTY) {
                        if (nmissing < MAX_PATH_NOTES &&
                            cc_buf_printf(&missing, err, "%s%zu (%s)", nmissing ? ", " : "", i + 1, raw) < 0)
                                goto done;
                        nmissing++;
                }
        }
        if (nmissing > 0 && note(&c->notes, err, "%zu PATH %s not an existing directory: %s%s", nmissing,
                                 nmissing == 1 ? "entry is" : "entries are", missing.data,
                                 nmissing > MAX_PATH_NOTES ? ", ..." : "") < 0)
                goto done;
        rv = 0;
done:
        cc_buf_free(&missing);
        cc_strv_free(&parts);
        return rv;
}

int cc_win_ctx_open(cc_machine *m, const char *app, const cudnnctl_which_options *opts, cc_win_ctx **out, cc_error *err)
{
        static const cudnnctl_which_options defaults = {.safe_search = CUDNNCTL_SAFE_SEARCH_MACHINE};
        cc_win_ctx *c;

        *out = NULL;
        if (m->system != CC_SYS_WINDOWS)
                return cc_err(err, CC_ERR_USAGE,
                              "the Windows loader emulation needs a Windows machine (--system windows)");
        if (opts == NULL)
                opts = &defaults;
        if (opts->win_mode < CUDNNCTL_WIN_STANDARD || opts->win_mode > CUDNNCTL_WIN_PYTHON)
                return cc_err(err, CC_ERR_USAGE, "unknown Windows loader mode %d", opts->win_mode);
        c = cc_calloc(err, 1, sizeof(*c));
        if (c == NULL)
                return -1;
        c->m = m;
        c->t = m->tree;
        c->probes.nocase = 1;
        c->mode = opts->win_mode;
        if (c->mode == CUDNNCTL_WIN_SEARCH)
                c->flags = opts->win_search & (CUDNNCTL_WIN_SEARCH_DLL_LOAD_DIR | CUDNNCTL_WIN_SEARCH_APPLICATION_DIR |
                                               CUDNNCTL_WIN_SEARCH_USER_DIRS | CUDNNCTL_WIN_SEARCH_SYSTEM32 |
                                               CUDNNCTL_WIN_SEARCH_DEFAULT_DIRS);
        else if (c->mode == CUDNNCTL_WIN_PYTHON)
                c->flags = CUDNNCTL_WIN_SEARCH_DEFAULT_DIRS | CUDNNCTL_WIN_SEARCH_DLL_LOAD_DIR;
        if (c->mode == CUDNNCTL_WIN_SEARCH && c->flags == 0) {
                c->mode = CUDNNCTL_WIN_STANDARD;
                if (cc_strv_push(&c->notes,
                                 "LoadLibraryEx without LOAD_LIBRARY_SEARCH_* flags: the standard search order",
                                 err) < 0)
                        goto fail;
        }
        if (c->flags & CUDNNCTL_WIN_SEARCH_DEFAULT_DIRS)
                c->flags |=
                    CUDNNCTL_WIN_SEARCH_APPLICATION_DIR | CUDNNCTL_WIN_SEARCH_USER_DIRS | CUDNNCTL_WIN_SEARCH_SYSTEM32;
        c->cwd = cc_strdup(err, m->cwd);
        if (c->cwd == NULL)
                goto fail;
        if (load_app(c, app, err) < 0 || load_dirs(c, err) < 0 || load_known(c, err) < 0 ||
            load_safe_search(c, opts, err) < 0 || load_cwd_illegal(c, err) < 0 || load_user_dirs(c, opts, err) < 0 ||
            load_path(c, err) < 0)
                goto fail;
        *out = c;
        return 0;
fail:
        cc_win_ctx_free(c);
        return -1;
}

void cc_win_ctx_free(cc_win_ctx *c)
{
        size_t i;

        if (c == NULL)
                return;
        for (i = 0; i < c->npath; i++) {
                free(c->path[i].raw);
                free(c->path[i].dir);
                free(c->path[i].origin);
                free(c->path[i].fixed);
        }
        free(c->path);
        free(c->app);
        free(c->appdir);
        free(c->machine_source);
        free(c->windir);
        free(c->sysdir);
        free(c->sys16);
        cc_strv_free(&c->known);
        cc_strv_free(&c->known_imported);
        cc_strv_free(&c->known_importer);
        cc_smap_free(&c->known_idx);
        free(c->known_source);
        cc_strv_free(&c->user_dirs);
        free(c->set_dll_dir);
        free(c->cwd);
        cc_strv_free(&c->notes);
        cc_smap_each(&c->probes, free_probe, NULL);
        cc_smap_free(&c->probes);
        free(c->scratch.why);
        free(c->scratch.canonical);
        free(c);
}

int cc_win_ctx_set_known_dlls(cc_win_ctx *c, const char *const *names, size_t n, const char *source, cc_error *err)
{
        size_t i;
        char *src = cc_strdup(err, source ? source : "given");

        if (src == NULL)
                return -1;
        cc_strv_free(&c->known);
        cc_strv_free(&c->known_imported);
        cc_strv_free(&c->known_importer);
        cc_smap_free(&c->known_idx);
        c->known_idx.nocase = 1;
        free(c->known_source);
        c->known_source = src;
        for (i = 0; i < n; i++)
                if (names[i] != NULL && known_add(c, names[i], NULL, err) < 0)
                        return -1;
        return known_closure(c, err);
}

/* ---- facts ----------------------------------------------------------------------------- */

static const char *mode_name(int mode)
{
        switch (mode) {
        case CUDNNCTL_WIN_ALTERED:
                return "altered";
        case CUDNNCTL_WIN_SEARCH:
                return "search";
        case CUDNNCTL_WIN_PYTHON:
                return "python";
        default:
                return "standard";
        }
}

static const char *path_kind_name(int kind)
{
        switch (kind) {
        case PK_EMPTY:
                return "empty";
        case PK_RELATIVE:
                return "relative";
        case PK_QUOTED:
                return "quoted";
        case PK_VARS:
                return "unexpanded";
        case PK_OUTSIDE:
                return "outside";
        default:
                return "plain";
        }
}

cc_value *cc_win_ctx_facts(const cc_win_ctx *c, cc_error *err)
{
        cc_value *o = cc_v_object(err), *flags = NULL, *path = NULL, *imp = NULL;
        size_t i;

        if (o == NULL)
                return NULL;
        flags = cc_v_array(err);
        path = cc_v_array(err);
        imp = cc_v_array(err);
        if (flags == NULL || path == NULL || imp == NULL)
                goto fail;
        {
                static const struct {
                        unsigned bit;
                        const char *name;
                } fl[] = {
                    {CUDNNCTL_WIN_SEARCH_DLL_LOAD_DIR, "dll-dir"}, {CUDNNCTL_WIN_SEARCH_APPLICATION_DIR, "app"},
                    {CUDNNCTL_WIN_SEARCH_USER_DIRS, "user"},       {CUDNNCTL_WIN_SEARCH_SYSTEM32, "system32"},
                    {CUDNNCTL_WIN_SEARCH_DEFAULT_DIRS, "default"},
                };

                for (i = 0; i < CC_ARRAY_LEN(fl); i++)
                        if ((c->flags & fl[i].bit) && cc_v_push(flags, cc_v_str(fl[i].name, err), err) < 0)
                                goto fail;
        }
        for (i = 0; i < c->npath; i++) {
                const struct path_ent *e = &c->path[i];
                cc_value *pe = cc_v_object(err);

                if (cc_v_push(path, pe, err) < 0)
                        goto fail;
                if (cc_v_set_str(pe, "entry", e->raw, err) < 0 || cc_v_set(pe, "dir", cc_v_str(e->dir, err), err) < 0 ||
                    cc_v_set_str(pe, "kind", path_kind_name(e->kind), err) < 0 ||
                    cc_v_set_bool(pe, "exists", e->exists, err) < 0)
                        goto fail;
        }
        for (i = 0; i < c->known_imported.n; i++) {
                cc_value *ke = cc_v_object(err);

                if (cc_v_push(imp, ke, err) < 0)
                        goto fail;
                if (cc_v_set_str(ke, "name", c->known_imported.v[i], err) < 0 ||
                    cc_v_set_str(ke, "imported_by", c->known_importer.v[i], err) < 0)
                        goto fail;
        }
        if (cc_v_set_str(o, "mode", mode_name(c->mode), err) < 0)
                goto fail;
        if (cc_v_set(o, "search_flags", flags, err) < 0) {
                flags = NULL;
                goto fail;
        }
        flags = NULL;
        if (cc_v_set(o, "application", cc_v_str(c->app, err), err) < 0 ||
            cc_v_set(o, "application_dir", cc_v_str(c->appdir, err), err) < 0 ||
            cc_v_set_str(o, "machine", machine_name(c->machine), err) < 0 ||
            cc_v_set_str(o, "machine_source", c->machine_source, err) < 0 ||
            cc_v_set_str(o, "windows_dir", c->windir, err) < 0 || cc_v_set_str(o, "system32", c->sysdir, err) < 0 ||
            cc_v_set_str(o, "system16", c->sys16, err) < 0 || cc_v_set_str(o, "dirs_source", c->dirs_source, err) < 0 ||
            cc_v_set_bool(o, "wow64", c->wow64, err) < 0 ||
            cc_v_set(o, "known_dlls", cc_v_strv(&c->known, err), err) < 0)
                goto fail;
        if (cc_v_set(o, "known_dlls_imported", imp, err) < 0) {
                imp = NULL;
                goto fail;
        }
        imp = NULL;
        if (cc_v_set_str(o, "known_dlls_source", c->known_source, err) < 0 ||
            cc_v_set_bool(o, "safe_search", c->safe, err) < 0 ||
            cc_v_set_str(o, "safe_search_source", c->safe_source, err) < 0 ||
            cc_v_set(o, "user_dirs", cc_v_strv(&c->user_dirs, err), err) < 0 ||
            cc_v_set(o, "set_dll_directory", cc_v_str(c->has_set_dll_dir ? c->set_dll_dir : NULL, err), err) < 0 ||
            cc_v_set_str(o, "cwd", c->cwd, err) < 0)
                goto fail;
        if (cc_v_set(o, "path", path, err) < 0) {
                path = NULL;
                goto fail;
        }
        path = NULL;
        if (cc_v_set(o, "notes", cc_v_strv(&c->notes, err), err) < 0)
                goto fail;
        return o;
fail:
        cc_v_free(flags);
        cc_v_free(path);
        cc_v_free(imp);
        cc_v_free(o);
        return NULL;
}

/* ---- the search ---------------------------------------------------------------------------- */

struct place {
        int how;
        const char *dir;    /* NULL: an entry that never matches (a quoted PATH entry) */
        const char *origin; /* borrowed */
        const char *raw;    /* the PATH entry as written (for PK_QUOTED), else NULL */
};

struct search {
        cc_win_ctx *c;
        cc_resolution *r;
        const char *rel; /* what is appended to each directory */
        int shadowed;
        int done;   /* the loader has stopped: a winner, or a failure */
        int winner; /* index of the winner in r->tries, or -1 */
        int failed; /* index of the failing try, or -1 */
        int wrong;  /* index of the first DLL passed over for another machine, or -1 */
        size_t nwrong;
        cc_smap seen; /* paths recorded as found or shadowed */
        int fixed_notes;
        cc_strv owned; /* origin strings made for this search */
};

static int add_try(struct search *s, const char *path, int how, const char *origin, int outcome, const char *detail,
                   cc_error *err)
{
        return cc_resolution_add(s->r, path, how, origin, outcome, detail, NULL, err);
}

static int add_copy(struct search *s, const char *path, int how, const char *origin, int outcome, const struct probe *p,
                    cc_error *err)
{
        return cc_resolution_add(s->r, path, how, origin, outcome, NULL, p->canonical ? p->canonical : path, err);
}

/* Look at one file of the search order. */
static int consider(struct search *s, const char *path, int how, const char *origin, cc_error *err)
{
        cc_win_ctx *c = s->c;
        const struct probe *p;
        void *v = NULL;
        char detail[800];

        if (s->done && cc_smap_get(&s->seen, path, &v))
                return 0;
        p = probe(c, path, err);
        if (p == NULL)
                return -1;
        switch (p->kind) {
        case PR_MISSING:
                if (s->done)
                        return 0;
                return add_try(s, path, how, origin, CC_TRY_MISSING, p->why, err);
        case PR_DIR:
                /* the loader finds the name, cannot open it as a file and
                 * stops (STATUS_FILE_IS_A_DIRECTORY) */
                if (s->done)
                        return 0;
                if (add_try(s, path, how, origin, CC_TRY_FAILED,
                            "a directory, not a file: LoadLibrary fails with error 5 (ERROR_ACCESS_DENIED)", err) < 0)
                        return -1;
                s->r->win_error = WIN_ERR_ACCESS_DENIED;
                s->failed = (int)s->r->ntries - 1;
                s->done = 1;
                return 0;
        case PR_UNREADABLE:
                if (s->done)
                        return 0;
                snprintf(detail, sizeof(detail), "cannot be opened (%.600s): LoadLibrary fails with error 5",
                         p->why ? p->why : "?");
                if (add_try(s, path, how, origin, CC_TRY_FAILED, detail, err) < 0)
                        return -1;
                s->r->win_error = WIN_ERR_ACCESS_DENIED;
                s->failed = (int)s->r->ntries - 1;
                s->done = 1;
                return 0;
        case PR_NOT_PE:
                if (s->done)
                        return 0;
                if (add_try(s, path, how, origin, CC_TRY_FAILED,
                            "not a PE image: LoadLibrary fails with error 193 (ERROR_BAD_EXE_FORMAT)", err) < 0)
                        return -1;
                s->r->win_error = WIN_ERR_BAD_EXE_FORMAT;
                s->failed = (int)s->r->ntries - 1;
                s->done = 1;
                return 0;
        default:
                break;
        }
        if (p->machine != c->machine) {
                /* passed over: the search goes on (STATUS_IMAGE_MACHINE_TYPE_MISMATCH) */
                if (s->done)
                        return 0;
                snprintf(detail, sizeof(detail),
                         "an %s DLL: an %s process passes over it and searches on (an %s program would load it)",
                         machine_name(p->machine), machine_name(c->machine), machine_name(p->machine));
                if (add_try(s, path, how, origin, CC_TRY_SKIPPED, detail, err) < 0)
                        return -1;
                if (s->wrong < 0)
                        s->wrong = (int)s->r->ntries - 1;
                s->nwrong++;
                return 0;
        }
        if (cc_smap_put(&s->seen, path, NULL, NULL, err) < 0)
                return -1;
        if (s->done)
                return add_copy(s, path, how, origin, CC_TRY_SHADOWED, p, err);
        if (add_copy(s, path, how, origin, CC_TRY_FOUND, p, err) < 0)
                return -1;
        s->winner = (int)s->r->ntries - 1;
        s->done = 1;
        return 0;
}

static int consider_place(struct search *s, const struct place *pl, cc_error *err)
{
        char *path;
        int rc;

        if (pl->dir == NULL) {
                /* a quoted PATH entry: tried as written, never matches */
                if (s->done)
                        return 0;
                path = cc_asprintf(err, "%s\\%s", pl->raw, s->rel);
                if (path == NULL)
                        return -1;
                rc = add_try(s, path, pl->how, pl->origin, CC_TRY_MISSING,
                             "the quotes are part of the name the loader opens", err);
                free(path);
                return rc;
        }
        path = cc_tree_join(s->c->t, pl->dir, s->rel, err);
        if (path == NULL)
                return -1;
        if (strchr(s->rel, '\\') != NULL || strchr(s->rel, '/') != NULL) {
                char *full = full_path(s->c, path, err);

                free(path);
                if (full == NULL)
                        return -1;
                path = full;
        }
        rc = consider(s, path, pl->how, pl->origin, err);
        free(path);
        return rc;
}

/* A quoted or unexpanded PATH entry: does the directory it was meant to
 * name hold the DLL? */
static int note_fixed_entry(struct search *s, const struct path_ent *e, size_t i, cc_error *err)
{
        char *p = cc_tree_join(s->c->t, e->fixed, s->rel, err);
        const struct probe *pr;
        int rc = 0;

        if (p == NULL)
                return -1;
        pr = probe(s->c, p, err);
        if (pr == NULL) {
                free(p);
                return -1;
        }
        if (pr->kind == PR_PE && pr->machine == s->c->machine) {
                s->fixed_notes++;
                rc = note(&s->r->notes, err,
                          "%s exists, but PATH entry %zu is written %s: the loader %s, so it never looks there; "
                          "write the entry as %s",
                          p, i + 1, e->raw,
                          e->kind == PK_QUOTED ? "does not remove quotes" : "does not expand %VARIABLES%", e->fixed);
        }
        free(p);
        return rc;
}

static const char *own(struct search *s, char *str, cc_error *err)
{
        if (str == NULL || cc_strv_take(&s->owned, str, err) < 0)
                return NULL;
        return s->owned.v[s->owned.n - 1];
}

/* Walk the search order for the name (s->rel), in the mode of the context.
 * load_dir: the DLL load directory (ALTERED / DLL_LOAD_DIR), or NULL. */
static int walk_order(struct search *s, const char *load_dir, int load_dir_altered, cc_error *err)
{
        cc_win_ctx *c = s->c;
        struct place pl;
        const char *o;
        size_t i;
        int search_flags = c->mode == CUDNNCTL_WIN_SEARCH || c->mode == CUDNNCTL_WIN_PYTHON;

#define VISIT(how_, dir_, origin_)                                                                                     \
        do {                                                                                                           \
                if (s->done && !s->shadowed)                                                                           \
                        return 0;                                                                                      \
                pl.how = (how_);                                                                                       \
                pl.dir = (dir_);                                                                                       \
                pl.origin = (origin_);                                                                                 \
                pl.raw = NULL;                                                                                         \
                if (pl.origin == NULL || consider_place(s, &pl, err) < 0)                                              \
                        return -1;                                                                                     \
        } while (0)

        if (search_flags) {
                if (load_dir != NULL && (c->flags & CUDNNCTL_WIN_SEARCH_DLL_LOAD_DIR)) {
                        o = own(s,
                                cc_asprintf(err, "DLL load directory (%s; LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR)", load_dir),
                                err);
                        VISIT(CC_HOW_DLL_LOAD_DIR, load_dir, o);
                }
                if (c->appdir != NULL && (c->flags & CUDNNCTL_WIN_SEARCH_APPLICATION_DIR)) {
                        o = own(s, cc_asprintf(err, "application directory (%s)", c->appdir), err);
                        VISIT(CC_HOW_APPDIR, c->appdir, o);
                }
                if (c->flags & CUDNNCTL_WIN_SEARCH_USER_DIRS) {
                        for (i = 0; i < c->user_dirs.n; i++) {
                                o = own(s,
                                        cc_asprintf(err, "%s %zu (%s)",
                                                    c->mode == CUDNNCTL_WIN_PYTHON ? "os.add_dll_directory"
                                                                                   : "AddDllDirectory",
                                                    i + 1, c->user_dirs.v[i]),
                                        err);
                                VISIT(CC_HOW_USER_DIR, c->user_dirs.v[i], o);
                        }
                        if (c->has_set_dll_dir && c->set_dll_dir[0]) {
                                o = own(s, cc_asprintf(err, "SetDllDirectory (%s)", c->set_dll_dir), err);
                                VISIT(CC_HOW_SET_DLL_DIR, c->set_dll_dir, o);
                        }
                }
                if (c->flags & CUDNNCTL_WIN_SEARCH_SYSTEM32) {
                        o = own(s,
                                cc_asprintf(err, "%s (%s)", c->wow64 ? "System32 (SysWOW64)" : "System32", c->sysdir),
                                err);
                        VISIT(CC_HOW_SYSTEM32, c->sysdir, o);
                }
                return 0;
        }
        /* The standard order, and LOAD_WITH_ALTERED_SEARCH_PATH. */
        if (load_dir != NULL && load_dir_altered) {
                o = own(s, cc_asprintf(err, "directory of the DLL (%s; LOAD_WITH_ALTERED_SEARCH_PATH)", load_dir), err);
                VISIT(CC_HOW_DLL_LOAD_DIR, load_dir, o);
        } else if (c->appdir != NULL) {
                o = own(s, cc_asprintf(err, "application directory (%s)", c->appdir), err);
                VISIT(CC_HOW_APPDIR, c->appdir, o);
        }
        if (c->has_set_dll_dir && c->set_dll_dir[0]) {
                o = own(s, cc_asprintf(err, "SetDllDirectory (%s)", c->set_dll_dir), err);
                VISIT(CC_HOW_SET_DLL_DIR, c->set_dll_dir, o);
        } else if (!c->has_set_dll_dir && !c->safe && !c->cwd_illegal) {
                o = own(s, cc_asprintf(err, "current directory (%s; SafeDllSearchMode off)", c->cwd), err);
                VISIT(CC_HOW_CWD, c->cwd, o);
        }
        o = own(s, cc_asprintf(err, "%s (%s)", c->wow64 ? "System32 (SysWOW64)" : "System32", c->sysdir), err);
        VISIT(CC_HOW_SYSTEM32, c->sysdir, o);
        o = own(s, cc_asprintf(err, "16-bit system directory (%s)", c->sys16), err);
        VISIT(CC_HOW_SYSTEM16, c->sys16, o);
        o = own(s, cc_asprintf(err, "Windows directory (%s)", c->windir), err);
        VISIT(CC_HOW_WINDIR, c->windir, o);
        if (!c->has_set_dll_dir && c->safe && !c->cwd_illegal) {
                o = own(s, cc_asprintf(err, "current directory (%s)", c->cwd), err);
                VISIT(CC_HOW_CWD, c->cwd, o);
        }
        for (i = 0; i < c->npath; i++) {
                const struct path_ent *e = &c->path[i];

                if (s->done && !s->shadowed)
                        return 0;
                pl.how = CC_HOW_PATH;
                pl.dir = e->kind == PK_QUOTED ? NULL : e->dir;
                pl.origin = e->origin;
                pl.raw = e->raw;
                if (consider_place(s, &pl, err) < 0)
                        return -1;
                if (e->fixed != NULL && !s->done && s->fixed_notes < 3 && note_fixed_entry(s, e, i, err) < 0)
                        return -1;
        }
#undef VISIT
        return 0;
}

/* Python / LOAD_LIBRARY_SEARCH_*: copies that only PATH would reach. */
static int note_path_copies(struct search *s, const char *winner, cc_error *err)
{
        cc_win_ctx *c = s->c;
        size_t i, n = 0;

        for (i = 0; i < c->npath && n < 3; i++) {
                const struct path_ent *e = &c->path[i];
                char *p;
                const struct probe *pr;
                int rc = 0;

                if (e->dir == NULL || !e->exists)
                        continue;
                p = cc_tree_join(c->t, e->dir, s->rel, err);
                if (p == NULL)
                        return -1;
                pr = probe(c, p, err);
                if (pr == NULL) {
                        free(p);
                        return -1;
                }
                if (pr->kind == PR_PE && pr->machine == c->machine &&
                    (winner == NULL || !cc_tree_path_eq(c->t, p, winner))) {
                        if (c->mode == CUDNNCTL_WIN_PYTHON)
                                rc =
                                    note(&s->r->notes, err,
                                         "%s is on PATH (entry %zu), but Python >= 3.8 does not search PATH for the "
                                         "DLLs extension modules load%s: call os.add_dll_directory(r\"%s\") or put the "
                                         "DLL next to the module",
                                         p, i + 1, winner ? "; another copy is used" : "", e->dir);
                        else
                                rc =
                                    note(&s->r->notes, err,
                                         "%s is on PATH (entry %zu), but LOAD_LIBRARY_SEARCH_* does not search PATH%s: "
                                         "add the directory with AddDllDirectory",
                                         p, i + 1, winner ? "; another copy is used" : "");
                        n++;
                }
                free(p);
                if (rc < 0)
                        return -1;
        }
        return 0;
}

/* Not found: is it one directory down from a place searched (cuDNN 9's
 * bin\12.x\ while PATH has bin)? */
static int note_subdirs(struct search *s, cc_error *err)
{
        cc_win_ctx *c = s->c;
        size_t i, k, scanned = 0, found = 0, nsub;
        cc_strv done = {0}, names = {0};
        char *dir = NULL, *sub = NULL, *p = NULL;
        int rv = -1;

        for (i = 0; i < s->r->ntries && scanned < MAX_SUBDIR_SCAN && found < 3; i++) {
                const cc_try *t = &s->r->tries[i];
                cc_error lerr = {0};

                if (t->outcome != CC_TRY_MISSING || t->how == CC_HOW_SYSTEM32 || t->how == CC_HOW_SYSTEM16 ||
                    t->how == CC_HOW_WINDIR || !cc_tree_is_abs(c->t, t->path))
                        continue;
                free(dir);
                dir = cc_tree_dirname(c->t, t->path, err);
                if (dir == NULL)
                        goto fail;
                if (cc_strv_contains(&done, dir) || !is_dir(c, dir))
                        continue;
                if (cc_strv_push(&done, dir, err) < 0)
                        goto fail;
                scanned++;
                cc_strv_free(&names);
                if (cc_tree_list(c->t, dir, 100000, &names, &lerr) < 0) {
                        if (lerr.code == CC_ERR_NOMEM) {
                                *err = lerr;
                                goto fail;
                        }
                        continue;
                }
                for (k = 0, nsub = 0; k < names.n && nsub < MAX_SUBDIRS && found < 3; k++) {
                        const struct probe *pr;

                        free(sub);
                        free(p);
                        p = NULL;
                        sub = cc_tree_join(c->t, dir, names.v[k], err);
                        if (sub == NULL)
                                goto fail;
                        if (!is_dir(c, sub))
                                continue;
                        nsub++;
                        p = cc_tree_join(c->t, sub, last_component(s->rel), err);
                        pr = p ? probe(c, p, err) : NULL;
                        if (pr == NULL)
                                goto fail;
                        if (pr->kind != PR_PE)
                                continue;
                        found++;
                        if (note(&s->r->notes, err,
                                 "%s exists one directory below %s (%s): the loader does not look in subdirectories; "
                                 "add %s to the search path",
                                 p, dir, t->origin ? t->origin : "searched", sub) < 0)
                                goto fail;
                }
        }
        rv = 0;
fail:
        free(dir);
        free(sub);
        free(p);
        cc_strv_free(&names);
        cc_strv_free(&done);
        return rv;
}

static int set_winner(struct search *s, cc_error *err)
{
        cc_resolution *r = s->r;
        const cc_try *w = &r->tries[s->winner];
        const struct probe *p;

        r->found = 1;
        r->how = w->how;
        r->path = cc_strdup(err, w->path);
        r->origin = w->origin ? cc_strdup(err, w->origin) : NULL;
        if (r->path == NULL || (w->origin && r->origin == NULL))
                return -1;
        p = probe(s->c, w->path, err);
        if (p == NULL)
                return -1;
        r->realpath = cc_strdup(err, p->canonical ? p->canonical : w->path);
        return r->realpath ? 0 : -1;
}

/* Notes about the outcome of a finished search. */
static int outcome_notes(struct search *s, cc_error *err)
{
        cc_resolution *r = s->r;
        cc_win_ctx *c = s->c;
        size_t i;

        /* a file that is no PE image found first: the search stops there */
        if (s->failed >= 0 && r->win_error == WIN_ERR_BAD_EXE_FORMAT &&
            note(&r->notes, err,
                 "%s is found first (%s) but is not a PE image (truncated, or something else under a DLL name): "
                 "LoadLibrary fails with error 193 and the search stops there; remove or replace it",
                 r->tries[s->failed].path, r->tries[s->failed].origin ? r->tries[s->failed].origin : "") < 0)
                return -1;
        if (s->wrong >= 0) {
                const cc_try *f = &r->tries[s->wrong];
                const struct probe *p = probe(c, f->path, err);

                if (p == NULL)
                        return -1;
                if (s->winner < 0 && s->failed < 0) {
                        if (note(&r->notes, err,
                                 "every copy found is a DLL for another machine (%zu; the first: %s, an %s DLL, %s): "
                                 "an %s process passes over each and LoadLibrary fails with error 193 "
                                 "(ERROR_BAD_EXE_FORMAT). Fix: install the %s build beside the program or on its "
                                 "search path",
                                 s->nwrong, f->path, machine_name(p->machine), f->origin ? f->origin : "",
                                 machine_name(c->machine), machine_name(c->machine)) < 0)
                                return -1;
                } else if (note(&r->notes, err,
                                "%s (%s) is an %s DLL found earlier in the search: an %s process passes over it "
                                "(%zu such cop%s); an %s program would load it",
                                f->path, f->origin ? f->origin : "", machine_name(p->machine), machine_name(c->machine),
                                s->nwrong, s->nwrong == 1 ? "y" : "ies", machine_name(p->machine)) < 0) {
                        return -1;
                }
        }
        if (s->failed >= 0 && r->win_error == WIN_ERR_ACCESS_DENIED &&
            note(&r->notes, err,
                 "%s is found first (%s) but cannot be opened as a file: LoadLibrary fails with error 5 and the "
                 "search stops there",
                 r->tries[s->failed].path, r->tries[s->failed].origin ? r->tries[s->failed].origin : "") < 0)
                return -1;
        if (s->winner >= 0) {
                const cc_try *w = &r->tries[s->winner];

                if (w->how == CC_HOW_SYSTEM32 || w->how == CC_HOW_SYSTEM16 || w->how == CC_HOW_WINDIR) {
                        for (i = (size_t)s->winner + 1; i < r->ntries; i++) {
                                const cc_try *t = &r->tries[i];

                                if (t->outcome == CC_TRY_SHADOWED && t->how != CC_HOW_SYSTEM32 &&
                                    t->how != CC_HOW_SYSTEM16 && t->how != CC_HOW_WINDIR) {
                                        if (note(&r->notes, err,
                                                 "the copy in %s is loaded before %s (%s): system directories come "
                                                 "before the current directory and PATH; a stale copy there shadows "
                                                 "every other one",
                                                 w->path, t->path, t->origin ? t->origin : "") < 0)
                                                return -1;
                                        break;
                                }
                        }
                }
        }
        return 0;
}

static int resolve_known(struct search *s, const char *fname, size_t idx, cc_error *err)
{
        cc_win_ctx *c = s->c;
        cc_resolution *r = s->r;
        char *path = cc_tree_join(c->t, c->sysdir, fname, err);
        char *origin;
        const struct probe *p;
        int rc;

        if (path == NULL)
                return -1;
        if (idx & KNOWN_IMPORTED)
                origin = cc_asprintf(err, "KnownDLLs (imported by %s, a known DLL)",
                                     c->known_importer.v[(idx & ~KNOWN_IMPORTED) - 1]);
        else
                origin = cc_asprintf(err, "KnownDLLs (%s)", c->known_source);
        if (origin == NULL) {
                free(path);
                return -1;
        }
        p = probe(c, path, err);
        rc = p == NULL ? -1 : add_copy(s, path, CC_HOW_KNOWNDLL, origin, CC_TRY_FOUND, p, err);
        if (rc == 0) {
                r->found = 1;
                r->how = CC_HOW_KNOWNDLL;
                r->path = path;
                path = NULL;
                r->origin = origin;
                origin = NULL;
                r->realpath = cc_strdup(err, p->canonical ? p->canonical : r->path);
                rc = r->realpath ? 0 : -1;
                r->ntried = r->ntries;
                s->done = 1;
                s->winner = (int)r->ntries - 1;
                if (rc == 0 && cc_smap_put(&s->seen, r->path, NULL, NULL, err) < 0)
                        rc = -1;
                if (rc == 0)
                        rc = note(&r->notes, err,
                                  "%s is a known DLL: the loader always maps the System32 copy and does not search; "
                                  "copies anywhere else are never used under this name",
                                  fname);
                if (rc == 0 && p->kind == PR_MISSING && !c->m->live)
                        rc = note(&r->notes, err, "%s is not in this tree's System32 (a real Windows has it)", fname);
        }
        free(path);
        free(origin);
        return rc;
}

int cc_win_resolve(cc_win_ctx *c, const char *name, const char *loading_dll, int shadowed, cc_resolution *out,
                   cc_error *err)
{
        struct search s;
        char *fname = NULL, *load_dir = NULL;
        const char *base;
        size_t n;
        int rv = -1;

        memset(out, 0, sizeof(*out));
        memset(&s, 0, sizeof(s));
        s.c = c;
        s.r = out;
        s.shadowed = shadowed;
        s.winner = s.failed = s.wrong = -1;
        s.seen.nocase = 1;
        out->how = CC_HOW_NOT_FOUND;
        if (name == NULL || name[0] == '\0')
                return cc_err(err, CC_ERR_USAGE, "an empty DLL name");
        out->name = cc_strdup(err, name);
        if (out->name == NULL)
                goto fail;
        base = last_component(name);
        if (base[0] == '\0') {
                cc_err(err, CC_ERR_USAGE, "%s: a DLL name must not end with a path separator", name);
                goto fail;
        }
        /* The name the loader looks for: ".dll" when there is no extension, a
         * trailing '.' for "no extension" (and trailing dots and spaces go, as
         * they do in every Windows path). */
        n = strlen(name);
        if (name[n - 1] == '.') {
                while (n > (size_t)(base - name) && (name[n - 1] == '.' || name[n - 1] == ' '))
                        n--;
                fname = cc_strndup(err, name, n);
        } else if (strchr(base, '.') == NULL) {
                fname = cc_asprintf(err, "%s.dll", name);
        } else {
                fname = cc_strdup(err, name);
        }
        if (fname == NULL)
                goto fail;
        if (fname[0] == '\0' || last_component(fname)[0] == '\0') {
                cc_err(err, CC_ERR_USAGE, "%s: not a DLL name", name);
                goto fail;
        }
        if (loading_dll != NULL && loading_dll[0] != '\0') {
                char *full = full_path(c, loading_dll, err);

                if (full == NULL)
                        goto fail;
                load_dir = cc_tree_dirname(c->t, full, err);
                free(full);
                if (load_dir == NULL)
                        goto fail;
        }

        if (c->mode == CUDNNCTL_WIN_SEARCH && (c->flags & CUDNNCTL_WIN_SEARCH_DLL_LOAD_DIR) && load_dir == NULL &&
            !cc_tree_is_abs(c->t, fname)) {
                /* LoadLibraryEx(name, LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR) wants a
                 * fully qualified name, before it looks at anything else. */
                out->win_error = WIN_ERR_INVALID_PARAMETER;
                if (note(&out->notes, err,
                         "LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR needs a fully qualified path: LoadLibraryEx(\"%s\") "
                         "fails with error 87 (ERROR_INVALID_PARAMETER) and searches nothing",
                         name) < 0)
                        goto fail;
                rv = 0;
                goto done;
        }
        if (!has_path_part(fname)) {
                void *v = NULL;

                if (is_apiset_name(fname)) {
                        char *origin = cc_strdup(err, "API set (the API set schema maps it to a host DLL)");

                        if (origin == NULL || add_try(&s, fname, CC_HOW_APISET, origin, CC_TRY_FOUND, NULL, err) < 0) {
                                free(origin);
                                goto fail;
                        }
                        out->found = 1;
                        out->how = CC_HOW_APISET;
                        out->origin = origin;
                        out->ntried = out->ntries;
                        if (note(&out->notes, err,
                                 "%s is an API set name, not a file: the loader maps it to the DLL that implements it "
                                 "(through the API set schema); it is never searched for and never missing",
                                 fname) < 0)
                                goto fail;
                        rv = 0;
                        goto done;
                }
                if (cc_smap_get(&c->known_idx, fname, &v)) {
                        if (resolve_known(&s, fname, (size_t)(uintptr_t)v, err) < 0)
                                goto fail;
                        if (shadowed) {
                                s.rel = fname;
                                if (walk_order(&s, load_dir, c->mode == CUDNNCTL_WIN_ALTERED, err) < 0)
                                        goto fail;
                        }
                        rv = 0;
                        goto done;
                }
        }

        if (has_path_part(fname) && !cc_tree_is_abs(c->t, fname) && !(fname[0] && fname[1] == ':') &&
            c->mode == CUDNNCTL_WIN_PYTHON &&
            note(&out->notes, err,
                 "Python (ctypes, the import system) makes a name with a directory part absolute against the current "
                 "directory before loading it: %s is that one file",
                 fname) < 0)
                goto fail;
        if (has_path_part(fname) &&
            (cc_tree_is_abs(c->t, fname) || (fname[0] && fname[1] == ':') || c->mode == CUDNNCTL_WIN_PYTHON)) {
                /* A fully qualified path (or X:name, against that drive's
                 * current directory; or any path Python made absolute):
                 * that file only. */
                char *full = full_path(c, fname, err);
                int rc;

                if (full == NULL)
                        goto fail;
                s.rel = fname;
                rc = consider(&s, full, CC_HOW_DIRECT, "the path given", err);
                free(full);
                if (rc < 0)
                        goto fail;
        } else {
                if (c->mode == CUDNNCTL_WIN_ALTERED && load_dir == NULL &&
                    note(&out->notes, err,
                         "LOAD_WITH_ALTERED_SEARCH_PATH changes the order only for the imports of a DLL loaded by "
                         "full path; %s is searched in the standard order",
                         name) < 0)
                        goto fail;
                if (has_path_part(fname) &&
                    note(&out->notes, err,
                         "%s is a relative path: the loader appends it to every directory of the search order "
                         "(not only the current directory)",
                         fname) < 0)
                        goto fail;
                s.rel = fname;
                if (walk_order(&s, load_dir, c->mode == CUDNNCTL_WIN_ALTERED, err) < 0)
                        goto fail;
        }
        if (s.winner >= 0) {
                out->ntried = (size_t)s.winner + 1;
                if (set_winner(&s, err) < 0)
                        goto fail;
        } else if (s.failed >= 0) {
                out->ntried = (size_t)s.failed + 1;
        } else if (s.wrong >= 0) {
                /* every file found was for another machine */
                out->ntried = out->ntries;
                out->win_error = WIN_ERR_BAD_EXE_FORMAT;
        } else {
                out->ntried = out->ntries;
                out->win_error = WIN_ERR_MOD_NOT_FOUND;
        }
        if (outcome_notes(&s, err) < 0)
                goto fail;
        if (!has_path_part(fname) && (c->mode == CUDNNCTL_WIN_SEARCH || c->mode == CUDNNCTL_WIN_PYTHON) &&
            note_path_copies(&s, out->found ? out->path : NULL, err) < 0)
                goto fail;
        if (!out->found && out->win_error == WIN_ERR_MOD_NOT_FOUND && note_subdirs(&s, err) < 0)
                goto fail;
        rv = 0;
done:
        if (rv == 0 && !out->found)
                out->how = CC_HOW_NOT_FOUND;
fail:
        free(fname);
        free(load_dir);
        cc_smap_free(&s.seen);
        cc_strv_free(&s.owned);
        if (rv < 0)
                cc_resolution_free(out);
        return rv;
}
