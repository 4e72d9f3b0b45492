#!/usr/bin/env python3
"""Archives in the Windows build, under the emulator (Wine): libarchive is
linked into cudnnctl.exe (scripts/mingw-libarchive.sh), so the zips cuDNN for
Windows ships as are read as on Linux.

A zip laid out as NVIDIA's cudnn-windows-x86_64-8.9.7.29_cuda11-archive.zip
(one top folder with bin\\cudnn*64_8.dll, include\\cudnn*.h, lib\\x64\\*.lib,
LICENSE; stub files with the real names and version macros):
  - `inspect ZIP --json`: the members, the release its name says and the
    header's version 8.9.7;
  - the same zip under a folder whose name the ANSI code page cannot spell
    (Greek and CJK letters): the path is opened as UTF-16;
  - under NVIDIA's name with a matching NAME.sha256 beside it, the stub is
    stopped: the knowledge base knows that release's digest;
  - under a name no release has, `install --dry-run --into TOOLKIT ZIP`
    writes nothing (the zip's digest from the NAME.sha256 beside it); `install --yes`
    puts each file where the toolkit keeps it (bin, include, lib\\x64) byte
    for byte the zip's member; `uninstall --yes` gives the toolkit back as it
    was;
  - a zip cut in the middle (its .sha256 matching): the plan's source check
    stops it, naming the zip and the damaged member, and nothing is written.
Skipped (77) when the build reads no archives (configured without
scripts/mingw-libarchive.sh's prefix), or on the Linux build."""
import hashlib
import os
import shutil
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

VERSION_H = "#define CUDNN_MAJOR %d\n#define CUDNN_MINOR %d\n#define CUDNN_PATCHLEVEL %d\n"
ROLES8 = ["cudnn", "cudnn_ops_infer", "cudnn_ops_train", "cudnn_cnn_infer", "cudnn_cnn_train", "cudnn_adv_infer",
          "cudnn_adv_train"]
TOP = "cudnn-windows-x86_64-8.9.7.29_cuda11-archive"
# No NVIDIA release has this name: the knowledge base holds no digest for it, so the .sha256 beside it decides
OWN = "cudnn-windows-x86_64-8.9.7.28_cuda11-archive"


def members(top=TOP):
    """{member path inside the zip: bytes}: the layout of NVIDIA's Windows archive."""
    m = {top + "/include/cudnn_version.h": (VERSION_H % (8, 9, 7)).encode(),
         top + "/include/cudnn.h": b"#include \"cudnn_version.h\"\n",
         top + "/LICENSE": b"stub license\n"}
    for r in ROLES8:
        m[top + "/bin/%s64_8.dll" % r] = ("MZ stub %s 8.9.7\n" % r).encode() * 20
        m[top + "/lib/x64/%s.lib" % r] = ("!<arch>\n%s 8.9.7\n" % r).encode()
    return m


def make_zip(path, mem):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(mem):
            z.writestr(name, mem[name])
    sidecar(path)


def sidecar(path):
    """NAME.sha256 beside it (matching the stub). Under NVIDIA's name the knowledge base's digest is asked too,
    and the stub is not that release: its install stops ("not the release of that name")."""
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    with open(path + ".sha256", "w") as f:
        f.write("%s  %s\n" % (digest, os.path.basename(path)))


def settled(tree):
    """A snap without the tool's own records (.cudnnctl)."""
    return {k: v for k, v in tree.items() if not k.startswith(".cudnnctl")}


