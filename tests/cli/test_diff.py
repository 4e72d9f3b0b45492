"""cudnnctl diff: pairs of doctor documents, each with known differences.

The H200 machine's recorded documents (docs/device/doctor-h200.json,
doctor-frameworks-h200.json) against copies edited here (a driver upgrade, a
GPU added, an installation removed or upgraded, a wheel added, a framework
upgraded, a finding appearing, an environment variable changed, only the
run-to-run facts changed), and documents the tool writes itself with
`doctor --json --root TREE` on copies of a generated machine tree (a driver
change, a wheel added and removed). For each pair: every intended difference
is reported exactly once, in its area, and nothing else is. Then hostile
inputs: each one line on standard error naming the file, exit status 2.

usage: test_diff.py --exe CUDNNCTL --docs DOCS_DEVICE_DIR [--fixtures DIR] [--wrapper=WINE]
Under a wrapper (the Windows build under Wine) every path given to the program
is the Windows one (Z:\\...), as a Windows user would type it.
"""
import atexit
import copy
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

ap = cliutil.parser(wrapper=True)
ap.add_argument("--docs", required=True, help="docs/device")
ap.add_argument("--fixtures", default=None)
args = ap.parse_args()
if cliutil.wrapper_missing(args.wrapper):
    print("SKIP: no %s" % args.wrapper)
    sys.exit(77)
EXE = cliutil.Program(os.path.abspath(args.exe), args.wrapper, timeout=120)
FAILS = []
NCHECKS = [0]


def check(ok, msg):
    NCHECKS[0] += 1
    if not ok:
        FAILS.append(msg)
        print("FAIL: " + msg)


def native(path):
    """A path as the program under test is given it: under Wine the Windows one (Z:\\...)."""
    return cliutil.wine_path(path) if args.wrapper else path


def run(argv, stdin=None):
    """The program with argv, each absolute path in it given as native() makes it."""
    r = EXE.run([native(a) if a.startswith("/") else a for a in argv], stdin=stdin)
    return r.rc, r.out_text, r.err_text


TMP = tempfile.mkdtemp(prefix="cudnnctl-diff-")
# removed however the script ends (an exception in a check, a timeout of a run)
atexit.register(shutil.rmtree, TMP, True)
H200 = os.path.abspath(os.path.join(args.docs, "doctor-h200.json"))
FW = os.path.abspath(os.path.join(args.docs, "doctor-frameworks-h200.json"))
BASE = json.load(open(H200))
BASEFW = json.load(open(FW))


def write(name, doc):
    p = os.path.join(TMP, name)
    with open(p, "w") as f:
        json.dump(doc, f)
    return p


def changes(doc):
    """[(area, kind, subject, what)] of a diff document."""
    return [(g["area"], c["kind"], c["subject"], c["what"]) for g in doc["groups"] for c in g["changes"]]


def expect(label, a, b, want, extra=()):
    """diff A B --json: exactly the changes `want` ([(area, kind, subject, what)]), exit 1 (0 when none);
    the text has one line per change and the summary. extra: more arguments."""
    rc, out, err = run(["diff", "--json"] + list(extra) + [a, b])
    matters = 1 if [w for w in want if w[0] != "volatile"] else 0
    check(rc == matters, "%s: exit %d, want %d (%s)" % (label, rc, matters, err.strip()))
    try:
        doc = json.loads(out)
    except ValueError as e:
        check(False, "%s: --json is not JSON: %s" % (label, e))
        return None
    got = changes(doc)
    check(sorted(got) == sorted(want), "%s: changes %s, want %s" % (label, got, want))
    check(doc["command"] == "diff" and doc["sources"] == {"before": native(a), "after": native(b)},
          "%s: header %s" % (label, doc["sources"]))
    check(doc["summary"]["differences"] == len([w for w in want if w[0] != "volatile"]), "%s: summary" % label)
    for g in doc["groups"]:
        for c in g["changes"]:
            check(c["path"].startswith("/"), "%s: path %r is not a JSON pointer" % (label, c["path"]))
    rc2, text, _ = run(["diff"] + list(extra) + [a, b])
    check(rc2 == rc, "%s: text exit %d, --json %d" % (label, rc2, rc))
    lines = [ln for ln in text.splitlines() if ln.startswith("  ")]
    check(len(lines) == len(want), "%s: %d change lines in the text, want %d:\n%s" % (label, len(lines), len(want), text))
    check(text.rstrip().splitlines()[-1].startswith(("No differences", "%d difference" % len(want))) or not want
          or "volatile" in [w[0] for w in want], "%s: summary line: %s" % (label, text.rstrip().splitlines()[-1]))
    return doc


