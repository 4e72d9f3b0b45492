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
then `recover`: the tree is as it was. The source is a directory here; the
same install from a zip is tests/cli/test_archive_win.py.

A mapped DLL stops the install (NVIDIA's "close the programs that use cuDNN
first"): the toolkit's 8.2.2 DLLs are real PE DLLs built with mingw-w64, and
tests/wine/holddll.c (built here) LoadLibraryW's its cudnn64_8.dll and waits.
`who-uses` finds it by pid; `install --json` says "stopped" with an in-use
check "stop" that names the program and its pid, and the target (and the
state directory) is as it was, no staging left; once the program has ended
the same install goes through. When Wine's own module snapshot of the program
(holddll --modules PID) does not list the DLL, that part is skipped, saying
what Wine answered."""
import os
import shutil
import subprocess
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


def settled(tree):
    return {k: v for k, v in tree.items() if not k.startswith(".cudnnctl")}


def changed(a, b):
    """The paths that differ between two snaps (added, gone or other bytes), the first few."""
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))[:8]


HOLDDLL_C = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "wine", "holddll.c")
# One export that says which file it is: each role's DLL has its own bytes.
STUB_DLL_C = ("const char cc_stub_role[] = CC_ROLE;\n"
              "__declspec(dllexport) const char *cc_stub(void) { return cc_stub_role; }\n")


def mingw_build(gcc, argv):
    """Runs the compiler; None, or why it failed."""
    p = subprocess.run([gcc] + argv, capture_output=True, text=True)
    return None if p.returncode == 0 else "%s: %s" % (" ".join(argv), p.stderr[-1500:])


def old_dlls(work, gcc):
    """The 8.2.2 DLLs of the toolkit: {role: bytes}, real PE DLLs that
    LoadLibrary takes, and None; or ({}, why not)."""
    d = os.path.join(work, "pe")
    os.makedirs(d)
    src = os.path.join(d, "stub.c")
    with open(src, "w") as f:
        f.write(STUB_DLL_C)
    out = {}
    for r in ROLES8[:5]:
        dll = os.path.join(d, "%s64_8.dll" % r)
        why = mingw_build(gcc, ["-shared", "-s", '-DCC_ROLE="%s 8.2.2"' % r, "-o", dll, src])
        if why:
            return {}, why
        with open(dll, "rb") as f:
            out[r] = f.read()
    return out, None


def mapped_dll_stops(c, prog, wrapper, work, state, src, toolkit, gcc):
    """A program that has the toolkit's 8.2.2 cudnn64_8.dll loaded stops the
    install of 8.9.7 over it, naming the program; once it has ended the same
    install goes through."""
    W = cliutil.wine_path
    exe = os.path.join(work, "holddll.exe")
    why = mingw_build(gcc, ["-municode", "-o", exe, HOLDDLL_C])
    c.named("holddll.exe builds (tests/wine/holddll.c, mingw-w64)", why is None, why)
    if why:
        return
    pre = [wrapper] if wrapper else []
    env = prog.environ()
    t = toolkit()
    held = os.path.join(t, "bin", "cudnn64_8.dll")
    argv = ["install", "--yes", "--json", "--no-verify", "--into", W(t), W(src)]
    h = cliutil.Holder(pre + [exe, "--timeout", "600", W(held)], env)
    try:
        c.named("holddll loads the toolkit's 8.2.2 cudnn64_8.dll (a mingw-w64 PE DLL) and says ready",
                h.pid is not None, h.why())
        if h.pid is None:
            return
        # Wine's own answer, apart from cudnnctl's: a module it does not list, no scan can find.
        r = subprocess.run(pre + [exe, "--modules", str(h.pid)], capture_output=True, env=env, timeout=180)
        out = r.stdout.decode("utf-8", "replace")
        listed = [ln[len("module "):].strip() for ln in out.splitlines() if ln.startswith("module ")]
        if not any(m.lower() == W(held).lower() for m in listed):
            print("skip: who-uses and the in-use stop are not tested: Wine's module snapshot of process %d "
                  "(CreateToolhelp32Snapshot, Module32FirstW/NextW) does not list %s; it answered (exit %d): %r %r"
                  % (h.pid, W(held), r.returncode, out[-1500:], r.stderr[-300:]))
        else:
            r = prog.run(["who-uses", "--json", W(held)])
            doc, _ = cliutil.parse_json(r.out)
            mine = [u for u in (doc or {}).get("users", []) if u.get("pid") == h.pid]
            c.named("who-uses DLL: holddll by pid, exit 1", r.rc == 1 and len(mine) == 1, (r.rc, doc, r.err_text))
            c.named("  named holddll.exe, seen in its module snapshot",
                    len(mine) == 1 and (mine[0].get("name") or "").lower() == "holddll.exe" and
                    "modules" in mine[0].get("seen", []), mine)

            before, before_state = cliutil.snap(t), cliutil.snap(state)
            r = prog.run(argv)
            doc, bad = cliutil.parse_json(r.out)
            plan = (doc or {}).get("plan") or {}
            status = ((doc or {}).get("result") or {}).get("status")
            c.named("install while the DLL is loaded: exit 1, status stopped", r.rc == 1 and status == "stopped",
                    (r.rc, status, bad, r.err_text[-400:]))
            inuse = [k for k in plan.get("checks", []) if k.get("id") == "in-use"]
            who = "process %d (holddll.exe)" % h.pid
            naming = [k for k in inuse if k.get("verdict") == "stop" and who in k.get("reason", "").lower() and
                      "cudnn64_8.dll" in k.get("reason", "").lower()]
            c.named("  an in-use check 'stop' naming the DLL, the program and its pid (%s)" % who, len(naming) == 1,
                    inuse)
            c.named("  the plan's summary says stop", (plan.get("summary") or {}).get("stop") is True,
                    plan.get("summary"))
            after = cliutil.snap(t)
            c.named("  the toolkit is as it was byte for byte, no staging left (no .cudnnctl)",
                    after == before and not os.path.exists(os.path.join(t, ".cudnnctl")), changed(before, after))
            after = cliutil.snap(state)
            c.named("  the state directory is as it was", after == before_state, changed(before_state, after))
    finally:
        h.end()
    r = prog.run(argv)
    doc, bad = cliutil.parse_json(r.out)
    status = ((doc or {}).get("result") or {}).get("status")
    inuse = [k for k in ((doc or {}).get("plan") or {}).get("checks", []) if k.get("id") == "in-use"]
    c.named("once holddll has ended, the same install goes through: exit 0, installed, in-use ok",
            r.rc == 0 and status == "installed" and [k.get("verdict") for k in inuse] == ["ok"],
            (r.rc, status, inuse, bad, r.err_text[-400:]))
    ok = all(open(os.path.join(t, "bin", "%s64_8.dll" % r_), "rb").read() ==
             open(os.path.join(src, "bin", "%s64_8.dll" % r_), "rb").read() for r_ in ROLES8)
    c.named("  every DLL of 8.9.7 in bin, byte for byte", ok, sorted(os.listdir(os.path.join(t, "bin"))))


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
        gcc = shutil.which("x86_64-w64-mingw32-gcc")
        pe, why = old_dlls(work, gcc) if gcc else ({}, None)
        if gcc:
            c.named("the toolkit's 8.2.2 DLLs: PE DLLs built with mingw-w64", why is None, why)
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
                put(os.path.join(t, "bin", "%s64_8.dll" % r), pe.get(r) or ("MZ old %s 8.2.2\n" % r).encode())
            put(os.path.join(t, "bin", "cudnn64_7.dll"), b"MZ cudnn 7")
            put(os.path.join(t, "bin", "cudart64_110.dll"), b"MZ cudart")
            return t

        t = toolkit()
        before = cliutil.snap(work)
        r = prog.run(["install", "--dry-run", "--into", W(t), W(src)])
        c.named("dry-run exits 0 and writes nothing", r.rc == 0 and cliutil.snap(work) == before, r.err_text + r.out_text[-400:])

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

        installed = settled(cliutil.snap(t))
        r = prog.run(["uninstall", "--yes", W(t)])
        c.named("uninstall exits 0", r.rc == 0, r.err_text + r.out_text[-400:])
        # the 8.2.2 files it replaced are back; what it added is gone
        back = settled(cliutil.snap(t))
        ref = os.path.join(work, "ref")
        shutil.rmtree(ref, ignore_errors=True)
        os.rename(t, os.path.join(work, "keep"))
        toolkit()
        os.rename(t, ref)
        os.rename(os.path.join(work, "keep"), t)
        c.named("uninstall puts 8.2.2 back byte for byte", back == settled(cliutil.snap(ref)), sorted(set(back) ^ set(settled(cliutil.snap(ref))))[:8])
        r = prog.run(["rollback", "--yes", W(t)])
        c.named("rollback of the uninstall gives 8.9.7 back", r.rc == 0 and settled(cliutil.snap(t)) == installed,
                r.err_text + r.out_text[-300:])

        if pe:
            mapped_dll_stops(c, prog, args.wrapper, work, state, src, toolkit, gcc)
        else:
            print("skip: a mapped DLL stopping the install is not tested: no x86_64-w64-mingw32-gcc for the "
                  "PE DLLs and the program that loads one")

        # killed before writing calls spread over an install, then recover
        bad, n, total = [], 1, None
        while total is None and n < 300:
            t = toolkit()
            before = cliutil.snap(t)
            r = prog.run(["install", "--yes", "--no-verify", "--into", W(t), W(src)], env={"CUDNNCTL_TEST_FAULT": "kill:%d" % n})
            if r.rc == 0:
                total = n - 1
                break
            r2 = prog.run(["recover", "--yes", W(t)])
            after = cliutil.snap(t)
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
