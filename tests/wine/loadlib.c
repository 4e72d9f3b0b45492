/* The real loader's answers, for tests/oracle/wine_loader.py: for each case
 * on the command line, set up the process the way the case says (current
 * directory, PATH, SetDllDirectory, AddDllDirectory), call LoadLibraryW or
 * LoadLibraryExW, and print where the module came from (GetModuleFileNameW)
 * or the error (GetLastError). Then undo the case's settings and unload, so
 * the next case starts clean. Built with x86_64-w64-mingw32-gcc -municode.
 *
 * A case is one argument, fields separated by '|':
 *
 *     ID|API|FLAGS|CWD|PATH|SETDLL|ADDDIRS|NAME|QUERY
 *
 *   API      "ll" (LoadLibraryW) or "ex" (LoadLibraryExW with FLAGS, hex)
 *   CWD      the current directory for the load ("" leaves it)
 *   PATH     the PATH variable for the load ("-" leaves it)
 *   SETDLL   "-": no SetDllDirectoryW call; "=": SetDllDirectoryW(L"");
 *            else SetDllDirectoryW(SETDLL)
 *   ADDDIRS  directories for AddDllDirectory, ';'-separated, in call order
 *   NAME     what is loaded
 *   QUERY    "" reports the module loaded; a module name reports that
 *            module (GetModuleHandleW) after the load: how a dependency
 *            was resolved
 *
 * Output, one line per case: "ID<TAB>OK<TAB>PATH" or "ID<TAB>ERR<TAB>CODE"
 * (CODE: GetLastError in decimal). */
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define MAX_FIELDS 9
#define MAX_DIRS 32

static void put_utf8(const wchar_t *w)
{
        char buf[4 * MAX_PATH + 16];
        int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, buf, (int)sizeof(buf), NULL, NULL);

        if (n <= 0)
                fputs("?", stdout);
        else
                fputs(buf, stdout);
}

/* Split s in place at sep into at most max fields; returns the count. */
static int split(wchar_t *s, wchar_t sep, wchar_t **out, int max)
{
        int n = 0;

        out[n++] = s;
        for (; *s && n < max; s++) {
                if (*s == sep) {
                        *s = 0;
                        out[n++] = s + 1;
                }
        }
        return n;
}

static void run_case(wchar_t *arg)
{
        wchar_t *f[MAX_FIELDS], *dirs[MAX_DIRS];
        DLL_DIRECTORY_COOKIE cookies[MAX_DIRS];
        wchar_t old_cwd[MAX_PATH + 1], *old_path = NULL, file[32768];
        int nf, nd = 0, i, setdll = 0;
        DWORD flags, e = 0, n, plen;
        HMODULE h, q;

        nf = split(arg, L'|', f, MAX_FIELDS);
        if (nf != MAX_FIELDS) {
                printf("?\tERR\tbad case\n");
                return;
        }
        flags = (DWORD)wcstoul(f[2], NULL, 16);
        GetCurrentDirectoryW(MAX_PATH + 1, old_cwd);
        plen = GetEnvironmentVariableW(L"PATH", NULL, 0);
        if (plen > 0) {
                old_path = calloc(plen + 1, sizeof(wchar_t));
                if (old_path != NULL)
                        GetEnvironmentVariableW(L"PATH", old_path, plen + 1);
        }
        if (f[3][0] && !SetCurrentDirectoryW(f[3])) {
                put_utf8(f[0]);
                printf("\tERR\tsetup: SetCurrentDirectory %lu\n", (unsigned long)GetLastError());
                free(old_path);
                return;
        }
        if (wcscmp(f[4], L"-") != 0)
                SetEnvironmentVariableW(L"PATH", f[4]);
        if (wcscmp(f[5], L"-") != 0) {
                setdll = 1;
                SetDllDirectoryW(wcscmp(f[5], L"=") == 0 ? L"" : f[5]);
        }
        if (f[6][0]) {
                int k, m = split(f[6], L';', dirs, MAX_DIRS);

                for (k = 0; k < m; k++) {
                        cookies[nd] = AddDllDirectory(dirs[k]);
                        if (cookies[nd] != NULL)
                                nd++;
                }
        }
        SetLastError(0);
        if (wcscmp(f[1], L"ll") == 0)
                h = LoadLibraryW(f[7]);
        else
                h = LoadLibraryExW(f[7], NULL, flags);
        if (h == NULL)
                e = GetLastError();
        put_utf8(f[0]);
        q = h;
        if (h != NULL && f[8][0]) {
                q = GetModuleHandleW(f[8]);
                if (q == NULL)
                        e = GetLastError();
        }
        if (q != NULL && (n = GetModuleFileNameW(q, file, 32767)) > 0 && n < 32767) {
                file[n] = 0;
                fputs("\tOK\t", stdout);
                put_utf8(file);
                fputs("\n", stdout);
        } else {
                printf("\tERR\t%lu\n", (unsigned long)e);
        }
        if (h != NULL)
                FreeLibrary(h);
        for (i = 0; i < nd; i++)
                RemoveDllDirectory(cookies[i]);
        if (setdll)
                SetDllDirectoryW(NULL);
        SetEnvironmentVariableW(L"PATH", old_path);
        SetCurrentDirectoryW(old_cwd);
        free(old_path);
        fflush(stdout);
}

int wmain(int argc, wchar_t **argv)
{
        int i;

        SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX);
        for (i = 1; i < argc; i++)
                run_case(argv[i]);
        return 0;
}
