#!/usr/bin/env python3
"""cudnnctl doctor --fix on broken link chains, in --root trees built from
stub cuDNN 9 libraries (test_loadtrace's stubs, with their full release
names and .so.9 links), each broken the way users break them:
  - a .so.9 link left dangling (pointing at a release that is gone);
  - a .so.9 link missing beside its real file (copied without it);
  - a .so.9 that is a regular copy of the real file (cp without -P), and an
    unversioned .so that is one too;
  - a link whose library is not there at all (not fixable: said, not done).
For each: the doctor reports linux-broken-symlinks; `doctor --fix
--dry-run` plans the links and writes nothing; `doctor --fix --yes` makes
them as one transaction, checks again and finds them gone (and the doctor
agrees); `rollback DIR` gives back the broken tree byte for byte (names,
types, link targets, contents). Without --yes and a terminal it refuses.
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402
import test_loadtrace  # noqa: E402

LIB = "/opt/c/lib"


def snapshot(d):
    out = {}
    for base, dirs, files in os.walk(d):
        dirs[:] = [x for x in dirs if x != ".cudnnctl"]
        for f in files + [x for x in dirs if os.path.islink(os.path.join(base, x))]:
            p = os.path.join(base, f)
            rel = os.path.relpath(p, d)
            if rel.startswith("var/lib/cudnnctl/"):
                continue  # the tree's own record of its transactions (its state directory)
            if os.path.islink(p):
                out[rel] = "-> " + os.readlink(p)
            else:
                out[rel] = hashlib.sha256(open(p, "rb").read()).hexdigest()
    return out


def main():
    ap = cliutil.parser()
    args = ap.parse_args()
    cc = shutil.which(os.environ.get("CC", "gcc")) or shutil.which("cc")
    if cc is None:
        print("skip: no C compiler for the stub libraries")
        return 77
    exe = os.path.abspath(args.exe)
    c = cliutil.Checks(limit=400)
    work = tempfile.mkdtemp(prefix="cc-fix-")
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}

    def run(*argv):
        r = subprocess.run([exe] + list(argv), env=env, capture_output=True, text=True, timeout=300)
        doc, _ = cliutil.parse_json(r.stdout) if "--json" in argv else (None, None)
        return r, doc or {}

    try:
        s919 = test_loadtrace.Stubs(cc, work, "9.19.0")
        cases = {
            "dangling": lambda d: (os.remove(os.path.join(d, "libcudnn_ops.so.9")),
                                   os.symlink("libcudnn_ops.so.9.18.0", os.path.join(d, "libcudnn_ops.so.9"))),
            "missing-soname": lambda d: os.remove(os.path.join(d, "libcudnn_graph.so.9")),
            "flattened": lambda d: (os.remove(os.path.join(d, "libcudnn_cnn.so.9")),
                                    shutil.copy(os.path.join(d, "libcudnn_cnn.so.9.19.0"),
                                                os.path.join(d, "libcudnn_cnn.so.9")),
                                    shutil.copy(os.path.join(d, "libcudnn_cnn.so.9.19.0"),
                                                os.path.join(d, "libcudnn_cnn.so"))),
        }
        for name, breakit in cases.items():
            tree = os.path.join(work, name)
            lib = tree + LIB
            test_loadtrace.lay(s919, lib, {"kind": "full"})
            os.makedirs(os.path.join(tree, "opt", "c", "include"))
            breakit(lib)
            broken = snapshot(tree)
            r, d = run("doctor", "--root", tree, "--no-frameworks", "--json")
            ids = [f.get("id") for f in d.get("findings", [])]
            c.named("%s: the doctor finds linux-broken-symlinks" % name, "linux-broken-symlinks" in ids,
                    (r.returncode, ids))
            r, d = run("doctor", "--fix", "--root", tree, "--dry-run", "--json")
            planned = [(o["op"], o["path"], o.get("link")) for ch in d.get("changes", [])
                       for o in ch.get("operations", [])]
            c.named("%s: --fix --dry-run plans the links and writes nothing" % name,
                    r.returncode == 0 and planned and snapshot(tree) == broken
                    and all(ch.get("result", {}).get("status") == "planned" for ch in d.get("changes", [])),
                    (r.returncode, r.stderr[-300:], planned))
            r, d = run("doctor", "--fix", "--root", tree)
            c.named("%s: --fix without --yes and without a terminal: refused, nothing written" % name,
                    r.returncode == 2 and snapshot(tree) == broken, (r.returncode, r.stderr[-200:]))
            r, d = run("doctor", "--fix", "--root", tree, "--yes", "--json")
            c.named("%s: --fix --yes: one transaction done, checked again, nothing left" % name,
                    r.returncode == 0 and d.get("left") == []
                    and [ch.get("result", {}).get("status") for ch in d.get("changes", [])] == ["done"],
                    (r.returncode, r.stderr[-300:], d.get("left"), d.get("changes") and
                     [ch.get("result") for ch in d["changes"]]))
            chain_ok = all(os.path.islink(os.path.join(lib, n)) and os.readlink(os.path.join(lib, n)) == t
                           for n, t in (("libcudnn_ops.so.9", "libcudnn_ops.so.9.19.0"),
                                        ("libcudnn_graph.so.9", "libcudnn_graph.so.9.19.0"),
                                        ("libcudnn_cnn.so.9", "libcudnn_cnn.so.9.19.0")))
            if name == "flattened":
                chain_ok = chain_ok and os.readlink(os.path.join(lib, "libcudnn_cnn.so")) == "libcudnn_cnn.so.9"
            c.named("%s: every link of the chain points at its library" % name, chain_ok,
                    {n: os.readlink(os.path.join(lib, n)) if os.path.islink(os.path.join(lib, n)) else "file"
                     for n in sorted(os.listdir(lib)) if n.startswith("libcudnn_")})
            r, d = run("doctor", "--root", tree, "--no-frameworks", "--json")
            ids = [f.get("id") for f in d.get("findings", [])]
            c.named("%s: the doctor run afresh agrees" % name, "linux-broken-symlinks" not in ids, ids)
            r, d = run("rollback", LIB, "--root", tree, "--yes", "--json")
            c.named("%s: rollback gives back the broken tree byte for byte" % name,
                    r.returncode == 0 and snapshot(tree) == broken, (r.returncode, r.stderr[-300:]))

        # not fixable: a link to a library that is not there at all
        tree = os.path.join(work, "gone")
        lib = tree + LIB
        test_loadtrace.lay(s919, lib, {"kind": "full"})
        os.remove(os.path.join(lib, "libcudnn_adv.so.9"))
        os.remove(os.path.join(lib, "libcudnn_adv.so.9.19.0"))
        os.symlink("libcudnn_adv.so.9.19.0", os.path.join(lib, "libcudnn_adv.so.9"))
        broken = snapshot(tree)
        r, d = run("doctor", "--fix", "--root", tree, "--yes", "--json")
        fx = [f for f in d.get("fixes", []) if f.get("finding") == "linux-broken-symlinks"]
        c.named("a link to a library that is not there: not changed, with why; nothing written",
                r.returncode == 0 and fx and all(f.get("action") == "none" and f.get("why") for f in fx)
                and snapshot(tree) == broken, (r.returncode, r.stderr[-300:], fx))
        r, d = run("doctor", "--fix", "--root", tree, "--yes")
        c.named("--fix text: the finding, not changed, and why", r.returncode == 0 and "not changed:" in r.stdout,
                (r.returncode, r.stdout[-400:]))
        r, d = run("doctor", "--fix", "no-such-finding", "--root", tree, "--yes")
        c.named("--fix with an id that is no finding: a usage error, one line", r.returncode == 2
                and "no-such-finding" in r.stderr and len(r.stderr.strip().splitlines()) == 1, (r.returncode, r.stderr))
    finally:
        if not os.environ.get("CUDNNCTL_KEEP_TEMP"):
            shutil.rmtree(work, ignore_errors=True)
    return c.summary("fix", need_passes=True)


if __name__ == "__main__":
    sys.exit(main())
