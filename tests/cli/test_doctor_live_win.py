#!/usr/bin/env python3
"""The live doctor on Windows, under Wine: a prefix whose C: drive holds the
guide's layout (cuDNN 8 DLLs with zlibwapi.dll in a CUDA v11.4 folder,
C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.4\\bin), CUDA_PATH and
CUDA_PATH_V11_4 set in the machine's registry environment, and the user's
Path in the registry short, exactly 1024 characters (a setx cut), longer
than 2048, stored as REG_SZ with a %VAR% in it, and a shell whose PATH lacks
what the registry has. `cudnnctl.exe doctor --json` runs with no --root and no
--set: everything comes from the registry and the files.

Wine builds a new process's PATH from the registry as Windows does (the
machine's Path, then the user's, REG_EXPAND_SZ expanded), so a shell older
than the registry is made with cmd's `set PATH=...` before the tool starts.

The registry values are put back as they were, and the folder is removed.

usage: test_doctor_live_win.py --exe CUDNNCTL.EXE --fixtures DIR --wrapper WINE
Exits 77 (skipped) without Wine or without the Windows fixtures.
"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

CUDA = "Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.4"


def main():
    args = cliutil.parser(fixtures=True, wrapper=True).parse_args()
    parts = os.path.join(args.fixtures, "doctor-win")
    if not os.path.isdir(os.path.join(parts, "v8-8.6.0.163")):
        print("skip: no Windows doctor fixtures (%s)" % parts)
        return 77
    if not args.wrapper or cliutil.wrapper_missing(args.wrapper):
        print("skip: the live doctor changes the registry: only under Wine (--wrapper)")
        return 77
    prefix = os.environ.get("WINEPREFIX") or os.path.expanduser("~/.wine")
    wr = cliutil.WinRun(args.wrapper, args.exe, drop=("CUDNNCTL_TEST_FAULT", "CUDA_PATH"))
    run = wr.run
    exe = cliutil.wine_path(args.exe)

    def doctor(shell_path=None):
        """doctor --json's document (rc, doc, stderr); with shell_path, started from a cmd whose PATH is that."""
        argv = [exe, "doctor", "--json", "--no-frameworks"]
        if shell_path is not None:
            argv = ["cmd", "/c", "set", "PATH=%s" % shell_path, "&&"] + argv
        rc, out, err = wr.again_if_silent(*argv)
        doc = cliutil.jdoc(out)
        return rc, doc, err if doc else err + out[-300:]

    def ids(doc):
        return [f.get("id") for f in doc.get("findings", [])]

    def finding(doc, fid):
        return next((f for f in doc.get("findings", []) if f.get("id") == fid), None)

    def reg_path(doc, hive):
        return next((r for r in (doc.get("facts", {}).get("host", {}).get("registry_path") or [])
                     if r.get("key", "").startswith(hive)), {})

    c = cliutil.Checks(limit=200)
    work = tempfile.mkdtemp(prefix="cc-doclive-")
    reg = cliutil.WineReg(run, work, cliutil.wine_path)
    top = os.path.join(prefix, "drive_c", "Program Files", "NVIDIA GPU Computing Toolkit")
    made_top = not os.path.exists(top)
    cuda = os.path.join(prefix, "drive_c", *CUDA.split("\\"))
    saved = {}
    try:
        # the guide's layout: cuDNN 8's DLLs, zlibwapi.dll and the headers copied into the toolkit's folders
        os.makedirs(os.path.join(cuda, "bin"), exist_ok=True)
        for d in ("v8-8.6.0.163", "zlib-x64"):
            for f in sorted(os.listdir(os.path.join(parts, d))):
                shutil.copy(os.path.join(parts, d, f), os.path.join(cuda, "bin", f))
        os.makedirs(os.path.join(cuda, "include"), exist_ok=True)
        with open(os.path.join(cuda, "include", "cudnn_version.h"), "w") as fh:
            fh.write("#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 6\n#define CUDNN_PATCHLEVEL 0\n")
        with open(os.path.join(cuda, "include", "cudnn.h"), "w") as fh:
            fh.write("#include \"cudnn_version.h\"\n")
        with open(os.path.join(cuda, "version.json"), "w") as fh:
            fh.write('{"cuda": {"name": "CUDA SDK", "version": "11.4.4"}}\n')
        cbin = "C:\\" + CUDA + "\\bin"

        for key, name in ((reg.MACHINE, "Path"), (reg.MACHINE, "CUDA_PATH"), (reg.MACHINE, "CUDA_PATH_V11_4"),
                          (reg.USER, "Path")):
            saved[(key, name)] = reg.get(key, name)
        mach = reg.text_of(saved[(reg.MACHINE, "Path")])
        c.named("the machine's Path read from the prefix", bool(mach), saved[(reg.MACHINE, "Path")])
        c.named("CUDA_PATH and CUDA_PATH_V11_4 set in the machine's environment",
                reg.set(reg.MACHINE, "CUDA_PATH", "REG_SZ", "C:\\" + CUDA) and
                reg.set(reg.MACHINE, "CUDA_PATH_V11_4", "REG_SZ", "C:\\" + CUDA))
        # the installer's way: the toolkit's bin first in the machine's Path, with %CUDA_PATH% expanded
        c.named("the machine's Path has %CUDA_PATH%\\bin (REG_EXPAND_SZ)",
                reg.set(reg.MACHINE, "Path", "REG_EXPAND_SZ", "%CUDA_PATH%\\bin;" + mach))

        # 1. a short user Path: the facts say type and expansion; cuDNN is found through PATH
        reg.set(reg.USER, "Path", "REG_EXPAND_SZ", "%USERPROFILE%\\bin;C:\\tools")
        rc, doc, err = doctor()
        u, m = reg_path(doc, "HKCU"), reg_path(doc, "HKLM")
        c.named("short: the document parses", bool(doc), err[-300:])
        c.named("short: the user's Path with its type, length and expansion",
                u.get("type") == "REG_EXPAND_SZ" and u.get("length") == len("%USERPROFILE%\\bin;C:\\tools") and
                "%" not in (u.get("expanded") or "%") and u.get("expanded", "").endswith("\\bin;C:\\tools"), u)
        c.named("short: the machine's Path expanded from CUDA_PATH",
                m.get("type") == "REG_EXPAND_SZ" and (m.get("expanded") or "").lower().startswith(cbin.lower()), m)
        env_f = doc.get("facts", {}).get("host", {}).get("env", {})
        c.named("short: CUDA_PATH and CUDA_PATH_V11_4 from the registry in the process",
                env_f.get("CUDA_PATH", "").lower() == ("C:\\" + CUDA).lower() and
                env_f.get("CUDA_PATH_V11_4", "").lower() == ("C:\\" + CUDA).lower(), env_f)
        insts = doc.get("facts", {}).get("list", {}).get("installations", [])
        v114 = [i for i in insts if (i.get("prefix") or "").lower().endswith("cuda\\v11.4")]
        c.named("short: the cuDNN 8.6.0 in CUDA v11.4 found", len(v114) == 1 and v114[0].get("version") == "8.6.0",
                [(i.get("prefix"), i.get("version")) for i in insts])
        tks = doc.get("facts", {}).get("host", {}).get("toolkits", [])
        c.named("short: the toolkit 11.4 read", any((t.get("version") or "").startswith("11.4") for t in tks),
                [(t.get("prefix"), t.get("version")) for t in tks])
        res = next((r for r in doc.get("facts", {}).get("which", {}).get("results") or []
                    if r.get("name") == "cudnn64_8.dll"), {})
        c.named("short: a plain program loads cudnn64_8.dll from the toolkit's bin (PATH)",
                res.get("found") and (res.get("path") or "").lower().startswith(cbin.lower()),
                (res.get("name"), res.get("path"), res.get("how")))
        c.named("short: none of the Path findings",
                not {"win-setx-truncation", "win-path-long", "win-path-stale-shell",
                     "win-path-not-expanded"} & set(ids(doc)), ids(doc))

        # 2. exactly 1024 characters: what setx leaves
        cut = (";".join("C:\\Tools\\t%03d" % i for i in range(120)))[:1024]
        reg.set(reg.USER, "Path", "REG_SZ", cut)
        rc, doc, err = doctor()
        f = finding(doc, "win-setx-truncation")
        c.named("1024: win-setx-truncation for the user's Path",
                f is not None and (f.get("evidence") or {}).get("cut") == "user" and
                (f.get("evidence") or {}).get("length") == 1024, (ids(doc), err[-200:]))
        c.named("1024: not a long Path", finding(doc, "win-path-long") is None, ids(doc))
        c.named("1024: the facts say REG_SZ, 1024", reg_path(doc, "HKCU").get("type") == "REG_SZ" and
                reg_path(doc, "HKCU").get("length") == 1024, reg_path(doc, "HKCU").get("length"))

        # 3. longer than 2048: whole, but too long for the dialog
        long_ = ";".join("C:\\Program Files\\Vendor%03d\\bin" % i for i in range(80))
        reg.set(reg.USER, "Path", "REG_EXPAND_SZ", long_)
        rc, doc, err = doctor()
        f = finding(doc, "win-path-long")
        c.named("%d characters: win-path-long (a note) for the user's Path" % len(long_),
                len(long_) > 2048 and f is not None and f.get("severity") == "info" and
                (f.get("evidence") or {}).get("length") == len(long_) and
                (f.get("evidence") or {}).get("key", "").startswith("HKCU"), (ids(doc), err[-200:]))
        c.named("%d characters: no setx cut" % len(long_), finding(doc, "win-setx-truncation") is None, ids(doc))
        # Windows 10 gives a new process all of it; Wine (as Windows XP did) cuts the environment's PATH near
        # 1024 characters: then the doctor must say it was cut, not that the shell is old
        f = finding(doc, "win-path-stale-shell")
        ev = (f or {}).get("evidence") or {}
        c.named("%d characters: the process's PATH whole, or said to be cut (not an older shell)" % len(long_),
                f is None or (ev.get("cause") == "cut" and ev.get("process_length", 0) < len(long_) and
                              "cut" in f.get("summary", "")), (f or {}).get("summary"))

        # 4. REG_SZ with a %VAR%: Windows (and Wine) take it as written
        reg.set(reg.USER, "Path", "REG_SZ", "%USERPROFILE%\\bin;C:\\tools")
        rc, doc, err = doctor()
        f = finding(doc, "win-path-not-expanded")
        c.named("REG_SZ with %USERPROFILE%: win-path-not-expanded",
                f is not None and (f.get("evidence") or {}).get("entries") == ["%USERPROFILE%\\bin"] and
                reg_path(doc, "HKCU").get("expanded") == "%USERPROFILE%\\bin;C:\\tools", (ids(doc), err[-200:]))
        c.named("REG_SZ with %USERPROFILE%: the process's PATH has it as written (no stale shell)",
                finding(doc, "win-path-stale-shell") is None, ids(doc))

        # 5. a shell opened before the install: its PATH lacks the toolkit's bin the registry has now
        reg.set(reg.USER, "Path", "REG_EXPAND_SZ", "C:\\tools")
        rc, doc, err = doctor(shell_path="C:\\windows\\system32;C:\\windows;C:\\tools")
        f = finding(doc, "win-path-stale-shell")
        missing = [(m.get("entry") or "").lower() for m in ((f or {}).get("evidence") or {}).get("missing", [])]
        c.named("stale shell: win-path-stale-shell names the toolkit's bin",
                f is not None and cbin.lower() in missing and "c:\\tools" not in missing and
                f["evidence"].get("cause") == "older-shell", (ids(doc), missing))
        res = next((r for r in doc.get("facts", {}).get("which", {}).get("results") or []
                    if r.get("name") == "cudnn64_8.dll"), {})
        c.named("stale shell: and indeed a plain program started from it finds no cudnn64_8.dll",
                not res.get("found"), (res.get("path"), res.get("how")))
        rc, doc, err = doctor()
        c.named("a new shell: no stale-shell finding", bool(doc) and finding(doc, "win-path-stale-shell") is None,
                ids(doc))
    finally:
        try:
            for (key, name), val in saved.items():
                reg.restore(key, val, name)
        finally:
            shutil.rmtree(top if made_top else cuda, ignore_errors=True)
            if not os.environ.get("CUDNNCTL_KEEP_TEMP"):
                shutil.rmtree(work, ignore_errors=True)
    return c.summary("doctor (live, Windows)", need_passes=True)


if __name__ == "__main__":
    sys.exit(main())
