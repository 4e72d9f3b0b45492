#!/usr/bin/env python3
"""inspect, list and doctor on adversarial files and trees (generated here by
tests/fixtures/gen-adversarial-files.py into a scratch directory):

- a library with hundreds of thousands of exported symbols: what is reported
  is the count and cuDNN's names, the full list only with --symbols, and the
  peak memory stays near the file's own size (it grew with the symbols);
- hard links to it in one directory: each (device, inode) is read once per
  run, later paths are "same-file" (each link used to cost as much again);
- directories named like cuDNN files (cuda.h/cuda.h/... 65 deep): the walk's
  depth limit holds and the other paths' results are all there (inspect --json
  used to exit 4 with "results": [] and "failed": 0);
- a directory over the entry limit (inspect --max-entries, and list's limit
  per directory): read in part and said so, never a wrong "none";
- a library rewritten in place again and again (cp over it) while inspect,
  list and doctor read it: never a death by a signal (SIGBUS before).

Usage: test_adversarial_files.py --exe CUDNNCTL
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "fixtures", "gen-adversarial-files.py")

ARGS = None
C = cliutil.Checks(limit=400)
check = C.named


def gen(*args):
    subprocess.run([sys.executable, GEN] + [str(a) for a in args], check=True, stdout=subprocess.DEVNULL)


def run(args, timeout=120):
    """(rc, stdout bytes, stderr bytes, peak RSS in bytes) of one run."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen([ARGS.exe] + args, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid == p.pid:
                break
            if time.monotonic() > deadline:
                p.kill()
                pid, status, ru = os.wait4(p.pid, 0)
                break
            time.sleep(0.005)
        p.returncode = os.waitstatus_to_exitcode(status)  # wait4 reaped it
        out.seek(0)
        err.seek(0)
        return p.returncode, out.read(), err.read(), ru.ru_maxrss * 1024


def doc_of(out):
    doc, why = cliutil.parse_json(out)
    return doc if doc is not None else {"parse_error": why, "results": []}


def test_symbols(tmp):
    small = os.path.join(tmp, "small.so")
    big = os.path.join(tmp, "libcudnn_graph.so.9.1.0")
    nsyms = 300000
    gen("elf", small, "--symbols", 1000)
    gen("elf", big, "--symbols", nsyms)
    size = os.path.getsize(big)
    _, _, _, base = run(["inspect", "--json", small])
    rc, out, err, peak = run(["inspect", "--json", big])
    doc = doc_of(out)
    r = (doc["results"] or [{}])[0]
    elf = r.get("elf") or {}
    check("symbols: exit 0", rc == 0, (rc, err[:300]))
    check("symbols: every exported symbol counted", elf.get("exports_count") == nsyms + 3, elf.get("exports_count"))
    check("symbols: the list only with --symbols", "exports" not in elf, sorted(elf))
    check("symbols: the cuDNN entry points", (r.get("cudnn") or {}).get("entry_points")
          == ["cudnnGetVersion", "cudnnCreate"], r.get("cudnn"))
    check("symbols: the exported version constant",
          [v["version"] for v in r.get("versions", []) if v["source"] == "exported-constant"] == ["9.1.2"],
          r.get("versions"))
    check("symbols: the JSON does not grow with the symbols", len(out) < 16384, len(out))
    # the file's pages are mapped (and count in the peak): the rest must not
    # grow with the symbols (it was about six times the file's size)
    check("symbols: peak memory near the file's size", peak - base < size * 1.5 + (8 << 20),
          "peak %d MB, baseline %d MB, file %d MB" % (peak >> 20, base >> 20, size >> 20))
    rc, out, _, _ = run(["inspect", "--json", "--symbols", small])
    elf = ((doc_of(out)["results"] or [{}])[0]).get("elf") or {}
    check("symbols: --symbols lists them all", rc == 0 and len(elf.get("exports", [])) == 1003
          and elf["exports"][:2] == ["cudnnGetVersion", "cudnnCreate"] and "f00003e7" in elf["exports"],
          (rc, len(elf.get("exports", []))))
    rc, out, _, _ = run(["inspect", "--symbols", small])
    check("symbols: --symbols in text", rc == 0 and b"f00003e7" in out, out[-300:])
    rc, out, _, _ = run(["inspect", small])
    check("symbols: text without --symbols has the count only", rc == 0 and b"1003 dynamic symbols" in out
          and b"f00003e7" not in out, out[-300:])
    return big


