/* A program that keeps DLLs loaded, for tests/cli/test_install_win.py under
 * Wine: the running program of NVIDIA's "close the programs that use cuDNN
 * first", which `cudnnctl install` must find and stop for. Built by the test
 * with x86_64-w64-mingw32-gcc -municode.
 *
 *   holddll [--timeout SECONDS] DLL...
 *        LoadLibraryW each DLL (a full path), print "ready PID" (the Windows
 *        process id, as a module snapshot numbers it), then wait until
 *        standard input closes or SECONDS pass (default 120), and exit 0:
 *        the test closes the pipe to end it, and a test that dies leaves
 *        nothing running for long. A DLL that does not load:
 *        "error LoadLibraryW DLL CODE" (GetLastError), exit 1.
 *
 *   holddll --modules PID
 *        The modules of process PID as the system lists them
 *        (CreateToolhelp32Snapshot, Module32FirstW/Module32NextW), one
 *        "module PATH" line each, then "end COUNT"; or
 *        "error CreateToolhelp32Snapshot CODE", exit 1. A view apart from
 *        cudnnctl's own of what Wine answers, so that the test can tell a
 *        module Wine does not show from one cudnnctl misses. */
#include <windows.h>
#include <tlhelp32.h>

#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

static void put_utf8(const wchar_t *w)
{
        char buf[4 * MAX_PATH + 16];
        int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, buf, (int)sizeof(buf), NULL, NULL);

        fputs(n <= 0 ? "?" : buf, stdout);
}

/* Reads standard input to its end: the thread ends when the test closes
 * the pipe (or the handle is not readable at all). */
static DWORD WINAPI drain(LPVOID unused)
{
        HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
        char buf[256];
        DWORD got;

        (void)unused;
        if (in == NULL || in == INVALID_HANDLE_VALUE)
                Sleep(INFINITE); /* nothing to close: only the time limit ends it */
        while (ReadFile(in, buf, sizeof(buf), &got, NULL) && got > 0)
                ;
        return 0;
}

static int modules(DWORD pid)
{
        MODULEENTRY32W me;
        HANDLE snap;
        int tries, n = 0;

        /* ERROR_BAD_LENGTH: the process was loading or unloading; ask again */
        for (tries = 0;; tries++) {
                snap = CreateToolhelp32Snapshot(TH32CS_SNAPMODULE | TH32CS_SNAPMODULE32, pid);
                if (snap != INVALID_HANDLE_VALUE || GetLastError() != ERROR_BAD_LENGTH || tries >= 4)
                        break;
        }
        if (snap == INVALID_HANDLE_VALUE) {
                printf("error CreateToolhelp32Snapshot %lu\n", (unsigned long)GetLastError());
                return 1;
        }
        me.dwSize = sizeof(me);
        if (Module32FirstW(snap, &me)) {
                do {
                        fputs("module ", stdout);
                        put_utf8(me.szExePath);
                        fputs("\n", stdout);
                        n++;
                } while (Module32NextW(snap, &me));
        }
        CloseHandle(snap);
        printf("end %d\n", n);
        return 0;
}

int wmain(int argc, wchar_t **argv)
{
        DWORD seconds = 120;
        HANDLE t;
        int i = 1;

        SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX);
        if (argc == 3 && wcscmp(argv[1], L"--modules") == 0)
                return modules((DWORD)wcstoul(argv[2], NULL, 10));
        if (argc > 2 && wcscmp(argv[1], L"--timeout") == 0) {
                seconds = (DWORD)wcstoul(argv[2], NULL, 10);
                i = 3;
        }
        if (i >= argc) {
                fputs("usage: holddll [--timeout SECONDS] DLL... | holddll --modules PID\n", stderr);
                return 2;
        }
        for (; i < argc; i++) {
                if (LoadLibraryW(argv[i]) == NULL) {
                        DWORD e = GetLastError();

                        fputs("error LoadLibraryW ", stdout);
                        put_utf8(argv[i]);
                        printf(" %lu\n", (unsigned long)e);
                        return 1;
                }
        }
        printf("ready %lu\n", (unsigned long)GetCurrentProcessId());
        fflush(stdout);
        t = CreateThread(NULL, 0, drain, NULL, 0, NULL);
        if (t == NULL)
                Sleep(seconds * 1000); /* no thread: the time limit alone */
        else
                WaitForSingleObject(t, seconds * 1000);
        return 0; /* the DLLs go with the process */
}
