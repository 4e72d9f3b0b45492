#!/usr/bin/env python3
"""cudnnctl frameworks on fake frameworks built at test time: the packages of
fixtures/frameworks/site (torch, tensorflow, jax, onnxruntime, cupy) copied
into temporary site-packages with chosen answers, loading stub cuDNN
libraries (fixtures/frameworks/stub.c, built here) from directories shaped
like real installations (a nvidia-cudnn-cu12 wheel, a copy elsewhere). The
interpreter is /usr/bin/python3, given with --python, reaching the fake site
through PYTHONPATH or a fake virtual environment (which discovery finds
through VIRTUAL_ENV). Each scenario must give its verdicts, states and exit
status; hangs, crashes, floods of output and hostile interpreters must be
reported, never stop the run. Also Debian's CPU-only python3-torch when it is
installed, and the command line's refusals."""
import atexit
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

ap = cliutil.parser()
ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
args = ap.parse_args()
SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "frameworks")
PY = "/usr/bin/python3"
CC = shutil.which("cc") or shutil.which("gcc")
if not os.path.exists(PY) or CC is None:
    print("SKIP: needs %s and a C compiler" % PY)
    sys.exit(77)
# The program sees this process's environment less what would change what it
# finds; each run adds its own.
EXE = cliutil.Program(os.path.abspath(args.exe), setenv={"LC_ALL": "C"},
                      unset=("NO_COLOR", "VIRTUAL_ENV", "CONDA_PREFIX", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP",
                             "PYTHONNOUSERSITE", "LD_LIBRARY_PATH", "LD_PRELOAD"), timeout=240)
CHECKS = cliutil.Checks(limit=600)
check = CHECKS.check
PYFULL = subprocess.run([PY, "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"], capture_output=True,
                        text=True, check=True).stdout.strip()
PYVER = PYFULL.rsplit(".", 1)[0]
PY_REAL = os.path.realpath(PY)
T0 = time.monotonic()
TMP = os.path.realpath(tempfile.mkdtemp(prefix="cudnnctl-fwtest-"))  # maps shows resolved paths
if not args.keep:
    atexit.register(shutil.rmtree, TMP, True)
# An empty home: no user site-packages, no pyenv or conda of the user's found
HOME = os.path.join(TMP, "home")
os.makedirs(HOME)
EXE.setenv["HOME"] = HOME
# The tool's private directory (where it writes the probe script) goes here; it must be gone after each run
RUNTMP = os.path.join(TMP, "runtmp")
os.makedirs(RUNTMP)
EXE.setenv["TMPDIR"] = RUNTMP
COUNTS = []  # (scenario, checks, failed)




class scenario:
    """Names a scenario ("== NAME") and counts its checks for the table at the end."""

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        self.p, self.f = CHECKS.passed, len(CHECKS.failures)
        print("== %s" % self.name, flush=True)
        return self

    def __exit__(self, *exc):
        n = CHECKS.passed - self.p + len(CHECKS.failures) - self.f
        COUNTS.append((self.name, n, len(CHECKS.failures) - self.f))
        return False


# ---- building the fakes -----------------------------------------------------------------------------------------

STUB_CACHE = {}


def stub(path, soname, version=None):
    """A stub cuDNN library at path: with version, exporting cudnnGetVersion
    (version) and cudnnGetCudartVersion (12040)."""
    key = (soname, version)
    if key not in STUB_CACHE:
        out = os.path.join(TMP, "stubs", "%s-%s" % (soname, version))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        cmd = [CC, "-shared", "-fPIC", "-O0", "-o", out, os.path.join(SRC, "stub.c"), "-Wl,-soname," + soname]
        if version is not None:
            cmd.insert(1, "-DSTUB_VERSION=%dUL" % version)
        subprocess.run(cmd, check=True)
        STUB_CACHE[key] = out
    os.makedirs(os.path.dirname(path), exist_ok=True)
    shutil.copyfile(STUB_CACHE[key], path)
    return path


def cudnn_dir(d, version=90100, names=("libcudnn.so.9", "libcudnn_graph.so.9", "libcudnn_ops.so.9",
                                        "libcudnn_cnn.so.9")):
    """A directory of cuDNN 9 libraries (libcudnn and libcudnn_graph answer
    version); their paths by name."""
    out = {}
    for n in names:
        exports = n.startswith(("libcudnn.so", "libcudnn_graph.so", "libcudnn_ops_infer.so"))
        out[n] = stub(os.path.join(d, n), n, version if exports else None)
    return out


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def cudnn_wheel(site, version="9.1.0.70", number=90100):
    """The nvidia-cudnn-cu12 wheel as pip installs it: SITE/nvidia/cudnn
    (lib, include) and its dist-info (METADATA, RECORD, INSTALLER). Returns
    the library paths by name."""
    if number >= 10000:  # cuDNN 9: major * 10000 + minor * 100 + patch
        major, minor, patch = number // 10000, number % 10000 // 100, number % 100
        libs = cudnn_dir(os.path.join(site, "nvidia", "cudnn", "lib"), number)
    else:  # up to cuDNN 8: major * 1000 + minor * 100 + patch
        major, minor, patch = number // 1000, number % 1000 // 100, number % 100
        libs = cudnn_dir(os.path.join(site, "nvidia", "cudnn", "lib"), number,
                         ("libcudnn.so.8", "libcudnn_ops_infer.so.8", "libcudnn_cnn_infer.so.8"))
    write(os.path.join(site, "nvidia", "cudnn", "include", "cudnn_version.h"),
          "#define CUDNN_MAJOR %d\n#define CUDNN_MINOR %d\n#define CUDNN_PATCHLEVEL %d\n" % (major, minor, patch))
    write(os.path.join(site, "nvidia", "__init__.py"), "")
    write(os.path.join(site, "nvidia", "cudnn", "__init__.py"), "")
    di = os.path.join(site, "nvidia_cudnn_cu12-%s.dist-info" % version)
    write(os.path.join(di, "METADATA"), "Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: %s\n"
          "Requires-Dist: nvidia-cublas-cu12\n\nThe cuDNN wheel (a test fake).\n" % version)
    write(os.path.join(di, "INSTALLER"), "pip\n")
    record = ["nvidia/__init__.py,,", "nvidia/cudnn/__init__.py,,", "nvidia/cudnn/include/cudnn_version.h,,"]
    record += ["nvidia/cudnn/lib/%s,," % n for n in sorted(libs)]
    record += ["nvidia_cudnn_cu12-%s.dist-info/%s,," % (version, n) for n in ("METADATA", "INSTALLER", "RECORD")]
    write(os.path.join(di, "RECORD"), "\n".join(record) + "\n")
    return libs


def dist_info(site, name, version, requires=()):
    d = os.path.join(site, "%s-%s.dist-info" % (name.replace("-", "_"), version))
    write(os.path.join(d, "METADATA"), "Metadata-Version: 2.1\nName: %s\nVersion: %s\n%s\n" %
          (name, version, "".join("Requires-Dist: %s\n" % r for r in requires)))
    write(os.path.join(d, "INSTALLER"), "pip\n")
    write(os.path.join(d, "RECORD"), "")


PACKAGES = {"torch": ("torch",), "tensorflow": ("tensorflow",), "jax": ("jax", "jaxlib", "jax_cuda12_plugin"),
            "onnxruntime": ("onnxruntime",), "cupy": ("cupy", "cupy_backends")}
TORCH_REQ = 'nvidia-cudnn-cu12==9.1.0.70; platform_system == "Linux" and platform_machine == "x86_64"'
DIST = {"torch": ("torch", "2.4.0", [TORCH_REQ, "filelock"]), "tensorflow": ("tensorflow", "2.16.1", []),
        "jax": ("jax", "0.6.2", []), "onnxruntime": ("onnxruntime-gpu", "1.20.1", []), "cupy": ("cupy-cuda12x",
                                                                                               "13.3.0", [])}


