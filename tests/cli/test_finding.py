#!/usr/bin/env python3
"""CLI tests for finding cuDNN: `cudnnctl list` over the machine trees of
tests/fixtures/gen-trees.sh and over this machine. The Windows build runs the
Windows cases through Wine (--wrapper), with paths given as Windows paths.

usage: test_finding.py --exe CUDNNCTL --fixtures DIR --system linux|windows [--wrapper=WINE]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

ARGS = None
EXE = None  # the program under test (cliutil.Program), made by main()
CHECKS = cliutil.Checks(limit=2000)
check = CHECKS.named


def native(path):
    """The path as the program under test sees it."""
    if ARGS.system == "windows" and ARGS.wrapper:
        return cliutil.wine_path(path)
    return path


def run(args, env=None, prefix=()):
    r = EXE.run(args, env=env, prefix=prefix)
    return r.rc, r.out, r.err


def list_json(extra, env=None, prefix=()):
    rc, out, err = run(["list", "--json"] + extra, env=env, prefix=prefix)
    doc, why = cliutil.parse_json(out)
    if why is not None:
        check("list --json parses (%s)" % " ".join(extra), False, "%s: %r %r" % (why, out[:300], err[:300]))
        return rc, None, err
    return rc, doc, err


def tree(name):
    return os.path.join(ARGS.fixtures, "trees", name)


def by_prefix(doc, prefix):
    for i in doc["installations"]:
        if i["prefix"] == prefix:
            return i
    return None


def sources(inst, source):
    return [v["version"] for v in inst["versions"] if v["source"] == source and v["component"] == "cudnn"]


# ---- cases ------------------------------------------------------------------

def test_help():
    rc, out, _ = run(["list", "--help"])
    t = out.decode()
    check("list --help: exit 0", rc == 0 and t.startswith("usage: cudnnctl list"), rc)
    for opt in ("--json", "--root", "--set", "--env", "--max-dirs"):
        check("list --help mentions %s" % opt, opt in t, t[:400])


def test_real_machine(tmp):
    """This machine, live: the CUDA 13.0 toolkit with cuDNN 9.19.0 under /usr/local/cuda."""
    if ARGS.system != "linux":
        return
    rc, out, err = run(["list"])
    text = out.decode("utf-8", "replace")
    real = os.path.exists("/usr/local/cuda/lib/libcudnn_graph.so.9")
    check("live list: exit 0 when cuDNN is there, 3 when not", rc == (0 if real else 3), (rc, err))
    rc, doc, _ = list_json([])
    if doc is None:
        return
    # the JSON is valid for python3 -m json.tool too
    raw = subprocess.run([ARGS.exe, "list", "--json"], stdout=subprocess.PIPE).stdout
    check("live list --json: python3 -m json.tool accepts it",
          cliutil.json_tool_ok(json.dumps(doc).encode()) and cliutil.json_tool_ok(raw))
    check("live list --json: header", doc["schema_version"] == 2 and doc["command"] == "list"
          and doc["tool"] == "cudnnctl" and doc["machine"]["live"] is True, {k: doc.get(k) for k in ("command",)})
    check("live list --json: roots have a state and sources",
          all(r["state"] in ("searched", "missing", "not-a-directory", "unreadable", "over-limit")
              and r["sources"] for r in doc["roots"]), doc["roots"][:3])
    if not real:
        print("skip real cuDNN checks: /usr/local/cuda/lib/libcudnn_graph.so.9 is not there")
        return
    canon = os.path.realpath("/usr/local/cuda")
    hits = [i for i in doc["installations"] if i["prefix"] == canon or "/usr/local/cuda" in i["aliases"]]
    check("real: /usr/local/cuda found once (not again as the link, lib64 or targets/)", len(hits) == 1,
          [i["prefix"] for i in doc["installations"]])
    if len(hits) != 1:
        return
    i = hits[0]
    check("real: prefix is the canonical %s" % canon, i["prefix"] == canon, i["prefix"])
    check("real: provenance cuda-toolkit", i["provenance"]["kind"] == "cuda-toolkit", i["provenance"])
    check("real: toolkit version 13.0", i["provenance"].get("toolkit", {}).get("version") == "13.0",
          i["provenance"].get("toolkit"))
    check("real: version 9.19.0", i["version"] == "9.19.0", (i["version"], i["disagreements"]))
    check("real: exported constants say 9.19.0",
          sources(i, "exported-constant") and set(sources(i, "exported-constant")) == {"9.19.0"}, i["versions"][:5])
    check("real: the header says 9.19.0", "9.19.0" in sources(i, "header"), sources(i, "header"))
    check("real: the dist-info says 9.19.0.56", sources(i, "dist-info") == ["9.19.0.56"], sources(i, "dist-info"))
    check("real: no problems", i["problems"] == [], i["problems"])
    check("real text: one block with the prefix and version",
          text.count("/usr/local/cuda-13.0\n") == 1 and "cuda-toolkit, CUDA 13.0" in text and "9.19.0" in text,
          text[:800])
    # which: the file ld.so.cache gives, with its installation
    # (--all: the whole machine, so the installation by list's id; without it, by its prefix)
    for extra in ([], ["--all"]):
        rc, out, err = run(["which", "--json", "libcudnn.so.9"] + extra)
        w = json.loads(out.decode("utf-8")) if rc in (0, 3) else None
        r = w["results"][0] if w else {}
        want_id = doc["installations"].index(i) + 1 if extra else None
        check("real which libcudnn.so.9 %s: found through ld.so.cache, part of the toolkit's installation" % extra,
              r.get("found") and r.get("how") == "ld.so.cache" and r.get("realpath", "").startswith(canon)
              and r.get("installation") == want_id and r.get("installation_version") == "9.19.0"
              and r.get("installation_prefix") == i["prefix"],
              {k: r.get(k) for k in ("found", "how", "realpath", "installation", "installation_version",
                                     "installation_prefix")})
    # deps: with no NVIDIA driver here, libcuda.so.1 is missing, and the note says what that means
    rc, out, err = run(["which", "--json", "libcuda.so.1"])
    driver = json.loads(out.decode("utf-8"))["results"][0]["found"] if rc in (0, 3) else True
    if not driver:
        rc, out, err = run(["deps", "--json", "/usr/local/cuda/lib/libcudnn_graph.so.9"])
        d = json.loads(out.decode("utf-8"))
        check("real deps libcudnn_graph.so.9 (no driver): exit 1, libcuda.so.1 missing at run time",
              rc == 1 and d["summary"]["runtime_missing"] >= 1 and d["summary"]["missing"] == 0, (rc, d["summary"]))
        check("real deps: the note names the missing driver and the toolkit's stub",
              any("NVIDIA driver" in n and "stubs/libcuda.so" in n for n in d["notes"]), d["notes"])
        check("real deps: cuDNN from one directory, 9.19.0, not mixed",
              d["summary"]["cudnn"]["versions"] == ["9.19.0"] and not d["summary"]["cudnn"]["mixed"],
              d["summary"]["cudnn"])


def test_fixture_trees():
    if ARGS.system != "linux":
        return
    rc, out, _ = run(["list", "--root", tree("toolkit")])
    t = out.decode()
    check("toolkit tree: exit 0", rc == 0, rc)
    check("toolkit tree: one block, copied-in cuDNN 9.1.0",
          t.count("\n[") == 1 and "[1] /usr/local/cuda-12.4" in t and "cuDNN copied in by hand" in t
          and "9.1.0" in t, t)
    check("toolkit tree: no colour when not a terminal", "\033[" not in t)
    rc, out, _ = run(["list", "-v", "--root", tree("toolkit")])
    t = out.decode()
    check("toolkit tree -v: every file and chain",
          "lib/libcudnn_graph.so -> libcudnn_graph.so.9 -> libcudnn_graph.so.9.1.0" in t
          and "libcudnn_graph.so.9.1.0  file-name 9.1.0, exported-constant 9.1.0" in t, t[-1500:])
    rc, doc, _ = list_json(["--root", tree("distro")])
    if doc:
        i = by_prefix(doc, "/usr")
        check("distro tree: the dpkg packages own the files",
              i is not None and i["provenance"]["kind"] == "distro-package"
              and sorted(p["name"] for p in i["provenance"]["packages"]) == ["libcudnn9-cuda-12", "libcudnn9-dev-cuda-12"],
              i and i["provenance"])
        check("distro tree: package-database version", i is not None and sources(i, "package-database") == ["9.14.0.64"] * 2,
              i and i["versions"])
        check("distro tree: --root recorded", doc["machine"]["root"] == tree("distro") and doc["machine"]["live"] is False,
              doc["machine"])
    rc, doc, _ = list_json(["--root", tree("archive")])
    if doc:
        kinds = sorted(i["provenance"]["kind"] for i in doc["installations"])
        check("archive tree: two archive copies", kinds == ["archive-copy", "archive-copy"], kinds)


def test_windows_tree():
    root = tree("windows")
    extra = ["--root", native(root), "--set", "PATH=C:\\tools\\dnn;C:\\Windows\\System32",
             "--set", "CUDA_PATH=C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.4"]
    if ARGS.system == "linux":
        extra += ["--system", "windows"]
    rc, doc, err = list_json(extra)
    check("windows tree: exit 0", rc == 0, (rc, err))
    if not doc:
        return
    got = {i["prefix"].lower(): i for i in doc["installations"]}
    cuda = got.get("c:\\program files\\nvidia gpu computing toolkit\\cuda\\v11.4")
    check("windows tree: CUDA v11.4 with cuDNN copied into bin",
          cuda is not None and cuda["provenance"]["kind"] == "cuda-toolkit" and cuda["provenance"]["copied_in"]
          and cuda["version"] == "8.2.2", cuda and (cuda["provenance"], cuda["version"]))
    inst = got.get("c:\\program files\\nvidia\\cudnn\\v9.1")
    check("windows tree: the cuDNN 9 installer layout (bin\\12.x)",
          inst is not None and inst["provenance"]["kind"] == "windows-installer" and inst.get("cuda_variants") == ["12.x"],
          inst and inst["provenance"])
    s32 = got.get("c:\\windows\\system32")
    check("windows tree: the stale cudnn64_8.dll in System32 is a problem",
          s32 is not None and any(p["kind"] == "system-directory-copy" for p in s32["problems"]), s32 and s32["problems"])
    check("windows tree: the DLL in a PATH directory", "c:\\tools\\dnn" in got, list(got))


def test_windows_live():
    """The Windows build on a live Windows (Wine): the loader's facts come
    from the system itself (GetSystemDirectory, the registry), and which/deps
    answer from them."""
    if ARGS.system != "windows":
        return
    rc, out, err = run(["which", "--json", "kernel32.dll", "nosuch_cudnnctl_test.dll"])
    try:
        doc = json.loads(out.decode("utf-8"))
    except ValueError:
        check("live which --json parses", False, (rc, out[:300], err[:300]))
        return
    ld = doc.get("loader", {})
    check("live which: the machine is live Windows", doc["machine"]["live"] and doc["machine"]["system"] == "windows",
          doc["machine"])
    check("live which: System32 from the system", (ld.get("system32") or "").lower().endswith("\\system32"), ld)
    check("live which: SafeDllSearchMode read from the registry",
          (ld.get("safe_search_source") or "").startswith("registry"), ld.get("safe_search_source"))
    check("live which: KnownDLLs from the registry or the built-in list with a note",
          ld.get("known_dlls_source") == "registry" or any("KnownDLLs" in n for n in ld.get("notes", [])),
          (ld.get("known_dlls_source"), ld.get("notes")))
    res = {r["name"].lower(): r for r in doc.get("results", [])}
    k = res.get("kernel32.dll", {})
    check("live which: kernel32.dll is found in System32",
          k.get("found") and (k.get("path") or "").lower().startswith((ld.get("system32") or "?").lower()), k)
    n = res.get("nosuch_cudnnctl_test.dll", {})
    check("live which: a missing DLL is error 126", not n.get("found") and n.get("windows_error") == 126, n)
    check("live which: exit 3 (one name not found)", rc == 3, rc)
    rc, out, err = run(["deps", "--json", "kernel32.dll"])
    try:
        d = json.loads(out.decode("utf-8"))
    except ValueError:
        d = None
    check("live deps kernel32.dll: a tree", d is not None and d.get("target_status") == "found" and len(d["nodes"]) >= 1,
          (rc, out[:200], err[:200]))


def test_exit_statuses(tmp):
    rc, out, err = run(["list", "--root", native(tree("empty"))] + (["--system", "linux"] if ARGS.system == "linux" else []))
    t = out.decode()
    check("nothing found: exit 3", rc == 3, (rc, err))
    check("nothing found: says so and names the roots searched", "no cuDNN found" in t and "searched" in t, t[:500])
    rc, doc, _ = list_json(["--root", native(tree("empty"))])
    check("nothing found --json: exit 3, empty installations, roots listed",
          rc == 3 and doc is not None and doc["installations"] == [] and len(doc["roots"]) > 0, rc)
    missing = os.path.join(tmp, "no-such-root")
    rc, out, err = run(["list", "--root", native(missing)])
    check("bad --root (missing): exit 3 with one line naming it", rc == 3 and b"no-such-root" in err
          and err.decode().count("\n") == 1, (rc, err))
    afile = os.path.join(tmp, "a-file")
    with open(afile, "w") as f:
        f.write("x\n")
    rc, out, err = run(["list", "--root", native(afile)])
    check("bad --root (a file): exit 2", rc == 2 and b"not a directory" in err, (rc, err))
    rc, out, err = run(["list", "--max-dirs", "zero"])
    check("bad --max-dirs: exit 2", rc == 2 and b"--max-dirs" in err, (rc, err))
    rc, out, err = run(["list", "--set", "NOEQUALS", "--root", native(tree("empty"))])
    check("bad --set: exit 2", rc == 2 and b"--set" in err, (rc, err))
    rc, out, err = run(["list", "extra-arg"])
    check("unexpected argument: exit 2", rc == 2, rc)


def test_set_and_env(tmp):
    if ARGS.system != "linux":
        return
    root = tree("mismatch")
    rc, doc, _ = list_json(["--root", root, "--set", "LD_LIBRARY_PATH=/srv/dnn/lib"])
    if doc:
        i = by_prefix(doc, "/srv/dnn")
        check("--set LD_LIBRARY_PATH: the directory is searched, its prefix completed (headers join)",
              i is not None and i["counts"]["headers"] == 3 and doc["roots"][0]["sources"] == ["LD_LIBRARY_PATH entry 1"],
              doc["roots"][:2])
        check("--set: header and library disagree -> version null, disagreements, problem",
              i is not None and i["version"] is None and len(i["disagreements"]) == 2
              and any(p["kind"] == "header-library-mismatch" for p in i["problems"]), i and i["disagreements"])
        check("--set: /srv/mixed is not searched", by_prefix(doc, "/srv/mixed") is None)
    envf = os.path.join(tmp, "machine.env")
    with open(envf, "w") as f:
        f.write("# the image's environment\nexport LD_LIBRARY_PATH=/srv/mixed/lib\n")
    rc, doc, _ = list_json(["--root", root, "--env", envf])
    if doc:
        i = by_prefix(doc, "/srv/mixed")
        check("--env FILE: LD_LIBRARY_PATH from the file; mixed versions kept apart",
              i is not None and len(i.get("sets", [])) == 2 and by_prefix(doc, "/srv/dnn") is None,
              [x["prefix"] for x in doc["installations"]])
    rc, doc, _ = list_json(["--root", root, "--env", envf, "--set", "LD_LIBRARY_PATH=/srv/dnn/lib"])
    if doc:
        check("--set overrides --env", by_prefix(doc, "/srv/dnn") is not None and by_prefix(doc, "/srv/mixed") is None,
              [x["prefix"] for x in doc["installations"]])
    rc, out, err = run(["list", "--root", root, "--env", os.path.join(tmp, "missing.env")])
    check("--env missing file: fails with a message", rc != 0 and b"missing.env" in err, (rc, err))
    rc, doc, _ = list_json(["--root", tree("pip"), "--set", "VIRTUAL_ENV=/home/u/venv",
                            "--set", "PATH=/home/u/venv2/bin:/opt/py/bin"])
    if doc:
        kinds = sorted((i["provenance"]["kind"], i["version"]) for i in doc["installations"])
        check("--set VIRTUAL_ENV/PATH: wheels in the venv, the PATH venv and torch",
              kinds == [("pip-wheel", "9.1.0"), ("pip-wheel", "9.19.0"), ("pip-wheel", "9.5.1")], kinds)
    rc, out, err = run(["list", "--root", tree("many"), "--set", "HOME=/home/u", "--max-dirs", "100"])
    t = out.decode()
    check("--max-dirs: stops and says so", "stopped early" in t and "--max-dirs" in t, t[-400:])


def test_links():
    if ARGS.system != "linux":
        return
    rc, doc, _ = list_json(["--root", tree("links"), "--set", "LD_LIBRARY_PATH=/srv/flat/lib:/srv/broken/lib"])
    if not doc:
        return
    flat = by_prefix(doc, "/srv/flat")
    broken = by_prefix(doc, "/srv/broken")
    check("flattened chain reported", flat is not None and any(p["kind"] == "flattened-symlinks" for p in flat["problems"]),
          flat and flat["problems"])
    kinds = sorted(p["kind"] for p in broken["problems"]) if broken else []
    check("broken chains reported", kinds.count("dangling-symlink") == 2 and kinds.count("symlink-loop") == 3, kinds)
    check("directory loop in /opt recorded as skipped",
          any(s["path"] == "/opt/selfloop" and "loop" in s["reason"] for s in doc["skipped"]), doc["skipped"])


def test_permissions(tmp):
    """Unreadable files and directories, seen by an unprivileged user."""
    if ARGS.system != "linux" or os.geteuid() != 0 or not shutil.which("setpriv"):
        print("skip permissions: needs root and setpriv on Linux")
        return
    root = os.path.join(tmp, "perm")
    lib = os.path.join(root, "srv", "u", "lib")
    os.makedirs(lib)
    os.makedirs(os.path.join(root, "opt", "locked"))
    with open(os.path.join(root, "opt", "locked", "libcudnn.so.9"), "w") as f:
        f.write("x")
    shutil.copy(os.path.join(tree("toolkit"), "usr/local/cuda-12.4/targets/x86_64-linux/lib/libcudnn_graph.so.9.1.0"),
                os.path.join(lib, "libcudnn_graph.so.9.1.0"))
    os.symlink("libcudnn_graph.so.9.1.0", os.path.join(lib, "libcudnn_graph.so.9"))
    secret = os.path.join(lib, "libcudnn_ops.so.9")
    with open(secret, "w") as f:
        f.write("secret")
    os.chmod(secret, 0)
    os.chmod(os.path.join(root, "opt", "locked"), 0)
    for p in (tmp, root):
        os.chmod(p, 0o755)
    exe = os.path.abspath(ARGS.exe)
    os.chmod(exe, os.stat(exe).st_mode | 0o055)
    rc, doc, err = list_json(["--root", root, "--set", "LD_LIBRARY_PATH=/srv/u/lib:/opt/locked"],
                             prefix=("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"))
    os.chmod(os.path.join(root, "opt", "locked"), 0o755)
    if not doc:
        return
    check("permissions: exit 0 (an installation was found)", rc == 0, (rc, err))
    locked = [r for r in doc["roots"] if r["path"] == "/opt/locked"]
    check("permissions: the locked root is unreadable, with the reason",
          locked and locked[0]["state"] == "unreadable" and "ermission" in locked[0].get("reason", ""), locked)
    check("permissions: one skipped line for it, without the host path",
          [s for s in doc["skipped"] if s["path"] == "/opt/locked" and "ermission" in s["reason"]
           and root not in s["reason"]], doc["skipped"])
    i = by_prefix(doc, "/srv/u")
    ops = [f for f in i["files"] if f["name"] == "libcudnn_ops.so.9"] if i else []
    check("permissions: the unreadable file is listed with its error",
          ops and "ermission" in ops[0].get("error", ""), ops)
    check("permissions: the readable library still gives its version",
          i is not None and i["version"] == "9.1.0", i and i["versions"])
    rc, out, err = run(["list", "--root", root, "--set", "LD_LIBRARY_PATH=/srv/u/lib:/opt/locked"],
                       prefix=("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"))
    t = out.decode()
    check("permissions text: the unreadable root and file are named",
          "unreadable" in t and "/opt/locked" in t and "unreadable-file" in t, t)


def main():
    global ARGS, EXE
    ARGS = cliutil.parser(fixtures=True, system=True, wrapper=True).parse_args()
    if cliutil.wrapper_missing(ARGS.wrapper):
        print("wrapper %s not found" % ARGS.wrapper)
        return 1
    EXE = cliutil.Program(ARGS.exe, ARGS.wrapper, setenv={"WINEDEBUG": "-all"}, unset=("NO_COLOR",))
    if not os.path.isdir(os.path.join(ARGS.fixtures, "trees")):
        print("fixture trees missing under %s (gen-trees.sh)" % ARGS.fixtures)
        return 1
    tmp = tempfile.mkdtemp(prefix="cudnnctl-finding-")
    try:
        test_help()
        test_real_machine(tmp)
        test_fixture_trees()
        test_windows_tree()
        test_windows_live()
        test_exit_statuses(tmp)
        test_set_and_env(tmp)
        test_links()
        test_permissions(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return CHECKS.summary(need_passes=True)


if __name__ == "__main__":
    sys.exit(main())
