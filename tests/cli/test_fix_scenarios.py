#!/usr/bin/env python3
"""cudnnctl doctor --fix on the doctor's generated scenario trees: a copy of
each tree of build/fixtures/doctor/<name> (tests/fixtures/gen-doctor.sh), and
Windows trees built from the parts of doctor-win/ as test_doctor_win.py
builds them.

Whose fix is a change of files (a release that does not belong in its
directory, a stale DLL found before the installed one, broken link chains):
  - `doctor --fix ID --dry-run` plans it and writes nothing (a snapshot of
    paths, types, link targets, modes and SHA-256 of every file compared);
  - `doctor --fix ID --yes` carries it out: every transaction done, nothing
    left of the finding when checked again, and the doctor run afresh agrees;
  - `rollback DIR` of each directory changed gives back the broken tree
    byte for byte (the same snapshot);
  - when it is not clear which release is the stray one, nothing is planned
    and why is said.
Whose fix is a command (search-path entries, cuDNN not on the loader's path,
the cuDNN 9 installer's subfolder, Python >= 3.8) or text (a driver): the
command or text is there and nothing is written.

usage: test_fix_scenarios.py --exe CUDNNCTL --fixtures DIR
Exits 77 (skipped) when the doctor trees could not be made here.
"""
import hashlib
import json
import os
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import types
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402
import test_doctor_win as W  # noqa: E402

C = cliutil.Checks(limit=600)
EXE = None
WORK = None


STATE_PARENTS = ("var", "var/lib", "ProgramData")


def snapshot(d):
    """Every path under d but the engine's state (.cudnnctl, the state
    directory and the directories above it): its type, mode, link target or
    SHA-256."""
    out = {}
    for base, dirs, files in os.walk(d):
        dirs[:] = [x for x in dirs if x not in (".cudnnctl", "cudnnctl")]
        for n in dirs + files:
            p = os.path.join(base, n)
            st = os.lstat(p)
            rel = os.path.relpath(p, d)
            if rel in STATE_PARENTS:
                continue  # made for the tree's state directory (var/lib/cudnnctl, ProgramData/cudnnctl)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", stat.S_IMODE(st.st_mode))
            else:
                with open(p, "rb") as fh:
                    out[rel] = ("file", stat.S_IMODE(st.st_mode), hashlib.sha256(fh.read()).hexdigest())
    return out


def diff(a, b):
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))[:20]


def run(args, json_out=True):
    r = subprocess.run([EXE] + args, capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, LC_ALL="C"))
    doc = None
    if json_out:
        doc, _ = cliutil.parse_json(r.stdout)
    return r, doc or {}


class Tree:
    """A scenario: a tree, the --set values and --system it is looked at with."""

    def __init__(self, label, path, sets, windows=False):
        self.label, self.path, self.sets, self.windows = label, path, sets, windows

    def machine(self):
        return ["--root", self.path] + (["--system", "windows"] if self.windows else []) + \
            ["--set=" + s for s in self.sets]


def linux(name):
    src = os.path.join(ARGS.fixtures, "doctor", name)
    dest = tempfile.mkdtemp(prefix=name + "-", dir=WORK)
    os.rmdir(dest)
    shutil.copytree(src, dest, symlinks=True)
    with open(src + ".set") as fh:
        sets = [line.rstrip("\n") for line in fh if line.strip()]
    return Tree(name, dest, sets)


def fixes_of(doc, fid):
    return [f for f in doc.get("fixes", []) if f.get("finding") == fid]


