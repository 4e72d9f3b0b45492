/* Helpers shared by the Win32 platform files (win32.c, win32_proc.c): UTF-8
 * <-> UTF-16 at the Win32 calls and one error setter for GetLastError codes.
 * Include after <windows.h>, inside #if defined(_WIN32). */
#ifndef CC_WIN32_UTIL_H
#define CC_WIN32_UTIL_H

#include "platform.h"

/* UTF-8 to a new wide string (caller frees), or NULL with err set. */
wchar_t *cc_win_to_wide(const char *s, cc_error *err);
/* A wide string to new UTF-8 (caller frees), or NULL with err set. */
char *cc_win_from_wide(const wchar_t *w, cc_error *err);
/* Set err to "path: what: FormatMessage text (error N)" and return -1. */
int cc_win_err(cc_error *err, DWORD code, const char *what, const char *path);

#endif