def verify_docs(doc):
    return [v["document"] for v in doc["facts"]["verify"] if v.get("document")]


# ---- the recorded documents -------------------------------------------------------------
expect("h200 itself", H200, H200, [])
expect("frameworks doc itself", FW, FW, [])
# the two recordings of one machine: only the frameworks (gathered in one, not the other)
d = expect("h200 vs frameworks", H200, FW, [
    ("frameworks", "added", "python /opt/torch/.venv/bin/python3", ""),
    ("frameworks", "added", "python /usr/bin/python3", ""),
    ("frameworks", "added", "torch in /opt/torch/.venv/bin/python3", ""),
    ("frameworks", "added", "jax in /opt/torch/.venv/bin/python3", ""),
    ("frameworks", "added", "onnxruntime in /opt/torch/.venv/bin/python3", ""),
    ("frameworks", "added", "cupy in /opt/torch/.venv/bin/python3", ""),
    ("findings", "added", "framework-cpu-only (onnxruntime in /opt/torch/.venv/bin/python3)", ""),
    ("findings", "added", "framework-other-cudnn (torch in /opt/torch/.venv/bin/python3)", ""),
    ("findings", "added", "framework-other-cudnn (jax in /opt/torch/.venv/bin/python3)", ""),
])

# a driver upgrade: NVML's version and the files' version
e = copy.deepcopy(BASE)
for v in verify_docs(e):
    v["probes"]["driver"]["facts"]["nvml"]["driver_version"] = "590.44.01"
e["facts"]["host"]["driver_files"]["version"] = "590.44.01"
expect("driver upgrade", H200, write("driver.json", e), [("driver", "changed", "driver", "version")])
d = json.loads(run(["diff", "--json", H200, write("driver.json", e)])[1])
c = d["groups"][0]["changes"][0]
check(c["before"] == "580.159.04" and c["after"] == "590.44.01", "driver upgrade: before/after %r" % c)

# a second GPU
e = copy.deepcopy(BASE)
for v in verify_docs(e):
    devs = v["probes"]["driver"]["facts"]["devices"]
    devs.append(dict(devs[0], index=1))
expect("GPU added", H200, write("gpu.json", e), [("driver", "added", "GPU 1 (NVIDIA H200)", "")])
expect("GPU removed", write("gpu.json", e), H200, [("driver", "removed", "GPU 1 (NVIDIA H200)", "")])

# an installation removed (the pip wheel), and its version changed (the distro's)
WHEEL = "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn"
e = copy.deepcopy(BASE)
e["facts"]["list"]["installations"] = [i for i in e["facts"]["list"]["installations"] if i["prefix"] != WHEEL]
expect("installation removed", H200, write("removed.json", e),
       [("cudnn", "removed", "installation %s (pip-wheel)" % WHEEL, "")])
e = copy.deepcopy(BASE)
inst = e["facts"]["list"]["installations"][0]
inst["version"] = "9.15.0"
if inst.get("full_version"):
    inst["full_version"] = "9.15.0.1"
expect("installation version", H200, write("version.json", e), [("cudnn", "changed", "installation /usr (distro-package)", "version")])
# the same version spelled with fewer parts is the same version
e = copy.deepcopy(BASE)
e["facts"]["list"]["installations"][0]["version"] = "9.14"
e["facts"]["list"]["installations"][0]["full_version"] = None
b2 = copy.deepcopy(BASE)
b2["facts"]["list"]["installations"][0]["full_version"] = None
expect("versions as versions", write("v2a.json", b2), write("v2b.json", e), [])
# matched by an alias of its prefix: the same installation
e = copy.deepcopy(BASE)
inst = e["facts"]["list"]["installations"][0]
inst["prefix"], inst["aliases"] = "/", ["/usr"]
expect("matched by alias", H200, write("alias.json", e), [])

# a wheel added elsewhere
e = copy.deepcopy(BASE)
w = copy.deepcopy([i for i in e["facts"]["list"]["installations"] if i["prefix"] == WHEEL][0])
w["prefix"] = "/home/u/venv/lib/python3.12/site-packages/nvidia/cudnn"
w["id"] = 3
e["facts"]["list"]["installations"].append(w)
expect("wheel added", H200, write("wheel.json", e),
       [("cudnn", "added", "installation /home/u/venv/lib/python3.12/site-packages/nvidia/cudnn (pip-wheel)", "")])

