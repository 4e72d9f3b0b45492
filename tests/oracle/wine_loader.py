#!/usr/bin/env python3
"""Oracle: Wine's real loader against the Windows loader emulation.

usage: wine_loader.py --driver WINRESOLVE_DRIVER --loadlib-src tests/wine/loadlib.c
                      [--cudnnctl CUDNNCTL] [--prefix DIR] [--keep] [--verbose]

Builds a scratch Wine prefix (WINEPREFIX in a temporary directory, or --prefix;
`wineboot -i` once), tiny DLLs with mingw-w64 (x64 and, when i686-w64-mingw32-gcc
is there, x86 copies; DLLs that import another DLL, and one more level down),
and tests/wine/loadlib.c. For every case it lays out copies of a DLL under a
name of its own in the application directory, System32, the 16-bit system
directory, the Windows directory, PATH directories, the current directory,
AddDllDirectory and SetDllDirectory directories..., asks the real loader
(LoadLibraryW / LoadLibraryExW under wine, GetModuleFileNameW or GetLastError)
and the emulation (the driver over the prefix's drive_c, with the settings
Wine's registry has: system.reg's KnownDLLs and SafeDllSearchMode) and compares
the two answers: the same file, or the same error code.

Where Wine is known to differ from documented Windows behaviour, the case is
run and printed but left out of the verdict, with the reason. With --cudnnctl,
when `cudnnctl which --help` works, the top-level cases are also asked of
`cudnnctl which --json` and compared the same way.

Prints one line per case and "N cases compared, M mismatches, K excluded".
Exit status: 0 when all compared cases agree, 1 on a mismatch, 77 (CTest's
SKIP_RETURN_CODE) when wine or x86_64-w64-mingw32-gcc is missing.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SESSION = r"HKLM\System\CurrentControlSet\Control\Session Manager"

# LOAD_LIBRARY_SEARCH_* and LOAD_WITH_ALTERED_SEARCH_PATH
ALTERED = 0x8
DLL_DIR, APP, USER, SYS32, DEFAULT = 0x100, 0x200, 0x400, 0x800, 0x1000
FLAG_NAMES = [(DLL_DIR, "dll-dir"), (APP, "app"), (USER, "user"), (SYS32, "system32"), (DEFAULT, "default")]

MARK_C = r"""
int ccmark(void);
int ccmark(void) { return 7; }
int ccleaf(void);
int ccleaf(void) { return 8; }
int __stdcall DllMain(void *h, unsigned r, void *p);
int __stdcall DllMain(void *h, unsigned r, void *p) { (void)h; (void)r; (void)p; return 1; }
"""
# imports ccmark from the DLL named by its import library
TOP_C = r"""
int ccmark(void);
int __stdcall DllMain(void *h, unsigned r, void *p);
int __stdcall DllMain(void *h, unsigned r, void *p) { (void)h; (void)p; return r != 1 || ccmark() == 7; }
"""
# exports ccmark, imports ccleaf
MID_C = r"""
int ccleaf(void);
int ccmark(void);
int ccmark(void) { return 7; }
int __stdcall DllMain(void *h, unsigned r, void *p);
int __stdcall DllMain(void *h, unsigned r, void *p) { (void)h; (void)p; return r != 1 || ccleaf() == 8; }
"""


def log(*a):
    print(*a, flush=True)


class Case:
    def __init__(self, label, name="{n}.dll", files=None, api="ll", flags=0, cwd=r"C:\cwd",
                 path=r"C:\p1;C:\p2;C:\p3", setdll="-", adddirs=(), query="", safe=None,
                 mode=None, exclude=None, needs_x86=False, cli=True):
        self.label = label
        self.name = name
        self.files = files or {}
        self.api = api
        self.flags = flags
        self.cwd = cwd
        self.path = path
        self.setdll = setdll
        self.adddirs = list(adddirs)
        self.query = query
        self.safe = safe          # None: Wine's default; "off": set the registry value to 0
        self.mode = mode          # emulation mode override ("python")
        self.exclude = exclude    # reason this case is left out of the verdict
        self.needs_x86 = needs_x86
        self.cli = cli and not query
        self.n = None

    def sub(self, s):
        return s.replace("{n}", self.n)


def cases():
    X64, X86 = "x64", "x86"
    c = []
    # ---- the standard order (SafeDllSearchMode on) ----
    c.append(Case("app dir first", files={r"C:\app\{n}.dll": X64, r"C:\windows\system32\{n}.dll": X64,
                                          r"C:\windows\{n}.dll": X64, r"C:\cwd\{n}.dll": X64,
                                          r"C:\p1\{n}.dll": X64}))
    c.append(Case("System32 before the 16-bit dir", files={r"C:\windows\system32\{n}.dll": X64,
                                                          r"C:\windows\system\{n}.dll": X64,
                                                          r"C:\p1\{n}.dll": X64}))
    c.append(Case("16-bit system dir before the Windows dir", files={r"C:\windows\system\{n}.dll": X64,
                                                                    r"C:\windows\{n}.dll": X64,
                                                                    r"C:\cwd\{n}.dll": X64}))
    c.append(Case("Windows dir before the current dir", files={r"C:\windows\{n}.dll": X64,
                                                              r"C:\cwd\{n}.dll": X64}))
    c.append(Case("System32 before the current dir (safe on)", files={r"C:\windows\system32\{n}.dll": X64,
                                                                     r"C:\cwd\{n}.dll": X64}))
    c.append(Case("current dir before PATH", files={r"C:\cwd\{n}.dll": X64, r"C:\p1\{n}.dll": X64}))
    c.append(Case("PATH in order", files={r"C:\p2\{n}.dll": X64, r"C:\p3\{n}.dll": X64}))
    c.append(Case("not found: 126", files={r"C:\elsewhere\{n}.dll": X64}))
    c.append(Case("relative PATH entry", path=r"sub;C:\p1", files={r"C:\cwd\sub\{n}.dll": X64,
                                                                  r"C:\p1\{n}.dll": X64}))
    c.append(Case("relative PATH entry follows the cwd", cwd=r"C:\p2", path=r"sub;C:\p1",
                  files={r"C:\cwd\sub\{n}.dll": X64, r"C:\p2\sub\{n}.dll": X64}))
    c.append(Case("quoted PATH entry never matches", path=r'"C:\p2";C:\p3',
                  files={r"C:\p2\{n}.dll": X64, r"C:\p3\{n}.dll": X64}))
    c.append(Case("empty PATH entries", path=r";;C:\p2;", files={r"C:\p2\{n}.dll": X64}))
    c.append(Case("empty PATH entry is the current dir", path=r";C:\p2", setdll=r"C:\sd",
                  files={r"C:\cwd\{n}.dll": X64, r"C:\p2\{n}.dll": X64}))
    c.append(Case("trailing backslash in PATH", path=r"C:\p2\;C:\p3", files={r"C:\p3\{n}.dll": X64}))
    c.append(Case("long PATH", path=";".join([r"C:\nope%d" % i for i in range(1500)] + [r"C:\p3"]),
                  files={r"C:\p3\{n}.dll": X64}))
    c.append(Case("cuDNN 9 layout: bin on PATH, DLL in bin\\12.x (126)", path=r"C:\cudnn\v9\bin",
                  files={r"C:\cudnn\v9\bin\12.4\{n}.dll": X64}))
    c.append(Case("stale System32 copy shadows PATH", path=r"C:\cuda\bin",
                  files={r"C:\windows\system32\{n}.dll": X64, r"C:\cuda\bin\{n}.dll": X64}))
    # ---- SafeDllSearchMode off ----
    c.append(Case("safe off: current dir before System32", safe="off",
                  files={r"C:\windows\system32\{n}.dll": X64, r"C:\cwd\{n}.dll": X64}))
    c.append(Case("safe off: app dir still first", safe="off",
                  files={r"C:\app\{n}.dll": X64, r"C:\cwd\{n}.dll": X64}))
    c.append(Case("safe off: PATH last", safe="off", files={r"C:\windows\{n}.dll": X64, r"C:\p1\{n}.dll": X64}))
    # ---- SetDllDirectory ----
    c.append(Case("SetDllDirectory before System32", setdll=r"C:\sd",
                  files={r"C:\sd\{n}.dll": X64, r"C:\windows\system32\{n}.dll": X64}))
    c.append(Case("SetDllDirectory after the app dir", setdll=r"C:\sd",
                  files={r"C:\sd\{n}.dll": X64, r"C:\app\{n}.dll": X64}))
    c.append(Case("SetDllDirectory removes the current dir", setdll=r"C:\sd",
                  files={r"C:\cwd\{n}.dll": X64, r"C:\p2\{n}.dll": X64}))
    c.append(Case("SetDllDirectory with safe search off", setdll=r"C:\sd", safe="off",
                  files={r"C:\cwd\{n}.dll": X64, r"C:\windows\system32\{n}.dll": X64}))
    c.append(Case('SetDllDirectory("") removes the current dir', setdll="=",
                  files={r"C:\cwd\{n}.dll": X64, r"C:\p2\{n}.dll": X64},
                  exclude='Wine treats SetDllDirectory("") like SetDllDirectory(NULL) (ntdll get_dll_load_path '
                          'uses dll_directory only when its length is not 0), so the current directory stays; '
                          'Windows documents that "" removes it'))
    # ---- names ----
    c.append(Case("no extension: .dll appended", name="{n}", files={r"C:\p1\{n}.dll": X64}))
    c.append(Case("trailing dot: no extension", name="{n}.", files={r"C:\p1\{n}": X64, r"C:\app\{n}.dll": X64}))
    c.append(Case("case-insensitive names", name="{N}.DLL", files={r"C:\p2\{n}.dll": X64}))
    c.append(Case("full path: that file only", name=r"C:\lib\{n}.dll",
                  files={r"C:\lib\{n}.dll": X64, r"C:\app\{n}.dll": X64}))
    c.append(Case("full path missing: 126 despite copies", name=r"C:\lib\{n}.dll", files={r"C:\app\{n}.dll": X64}))
    c.append(Case("full path with ..", name=r"C:\lib\sub\..\{n}.dll", files={r"C:\lib\{n}.dll": X64}))
    c.append(Case("drive-relative name", name=r"C:{n}.dll", files={r"C:\cwd\{n}.dll": X64, r"C:\app\{n}.dll": X64}))
    c.append(Case("relative path appended to every dir", name=r"sub\{n}.dll",
                  files={r"C:\p2\sub\{n}.dll": X64, r"C:\cwd\{n}.dll": X64}))
    c.append(Case("relative path: app dir first", name=r"sub\{n}.dll",
                  files={r"C:\app\sub\{n}.dll": X64, r"C:\cwd\sub\{n}.dll": X64}))
    c.append(Case(r"relative .\name is searched too", name=r".\{n}.dll",
                  files={r"C:\p1\{n}.dll": X64, r"C:\cwd\{n}.dll": X64}))
    # ---- API sets, KnownDLLs, Wine's own DLLs ----
    c.append(Case("API set", name="api-ms-win-core-synch-l1-2-0.dll"))
    c.append(Case("API set, upper case", name="API-MS-WIN-CORE-PROCESSTHREADS-L1-1-0.DLL"))
    c.append(Case("a system DLL that is only in System32", name="ole32.dll"))
    c.append(Case("psapi.dll app-local (Wine has no KnownDLLs)", name="psapi.dll",
                  files={r"C:\app\psapi.dll": X64}, cli=False))
    c.append(Case("psapi.dll app-local vs the Windows 10/11 KnownDLLs", name="psapi.dll",
                  files={r"C:\app\psapi.dll": X64}, mode="knowndlls-windows", cli=False,
                  exclude="a fresh Wine prefix has no Session Manager\\KnownDLLs key and Wine's loader has no "
                          "known DLLs: it loads the app-local psapi.dll, Windows the System32 one"))
    # ---- the machine check ----
    c.append(Case("only an x86 copy: 193", files={r"C:\p1\{n}.dll": X86}, needs_x86=True))
    # a DLL for another machine is passed over and the search goes on, on Windows 10/11 (LdrpMapDllSearchPath
    # continues only on STATUS_IMAGE_MACHINE_TYPE_MISMATCH) as in Wine (search_dll_file)
    c.append(Case("x86 copy first: passed over, the x64 one loaded",
                  files={r"C:\app\{n}.dll": X86, r"C:\p1\{n}.dll": X64}, needs_x86=True))
    c.append(Case("x86 copies in two places, then x64", files={r"C:\app\{n}.dll": X86,
                  r"C:\windows\system32\{n}.dll": X86, r"C:\p1\{n}.dll": X64}, needs_x86=True))
    c.append(Case("x86 copies only: 193 after the whole search",
                  files={r"C:\app\{n}.dll": X86, r"C:\p1\{n}.dll": X86}, needs_x86=True))
    c.append(Case("x86 copy, then not a PE image: 193 at the second",
                  files={r"C:\app\{n}.dll": X86, r"C:\p1\{n}.dll": "text", r"C:\p2\{n}.dll": X64},
                  needs_x86=True))
    c.append(Case("not a PE image first: 193", files={r"C:\app\{n}.dll": "text", r"C:\p1\{n}.dll": X64}))
    c.append(Case("directory under the DLL name: 5", files={r"C:\app\{n}.dll": "dir", r"C:\p1\{n}.dll": X64}))
    # ---- LOAD_WITH_ALTERED_SEARCH_PATH and dependencies ----
    c.append(Case("standard: imports not searched in the DLL's dir", api="ll", name=r"C:\lib\{n}top.dll",
                  query="{n}.dll", files={r"C:\lib\{n}top.dll": ("top", "{n}.dll"), r"C:\lib\{n}.dll": X64,
                                          r"C:\p2\{n}.dll": X64}))
    c.append(Case("standard: import missing: 126", api="ll", name=r"C:\lib\{n}top.dll", query="{n}.dll",
                  files={r"C:\lib\{n}top.dll": ("top", "{n}.dll"), r"C:\lib\{n}.dll": X64}, path=r"C:\p1"))
    c.append(Case("altered: the DLL's dir first", api="ex", flags=ALTERED, name=r"C:\lib\{n}top.dll",
                  query="{n}.dll", files={r"C:\lib\{n}top.dll": ("top", "{n}.dll"), r"C:\lib\{n}.dll": X64,
                                          r"C:\app\{n}.dll": X64}))
    c.append(Case("altered: then System32", api="ex", flags=ALTERED, name=r"C:\lib\{n}top.dll",
                  query="{n}.dll", files={r"C:\lib\{n}top.dll": ("top", "{n}.dll"),
                                          r"C:\windows\system32\{n}.dll": X64, r"C:\p1\{n}.dll": X64}))
    c.append(Case("altered with a bare name: standard order", api="ex", flags=ALTERED,
                  files={r"C:\app\{n}.dll": X64, r"C:\p1\{n}.dll": X64}))
    c.append(Case("x86 import first: passed over, the x64 one from PATH", api="ll", name=r"C:\lib\{n}top.dll",
                  query="{n}.dll", files={r"C:\lib\{n}top.dll": ("top", "{n}.dll"), r"C:\app\{n}.dll": X86,
                                          r"C:\p1\{n}.dll": X64}, needs_x86=True))
    # ---- LOAD_LIBRARY_SEARCH_* ----
    c.append(Case("SEARCH_DLL_LOAD_DIR with a bare name: 87", api="ex", flags=DLL_DIR,
                  files={r"C:\app\{n}.dll": X64}))
    c.append(Case("SEARCH_DLL_LOAD_DIR with a system DLL's name: 87 first", api="ex", flags=DLL_DIR | SYS32,
                  name="ole32.dll"))
    c.append(Case("SEARCH_DLL_LOAD_DIR with an API set name: 87 first", api="ex", flags=DLL_DIR | DEFAULT,
                  name="api-ms-win-core-synch-l1-2-0.dll"))
    c.append(Case("SEARCH_DLL_LOAD_DIR: import from the DLL's dir", api="ex", flags=DLL_DIR,
                  name=r"C:\lib\{n}top.dll", query="{n}.dll",
                  files={r"C:\lib\{n}top.dll": ("top", "{n}.dll"), r"C:\lib\{n}.dll": X64}))
    c.append(Case("SEARCH_DLL_LOAD_DIR: nothing else searched", api="ex", flags=DLL_DIR,
                  name=r"C:\lib\{n}top.dll", query="{n}.dll",
                  files={r"C:\lib\{n}top.dll": ("top", "{n}.dll"), r"C:\app\{n}.dll": X64,
                         r"C:\windows\system32\{n}.dll": X64, r"C:\p1\{n}.dll": X64}))
    c.append(Case("SEARCH_DLL_LOAD_DIR|SYSTEM32: import of an import uses the first DLL's dir", api="ex",
                  flags=DLL_DIR | SYS32, name=r"C:\lib\{n}top.dll", query="{n}leaf.dll",
                  files={r"C:\lib\{n}top.dll": ("top", "{n}mid.dll"),
                         r"C:\windows\system32\{n}mid.dll": ("mid", "{n}leaf.dll"),
                         r"C:\lib\{n}leaf.dll": X64}))
    c.append(Case("SEARCH_APPLICATION_DIR", api="ex", flags=APP,
                  files={r"C:\app\{n}.dll": X64, r"C:\windows\system32\{n}.dll": X64}))
    c.append(Case("SEARCH_APPLICATION_DIR: no PATH", api="ex", flags=APP, files={r"C:\p1\{n}.dll": X64}))
    c.append(Case("SEARCH_SYSTEM32 only", api="ex", flags=SYS32,
                  files={r"C:\app\{n}.dll": X64, r"C:\windows\system32\{n}.dll": X64}))
    c.append(Case("SEARCH_SYSTEM32: no current dir", api="ex", flags=SYS32, files={r"C:\cwd\{n}.dll": X64}))
    c.append(Case("SEARCH_USER_DIRS: AddDllDirectory", api="ex", flags=USER, adddirs=[r"C:\u1"],
                  files={r"C:\u1\{n}.dll": X64, r"C:\app\{n}.dll": X64}))
    c.append(Case("SEARCH_USER_DIRS: SetDllDirectory counts", api="ex", flags=USER, setdll=r"C:\sd",
                  files={r"C:\sd\{n}.dll": X64}))
    c.append(Case("SEARCH_USER_DIRS: two dirs, one copy", api="ex", flags=USER, adddirs=[r"C:\u1", r"C:\u2"],
                  files={r"C:\u2\{n}.dll": X64}))
    c.append(Case("SEARCH_USER_DIRS: two dirs, two copies", api="ex", flags=USER, adddirs=[r"C:\u1", r"C:\u2"],
                  files={r"C:\u1\{n}.dll": X64, r"C:\u2\{n}.dll": X64},
                  exclude="Wine searches AddDllDirectory directories most recent first (LdrAddDllDirectory: "
                          "list_add_head); Windows documents the order as unspecified; the emulation uses call order"))
    c.append(Case("SEARCH_USER_DIRS: AddDllDirectory of a missing dir", api="ex", flags=USER,
                  adddirs=[r"C:\nothere", r"C:\u1"], files={r"C:\u1\{n}.dll": X64}))
    c.append(Case("SEARCH_DEFAULT_DIRS: app first", api="ex", flags=DEFAULT, adddirs=[r"C:\u1"],
                  files={r"C:\app\{n}.dll": X64, r"C:\u1\{n}.dll": X64, r"C:\windows\system32\{n}.dll": X64}))
    c.append(Case("SEARCH_DEFAULT_DIRS: user dirs before System32", api="ex", flags=DEFAULT, adddirs=[r"C:\u1"],
                  files={r"C:\u1\{n}.dll": X64, r"C:\windows\system32\{n}.dll": X64}))
    c.append(Case("SEARCH_DEFAULT_DIRS: not PATH, not the cwd, not the Windows dir", api="ex", flags=DEFAULT,
                  files={r"C:\p1\{n}.dll": X64, r"C:\cwd\{n}.dll": X64, r"C:\windows\{n}.dll": X64}))
    # ---- Python >= 3.8: LoadLibraryExW(pyd, DEFAULT_DIRS | DLL_LOAD_DIR) ----
    c.append(Case("python: a dependency only on PATH is not found", api="ex", flags=DEFAULT | DLL_DIR,
                  mode="python", name=r"C:\site\ext\{n}top.pyd", query="{n}.dll", path=r"C:\cudnn\bin",
                  files={r"C:\site\ext\{n}top.pyd": ("top", "{n}.dll"), r"C:\cudnn\bin\{n}.dll": X64}))
    c.append(Case("python: os.add_dll_directory", api="ex", flags=DEFAULT | DLL_DIR, mode="python",
                  name=r"C:\site\ext\{n}top.pyd", query="{n}.dll", adddirs=[r"C:\cudnn\bin"],
                  path=r"C:\cudnn\bin", files={r"C:\site\ext\{n}top.pyd": ("top", "{n}.dll"),
                                              r"C:\cudnn\bin\{n}.dll": X64}))
    c.append(Case("python: next to the module", api="ex", flags=DEFAULT | DLL_DIR, mode="python",
                  name=r"C:\site\ext\{n}top.pyd", query="{n}.dll",
                  files={r"C:\site\ext\{n}top.pyd": ("top", "{n}.dll"), r"C:\site\ext\{n}.dll": X64,
                         r"C:\app\{n}.dll": X64}))
    c.append(Case("python: the interpreter's dir", api="ex", flags=DEFAULT | DLL_DIR, mode="python",
                  name=r"C:\site\ext\{n}top.pyd", query="{n}.dll",
                  files={r"C:\site\ext\{n}top.pyd": ("top", "{n}.dll"), r"C:\app\{n}.dll": X64,
                         r"C:\windows\system32\{n}.dll": X64}))
    return c


# ---- the prefix ----------------------------------------------------------------------

def wine_env(prefix):
    env = dict(os.environ)
    env["WINEPREFIX"] = prefix
    env["WINEDEBUG"] = "-all"
    env["WINEDLLOVERRIDES"] = "mscoree,mshtml="
    env.pop("DISPLAY", None)
    return env


def read_registry(prefix):
    """KnownDLLs values and SafeDllSearchMode from system.reg (text)."""
    known, safe = None, None
    try:
        text = open(os.path.join(prefix, "system.reg"), encoding="utf-8", errors="replace").read()
    except OSError:
        return known, safe
    section = None
    for line in text.splitlines():
        if line.startswith("["):
            section = line.split("]")[0][1:].lower()
            if section == "system\\\\currentcontrolset\\\\control\\\\session manager\\\\knowndlls":
                known = []
            continue
        if section is None:
            continue
        if section == "system\\\\currentcontrolset\\\\control\\\\session manager\\\\knowndlls":
            m = re.match(r'^"([^"]*)"="([^"]*)"', line)
            if m and not m.group(1).lower().startswith("dlldirectory"):
                known.append(m.group(2))
        elif section == "system\\\\currentcontrolset\\\\control\\\\session manager":
            m = re.match(r'^"SafeDllSearchMode"=dword:([0-9a-fA-F]+)', line)
            if m:
                safe = int(m.group(1), 16) != 0
    return known, safe


def run(cmd, env=None, timeout=600, cwd=None):
    return subprocess.run(cmd, env=env, timeout=timeout, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)


def build(work, gcc64, gcc32, dlltool64, dlltool32):
    def cc(gcc, src_text, out, extra=(), entry="DllMain"):
        src = os.path.join(work, os.path.basename(out) + ".c")
        with open(src, "w") as f:
            f.write(src_text)
        p = run([gcc, "-O1", "-s", "-shared", "-nostdlib", "-Wl,-e," + entry, "-o", out, src] + list(extra))
        if p.returncode != 0:
            raise RuntimeError("%s: %s" % (out, p.stderr))

    out = {}
    out["x64"] = os.path.join(work, "mark64.dll")
    cc(gcc64, MARK_C, out["x64"])
    if gcc32:
        out["x86"] = os.path.join(work, "mark32.dll")
        cc(gcc32, MARK_C, out["x86"], entry="_DllMain@12")
    return out, lambda kind, dep: build_importer(work, gcc64, dlltool64, kind, dep)


_importers = {}


def build_importer(work, gcc64, dlltool64, kind, dep):
    """A DLL that imports ccmark (kind "top") or ccleaf ("mid", which exports
    ccmark) from the DLL named dep."""
    key = (kind, dep.lower())
    if key in _importers:
        return _importers[key]
    base = re.sub(r"[^A-Za-z0-9_]", "_", "%s_%s" % (kind, dep))
    d = os.path.join(work, base + ".def")
    lib = os.path.join(work, "lib" + base + ".a")
    with open(d, "w") as f:
        f.write("LIBRARY %s\nEXPORTS\n%s\n" % (dep, "ccmark" if kind == "top" else "ccleaf"))
    p = run([dlltool64, "-d", d, "-l", lib])
    if p.returncode != 0:
        raise RuntimeError("dlltool: %s" % p.stderr)
    src = os.path.join(work, base + ".c")
    with open(src, "w") as f:
        f.write(TOP_C if kind == "top" else MID_C)
    dll = os.path.join(work, base + ".dll")
    p = run([gcc64, "-O1", "-s", "-shared", "-nostdlib", "-Wl,-e,DllMain", "-o", dll, src, lib])
    if p.returncode != 0:
        raise RuntimeError("%s: %s" % (dll, p.stderr))
    _importers[key] = dll
    return dll


def host_path(drive_c, win):
    assert win[:3].upper() == "C:\\", win
    return os.path.join(drive_c, *win[3:].split("\\"))


def place(drive_c, win, what, marks, importer, case):
    dst = host_path(drive_c, case.sub(win))
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if what == "dir":
        os.makedirs(dst, exist_ok=True)
    elif what == "text":
        with open(dst, "w") as f:
            f.write("not a DLL\n")
    elif isinstance(what, tuple):
        shutil.copyfile(importer(what[0], case.sub(what[1])), dst)
    else:
        shutil.copyfile(marks[what], dst)


OWN_DIRS = ("app", "cwd", "p1", "p2", "p3", "u1", "u2", "sd", "lib", "site", "cudnn", "cuda", "elsewhere")


def clean(drive_c):
    """Remove what an earlier run (with --prefix) left: the directories this
    script owns, and its files in the Windows directories."""
    for d in OWN_DIRS:
        shutil.rmtree(os.path.join(drive_c, d), ignore_errors=True)
    for d in ("windows", os.path.join("windows", "system32"), os.path.join("windows", "system")):
        full = os.path.join(drive_c, d)
        if not os.path.isdir(full):
            continue
        for name in os.listdir(full):
            if name.lower().startswith("ccw"):
                path = os.path.join(full, name)
                if os.path.isdir(path) and not os.path.islink(path):
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    os.remove(path)


# ---- asking both sides -----------------------------------------------------------------

def loadlib_arg(case):
    return "|".join([case.n, case.api, "%x" % case.flags, case.cwd, case.sub(case.path), case.sub(case.setdll),
                     ";".join(case.sub(d) for d in case.adddirs), case.sub(case.name), case.sub(case.query)])


def ask_wine(wine, env, cases_):
    out = {}
    if not cases_:
        return out
    # Windows has a 32767-character command line: run in batches
    batch, size = [], 0
    batches = []
    for c in cases_:
        a = loadlib_arg(c)
        if batch and size + len(a) > 24000:
            batches.append(batch)
            batch, size = [], 0
        batch.append(a)
        size += len(a) + 3
    if batch:
        batches.append(batch)
    for b in batches:
        p = run([wine, r"C:\app\loadlib.exe"] + b, env=env, timeout=600)
        for line in p.stdout.splitlines():
            parts = line.rstrip("\r").split("\t")
            if len(parts) == 3:
                out[parts[0]] = (parts[1], parts[2])
    return out


def emu_args(case, drive_c, known, safe):
    a = ["--root", drive_c, "--set", "PATH=" + case.sub(case.path), "--set", "CD=" + case.cwd,
         "--set", r"SystemRoot=C:\windows", "--from", r"C:\app\loadlib.exe"]
    if case.mode != "knowndlls-windows":
        a += ["--known-dlls", ",".join(known) if known else "none"]
    a += ["--safe-search", "off" if case.safe == "off" else ("on" if safe is None or safe else "off")]
    if case.mode == "python":
        a += ["--win-mode", "python"]
    elif case.api == "ex" and case.flags & ALTERED:
        a += ["--win-mode", "altered"]
    elif case.api == "ex" and case.flags:
        a += ["--win-mode", "search",
              "--win-search", ",".join(n for bit, n in FLAG_NAMES if case.flags & bit)]
    for d in case.adddirs:
        a += ["--add-dll-dir", case.sub(d)]
    if case.setdll != "-":
        a += ["--set-dll-dir", case.sub(case.setdll)]
    return a


def ask_driver(driver, case, drive_c, known, safe):
    a = [driver] + emu_args(case, drive_c, known, safe)
    if case.query:
        a += ["--loading", case.sub(case.name), case.sub(case.query)]
    else:
        a += [case.sub(case.name)]
    p = run(a, timeout=120)
    parts = p.stdout.strip().split("\t")
    if p.returncode != 0 or len(parts) != 3:
        return ("ERR", "driver failed: " + (p.stderr.strip() or p.stdout.strip()))
    return (parts[1], parts[2])


def ask_cli(cli, case, drive_c, safe):
    a = [cli, "which", "--system", "windows", "--root", drive_c, "--json"]
    e = emu_args(case, drive_c, None, safe)
    i = 0
    while i < len(e):
        if e[i] == "--root":
            i += 2
            continue
        if e[i] == "--known-dlls":
            i += 2
            continue
        if e[i] == "--set-dll-dir" and e[i + 1] == "=":
            a += [e[i], ""]
            i += 2
            continue
        a += [e[i], e[i + 1]]
        i += 2
    a += [case.sub(case.name)]
    p = run(a, timeout=120)
    try:
        doc = json.loads(p.stdout)
        r = doc["results"][0]
    except (ValueError, KeyError, IndexError):
        return ("ERR", "cudnnctl which failed (%d): %s" % (p.returncode, p.stderr.strip()[:200]))
    if r.get("found"):
        return ("OK", r.get("path") or "(api-set)")
    return ("ERR", str(r.get("windows_error", 0)))


def norm(ans):
    kind, val = ans
    if kind == "OK":
        return ("OK", val.lower())
    return ans


def agree(wine_ans, emu_ans):
    if wine_ans is None:
        return False
    w, e = norm(wine_ans), norm(emu_ans)
    if w[0] == "OK" and e == ("OK", "(api-set)"):
        return True
    return w == e


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("--loadlib-src", required=True)
    ap.add_argument("--cudnnctl")
    ap.add_argument("--prefix")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    wine = shutil.which("wine") or ("/usr/lib/wine/wine64" if os.path.exists("/usr/lib/wine/wine64") else None)
    gcc64 = shutil.which("x86_64-w64-mingw32-gcc")
    dlltool64 = shutil.which("x86_64-w64-mingw32-dlltool")
    gcc32 = shutil.which("i686-w64-mingw32-gcc")
    wineboot = shutil.which("wineboot")
    if not wine or not gcc64 or not dlltool64:
        log("wine or x86_64-w64-mingw32-gcc/dlltool is missing; skipping")
        return 77
    if not os.path.exists(args.driver):
        log("the driver %s is missing" % args.driver)
        return 1

    work = tempfile.mkdtemp(prefix="cc-wine-loader-")
    prefix = os.path.abspath(args.prefix) if args.prefix else os.path.join(work, "pfx")
    env = wine_env(prefix)
    rc = 1
    try:
        if not os.path.exists(os.path.join(prefix, "system.reg")):
            log("creating the Wine prefix %s (wineboot -i, once)" % prefix)
            p = run([wineboot, "-i"] if wineboot else [wine, "wineboot", "-i"], env=env, timeout=900)
            if not os.path.exists(os.path.join(prefix, "system.reg")):
                log("wineboot failed (%d): %s" % (p.returncode, p.stderr[-2000:]))
                log("cannot create a Wine prefix; skipping")
                return 77
            run(["wineserver", "-w"], env=env, timeout=300) if shutil.which("wineserver") else None
        drive_c = os.path.join(prefix, "drive_c")
        known, safe = read_registry(prefix)
        log("Wine %s; prefix registry: KnownDLLs %s, SafeDllSearchMode %s" % (
            run([wine, "--version"], env=env).stdout.strip(),
            "absent" if known is None else "%d values" % len(known),
            "absent (Wine's default: on)" if safe is None else ("on" if safe else "off")))

        marks, importer = build(work, gcc64, gcc32, dlltool64, shutil.which("i686-w64-mingw32-dlltool"))
        exe = os.path.join(work, "loadlib.exe")
        p = run([gcc64, "-std=c11", "-O1", "-municode", "-o", exe, args.loadlib_src])
        if p.returncode != 0:
            log("cannot build loadlib.exe: %s" % p.stderr)
            return 1
        clean(drive_c)
        os.makedirs(host_path(drive_c, r"C:\app"), exist_ok=True)
        shutil.copyfile(exe, host_path(drive_c, r"C:\app\loadlib.exe"))
        for d in (r"C:\cwd", r"C:\p1", r"C:\p2", r"C:\p3", r"C:\u1", r"C:\u2", r"C:\sd", r"C:\lib",
                  r"C:\windows\system", r"C:\cudnn\bin", r"C:\cuda\bin"):
            os.makedirs(host_path(drive_c, d), exist_ok=True)

        todo = []
        skipped = 0
        for i, c in enumerate(cases()):
            c.n = "ccw%02d" % i
            c.name = c.name.replace("{N}", c.n.upper())
            if c.needs_x86 and "x86" not in marks:
                log("SKIP     %-60s (no i686-w64-mingw32-gcc)" % c.label)
                skipped += 1
                continue
            for win, what in c.files.items():
                place(drive_c, win, what, marks, importer, c)
            todo.append(c)

        answers = ask_wine(wine, env, [c for c in todo if c.safe != "off"])
        off = [c for c in todo if c.safe == "off"]
        if off:
            run([wine, "reg", "add", SESSION, "/v", "SafeDllSearchMode", "/t", "REG_DWORD", "/d", "0", "/f"],
                env=env)
            run(["wineserver", "-w"], env=env, timeout=120) if shutil.which("wineserver") else None
            answers.update(ask_wine(wine, env, off))
            run([wine, "reg", "delete", SESSION, "/v", "SafeDllSearchMode", "/f"], env=env)

        cli_ok = False
        if args.cudnnctl and os.path.exists(args.cudnnctl):
            cli_ok = run([args.cudnnctl, "which", "--help"]).returncode == 0
            log("cudnnctl which: %s" % ("available, compared too" if cli_ok else "not available yet"))

        compared = mismatches = excluded = 0
        for c in todo:
            w = answers.get(c.n)
            e = ask_driver(args.driver, c, drive_c, known, safe)
            ok = agree(w, e)
            wtxt = "%s %s" % w if w else "no answer"
            etxt = "%s %s" % e
            if c.exclude:
                excluded += 1
                log("EXCLUDED %-60s wine: %s | emulation: %s%s\n         reason: %s" % (
                    c.label, wtxt, etxt, " (they agree here)" if ok else "", c.exclude))
                continue
            compared += 1
            extra = ""
            if cli_ok and c.cli:
                ce = ask_cli(args.cudnnctl, c, drive_c, safe)
                if not agree(w, ce):
                    ok = False
                    extra = " | cudnnctl which: %s %s" % ce
                else:
                    extra = " | which agrees"
            if not ok:
                mismatches += 1
            if not ok or args.verbose:
                log("%s %-60s wine: %s | emulation: %s%s" % ("ok      " if ok else "MISMATCH", c.label, wtxt,
                                                              etxt, extra))
            else:
                log("ok       %-60s %s%s" % (c.label, wtxt, extra))
        log("%d cases compared, %d mismatches, %d excluded (known Wine differences), %d skipped" % (
            compared, mismatches, excluded, skipped))
        rc = 0 if mismatches == 0 and compared > 0 else 1
        return rc
    finally:
        if shutil.which("wineserver"):
            subprocess.run(["wineserver", "-k"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if args.keep:
            log("kept %s" % work)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
