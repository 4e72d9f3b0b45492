#!/usr/bin/env python3
"""cudnnctl doctor --facts: the checks re-run on facts recorded elsewhere.
The facts of the H200 machine (docs/device/doctor-h200.json, written by
scripts/device/doctor.sh) must give the same verdict here as there: two
installations, the distro's 9.14 for a plain program, a passing GPU proof,
no warnings. Then the facts are edited the way real machines go wrong, and
each edit must give its finding; bad files must give one line and exit 2."""
import copy
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

ap = cliutil.parser()
ap.add_argument("--facts", required=True)
args = ap.parse_args()
EXE = cliutil.Program(os.path.abspath(args.exe), timeout=60)
CHECKS = cliutil.Checks()
check = CHECKS.check


def doctor(doc_or_path, extra=()):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        if isinstance(doc_or_path, str):
            path = doc_or_path
        else:
            json.dump(doc_or_path, f)
            path = f.name
    p = EXE.run(["doctor", "--facts", path] + list(extra), timeout=120)
    os.unlink(f.name)
    return p.rc, p.out_text, p.err_text


def ids(out):
    d = json.loads(out)
    return [(f["severity"], f["id"]) for f in d["findings"]], d


orig = json.load(open(args.facts))

# 1. the recorded verdict, again
rc, out, err = doctor(args.facts, ["--json"])
check(rc == 0, f"H200 facts: exit {rc} ({err.strip()})")
found, d = ids(out)
check(found == [("info", "multiple-installations")], f"H200 facts: findings {found}")
check(d["rechecked"] is True and d["summary"]["verdict"] == "healthy", "rechecked, healthy")
was = {a["id"]: a["status"] for a in orig["areas"]}
check({a["id"]: a["status"] for a in d["areas"] if a["id"] in was} == was, "the same area verdicts as on the machine")
rc, text, err = doctor(args.facts)
check(rc == 0 and "recorded facts" in text and "9.14.0" in text and "GPU work passed" in text, "text of the recheck")
check(all(f.get("catalog") for f in d["findings"]), "every finding has its catalog row")


def edited(fn):
    doc = copy.deepcopy(orig)
    fn(doc)
    return doc


def plain_verify(doc):
    return next(v["document"] for v in doc["facts"]["verify"] if v["role"] == "plain-program")


def driver_check(doc):
    return next(c for l in plain_verify(doc)["layers"] for c in l["checks"] if c["id"] == "driver")


# 2. the same machine, gone wrong in ways the facts can show
def too_old(doc):
    c = driver_check(doc)
    c["status"] = "failed"
    c["summary"] = "driver supports CUDA 12.2, older than the CUDA runtime 13.0"
    c["evidence"]["state"] = "too-old"


def hidden(doc):
    driver_check(doc)["evidence"]["state"] = "hidden"
    doc["facts"]["host"]["env"]["CUDA_VISIBLE_DEVICES"] = "-1"


def maxwell(doc):
    doc["facts"]["verify"][0]["document"]["probes"]["driver"]["facts"]["devices"][0].update(cc_major=5, cc_minor=2)


def mixed(doc):
    for v in doc["facts"]["verify"]:
        for l in v["document"]["layers"]:
            for c in l["checks"]:
                if c["id"] == "version-checks":
                    c["status"] = "failed"
                    c["summary"] = "cudnnOpsVersionCheck: 1002 CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH"


def empty_ld(doc):
    sp = doc["facts"]["host"]["search_paths"][0]
    sp["entries"].insert(0, {"index": 0, "entry": "", "kind": "empty"})


cases = [
    (too_old, "driver-too-old", "error"),
    (hidden, "not-initialized", "warning"),
    (maxwell, "gpu-too-old", "error"),
    (mixed, "v9-sublibrary-version-mismatch", "error"),
    (empty_ld, "path-empty-entry", "warning"),
]
for fn, want, sev in cases:
    rc, out, err = doctor(edited(fn), ["--json"])
    found, d = ids(out)
    check((sev, want) in found, f"{fn.__name__}: want {sev} {want}, got {found}")
    others = [f for f in found if f[1] != want and f[0] != "info"]
    check(not others, f"{fn.__name__}: nothing else: {others}")
    check(rc == (1 if sev == "error" else 0), f"{fn.__name__}: exit {rc}")