def change_scenario(t, fid, expect_removed=(), keep=None, extra=(), expect_added=()):
    """The plan, the apply, the doctor again, the rollback of a fix that is a change of files
    (extra: more arguments of doctor --fix, as --from RELEASE; expect_added: the names it places)."""
    label = t.label
    extra = list(extra)
    broken = snapshot(t.path)
    r, d = run(["doctor", "--json", "--no-frameworks"] + t.machine())
    ids = [f.get("id") for f in d.get("findings", [])]
    C.named("%s: the doctor finds %s" % (label, fid), fid in ids, (r.returncode, ids, r.stderr[-300:]))
    r, d = run(["doctor", "--fix", fid, "--dry-run", "--json"] + extra + t.machine())
    fx = fixes_of(d, fid)
    ops = [(o.get("op"), o.get("path")) for ch in d.get("changes", []) for o in ch.get("operations", [])]
    C.named("%s: --dry-run: the fix is a change, planned, nothing written" % label,
            r.returncode == 0 and fx and all(f.get("action") == "change" for f in fx) and ops
            and all(ch.get("result", {}).get("status") == "planned" for ch in d.get("changes", []))
            and all(ch.get("of") == fid for ch in d.get("changes", []))
            and d.get("left") is None and snapshot(t.path) == broken,
            (r.returncode, r.stderr[-300:], fx, ops, diff(broken, snapshot(t.path))))
    removed = sorted(p for op, p in ops if op == "remove")
    for name in expect_removed:
        C.named("%s: the plan removes %s" % (label, name), name in removed, removed)
    if keep is not None:
        C.named("%s: the release kept is %s" % (label, keep), fx and fx[0].get("keep") == keep, fx)
    placed = sorted(os.path.basename(p.replace("\\", "/")) for op, p in ops if op in ("place", "replace"))
    for name in expect_added:
        C.named("%s: the plan places %s from the release given" % (label, name), name in placed, placed)
    if expect_added:
        C.named("%s: the fix names the release and what it adds" % label,
                fx and fx[0].get("from") == extra[extra.index("--from") + 1]
                and sorted(os.path.basename(p.replace("\\", "/")) for p in fx[0].get("added", [])) == placed, fx)
    r, d = run(["doctor", "--fix", fid, "--yes", "--json"] + extra + t.machine())
    changes = d.get("changes", [])
    C.named("%s: --yes: every transaction done, checked again, nothing left" % label,
            r.returncode == 0 and changes and d.get("left") == []
            and all(ch.get("result", {}).get("status") == "done" for ch in changes),
            (r.returncode, r.stderr[-300:], d.get("left"), [ch.get("result") for ch in changes]))
    after = snapshot(t.path)
    gone = [k for k in broken if k not in after]
    C.named("%s: the files planned are gone from the tree" % label,
            len(gone) == len(removed) and all(os.path.basename(k) in [os.path.basename(p) for p in removed]
                                              for k in gone), (gone, removed))
    r, d = run(["doctor", "--json", "--no-frameworks"] + t.machine())
    ids = [f.get("id") for f in d.get("findings", [])]
    C.named("%s: the doctor run afresh: no %s" % (label, fid), fid not in ids, ids)
    if expect_added:
        C.named("%s: what was placed is whole: no broken link, no sub-library missing, one release" % label,
                not set(ids) & {"linux-broken-symlinks", "v9-sublib-unloadable", "win-sublib-126",
                                "dependency-missing", "v9-sublibrary-version-mismatch", "linux-v8-mixed-helpers",
                                "win-sublib-127"}
                and all(os.path.lexists(os.path.join(t.path, os.path.relpath(p, "/"))) if not t.windows else True
                        for p in fx[0].get("added", [])), (ids, fx))
    ok = True
    for ch in reversed(changes):
        r, _ = run(["rollback", ch.get("target", "?"), "--yes", "--json", "--root", t.path]
                   + (["--system", "windows"] if t.windows else []))
        ok = ok and r.returncode == 0
    C.named("%s: rollback gives back the broken tree byte for byte" % label,
            ok and snapshot(t.path) == broken, (r.returncode, r.stderr[-300:], diff(broken, snapshot(t.path))))


def nochange_scenario(t, fid, action, want_commands=(), want_why=(), no_scope=(), extra=()):
    """A fix that is a command, none (with why) or text: said, nothing written."""
    label = t.label
    broken = snapshot(t.path)
    r, d = run(["doctor", "--fix", fid, "--yes", "--json"] + list(extra) + t.machine())
    fx = fixes_of(d, fid)
    f = fx[0] if fx else {}
    cmds = {c.get("scope"): c.get("command") for c in f.get("commands", [])}
    C.named("%s: %s is action %s" % (label, fid, action), f.get("action") == action, (r.returncode, r.stderr[-300:], fx))
    C.named("%s: nothing planned, nothing written" % label,
            r.returncode == 0 and d.get("changes") == [] and d.get("left") is None and snapshot(t.path) == broken,
            (r.returncode, d.get("changes"), diff(broken, snapshot(t.path))))
    for scope, text in want_commands:
        C.named("%s: the %s command has %r" % (label, scope, text), text in (cmds.get(scope) or ""), cmds)
    for scope in no_scope:
        C.named("%s: no %s command" % (label, scope), scope not in cmds, cmds)
    for text in want_why:
        C.named("%s: why/fix has %r" % (label, text), text in (f.get("why") or f.get("fix") or ""), f)
    if action == "text":
        C.named("%s: the text is the doctor's fix" % label, bool(f.get("fix")), f)
    r, _ = run(["doctor", "--fix", fid, "--yes"] + list(extra) + t.machine(), json_out=False)
    marks = {"command": "run (", "none": "not changed: ", "text": "by hand (not a change of files): "}
    C.named("%s: the text output says it" % label, r.returncode == 0 and marks[action] in r.stdout,
            (r.returncode, r.stdout[-500:]))
    return cmds


