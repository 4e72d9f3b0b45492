#!/usr/bin/env python3
"""cudnnctl list on Windows: the uninstall entries of NVIDIA's CUDA and cuDNN
installers in the registry (HKLM and HKCU ...\\CurrentVersion\\Uninstall\\*)
as provenance, under Wine (or natively).

Two copies of the mingw-w64 cuDNN 9 stub installation (fixtures/gen-probe.sh,
probe/win/installs/v9-ok) in the prefix's C: drive: one in a directory of its
own (C:\\cc-list-win\\Tools\\cuDNN, found only through its entry), one copied
into a CUDA 11.4 toolkit's standard directory. Entries imported through a
.reg file (each value's type exactly):
  - "NVIDIA cuDNN 9.1" with InstallLocation the first copy (quoted, a
    trailing separator): a root with the entry as its source, matched by
    install-location;
  - "NVIDIA CUDA Toolkit 11.4" without InstallLocation, "NVIDIA CUDA Runtime
    11.4" in the 32-bit view (WOW6432Node) with an empty one, and "NVIDIA
    CUDA Development 11.4" whose InstallLocation is a DWORD: matched by the
    standard path, the toolkit's shown first;
  - an entry of another publisher naming CUDA 11.4 and the toolkit's
    directory: ignored;
  - hostile ones: a DisplayName of 40,000 characters, a DisplayName that is a
    DWORD, no DisplayName at all (each with the first copy's location):
    skipped, no crash;
  - "NVIDIA cuDNN 9.0" in HKCU whose InstallLocation does not exist: a root
    in state missing, no installation.
Text output says "installed by ...". The keys and directories made are
removed at the end.

usage: test_list_win.py --exe CUDNNCTL.EXE --fixtures DIR [--wrapper=WINE]
exit 77: no Windows probe fixtures, or no Wine
"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

UNINST = "SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Uninstall"
HKLM = "HKEY_LOCAL_MACHINE\\" + UNINST
HKLM32 = "HKEY_LOCAL_MACHINE\\SOFTWARE\\WOW6432Node\\Microsoft\\Windows\\CurrentVersion\\Uninstall"
HKCU = "HKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall"
TOOLKIT = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.4"
OWN = "C:\\cc-list-win\\Tools\\cuDNN"
GONE = "C:\\cc-list-win\\Gone\\cuDNN"


def reg_text(value):
    """A value as a .reg file writes it: ("sz", text) or ("dword", n)."""
    kind, v = value
    if kind == "dword":
        return "dword:%08x" % v
    return '"%s"' % v.replace("\\", "\\\\").replace('"', '\\"')


def same(a, b):
    return (a or "").rstrip("\\").lower() == (b or "").rstrip("\\").lower()


def main():
    args = cliutil.parser(fixtures=True, wrapper=True).parse_args()
    src = os.path.join(args.fixtures, "probe", "win", "installs", "v9-ok")
    if not os.path.isdir(src):
        print("skip: no Windows probe fixtures (%s)" % src)
        return 77
    if cliutil.wrapper_missing(args.wrapper):
        print("skip: no %s" % args.wrapper)
        return 77
    wr = cliutil.WinRun(args.wrapper, args.exe, drop=("CUDA_PATH", "CUDNN_PATH", "CUDNN_HOME", "CUDA_HOME"))
    run, tool, jdoc = wr.run, wr.tool, cliutil.jdoc

    if args.wrapper:
        drive_c = os.path.join(os.environ.get("WINEPREFIX") or os.path.expanduser("~/.wine"), "drive_c")
    else:
        drive_c = (os.environ.get("SystemDrive") or "C:") + "\\"

    def host(winpath):
        """Where C:\\... lies on this machine."""
        rel = winpath[3:].replace("\\", os.sep)
        return os.path.join(drive_c, rel)

    def native(p):
        return cliutil.wine_path(p) if args.wrapper else os.path.abspath(p)

    entries = {
        HKLM + "\\cc-test-cudnn": {
            "DisplayName": ("sz", "NVIDIA cuDNN 9.1"), "DisplayVersion": ("sz", "9.1.0.70"),
            "Publisher": ("sz", "NVIDIA Corporation"), "InstallLocation": ("sz", '"%s\\"' % OWN)},
        HKLM + "\\cc-test-toolkit": {
            "DisplayName": ("sz", "NVIDIA CUDA Toolkit 11.4"), "DisplayVersion": ("sz", "11.4"),
            "Publisher": ("sz", "NVIDIA Corporation")},
        HKLM32 + "\\cc-test-runtime": {
            "DisplayName": ("sz", "NVIDIA CUDA Runtime 11.4"), "DisplayVersion": ("sz", "11.4"),
            "Publisher": ("sz", "NVIDIA Corporation"), "InstallLocation": ("sz", "")},
        HKLM + "\\cc-test-development": {
            "DisplayName": ("sz", "NVIDIA CUDA Development 11.4"), "Publisher": ("sz", "NVIDIA Corporation"),
            "InstallLocation": ("dword", 7)},
        HKLM + "\\cc-test-other": {
            "DisplayName": ("sz", "Contoso CUDA Helper 11.4"), "DisplayVersion": ("sz", "11.4"),
            "Publisher": ("sz", "Contoso Ltd."), "InstallLocation": ("sz", TOOLKIT)},
        HKLM + "\\cc-test-long": {
            "DisplayName": ("sz", "NVIDIA cuDNN 9.1 " + "x" * (40000 - 17)),
            "Publisher": ("sz", "NVIDIA Corporation"), "InstallLocation": ("sz", OWN)},
        HKLM + "\\cc-test-dword": {
            "DisplayName": ("dword", 1), "Publisher": ("sz", "NVIDIA Corporation"),
            "InstallLocation": ("sz", OWN)},
        HKLM + "\\cc-test-noname": {
            "Publisher": ("sz", "NVIDIA Corporation"), "DisplayVersion": ("sz", "9.1.0.70"),
            "InstallLocation": ("sz", OWN)},
        HKCU + "\\cc-test-gone": {
            "DisplayName": ("sz", "NVIDIA cuDNN 9.0"), "Publisher": ("sz", "NVIDIA Corporation"),
            "InstallLocation": ("sz", GONE)},
    }

    c = cliutil.Checks(limit=600)
    work = tempfile.mkdtemp(prefix="cc-listwin-")
    made = [host("C:\\cc-list-win"), host(TOOLKIT)]
    toolkit_existed = os.path.exists(host(TOOLKIT))
    try:
        if toolkit_existed:
            print("skip: %s exists in this prefix already" % TOOLKIT)
            return 77
        for k in entries:  # leftovers of an interrupted run
            run("reg", "delete", k, "/f")
        shutil.copytree(src, host(OWN))
        os.remove(os.path.join(host(OWN), "bin", "cudart64_13.dll"))  # a cuDNN directory, not a toolkit's
        shutil.copytree(src, host(TOOLKIT))
        body = "\ufeffWindows Registry Editor Version 5.00\r\n"
        for k, vals in entries.items():
            body += "\r\n[%s]\r\n" % k
            for n, v in vals.items():
                body += '"%s"=%s\r\n' % (n, reg_text(v))
        f = os.path.join(work, "entries.reg")
        with open(f, "wb") as fh:
            fh.write(body.encode("utf-16-le"))
        rc, out, err = run("reg", "import", native(f))
        c.named("the uninstall entries imported", rc == 0, (rc, err[-300:]))
        rc, out, err = run("reg", "query", HKLM + "\\cc-test-long", "/v", "DisplayName")
        c.named("the 40,000-character DisplayName is in the registry", rc == 0 and len(out) > 40000,
                (rc, len(out)))

        rc, out, err = tool("list", "--json")
        d = jdoc(out)
        c.named("list --json runs (the hostile entries crash nothing)", rc == 0 and d, (rc, err[-500:], out[:300]))
        insts = d.get("installations", [])
        roots = d.get("roots", [])

        def inst_at(path):
            return next((i for i in insts if same(i.get("prefix"), path)), None)

        def root_at(path):
            return next((r for r in roots if same(r.get("path"), path)), None)

        def names(inst):
            return [e.get("name") for e in ((inst or {}).get("provenance") or {}).get("uninstall_entries", [])]

        own = inst_at(OWN)
        r = root_at(OWN)
        c.named("the cuDNN entry's location is a root whose source names the entry",
                r is not None and r.get("state") == "searched"
                and any(s.startswith("uninstall entry NVIDIA cuDNN 9.1 (HKLM\\" + UNINST + "\\cc-test-cudnn")
                        for s in r.get("sources", [])), r or [x.get("path") for x in roots])
        c.named("the copy found only through its entry is an installation", own is not None,
                [i.get("prefix") for i in insts])
        ue = ((own or {}).get("provenance") or {}).get("uninstall_entries", [])
        c.named("its provenance: the cuDNN entry alone (hostile entries skipped), by install-location",
                len(ue) == 1 and ue[0].get("name") == "NVIDIA cuDNN 9.1" and ue[0].get("version") == "9.1.0.70"
                and ue[0].get("publisher") == "NVIDIA Corporation" and same(ue[0].get("location"), OWN)
                and ue[0].get("key") == "HKLM\\" + UNINST + "\\cc-test-cudnn"
                and ue[0].get("matched_by") == "install-location", ue)
        c.named("its kind: windows-installer (its entry says so), not a hand copy",
                ((own or {}).get("provenance") or {}).get("kind") == "windows-installer",
                ((own or {}).get("provenance") or {}).get("kind"))

        tk = inst_at(TOOLKIT)
        ue = ((tk or {}).get("provenance") or {}).get("uninstall_entries", [])
        c.named("the toolkit's copy is an installation", tk is not None, [i.get("prefix") for i in insts])
        c.named("the toolkit's entries by the standard path, the toolkit first, then Development, Runtime",
                names(tk) == ["NVIDIA CUDA Toolkit 11.4", "NVIDIA CUDA Development 11.4", "NVIDIA CUDA Runtime 11.4"]
                and all(e.get("matched_by") == "standard-path" and e.get("location") is None for e in ue), ue)
        c.named("the Runtime entry came from the 32-bit view",
                any(e.get("key", "").startswith("HKLM\\SOFTWARE\\WOW6432Node\\") for e in ue), ue)
        everything = [n for i in insts for n in names(i)]
        c.named("another publisher's CUDA entry is ignored", "Contoso CUDA Helper 11.4" not in everything, everything)
        c.named("the hostile entries are in no provenance",
                not any(n and (len(n) > 1000 or n.startswith("NVIDIA cuDNN 9.1 x")) for n in everything)
                and everything.count("NVIDIA cuDNN 9.1") == 1, everything)
        r = root_at(GONE)
        c.named("the entry whose location does not exist: a missing root naming it (HKCU), no installation",
                r is not None and r.get("state") == "missing"
                and any(s.startswith("uninstall entry NVIDIA cuDNN 9.0 (HKCU\\") for s in r.get("sources", []))
                and inst_at(GONE) is None, r)
        c.named("no root from a hostile or foreign entry",
                not any(any("cc-test-long" in s or "cc-test-dword" in s or "cc-test-noname" in s
                            or "cc-test-other" in s for s in x.get("sources", [])) for x in roots),
                [x.get("sources") for x in roots if "uninstall" in json.dumps(x.get("sources"))])

        rc, out, err = tool("list")
        c.named("list: 'installed by' names the cuDNN entry with its version",
                rc == 0 and "installed by NVIDIA cuDNN 9.1 (9.1.0.70), uninstall entry" in out, out[-1500:])
        c.named("list: the toolkit's entries, the toolkit first",
                "installed by NVIDIA CUDA Toolkit 11.4 (11.4), uninstall entries; also NVIDIA CUDA Development 11.4, "
                "NVIDIA CUDA Runtime 11.4" in out, out[-1500:])
        rc, out, err = tool("list", "--verbose")
        c.named("list --verbose: each entry's key",
                rc == 0 and "HKLM\\" + UNINST + "\\cc-test-toolkit" in out and "standard directory" in out,
                out[-1500:])
    finally:
        try:
            for k in entries:
                run("reg", "delete", k, "/f")
            left = [k for k in entries if run("reg", "query", k)[0] == 0]
            c.named("the registry restored: every key made is gone", not left, left)
        finally:
            if not toolkit_existed:
                for p in made:
                    shutil.rmtree(p, ignore_errors=True)
                # the parents made for the toolkit, when empty
                for p in (os.path.dirname(host(TOOLKIT)), os.path.dirname(os.path.dirname(host(TOOLKIT)))):
                    try:
                        os.rmdir(p)
                    except OSError:
                        pass
            if not os.environ.get("CUDNNCTL_KEEP_TEMP"):
                shutil.rmtree(work, ignore_errors=True)
    return c.summary("list (Windows)", need_passes=True)


if __name__ == "__main__":
    sys.exit(main())