def test_hardlinks(tmp):
    d = os.path.join(tmp, "links")
    gen("hardlinks", d, "--symbols", 300000, "--links", 3)
    first = os.path.join(d, "libcudnn_graph.so.9.1.0")
    size = os.path.getsize(first)
    _, _, _, one = run(["inspect", "--json", first])
    rc, out, err, peak = run(["inspect", "--json", d])
    doc = doc_of(out)
    files = ((doc["results"] or [{}])[0].get("directory") or {}).get("files", [])
    kinds = sorted(f["kind"] for f in files)
    check("hard links: exit 0", rc == 0, (rc, err[:300]))
    check("hard links: read once, the others are the same file",
          kinds == ["elf", "same-file", "same-file", "same-file"]
          and all(f.get("same_file_as") == first for f in files if f["kind"] == "same-file"), files)
    check("hard links: each link still counts as a library by its name",
          doc["results"][0]["directory"]["counts"]["libraries"] == 4, doc["results"][0]["directory"]["counts"])
    check("hard links: memory of one file, not one per link", peak - one < size * 0.5 + (8 << 20),
          "peak %d MB, one file %d MB, file %d MB" % (peak >> 20, one >> 20, size >> 20))
    link = os.path.join(d, "libcudnn_graph.so.9.1.2")
    rc, out, err, _ = run(["inspect", "--json", first, link])
    r = doc_of(out)["results"]
    check("hard links: a later path on the command line is the same file",
          rc == 0 and len(r) == 2 and r[0]["kind"] == "elf" and r[1]["kind"] == "same-file"
          and r[1]["same_file_as"] == first, (rc, r))
    rc, out, _, _ = run(["inspect", first, link])
    check("hard links: text says which", rc == 0 and b"same file  " + first.encode() in out, out[-400:])
    # list reads each (device, inode) once too: the links take the content facts of the first, with their
    # own file-name version
    root = os.path.join(tmp, "linkroot")
    gen("hardlinks", os.path.join(root, "usr", "local", "cuda", "lib64"), "--symbols", 1000, "--links", 2)
    rc, out, err, _ = run(["list", "--json", "--root", root])
    files = [f for i in doc_of(out).get("installations", []) for f in i["files"]]
    want = {"libcudnn_graph.so.9.1.%d" % i: "9.1.%d" % i for i in range(3)}
    got = {f["name"]: [(v["source"], v["version"]) for v in f.get("versions", [])] for f in files}
    check("list, hard links: each link has the content facts and its own name's version",
          rc == 0 and set(got) == set(want) and all(
              got[n] == [("file-name", want[n]), ("exported-constant", "9.1.2")] for n in want)
          and all(f.get("soname") == "libcudnn_graph.so.9" for f in files), (rc, got, err[:200]))


def test_deep(tmp):
    d = os.path.join(tmp, "deep")
    gen("deep", d, "--depth", 65, "--name", "cuda.h")
    other = os.path.join(tmp, "other.so")
    gen("elf", other, "--symbols", 10)
    rc, out, err, _ = run(["inspect", "--json", d, other])
    doc = doc_of(out)
    r = doc["results"]
    check("deep cuda.h tree: exit 0 and every path's result", rc == 0 and len(r) == 2 and doc.get("failed") == 0,
          (rc, len(r), doc.get("failed"), err[:300]))
    if len(r) == 2:
        dd = r[0].get("directory") or {}
        paths = [f["path"] for f in dd.get("files", [])]
        check("deep cuda.h tree: the depth limit holds whatever the names",
              paths == [os.path.join(d, "libcudnn.so.9.1.0")] and dd.get("not_entered_depth", 0) >= 1
              and dd.get("max_depth") == 4, (paths, dd.get("not_entered_depth")))
        check("deep cuda.h tree: the other path is read", r[1].get("kind") == "elf", r[1])
    rc, out, err, _ = run(["inspect", d])
    check("deep cuda.h tree: text says directories were not entered",
          rc == 0 and b"not entered" in out, (rc, out[:400], err[:200]))
    # a path that cannot be inspected at all still gets its result
    rc, out, err, _ = run(["inspect", "--json", os.path.join(tmp, "missing"), other])
    doc = doc_of(out)
    check("inspect --json: a failed path is counted and the others reported",
          rc == 1 and len(doc["results"]) == 2 and doc.get("failed") == 1, (rc, doc))
    # paths the library cannot inspect at all (no such --root) still get a result each, with the error
    # (and the path written as the library writes strings; \udcff is the byte 0xff)
    rc, out, err, _ = run(["inspect", "--json", "--root", os.path.join(tmp, "no-root"), "a", "b\"\\\x01\udcff"])
    doc = doc_of(out)
    check("inspect --json: paths that could not be inspected are in the results",
          rc == 1 and doc.get("failed") == 2 and [r.get("path") for r in doc["results"]] == ["a", "b\"\\\x01\ufffd"]
          and all(r.get("kind") == "unreadable" and r.get("error") for r in doc["results"]), (rc, doc, err[:200]))


