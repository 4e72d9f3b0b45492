#!/usr/bin/env python3
"""cudnnctl doctor on whole machines: the Linux trees of fixtures/gen-doctor.sh
(one per failure mode of the catalog that a tree shows, and a clean tree of
each cuDNN major) read with --root, and live check-ups with the stub CUDA
driver and cuDNN libraries of fixtures/gen-probe.sh. Each scenario must give
its catalog finding and no other error or warning; a clean installation none.
Also: every finding has evidence and a fix, --json is valid JSON, and
--facts re-runs the checks to the same findings."""
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

args = cliutil.parser(fixtures=True).parse_args()
FX = os.path.abspath(args.fixtures)
D = os.path.join(FX, "doctor")
PROBE = os.path.join(FX, "probe")
CHECKS = cliutil.Checks()
check = CHECKS.check
EXE = cliutil.Program(os.path.abspath(args.exe), setenv={"LC_ALL": "C"}, unset=("NO_COLOR",))
json_tool_ok = cliutil.json_tool_ok


def run(argv, env=None, stdin=None, timeout=300):
    """env, when given, is the whole environment."""
    r = EXE.run(argv, environ=env, stdin=stdin, timeout=timeout)
    return r.rc, r.out, r.err_text


def loud(findings):
    return [f for f in findings if f.get("severity") in ("error", "warning")]


def ids(findings):
    return sorted(f["id"] for f in findings)


def shape(label, doc):
    """Every finding: id, severity, area, summary, evidence (non-empty), fix."""
    for f in doc.get("findings", []):
        tag = "%s: %s" % (label, f.get("id"))
        check(f.get("severity") in ("error", "warning", "info"), tag + ": severity %r" % f.get("severity"))
        check(f.get("area") in ("driver", "toolkit", "cudnn", "loader", "headers", "runtime", "hygiene", "frameworks"),
              tag + ": area %r" % f.get("area"))
        check(isinstance(f.get("summary"), str) and f["summary"], tag + ": no summary")
        check(isinstance(f.get("evidence"), dict) and f["evidence"], tag + ": no evidence")
        check(isinstance(f.get("fix"), str) and f["fix"], tag + ": no fix")
    s = doc.get("summary", {})
    n_err = sum(f["severity"] == "error" for f in doc.get("findings", []))
    n_warn = sum(f["severity"] == "warning" for f in doc.get("findings", []))
    check(s.get("errors") == n_err and s.get("warnings") == n_warn, "%s: summary counts %r" % (label, s))


def recheck(label, doc_bytes, doc):
    """doctor --facts FILE on the saved document: the same findings."""
    with tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False) as t:
        t.write(doc_bytes)
        path = t.name
    try:
        rc, out, err = run(["doctor", "--json", "--facts", path])
        again, why = cliutil.parse_json(out)
        if why is not None:
            check(False, "%s --facts: not JSON (rc %d, %s)" % (label, rc, err))
            return
        check(ids(again.get("findings", [])) == ids(doc.get("findings", [])),
              "%s --facts: %r != %r" % (label, ids(again.get("findings", [])), ids(doc.get("findings", []))))
        check(again.get("rechecked") is True, "%s --facts: not marked rechecked" % label)
    finally:
        os.unlink(path)


def sets_of(name):
    p = os.path.join(D, name + ".set")
    if not os.path.exists(p):
        return []
    return ["--set=" + l.rstrip("\n") for l in open(p) if l.strip()]


