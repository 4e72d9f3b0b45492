#!/usr/bin/env python3
"""The release packages scripts/release.sh makes (CPack, CMakeLists.txt's "Release packages"), as a user gets
them:
  - cudnnctl-<version>-windows-x86_64.zip: exactly its members; cudnnctl.exe a PE32+ x86-64 console program
    whose imports (python3-pefile, and the packaged Linux cudnnctl's `inspect` of it, which must agree) are
    Windows' own DLLs only, stripped; cudnnctl.txt plain ASCII text (no backspace overstrikes, no ESC
    sequences), the Linux package's manual page rendered the same way; the PowerShell completion the Linux
    package's; LICENSE and README.md the repository's; THIRD-PARTY.txt with the notices of what is linked in;
  - cudnnctl-<version>-linux-x86_64.tar.gz: exactly its tree (files, modes, links), and its cudnnctl runs;
  - cudnnctl_<version>_amd64.deb: dpkg-deb --info (name, version, amd64, Depends with libc6 and without the
    libraries opened with dlopen, which are Recommends), its contents the tar.gz's under /usr, its shlibs; the
    extracted cudnnctl says its version and the extracted libcudnnctl.so answers cudnnctl_version();
  - with --wrapper (Wine): the zip unpacked into an empty directory, its cudnnctl.exe --version, and
    `doctor --json` on a prepared machine: the cuDNN 9 stub installation and stub driver of the probe fixtures
    (fixtures/gen-probe.sh, as test_verify_win.py uses them) on the Windows PATH; the document parses, has the
    eight areas in order, and found that installation.

Not a CTest test of the build (the packages are not made there): .ci/run runs it after scripts/release.sh.

usage: test_release.py --packages DIR [--source DIR] [--version V] [--fixtures DIR] [--wrapper WINE]
"""
import argparse
import ctypes
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

CHECKS = cliutil.Checks(limit=1500)
named = CHECKS.named

# What Windows itself has (System32); a DLL of a compiler's run time (libgcc_s_seh-1.dll, libwinpthread-1.dll),
# zlib1.dll or libarchive.dll would have to be shipped.
SYSTEM_DLLS = {"kernel32.dll", "advapi32.dll", "user32.dll", "psapi.dll", "winhttp.dll", "msvcrt.dll",
               "ucrtbase.dll", "shell32.dll", "ole32.dll", "oleaut32.dll", "ws2_32.dll", "bcrypt.dll", "crypt32.dll",
               "ntdll.dll", "version.dll", "shlwapi.dll", "secur32.dll", "userenv.dll", "gdi32.dll", "rpcrt4.dll"}
AREAS = ["driver", "toolkit", "cudnn", "loader", "headers", "runtime", "hygiene", "frameworks"]
DLOPENED = ("libarchive", "liblzma", "libcurl")  # CUDNNCTL_DLOPEN: Recommends, never Depends