def put(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main():
    ap = cliutil.parser(system=True, wrapper=True)
    args = ap.parse_args()
    if args.system != "windows":
        print("skip: the Windows build's test")
        return 77
    if cliutil.wrapper_missing(args.wrapper):
        print("skip: no %s" % args.wrapper)
        return 77
    c = cliutil.Checks(limit=600)
    work = tempfile.mkdtemp(prefix="cc-archive-win-")
    state = os.path.join(work, "state")
    prog = cliutil.Program(args.exe, wrapper=args.wrapper, timeout=180,
                           setenv={"CUDNNCTL_STATE_DIR": cliutil.wine_path(state), "WINEDEBUG": "-all"},
                           unset=("CUDNNCTL_TEST_FAULT",))
    W = cliutil.wine_path
    try:
        mem = members()
        zpath = os.path.join(work, "dl", TOP + ".zip")
        make_zip(zpath, mem)
        r = prog.run(["inspect", "--json", W(zpath)])
        doc, why = cliutil.parse_json(r.out)
        if doc and "cannot read archives" in r.out_text + r.err_text:
            print("skip: this build reads no archives (configured without scripts/mingw-libarchive.sh)")
            return 77
        c.named("inspect ZIP: exit 0, JSON", r.rc == 0 and doc is not None, (r.rc, why, r.err_text[:300]))
        text = r.out_text
        ar = ((doc or {}).get("results") or [{}])[0].get("archive") or {}
        c.named("inspect ZIP: a zip of 17 members, every one listed",
                ar.get("format") == "zip" and ar.get("entries") == 17
                and all(os.path.basename(n) in text for n in mem), ar)
        c.named("inspect ZIP: NVIDIA's Windows archive of 8.9.7.29 for CUDA 11 (its name), the redist layout",
                ar.get("system") == "windows" and ar.get("layout") == "redist"
                and (ar.get("name") or {}).get("version") == "8.9.7.29" and (ar.get("name") or {}).get("cuda") == "11",
                ar.get("name"))
        c.named("inspect ZIP: the header's version 8.9.7", '"8.9.7"' in text.replace(" ", ""), text[:300])

        # a folder the ANSI code page cannot spell: opened as UTF-16
        wide = os.path.join(work, "δοκιμή 試験", TOP + ".zip")
        make_zip(wide, mem)
        r = prog.run(["inspect", "--json", W(wide)])
        doc, why = cliutil.parse_json(r.out)
        c.named("inspect ZIP under a Greek and CJK folder name: read (a UTF-16 open)",
                r.rc == 0 and doc is not None and "cudnn_ops_infer64_8.dll" in r.out_text,
                (r.rc, why, r.err_text[:300]))

        # install into a CUDA v11.4 toolkit, then uninstall
        t = os.path.join(work, "CUDA", "v11.4")
        put(os.path.join(t, "bin", "nvcc.exe"), b"MZ nvcc")
        put(os.path.join(t, "version.json"), b'{"cuda": {"name": "CUDA SDK", "version": "11.4.4"}}')
        put(os.path.join(t, "bin", "cudart64_110.dll"), b"MZ cudart")
        toolkit_before = settled(cliutil.snap(t))
        before = cliutil.snap(work)
        # the stub under NVIDIA's name, with a .sha256 beside it that matches: not that release
        r = prog.run(["install", "--yes", "--no-verify", "--into", W(t), W(zpath)])
        c.named("install of the stub under NVIDIA's name: stopped, the knowledge base's digest differs, nothing "
                "written", r.rc == 1 and "not the release of that name" in r.out_text + r.err_text
                and cliutil.snap(work) == before, (r.rc, (r.out_text + r.err_text)[-400:]))
        mem = members(OWN)
        zpath = os.path.join(work, "dl", OWN + ".zip")
        make_zip(zpath, mem)
        before = cliutil.snap(work)
        r = prog.run(["install", "--dry-run", "--into", W(t), W(zpath)])
        c.named("install --dry-run ZIP: exit 0, writes nothing", r.rc == 0 and cliutil.snap(work) == before,
                r.err_text + r.out_text[-400:])
        r = prog.run(["install", "--yes", "--no-verify", "--json", "--into", W(t), W(zpath)])
        doc, why = cliutil.parse_json(r.out)
        c.named("install ZIP: installed", r.rc == 0 and doc and doc.get("result", {}).get("status") == "installed",
                (r.rc, why, r.err_text[-400:], r.out_text[-400:]))
        wrong = []
        for name, data in mem.items():
            rel = name[len(OWN) + 1:]
            if rel == "LICENSE":
                continue
            dest = os.path.join(t, *rel.split("/"))
            if not os.path.isfile(dest) or open(dest, "rb").read() != data:
                wrong.append(rel)
        c.named("install ZIP: every member in the toolkit, byte for byte", not wrong, wrong)
        r = prog.run(["uninstall", "--yes", W(t)])
        after = settled(cliutil.snap(t))
        c.named("uninstall: the toolkit as it was", r.rc == 0 and after == toolkit_before,
                (r.err_text[-400:], sorted(set(after) ^ set(toolkit_before))[:8]))

        # a zip cut in the middle: one line that names it, nothing written
        cut = os.path.join(work, "cut", TOP + ".zip")
        os.makedirs(os.path.dirname(cut))
        data = open(zpath, "rb").read()
        with open(cut, "wb") as f:
            f.write(data[:len(data) // 2])
        sidecar(cut)
        before = cliutil.snap(t)
        r = prog.run(["install", "--yes", "--into", W(t), W(cut)])
        stops = [x for x in r.out_text.splitlines() if x.strip().startswith("stop")]
        c.named("install of a cut zip: stopped by one check that names it and the damage, the toolkit untouched",
                r.rc == 1 and len(stops) == 1 and TOP + ".zip" in stops[0] and "damaged archive" in stops[0]
                and cliutil.snap(t) == before, (r.rc, stops, r.err_text[-300:]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return c.summary("archive_win")


sys.exit(main())