def static(name, want, severity=None):
    """doctor --root TREE: `want` (a finding id, or None for a clean machine)
    is there and no other error or warning is."""
    tree = os.path.join(D, name)
    argv = ["doctor", "--root", tree, "--system", "linux"] + sets_of(name)
    rc, out, err = run(argv + ["--json"])
    check(json_tool_ok(out), "%s: --json | python3 -m json.tool fails (rc %d, %s)" % (name, rc, err))
    doc, why = cliutil.parse_json(out)
    if why is not None:
        check(False, "%s: not JSON" % name)
        return None
    check(doc.get("mode") == "static", "%s: mode %r" % (name, doc.get("mode")))
    fs = doc.get("findings", [])
    others = [f["id"] for f in loud(fs) if f["id"] != want]
    check(not others, "%s: unexpected errors/warnings %r" % (name, [(f["id"], f["summary"]) for f in loud(fs)
                                                                  if f["id"] != want]))
    if want is not None:
        mine = [f for f in fs if f["id"] == want]
        check(mine, "%s: no finding %s (got %r)" % (name, want, ids(fs)))
        if severity is not None:
            check(all(f["severity"] == severity for f in mine),
                  "%s: %s severities %r, want %s" % (name, want, [f["severity"] for f in mine], severity))
        for f in mine:
            check(f.get("catalog") is not None, "%s: %s has no catalog entry" % (name, want))
    has_err = any(f["severity"] == "error" for f in fs)
    check(rc == (1 if has_err else 0), "%s: exit %d with errors=%s" % (name, rc, has_err))
    shape(name, doc)
    recheck(name, out, doc)
    # the text report runs too, with the same exit status
    rc2, txt, err2 = run(argv)
    check(rc2 == rc and txt, "%s: text report exit %d, want %d (%s)" % (name, rc2, rc, err2))
    return doc


# ---- static trees -------------------------------------------------------------------

if os.path.exists(os.path.join(D, ".skipped")) or not os.path.isdir(D):
    print("skip: no doctor trees here (%s)" % (open(os.path.join(D, ".skipped")).read().strip()
                                                if os.path.exists(os.path.join(D, ".skipped")) else "not built"))
    sys.exit(77)

SCENARIOS = [
    ("clean-v9", None, None),
    ("clean-v8", None, None),
    ("clean-v7", None, None),
    ("libcudnn-not-found", "linux-libcudnn-not-found", "warning"),
    ("v8-helper-rpath", "linux-v8-helper-rpath", "error"),
    ("broken-flattened", "linux-broken-symlinks", "warning"),
    ("broken-dangling", "linux-broken-symlinks", "error"),
    ("broken-no-soname-link", "linux-broken-symlinks", "error"),
    ("v8-mixed-helpers", "linux-v8-mixed-helpers", "error"),
    ("wsl-libcuda", "wsl-libcuda", "error"),
    ("v9-sublib-unloadable", "v9-sublib-unloadable", "error"),
    ("v9-version-mismatch", "v9-sublibrary-version-mismatch", "error"),
    ("v9-loading-failed", "v9-sublibrary-loading-failed", "error"),
    ("pip-not-on-path", "pip-cudnn-not-on-path", "info"),
    ("conda-vs-system", "conda-vs-system-order", "warning"),
    ("cuda-major-mismatch", "cuda-major-mismatch", "error"),
    ("nvrtc-missing", "nvrtc-missing", "warning"),
    ("no-driver", "not-initialized", "warning"),
    ("driver-too-old", "driver-too-old", "error"),
    ("driver-too-old-runtime", "driver-too-old", "error"),
    ("header-missing", "header-missing", "warning"),
    ("header-lib-mismatch", "header-lib-mismatch", "error"),
    ("renamed-so", "renamed-dll", None),
    ("no-cudnn", "no-cudnn", "error"),
    ("multiple", "multiple-installations", "info"),
    ("path-empty-entry", "path-empty-entry", "warning"),
    ("path-writable-dir", "path-writable-dir", "warning"),
    ("path-missing-entry", "path-missing-entry", "info"),
]
docs = {}
for name, want, sev in SCENARIOS:
    if not os.path.isdir(os.path.join(D, name)):
        check(False, "%s: tree not built" % name)
        continue
    docs[name] = static(name, want, sev)

