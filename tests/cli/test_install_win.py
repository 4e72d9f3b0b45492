#!/usr/bin/env python3
"""install, uninstall, rollback and recover of the Windows build, under the
emulator (Wine): the same transaction engine through the Win32 platform layer
(CreateFileW CREATE_NEW, MoveFileExW with MOVEFILE_REPLACE_EXISTING |
MOVEFILE_WRITE_THROUGH, FlushFileBuffers, \\\\?\\ long paths, LockFileEx).

A Windows-layout directory of cuDNN 8.9.7 for CUDA 11 (bin\\cudnn*64_8.dll,
include\\cudnn*.h, lib\\x64\\cudnn*.lib; stub files with the real names and
real version macros) goes into a CUDA v11.4 toolkit tree that already holds
cuDNN 8.2.2: every file of 8.2.2 is replaced or removed; --dry-run writes
nothing; uninstall puts 8.2.2 back byte for byte; rollback gives 8.9.7 back;
killed (TerminateProcess) before writing calls spread over the install,
then `recover`: the tree is as it was. Archives are not read here: the
Windows build reads zips once it has libarchive (a later issue)."""
import hashlib
import os
import shutil
import stat
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

VERSION_H = "#define CUDNN_MAJOR %d\n#define CUDNN_MINOR %d\n#define CUDNN_PATCHLEVEL %d\n"
ROLES8 = ["cudnn", "cudnn_ops_infer", "cudnn_ops_train", "cudnn_cnn_infer", "cudnn_cnn_train", "cudnn_adv_infer",
          "cudnn_adv_train"]


def put(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def snap(root):
    out = {}
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            p = os.path.join(d, n)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            if stat.S_ISDIR(st.st_mode):
                out[rel] = "dir"
            else:
                with open(p, "rb") as f:
                    out[rel] = hashlib.sha256(f.read()).hexdigest()
    return out


def settled(tree):
    return {k: v for k, v in tree.items() if not k.startswith(".cudnnctl")}


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
    work = tempfile.mkdtemp(prefix="cc-install-win-")
    state = os.path.join(work, "state")
    prog = cliutil.Program(args.exe, wrapper=args.wrapper, timeout=180,
                           setenv={"CUDNNCTL_STATE_DIR": cliutil.wine_path(state), "WINEDEBUG": "-all"},
                           unset=("CUDNNCTL_TEST_FAULT",))
    W = cliutil.wine_path
    try:
        src = os.path.join(work, "cudnn-windows-x86_64-8.9.7.29_cuda11-archive")
        put(os.path.join(src, "include", "cudnn_version.h"), (VERSION_H % (8, 9, 7)).encode())
        put(os.path.join(src, "include", "cudnn.h"), b"#include \"cudnn_version.h\"\n")
        for r in ROLES8:
            put(os.path.join(src, "bin", "%s64_8.dll" % r), ("MZ stub %s 8.9.7\n" % r).encode() * 20)
            put(os.path.join(src, "lib", "x64", "%s.lib" % r), ("!<arch>\n%s 8.9.7\n" % r).encode())

        def toolkit():
            t = os.path.join(work, "CUDA", "v11.4")
            shutil.rmtree(t, ignore_errors=True)
            put(os.path.join(t, "bin", "nvcc.exe"), b"MZ nvcc")
            put(os.path.join(t, "version.json"), b'{"cuda": {"name": "CUDA SDK", "version": "11.4.4"}}')
            put(os.path.join(t, "include", "cudnn_version.h"), (VERSION_H % (8, 2, 2)).encode())
            for r in ROLES8[:5]:
                put(os.path.join(t, "bin", "%s64_8.dll" % r), ("MZ old %s 8.2.2\n" % r).encode())
            put(os.path.join(t, "bin", "cudnn64_7.dll"), b"MZ cudnn 7")
            put(os.path.join(t, "bin", "cudart64_110.dll"), b"MZ cudart")
            return t

        t = toolkit()
        before = snap(work)
        r = prog.run(["install", "--dry-run", "--into", W(t), W(src)])
        c.named("dry-run exits 0 and writes nothing", r.rc == 0 and snap(work) == before, r.err_text + r.out_text[-400:])

        r = prog.run(["install", "--yes", "--no-verify", "--into", W(t), W(src)])
        c.named("install exits 0", r.rc == 0, r.err_text + r.out_text[-600:])
        bins = sorted(os.listdir(os.path.join(t, "bin")))
        ok = all(open(os.path.join(t, "bin", "%s64_8.dll" % r_), "rb").read() ==
                 open(os.path.join(src, "bin", "%s64_8.dll" % r_), "rb").read() for r_ in ROLES8)
        c.named("every DLL of 8.9.7 in bin, byte for byte", ok, bins)
        c.named("8.x and the other majors: cudnn64_7.dll and cudart are left", "cudnn64_7.dll" in bins and
                "cudart64_110.dll" in bins, bins)
        c.named("import libraries in lib\\x64", sorted(os.listdir(os.path.join(t, "lib", "x64"))) ==
                sorted("%s.lib" % r_ for r_ in ROLES8))
        c.named("the manifest is written", os.path.exists(os.path.join(t, ".cudnnctl", "installed", "cudnn-8.9.7.json")))

        installed = settled(snap(t))
        r = prog.run(["uninstall", "--yes", W(t)])
        c.named("uninstall exits 0", r.rc == 0, r.err_text + r.out_text[-400:])
        # the 8.2.2 files it replaced are back; what it added is gone
        back = settled(snap(t))
        ref = os.path.join(work, "ref")
        shutil.rmtree(ref, ignore_errors=True)
        os.rename(t, os.path.join(work, "keep"))
        toolkit()
        os.rename(t, ref)
        os.rename(os.path.join(work, "keep"), t)
        c.named("uninstall puts 8.2.2 back byte for byte", back == settled(snap(ref)), sorted(set(back) ^ set(settled(snap(ref))))[:8])
        r = prog.run(["rollback", "--yes", W(t)])
        c.named("rollback of the uninstall gives 8.9.7 back", r.rc == 0 and settled(snap(t)) == installed,
                r.err_text + r.out_text[-300:])

        # killed before writing calls spread over an install, then recover
        bad, n, total = [], 1, None
        while total is None and n < 300:
            t = toolkit()
            before = snap(t)
            r = prog.run(["install", "--yes", "--no-verify", "--into", W(t), W(src)], env={"CUDNNCTL_TEST_FAULT": "kill:%d" % n})
            if r.rc == 0:
                total = n - 1
                break
            r2 = prog.run(["recover", "--yes", W(t)])
            after = snap(t)
            if r2.rc != 0 or (after != before and settled(after) != installed):
                bad.append((n, r.rc, r2.rc, r2.err_text[:200], sorted(set(after) ^ set(before))[:6]))
                break
            n += 7
        c.named("killed before writing calls 1, 8, 15... of the install (TerminateProcess), recover: as before, or done",
                not bad and total is not None, bad or total)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return c.summary("install (Windows)")


sys.exit(main())