def site(path, settings, dists=True):
    """A site-packages at path with the fake frameworks named by settings
    ({framework: its _fakefw.json section}) and their dist-infos."""
    os.makedirs(path, exist_ok=True)
    shutil.copyfile(os.path.join(SRC, "site", "_fakefw.py"), os.path.join(path, "_fakefw.py"))
    for fw in settings:
        for pkg in PACKAGES[fw]:
            shutil.copytree(os.path.join(SRC, "site", pkg), os.path.join(path, pkg),
                            ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
        if dists:
            name, version, req = DIST[fw]
            dist_info(path, name, settings[fw].get("version", version), req)
    with open(os.path.join(path, "_fakefw.json"), "w") as f:
        json.dump(settings, f, indent=1)
    return path


def venv(path, system_site=False):
    """A virtual environment of /usr/bin/python3 (pyvenv.cfg and bin/python3,
    bin/python links); its site-packages."""
    os.makedirs(os.path.join(path, "bin"))
    write(os.path.join(path, "pyvenv.cfg"), "home = %s\ninclude-system-site-packages = %s\nversion = %s\n" %
          (os.path.dirname(PY), "true" if system_site else "false", PYVER))
    os.symlink(PY, os.path.join(path, "bin", "python3"))
    os.symlink("python3", os.path.join(path, "bin", "python"))
    sp = os.path.join(path, "lib", "python" + PYVER, "site-packages")
    os.makedirs(sp)
    return sp


def vpython(sp):
    """The python3 of the virtual environment whose site-packages is sp."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(sp))), "bin", "python3")


def script(path, text):
    write(path, text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


# ---- running ------------------------------------------------------------------------------------------------------

def run(argv, env=None, environ=None, timeout=None):
    return EXE.run(["frameworks"] + argv, env=env, environ=environ, timeout=timeout)


ALL_TEXT = []  # (label, text) of every text run, for the checks that hold for all


def fw_json(label, argv, env=None, environ=None):
    """(rc, doc) of frameworks --json argv; the document must be JSON that
    python3 -m json.tool takes, with a summary that adds up."""
    r = run(argv + ["--json"], env, environ)
    doc, why = cliutil.parse_json(r.out)
    check(doc is not None, "%s: --json output is not JSON (%s): %r / %r" % (label, why, r.out[:300], r.err[:300]))
    if doc is None:
        return r.rc, {}
    check(cliutil.json_tool_ok(r.out), "%s: python3 -m json.tool refuses the output" % label)
    check(doc.get("command") == "frameworks", "%s: command %r" % (label, doc.get("command")))
    summary_adds_up(label, doc)
    return r.rc, doc


def fw_text(label, argv, env=None, environ=None):
    r = run(argv, env, environ)
    ALL_TEXT.append((label, r.out_text))
    return r.rc, r.out_text, r.err_text


def summary_adds_up(label, doc):
    s = doc.get("summary", {})
    its = doc.get("interpreters", [])
    fws = [f for it in its for f in it.get("frameworks", [])]
    vlist = [f.get("verdict") for f in fws]
    want = {"interpreters": len(its), "probed": sum(it.get("state") == "probed" for it in its),
            "frameworks": len(fws), "failed": vlist.count("fail"), "warnings": vlist.count("warn"),
            "notes": vlist.count("note")}
    got = dict((k, s.get(k)) for k in want)
    check(got == want, "%s: summary %r, counted %r" % (label, got, want))
    for f in fws:
        vs = f.get("verdicts", [])
        check(f.get("verdict") == worst(vs) if vs else f.get("verdict") is not None,
              "%s: %s verdict %r is not the worst of %r" % (label, f.get("name"), f.get("verdict"),
                                                           [v.get("status") for v in vs]))
        for v in vs:
            check(v.get("status") in ("pass", "fail", "warn", "note", "unknown") and v.get("summary"),
                  "%s: %s verdict %r" % (label, f.get("name"), v))


def worst(vs):
    for s in ("fail", "warn", "note", "unknown", "pass"):
        if any(v.get("status") == s for v in vs):
            return s
    return "unknown"


def interp(doc, path=None, i=0):
    its = doc.get("interpreters", [])
    if path is not None:
        return next((it for it in its if it.get("path") == path), {})
    return its[i] if i < len(its) else {}


def framework(doc, name, path=None):
    """Framework `name` of the interpreter at path (None: the first one)."""
    return next((f for f in interp(doc, path).get("frameworks", []) if f.get("name") == name), {})


def verdicts(fw):
    return dict((v.get("id"), v) for v in fw.get("verdicts", []))


def expect_verdicts(label, fw, want, contains=None):
    """want: {id: status}; contains: {id: [text the summary must hold]}."""
    vs = verdicts(fw)
    for vid, st in want.items():
        got = vs.get(vid, {}).get("status")
        check(got == st, "%s: %s %s is %r, want %r (%s)" % (label, fw.get("name"), vid, got, st,
                                                           vs.get(vid, {}).get("summary")))
    for vid, texts in (contains or {}).items():
        s = vs.get(vid, {}).get("summary", "")
        for t in texts:
            check(t in s, "%s: %s %s summary %r lacks %r" % (label, fw.get("name"), vid, s, t))


def text_verdict_lines(text):
    """[(status mark, id)] of the verdict lines of a text output."""
    return re.findall(r"^      (FAIL |warn |note | ok  |  \?  )(\S+)", text, re.M)


def text_fails(text):
    return sorted(v for m, v in text_verdict_lines(text) if m == "FAIL ")


def doc_fails(doc):
    return sorted(v["id"] for it in doc.get("interpreters", []) for f in it.get("frameworks", [])
                  for v in f.get("verdicts", []) if v.get("status") == "fail")


def same_fails(label, doc, text):
    check(text_fails(text) == doc_fails(doc), "%s: text FAIL lines %r, JSON fails %r" %
          (label, text_fails(text), doc_fails(doc)))


def one_line_error(label, r_err):
    lines = r_err.strip("\n").split("\n")
    check(len(lines) == 1 and lines[0].startswith("cudnnctl frameworks:"),
          "%s: want one 'cudnnctl frameworks: ...' line on stderr, got %r" % (label, r_err[:400]))


def pp(path):
    return {"PYTHONPATH": path}


# ---- 1. no framework at all ---------------------------------------------------------------------------------------

with scenario("1 no framework"):
    empty = os.path.join(TMP, "venv-empty")
    venv(empty)
    epy = os.path.join(empty, "bin", "python3")
    rc, doc = fw_json("empty", ["--python", epy])
    it = interp(doc)
    check(rc == 3, "empty: exit %d, want 3" % rc)
    check(it.get("path") == epy and it.get("state") == "probed", "empty: interpreter %r" % it)
    check(it.get("python", {}).get("virtual_env") is True, "empty: virtual_env %r" % it.get("python"))
    check(it.get("python", {}).get("prefix") == empty, "empty: prefix %r" % it.get("python", {}).get("prefix"))
    check(it.get("frameworks") == [] and it.get("distributions") == [], "empty: frameworks %r, distributions %r" %
          (it.get("frameworks"), it.get("distributions")))
    check(it.get("found", {}).get("torch") == {"importable": False}, "empty: found %r" % it.get("found"))
    check(doc.get("summary", {}).get("frameworks") == 0 and doc.get("summary", {}).get("probed") == 1,
          "empty: summary %r" % doc.get("summary"))
    check(it.get("sources") == ["--python"], "empty: sources %r" % it.get("sources"))
    rc, text, err = fw_text("empty", ["--python", epy])
    check(rc == 3, "empty text: exit %d, want 3" % rc)
    check("no framework found" in text, "empty text: no 'no framework found': %r" % text)
    check("Python %s (%s, virtual environment; --python)" % (epy, PYFULL) in text, "empty text: header %r" % text)
    check("1 interpreter, 0 frameworks: 0 failing" in text, "empty text: summary line %r" % text[-200:])

# ---- 2. a good torch: the pinned wheel, loaded from it ------------------------------------------------------------

GOOD_TORCH = None
with scenario("2 good torch"):
    good = os.path.join(TMP, "good")
    glibs = cudnn_wheel(good)
    wheel_lib = os.path.join(good, "nvidia", "cudnn", "lib")
    GOOD_TORCH = {"version": "2.4.0", "cuda": "12.4", "compile": [9, 1, 0], "runtime": 90100,
                  "libs": [glibs["libcudnn.so.9"], glibs["libcudnn_graph.so.9"], glibs["libcudnn_ops.so.9"]]}
    site(good, {"torch": GOOD_TORCH})
    rc, doc = fw_json("good", ["--python", PY, "--set", "PYTHONPATH=" + good])
    t = framework(doc, "torch")
    check(rc == 0, "good: exit %d, want 0" % rc)
    check(t.get("state") == "ok" and "error" not in t, "good: state %r error %r" % (t.get("state"), t.get("error")))
    check(t.get("origin") == os.path.join(good, "torch", "__init__.py"), "good: origin %r" % t.get("origin"))
    check(t.get("info", {}).get("version") == "2.4.0" and t.get("info", {}).get("cuda") == "12.4",
          "good: info %r" % t.get("info"))
    check(t.get("info", {}).get("cuda_available") is False, "good: cuda_available %r" % t.get("info"))
    check(t.get("build", {}).get("cudnn") == "9.1.0" and t.get("build", {}).get("cuda") == "12.4" and
          t.get("build", {}).get("cuda_build") is True, "good: build %r" % t.get("build"))
    check(t.get("runtime", {}).get("cudnn") == "9.1.0" and t.get("runtime", {}).get("cudnn_raw") == 90100,
          "good: runtime %r" % t.get("runtime"))
    tds = t.get("distributions", [])
    check(tds and tds[0].get("name") == "torch" and tds[0].get("version") == "2.4.0" and
          TORCH_REQ in tds[0].get("requires", []) and tds[0].get("location") == good and
          tds[0].get("shadowed") is False,
          "good: distributions %r" % tds)
    # a torch further down sys.path (Debian's python3-torch, when installed) is shadowed
    check(all(d.get("shadowed") is True for d in tds[1:]), "good: later torch distributions %r" % tds[1:])
    check(t.get("probe", {}).get("exit") == 0 and t.get("probe", {}).get("timed_out") is False and
          t.get("probe", {}).get("died_in") is None, "good: probe %r" % t.get("probe"))
    expect_verdicts("good", t, {"cuda-build": "pass", "version-rule": "pass", "one-directory": "pass",
                                "expected-copy": "pass", "gpu-call": "unknown"},
                    {"cuda-build": ["PyTorch was built with CUDA 12.4"],
                     "version-rule": ["build 9.1.0, run time 9.1.0"],
                     "one-directory": [wheel_lib], "expected-copy": [wheel_lib, "nvidia-cudnn-cu12"]})
    check([v.get("id") for v in t.get("verdicts", [])] ==
          ["cuda-build", "version-rule", "one-directory", "expected-copy", "gpu-call"],
          "good: verdict order %r" % [v.get("id") for v in t.get("verdicts", [])])
    ec = verdicts(t).get("expected-copy", {})
    check(ec.get("expected_kind") == "wheel" and ec.get("expected") == wheel_lib, "good: expected-copy %r" % ec)
    check(t.get("verdict") == "unknown", "good: verdict %r, want unknown (gpu-call is unknown without a GPU)" %
          t.get("verdict"))
    cu = t.get("cudnn", {})
    check(cu.get("loaded") is True and cu.get("version") == "9.1.0" and
          cu.get("version_source") == "torch.backends.cudnn.version()" and cu.get("directory") == wheel_lib,
          "good: cudnn %r" % cu)
    dirs = cu.get("directories", [])
    check(len(dirs) == 1 and dirs[0].get("path") == wheel_lib and
          sorted(dirs[0].get("files", [])) == ["libcudnn.so.9", "libcudnn_graph.so.9", "libcudnn_ops.so.9"],
          "good: directories %r" % dirs)
    # a site known only through PYTHONPATH is none of list's installations
    check(len(dirs) == 1 and dirs[0].get("installation", "absent") is None and cu.get("installation", "x") is None,
          "good: installation of a PYTHONPATH-only site %r" % dirs)
    mods = t.get("modules", {})
    files = dict((m.get("path"), m.get("family")) for m in mods.get("files", []))
    for p in GOOD_TORCH["libs"]:
        check(files.get(p) == "cudnn", "good: modules.files lacks %s as cudnn: %r" % (p, files))
    check(mods.get("when") == "after-import" and mods.get("total", 0) > len(files),
          "good: modules when/total %r" % dict((k, mods.get(k)) for k in ("when", "total")))
    check(glibs["libcudnn_cnn.so.9"] not in files, "good: a library torch did not load is listed as mapped")
    lc = dict((m.get("path"), m) for m in t.get("loaded_cudnn", []))
    check(sorted(lc) == sorted([glibs["libcudnn.so.9"], glibs["libcudnn_graph.so.9"]]),
          "good: loaded_cudnn paths %r" % sorted(lc))
    check(all(m.get("version") == 90100 and m.get("cudart_version") == 12040 for m in lc.values()),
          "good: loaded_cudnn %r" % list(lc.values()))
    it = interp(doc)
    check(it.get("sources") == ["--python"] and it.get("python", {}).get("real_executable") == PY_REAL,
          "good: interpreter %r" % dict((k, it.get(k)) for k in ("sources", "python")))
    dn = [d.get("name") for d in it.get("distributions", [])]
    check(dn == ["nvidia-cudnn-cu12", "torch"] or sorted(dn[:2]) == ["nvidia-cudnn-cu12", "torch"],
          "good: interpreter distributions %r" % dn)
    check(doc.get("gpu_requested") == "auto" and doc.get("expect") is None, "good: gpu_requested/expect %r %r" %
          (doc.get("gpu_requested"), doc.get("expect")))
    rc, text, err = fw_text("good", ["--python", PY], env=pp(good))
    check(rc == 0, "good text: exit %d" % rc)
    check("    ?   torch 2.4.0\n" in text, "good text: no '?' torch line: %r" % text)
    check("      built      cuDNN 9.1.0, CUDA 12.4\n" in text, "good text: built line: %r" % text)
    check("      loads      cuDNN 9.1.0 from %s\n" % wheel_lib in text, "good text: loads line: %r" % text)
    check(re.search(r"^       ok  one-directory  every cuDNN library comes from %s$" % re.escape(wheel_lib), text,
                    re.M) is not None, "good text: one-directory line: %r" % text)
    check("cuda-build" not in text and "version-rule" not in text, "good text: passing verdicts shown without -v")
    check(re.search(r"^        \?  gpu-call ", text, re.M) is not None, "good text: gpu-call line: %r" % text)
    rc, text, err = fw_text("good -v", ["--python", PY, "-v"], env=pp(good))
    check(re.search(r"^       ok  cuda-build ", text, re.M) and re.search(r"^       ok  expected-copy ", text, re.M),
          "good -v: passing verdicts not shown: %r" % text)
    check(re.search(r"mapped after-import: 3 CUDA/cuDNN files of \d+", text) is not None,
          "good -v: mapped line: %r" % text)
    for p in GOOD_TORCH["libs"]:
        check(re.search(r"^        cudnn       %s$" % re.escape(p), text, re.M) is not None,
              "good -v: %s not listed: %r" % (p, text))
    # --no-gpu: the same verdicts, GPU work not asked for
    rc, doc = fw_json("good --no-gpu", ["--python", PY, "--no-gpu"], env=pp(good))
    t = framework(doc, "torch")
    check(rc == 0 and doc.get("gpu_requested") == "off", "good --no-gpu: exit %d, gpu_requested %r" %
          (rc, doc.get("gpu_requested")))
    expect_verdicts("good --no-gpu", t, {"version-rule": "pass", "expected-copy": "pass", "gpu-call": "unknown"})
    rc, doc = fw_json("good --gpu", ["--python", PY, "--gpu"], env=pp(good))
    check(rc == 0 and doc.get("gpu_requested") == "on" and "gpu_call" not in framework(doc, "torch"),
          "good --gpu (no GPU): exit %d, gpu_requested %r, gpu_call %r" %
          (rc, doc.get("gpu_requested"), framework(doc, "torch").get("gpu_call")))

# ---- 3. the run-time cuDNN older than the build's -----------------------------------------------------------------

with scenario("3 runtime older than build"):
    old = os.path.join(TMP, "old")
    olibs = cudnn_wheel(old)
    site(old, {"torch": dict(GOOD_TORCH, compile=[9, 5, 0], libs=[olibs["libcudnn.so.9"]])})
    rc, doc = fw_json("old", ["--python", PY], env=pp(old))
    t = framework(doc, "torch")
    check(rc == 1, "old: exit %d, want 1" % rc)
    expect_verdicts("old", t, {"version-rule": "fail", "cuda-build": "pass", "one-directory": "pass"},
                    {"version-rule": ["build 9.5.0, run time 9.1.0", "older than the build's 9.5.0"]})
    check(t.get("verdict") == "fail" and doc.get("summary", {}).get("failed") == 1, "old: verdict %r summary %r" %
          (t.get("verdict"), doc.get("summary")))
    rc, text, err = fw_text("old", ["--python", PY], env=pp(old))
    check(rc == 1 and "  FAIL  torch 2.4.0\n" in text and
          re.search(r"^      FAIL version-rule   build 9\.5\.0, run time 9\.1\.0", text, re.M),
          "old text: exit %d %r" % (rc, text))
    same_fails("old", doc, text)
    # PyTorch's own refusal (torch.backends.cudnn.version() raises): the
    # version then comes from cudnnGetVersion() of the mapped library
    refuse = os.path.join(TMP, "refuse")
    rlibs = cudnn_wheel(refuse)
    msg = ("cuDNN version incompatibility: PyTorch was compiled against (9, 5, 0) but found runtime version "
           "(9, 1, 0). PyTorch already comes bundled with cuDNN.")
    site(refuse, {"torch": dict(GOOD_TORCH, compile=[9, 5, 0], runtime=None, runtime_error=msg,
                                libs=[rlibs["libcudnn.so.9"]])})
    rc, doc = fw_json("refuse", ["--python", PY], env=pp(refuse))
    t = framework(doc, "torch")
    check(rc == 1, "refuse: exit %d, want 1" % rc)
    check(msg in t.get("runtime", {}).get("cudnn_error", ""), "refuse: runtime %r" % t.get("runtime"))
    expect_verdicts("refuse", t, {"version-rule": "fail"}, {"version-rule": ["refuses the cuDNN it loads",
                                                                             "incompatibility"]})
    check(t.get("cudnn", {}).get("version") == "9.1.0" and
          t.get("cudnn", {}).get("version_source") == "cudnnGetVersion() of the mapped library",
          "refuse: cudnn %r" % t.get("cudnn"))
    # another error from torch.backends.cudnn.version(), nothing mapped: unknown, and why
    site(refuse, {"torch": dict(GOOD_TORCH, runtime=None, libs=[],
                                runtime_error="libcudnn_graph.so.9: cannot open shared object file")})
    rc, doc = fw_json("no cudnn", ["--python", PY], env=pp(refuse))
    t = framework(doc, "torch")
    vr = verdicts(t).get("version-rule", {})
    check(rc == 0 and vr.get("status") == "unknown" and
          "the loaded cuDNN's version is not known" in vr.get("summary", ""),
          "no cudnn: exit %d version-rule %r" % (rc, vr))
    check("cannot open shared object file" in t.get("runtime", {}).get("cudnn_error", ""),
          "no cudnn: runtime %r" % t.get("runtime"))
    check("cannot open shared object file" in vr.get("summary", ""),
            "no cudnn: the version-rule summary drops the error: %r" % vr.get("summary"))

# ---- 4. a mixed load: two directories in one process --------------------------------------------------------------

with scenario("4 mixed load"):
    mixed = os.path.join(TMP, "mixed")
    mlibs = cudnn_wheel(mixed)
    other = os.path.join(TMP, "opt", "cudnn-8.9", "lib")
    blibs = cudnn_dir(other, 90800, ("libcudnn_ops.so.9",))
    site(mixed, {"torch": dict(GOOD_TORCH, libs=[mlibs["libcudnn.so.9"], mlibs["libcudnn_graph.so.9"],
                                                 blibs["libcudnn_ops.so.9"]])})
    rc, doc = fw_json("mixed", ["--python", PY], env=pp(mixed))
    t = framework(doc, "torch")
    mdir = os.path.join(mixed, "nvidia", "cudnn", "lib")
    check(rc == 1, "mixed: exit %d, want 1" % rc)
    expect_verdicts("mixed", t, {"one-directory": "fail", "version-rule": "pass"},
                    {"one-directory": ["2 directories", mdir + " (2 files)", other + " (1 file)"]})
    dirs = t.get("cudnn", {}).get("directories", [])
    check(sorted(d.get("path") for d in dirs) == sorted([mdir, other]), "mixed: directories %r" % dirs)
    rc, text, err = fw_text("mixed", ["--python", PY], env=pp(mixed))
    check(rc == 1 and re.search(r"^      FAIL one-directory  cuDNN libraries from 2 directories", text, re.M),
          "mixed text: %r" % text)
    check(("from %s; and from %s" % (mdir, other)) in text or ("from %s; and from %s" % (other, mdir)) in text,
          "mixed text: loads line lacks both directories: %r" % text)
    same_fails("mixed", doc, text)

# ---- 5. the wrong copy: the pinned wheel is there, another copy is loaded -----------------------------------------

with scenario("5 wrong copy"):
    wrong = os.path.join(TMP, "wrong")
    cudnn_wheel(wrong)
    elsewhere = os.path.join(TMP, "usr-local", "cudnn", "lib")
    elibs = cudnn_dir(elsewhere, 90100)
    site(wrong, {"torch": dict(GOOD_TORCH, libs=[elibs["libcudnn.so.9"], elibs["libcudnn_ops.so.9"]])})
    wdir = os.path.join(wrong, "nvidia", "cudnn", "lib")
    rc, doc = fw_json("wrong", ["--python", PY], env=pp(wrong))
    t = framework(doc, "torch")
    check(rc == 0, "wrong: exit %d, want 0 (a warning)" % rc)
    expect_verdicts("wrong", t, {"expected-copy": "warn", "one-directory": "pass", "version-rule": "pass"},
                    {"expected-copy": ["loads cuDNN 9.1.0 from " + elsewhere, "not the wheel PyTorch requires",
                                       "in " + wdir]})
    ec = verdicts(t).get("expected-copy", {})
    check(ec.get("expected") == wdir and ec.get("expected_kind") == "wheel", "wrong: expected-copy %r" % ec)
    check(t.get("verdict") == "warn" and doc.get("summary", {}).get("warnings") == 1,
          "wrong: verdict %r summary %r" % (t.get("verdict"), doc.get("summary")))
    rc, text, err = fw_text("wrong", ["--python", PY], env=pp(wrong))
    check(rc == 0 and "  warn  torch 2.4.0\n" in text and re.search(r"^      warn expected-copy ", text, re.M),
          "wrong text: %r" % text)
    check("0 failing, 1 with warnings, 0 notes" in text, "wrong text: summary line %r" % text[-200:])
    # a pin that is not what is installed
    pinned = os.path.join(TMP, "pinned")
    cudnn_wheel(pinned, version="9.1.1.17", number=90101)
    site(pinned, {"torch": dict(GOOD_TORCH, libs=[])})
    rc, doc = fw_json("pinned", ["--python", PY], env=pp(pinned))
    expect_verdicts("pinned", framework(doc, "torch"), {"expected-copy": "warn"},
                    {"expected-copy": ["pins nvidia-cudnn-cu12==9.1.0.70 but 9.1.1.17 is installed"]})
    # --expect naming nothing list knows
    rc, doc = fw_json("expect nothing", ["--python", PY, "--expect", os.path.join(TMP, "nowhere")], env=pp(wrong))
    expect_verdicts("expect nothing", framework(doc, "torch"), {"expected-copy": "unknown"},
                    {"expected-copy": ["names no installation list found"]})
    check(doc.get("expect") == os.path.join(TMP, "nowhere"), "expect nothing: expect %r" % doc.get("expect"))

# ---- 5b. odd paths: a site reached through a symbolic link, a path with a space and non-ASCII --------------------

with scenario("5b odd paths"):
    link = os.path.join(TMP, "good-link")
    os.symlink(good, link)
    rc, doc = fw_json("link", ["--python", PY], env=pp(link))
    t = framework(doc, "torch")
    check(t.get("distributions", [{}])[0].get("location") == link and
          t.get("distributions", [{}])[0].get("real_location") == good, "link: distributions %r" %
          t.get("distributions"))
    expect_verdicts("link", t, {"expected-copy": "pass", "one-directory": "pass"})
    check(t.get("cudnn", {}).get("directory") == wheel_lib, "link: cudnn %r" % t.get("cudnn"))
    odd = os.path.join(TMP, "with space \u00e9", "site-packages")
    olibs2 = cudnn_wheel(odd)
    odir = os.path.join(odd, "nvidia", "cudnn", "lib")
    site(odd, {"torch": dict(GOOD_TORCH, libs=[olibs2["libcudnn.so.9"], olibs2["libcudnn_ops.so.9"]])})
    rc, doc = fw_json("odd", ["--python", PY], env=pp(odd))
    t = framework(doc, "torch")
    check(rc == 0 and t.get("cudnn", {}).get("directory") == odir, "odd: exit %d cudnn %r" % (rc, t.get("cudnn")))
    check(sorted(m.get("path") for m in t.get("modules", {}).get("files", [])) ==
          sorted([olibs2["libcudnn.so.9"], olibs2["libcudnn_ops.so.9"]]), "odd: modules %r" % t.get("modules"))
    expect_verdicts("odd", t, {"expected-copy": "pass", "one-directory": "pass", "version-rule": "pass"})
    rc, text, err = fw_text("odd", ["--python", PY], env=pp(odd))
    check(("loads      cuDNN 9.1.0 from %s\n" % odir) in text, "odd text: %r" % text)
    # a copy inside the torch package and no cuDNN wheel required: the bundled copy is the one expected
    bund = os.path.join(TMP, "bundled")
    blibs2 = cudnn_dir(os.path.join(bund, "torch", "lib"), 90100, ("libcudnn.so.9", "libcudnn_ops.so.9"))
    site(bund, {"torch": dict(GOOD_TORCH, libs=sorted(blibs2.values()))}, dists=False)
    dist_info(bund, "torch", "2.4.0", ["filelock"])
    rc, doc = fw_json("bundled", ["--python", PY], env=pp(bund))
    t = framework(doc, "torch")
    ec = verdicts(t).get("expected-copy", {})
    check(rc == 0 and ec.get("status") == "pass" and ec.get("expected_kind") == "bundled" and
          ec.get("expected") == os.path.join(bund, "torch", "lib") and
          "the copy PyTorch bundles" in ec.get("summary", ""),
          "bundled: exit %d expected-copy %r" % (rc, ec))
    # a copy bundled, and the pinned wheel missing: still the bundled copy
    site(bund, {"torch": dict(GOOD_TORCH, libs=sorted(blibs2.values()))}, dists=False)
    shutil.rmtree(os.path.join(bund, "torch-2.4.0.dist-info"))
    dist_info(bund, "torch", "2.4.0", [TORCH_REQ])
    rc, doc = fw_json("bundled, wheel missing", ["--python", PY], env=pp(bund))
    ec = verdicts(framework(doc, "torch")).get("expected-copy", {})
    check(ec.get("status") == "pass" and ec.get("expected_kind") == "bundled", "bundled, wheel missing: %r" % ec)

# ---- 15a. a virtual environment found through VIRTUAL_ENV; its wheel is list's installation ----------------------

with scenario("15c interpreters without a framework are not started"):
    # Each environment's python3 is a small program that notes its start in a log, then runs the real one:
    # the log counts the children the tool started.
    log = os.path.join(TMP, "starts.log")
    src = os.path.join(TMP, "logpy.c")
    write(src, '#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n'
          'int main(int argc, char **argv) { FILE *f = fopen(getenv("CC_PYLOG"), "a");\n'
          ' (void)argc; if (f) { fprintf(f, "%s\\n", argv[0]); fclose(f); }\n'
          ' execv("' + PY + '", argv); return 127; }\n')
    logpy = os.path.join(TMP, "logpy")
    built = subprocess.run(["cc", "-O1", "-o", logpy, src], capture_output=True)
    check(built.returncode == 0, "logpy: %r" % built.stderr[-300:])
    envs = {}
    for name, fws in (("none", {}), ("torch", {"torch": dict(GOOD_TORCH, libs=[])}), ("pth", None)):
        d = os.path.join(TMP, "count-" + name)
        sp = venv(d)
        os.unlink(os.path.join(d, "bin", "python3"))
        shutil.copy(logpy, os.path.join(d, "bin", "python3"))
        if fws is not None:
            site(sp, fws)
        else:
            # a .pth file naming a directory that holds a framework: started
            extra = os.path.join(TMP, "count-extra")
            os.makedirs(os.path.join(extra, "jax"), exist_ok=True)
            write(os.path.join(sp, "extra.pth"), extra + "\n")
        envs[name] = d
    base = {"HOME": HOME, "CC_PYLOG": log, "PATH": "/nonexistent"}
    for name, want in (("none", False), ("torch", True), ("pth", True)):
        if os.path.exists(log):
            os.unlink(log)
        py = os.path.join(envs[name], "bin", "python3")
        rc, doc = fw_json("count " + name, [], env=dict(base, VIRTUAL_ENV=envs[name]))
        starts = open(log).read().split() if os.path.exists(log) else []
        mine = [a for a in starts if a == py]
        it = interp(doc, py)
        if want:
            check(len(mine) >= 1 and it.get("state") == "probed",
                  "count %s: started %d times, state %r" % (name, len(mine), it.get("state")))
        else:
            check(mine == [] and it.get("state") == "skipped" and
                  os.path.join(envs[name], "lib") in (it.get("reason") or ""),
                  "count %s: started %d times (want 0), state %r reason %r" %
                  (name, len(mine), it.get("state"), it.get("reason")))
            check(it.get("frameworks") == [] and it.get("probe", {}).get("ran") is False,
                  "count %s: %r" % (name, it))
            # the text folds it to a line under a count; --verbose gives its block with the reason
            rc, text, err = fw_text("count " + name, [], env=dict(base, VIRTUAL_ENV=envs[name]))
            folded = re.search(r"^(\d+) interpreters? not started, their files holding no framework "
                               r"\(--verbose for why\):\n((?:  .*\n)+)", text, re.M)
            nskipped = sum(1 for x in doc.get("interpreters", []) if x.get("state") == "skipped")
            check(folded is not None and int(folded.group(1)) == nskipped and
                  "  " + py + "\n" in folded.group(2) and "not started: " not in text,
                  "count %s folded text: %r" % (name, text[-800:]))
            rc, text, err = fw_text("count " + name, ["--verbose"], env=dict(base, VIRTUAL_ENV=envs[name]))
            check("not started: no framework in " + os.path.join(envs[name], "lib") in text and
                  "not started, their files" not in text, "count %s --verbose text: %r" % (name, text[:500]))
    # given with --python it is started whatever its files hold
    if os.path.exists(log):
        os.unlink(log)
    py = os.path.join(envs["none"], "bin", "python3")
    rc, doc = fw_json("count --python", ["--python", py], env=base)
    starts = open(log).read().split() if os.path.exists(log) else []
    check(starts.count(py) == 1 and interp(doc, py).get("state") == "probed",
          "count --python: started %d times, state %r" % (starts.count(py), interp(doc, py).get("state")))
    # python3 and a link to it named python in one directory on the PATH: one interpreter, surveyed once (the
    # link is the other's alias without a child of its own), its framework child started once
    twin = os.path.join(TMP, "count-twin")
    tsp = venv(twin)
    os.unlink(os.path.join(twin, "bin", "python3"))
    shutil.copy(logpy, os.path.join(twin, "bin", "python3"))
    if os.path.lexists(os.path.join(twin, "bin", "python")):
        os.unlink(os.path.join(twin, "bin", "python"))
    os.symlink("python3", os.path.join(twin, "bin", "python"))
    site(tsp, {"torch": dict(GOOD_TORCH, libs=[])})
    if os.path.exists(log):
        os.unlink(log)
    t3, tp = os.path.join(twin, "bin", "python3"), os.path.join(twin, "bin", "python")
    rc, doc = fw_json("count twins", [], env=dict(base, PATH=os.path.join(twin, "bin")))
    starts = open(log).read().split() if os.path.exists(log) else []
    it = interp(doc, t3)
    check(starts.count(tp) == 0 and starts.count(t3) == 2 and it.get("state") == "probed" and
          tp in it.get("aliases", []) and [f.get("name") for f in it.get("frameworks", [])] == ["torch"] and
          "python on PATH" in it.get("sources", []),
          "count twins: started %r, state %r, aliases %r, frameworks %r, sources %r" %
          (starts, it.get("state"), it.get("aliases"), [f.get("name") for f in it.get("frameworks", [])],
           it.get("sources")))

with scenario("15a venv discovery + installation"):
    venvdir = os.path.join(TMP, "venv-torch")
    vsite = venv(venvdir)
    vlibs = cudnn_wheel(vsite)
    vdir = os.path.join(vsite, "nvidia", "cudnn", "lib")
    site(vsite, {"torch": dict(GOOD_TORCH, libs=[vlibs["libcudnn.so.9"], vlibs["libcudnn_graph.so.9"]])})
    vpy = os.path.join(venvdir, "bin", "python3")
    venv_env = {"VIRTUAL_ENV": venvdir, "HOME": HOME, "PATH": os.path.join(venvdir, "bin") + ":/usr/bin:/bin"}
    r = EXE.run(["list", "--json"], env=venv_env)
    ldoc, why = cliutil.parse_json(r.out)
    inst = next((i for i in (ldoc or {}).get("installations", [])
                 if any(d.get("path") == vdir for d in i.get("directories", []))), None)
    check(inst is not None, "venv: list finds no installation of %s: %r" % (vdir, r.out_text[:800]))
    inst = inst or {}
    rc, doc = fw_json("venv", [], env=venv_env)
    it = interp(doc, vpy)
    check(it.get("state") == "probed", "venv: no probed interpreter %s: %r" %
          (vpy, [i.get("path") for i in doc.get("interpreters", [])]))
    check("VIRTUAL_ENV" in it.get("sources", []), "venv: sources %r" % it.get("sources"))
    check(it.get("python", {}).get("virtual_env") is True and it.get("python", {}).get("prefix") == venvdir,
          "venv: python %r" % it.get("python"))
    check(sum(i.get("python", {}).get("prefix") == venvdir for i in doc.get("interpreters", [])) == 1,
          "venv: the environment's interpreter is there more than once: %r" %
          [(i.get("path"), i.get("aliases")) for i in doc.get("interpreters", [])])
    t = framework(doc, "torch", vpy)
    check(t.get("state") == "ok", "venv: torch %r" % t.get("state"))
    dirs = t.get("cudnn", {}).get("directories", [])
    check(len(dirs) == 1 and dirs[0].get("path") == vdir, "venv: directories %r" % dirs)
    d0 = dirs[0] if dirs else {}
    check(d0.get("installation") is not None and d0.get("installation") == inst.get("id"),
          "venv: directory's installation %r, list's %r" % (d0.get("installation"), inst.get("id")))
    check(d0.get("provenance") == "pip-wheel", "venv: provenance %r" % d0.get("provenance"))
    check(d0.get("prefix") == inst.get("prefix") and d0.get("version") == inst.get("version"),
          "venv: prefix/version %r %r, list's %r %r" % (d0.get("prefix"), d0.get("version"), inst.get("prefix"),
                                                       inst.get("version")))
    check(t.get("cudnn", {}).get("installation") == inst.get("id"), "venv: cudnn.installation %r" % t.get("cudnn"))
    expect_verdicts("venv", t, {"cuda-build": "pass", "version-rule": "pass", "one-directory": "pass",
                                "expected-copy": "pass", "gpu-call": "unknown"})
    rc, text, err = fw_text("venv", [], env=venv_env)
    check(("loads      cuDNN 9.1.0 from %s (installation %s, pip-wheel)" % (vdir, inst.get("id"))) in text,
          "venv text: loads line: %r" % text)
    check(re.search(r"^Python %s \(%s, virtual environment; VIRTUAL_ENV" % (re.escape(vpy), re.escape(PYFULL)), text,
                    re.M) is not None, "venv text: header: %r" % text)
    # --expect: list's installation by id and by directory (loaded: pass); the
    # venv's torch loading another copy against --expect (warn)
    if inst.get("id") is not None:
        rc, doc = fw_json("expect id", ["--python", vpy, "--expect", str(inst["id"])], env=venv_env)
        t = framework(doc, "torch", vpy)
        expect_verdicts("expect id", t, {"expected-copy": "pass"},
                        {"expected-copy": ["installation %d" % inst["id"], "named by --expect"]})
        check(verdicts(t).get("expected-copy", {}).get("expected_kind") == "expect", "expect id: kind %r" %
              verdicts(t).get("expected-copy"))
        vsite2 = os.path.join(venvdir, "lib", "python" + PYVER, "site-packages")
        with open(os.path.join(vsite2, "_fakefw.json"), "w") as f:
            json.dump({"torch": dict(GOOD_TORCH, libs=[elibs["libcudnn.so.9"]])}, f)
        rc, doc = fw_json("expect elsewhere", ["--python", vpy, "--expect", vdir], env=venv_env)
        t = framework(doc, "torch", vpy)
        check(rc == 0, "expect elsewhere: exit %d, want 0" % rc)
        expect_verdicts("expect elsewhere", t, {"expected-copy": "warn"},
                        {"expected-copy": ["loads cuDNN 9.1.0 from " + elsewhere, "named by --expect", vdir]})
        ec = verdicts(t).get("expected-copy", {})
        check(ec.get("expected_kind") == "expect" and ec.get("expected") == vdir, "expect elsewhere: %r" % ec)
        rc, text, err = fw_text("expect elsewhere", ["--python", vpy, "--expect", vdir], env=venv_env)
        check(re.search(r"^      warn expected-copy  PyTorch loads cuDNN 9\.1\.0 from ", text, re.M) is not None,
              "expect elsewhere text: %r" % text)

# ---- 6. a CPU-only torch ------------------------------------------------------------------------------------------

with scenario("6 CPU-only torch"):
    cpu = os.path.join(TMP, "cpu")
    site(cpu, {"torch": {"version": "2.4.0+cpu", "cuda": None, "compile": None, "runtime": None, "libs": []}})
    rc, doc = fw_json("cpu", ["--python", PY], env=pp(cpu))
    t = framework(doc, "torch")
    check(rc == 1, "cpu: exit %d, want 1" % rc)
    expect_verdicts("cpu", t, {"cuda-build": "fail", "version-rule": "unknown", "one-directory": "unknown",
                               "gpu-call": "unknown"},
                    {"cuda-build": ["PyTorch 2.4.0+cpu is a CPU-only build"],
                     "version-rule": ["no cuDNN: a CPU-only build"], "one-directory": ["no cuDNN library is mapped"]})
    fix = verdicts(t).get("cuda-build", {}).get("fix", "")
    check("pip install torch --index-url https://download.pytorch.org/whl/cu" in fix, "cpu: fix %r" % fix)
    check(t.get("cudnn", {}).get("loaded") is False and t.get("cudnn", {}).get("directories") == [],
          "cpu: cudnn %r" % t.get("cudnn"))
    check(t.get("build", {}).get("cuda_build") is False and "cudnn_error" in t.get("build", {}),
          "cpu: build %r" % t.get("build"))
    rc, text, err = fw_text("cpu", ["--python", PY], env=pp(cpu))
    check("      built      cuDNN unknown, CUDA none (CPU-only)\n" in text, "cpu text: built line %r" % text)
    check(re.search(r"^      FAIL cuda-build     PyTorch 2\.4\.0\+cpu is a CPU-only build", text, re.M) and
          re.search(r"^           fix:           install a CUDA build: pip install torch", text, re.M),
          "cpu text: FAIL and fix lines: %r" % text)
    check("loads      no cuDNN library mapped after import" in text, "cpu text: loads line %r" % text)
    same_fails("cpu", doc, text)
    # a pip-installed CPU torch in a dist-packages directory (sudo pip on Debian) is no python3-torch
    pipdist = os.path.join(TMP, "local", "lib", "python3", "dist-packages")
    site(pipdist, {"torch": {"version": "2.4.0+cpu", "cuda": None, "compile": None, "runtime": None}})
    rc, doc = fw_json("pip dist-packages", ["--python", PY], env=pp(pipdist))
    fix = verdicts(framework(doc, "torch")).get("cuda-build", {}).get("fix", "")
    check(rc == 1 and fix, "pip dist-packages: exit %d fix %r" % (rc, fix))
    # only Debian's own directory with an egg-info gets the python3-torch fix
    check("python3-torch" not in fix, "pip dist-packages: the fix names python3-torch: %r" % fix)

# ---- 7. a hang at import; 7b. the GPU call (a fake GPU); 8. a crash at import ------------------------------------

with scenario("7 hang"):
    hang = os.path.join(TMP, "hang")
    hlibs = cudnn_wheel(hang)
    # the hanging import starts a child that keeps the output open: the time limit must end it too
    site(hang, {"torch": dict(GOOD_TORCH, libs=[hlibs["libcudnn.so.9"]]),
                "tensorflow": {"hang": True, "hang_child": 120}})
    t0 = time.monotonic()
    rc, doc = fw_json("hang", ["--python", PY, "--timeout", "3"], env=pp(hang))
    wall = time.monotonic() - t0
    tf = framework(doc, "tensorflow")
    check(wall < 60, "hang: took %.1f s" % wall)
    check(rc == 1, "hang: exit %d, want 1" % rc)
    check(tf.get("state") == "timed-out", "hang: tensorflow state %r" % tf.get("state"))
    check("timed out" in tf.get("error", "") and "step 'import'" in tf.get("error", ""),
          "hang: error %r" % tf.get("error"))
    pr = tf.get("probe", {})
    check(pr.get("timed_out") is True and pr.get("died_in") == "import" and 2500 <= pr.get("wall_ms", 0) < 30000,
          "hang: probe %r" % pr)
    expect_verdicts("hang", tf, {"probe": "fail"}, {"probe": ["timed out"]})
    check(tf.get("verdict") == "fail" and [v.get("id") for v in tf.get("verdicts", [])] == ["probe"],
          "hang: tensorflow verdicts %r" % tf.get("verdicts"))
    t = framework(doc, "torch")
    check(t.get("state") == "ok" and verdicts(t).get("version-rule", {}).get("status") == "pass",
          "hang: torch beside it %r %r" % (t.get("state"), t.get("verdicts")))
    check([f.get("name") for f in interp(doc).get("frameworks", [])] == ["torch", "tensorflow"],
          "hang: frameworks %r" % [f.get("name") for f in interp(doc).get("frameworks", [])])
    rc, text, err = fw_text("hang", ["--python", PY, "--timeout", "3"], env=pp(hang))
    check("  FAIL  tensorflow 2.16.1\n" in text and re.search(r"^      error      the tensorflow probe: timed out", text,
                                                                re.M) and
          re.search(r"^      FAIL probe          the tensorflow probe: timed out", text, re.M),
          "hang text: %r" % text)
    same_fails("hang", doc, text)

with scenario("7b GPU call"):
    gp = os.path.join(TMP, "gpu")
    gl = cudnn_wheel(gp)
    wl = os.path.join(gp, "nvidia", "cudnn", "lib")
    lazy = [gl["libcudnn.so.9"], gl["libcudnn_graph.so.9"], gl["libcudnn_cnn.so.9"]]

    def gpu_torch(call, **kw):
        """torch seeing one fake H200 and loading cuDNN only when the GPU
        call needs it (as PyTorch does); call: ok, wrong, raise, crash, hang."""
        g = {"name": "NVIDIA H200", "capability": [9, 0], "lazy": True, "libs": lazy, "call": call}
        g.update(kw)
        with open(os.path.join(gp, "_fakefw.json"), "w") as f:
            json.dump({"torch": dict(GOOD_TORCH, libs=[], gpu=g)}, f)

    site(gp, {"torch": {}})
    gpu_torch("ok")
    rc, doc = fw_json("gpu ok", ["--python", PY, "--gpu"], env=pp(gp))
    t = framework(doc, "torch")
    check(rc == 0, "gpu ok: exit %d, want 0" % rc)
    check(t.get("info", {}).get("cuda_available") is True and
          t.get("devices") == [{"index": 0, "name": "NVIDIA H200", "capability": "9.0"}],
          "gpu ok: devices %r" % t.get("devices"))
    g = t.get("gpu_call", {})
    check(g.get("ok") is True and "conv2d" in g.get("what", ""), "gpu ok: gpu_call %r" % g)
    # cuDNN was loaded by the GPU call: the version read again, the files listed after it
    check(t.get("runtime", {}).get("cudnn") == "9.1.0", "gpu ok: runtime %r" % t.get("runtime"))
    check(t.get("modules", {}).get("when") == "after-gpu-call" and
          sorted(m.get("path") for m in t.get("modules", {}).get("files", [])) == sorted(lazy),
          "gpu ok: modules %r" % t.get("modules"))
    expect_verdicts("gpu ok", t, {"cuda-build": "pass", "version-rule": "pass", "one-directory": "pass",
                                  "expected-copy": "pass", "gpu-call": "pass"}, {"gpu-call": ["done"]})
    check(t.get("verdict") == "pass", "gpu ok: verdict %r, want pass" % t.get("verdict"))
    rc, text, err = fw_text("gpu ok", ["--python", PY, "--gpu", "-v"], env=pp(gp))
    check("   ok   torch 2.4.0\n" in text and "      devices    NVIDIA H200 (sm 9.0)\n" in text and
          re.search(r"^       ok  gpu-call ", text, re.M), "gpu ok text: %r" % text)
    check(re.search(r"mapped after-gpu-call: 3 CUDA/cuDNN files", text) is not None, "gpu ok text: mapped %r" % text)
    # --no-gpu: no GPU call, so the lazily loaded cuDNN is not there
    rc, doc = fw_json("gpu off", ["--python", PY, "--no-gpu"], env=pp(gp))
    t = framework(doc, "torch")
    check(rc == 0 and "gpu_call" not in t and t.get("modules", {}).get("when") == "after-import" and
          t.get("cudnn", {}).get("loaded") is False, "gpu off: exit %d %r %r" % (rc, t.get("gpu_call"),
                                                                              t.get("cudnn")))
    expect_verdicts("gpu off", t, {"version-rule": "unknown", "one-directory": "unknown", "gpu-call": "unknown"},
                    {"one-directory": ["after import"], "gpu-call": ["not asked for"]})
    # the default (neither --gpu nor --no-gpu) runs the call when there is a GPU
    rc, doc = fw_json("gpu auto", ["--python", PY], env=pp(gp))
    check(doc.get("gpu_requested") == "auto" and framework(doc, "torch").get("gpu_call", {}).get("ok") is True,
          "gpu auto: %r" % framework(doc, "torch").get("gpu_call"))
    for call, want in (("wrong", "the GPU result differs from the CPU result"),
                       ("raise", "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED")):
        gpu_torch(call)
        rc, doc = fw_json("gpu " + call, ["--python", PY, "--gpu"], env=pp(gp))
        t = framework(doc, "torch")
        check(rc == 1, "gpu %s: exit %d, want 1" % (call, rc))
        check(t.get("gpu_call", {}).get("ok") is False and want in t.get("gpu_call", {}).get("error", ""),
              "gpu %s: gpu_call %r" % (call, t.get("gpu_call")))
        expect_verdicts("gpu " + call, t, {"gpu-call": "fail", "version-rule": "pass"}, {"gpu-call": [want]})
    # a crash or a hang in the GPU call: what was learnt before it is kept
    for call, argv, how in (("crash", [], "killed by signal 11 (SIGSEGV)"), ("hang", ["--timeout", "3"], "timed out")):
        gpu_torch(call, lazy=False, libs=[])
        with open(os.path.join(gp, "_fakefw.json")) as f:
            settings = json.load(f)
        settings["torch"]["libs"] = [gl["libcudnn.so.9"]]
        with open(os.path.join(gp, "_fakefw.json"), "w") as f:
            json.dump(settings, f)
        rc, doc = fw_json("gpu " + call, ["--python", PY, "--gpu"] + argv, env=pp(gp))
        t = framework(doc, "torch")
        check(rc == 1, "gpu %s: exit %d, want 1" % (call, rc))
        check(t.get("state") == "ok" and t.get("probe", {}).get("died_in") == "gpu-call" and
              "step 'gpu-call'" in t.get("error", ""), "gpu %s: state %r probe %r error %r" %
              (call, t.get("state"), t.get("probe"), t.get("error")))
        check(t.get("build", {}).get("cudnn") == "9.1.0" and t.get("runtime", {}).get("cudnn") == "9.1.0" and
              t.get("cudnn", {}).get("directory") == wl, "gpu %s: facts before the call lost: %r %r" %
              (call, t.get("build"), t.get("cudnn")))
        expect_verdicts("gpu " + call, t, {"cuda-build": "pass", "version-rule": "pass", "one-directory": "pass",
                                           "gpu-call": "fail"}, {"gpu-call": ["the GPU call crashed or hung", how]})
        rc, text, err = fw_text("gpu " + call, ["--python", PY, "--gpu"] + argv, env=pp(gp))
        check(re.search(r"^      FAIL gpu-call       the GPU call crashed or hung", text, re.M) and
              re.search(r"^      error      the torch probe: .*in step 'gpu-call'", text, re.M),
              "gpu %s text: %r" % (call, text))
        same_fails("gpu " + call, doc, text)

# ---- 7c. children side by side: the document as when one ran after another, a hang holds up only itself ------------


timeless = cliutil.timeless
first_diff = cliutil.first_diff


with scenario("7c side by side"):
    pys = []
    for i in range(4):
        sp = venv(os.path.join(TMP, "side%d" % i))
        wl = cudnn_wheel(sp)
        fws = {"torch": dict(GOOD_TORCH, libs=[wl["libcudnn.so.9"]])}
        if i == 1:
            fws["tensorflow"] = {"hang": True}
        if i == 2:
            fws = {}  # an interpreter without a framework
        site(sp, fws)
        pys.append(vpython(sp))
    argv = [a for py in pys for a in ("--python", py)] + ["--timeout", "3"]
    t0 = time.monotonic()
    rc1, serial = fw_json("one at a time", argv, env={"CUDNNCTL_JOBS": "1"})
    t_serial = time.monotonic() - t0
    names = [[f.get("name") for f in it.get("frameworks", [])] for it in serial.get("interpreters", [])]
    check(names == [["torch"], ["torch", "tensorflow"], [], ["torch"]], "side by side: frameworks %r" % names)
    walls = []
    rounds = int(os.environ.get("CC_SIDE_ROUNDS", "20"))
    for n in range(rounds):
        t0 = time.monotonic()
        rc, doc = fw_json("side by side %d" % n, argv, env={"CUDNNCTL_JOBS": "4"})
        walls.append(time.monotonic() - t0)
        check(rc == rc1 and timeless(doc.get("interpreters")) == timeless(serial.get("interpreters")) and
              timeless(doc.get("summary")) == timeless(serial.get("summary")),
              "side by side %d: the document differs from the serial one's: %s" %
              (n, first_diff(timeless(serial), timeless(doc))))
        tf = framework(doc, "tensorflow", pys[1])
        check(tf.get("state") == "timed-out" and 2500 <= tf.get("probe", {}).get("wall_ms", 0) < 30000,
              "side by side %d: the hung child %r %r" % (n, tf.get("state"), tf.get("probe")))
    # timing is not asserted (these machines are noisy); it is printed
    print("  side by side: one at a time %.2f s, four at once %.2f s (best of %d)" % (t_serial, min(walls), rounds))

    # With the GPU: framework children side by side too; one that ran out of GPU memory beside another is
    # run again alone, and its answer is the one it gives then (the fake GPU holds one call at a time).
    gpus, glog, glock = [], os.path.join(TMP, "gpu-memory.log"), os.path.join(TMP, "gpu-memory.lock")
    for i in range(2):
        sp = venv(os.path.join(TMP, "gpumem%d" % i))
        site(sp, {"torch": dict(GOOD_TORCH, libs=[], gpu={"name": "NVIDIA H100 80GB HBM3", "capability": [9, 0],
                                                           "call": "memory", "lock": glock, "log": glog})})
        gpus.append(vpython(sp))
    gargv = [a for py in gpus for a in ("--python", py)] + ["--gpu"]
    rc, doc = fw_json("gpu memory", gargv, env={"CUDNNCTL_JOBS": "4"})
    calls = open(glog).read().split() if os.path.exists(glog) else []
    for py in gpus:
        g = framework(doc, "torch", py).get("gpu_call", {})
        check(rc == 0 and g.get("ok") is True, "gpu memory: %s: exit %d, gpu_call %r" % (py, rc, g))
    check(sorted(calls) == ["ok", "ok", "out-of-memory"],
          "gpu memory: the calls %r (want: the two side by side, one out of memory, then it again alone)" % calls)
    os.remove(glog)
    rc, doc = fw_json("gpu memory, one at a time", gargv, env={"CUDNNCTL_JOBS": "1"})
    check(rc == 0 and open(glog).read().split() == ["ok", "ok"], "gpu memory, one at a time: exit %d, calls %r" %
          (rc, open(glog).read().split()))

    # The doctor: its framework children run while the installations are verified; the document (areas,
    # findings, facts) is the serial one's. Its interpreters: the environment's, and all of this machine's.
    # No hang here: the time limit is long enough for a real import of torch (the system's python3 may have
    # it) on a loaded machine, which a short one would cut in one run and not in another.
    denv = {"VIRTUAL_ENV": os.path.dirname(os.path.dirname(pys[2])), "CONDA_PREFIX": os.path.dirname(os.path.dirname(pys[3])),
            "PATH": os.path.dirname(pys[0]) + os.pathsep + os.environ.get("PATH", "")}

    def doctor(label, jobs):
        t0 = time.monotonic()
        r = EXE.run(["doctor", "--json", "--no-gpu", "--timeout", "60"], env=dict(denv, CUDNNCTL_JOBS=jobs))
        wall = time.monotonic() - t0
        doc, why = cliutil.parse_json(r.out)
        check(doc is not None and doc.get("command") == "doctor", "%s: not a doctor document (%s): %r / %r" %
              (label, why, r.out[:300], r.err[:300]))
        return r.rc, doc or {}, wall

    # a first run keeps the compile proof's build (verify's cache, in HOME): the runs compared all run it again,
    # and the list walk sees the same entries in each
    doctor("doctor, keeping the compile proof's build", "1")
    rc1, dserial, t_dserial = doctor("doctor one at a time", "1")
    check("reused" in (((dserial.get("facts", {}).get("verify") or [{}])[0].get("document") or {}).get("compile")
                       or {}), "doctor: the compile proof ran the kept build")
    its = dserial.get("facts", {}).get("frameworks", {}).get("interpreters", [])
    check(len(its) >= 3, "doctor: its interpreters %r" % [it.get("path") for it in its])
    dwalls = []

    def compile_brief(d):
        """Each verification's compile proof in short: what to read when a run's document differs."""
        out = []
        for v in d.get("facts", {}).get("verify") or []:
            c = (v.get("document") or {}).get("compile") or {}
            run = c.get("run") or {}
            out.append({"status": c.get("status"), "reason": c.get("reason"), "cache_notes": c.get("cache_notes"),
                        "compile": {k: (c.get("compile") or {}).get(k) for k in ("how", "timed_out", "wall_ms")},
                        "run": {k: run.get(k) for k in ("how", "timed_out", "wall_ms", "output")},
                        "notes": c.get("notes")})
        return out

    for n in range(rounds):
        rc, doc, wall = doctor("doctor side by side %d" % n, "4")
        dwalls.append(wall)
        a, b = timeless(dserial), timeless(doc)
        check(rc == rc1 and a == b, "doctor side by side %d: the document differs from the serial one's: %s; "
              "compile proofs, serial %r, this run %r" % (n, first_diff(a, b), compile_brief(dserial), compile_brief(doc)))
        check([f.get("id") for f in doc.get("findings", [])] == [f.get("id") for f in dserial.get("findings", [])],
              "doctor side by side %d: the findings' order" % n)
    print("  doctor: one at a time %.2f s, four at once %.2f s (best of %d)" % (t_dserial, min(dwalls), rounds))

with scenario("7d progress on a terminal"):
    import pty

    def on_tty(args, env=None):
        """(rc, stdout, what a terminal on standard error showed)."""
        master, slave = pty.openpty()
        p = subprocess.Popen(EXE.cmd + args, stdout=subprocess.PIPE, stderr=slave, env=EXE.environ(env))
        os.close(slave)
        seen = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the child closed its end
                break
            if not chunk:
                break
            seen += chunk
        out = p.communicate(timeout=120)[0]
        os.close(master)
        return p.returncode, out, seen.decode("utf-8", "replace")

    hang = pys[1]  # its tensorflow hangs until the time limit
    fargs = ["frameworks", "--python", hang, "--timeout", "3", "--no-gpu"]
    rc, out, tty = on_tty(fargs)
    check(("waiting for %s importing tensorflow" % hang) in tty,
          "progress: the hung child is not named on the terminal: %r" % tty[:600])
    check("tensorflow" in out.decode("utf-8", "replace") and "waiting for" not in out.decode("utf-8", "replace"),
          "progress: the report on standard output %r" % out[:300])
    rc, out, tty = on_tty(fargs + ["--quiet"])
    check("waiting for" not in tty and "  - " not in tty, "progress: --quiet still shows %r" % tty[:300])
    r = EXE.run(fargs)  # standard error a pipe: no progress
    check(b"waiting for" not in r.err, "progress: shown on a pipe: %r" % r.err[:300])
    rc, out, tty = on_tty(["doctor", "--no-gpu", "--timeout", "3"],
                          env=dict(denv, VIRTUAL_ENV=os.path.dirname(os.path.dirname(hang))))
    for part in ("read the host", "listed ", "verified installation", "read the dependencies", "Python interpreters about"):
        check(part in tty, "doctor progress: no %r in %r" % (part, tty[:800]))
    check(("waiting for %s importing tensorflow" % hang) in tty, "doctor progress: the hung child %r" % tty[:800])

with scenario("8 crash"):
    crash = venv(os.path.join(TMP, "crash"))
    site(crash, {"jax": {"crash": True}})
    rc, doc = fw_json("crash", ["--python", vpython(crash)])
    j = framework(doc, "jax")
    check(rc == 1, "crash: exit %d, want 1" % rc)
    check(j.get("state") == "crashed", "crash: state %r" % j.get("state"))
    pr = j.get("probe", {})
    check(pr.get("crashed") is True and pr.get("signal") == 11 and pr.get("died_in") == "import",
          "crash: probe %r" % pr)
    check("SIGSEGV" in j.get("error", "") and "step 'import'" in j.get("error", ""), "crash: error %r" % j.get("error"))
    expect_verdicts("crash", j, {"probe": "fail"}, {"probe": ["SIGSEGV"]})
    check(j.get("distributions", [{}])[0].get("name") == "jax", "crash: distributions %r" % j.get("distributions"))
    rc, text, err = fw_text("crash", ["--python", vpython(crash)])
    check("  FAIL  jax 0.6.2\n" in text and "killed by signal 11 (SIGSEGV) in step 'import'" in text,
          "crash text: %r" % text)
    same_fails("crash", doc, text)
    # a multi-line import error: one line in the document and in the text
    imperr = venv(os.path.join(TMP, "import-error"))
    site(imperr, {"onnxruntime": {"import_error": "libcudnn.so.9: cannot open shared object file\n"
                                                  "  (second line)\n\tthird line"}})
    rc, doc = fw_json("import error", ["--python", vpython(imperr)])
    o = framework(doc, "onnxruntime")
    check(rc == 1 and o.get("state") == "import-failed" and o.get("import", {}).get("ok") is False,
          "import error: exit %d %r %r" % (rc, o.get("state"), o.get("import")))
    check(o.get("error") == "import onnxruntime failed: ImportError: libcudnn.so.9: cannot open shared object file "
          "(second line) third line", "import error: error %r" % o.get("error"))
    expect_verdicts("import error", o, {"probe": "fail"}, {"probe": ["import onnxruntime failed"]})
    check("modules" in o, "import error: no modules after the failed import")
    rc, text, err = fw_text("import error", ["--python", vpython(imperr), "-v"])
    check("      error      import onnxruntime failed: ImportError: libcudnn.so.9: cannot open shared object file "
          "(second line) third line\n" in text, "import error text: %r" % text)
    # a directory without __init__.py left behind: not a framework, and said so
    leftover = venv(os.path.join(TMP, "leftover"))
    site(leftover, {})
    os.makedirs(os.path.join(leftover, "jax", "_src"))
    rc, doc = fw_json("leftover", ["--python", vpython(leftover)])
    j = framework(doc, "jax")
    check(rc == 1 and j.get("state") == "query-failed" and "namespace package" in j.get("error", "") and
          os.path.join(leftover, "jax") in j.get("error", ""), "leftover: exit %d %r %r" %
          (rc, j.get("state"), j.get("error")))
    expect_verdicts("leftover", j, {"probe": "fail"})
    # a crash at exit, after every fact is out: the facts and verdicts stand
    exitc = venv(os.path.join(TMP, "crash-exit"))
    xl = cudnn_wheel(exitc)
    site(exitc, {"cupy": {"crash_at_exit": True, "cudnn_version": 90100, "cudnn_build_version": 90100,
                          "libs": [xl["libcudnn.so.9"]]}})
    rc, doc = fw_json("crash at exit", ["--python", vpython(exitc)])
    c = framework(doc, "cupy")
    check(c.get("state") == "ok" and c.get("probe", {}).get("crashed") is True and
          c.get("probe", {}).get("signal") == 11 and c.get("probe", {}).get("died_in") is None,
          "crash at exit: state %r probe %r" % (c.get("state"), c.get("probe")))
    expect_verdicts("crash at exit", c, {"cuda-build": "pass", "version-rule": "pass", "one-directory": "pass"})
    check(rc == 0, "crash at exit: exit %d, want 0" % rc)

# ---- 9. megabytes of output; 10. onnxruntime's providers -----------------------------------------------------------

with scenario("9 megabytes"):
    loud = venv(os.path.join(TMP, "loud"))
    site(loud, {"onnxruntime": {"noise": 10000000, "providers": ["CUDAExecutionProvider", "CPUExecutionProvider"],
                                "cuda_version": "12.4", "cudnn_version": "9.1.0"}})
    r = run(["--python", vpython(loud), "--json"])
    doc, why = cliutil.parse_json(r.out)
    check(doc is not None, "loud: not JSON: %s" % why)
    doc = doc or {}
    o = framework(doc, "onnxruntime")
    check(o.get("state") == "ok", "loud: state %r (%s)" % (o.get("state"), o.get("error")))
    check(o.get("probe", {}).get("printed_bytes", 0) >= 10000000, "loud: printed_bytes %r" % o.get("probe"))
    check(o.get("probe", {}).get("protocol_cut") is False and o.get("probe", {}).get("bad_lines") == 0,
          "loud: protocol %r" % o.get("probe"))
    check(o.get("info", {}).get("version") == "1.20.1" and o.get("build", {}).get("cudnn") == "9.1.0" and
          o.get("build", {}).get("cuda") == "12.4" and "modules" in o and "gpu_call" in o,
          "loud: facts missing: %r" % dict((k, o.get(k)) for k in ("info", "build", "modules")))
    check(len(r.out) < 200000 and len(r.err) < 10000, "loud: the tool printed %d + %d bytes" %
          (len(r.out), len(r.err)))
    check(o.get("gpu_call", {}).get("cuda_provider_created") is True, "loud: gpu_call %r" % o.get("gpu_call"))
    rc, text, err = fw_text("loud", ["--python", vpython(loud)])
    check(len(text) < 20000 and "noise" not in text, "loud text: %d bytes" % len(text))

with scenario("10 onnxruntime providers"):
    ortcpu = venv(os.path.join(TMP, "ort-cpu"))
    site(ortcpu, {"onnxruntime": {"providers": ["AzureExecutionProvider", "CPUExecutionProvider"]}})
    rc, doc = fw_json("ort cpu", ["--python", vpython(ortcpu)])
    o = framework(doc, "onnxruntime")
    check(rc == 1, "ort cpu: exit %d, want 1" % rc)
    expect_verdicts("ort cpu", o, {"cuda-build": "fail", "gpu-call": "unknown"})
    check("onnxruntime-gpu" in verdicts(o).get("cuda-build", {}).get("fix", ""), "ort cpu: fix %r" %
          verdicts(o).get("cuda-build"))
    check(o.get("info", {}).get("available_providers") == ["AzureExecutionProvider", "CPUExecutionProvider"] and
          "gpu_call" not in o, "ort cpu: %r" % o.get("info"))
    ortbad = venv(os.path.join(TMP, "ort-bad"))
    line = ("2024-11-05 10:00:00.0 [E:onnxruntime:Default, provider_bridge_ort.cc:1848 TryGetProviderInfo_CUDA] "
            "Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*, and the latest MSVC runtime.")
    site(ortbad, {"onnxruntime": {"providers": ["TensorrtExecutionProvider", "CUDAExecutionProvider",
                                                "CPUExecutionProvider"], "provider_error": line,
                                  "cuda_version": "12.4", "cudnn_version": "9.1.0"}})
    rc, doc = fw_json("ort bad", ["--python", vpython(ortbad)])
    o = framework(doc, "onnxruntime")
    g = o.get("gpu_call", {})
    check(rc == 1, "ort bad: exit %d, want 1" % rc)
    check(g.get("cuda_provider_created") is False and g.get("providers") == ["CPUExecutionProvider"] and
          g.get("ok") is False, "ort bad: gpu_call %r" % g)
    check("Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*" in g.get("error", "") and
          "Failed to create CUDAExecutionProvider" in g.get("log", ""), "ort bad: error/log %r" % g)
    expect_verdicts("ort bad", o, {"cuda-build": "pass", "gpu-call": "fail"},
                    {"gpu-call": ["Failed to create CUDAExecutionProvider"]})
    check(o.get("probe", {}).get("printed_bytes", 0) >= len(line), "ort bad: the provider's line not counted %r" %
          o.get("probe"))
    rc, text, err = fw_text("ort bad", ["--python", vpython(ortbad), "--no-gpu"])
    check(re.search(r"^      FAIL gpu-call .*Failed to create CUDAExecutionProvider", text, re.M) is not None,
          "ort bad text: %r" % text)
    same_fails("ort bad", doc, text)
    # the process dies creating the CUDA provider: with GPU work asked for in
    # step 'gpu-call', without in step 'create-provider'; the facts stand
    ortcrash = venv(os.path.join(TMP, "ort-crash"))
    site(ortcrash, {"onnxruntime": {"providers": ["CUDAExecutionProvider", "CPUExecutionProvider"],
                                    "provider_crash": True, "cuda_version": "12.4", "cudnn_version": "9.1.0"}})
    for flag, step in (("--gpu", "gpu-call"), ("--no-gpu", "create-provider")):
        rc, doc = fw_json("ort crash " + flag, ["--python", vpython(ortcrash), flag])
        o = framework(doc, "onnxruntime")
        check(o.get("state") == "ok" and o.get("probe", {}).get("died_in") == step and
              ("in step '%s'" % step) in o.get("error", "") and o.get("build", {}).get("cudnn") == "9.1.0",
              "ort crash %s: exit %d state %r probe %r error %r" % (flag, rc, o.get("state"), o.get("probe"),
                                                                 o.get("error")))
        vg = verdicts(o).get("gpu-call", {})
        if step == "gpu-call":
            check(rc == 1 and vg.get("status") == "fail" and "crashed or hung" in vg.get("summary", ""),
                  "ort crash %s: exit %d gpu-call %r" % (flag, rc, vg))
        else:
            # without --gpu ONNX Runtime's provider is created (and dies) in
            # step 'create-provider': the call failed all the same
            check(rc == 1 and vg.get("status") == "fail", "ort crash %s: exit %d, gpu-call %r, want 1 and fail" %
                    (flag, rc, vg))

# ---- 11. tensorflow; 12. jax; 13. cupy ------------------------------------------------------------------------------

with scenario("11 tensorflow"):
    tfs = venv(os.path.join(TMP, "tf"))
    site(tfs, {"tensorflow": {"version": "2.16.1", "build_info": {"cuda_version": "12.3", "cudnn_version": "8",
                                                                   "is_cuda_build": True, "cpu_compiler": "clang"}}})
    rc, doc = fw_json("tf", ["--python", vpython(tfs)])
    tf = framework(doc, "tensorflow")
    check(rc == 0, "tf: exit %d, want 0" % rc)
    check(tf.get("build", {}).get("cudnn") == "8" and tf.get("build", {}).get("cuda") == "12.3" and
          tf.get("build", {}).get("cuda_build") is True and
          tf.get("build", {}).get("cudnn_source") == "tf.sysconfig.get_build_info()", "tf: build %r" % tf.get("build"))
    check(tf.get("info", {}).get("build_info", {}).get("cudnn_version") == "8" and tf.get("devices") == [],
          "tf: info %r devices %r" % (tf.get("info"), tf.get("devices")))
    expect_verdicts("tf", tf, {"cuda-build": "pass", "version-rule": "unknown", "one-directory": "unknown",
                               "gpu-call": "unknown"},
                    {"cuda-build": ["TensorFlow was built with CUDA 12.3"],
                     "version-rule": ["the loaded cuDNN's version is not known"]})
    check([d.get("name") for d in tf.get("distributions", [])] == ["tensorflow"], "tf: distributions %r" %
          tf.get("distributions"))
    rc, text, err = fw_text("tf", ["--python", vpython(tfs)])
    check("      built      cuDNN 8, CUDA 12.3\n" in text, "tf text: %r" % text)
    # built for cuDNN 8, loading cuDNN 9: another major
    tf9 = venv(os.path.join(TMP, "tf9"))
    t9 = cudnn_wheel(tf9)
    site(tf9, {"tensorflow": {"libs": [t9["libcudnn.so.9"]],
                              "build_info": {"cuda_version": "12.3", "cudnn_version": "8", "is_cuda_build": True}}})
    rc, doc = fw_json("tf9", ["--python", vpython(tf9)])
    tf = framework(doc, "tensorflow")
    check(rc == 1, "tf9: exit %d, want 1" % rc)
    expect_verdicts("tf9", tf, {"version-rule": "fail"}, {"version-rule": ["another major"]})
    check(tf.get("cudnn", {}).get("version_source") == "cudnnGetVersion() of the mapped library",
          "tf9: cudnn %r" % tf.get("cudnn"))
    # tensorflow[and-cuda]: the cuDNN 8 wheel it pins, loaded from there
    tfc = venv(os.path.join(TMP, "tf-and-cuda"))
    w8 = cudnn_wheel(tfc, version="8.9.7.29", number=8907)
    site(tfc, {"tensorflow": {"libs": [w8["libcudnn.so.8"], w8["libcudnn_ops_infer.so.8"]],
                              "build_info": {"cuda_version": "12.3", "cudnn_version": "8", "is_cuda_build": True}}},
         dists=False)
    dist_info(tfc, "tensorflow", "2.16.1", ["absl-py >=1.0.0", "nvidia-cudnn-cu12 ==8.9.7.29 ; extra == 'and-cuda'"])
    rc, doc = fw_json("tf and-cuda", ["--python", vpython(tfc)])
    tf = framework(doc, "tensorflow")
    w8dir = os.path.join(tfc, "nvidia", "cudnn", "lib")
    check(rc == 0, "tf and-cuda: exit %d, want 0" % rc)
    check(tf.get("cudnn", {}).get("version") == "8.9.7" and tf.get("cudnn", {}).get("directory") == w8dir and
          sorted(tf.get("cudnn", {}).get("directories", [{}])[0].get("files", [])) ==
          ["libcudnn.so.8", "libcudnn_ops_infer.so.8"], "tf and-cuda: cudnn %r" % tf.get("cudnn"))
    lc = dict((m.get("path"), m.get("version")) for m in tf.get("loaded_cudnn", []))
    check(lc == {w8["libcudnn.so.8"]: 8907, w8["libcudnn_ops_infer.so.8"]: 8907}, "tf and-cuda: loaded_cudnn %r" % lc)
    expect_verdicts("tf and-cuda", tf, {"cuda-build": "pass", "version-rule": "pass", "one-directory": "pass",
                                        "expected-copy": "pass"},
                    {"version-rule": ["build 8, run time 8.9.7"], "expected-copy": ["nvidia-cudnn-cu12", "8.9.7.29"]})
    check(verdicts(tf).get("expected-copy", {}).get("expected_kind") == "wheel", "tf and-cuda: %r" %
          verdicts(tf).get("expected-copy"))

with scenario("12 jax"):
    jx = venv(os.path.join(TMP, "jax"))
    site(jx, {"jax": {"version": "0.6.2", "cudnn_get_version": 91000, "cudnn_build_version": 90800,
                      "cuda_runtime_build_version": 12080}})
    rc, doc = fw_json("jax", ["--python", vpython(jx)])
    j = framework(doc, "jax")
    check(rc == 0, "jax: exit %d, want 0" % rc)
    check(j.get("info", {}).get("plugin") == "jax_cuda12_plugin.cuda_versions" and
          j.get("info", {}).get("jaxlib") == "0.6.2", "jax: info %r" % j.get("info"))
    check(j.get("build", {}).get("cudnn") == "9.8.0" and j.get("build", {}).get("cuda") == "12.8" and
          j.get("runtime", {}).get("cudnn") == "9.10.0", "jax: build %r runtime %r" % (j.get("build"),
                                                                                     j.get("runtime")))
    check(j.get("devices") == [{"index": 0, "platform": "cpu", "name": "cpu"}], "jax: devices %r" % j.get("devices"))
    # kb/known_bad.tsv lists 9.10.0 for JAX (its ABI break): it fits the
    # build's rule, but is warned about
    expect_verdicts("jax", j, {"cuda-build": "pass", "version-rule": "warn"},
                    {"version-rule": ["build 9.8.0, run time 9.10.0", "fits, but", "9.10.0 ABI break"]})
    check(j.get("verdict") == "warn", "jax: verdict %r, want warn" % j.get("verdict"))
    check(j.get("cudnn", {}).get("version") == "9.10.0", "jax: cudnn %r" % j.get("cudnn"))
    rc, text, err = fw_text("jax", ["--python", vpython(jx)])
    check(re.search(r"^      warn version-rule   build 9\.8\.0, run time 9\.10\.0: fits, but", text, re.M),
          "jax text: a warn version-rule line: %r" % text)
    check("  warn  jax 0.6.2\n" in text and "0 failing, 1 with warnings, 0 notes\n" in text, "jax text: %r" % text)
    # 9.10.1 is past the ABI break: a plain pass
    jx2 = venv(os.path.join(TMP, "jax2"))
    site(jx2, {"jax": {"cudnn_get_version": 91001, "cudnn_build_version": 90800,
                       "cuda_runtime_build_version": 12080}})
    rc, doc = fw_json("jax 9.10.1", ["--python", vpython(jx2)])
    expect_verdicts("jax 9.10.1", framework(doc, "jax"), {"version-rule": "pass"})
    # runtime older than the build: refused
    jx3 = venv(os.path.join(TMP, "jax3"))
    site(jx3, {"jax": {"cudnn_get_version": 90300, "cudnn_build_version": 90800,
                       "cuda_runtime_build_version": 12080}})
    rc, doc = fw_json("jax old", ["--python", vpython(jx3)])
    check(rc == 1, "jax old: exit %d" % rc)
    expect_verdicts("jax old", framework(doc, "jax"), {"version-rule": "fail"})
    # no CUDA plugin at all: a CPU-only JAX
    jx4 = venv(os.path.join(TMP, "jax4"))
    site(jx4, {"jax": {}})
    shutil.rmtree(os.path.join(jx4, "jax_cuda12_plugin"))
    rc, doc = fw_json("jax cpu", ["--python", vpython(jx4)])
    j = framework(doc, "jax")
    expect_verdicts("jax cpu", j, {"cuda-build": "fail"})
    check("jax[cuda12]" in verdicts(j).get("cuda-build", {}).get("fix", ""), "jax cpu: fix %r" %
          verdicts(j).get("cuda-build"))

with scenario("13 cupy"):
    cp = venv(os.path.join(TMP, "cupy"))
    clibs = cudnn_wheel(cp)
    site(cp, {"cupy": {"version": "13.3.0", "runtime_version": 12040, "driver_version": 12060,
                       "cudnn_version": 90100, "cudnn_build_version": 90000,
                       "libs": [clibs["libcudnn.so.9"], clibs["libcudnn_graph.so.9"]]}})
    rc, doc = fw_json("cupy", ["--python", vpython(cp)])
    c = framework(doc, "cupy")
    check(rc == 0, "cupy: exit %d, want 0" % rc)
    check(c.get("state") == "ok" and c.get("info", {}).get("runtime_version") == "12.4" and
          c.get("info", {}).get("driver_version") == "12.6" and
          c.get("info", {}).get("cudnn_module") == "cupy_backends.cuda.libs.cudnn", "cupy: info %r" % c.get("info"))
    check(c.get("build", {}).get("cudnn") == "9.0.0" and c.get("runtime", {}).get("cudnn") == "9.1.0" and
          c.get("build", {}).get("cuda") == "12.4",
          "cupy: build %r runtime %r" % (c.get("build"), c.get("runtime")))
    expect_verdicts("cupy", c, {"cuda-build": "pass", "version-rule": "pass", "one-directory": "pass",
                                "gpu-call": "unknown"},
                    {"version-rule": ["build 9.0.0, run time 9.1.0"]})
    check([d.get("name") for d in c.get("distributions", [])] == ["cupy-cuda12x"], "cupy: distributions %r" %
          c.get("distributions"))
    # no pin, nothing bundled: expected is what a plain program loads, if any
    ec = verdicts(c).get("expected-copy", {})
    rc, text, err = fw_text("cupy", ["--python", vpython(cp)])
    check("      built      cuDNN 9.0.0, CUDA 12.4\n" in text, "cupy text: built line %r" % text)
    if doc.get("plain_program"):
        check(ec.get("expected_kind") == "plain" and ec.get("status") == "note" and
              ec.get("expected") == os.path.dirname(doc["plain_program"].get("path", "")),
              "cupy: expected-copy %r" % ec)
        check("a plain program loads the copy a plain program loads" not in ec.get("summary", ""),
                "cupy: the expected-copy note says it twice: %r" % ec.get("summary"))
        check("0 with warnings, 1 note\n" in text,
                "cupy text: summary line %r" % text.strip().splitlines()[-1:])
    else:
        check(ec.get("status") == "unknown", "cupy: expected-copy %r" % ec)

# ---- 14. hostile and odd interpreters --------------------------------------------------------------------------------

with scenario("14 hostile interpreters"):
    hb = os.path.join(TMP, "hostile")
    garbage = script(os.path.join(hb, "garbage"), "#!/bin/sh\necho 'this is not JSON'\necho '{\"t\":\"fact\"'\n"
                     "printf 'last words \\033[31mred\\a\\n' >&2\nexit 1\n")
    flood = script(os.path.join(hb, "flood"), "#!/bin/sh\n"
                   "head -c 40000000 /dev/zero | tr '\\0' 'g'\n"
                   "yes 'flood flood flood flood flood flood flood flood' | head -c 20000000 >&2\nexit 0\n")
    liar = script(os.path.join(hb, "liar"), "#!/bin/sh\n"
                  "echo '{\"t\":\"fact\",\"k\":\"probe\",\"v\":{\"script\":1}}'\n"
                  "echo '{\"t\":\"fact\",\"k\":\"python\",\"v\":{\"executable\":\"/liar\",\"version\":\"3.99.0\"}}'\n"
                  "echo '{\"t\":\"fact\",\"k\":\"found\",\"v\":{\"torch\":{\"importable\":true,\"origin\":\"/x\"}}}'\n"
                  "exit 0\n")
    strange = script(os.path.join(hb, "strange"), "#!/bin/sh\n"
                     "echo '{\"t\":\"fact\",\"k\":\"python\",\"v\":\"not an object\"}'\n"
                     "echo '{\"t\":\"fact\",\"k\":\"found\",\"v\":[1,2,3]}'\nexit 0\n")
    order = ["/nonexistent/python3", "/bin/true", garbage, flood, liar, strange, PY]
    argv = []
    for p in order:
        argv += ["--python", p]
    t0 = time.monotonic()
    rc, doc = fw_json("hostile", argv, env=pp(good))
    wall = time.monotonic() - t0
    check(wall < 60, "hostile: took %.1f s" % wall)
    its = doc.get("interpreters", [])
    check([i.get("path") for i in its] == order, "hostile: interpreters %r" % [i.get("path") for i in its])
    st = dict((i.get("path"), i) for i in its)
    ne = st.get("/nonexistent/python3", {})
    check(ne.get("state") == "not-runnable" and "could not be started" in ne.get("error", ""),
          "hostile: /nonexistent %r" % ne)
    tr = st.get("/bin/true", {})
    check(tr.get("state") == "failed" and "exited with status 0" in tr.get("error", "") and
          tr.get("probe", {}).get("exit") == 0, "hostile: /bin/true %r" % tr)
    g = st.get(garbage, {})
    check(g.get("state") == "failed" and "exited with status 1" in g.get("error", "") and
          "last words" in g.get("error", "") and g.get("probe", {}).get("bad_lines", 0) >= 1,
          "hostile: garbage %r" % g)
    f = st.get(flood, {})
    check(f.get("state") == "failed" and f.get("probe", {}).get("printed_bytes", 0) >= 20000000 and
          f.get("probe", {}).get("protocol_cut") is True, "hostile: flood %r" % f.get("probe"))
    check(len(json.dumps(f)) < 20000, "hostile: the flood's entry is %d bytes" % len(json.dumps(f)))
    li = st.get(liar, {})
    lt = next((x for x in li.get("frameworks", []) if x.get("name") == "torch"), {})
    check(li.get("state") == "probed" and lt.get("state") == "failed", "hostile: liar %r / torch %r" %
          (li.get("state"), lt))
    expect_verdicts("hostile liar", lt, {"probe": "fail"})
    s = st.get(strange, {})
    check(s.get("frameworks", []) == [], "hostile: strange %r" % s)
    # a "python" fact that is no object is no answer
    check(s.get("state") == "failed", "hostile: an interpreter whose facts are not objects is %r, want failed" %
            s.get("state"))
    ok = st.get(PY, {})
    t = framework(doc, "torch", PY)
    check(ok.get("state") == "probed" and t.get("state") == "ok" and
          verdicts(t).get("version-rule", {}).get("status") == "pass", "hostile: the real interpreter after them %r" %
          t.get("state"))
    check(rc == 1, "hostile: exit %d, want 1 (the liar's torch fails its probe)" % rc)
    # a program name not on PATH; only interpreters that cannot run: nothing found
    nrc, ndoc = fw_json("no such program", ["--python", "no-such-python-xyz", "--python", "/nonexistent/python3"])
    nits = ndoc.get("interpreters", [])
    check(nrc == 3 and [i.get("state") for i in nits] == ["not-runnable", "not-runnable"] and
          nits[0].get("path") == "no-such-python-xyz", "no such program: exit %d %r" %
          (nrc, [(i.get("path"), i.get("state")) for i in nits]))
    rc, text, err = fw_text("hostile", argv + ["-v"], env=pp(good))
    check("Python /nonexistent/python3 (version unknown; --python)\n  not-runnable" in text,
          "hostile text: /nonexistent %r" % text[:2000])
    check("\x1b" not in text and "\x07" not in text and "\\x1b[31mred\\x07" in text,
          "hostile text: control characters not escaped: %r" % [ln for ln in text.splitlines() if "red" in ln])
    check(len(text) < 60000, "hostile text: %d bytes" % len(text))
    same_fails("hostile", doc, text)

# ---- 15b. python3 and python on PATH: one interpreter with aliases ----------------------------------------------

with scenario("15b PATH dedupe"):
    pbin = os.path.join(TMP, "pathbin")
    os.makedirs(pbin)
    os.symlink(PY, os.path.join(pbin, "python3"))
    os.symlink(PY, os.path.join(pbin, "python"))
    env = {"HOME": HOME}
    rc, doc = fw_json("path", ["--set", "PATH=%s:/usr/bin:/bin" % pbin, "--set", "PYTHONPATH=" + good], env=env)
    its = doc.get("interpreters", [])
    mine = [i for i in its if i.get("python", {}).get("real_executable") == PY_REAL and
            i.get("python", {}).get("prefix") == "/usr"]
    check(len(mine) == 1, "path: /usr/bin/python3 appears %d times: %r" % (len(mine), [i.get("path") for i in its]))
    m = mine[0] if mine else {}
    names = [m.get("path")] + m.get("aliases", [])
    check(m.get("path") == os.path.join(pbin, "python3") and os.path.join(pbin, "python") in names and
          PY in names, "path: path %r aliases %r" % (m.get("path"), m.get("aliases")))
    check("python3 on PATH" in m.get("sources", []) and "python on PATH" in m.get("sources", []) and
          "the system's python3" in m.get("sources", []), "path: sources %r" % m.get("sources"))
    t = next((x for x in m.get("frameworks", []) if x.get("name") == "torch"), {})
    check(t.get("state") == "ok" and t.get("origin") == os.path.join(good, "torch", "__init__.py"),
          "path: torch through --set PYTHONPATH %r" % t.get("origin"))
    rc, text, err = fw_text("path", ["--set", "PATH=%s:/usr/bin:/bin" % pbin, "--set", "PYTHONPATH=" + good],
                            env=env)
    check(("Python %s (%s; python3 on PATH; python on PATH" % (os.path.join(pbin, "python3"), PYFULL)) in text and
          ("  also as    %s\n" % os.path.join(pbin, "python")) in text, "path text: %r" % text[:1500])

    # --python by name (looked up on the PATH given) and twice the same interpreter
    rc, doc = fw_json("by name", ["--set", "PATH=%s:/usr/bin:/bin" % pbin, "--python", "python3", "--python", PY,
                                  "--python", PY, "--python", PY_REAL], env=pp(good))
    its = doc.get("interpreters", [])
    check(len(its) == 1 and its[0].get("path") == os.path.join(pbin, "python3") and
          sorted(its[0].get("aliases", [])) == sorted([PY, PY_REAL]) and its[0].get("sources") == ["--python"] * 3,
          "by name: %r" % [(i.get("path"), i.get("aliases"), i.get("sources")) for i in its])
    check(len(its) == 1 and [f.get("name") for f in its[0].get("frameworks", [])] == ["torch"],
          "by name: the frameworks are probed once: %r" % [f.get("name") for i in its for f in i.get("frameworks", [])])

# ---- 16. Debian's python3-torch -----------------------------------------------------------------------------------

with scenario("16 debian torch"):
    if os.path.isdir("/usr/lib/python3/dist-packages/torch"):
        rc, doc = fw_json("debian", ["--python", PY], env={"HOME": HOME})
        t = framework(doc, "torch")
        check(rc == 1, "debian: exit %d, want 1" % rc)
        check(t.get("state") == "ok" and t.get("origin") == "/usr/lib/python3/dist-packages/torch/__init__.py",
              "debian: torch %r %r" % (t.get("state"), t.get("origin")))
        expect_verdicts("debian", t, {"cuda-build": "fail", "version-rule": "unknown"},
                        {"cuda-build": ["is a CPU-only build"]})
        check("python3-torch" in verdicts(t).get("cuda-build", {}).get("fix", ""), "debian: fix %r" %
              verdicts(t).get("cuda-build"))
        check(t.get("cudnn", {}).get("loaded") is False, "debian: cudnn %r" % t.get("cudnn"))
        rc, text, err = fw_text("debian", ["--python", PY], env={"HOME": HOME})
        check("the distribution's python3-torch is built without CUDA" in text, "debian text: %r" % text)
        same_fails("debian", doc, text)
    elif os.environ.get("CI"):
        check(False, "debian torch: python3-torch is not installed, and CI installs it (scripts/deps.sh)")
    else:
        print("SKIP debian torch: python3-torch not installed")

# ---- 17. the command line -------------------------------------------------------------------------------------------

with scenario("17 command line"):
    # no private directory for the probe script (a full or read-only disk): one line, exit 4
    r = run(["--python", PY], env={"TMPDIR": os.path.join(TMP, "no", "such", "dir")})
    check(r.rc == 4 and r.out == b"", "no temporary directory: exit %d" % r.rc)
    one_line_error("no temporary directory", r.err_text)
    check("temporary directory" in r.err_text, "no temporary directory: error %r" % r.err_text)
    r = run(["--root", "/"])
    check(r.rc == 2 and r.out == b"", "--root /: exit %d, out %r" % (r.rc, r.out[:200]))
    one_line_error("--root /", r.err_text)
    check("--root" in r.err_text, "--root /: error %r" % r.err_text)
    r = run(["--python", ""])
    check(r.rc == 2 and r.out == b"", "--python '': exit %d" % r.rc)
    check("--python needs a path" in r.err_text, "--python '': error %r" % r.err_text)
    r = run(["--python", PY, "stray"])
    check(r.rc == 2 and "takes no arguments" in r.err_text, "positional: exit %d %r" % (r.rc, r.err_text))
    r = run(["--timeout", "soon", "--python", PY])
    check(r.rc == 2 and r.out == b"", "--timeout soon: exit %d" % r.rc)
    r = run(["--set", "NOEQUALS", "--python", PY])
    check(r.rc == 2, "--set NOEQUALS: exit %d" % r.rc)
    r = run(sum((["--python", PY] for _ in range(17)), []))
    check(r.rc == 2 and "at most 16" in r.err_text, "17 --python: exit %d %r" % (r.rc, r.err_text))
    r = run(["--no-such-option"])
    check(r.rc == 2, "--no-such-option: exit %d" % r.rc)
    r = run(["--help"])
    check(r.rc == 0 and "frameworks" in r.out_text and "--python" in r.out_text, "--help: exit %d %r" %
          (r.rc, r.out_text[:300]))

# ---- 18. what holds for every text output ----------------------------------------------------------------------------

with scenario("18 every text output"):
    pyc = [os.path.join(d, n) for d, ns, fs in os.walk(TMP) for n in ns if n == "__pycache__"]
    check(pyc == [], "bytecode written into the fake sites: %r" % pyc[:5])
    check(os.listdir(RUNTMP) == [], "the tool's private directories are left behind: %r" % os.listdir(RUNTMP)[:5])
    for label, text in ALL_TEXT:
        check("\x1b" not in text, "%s: an escape sequence in the text (not a terminal)" % label)
        check("\\x0a" not in text, "%s: text holds an escaped newline: %r" %
              (label, [ln for ln in text.splitlines() if "\\x0a" in ln][:3]))
        check(re.search(r"\n\n\d+ interpreters?, \d+ frameworks?: \d+ failing, \d+ with warnings, \d+ notes?\n\Z",
                        text) is not None,
              "%s: text lacks the summary line: %r" % (label, text[-300:]))
        for m, vid in text_verdict_lines(text):
            check(vid in ("probe", "cuda-build", "version-rule", "one-directory", "expected-copy", "gpu-call"),
                  "%s: unknown verdict id %r in the text" % (label, vid))

# -------------------------------------------------------------------------------------------------------------------

print()
for name, n, failed in COUNTS:
    print("  %-38s %3d checks%s" % (name, n, ", %d failed" % failed if failed else ""))
print("wall %.1f s" % (time.monotonic() - T0))
if args.keep:
    print("kept", TMP)
sys.exit(CHECKS.summary("frameworks", list_failures=True, need_passes=True))