def runs_dry(t, command):
    """The persistent command, run with --dry-run on the same tree: it is a command the tool takes."""
    argv = shlex.split(command)
    r, d = run([a for a in argv[1:]] + ["--dry-run", "--json"] + ["--set=" + s for s in t.sets])
    C.named("%s: '%s --dry-run' is taken and plans" % (t.label, command),
            r.returncode == 0 and d.get("result", {}).get("status") == "planned", (r.returncode, r.stderr[-300:]))


def linux_scenarios():
    change_scenario(linux("v8-mixed-helpers"), "linux-v8-mixed-helpers",
                    expect_removed=["libcudnn_cnn_infer.so.8.6.0", "libcudnn_cnn_train.so.8.6.0",
                                    "libcudnn_cnn_infer.so.8"], keep="8.9.7")
    change_scenario(linux("v9-version-mismatch"), "v9-sublibrary-version-mismatch",
                    expect_removed=["libcudnn_ops.so.9.18.0", "libcudnn_ops.so.9"], keep="9.19.0")
    for name in ("broken-dangling", "broken-no-soname-link", "broken-flattened"):
        change_scenario(linux(name), "linux-broken-symlinks")
    # as many files of each release and no shim: which is stray is not clear
    t = linux("v8-mixed-helpers")
    t.label = "v8 mixed, equal counts, no shim"
    lib = os.path.join(t.path, "usr/lib/x86_64-linux-gnu")
    for n in os.listdir(lib):
        if n.startswith(("libcudnn.so", "libcudnn_adv_")):
            os.remove(os.path.join(lib, n))
    nochange_scenario(t, "linux-v8-mixed-helpers", "none", want_why=["not clear"])

    from_scenarios()

    t = linux("libcudnn-not-found")
    cmds = nochange_scenario(t, "linux-libcudnn-not-found", "command",
                             want_commands=[("shell", 'eval "$(cudnnctl env /opt/cudnn --root'),
                                            ("persistent", "cudnnctl use /opt/cudnn --root")])
    if cmds.get("persistent"):
        runs_dry(t, cmds["persistent"])
    nochange_scenario(linux("pip-not-on-path"), "pip-cudnn-not-on-path", "none",
                      want_why=["pip wheel", "cudnnctl exec", "cudnnctl env"])
    nochange_scenario(linux("conda-vs-system"), "conda-vs-system-order", "command",
                      want_commands=[("shell", "cudnnctl env /opt/conda/envs/tf")], no_scope=["persistent"])
    nochange_scenario(linux("path-empty-entry"), "path-empty-entry", "command",
                      want_commands=[("shell", "export LD_LIBRARY_PATH='/usr/local/cuda-12.4/lib64'")])
    nochange_scenario(linux("path-writable-dir"), "path-writable-dir", "command",
                      want_commands=[("shell", "unset LD_LIBRARY_PATH")])
    nochange_scenario(linux("path-missing-entry"), "path-missing-entry", "command",
                      want_commands=[("shell", "unset LD_LIBRARY_PATH")])
    nochange_scenario(linux("no-driver"), "not-initialized", "text", want_why=["driver"])
    nochange_scenario(linux("driver-too-old"), "driver-too-old", "text")