# a framework upgraded: torch's version and the cuDNN it loads
e = copy.deepcopy(BASEFW)
for i in e["facts"]["frameworks"]["interpreters"]:
    for f in i.get("frameworks", []):
        if f["name"] == "torch":
            f["info"]["version"] = "2.12.0+cu130"
            f["cudnn"]["version"] = "9.20.0"
expect("torch upgrade", FW, write("torch.json", e),
       [("frameworks", "changed", "torch in /opt/torch/.venv/bin/python3", "version"),
        ("frameworks", "changed", "torch in /opt/torch/.venv/bin/python3", "loaded cuDNN")])

# a finding appearing
e = copy.deepcopy(BASE)
e["findings"].append({"id": "path-missing-entry", "severity": "warning", "area": "hygiene",
                      "summary": "PATH entry 9 does not exist", "evidence": {"variable": "PATH"}, "fix": None,
                      "catalog": None})
expect("finding appears", H200, write("finding.json", e),
       [("findings", "added", "path-missing-entry (PATH)", "")])
expect("finding disappears", write("finding.json", e), H200,
       [("findings", "removed", "path-missing-entry (PATH)", "")])

# an environment variable changed, one added
e = copy.deepcopy(BASE)
e["facts"]["host"]["env"]["CUDA_HOME"] = "/usr/local/cuda-13.0"
e["facts"]["host"]["env"]["CUDNN_PATH"] = "/opt/cudnn"
expect("environment", H200, write("env.json", e),
       [("environment", "changed", "CUDA_HOME", "value"), ("environment", "added", "CUDNN_PATH", "")])

# only what differs from run to run: nothing, exit 0; --all shows each
e = copy.deepcopy(BASE)
vol = []


def bump(v, path):
    if isinstance(v, dict):
        for k in list(v):
            if isinstance(v[k], int) and not isinstance(v[k], bool) and (k.endswith("_ms") or k.endswith("_us")):
                v[k] += 7
                vol.append(path + "/" + k)
            elif isinstance(v[k], str) and "cudnnctl-compile-" in v[k]:
                v[k] = v[k].replace("cudnnctl-compile-", "cudnnctl-compile-X")
                vol.append(path + "/" + k)
            else:
                bump(v[k], path + "/" + k)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            if isinstance(x, str) and "cudnnctl-compile-" in x:
                v[i] = x.replace("cudnnctl-compile-", "cudnnctl-compile-X")
                vol.append(path + "/%d" % i)
            else:
                bump(x, path + "/%d" % i)


bump(e, "")
check(len(vol) > 10, "volatile facts edited: %d" % len(vol))
p = write("volatile.json", e)
expect("run to run", H200, p, [])
d = expect("run to run --all", H200, p, [("volatile", "changed", q, "") for q in vol], extra=["--all"])
rc, out, _ = run(["diff", H200, p])
check("%d facts that differ from run to run left out" % len(vol) in out, "run to run: the text counts them: " + out)

# standard input for one of the two
rc, out, err = run(["diff", "-", H200], stdin=open(H200, "rb").read())
check(rc == 0 and "No differences" in out, "stdin: exit %d %s" % (rc, err))

# ---- documents of the tool itself on generated trees ---------------------------------------
FX = args.fixtures
tree0 = os.path.join(FX, "doctor", "clean-v9") if FX else None
if tree0 is None or not os.path.isdir(tree0):
    print("skip: no fixture trees (%s)" % tree0)
