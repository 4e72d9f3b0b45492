#!/usr/bin/env python3
"""cudnnctl verify on Windows: the Windows build (under Wine with --wrapper,
or natively) against the stub nvcuda.dll / nvml.dll drivers and the cuDNN 9
installations laid out like NVIDIA's Windows zip (bin/, include/, lib/x64/)
that fixtures/gen-probe.sh builds with mingw-w64 into probe/win. Each fault
must give the right verdict, and the tool must survive every one within its
time limit (the probe children run in a job object that is killed at the
limit).

The driver is chosen by putting its directory on the Windows PATH (WINEPATH
under Wine); "no driver" is a PATH without nvcuda.dll.

The compile layer needs a Windows C compiler (cl.exe, gcc.exe, clang.exe) on
the Windows PATH. Wine has none (the mingw-w64 cross compiler is a Linux
program), so under Wine it is not-checked with "no C compiler found on PATH";
with a compiler it must pass.

usage: test_verify_win.py --exe CUDNNCTL.EXE --fixtures DIR [--wrapper=WINE]
exit 77: no Windows probe fixtures (mingw-w64 missing when they were built)
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

args = cliutil.parser(fixtures=True, wrapper=True).parse_args()
W = os.path.join(args.fixtures, "probe", "win")
EXE = cliutil.Program(args.exe, args.wrapper, setenv={"WINEDEBUG": "-all"}, unset=("CUDA_VISIBLE_DEVICES", "WINEPATH"),
                      timeout=120)
CHECKS = cliutil.Checks()
check = CHECKS.check


def native(path):
    """The path as the program under test sees it (Wine maps / to Z:)."""
    return cliutil.wine_path(path) if args.wrapper else os.path.abspath(path)


def run(argv, driver, timeout=120):
    env = {}
    if driver is not None:
        d = native(os.path.join(W, "drivers", driver))
        if args.wrapper:
            env["WINEPATH"] = d
        else:
            env["PATH"] = d + os.pathsep + os.environ.get("PATH", "")
    r = EXE.run(argv, env=env, timeout=timeout)
    return r.rc, r.out_text, r.err_text, r.wall


def verify(name, driver, extra=(), timeout="10", install=None):
    target = install if install is not None else native(os.path.join(W, "installs", name))
    rc, out, err, wall = run(["verify", target, "--json", "--timeout", timeout] + list(extra), driver)
    doc, why = cliutil.parse_json(out)
    if why is not None:
        check(False, "%s: not JSON (rc %d): %r %r" % (name, rc, out[:300], err[:500]))
        doc = {"layers": []}
    return rc, doc, err, wall


checks_of = cliutil.checks_of


def expect(doc, name, cid, status, *contains):
    cliutil.expect_check(check, doc, name, cid, status, *contains)


if not os.path.isdir(os.path.join(W, "installs")):
    print("skip: no Windows probe fixtures in %s" % W)
    sys.exit(77)

ok_dir = native(os.path.join(W, "installs", "v9-ok"))
ok_bin = ok_dir + "\\bin"

# ---- v9-ok with a working driver: every layer that can run here passes ------

rc, doc, err, wall = verify("v9-ok", "ok", ["--no-gpu"])
check(rc == 0, "v9-ok: exit %d, want 0 (%s)" % (rc, err))
inst = doc.get("installation", {})
check(inst.get("prefix") == ok_dir, "v9-ok: prefix %r, want %r (the drive letter kept)" % (inst.get("prefix"), ok_dir))
check(inst.get("lib_dir") == ok_bin, "v9-ok: lib_dir %r" % inst.get("lib_dir"))
check(inst.get("major") == 9 and inst.get("version") == "9.19.0", "v9-ok: %r" % inst)
for cid in ("header-vs-library", "library-set", "driver", "load", "version", "cudart", "version-checks",
            "one-directory", "handle"):
    expect(doc, "v9-ok", cid, "passed")
expect(doc, "v9-ok", "library-set", "passed", "all 8 libraries of cuDNN 9")
expect(doc, "v9-ok", "driver", "passed", "580.95.05", "Fixture GPU")
expect(doc, "v9-ok", "load", "passed", "8 libraries loaded by full path from " + ok_bin)
expect(doc, "v9-ok", "version", "passed", "cudnnGetVersion 91900")
# cudart64_13.dll beside cuDNN, found as a DLL loaded by full path finds its dependencies.
expect(doc, "v9-ok", "cudart", "passed", "cudart64_13.dll is CUDA 13.0")
check(doc.get("probes", {}).get("cudart", {}).get("facts", {}).get("runtime_version", {}).get("value") == 13000,
      "v9-ok: the cudart probe read cudaRuntimeGetVersion 13000")
expect(doc, "v9-ok", "version-checks", "passed", "4 of 4")
# Eight cuDNN DLLs mapped, all from bin\ (cudnnctl.exe itself is not one of them).
expect(doc, "v9-ok", "one-directory", "passed", "8 cuDNN modules mapped, all from " + ok_bin)
mods = doc.get("probes", {}).get("cudnn", {}).get("facts", {}).get("modules", [])
check(any(m.lower().endswith("\\cudnn_graph64_9.dll") for m in mods), "v9-ok: module list %r" % mods)
expect(doc, "v9-ok", "handle", "passed", "CUDNN_STATUS_SUCCESS")
expect(doc, "v9-ok", "gpu-work", "not-checked", "--no-gpu")
comp = checks_of(doc).get("compile", {})
if comp.get("status") == "not-checked":
    print("note: compile layer not-checked: %s" % comp.get("summary"))
    check("no C compiler found on PATH" in comp.get("summary", ""), "v9-ok: compile %r" % comp)
    check(rc == 0 and doc.get("summary", {}).get("verdict") == "passed-with-unchecked",
          "v9-ok: verdict %r" % doc.get("summary"))
else:
    print("note: compile layer ran: %s" % comp.get("summary"))
    expect(doc, "v9-ok", "compile", "passed", "cudnnGetVersion 91900")
check(wall < 60, "v9-ok: took %.1f s" % wall)

# The installation named other ways: a DLL in it, its bin directory, '/' separators.
for tag, target in (("the shim's path", ok_bin + "\\cudnn64_9.dll"), ("bin", ok_bin),
                    ("slashes", ok_dir.replace("\\", "/"))):
    rc, doc, err, wall = verify("v9-ok (%s)" % tag, "ok", ["--no-gpu", "--no-compile"], install=target)
    check(doc.get("installation", {}).get("prefix") == ok_dir, "v9-ok as %s: prefix %r (%s)"
          % (tag, doc.get("installation", {}).get("prefix"), err))
    expect(doc, "v9-ok as " + tag, "load", "passed")

# ---- the driver states ------------------------------------------------------------

rc, doc, err, wall = verify("v9-ok", None, ["--no-compile", "--no-gpu"])
expect(doc, "no driver", "driver", "not-checked", "no NVIDIA driver", "nvcuda.dll")
expect(doc, "no driver", "handle", "not-checked", "1001 CUDNN_STATUS_NOT_INITIALIZED", "no NVIDIA driver")
expect(doc, "no driver", "load", "passed")
expect(doc, "no driver", "version", "passed")
check(rc == 0, "no driver: exit %d (%s)" % (rc, err))
rc, doc, err, wall = verify("v9-ok", "stub", ["--no-compile", "--no-gpu"])
expect(doc, "stub driver", "driver", "not-checked", "CUDA_ERROR_STUB_LIBRARY", "stub nvcuda.dll")
expect(doc, "stub driver", "handle", "not-checked", "1001", "stub nvcuda.dll")
check("libcuda" not in json.dumps(checks_of(doc).get("handle", {})), "stub driver: the handle check names libcuda")
rc, doc, err, wall = verify("v9-ok", "nodevice", ["--no-compile", "--no-gpu"])
expect(doc, "no device", "driver", "not-checked", "no CUDA device")
expect(doc, "no device", "handle", "not-checked", "1001")

# ---- broken installations ------------------------------------------------------

rc, doc, err, wall = verify("v9-missing-cnn", "ok", ["--no-gpu", "--no-compile"])
expect(doc, "v9-missing-cnn", "library-set", "failed", "cudnn_cnn64_9.dll")
expect(doc, "v9-missing-cnn", "handle", "failed", "1008 CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED")
expect(doc, "v9-missing-cnn", "version-checks", "failed", "cudnnCnnVersionCheck")
check(rc == 1, "v9-missing-cnn: exit %d" % rc)

# cudnn_graph64_9.dll's DllMain (its C constructor) writes through a bad
# pointer: the loader catches the access violation and the load fails.
rc, doc, err, wall = verify("v9-crash-load", "ok", ["--no-gpu", "--no-compile"])
expect(doc, "v9-crash-load", "load", "failed", "cudnn_graph64_9.dll", "0xC0000005")
expect(doc, "v9-crash-load", "handle", "failed")
check(rc == 1, "v9-crash-load: exit %d" % rc)
check(wall < 60, "v9-crash-load: took %.1f s" % wall)

# cudnnCreate never returns: the child is killed at the limit, the run goes on.
rc, doc, err, wall = verify("v9-hang-create", "ok", ["--no-gpu", "--no-compile"], timeout="5")
expect(doc, "v9-hang-create", "handle", "failed", "cudnnCreate did not return", "timed out")
expect(doc, "v9-hang-create", "version", "passed")
pr = doc.get("probes", {}).get("cudnn", {})
check(pr.get("timed_out") is True and pr.get("died_in") == "cudnnCreate", "v9-hang-create: probe %r"
      % {k: pr.get(k) for k in ("how", "timed_out", "died_in", "wall_ms")})
check(4000 <= pr.get("wall_ms", 0) < 15000, "v9-hang-create: the child ran %r ms" % pr.get("wall_ms"))
check(wall < 20, "v9-hang-create: the whole run took %.1f s with --timeout 5" % wall)
check(rc == 1, "v9-hang-create: exit %d" % rc)

rc, doc, err, wall = verify("v9-mixed", "ok", ["--no-gpu", "--no-compile"])
expect(doc, "v9-mixed", "version-checks", "failed",
       "cudnnOpsVersionCheck: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH")
expect(doc, "v9-mixed", "handle", "passed")
# Statically too: cudnn_ops64_9.dll's exported constant and version resource say 9.18.0.
expect(doc, "v9-mixed", "header-vs-library", "failed", "header 9.19.0 disagrees", "9.18.0")
check(rc == 1, "v9-mixed: exit %d" % rc)

# Text output: one line per check, the verdict last.
rc, out, err, wall = run(["verify", ok_dir, "--no-gpu", "--no-compile", "--timeout", "10"], "ok")
check(rc == 0 and "verdict: passed-with-unchecked" in out and "cudart64_13.dll is CUDA 13.0" in out,
      "v9-ok text: rc %d\n%s%s" % (rc, out, err))

sys.exit(CHECKS.summary())