def from_scenarios():
    """--from RELEASE: the directory keeps that release and gets the libraries of it it lacks."""
    a919 = os.path.join(ARGS.fixtures, "install-sources", "archives",
                        "cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz")
    a897 = os.path.join(ARGS.fixtures, "archives", "cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz")
    wzip = os.path.join(ARGS.fixtures, "archives", "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip")
    t = linux("v9-version-mismatch")
    t.label = "v9 mismatch --from 9.19 archive"
    change_scenario(t, "v9-sublibrary-version-mismatch", expect_removed=["libcudnn_ops.so.9.18.0"], keep="9.19.0",
                    extra=["--from", a919], expect_added=["libcudnn_ops.so.9.19.0", "libcudnn_ops.so.9"])
    t = linux("v8-mixed-helpers")
    t.label = "v8 mixed --from 8.9.7 archive"
    change_scenario(t, "linux-v8-mixed-helpers", expect_removed=["libcudnn_cnn_infer.so.8.6.0"], keep="8.9.7",
                    extra=["--from", a897], expect_added=["libcudnn_cnn_infer.so.8.9.7", "libcudnn_cnn_train.so.8.9.7"])
    # which release is stray is not clear by itself; the release given decides
    t = linux("v8-mixed-helpers")
    t.label = "v8 mixed, equal counts, --from 8.9.7"
    lib = os.path.join(t.path, "usr/lib/x86_64-linux-gnu")
    for n in os.listdir(lib):
        if n.startswith(("libcudnn.so", "libcudnn_adv_")):
            os.remove(os.path.join(lib, n))
    change_scenario(t, "linux-v8-mixed-helpers", expect_removed=["libcudnn_cnn_train.so.8.6.0"], keep="8.9.7",
                    extra=["--from", a897], expect_added=["libcudnn_cnn_train.so.8.9.7", "libcudnn.so.8.9.7"])
    t = linux("v8-mixed-helpers")
    t.label = "v8 mixed --from a 9.19 archive"
    nochange_scenario(t, "linux-v8-mixed-helpers", "none", want_why=["is cuDNN 9.19.0", "8.9.7 and 8.6.0"],
                      extra=["--from", a919])
    t.label = "v8 mixed --from a Windows zip"
    nochange_scenario(t, "linux-v8-mixed-helpers", "none", want_why=["is a release for windows"],
                      extra=["--from", wzip])
    r, _ = run(["doctor", "--fix", "--from", os.path.join(WORK, "absent.tar.xz"), "--dry-run"] + t.machine(),
               json_out=False)
    C.named("--from a file that is not there: an error naming it, nothing planned",
            r.returncode not in (0, 1) and "absent.tar.xz" in r.stderr and r.stdout == "", (r.returncode, r.stderr))
    r, _ = run(["doctor", "--from", a919] + t.machine(), json_out=False)
    C.named("--from without --fix: a usage error", r.returncode == 2 and "--fix" in r.stderr, (r.returncode, r.stderr))


