#!/usr/bin/env python3
"""CLI tests: a command, an environment and generated fixtures -> expected
output and exit status. The Windows build runs the same cases through Wine
(--wrapper), with the paths given as Windows paths.

usage: test_cli.py --exe CUDNNCTL --fixtures DIR --system linux|windows [--wrapper=WINE]
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
CHECKS = cliutil.Checks()
check = CHECKS.named


def native(path):
    """The path as the program under test sees it."""
    if ARGS.system == "windows" and ARGS.wrapper:
        return cliutil.wine_path(path)
    return path


def run(args, stdout_path=None, env=None):
    r = EXE.run(args, env=env, stdout_path=stdout_path)
    return r.rc, r.out, r.err


def inspect_json(*paths, extra=()):
    rc, out, err = run(["inspect", "--json"] + list(extra) + [native(p) for p in paths])
    doc, why = cliutil.parse_json(out)
    if why is not None:
        check("json parses for %s" % (paths,), False, "%s: %r" % (why, out[:300]))
        return rc, None, err
    return rc, doc, err


def versions(result, source, component="cudnn"):
    return [v["version"] for v in result.get("versions", [])
            if v.get("source") == source and v.get("component") == component]


def fx(*parts):
    return os.path.join(ARGS.fixtures, *parts)


# ---- cases ------------------------------------------------------------------

def test_version_and_help():
    rc, out, _ = run(["--version"])
    check("--version exits 0", rc == 0, rc)
    check("--version names the tool and version", out.decode().startswith("cudnnctl 0.1.0"), out)
    rc, out, _ = run(["--help"])
    check("--help exits 0", rc == 0)
    text = out.decode()
    check("--help documents exit statuses", "exit status" in text and "  4  " in text)
    cmds = []
    in_list = False
    for line in text.splitlines():
        if line.startswith("frameworks. Commands:") or line.endswith("Commands:"):
            in_list = True
            continue
        if in_list and line.startswith("  ") and line.strip():
            cmds.append(line.split()[0])
        elif in_list and cmds and not line.strip():
            break
    check("--help lists commands", "inspect" in cmds, cmds)
    for c in cmds:
        rc, out, _ = run([c, "--help"])
        check("%s --help exits 0" % c, rc == 0 and out.decode().startswith("usage: cudnnctl " + c), rc)
        rc, out, _ = run([c, "-h"])
        check("%s -h exits 0" % c, rc == 0 and b"exit status" in out, rc)
        rc, out, _ = run(["help", c])
        check("help %s exits 0" % c, rc == 0 and out.decode().startswith("usage: cudnnctl " + c), rc)


def test_usage_errors():
    rc, _, err = run([])
    check("no command: exit 2", rc == 2, rc)
    rc, _, err = run(["frobnicate"])
    check("unknown command: exit 2 + one line", rc == 2 and err.decode().count("\n") == 1 and b"frobnicate" in err)
    rc, _, err = run(["inspect"])
    check("inspect without PATH: exit 2", rc == 2 and b"no PATH" in err, err)
    rc, _, err = run(["inspect", "--bogus", "x"])
    check("unknown option: exit 2", rc == 2 and b"--bogus" in err, err)
    rc, _, err = run(["inspect", "--max-entries", "zero", "x"])
    check("bad number: exit 2", rc == 2, rc)
    rc, _, err = run(["inspect", "--root"])
    check("option without value: exit 2", rc == 2 and b"needs a value" in err, err)


def test_headers():
    cases = [
        ("v7/cudnn.h", "7.6.5", 7605),
        ("v8/cudnn_version.h", "8.2.2", 8202),
        ("v9/cudnn_version.h", "9.1.0", 90100),
    ]
    for rel, ver, num in cases:
        p = fx("headers", rel)
        if not os.path.exists(p):
            check("header fixture %s exists" % rel, False)
            continue
        rc, doc, _ = inspect_json(p)
        if doc is None:
            continue
        r = doc["results"][0]
        check("header %s: kind" % rel, r["kind"] == "header", r.get("kind"))
        check("header %s: version %s" % (rel, ver), versions(r, "header") == [ver], versions(r, "header"))
        macros = {m["name"]: m.get("value") for m in r["header"]["macros"]}
        check("header %s: CUDNN_VERSION=%d" % (rel, num), macros.get("CUDNN_VERSION") == num, macros)
        check("header %s: exit 0" % rel, rc == 0, rc)
    p = fx("headers", "cuda", "cuda.h")
    if os.path.exists(p):
        rc, doc, _ = inspect_json(p)
        if doc:
            check("cuda.h: CUDA 11.4", versions(doc["results"][0], "header", "cuda") == ["11.4"],
                  doc["results"][0].get("versions"))


def test_pe():
    cases = [
        ("cudnn8/bin/cudnn64_8.dll", "8.2.2.26", "cudnn", 8),
        ("cudnn9/bin/cudnn_graph64_9.dll", "9.1.0.70", "cudnn_graph", 9),
    ]
    for rel, ver, role, major in cases:
        p = fx("pe", rel)
        if not os.path.exists(p):
            check("PE fixture %s exists" % rel, False)
            continue
        rc, doc, _ = inspect_json(p)
        if doc is None:
            continue
        r = doc["results"][0]
        check("PE %s: kind pe, x64 dll" % rel,
              r["kind"] == "pe" and r["pe"]["machine"] == "x64" and r["pe"]["type"] == "dll", r.get("pe", {}).get("machine"))
        check("PE %s: version resource %s" % (rel, ver), r["pe"]["version_info"]["file_version"] == ver,
              r["pe"].get("version_info"))
        check("PE %s: version evidence" % rel, versions(r, "version-resource") == [ver], r.get("versions"))
        check("PE %s: name role %s major %d" % (rel, role, major),
              r["file_name"]["role"] == role and r["file_name"]["major"] == major, r.get("file_name"))
        check("PE %s: exit 0" % rel, rc == 0, rc)
    # Text output for people.
    p = fx("pe", "cudnn9", "bin", "cudnn_graph64_9.dll")
    if os.path.exists(p):
        rc, out, _ = run(["inspect", native(p)])
        t = out.decode("utf-8", "replace")
        check("PE text: format and resource lines", "PE32+ dll, x64" in t and "file 9.1.0.70" in t, t[:500])


def test_bad_inputs(tmp):
    empty = os.path.join(tmp, "empty.so")
    open(empty, "wb").close()
    garbage = os.path.join(tmp, "garbage.dll")
    with open(garbage, "wb") as f:
        f.write(b"MZ" + b"\xff" * 200)
    trunc = os.path.join(tmp, "trunc.so")
    with open(trunc, "wb") as f:
        f.write(b"\x7fELF\x02\x01\x01" + b"\0" * 9)
    good = fx("headers", "v9", "cudnn_version.h")
    missing = os.path.join(tmp, "does-not-exist.h")
    rc, doc, err = inspect_json(empty, garbage, trunc, missing, good)
    check("bad inputs: exit 1", rc == 1, rc)
    lines = [l for l in err.decode("utf-8", "replace").splitlines() if l.strip()]
    check("bad inputs: one stderr line per bad input", len(lines) == 4, lines)
    for name in ("empty.so", "garbage.dll", "trunc.so", "does-not-exist.h"):
        check("bad inputs: %s named on stderr" % name, any(name in l for l in lines), lines)
    if doc:
        kinds = [r["kind"] for r in doc["results"]]
        check("bad inputs: every input reported", len(kinds) == 5, kinds)
        check("bad inputs: the good file is still inspected", kinds[-1] == "header" and "error" not in doc["results"][-1],
              kinds)
        check("bad inputs: failed count", doc["failed"] == 4, doc.get("failed"))
    if ARGS.system == "linux":
        weird = os.path.join(tmp.encode(), b"bad-\xff\xfe-name.h")
        with open(weird, "wb") as f:
            f.write(b"#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n")
        cmd = [ARGS.exe, "inspect", "--json", weird]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            d = json.loads(p.stdout.decode("utf-8"))
            ok = p.returncode == 0 and d["results"][0]["kind"] == "header"
        except Exception:  # noqa: BLE001
            ok = False
        check("non-UTF-8 file name: valid JSON, exit 0", ok, p.stdout[:200])
        rc, _, err = run(["inspect", good], stdout_path="/dev/full")
        check("write error (/dev/full): exit 4 with a message", rc == 4 and b"cannot write" in err, (rc, err))


def test_permissions(tmp):
    """Unreadable files and directories, seen by an unprivileged user (root
    reads everything, so the test drops to nobody with setpriv)."""
    if ARGS.system != "linux" or os.geteuid() != 0 or not shutil.which("setpriv"):
        print("skip permissions: needs root and setpriv on Linux")
        return
    d = os.path.join(tmp, "perm")
    os.makedirs(os.path.join(d, "locked"))
    with open(os.path.join(d, "locked", "libcudnn.so.9"), "wb") as f:
        f.write(b"\x7fELF")
    secret = os.path.join(d, "cudnn_version.h")
    with open(secret, "w") as f:
        f.write("#define CUDNN_MAJOR 9\n")
    good = os.path.join(d, "cudnn_ok.h")
    with open(good, "w") as f:
        f.write("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 2\n#define CUDNN_PATCHLEVEL 1\n")
    os.chmod(os.path.join(d, "locked"), 0)
    os.chmod(secret, 0)
    for p in (tmp, d):
        os.chmod(p, 0o755)
    os.chmod(good, 0o644)
    exe = os.path.abspath(ARGS.exe)
    os.chmod(exe, os.stat(exe).st_mode | 0o055)
    cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", exe, "inspect", "--json", secret, d, good]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    try:
        doc = json.loads(p.stdout.decode("utf-8"))
    except Exception:  # noqa: BLE001
        check("permissions: JSON parses", False, p.stdout[:300] + p.stderr[:300])
        return
    err = p.stderr.decode("utf-8", "replace").splitlines()
    check("permissions: exit 1", p.returncode == 1, p.returncode)
    check("permissions: one line names the unreadable file", len(err) == 1 and "cudnn_version.h" in err[0]
          and "ermission" in err[0], err)
    r = doc["results"]
    check("permissions: unreadable file reported", r[0]["kind"] == "unreadable" and "ermission" in r[0]["error"], r[0])
    skipped = r[1]["directory"]["skipped"]
    check("permissions: locked directory listed as skipped with the reason",
          len(skipped) == 1 and skipped[0]["path"].endswith("locked") and "ermission" in skipped[0]["reason"], skipped)
    # the header was read in the walk of d already: read once per run, the later path says so
    walked = [f for f in r[1]["directory"]["files"] if f["path"].endswith("cudnn_ok.h")]
    check("permissions: the readable header is still read", len(walked) == 1
          and versions(walked[0], "header") == ["9.2.1"], r[1])
    check("permissions: the header given again is the same file, not read twice",
          r[2]["kind"] == "same-file" and r[2]["same_file_as"] == walked[0]["path"], r[2])
    os.chmod(os.path.join(d, "locked"), 0o755)


def test_elf_and_real():
    if ARGS.system != "linux":
        return
    real = "/usr/local/cuda/lib/libcudnn_graph.so.9"
    if os.path.exists(real):
        rc, doc, _ = inspect_json(real)
        r = doc["results"][0]
        check("real libcudnn_graph.so.9: exported constant 9.19.0",
              versions(r, "exported-constant") == ["9.19.0"], r.get("versions"))
        check("real libcudnn_graph.so.9: soname", r["elf"]["soname"] == "libcudnn_graph.so.9")
        check("real libcudnn_graph.so.9: cudnnGetVersion exported", "cudnnGetVersion" in r["cudnn"]["entry_points"])
    hdr = "/usr/local/cuda/include/cudnn_version.h"
    if os.path.exists(hdr):
        rc, doc, _ = inspect_json(hdr)
        r = doc["results"][0]
        check("real cudnn_version.h: 9.19.0", versions(r, "header") == ["9.19.0"], r.get("versions"))
        check("real cudnn_version.h: max compute capability 12.1", r.get("max_compute_capability") == "12.1")
    d = "/usr/local/cuda/lib"
    if os.path.isdir(d):
        rc, doc, _ = inspect_json(d)
        r = doc["results"][0]
        check("real lib dir: directory with cuDNN 9", r["kind"] == "directory" and r["directory"]["majors"] == [9],
              r.get("directory", {}).get("majors"))
        got = sorted(set(v["version"] for v in r["directory"]["versions"] if v["source"] == "exported-constant"))
        check("real lib dir: constants all 9.19.0", got == ["9.19.0"], got)
    # --root: a fixture tree examined as if it were /.
    root = fx("elf")
    if os.path.isdir(os.path.join(root, "cudnn9")):
        rc, doc, _ = inspect_json("/cudnn9/lib", extra=["--root", root])
        r = doc["results"][0]
        check("--root: path shown inside the root", r["path"] == "/cudnn9/lib", r.get("path"))
        check("--root: fixture cuDNN 9 found", r["kind"] == "directory" and 9 in r["directory"]["majors"],
              r.get("directory", {}).get("majors"))
    # --root follows an absolute link inside the root, never out to the host
    if ARGS.system == "linux":
        t = tempfile.mkdtemp(prefix="cc-inspect-root-")
        try:
            os.makedirs(os.path.join(t, "usr/local/cuda-9.9/include"))
            with open(os.path.join(t, "usr/local/cuda-9.9/include/cudnn_version.h"), "w") as f:
                f.write("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 7\n#define CUDNN_PATCHLEVEL 1\n")
            os.symlink("/usr/local/cuda-9.9", os.path.join(t, "usr/local/cuda"))
            rc, doc, _ = inspect_json("/usr/local/cuda/include/cudnn_version.h", extra=["--root", t])
            r = doc["results"][0] if doc else {}
            check("--root: an absolute link resolves inside the root",
                  rc == 0 and versions(r, "header") == ["9.7.1"], (rc, r.get("versions"), r.get("error")))
            rc, doc, _ = inspect_json("/usr/local/cuda", extra=["--root", t])
            r = doc["results"][0] if doc else {}
            check("--root: the link itself is shown", r.get("link") == "/usr/local/cuda-9.9" and r.get("kind") == "directory",
                  (r.get("link"), r.get("kind")))
            rc, doc, _ = inspect_json("/nonexistent/x", extra=["--root", t])
            r = doc["results"][0] if doc else {}
            check("--root: a path missing inside the root", rc == 1 and r.get("kind") == "missing", (rc, r))
        finally:
            shutil.rmtree(t, ignore_errors=True)


def test_archives():
    if ARGS.system != "linux":
        return
    d = fx("archives")
    if not os.path.isdir(d):
        check("archive fixtures exist", False)
        return
    p = os.path.join(d, "cudnn-11.4-linux-x64-v8.2.2.26.tgz")
    if os.path.exists(p):
        rc, doc, _ = inspect_json(p)
        r = doc["results"][0]
        check("legacy tgz: kind archive, layout legacy-cuda",
              r["kind"] == "archive" and r["archive"]["layout"] == "legacy-cuda", r.get("archive", {}).get("layout"))
        check("legacy tgz: name says 8.2.2", versions(r, "archive-name") == ["8.2.2"], r.get("versions"))
        check("legacy tgz: header inside says 8.2.2", versions(r, "header") == ["8.2.2"], r.get("versions"))
        check("legacy tgz: 7 library members install to lib",
              len([m for m in r["archive"]["members"] if m.get("install_to") == "lib"
                   and m["path"].endswith(".so.8.2.2")]) == 7, r["archive"]["members"][:3])


def main():
    global ARGS, EXE
    ARGS = cliutil.parser(fixtures=True, system=True, wrapper=True).parse_args()
    if cliutil.wrapper_missing(ARGS.wrapper):
        print("wrapper %s not found" % ARGS.wrapper)
        return 1
    EXE = cliutil.Program(ARGS.exe, ARGS.wrapper, setenv={"WINEDEBUG": "-all"}, unset=("NO_COLOR",))
    tmp = tempfile.mkdtemp(prefix="cudnnctl-cli-")
    try:
        test_version_and_help()
        test_usage_errors()
        test_headers()
        test_pe()
        test_bad_inputs(tmp)
        test_permissions(tmp)
        test_elf_and_real()
        test_archives()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return CHECKS.summary(need_passes=True)


if __name__ == "__main__":
    sys.exit(main())
