#!/usr/bin/env python3
"""cudnnctl verify: the three layers of proof, on this machine's real cuDNN
9.19 (no NVIDIA driver here) and on stub CUDA driver / runtime / cuDNN 7, 8
and 9 libraries built at test time (fixtures/gen-probe.sh): chosen versions
and statuses, a crash in a constructor, a hang in cudnnCreate, a missing
sub-library, mixed sub-library versions, noise on stdout. Each must give the
right verdict, and the tool must survive every one within its time limit."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

args = cliutil.parser(fixtures=True).parse_args()
EXE = cliutil.Program(os.path.abspath(args.exe), timeout=120)
PROBE = os.path.join(args.fixtures, "probe")
CHECKS = cliutil.Checks()
check = CHECKS.check


def run(argv, env_extra=None, unset=(), timeout=120):
    r = EXE.run(argv, env=env_extra, unset=unset, timeout=timeout)
    return r.rc, r.out_text, r.err_text, r.wall


def verify_json(argv, env_extra=None, unset=()):
    rc, out, err, wall = run(argv + ["--json"], env_extra, unset)
    doc, why = cliutil.parse_json(out)
    if why is not None:
        print("not JSON:", argv, out[:500], err[:500])
    return rc, doc, err, wall


checks_of = cliutil.checks_of


def layer(doc, lid):
    return next((l for l in doc.get("layers", []) if l["id"] == lid), {})


def expect(doc, name, cid, status, *contains):
    cliutil.expect_check(check, doc, name, cid, status, *contains)


# ---- this machine: the real cuDNN 9.19 of CUDA 13.0, no NVIDIA driver ------------

real = "/usr/local/cuda/include/cudnn_version.h"
if os.path.exists(real) and not os.path.exists("/proc/driver/nvidia/version"):
    rc, doc, err, wall = verify_json(["verify"], unset=("LD_LIBRARY_PATH",))
    check(rc == 0, "real machine: exit %d, want 0 (%s)" % (rc, err))
    if doc:
        inst = doc["installation"]
        check(inst["prefix"].startswith("/usr/local/cuda"), "real: installation %s" % inst["prefix"])
        check("plain program" in inst["chosen_by"], "real: chosen by %s" % inst["chosen_by"])
        expect(doc, "real", "header-vs-library", "passed", "header 9.19.0")
        expect(doc, "real", "version", "passed", "cudnnGetVersion 91900")
        expect(doc, "real", "cudart", "passed", "libcudart.so.13 is CUDA 13.")
        expect(doc, "real", "version-checks", "passed", "4 of 4")
        expect(doc, "real", "one-directory", "passed")
        expect(doc, "real", "driver", "not-checked", "stub")
        expect(doc, "real", "handle", "not-checked", "1001 CUDNN_STATUS_NOT_INITIALIZED")
        check("libcuda.so" in checks_of(doc)["driver"]["summary"], "real: the driver summary names libcuda.so")
        expect(doc, "real", "gpu-work", "not-checked", "no NVIDIA driver")
        expect(doc, "real", "compile", "passed", "cudnnGetVersion 91900, cudnnCreate 1001")
        check(doc["summary"]["verdict"] == "passed-with-unchecked", "real: verdict %s" % doc["summary"]["verdict"])
        cr = doc["probes"]["cudnn"]["facts"]["create"]
        check(cr["code"] == 1001 and cr["name"] == "CUDNN_STATUS_NOT_INITIALIZED", "real: create %r" % cr)
        check(doc["compile"]["printed"].get("runtime_version") == 91900, "real: compiled program printed %r"
              % doc["compile"]["printed"])
    # --gpu: GPU work is required, and cannot run here.
    rc, doc, err, wall = verify_json(["verify", "--gpu", "--no-compile"], unset=("LD_LIBRARY_PATH",))
    check(rc == 1, "real --gpu: exit %d, want 1" % rc)
    if doc:
        expect(doc, "real --gpu", "gpu-work", "failed", "--gpu asked for GPU work")
    # Text output: one line per check, the verdict last.
    rc, out, err, wall = run(["verify", "--no-compile"], unset=("LD_LIBRARY_PATH",))
    check(rc == 0 and "verdict: passed-with-unchecked" in out and "CUDNN_STATUS_NOT_INITIALIZED" in out,
          "real text: rc %d\n%s%s" % (rc, out, err))
    # The compile proof's build is kept in the cache and run again while its inputs are unchanged; --recompile
    # builds afresh; the doctor's proof uses the same cache; no cache directory (no HOME): built each time.
    with tempfile.TemporaryDirectory() as cache:
        env = {"XDG_CACHE_HOME": cache}
        docs = [verify_json(["verify"] + extra, env, unset=("LD_LIBRARY_PATH",)) for extra in ([], [], ["--recompile"])]
        comp = [d[1].get("compile", {}) if d[1] else {} for d in docs]
        check(all(d[0] == 0 for d in docs) and all(c.get("status") == "passed" for c in comp),
              "reuse: exits %r, statuses %r" % ([d[0] for d in docs], [c.get("status") for c in comp]))
        check("reused" not in comp[0] and "-MD" in comp[0].get("command", []), "reuse: the first proof compiled")
        r = comp[1].get("reused") or {}
        check(r.get("inputs", 0) > 10 and r.get("entry", "").startswith(cache + "/cudnnctl/compile-v1/"),
              "reuse: the second proof ran the kept build: %r" % r)
        check(comp[1].get("printed", {}).get("runtime_version") == 91900 and comp[1].get("run", {}).get("exit") == 2,
              "reuse: the kept build ran now: %r" % comp[1].get("run"))
        expect(docs[1][1], "reuse", "compile", "passed", "and run again (its inputs unchanged", "cudnnGetVersion 91900")
        check("reused" not in comp[2], "reuse: --recompile compiled")
        entries = os.listdir(os.path.join(cache, "cudnnctl", "compile-v1"))
        check(len([e for e in entries if not e.startswith(".")]) == 1, "reuse: one entry, %r" % entries)
        check(oct(os.stat(os.path.join(cache, "cudnnctl", "compile-v1")).st_mode & 0o777) == "0o700",
              "reuse: the cache directory is private")
        rc, out, err, _ = run(["doctor", "--no-frameworks", "--json"], env, unset=("LD_LIBRARY_PATH",))
        dd, _ = cliutil.parse_json(out)
        vc = (((dd or {}).get("facts", {}).get("verify") or [{}])[0].get("document") or {}).get("compile", {})
        check("reused" in vc and vc.get("status") == "passed", "reuse: the doctor ran the kept build: %r"
              % {k: vc.get(k) for k in ("status", "reused", "cache_notes")})
    rc, doc, err, wall = verify_json(["verify"], unset=("LD_LIBRARY_PATH", "HOME", "XDG_CACHE_HOME"))
    check(rc == 0 and doc and doc["compile"]["status"] == "passed" and "reused" not in doc["compile"],
          "no HOME: rc %d, compiled each time" % rc)
else:
    print("skip: no real cuDNN without a driver here")

# ---- usage and not found ---------------------------------------------------------

rc, out, err, _ = run(["verify", "/nonexistent/cudnn"])
check(rc == 3 and "nonexistent" in err and err.count("\n") == 1, "missing INSTALL: rc %d %r" % (rc, err))
rc, out, err, _ = run(["verify", "--timeout", "0"])
check(rc == 2, "bad --timeout: rc %d" % rc)

# ---- stub fixtures --------------------------------------------------------------

if not os.path.isdir(os.path.join(PROBE, "installs")):
    print("skip: no probe fixtures")
    sys.exit(CHECKS.summary())


def fx(name, driver, extra=(), env=None):
    e = {"LD_LIBRARY_PATH": os.path.join(PROBE, "drivers", driver)} if driver else {}
    e.update(env or {})
    unset = ("LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES") if not driver else ("CUDA_VISIBLE_DEVICES",)
    return verify_json(["verify", os.path.join(PROBE, "installs", name), "--timeout", "5"] + list(extra), e, unset)


def verify_fx(name, driver, extra=(), env=None):
    rc, doc, err, wall = fx(name, driver, extra, env)
    check(doc is not None, "%s: JSON" % name)
    check(wall < 60, "%s: took %.1f s" % (name, wall))
    return rc, doc or {"layers": []}, err, wall


# A clean cuDNN 9 with a working (stub) driver: every layer passes.
rc, doc, err, wall = verify_fx("v9-ok", "ok", ["--no-gpu"])
check(rc == 0, "v9-ok: exit %d (%s)" % (rc, err))
for cid in ("header-vs-library", "library-set", "driver", "load", "version", "cudart", "version-checks",
            "one-directory", "handle", "compile"):
    expect(doc, "v9-ok", cid, "passed")
expect(doc, "v9-ok", "gpu-work", "not-checked", "--no-gpu")
expect(doc, "v9-ok", "driver", "passed", "Fixture GPU")

# With a (stub) GPU the GPU probe runs: the stub runtime has no cudaMalloc, so
# no operation can run; that is not a failure unless --gpu asks for GPU work.
rc, doc, err, wall = verify_fx("v9-ok", "ok", ["--no-compile"])
expect(doc, "v9-ok gpu", "gpu-work", "not-checked", "cudaMalloc")
check(rc == 0, "v9-ok gpu: exit %d" % rc)
ops = checks_of(doc).get("gpu-work", {}).get("evidence", {}).get("operations", [])
check(len(ops) == 5 and all(o["status"] == "not-run" for o in ops), "v9-ok gpu: operations %r" % ops)
check("cudnn_gpu" in doc.get("probes", {}), "v9-ok gpu: the GPU probe ran")
rc, doc, err, wall = verify_fx("v9-ok", "ok", ["--no-compile", "--gpu"])
expect(doc, "v9-ok --gpu", "gpu-work", "failed", "no operation could run")
check(rc == 1, "v9-ok --gpu: exit %d" % rc)

# The driver probe and cuDNN's own run side by side: with a driver whose cuInit
# takes 2 s, the three probes one after another (driver, cuDNN, then the CUDA
# runtime, which waits for cuDNN's answer) take 6 s; side by side about 4.
rc, doc, err, wall = verify_fx("v9-ok", "ok", ["--no-compile", "--no-gpu"], {"FX_CUINIT_SLEEP_MS": "2000"})
for cid in ("driver", "handle", "cudart"):
    expect(doc, "slow driver", cid, "passed")
check(rc == 0, "slow driver: exit %d (%s)" % (rc, err))
check(4.0 <= wall < 5.6, "slow driver: %.1f s, not the 4 s of two waits for cuInit (one at a time: 6)" % wall)

# Each driver state, told apart.
rc, doc, err, wall = verify_fx("v9-ok", None, ["--no-compile"])
expect(doc, "no driver", "driver", "not-checked", "no NVIDIA driver")
expect(doc, "no driver", "handle", "not-checked", "1001")
check(rc == 0, "no driver: exit %d" % rc)
rc, doc, err, wall = verify_fx("v9-ok", "stub", ["--no-compile"])
expect(doc, "stub driver", "driver", "not-checked", "CUDA_ERROR_STUB_LIBRARY")
rc, doc, err, wall = verify_fx("v9-ok", "nodevice", ["--no-compile"])
expect(doc, "no device", "driver", "not-checked", "no CUDA device")
rc, doc, err, wall = verify_fx("v9-ok", "hidden", ["--no-compile"], {"CUDA_VISIBLE_DEVICES": "-1"})
expect(doc, "hidden", "driver", "not-checked", "CUDA_VISIBLE_DEVICES")
rc, doc, err, wall = verify_fx("v9-ok", "hidden", ["--no-compile", "--no-gpu"])
expect(doc, "hidden but not hiding", "driver", "passed")
rc, doc, err, wall = verify_fx("v9-ok", "old", ["--no-compile"])
expect(doc, "old driver", "driver", "failed", "older than the CUDA runtime")
check(rc == 1, "old driver: exit %d" % rc)

# Broken installations.
rc, doc, err, wall = verify_fx("v9-mixed", "ok", ["--no-gpu", "--no-compile"])
expect(doc, "v9-mixed", "version-checks", "failed", "cudnnOpsVersionCheck: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH")
check(rc == 1, "v9-mixed: exit %d" % rc)
rc, doc, err, wall = verify_fx("v9-missing-cnn", "ok", ["--no-gpu", "--no-compile"])
expect(doc, "v9-missing-cnn", "library-set", "failed", "libcudnn_cnn.so.9")
expect(doc, "v9-missing-cnn", "handle", "failed", "1008 CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED")
rc, doc, err, wall = verify_fx("v9-crash-load", "ok", ["--no-gpu", "--no-compile"])
# SIGSEGV; under AddressSanitizer (abort_on_error) its handler turns the crash into SIGABRT. The probe
# opens the shim as a program does, and the shim loads libcudnn_graph at the first call that needs it
# (its version check), where the process dies, as the program does.
expect(doc, "v9-crash-load", "probe", "failed", "ended in cudnnGraphVersionCheck: killed by signal")
expect(doc, "v9-crash-load", "load", "not-checked", "the shim loaded")
crash = checks_of(doc).get("probe", {}).get("summary", "")
check("SIGSEGV" in crash or ("SIGABRT" in crash and "ASAN_OPTIONS" in os.environ), "v9-crash-load: %s" % crash)
check(rc == 1, "v9-crash-load: exit %d" % rc)
rc, doc, err, wall = verify_fx("v9-hang-create", "ok", ["--no-gpu", "--no-compile"])
expect(doc, "v9-hang-create", "handle", "failed", "timed out")
check(wall < 30, "v9-hang-create: the hang cost %.1f s" % wall)
rc, doc, err, wall = verify_fx("v9-noisy", "ok", ["--no-gpu", "--no-compile"])
expect(doc, "v9-noisy", "handle", "passed")
printed = doc.get("probes", {}).get("cudnn", {}).get("printed_bytes", 0)
check(printed >= 8 << 20, "v9-noisy: printed_bytes %d" % printed)
check(len(doc.get("probes", {}).get("cudnn", {}).get("output_tail", "")) <= 2048, "v9-noisy: output tail bounded")
rc, doc, err, wall = verify_fx("v9-header-mismatch", "ok", ["--no-gpu", "--no-compile"])
expect(doc, "v9-header-mismatch", "header-vs-library", "failed", "header 9.19.0 disagrees")
expect(doc, "v9-header-mismatch", "version", "failed", "header says 9.19.0")
rc, doc, err, wall = verify_fx("v9-cuda12", "ok", ["--no-gpu", "--no-compile"])
expect(doc, "v9-cuda12", "cudart", "passed", "libcudart.so.12 is CUDA 12.9")
# A library that ends the process or its report: exit(0) or closing every descriptor in a
# constructor is no pass, whatever the exit status says (the report has no end marker).
for name, status in (("v9-exit-load", 0), ("v9-closefds", None), ("v9-quick-exit-load", 3)):
    rc, doc, err, wall = verify_fx(name, "ok", ["--no-gpu", "--no-compile"])
    check(rc == 1, "%s: exit %d, want 1" % (name, rc))
    expect(doc, name, "load", "failed", "libcudnn.so.9", "before its report was complete")
    pr = doc.get("probes", {}).get("cudnn", {})
    check(pr.get("complete") is False and pr.get("died_in") == "load libcudnn.so.9",
          "%s: probe %r" % (name, {k: pr.get(k) for k in ("complete", "died_in", "how", "exit")}))
    check(status is None or pr.get("exit") == status, "%s: probe exit %r" % (name, pr.get("exit")))
    check(doc.get("summary", {}).get("verdict") == "failed", "%s: verdict %r" % (name, doc.get("summary")))
rc, doc, err, wall = verify_fx("v9-ok", "ok", ["--no-gpu", "--no-compile"])
check(doc.get("probes", {}).get("cudnn", {}).get("complete") is True, "v9-ok: the report is not complete")
rc, doc, err, wall = verify_fx("v9-status", "ok", ["--no-gpu", "--no-compile"])
expect(doc, "v9-status", "handle", "failed", "4000 CUDNN_STATUS_INTERNAL_ERROR")
rc, doc, err, wall = verify_fx("v9-wheel", "ok", ["--no-gpu"])
expect(doc, "v9-wheel", "load", "passed")
expect(doc, "v9-wheel", "compile", "passed")
notes = json.dumps(doc.get("compile", {}))
check("-lcudnn" in notes, "v9-wheel: the compile layer says plain -lcudnn would fail")

# cuDNN 8 and 7.
rc, doc, err, wall = verify_fx("v8-ok", "ok", ["--no-gpu"])
check(rc == 0, "v8-ok: exit %d" % rc)
expect(doc, "v8-ok", "version-checks", "passed", "6 of 6")
expect(doc, "v8-ok", "version", "passed", "8.9.7")
expect(doc, "v8-ok", "compile", "passed")
rc, doc, err, wall = verify_fx("v8-mixed", "ok", ["--no-gpu", "--no-compile"])
expect(doc, "v8-mixed", "version-checks", "failed", "CUDNN_STATUS_VERSION_MISMATCH")
rc, doc, err, wall = verify_fx("v8-missing-cnn", "ok", ["--no-gpu", "--no-compile"])
expect(doc, "v8-missing-cnn", "library-set", "failed", "libcudnn_cnn_infer.so.8")
expect(doc, "v8-missing-cnn", "handle", "failed", "SIGABRT")
rc, doc, err, wall = verify_fx("v7-ok", "ok", ["--no-gpu"])
check(rc == 0, "v7-ok: exit %d" % rc)
expect(doc, "v7-ok", "version", "passed", "7.6.5")
expect(doc, "v7-ok", "version-checks", "passed", "no sub-libraries")

# --root: static only, nothing loaded or run.
rc, doc, err, wall = verify_json(["verify", "--root", os.path.join(PROBE, "installs", "v9-ok"), "/lib"])
if doc:
    expect(doc, "--root", "runtime", "not-checked", "--root")
    expect(doc, "--root", "compile", "not-checked", "--root")

sys.exit(CHECKS.summary())