def windows_scenarios():
    d = os.path.join(ARGS.fixtures, "doctor-win")
    if not os.path.isdir(d) or os.path.exists(os.path.join(d, ".skipped")):
        print("skip: no doctor Windows fixtures (mingw-w64): the Windows scenarios")
        return
    W.ARGS = types.SimpleNamespace(fixtures=ARGS.fixtures)
    W.TMP = os.path.join(WORK, "win")
    os.makedirs(W.TMP)
    SYS = W.SYS

    t = W.tree("stale-system32")
    sets = W.clean_v8(t)
    W.put(t, "v8-8.6.0.163", "Windows/System32")
    sets.append("PATH=%s\\bin;%s" % (W.win(W.CUDA118), SYS))
    change_scenario(Tree("win stale System32", t, sets, True), "win-stale-dll-shadow",
                    expect_removed=["cudnn64_8.dll", "cudnn_cnn_infer64_8.dll"])

    t = W.tree("stale-path")
    sets = W.clean_v8(t)
    W.put(t, "v8-8.6.0.163", "tools/old-cudnn/bin")
    W.put(t, "zlib-x64/zlibwapi.dll", "tools/old-cudnn/bin")
    sets.append("PATH=C:\\tools\\old-cudnn\\bin;%s\\bin;%s" % (W.win(W.CUDA118), SYS))
    change_scenario(Tree("win stale first on PATH", t, sets, True), "win-stale-dll-shadow",
                    expect_removed=["cudnn64_8.dll", "cudnn_ops_infer64_8.dll"])

    t = W.tree("mixed-dir")
    sets = W.clean_v8(t)
    for n in ("cudnn_cnn_infer64_8.dll", "cudnn_cnn_train64_8.dll"):
        shutil.copy(W.part("v8-8.6.0.163/" + n), os.path.join(t, W.CUDA118, "bin", n))
    sets.append("PATH=%s\\bin;%s" % (W.win(W.CUDA118), SYS))
    change_scenario(Tree("win mixed folder", t, sets, True), "win-sublib-127",
                    expect_removed=["cudnn_cnn_infer64_8.dll", "cudnn_cnn_train64_8.dll"], keep="8.9.7")

    # cuDNN 9.1 in the toolkit's bin with the ops DLL of 9.19 over it: --from the 9.1 zip puts 9.1's back
    t = W.tree("mixed-v9-from")
    sets = W.clean_v9(t) + ["PATH=%s\\bin;%s" % (W.win(W.CUDA124), SYS)]
    z919 = os.path.join(ARGS.fixtures, "install-sources", "archives",
                        "cudnn-windows-x86_64-9.19.0.56_cuda12-archive.zip")
    z91 = os.path.join(ARGS.fixtures, "archives", "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip")
    with zipfile.ZipFile(z919) as z:
        n = [x for x in z.namelist() if x.endswith("/cudnn_ops64_9.dll")][0]
        with open(os.path.join(t, W.CUDA124, "bin", "cudnn_ops64_9.dll"), "wb") as fh:
            fh.write(z.read(n))
    r, d = run(["doctor", "--json", "--no-frameworks"] + Tree("", t, sets, True).machine())
    mixed = [f.get("id") for f in d.get("findings", []) if f.get("evidence", {}).get("problem") == "mixed-versions"]
    C.named("win v9 with a 9.19 ops DLL: a mixed-versions finding", len(mixed) == 1, (r.returncode, mixed))
    if mixed:
        change_scenario(Tree("win v9 mixed --from the 9.1 zip", t, sets, True), mixed[0], keep="9.1.0",
                        extra=["--from", z91], expect_added=["cudnn_ops64_9.dll"])

    t = W.tree("cudnn9-subdir")
    inst = "Program Files/NVIDIA/CUDNN/v9.1"
    W.put(t, "v9-9.1.0.70", inst + "/bin/12.4")
    W.headers(t, inst + "/include/12.4", "9.1.0")
    os.makedirs(os.path.join(t, W.CUDA124, "bin"), exist_ok=True)
    sets = ["CUDA_PATH=" + W.win(W.CUDA124), "PATH=%s\\bin;%s\\bin;%s" % (W.win(inst), W.win(W.CUDA124), SYS)]
    nochange_scenario(Tree("win cuDNN 9 subfolder", t, sets, True), "win-cudnn9-subdir", "command",
                      want_commands=[("shell", 'cudnnctl env "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1" --cuda 12.4'),
                                     ("shell", "--shell cmd"),
                                     ("persistent", 'cudnnctl use "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1" --cuda 12.4')])

    t = W.tree("python")
    W.clean_v9(t, "tools/cudnn")
    py = W.python311(t)
    nochange_scenario(Tree("win Python 3.11", t, ["PATH=C:\\tools\\cudnn\\bin;%s;%s" % (py, SYS)], True),
                      "win-python-dll-path", "command",
                      want_commands=[("python", 'os.add_dll_directory(r"C:\\tools\\cudnn\\bin")'),
                                     ("shell", "cudnnctl env C:\\tools\\cudnn")])

    t = W.tree("path-relative")
    W.clean_v9(t, "tools/cudnn")
    nochange_scenario(Tree("win relative PATH entry", t, ["PATH=C:\\tools\\cudnn\\bin;bin;%s" % SYS], True),
                      "path-empty-entry", "command",
                      want_commands=[("shell", 'set "PATH=C:\\tools\\cudnn\\bin;C:\\Windows\\System32;C:\\Windows"')])


def main():
    global ARGS, EXE, WORK
    ARGS = cliutil.parser(fixtures=True).parse_args()
    EXE = os.path.abspath(ARGS.exe)
    d = os.path.join(ARGS.fixtures, "doctor")
    if not os.path.isdir(d) or os.path.exists(os.path.join(d, ".skipped")):
        print("skipped: no doctor trees (gen-doctor.sh)")
        return 77
    WORK = tempfile.mkdtemp(prefix="cc-fix-scen-")
    try:
        linux_scenarios()
        windows_scenarios()
    finally:
        if os.environ.get("CUDNNCTL_KEEP_TEMP"):
            print("trees kept in %s" % WORK)
        else:
            shutil.rmtree(WORK, ignore_errors=True)
    return C.summary("fix scenarios", need_passes=True)


if __name__ == "__main__":
    sys.exit(main())