# 3. files that are not a doctor's facts: one line on stderr, exit 2
bad = {
    "empty": b"",
    "truncated": open(args.facts, "rb").read()[:5000],
    "garbage": bytes(range(256)) * 4,
    "other-command": json.dumps({"schema_version": 1, "command": "verify", "facts": {}}).encode(),
    "future-schema": json.dumps({"schema_version": 99, "command": "doctor", "facts": {}}).encode(),
}
for name, data in bad.items():
    with tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False) as f:
        f.write(data)
    p = EXE.run(["doctor", "--facts", f.name])
    os.unlink(f.name)
    e = p.err_text.strip()
    check(p.rc == 2 and e.count("\n") == 0 and e.startswith("cudnnctl doctor: --facts"), f"{name}: exit {p.rc}, stderr {e!r}")
    check(p.out == b"", f"{name}: nothing on stdout")
p = EXE.run(["doctor", "--facts", "/nonexistent/facts.json"])
check(p.rc == 2 and b"No such file" in p.err, "missing file")
p = EXE.run(["doctor", "--facts", "-"], stdin=open(args.facts, "rb").read())
check(p.rc == 0 and b"healthy" in p.out, "facts from standard input")
p = EXE.run(["doctor", "--facts", args.facts, "--root", "/"])
check(p.rc == 2, "--facts with --root is refused")

# The frameworks' facts of the same machine (docs/device/doctor-frameworks-h200.json,
# scripts/device/frameworks.sh): PyTorch and JAX load the wheel's 9.19.0, a plain
# program the distro's 9.14.0, ONNX Runtime is the CPU-only package. The verdicts are
# judged again here; then the facts are edited the way frameworks go wrong.
fwpath = os.path.join(os.path.dirname(os.path.abspath(args.facts)), "doctor-frameworks-h200.json")
fworig = json.load(open(fwpath))
rc, out, err = doctor(fwpath, ["--json"])
found, d = ids(out)
check(rc == 0, f"H200 frameworks facts: exit {rc} ({err.strip()})")
check(found == [(f["severity"], f["id"]) for f in fworig["findings"]], f"H200 frameworks facts: findings {found}")
area = next(a for a in d["areas"] if a["id"] == "frameworks")
check(area == next(a for a in fworig["areas"] if a["id"] == "frameworks"), f"frameworks area: {area}")
check("torch 2.11.0+cu130: cuDNN 9.19.0 from /opt/torch/.venv" in area["summary"], f"frameworks area: {area}")
own = [f for f in d["findings"] if f["id"] == "framework-other-cudnn"]
check(own and own[0]["severity"] == "info" and "own cuDNN 9.19.0" in own[0]["summary"]
      and "9.14.0" in own[0]["summary"], f"PyTorch's own copy against the plain program's: {own}")


def torch_of(doc):
    for it in doc["facts"]["frameworks"]["interpreters"]:
        for f in it.get("frameworks", []):
            if f["name"] == "torch":
                return f
    return None


# PyTorch finds the distro's 9.14 first (LD_LIBRARY_PATH): older than its build, not its wheel
e = copy.deepcopy(fworig)
t = torch_of(e)
check(t is not None, "the recorded facts have PyTorch")
if t:
    t["runtime"]["cudnn"] = "9.14.0"
    for m in t["modules"]["files"]:
        if m["family"] == "cudnn":
            m["path"] = "/usr/lib/x86_64-linux-gnu/" + os.path.basename(m["path"])
    rc, out, err = doctor(e, ["--json"])
    found, d = ids(out)
    check(rc == 1 and ("error", "runtime-older-than-build") in found and ("warning", "framework-other-cudnn") in found,
          f"torch on the distro's 9.14: exit {rc}, {found}")
    # half from each: a mixed load
    e2 = copy.deepcopy(fworig)
    t2 = torch_of(e2)
    cud = [m for m in t2["modules"]["files"] if m["family"] == "cudnn"]
    cud[0]["path"] = "/usr/lib/x86_64-linux-gnu/" + os.path.basename(cud[0]["path"])
    rc, out, err = doctor(e2, ["--json"])
    found, d = ids(out)
    check(("error", "framework-mixed-load") in found, f"torch from two directories: {found}")
    # a CPU-only PyTorch
    e3 = copy.deepcopy(fworig)
    torch_of(e3)["build"]["cuda_build"] = False
    rc, out, err = doctor(e3, ["--json"])
    found, d = ids(out)
    check(("warning", "framework-cpu-only") in found and sum(1 for x in found if x[1] == "framework-cpu-only") == 2,
          f"CPU-only torch: {found}")

sys.exit(CHECKS.summary("doctor --facts"))