else:
    def doctor(tree, name, sets=()):
        argv = ["doctor", "--json", "--root", tree, "--system", "linux"]
        for s in sets:
            argv += ["--set", s]
        rc, out, err = run(argv)
        check(rc in (0, 1) and out.startswith("{"), "doctor on %s: exit %d %s" % (tree, rc, err))
        p = os.path.join(TMP, name)
        with open(p, "w") as f:
            f.write(out)
        return p

    def copytree(name):
        dst = os.path.join(TMP, name)
        shutil.copytree(tree0, dst, symlinks=True)
        return dst

    t = copytree("t-base")
    a1 = doctor(t, "t1.json")
    a2 = doctor(t, "t2.json")
    expect("tree twice", a1, a2, [])
    # the driver: libcuda.so.580.95.05 becomes libcuda.so.590.44.01
    libdir = os.path.join(t, "usr", "lib", "x86_64-linux-gnu")
    os.rename(os.path.join(libdir, "libcuda.so.580.95.05"), os.path.join(libdir, "libcuda.so.590.44.01"))
    one = os.path.join(libdir, "libcuda.so.1")
    if os.path.islink(one):
        os.unlink(one)
        os.symlink("libcuda.so.590.44.01", one)
    a3 = doctor(t, "t3.json")
    d = expect("tree driver change", a1, a3, [("driver", "changed", "driver", "version")])
    # a pip wheel added to a virtual environment (the same environment variables both times)
    src = os.path.join(FX, "doctor", "pip-not-on-path", "home")
    tw = copytree("t-wheel")
    venv = ["VIRTUAL_ENV=/home/user/venv"]
    w0 = doctor(tw, "w0.json", venv)
    shutil.copytree(src, os.path.join(tw, "home"), symlinks=True)
    w1 = doctor(tw, "w1.json", venv)
    prefix = "/home/user/venv/lib/python3.11/site-packages/nvidia/cudnn"
    got = changes(json.loads(run(["diff", "--json", w0, w1])[1]))
    # the wheel, and what the doctor says of a second installation (a finding that appears)
    want = [("cudnn", "added", "installation %s (pip-wheel)" % prefix, ""),
            ("findings", "added", "multiple-installations", "")]
    expect("tree wheel added", w0, w1, want)
    check(len([c for c in got if c[0] == "cudnn"]) == 1, "tree wheel added: one cudnn change: %s" % got)
    expect("tree wheel removed", w1, w0, [(a, "removed" if k == "added" else "added", s, wt) for a, k, s, wt in want])
    # a file of the installation changed: one change, its files, counted and named
    lib = os.path.join(tw, prefix.lstrip("/"), "lib", "libcudnn_adv.so.9")
    os.unlink(lib)
    w2 = doctor(tw, "w2.json", venv)
    d = json.loads(run(["diff", "--json", w1, w2])[1])
    fc = [c for g in d["groups"] for c in g["changes"] if c["what"] == "files"]
    check(len(fc) == 1 and fc[0]["files"]["removed"] == 1 and fc[0]["files"]["names"] == ["- libcudnn_adv.so.9"],
          "tree file removed: %s" % json.dumps(fc))

# ---- hostile and wrong inputs: one line naming the file, exit 2 --------------------------


def bad(label, path, want_in):
    rc, out, err = run(["diff", H200, path])
    lines = err.strip().splitlines()
    check(rc == 2, "%s: exit %d, want 2 (%s)" % (label, rc, err.strip()))
    check(len(lines) == 1 and native(path) in lines[0] and want_in in lines[0], "%s: error %r" % (label, err))
    check(out == "", "%s: printed %r" % (label, out[:100]))


raw = open(H200, "rb").read()
with open(os.path.join(TMP, "trunc.json"), "wb") as f:
    f.write(raw[: len(raw) // 2])
bad("truncated", os.path.join(TMP, "trunc.json"), "")
bad("a list", write("list.json", [BASE]), "not a doctor document")
bad("another command", write("cmd.json", dict(BASE, command="list")), "\"list\"")
nf = dict(BASE)
del nf["facts"]
bad("no facts", write("nofacts.json", nf), "facts")
bad("newer schema", write("newer.json", dict(BASE, schema_version=99)), "newer")
open(os.path.join(TMP, "empty.json"), "w").close()
bad("empty", os.path.join(TMP, "empty.json"), "")
bad("a directory", TMP, "")
with open(os.path.join(TMP, "latin1.json"), "wb") as f:
    f.write(b'{"command": "doctor\xe9", "facts": {}}')
bad("not UTF-8", os.path.join(TMP, "latin1.json"), "")
with open(os.path.join(TMP, "deep.json"), "wb") as f:
    f.write(b"[" * 100000 + b"]" * 100000)
bad("deep", os.path.join(TMP, "deep.json"), "")
big = os.path.join(TMP, "big.json")
with open(big, "wb") as f:
    f.write(b'{"command": "doctor", "facts": {}, "pad": "')
    f.truncate(100 << 20)
bad("100 MB", big, "")
os.unlink(big)
bad("missing", os.path.join(TMP, "nope.json"), "")
rc, _, err = run(["diff", H200])
check(rc == 2, "one file: exit %d" % rc)
rc, _, err = run(["diff", "-", "-"])
check(rc == 2, "stdin twice: exit %d" % rc)

print("%d checks, %d failed" % (NCHECKS[0], len(FAILS)))
sys.exit(1 if FAILS else 0)