def test_hugedir(tmp):
    d = os.path.join(tmp, "huge")
    gen("hugedir", d, "--entries", 6000, "--cudnn", 600)
    rc, out, err, _ = run(["inspect", "--json", "--max-entries", "1000", d])
    doc = doc_of(out)
    dd = ((doc["results"] or [{}])[0]).get("directory") or {}
    check("huge directory: exit 1, said on standard error", rc == 1 and b"incomplete" in err, (rc, err[:300]))
    check("huge directory: the cuDNN files of the part read are reported",
          dd.get("counts", {}).get("libraries", 0) > 0 and len(dd.get("files", [])) <= 1000, dd.get("counts"))
    check("huge directory: marked truncated in JSON", dd.get("truncated") is True and doc.get("incomplete") == 1
          and doc.get("failed") == 0 and any("only 1000 of its entries" in s["reason"] for s in dd.get("skipped", [])),
          (dd.get("truncated"), doc.get("incomplete"), dd.get("skipped")))
    rc, out, err, _ = run(["inspect", "--max-entries", "1000", d])
    check("huge directory: text says incomplete, never 'no cuDNN files found'",
          rc == 1 and b"incomplete" in out and b"no cuDNN files found" not in out, out[:400])
    rc, out, err, _ = run(["inspect", "--json", "--max-entries", "7000", d])
    dd = ((doc_of(out)["results"] or [{}])[0]).get("directory") or {}
    check("huge directory: within the limit, all of it", rc == 0 and dd.get("truncated") is False
          and dd.get("counts", {}).get("libraries") == 600, (rc, dd.get("counts")))


def test_hugedir_list(tmp):
    """list reads at most 65536 entries of a directory: one with more is read
    in part, and its cuDNN files are still found."""
    root = os.path.join(tmp, "listroot")
    lib = os.path.join(root, "usr", "local", "cuda-12.4", "lib64")
    gen("hugedir", lib, "--entries", 65600, "--cudnn", 40)
    rc, out, err, _ = run(["list", "--json", "--root", root])
    doc = doc_of(out)
    skipped = doc.get("skipped", [])
    check("list, huge directory: cuDNN found, not 'none' (exit 3)", rc == 0 and len(doc.get("installations", [])) >= 1,
          (rc, err[:300]))
    check("list, huge directory: the limit is said", any("only 65536 of its entries" in s["reason"] for s in skipped)
          and any("more than 65536 entries" in n for n in doc.get("notes", [])), (skipped, doc.get("notes")))
    shutil.rmtree(root)


def test_rewritten(tmp, big):
    """A library copied over again and again while it is read: no run may die
    by a signal. What a run reports then is the file as it was, or "changed
    while read"."""
    root = os.path.join(tmp, "race")
    lib = os.path.join(root, "usr", "local", "cuda", "lib64")
    os.makedirs(lib)
    target = os.path.join(lib, "libcudnn_graph.so.9.1.0")
    shutil.copy(big, target)
    os.symlink("libcudnn_graph.so.9.1.0", os.path.join(lib, "libcudnn_graph.so.9"))
    seconds = 4.0
    writer = subprocess.Popen([sys.executable, GEN, "rewrite", target, "--seconds", str(seconds)],
                              stdout=subprocess.PIPE)
    runs, deaths, changed = 0, [], 0
    cmds = [["inspect", "--json", target], ["inspect", target, target + ".missing"],
            ["list", "--json", "--root", root], ["doctor", "--json", "--root", root, "--no-gpu", "--no-compile",
                                                  "--no-frameworks"]]
    end = time.monotonic() + seconds - 0.5
    i = 0
    while time.monotonic() < end:
        args = cmds[i % len(cmds)] if i % 2 else cmds[0]
        i += 1
        rc, out, err, _ = run(args)
        runs += 1
        if rc < 0 or rc > 3:
            deaths.append((args[0], rc, err[-200:]))
        if b"changed while read" in out + err:
            changed += 1
    wout, _ = writer.communicate(timeout=60)
    print("rewritten library: %d runs, %d said 'changed while read'; %s" % (runs, changed, wout.decode().strip()))
    check("rewritten library: no run died by a signal (SIGBUS) or failed", runs > 0 and not deaths, deaths[:3])


def main():
    global ARGS
    ARGS = cliutil.parser().parse_args()
    ARGS.exe = os.path.abspath(ARGS.exe)
    if not sys.platform.startswith("linux"):
        print("skipped: Linux only")
        return 77
    tmp = tempfile.mkdtemp(prefix="cudnnctl-adv-")
    try:
        big = test_symbols(tmp)
        test_hardlinks(tmp)
        test_deep(tmp)
        test_hugedir(tmp)
        test_hugedir_list(tmp)
        test_rewritten(tmp, big)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return C.summary()


if __name__ == "__main__":
    sys.exit(main())