def project_version(source):
    with open(os.path.join(source, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(cudnnctl VERSION ([0-9.]+)", f.read())
    return m.group(1) if m else None


def read(path):
    with open(path, "rb") as f:
        return f.read()


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=300,
                       **kw)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def linux_tree(version):
    """The installed tree (relative to the prefix): path -> ("file", mode) or ("link", target)."""
    so = "libcudnnctl.so." + version
    return {
        "bin/cudnnctl": ("file", 0o755),
        "lib/" + so: ("file", 0o644),
        "lib/libcudnnctl.so.0": ("link", so),
        "lib/libcudnnctl.so": ("link", "libcudnnctl.so.0"),
        "include/cudnnctl/cudnnctl.h": ("file", 0o644),
        "include/cudnnctl/report.h": ("file", 0o644),
        "share/man/man1/cudnnctl.1": ("file", 0o644),
        "share/bash-completion/completions/cudnnctl": ("file", 0o644),
        "share/zsh/site-functions/_cudnnctl": ("file", 0o644),
        "share/fish/vendor_completions.d/cudnnctl.fish": ("file", 0o644),
        "share/cudnnctl/cudnnctl.ps1": ("file", 0o644),
        "share/doc/cudnnctl/LICENSE": ("file", 0o644),
        "share/doc/cudnnctl/README.md": ("file", 0o644),
    }


def members_of_tar(tf, top):
    """(tree like linux_tree(), problems): the members below top, and what is not (absolute, .., elsewhere)."""
    tree, bad = {}, []
    for m in tf.getmembers():
        name = m.name[2:] if m.name.startswith("./") else m.name
        if name.startswith("/") or ".." in name.split("/") or not (name == top or name.startswith(top + "/")):
            bad.append(m.name)
            continue
        rel = name[len(top) + 1:]
        if m.isdir() or not rel:
            continue
        if m.issym():
            tree[rel] = ("link", m.linkname)
        elif m.isfile():
            tree[rel] = ("file", m.mode & 0o7777)
        else:
            bad.append(m.name)
    return tree, bad


def check_tar(path, version, work):
    top = "cudnnctl-%s-linux-x86_64" % version
    with tarfile.open(path, "r:gz") as tf:
        tree, bad = members_of_tar(tf, top)
        want = linux_tree(version)
        named("tar.gz: every member below %s/ (nothing absolute, no .., no device)" % top, not bad, bad)
        named("tar.gz: exactly the installed tree (files, modes, links)", tree == want,
              {"missing": sorted(set(want) - set(tree)), "extra": sorted(set(tree) - set(want)),
               "differ": {k: (tree[k], want[k]) for k in tree if k in want and tree[k] != want[k]}})
        dest = os.path.join(work, "tgz")
        os.makedirs(dest)
        for m in tf.getmembers():
            if m.name in bad:
                continue
            tf.extract(m, dest, set_attrs=True)
    exe = os.path.join(dest, top, "bin", "cudnnctl")
    rc, out, err = run([exe, "--version"]) if os.path.isfile(exe) else (None, "", "absent")
    named("tar.gz: bin/cudnnctl --version says cudnnctl %s" % version,
          rc == 0 and out.startswith("cudnnctl %s " % version), (rc, out, err[-300:]))
    return os.path.join(dest, top)


def deb_field(path, field):
    rc, out, err = run(["dpkg-deb", "-f", path, field])
    return out.strip() if rc == 0 else None


def check_deb(path, version, work, tgz_root):
    rc, info, err = run(["dpkg-deb", "--info", path])
    named("dpkg-deb --info reads the .deb", rc == 0 and "Package: cudnnctl" in info, (rc, err[-300:]))
    print(info.rstrip())
    named("deb: Package cudnnctl, Version %s, Architecture amd64" % version,
          (deb_field(path, "Package"), deb_field(path, "Version"), deb_field(path, "Architecture"))
          == ("cudnnctl", version, "amd64"), info)
    depends = deb_field(path, "Depends") or ""
    recommends = deb_field(path, "Recommends") or ""
    named("deb: Depends names libc6 (dpkg-shlibdeps)", re.search(r"(^|, )libc6( |,|$)", depends) is not None, depends)
    named("deb: Depends names none of the libraries opened with dlopen (%s)" % ", ".join(DLOPENED),
          not any(d in depends for d in DLOPENED), depends)
    named("deb: Recommends names each of them", all(d in recommends for d in DLOPENED), recommends)
    named("deb: Maintainer, Section and a two-part Description",
          bool(deb_field(path, "Maintainer")) and bool(deb_field(path, "Section"))
          and len((deb_field(path, "Description") or "").splitlines()) > 1, info)

    rc, listing, err = run(["dpkg-deb", "--contents", path])
    tree, odd = {}, []
    for line in listing.splitlines():
        # drwxr-xr-x root/root 0 2026-01-01 00:00 ./usr/bin/ ; lrwxrwxrwx ... ./usr/lib/x.so -> x.so.0
        w = line.split(None, 5)
        if len(w) < 6:
            odd.append(line)
            continue
        mode, owner, name = w[0], w[1], w[5]
        if owner != "root/root":
            odd.append(line)
        target = None
        if " -> " in name:
            name, target = name.split(" -> ", 1)
        if not name.startswith("./usr/"):
            odd.append(line)
            continue
        rel = name[len("./usr/"):]
        if mode.startswith("d"):
            continue
        if mode.startswith("l"):
            tree[rel] = ("link", target)
        else:
            bits = sum(1 << (8 - i) for i, ch in enumerate(mode[1:10]) if ch != "-")
            tree[rel] = ("file", bits)
    want = linux_tree(version)
    named("dpkg-deb --contents: owned by root, all under /usr", rc == 0 and not odd, (rc, odd[:5], err[-300:]))
    named("deb: the files are the installed tree under /usr (as the tar.gz's)", tree == want,
          {"missing": sorted(set(want) - set(tree)), "extra": sorted(set(tree) - set(want))})

    ctl = os.path.join(work, "deb-control")
    rc, out, err = run(["dpkg-deb", "-e", path, ctl])
    shlibs = read(os.path.join(ctl, "shlibs")).decode() if os.path.isfile(os.path.join(ctl, "shlibs")) else ""
    named("deb: shlibs says libcudnnctl 0 comes from cudnnctl (= %s)" % version,
          shlibs.strip() == "libcudnnctl 0 cudnnctl (= %s)" % version, (rc, shlibs, err[-200:]))

    dest = os.path.join(work, "deb")
    rc, out, err = run(["dpkg-deb", "-x", path, dest])
    named("dpkg-deb -x unpacks it", rc == 0, err[-300:])
    exe = os.path.join(dest, "usr", "bin", "cudnnctl")
    rc, out, err = run([exe, "--version"]) if os.path.isfile(exe) else (None, "", "absent")
    named("deb: the extracted usr/bin/cudnnctl --version says cudnnctl %s" % version,
          rc == 0 and out.startswith("cudnnctl %s " % version), (rc, out, err[-300:]))
    rc, out, err = run(["file", "-L", exe])
    named("deb: cudnnctl is an x86-64 ELF program, stripped", "ELF 64-bit" in out and "x86-64" in out
          and ", stripped" in out, out)
    lib = os.path.join(dest, "usr", "lib", "libcudnnctl.so.0")
    got = None
    try:
        so = ctypes.CDLL(lib)
        so.cudnnctl_version.restype = ctypes.c_char_p
        got = so.cudnnctl_version().decode()
    except (OSError, AttributeError) as ex:
        got = "%s" % ex
    named("deb: the extracted libcudnnctl.so.0 loads and cudnnctl_version() is %s" % version, got == version, got)
    same = all(read(os.path.join(dest, "usr", k)) == read(os.path.join(tgz_root, k))
               for k, v in linux_tree(version).items() if v[0] == "file"
               and os.path.isfile(os.path.join(dest, "usr", k)) and os.path.isfile(os.path.join(tgz_root, k)))
    named("deb and tar.gz hold the same bytes", same)
    return dest


def pe_facts(data):
    """(facts, None) of a PE image read with pefile, or (None, why)."""
    try:
        import pefile
    except ImportError:
        return None, "python3-pefile is not installed"
    try:
        pe = pefile.PE(data=data)
    except pefile.PEFormatError as ex:
        return None, str(ex)
    imports = [e.dll.decode("ascii", "replace") for e in getattr(pe, "DIRECTORY_ENTRY_IMPORT", [])]
    delay = [e.dll.decode("ascii", "replace") for e in getattr(pe, "DIRECTORY_ENTRY_DELAY_IMPORT", [])]
    sections = [s.Name.rstrip(b"\0").decode("ascii", "replace") for s in pe.sections]
    return {"machine": pe.FILE_HEADER.Machine, "magic": pe.OPTIONAL_HEADER.Magic,
            "dll": bool(pe.FILE_HEADER.Characteristics & 0x2000),
            "executable": bool(pe.FILE_HEADER.Characteristics & 0x0002),
            "subsystem": pe.OPTIONAL_HEADER.Subsystem, "imports": imports, "delay_imports": delay,
            "sections": sections}, None


def check_zip(path, version, source, work, deb_root, linux_exe):
    top = "cudnnctl-%s-windows-x86_64" % version
    want = {top + "/" + n for n in ("cudnnctl.exe", "cudnnctl.txt", "completions/cudnnctl.ps1", "LICENSE",
                                    "README.md", "THIRD-PARTY.txt")}
    with zipfile.ZipFile(path) as z:
        names = [i.filename for i in z.infolist()]
        files = {n for n in names if not n.endswith("/")}
        dirs = {n for n in names if n.endswith("/")}
        named("zip: exactly its members (%s)" % ", ".join(sorted(n[len(top) + 1:] for n in want)),
              files == want and len(files) == len(names) - len(dirs),
              {"missing": sorted(want - files), "extra": sorted(files - want)})
        named("zip: no other directory than %s/ and its completions/" % top,
              dirs <= {top + "/", top + "/completions/"}, sorted(dirs))
        named("zip: nothing in it is damaged (CRC)", z.testzip() is None)
        dest = os.path.join(work, "zip")
        for n in sorted(files & want):
            p = os.path.join(dest, *n.split("/"))
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "wb") as f:
                f.write(z.read(n))
    root = os.path.join(dest, top)

    def part(rel):
        p = os.path.join(root, *rel.split("/"))
        return read(p) if os.path.isfile(p) else b""

    exe = part("cudnnctl.exe")
    facts, why = pe_facts(exe)
    named("zip: cudnnctl.exe is a PE32+ x86-64 console program (pefile)",
          facts is not None and facts["machine"] == 0x8664 and facts["magic"] == 0x20B and not facts["dll"]
          and facts["executable"] and facts["subsystem"] == 3, why or facts)
    if facts:
        print("     imports: %s; delay imports: %s" % (", ".join(facts["imports"]),
                                                         ", ".join(facts["delay_imports"]) or "none"))
        outside = [d for d in facts["imports"] + facts["delay_imports"]
                   if d.lower() not in SYSTEM_DLLS and not d.lower().startswith(("api-ms-win-", "ext-ms-win-"))]
        named("zip: cudnnctl.exe imports only Windows' own DLLs (no compiler run time, zlib or libarchive DLL)",
              facts["imports"] and not outside, outside)
        named("zip: cudnnctl.exe is stripped (no debugging sections)",
              not [s for s in facts["sections"] if s.startswith((".debug", "/"))], facts["sections"])
        if linux_exe and os.path.isfile(linux_exe):
            p = os.path.join(root, "cudnnctl.exe")
            rc, out, err = run([linux_exe, "inspect", "--json", p])
            doc, bad = cliutil.parse_json(out)
            pe = ((doc or {}).get("results") or [{}])[0].get("pe") or {}
            named("zip: the packaged Linux cudnnctl's inspect of cudnnctl.exe agrees with pefile (x64 exe, "
                  "the same imports)", pe.get("machine") == "x64" and pe.get("type") == "exe"
                  and pe.get("pe32plus") is True and pe.get("imports") == facts["imports"]
                  and pe.get("delay_imports") == facts["delay_imports"],
                  (rc, bad, {k: pe.get(k) for k in ("machine", "type", "imports", "delay_imports")}, err[-200:]))

    text = part("cudnnctl.txt")
    ctrl = sorted({"0x%02x" % b for b in text if (b < 0x20 and b not in (0x09, 0x0A)) or b == 0x7F})
    named("zip: cudnnctl.txt is the manual as plain ASCII text (no backspace overstrikes, no ESC sequences)",
          len(text) > 10000 and not ctrl and all(b < 0x80 for b in text)
          and all(s in text for s in (b"NAME", b"SYNOPSIS", b"cudnnctl doctor", b"--json")),
          {"size": len(text), "control": ctrl, "start": text[:200].decode("ascii", "replace")})
    man = os.path.join(deb_root, "usr", "share", "man", "man1", "cudnnctl.1")
    groff = shutil.which("groff")
    if groff and os.path.isfile(man):
        rc, out, err = run([groff, "-man", "-Tascii", "-P-c", "-P-b", "-P-u", man])
        named("zip: cudnnctl.txt is the Linux package's manual page (groff -man -Tascii) of the same version",
              rc == 0 and out.encode() == text, (rc, err[-200:]))
    else:
        print("note: no groff or no manual page in the .deb: cudnnctl.txt not compared with it")
    named("zip: completions/cudnnctl.ps1 is the Linux package's PowerShell completion",
          part("completions/cudnnctl.ps1") != b"" and part("completions/cudnnctl.ps1")
          == read(os.path.join(deb_root, "usr", "share", "cudnnctl", "cudnnctl.ps1")))
    named("zip: LICENSE is the repository's", part("LICENSE") == read(os.path.join(source, "LICENSE")))
    named("zip: README.md is the repository's", part("README.md") == read(os.path.join(source, "README.md")))
    notices = part("THIRD-PARTY.txt").decode("utf-8", "replace")
    heads = ["libarchive, built from Debian's source package libarchive ", "zlib, from the Debian package ",
             "the mingw-w64 runtime, from the Debian package ", "libgcc, from the Debian package "]
    named("zip: THIRD-PARTY.txt has the notices of libarchive, zlib, the mingw-w64 runtime and libgcc",
          all(h in notices for h in heads) and "Permission is granted to anyone to use this software" in notices
          and "Redistribution and use in source and binary forms" in notices,
          [h for h in heads if h not in notices])
    return root


def check_wine(root, version, wrapper, fixtures, work):
    exe = os.path.join(root, "cudnnctl.exe")
    env = {"WINEDEBUG": "-all"}
    prog = cliutil.Program(exe, wrapper, setenv=env, unset=("WINEPATH", "CUDA_PATH", "CUDNN_PATH"), timeout=300)

    def run_exe(argv, **kw):
        """prog.run, a run that outlives its time limit given as exit status None"""
        try:
            return prog.run(argv, **kw)
        except subprocess.TimeoutExpired as ex:
            return cliutil.Result(None, ex.stdout or b"", (ex.stderr or b"") + b" (timed out)", ex.timeout)

    r = run_exe(["--version"], timeout=120)
    named("Wine: the zip's cudnnctl.exe --version, alone in its folder, says cudnnctl %s with libarchive"
          % version, r.rc == 0 and r.out_text.startswith("cudnnctl %s " % version) and "libarchive" in r.out_text,
          (r.rc, r.out_text, r.err_text[-300:]))
    prefix = os.environ.get("WINEPREFIX") or os.path.expanduser("~/.wine")
    sys32 = os.path.join(prefix, "drive_c", "windows", "system32")
    facts, _ = pe_facts(read(exe))
    if facts and os.path.isdir(sys32):
        have = {n.lower() for n in os.listdir(sys32)}
        missing = [d for d in facts["imports"] if d.lower() not in have]
        named("Wine: every DLL cudnnctl.exe imports is in the prefix's system32", not missing, missing)

    probe = os.path.join(fixtures, "probe", "win") if fixtures else ""
    install = None
    if probe and os.path.isdir(os.path.join(probe, "installs", "v9-ok")):
        install = os.path.join(work, "machine", "cuDNN v9")
        shutil.copytree(os.path.join(probe, "installs", "v9-ok"), install)
        env["WINEPATH"] = ";".join([cliutil.wine_path(os.path.join(probe, "drivers", "ok")),
                                    cliutil.wine_path(os.path.join(install, "bin"))])
    elif fixtures:
        named("Wine: the probe fixtures are in --fixtures (%s)" % probe, False)
    else:
        print("note: no --fixtures: the doctor runs on the bare prefix")
    r = run_exe(["doctor", "--json", "--no-frameworks", "--no-compile", "--no-gpu", "--timeout", "60"], env=env,
                timeout=600)
    doc, why = cliutil.parse_json(r.out)
    named("Wine: the zip's cudnnctl.exe doctor --json prints a document python's json reads (exit %s)" % r.rc,
          doc is not None and r.rc in (0, 1), (r.rc, why, r.out_text[:300], r.err_text[-500:]))
    doc = doc or {}
    named("Wine: the doctor's document: command doctor, live, on windows, version %s" % version,
          doc.get("command") == "doctor" and doc.get("mode") == "live" and doc.get("tool_version") == version
          and ((doc.get("facts") or {}).get("host") or {}).get("system") == "windows",
          {k: doc.get(k) for k in ("command", "mode", "tool_version")})
    areas = [a.get("id") for a in doc.get("areas", [])]
    named("Wine: the doctor's areas: %s" % ", ".join(AREAS), areas == AREAS, areas)
    named("Wine: the doctor's summary has a verdict",
          (doc.get("summary") or {}).get("verdict") in ("healthy", "warnings", "errors"), doc.get("summary"))
    if install:
        insts = ((doc.get("facts") or {}).get("list") or {}).get("installations", [])
        mine = [i for i in insts if (i.get("prefix") or "").lower() == cliutil.wine_path(install).lower()]
        named("Wine: the doctor found the stub cuDNN 9.19.0 on the Windows PATH",
              mine and any("9.19.0" in str(v) for v in (mine[0].get("version"), mine[0].get("versions"))),
              [(i.get("prefix"), i.get("version")) for i in insts][:8])
        byid = {a.get("id"): a for a in doc.get("areas", [])}
        named("Wine: the driver and cuDNN areas are not empty", all((byid.get(k) or {}).get("status") != "none"
                                                                    for k in ("driver", "cudnn")),
              {k: (byid.get(k) or {}).get("summary") for k in ("driver", "cudnn")})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--packages", required=True, help="where scripts/release.sh left the packages")
    ap.add_argument("--source", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    ap.add_argument("--version", default=None, help="default: project()'s in the source's CMakeLists.txt")
    ap.add_argument("--fixtures", default="", help="the generated fixtures (probe/win for the doctor under Wine)")
    ap.add_argument("--wrapper", default="", help="the program that runs a Windows exe here (wine64)")
    args = ap.parse_args()
    version = args.version or project_version(args.source)
    if not version:
        print("FAIL: no version (project() in %s/CMakeLists.txt)" % args.source)
        return 1
    pk = os.path.abspath(args.packages)
    paths = {"tar.gz": os.path.join(pk, "cudnnctl-%s-linux-x86_64.tar.gz" % version),
             "deb": os.path.join(pk, "cudnnctl_%s_amd64.deb" % version),
             "zip": os.path.join(pk, "cudnnctl-%s-windows-x86_64.zip" % version)}
    for k, p in paths.items():
        named("the %s package is there: %s" % (k, os.path.basename(p)), os.path.isfile(p), pk)
    if not all(os.path.isfile(p) for p in paths.values()):
        return CHECKS.summary("release packages")
    work = tempfile.mkdtemp(prefix="cc-release-")
    try:
        tgz_root = check_tar(paths["tar.gz"], version, work)
        deb_root = check_deb(paths["deb"], version, work, tgz_root)
        root = check_zip(paths["zip"], version, os.path.abspath(args.source), work, deb_root,
                         os.path.join(deb_root, "usr", "bin", "cudnnctl"))
        if args.wrapper:
            if cliutil.wrapper_missing(args.wrapper):
                named("Wine: %s is there" % args.wrapper, False)
            else:
                check_wine(root, version, args.wrapper, args.fixtures and os.path.abspath(args.fixtures), work)
        else:
            print("note: no --wrapper: the zip's exe was not run")
    finally:
        if not os.environ.get("CUDNNCTL_KEEP_TEMP"):
            shutil.rmtree(work, ignore_errors=True)
    return CHECKS.summary("release packages", list_failures=True, need_passes=True)


if __name__ == "__main__":
    sys.exit(main())