# A clean machine is healthy: no finding at all above info, verdict healthy.
for name in ("clean-v9", "clean-v8", "clean-v7"):
    doc = docs.get(name) or {}
    check(doc.get("summary", {}).get("verdict") == "healthy", "%s: verdict %r" % (name, doc.get("summary")))
    check(len(doc.get("facts", {}).get("list", {}).get("installations", [])) == 1, "%s: one installation" % name)

# The findings name this machine: the fix of a missing directory is the right one.
doc = docs.get("libcudnn-not-found") or {}
f = next((f for f in doc.get("findings", []) if f["id"] == "linux-libcudnn-not-found"), {})
check("/opt/cudnn/lib" in (f.get("fix") or ""), "libcudnn-not-found: fix %r" % f.get("fix"))
doc = docs.get("driver-too-old") or {}
f = next((f for f in doc.get("findings", []) if f["id"] == "driver-too-old"), {})
check("450.80.02" in f.get("summary", "") and "CUDA 12" in f.get("summary", ""), "driver-too-old: %r" % f.get("summary"))
# the driver read from its files against the CUDA runtime a plain program loads, not only cuDNN's build
doc = docs.get("driver-too-old-runtime") or {}
fs = [f for f in doc.get("findings", []) if f["id"] == "driver-too-old"]
check(len(fs) == 1 and "535.104.05" in fs[0].get("summary", "") and "CUDA 13 runtime" in fs[0].get("summary", "") and
      fs[0].get("evidence", {}).get("runtime_cuda") == 13 and
      fs[0].get("evidence", {}).get("runtime", "").endswith("libcudart.so.13"),
      "driver-too-old-runtime: %r" % [(f.get("summary"), f.get("evidence")) for f in fs])
doc = docs.get("path-writable-dir") or {}
f = next((f for f in doc.get("findings", []) if f["id"] == "path-writable-dir"), {})
# one finding for a repeated condition: each entry is an instance with its own evidence
inst = f.get("evidence", {}).get("instances") or [{}]
check(len(inst) == 1 and inst[0].get("entry") == "/opt/shared/lib" and "chmod o-w" in (f.get("fix") or ""),
      "path-writable-dir: %r" % f)
doc = docs.get("cuda-major-mismatch") or {}
f = next((f for f in doc.get("findings", []) if f["id"] == "cuda-major-mismatch"), {})
check(f.get("evidence", {}).get("name") == "libcublasLt.so.12", "cuda-major-mismatch: %r" % f.get("evidence"))

# ---- --facts: bad input is one line on stderr and exit 2 ------------------------------------

rc, out, err = run(["doctor", "--root", os.path.join(D, "clean-v9"), "--system", "linux", "--json"])
with tempfile.TemporaryDirectory() as t:
    cut = os.path.join(t, "truncated.json")
    with open(cut, "wb") as fh:
        fh.write(out[: len(out) // 2])
    garbage = os.path.join(t, "garbage.json")
    with open(garbage, "wb") as fh:
        fh.write(b"\x7fELF\x00\x01 not json at all {{{")
    other = os.path.join(t, "other.json")
    with open(other, "w") as fh:
        json.dump({"schema_version": 1, "command": "list", "installations": []}, fh)
    for label, path in (("truncated", cut), ("garbage", garbage), ("not a doctor document", other),
                        ("missing file", os.path.join(t, "nope.json"))):
        rc, o, e = run(["doctor", "--facts", path])
        check(rc == 2, "--facts %s: exit %d, want 2" % (label, rc))
        check(e.count("\n") == 1 and e.strip(), "--facts %s: stderr %r, want one line" % (label, e))
        check(not o, "--facts %s: stdout %r" % (label, o[:200]))
    rc, o, e = run(["doctor", "--facts", cut, "--root", "/"])
    check(rc == 2, "--facts with --root: exit %d, want 2" % rc)

# ---- live: the stub driver and cuDNN libraries ------------------------------------------------

if not os.path.isdir(os.path.join(PROBE, "installs")):
    print("skip: no probe fixtures")
else:
    def live(label, driver, install, want, extra_env=None, on_path=False):
        """doctor --json, live, with the stub driver first on LD_LIBRARY_PATH and the
        stub installation named by CUDNN_PATH (or on LD_LIBRARY_PATH). Findings about
        this machine's own cuDNN (which meets a stub driver here) are left out."""
        inst = os.path.join(PROBE, "installs", install)
        env = dict(os.environ)
        env.pop("CUDA_VISIBLE_DEVICES", None)
        env["LC_ALL"] = "C"
        env["LD_LIBRARY_PATH"] = driver + (":" + os.path.join(inst, "lib") if on_path else "")
        env["CUDNN_PATH"] = inst
        env.update(extra_env or {})
        # the frameworks are left out: cli.frameworks and the run below test them
        rc, out, err = run(["doctor", "--json", "--no-compile", "--no-frameworks", "--timeout", "20"], env=env,
                           timeout=600)
        check(json_tool_ok(out), "%s: --json | python3 -m json.tool fails (rc %d, %s)" % (label, rc, err))
        doc, why = cliutil.parse_json(out)
        if why is not None:
            check(False, "%s: not JSON" % label)
            return None
        check(doc.get("mode") == "live", "%s: mode %r" % (label, doc.get("mode")))
        insts = doc.get("facts", {}).get("list", {}).get("installations", [])
        mine = [i for i in insts if os.path.realpath(i.get("prefix", "")) == os.path.realpath(inst)]
        check(len(mine) == 1, "%s: the stub installation was not found (%r)" % (label, [i.get("prefix") for i in insts]))
        foreign = [i for i in insts if i not in mine]
        fids = {i["id"] for i in foreign}

        def ours(f):
            ev = f.get("evidence", {})
            if ev.get("installation") in fids:
                return False
            return not any(i.get("prefix") and i["prefix"] in f.get("summary", "") for i in foreign)

        fs = [f for f in doc.get("findings", []) if ours(f)]
        others = [(f["id"], f["summary"]) for f in loud(fs) if f["id"] != want]
        check(not others, "%s: unexpected errors/warnings %r" % (label, others))
        if want is not None:
            check(any(f["id"] == want for f in fs), "%s: no finding %s (got %r)" % (label, want, ids(fs)))
        shape(label, doc)
        recheck(label, out, doc)
        return doc

    drv = lambda n: os.path.join(PROBE, "drivers", n)  # noqa: E731
    live("live v9 + driver ok", drv("ok"), "v9-ok", None)
    doc = live("live driver too old", drv("old"), "v9-ok", "driver-too-old")
    live("live no device", drv("nodevice"), "v9-ok", "not-initialized")
    # a library whose constructor calls exit(0), or closes every descriptor: the probe's report has
    # no end marker, and that is an error, not a pass
    live("live exit(0) in a constructor", drv("ok"), "v9-exit-load", "v9-sublibrary-loading-failed")
    live("live descriptors closed in a constructor", drv("ok"), "v9-closefds", "v9-sublibrary-loading-failed")
    doc = live("live CUDA_VISIBLE_DEVICES=-1", drv("hidden"), "v9-ok", "not-initialized",
               {"CUDA_VISIBLE_DEVICES": "-1"})
    if doc:
        f = next((f for f in doc["findings"] if f["id"] == "not-initialized"), {})
        check("CUDA_VISIBLE_DEVICES" in f.get("summary", "") and "unset CUDA_VISIBLE_DEVICES" in (f.get("fix") or ""),
              "hidden: %r" % f)
    if not os.path.exists("/proc/driver/nvidia/version"):
        # a directory without libcuda.so.1 first: no driver (unless the machine has one)
        live("live no driver", os.path.join(PROBE, "installs", "v9-ok", "include"), "v9-ok", "not-initialized")
    cc60 = os.path.join(D, "drivers", "cc60")
    if os.path.isdir(cc60):
        doc = live("live sm_60 with cuDNN 9.19", cc60, "v9-ok", "gpu-too-old")
        if doc:
            f = next((f for f in doc["findings"] if f["id"] == "gpu-too-old"), {})
            check(f.get("evidence", {}).get("compute_capability") == "6.0", "gpu-too-old: %r" % f.get("evidence"))
    else:
        check(False, "no drivers/cc60 fixture")
    if os.path.isdir(os.path.join(PROBE, "installs", "v8-guide")):
        live("live cuDNN 8.2.4 on sm_90", drv("ok"), "v8-guide", "guide-pair-unsupported-gpu", on_path=True)
    else:
        check(False, "no installs/v8-guide fixture")

    # ---- the installations verified side by side ----
    # The one a plain program loads is verified in the doctor's own thread, the others beside it,
    # each over its own view of the machine, sharing one driver probe. The document is the serial
    # one's (CUDNNCTL_JOBS=1), every time.
    def sides(label, env, jobs, timeout):
        t0 = time.monotonic()
        rc, out, err = run(["doctor", "--json", "--no-compile", "--no-frameworks", "--timeout", str(timeout)],
                           env=dict(env, CUDNNCTL_JOBS=jobs), timeout=600)
        wall = time.monotonic() - t0
        doc, why = cliutil.parse_json(out)
        check(why is None and doc.get("command") == "doctor", "%s: not a doctor document (%s): %r" %
              (label, why, err[-300:]))
        return rc, (doc or {}), wall

    def verified(doc):
        return [(v.get("installation"), v.get("role"), ((v.get("document") or {}).get("installation") or {})
                 .get("prefix")) for v in doc.get("facts", {}).get("verify", [])]

    def driver_probes(doc):
        """The driver's answers the verify documents hold: one question, one answer."""
        return {json.dumps(cliutil.timeless(((v.get("document") or {}).get("probes") or {}).get("driver")),
                           sort_keys=True) for v in doc.get("facts", {}).get("verify", [])
                if v.get("document")}

    senv = dict(os.environ, LC_ALL="C", LD_LIBRARY_PATH=drv("ok"), CUDNN_PATH=os.path.join(PROBE, "installs", "v9-ok"))
    senv.pop("CUDA_VISIBLE_DEVICES", None)
    rc1, serial, _ = sides("side by side: one at a time", senv, "1", 20)
    check(len(verified(serial)) >= 2, "side by side: fewer than two installations verified: %r" % verified(serial))
    check(len(driver_probes(serial)) == 1, "side by side: driver answers %r" % driver_probes(serial))
    for n in range(20):
        rc, doc, _ = sides("side by side %d" % n, senv, "4", 20)
        a, b = cliutil.timeless(serial), cliutil.timeless(doc)
        check(rc == rc1 and a == b, "side by side %d: the document differs from the serial one's: %s" %
              (n, cliutil.first_diff(a, b)))

    # Two installations whose cudnnCreate never returns (copies of one fixture): each probe runs to its
    # time limit. One at a time the doctor waits for both limits in turn; side by side for about one.
    hang = os.path.join(PROBE, "installs", "v9-hang-create")
    if os.path.isdir(hang):
        with tempfile.TemporaryDirectory() as td:
            ha, hb = os.path.join(td, "hang-a"), os.path.join(td, "hang-b")
            shutil.copytree(hang, ha, symlinks=True)
            shutil.copytree(hang, hb, symlinks=True)
            henv = dict(senv, LD_LIBRARY_PATH=drv("ok") + ":" + os.path.join(ha, "lib"), CUDNN_PATH=hb)
            limit = 3
            rc1, hserial, t1 = sides("two hangs, one at a time", henv, "1", limit)
            rc4, hside, t4 = sides("two hangs, side by side", henv, "4", limit)
            prefixes = [p for _, _, p in verified(hserial)]
            check(ha in prefixes and hb in prefixes, "two hangs: verified %r" % verified(hserial))
            timed = [v for v in hserial.get("facts", {}).get("verify", [])
                     if "timed out after" in json.dumps(v.get("document") or {})]
            check(len(timed) >= 2, "two hangs: %d documents say a probe timed out" % len(timed))
            a, b = cliutil.timeless(hserial), cliutil.timeless(hside)
            check(rc1 == rc4 and a == b, "two hangs: the document differs from the serial one's: %s" %
                  cliutil.first_diff(a, b))
            # the serial run waited for both limits; side by side, each hang stops at its own limit
            check(t1 >= 2 * limit, "two hangs, one at a time: %.1f s, less than two limits of %d s" % (t1, limit))
            check(t4 < 2 * limit, "two hangs, side by side: %.1f s, not less than two limits of %d s" % (t4, limit))
            print("  two hangs of %d s: one at a time %.1f s, side by side %.1f s" % (limit, t1, t4))
    else:
        check(False, "no installs/v9-hang-create fixture")

# ---- live: the frameworks area on this machine -------------------------------------------------

# A fake interpreter environment is cli.frameworks' work; here the doctor's own use of the
# facts: the area is there, every finding of it is a framework finding, and Debian's
# CPU-only python3-torch (installed by scripts/deps.sh) is reported with its fix.
rc, out, err = run(["doctor", "--json", "--no-compile", "--no-gpu", "--timeout", "60"], timeout=600)
doc, why = cliutil.parse_json(out)
check(why is None, "doctor (frameworks): not JSON (%s)" % err)
if doc:
    area = next((a for a in doc.get("areas", []) if a.get("id") == "frameworks"), None)
    check(area is not None and area.get("title") == "Python frameworks", "frameworks area: %r" % area)
    its = doc.get("facts", {}).get("frameworks", {}).get("interpreters")
    check(isinstance(its, list) and len(its) >= 1, "frameworks facts: %r" % its)
    if os.path.isdir("/usr/lib/python3/dist-packages/torch") and os.path.exists("/usr/bin/python3"):
        f = next((f for f in doc.get("findings", []) if f["id"] == "framework-cpu-only"
                  and f.get("evidence", {}).get("python") == "/usr/bin/python3"), None)
        check(f is not None and f["severity"] == "warning" and f["area"] == "frameworks",
              "python3-torch: no framework-cpu-only finding (%r)" % [x["id"] for x in doc.get("findings", [])])
        check(f is not None and "python3-torch" in (f.get("fix") or ""), "python3-torch: fix %r" % (f or {}).get("fix"))
        check("CPU-only" in (area or {}).get("summary", ""), "frameworks area summary: %r" % area)
        check((area or {}).get("status") == "warning", "frameworks area status: %r" % area)
    elif os.environ.get("CI"):
        check(False, "python3-torch is not installed (scripts/deps.sh installs it)")
    else:
        print("SKIP python3-torch: not installed")
    recheck("doctor (frameworks)", out, doc)
    # --no-frameworks: the area says why it was not checked
    rc, out, err = run(["doctor", "--json", "--no-compile", "--no-gpu", "--no-frameworks"], timeout=600)
    d2, why = cliutil.parse_json(out)
    a2 = next((a for a in (d2 or {}).get("areas", []) if a.get("id") == "frameworks"), {})
    check(a2.get("status") == "not-checked" and "--no-frameworks" in a2.get("summary", ""),
          "--no-frameworks: area %r" % a2)
    # no private directory for the framework probe (a full or read-only disk): the rest goes on
    rc, out, err = run(["doctor", "--json", "--no-compile", "--no-gpu"],
                       env=dict(os.environ, TMPDIR="/nonexistent/cudnnctl-tmp"), timeout=600)
    d3, why = cliutil.parse_json(out)
    a3 = next((a for a in (d3 or {}).get("areas", []) if a.get("id") == "frameworks"), {})
    check(rc in (0, 1) and a3.get("status") == "not-checked" and "temporary directory" in a3.get("summary", ""),
          "no temporary directory: exit %d, area %r" % (rc, a3))

sys.exit(CHECKS.summary())
