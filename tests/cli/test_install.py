#!/usr/bin/env python3
"""install, uninstall, rollback, recover and history through the CLI, on
sources and targets built here (tar.xz of the 9.x layout, tgz of the 8.x
one, a directory; stub files with the real names and real version macros):

- --dry-run writes nothing, anywhere;
- an install places every member byte for byte, writes the manifest, and
  history shows it; uninstall puts the target back as it was; rollback of
  the uninstall gives the install back;
- a release of the same major already in a toolkit is replaced whole (no
  file of it stays), another major is left;
- a hostile archive, a CUDA major that does not match the toolkit, a
  world-writable target: a stop, and nothing written;
- without --yes and without a terminal: refused, nothing written;
- the crash walk: killed before every writing call N of an install, an
  uninstall and a rollback, then `recover`: the whole target tree (contents,
  modes, links, what was absent) is what it was before; and ENOSPC, EACCES,
  EIO at every N: the command fails and the tree is what it was, at once.
"""
import hashlib
import io
import json
import lzma
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

VERSION_H = """#ifndef CUDNN_VERSION_H_
#define CUDNN_VERSION_H_
#define CUDNN_MAJOR %d
#define CUDNN_MINOR %d
#define CUDNN_PATCHLEVEL %d
#define CUDNN_VERSION (CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)
#endif
"""
SUBLIBS9 = ["", "_graph", "_ops", "_cnn", "_adv", "_heuristic", "_engines_precompiled", "_engines_runtime_compiled"]


def release9(minor, patch=0, sublibs=None):
    """The members of a 9.x tar.xz (name -> bytes, or ('link', target))."""
    top = "cudnn-linux-x86_64-9.%d.%d.50_cuda13-archive" % (minor, patch)
    ver = "9.%d.%d" % (minor, patch)
    m = {top + "/include/cudnn_version.h": (VERSION_H % (9, minor, patch)).encode(),
         top + "/include/cudnn.h": b"#include \"cudnn_version.h\"\n",
         top + "/LICENSE": b"license\n"}
    for s in sublibs or SUBLIBS9:
        name = "libcudnn%s.so" % s
        m[top + "/lib/" + name + "." + ver] = ("stub %s %s\n" % (name, ver)).encode() * 50
        m[top + "/lib/" + name + ".9"] = ("link", name + "." + ver)
        m[top + "/lib/" + name] = ("link", name + ".9")
    return top, m


def write_tar(path, members, mode="w:xz", extra=None):
    with tarfile.open(path, mode) as t:
        dirs = set()
        for name in sorted(members):
            parts = name.split("/")
            for i in range(1, len(parts)):
                d = "/".join(parts[:i])
                if d not in dirs:
                    dirs.add(d)
                    ti = tarfile.TarInfo(d)
                    ti.type = tarfile.DIRTYPE
                    ti.mode = 0o755
                    t.addfile(ti)
            v = members[name]
            ti = tarfile.TarInfo(name)
            if isinstance(v, tuple):
                ti.type = tarfile.SYMTYPE
                ti.linkname = v[1]
                t.addfile(ti)
            else:
                ti.size = len(v)
                ti.mode = 0o755 if "/lib/" in name else 0o644
                t.addfile(ti, io.BytesIO(v))
        for ti, data in (extra or []):
            t.addfile(ti, io.BytesIO(data) if data is not None else None)


def jdoc(r):
    """The run's JSON document, or {}."""
    d, _ = cliutil.parse_json(r.out) if r.out else (None, None)
    return d or {}


def settled(tree):
    """A tree less what differs from run to run: transaction directories, the
    lock, the manifest's times (its presence stays)."""
    out = {}
    for k, v in tree.items():
        if k.startswith(".cudnnctl/txn-") or k == ".cudnnctl/lock":
            continue
        out[k] = v[:2] if k.startswith(".cudnnctl/installed/") else v
    return out


def main():
    ap = cliutil.parser()
    args = ap.parse_args()
    c = cliutil.Checks(limit=600)
    work = tempfile.mkdtemp(prefix="cc-install-")
    state = os.path.join(work, "state")
    prog = cliutil.Program(args.exe, setenv={"CUDNNCTL_STATE_DIR": state}, unset=("CUDNNCTL_TEST_FAULT",), timeout=120)
    try:
        top, mem = release9(19)
        src = os.path.join(work, top + ".tar.xz")
        write_tar(src, mem)

        def fresh(name, toolkit=False, old=None):
            """A target directory (a CUDA 13 toolkit when asked, with an old release's files)."""
            d = os.path.join(work, name)
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            if toolkit:
                os.makedirs(os.path.join(d, "include"))
                os.makedirs(os.path.join(d, "lib64"))
                os.makedirs(os.path.join(d, "bin"))
                with open(os.path.join(d, "version.json"), "w") as f:
                    json.dump({"cuda": {"name": "CUDA SDK", "version": "13.0.48"}}, f)
                with open(os.path.join(d, "lib64", "libcudart.so.13.0.48"), "wb") as f:
                    f.write(b"cudart")
            if old:
                for s in SUBLIBS9[:5]:
                    n = "libcudnn%s.so" % s
                    with open(os.path.join(d, "lib64", n + "." + old), "wb") as f:
                        f.write(b"old " + n.encode())
                    os.symlink(n + "." + old, os.path.join(d, "lib64", n + ".9"))
                with open(os.path.join(d, "lib64", "libcudnn.so.8.9.7"), "wb") as f:
                    f.write(b"cudnn 8")
                with open(os.path.join(d, "include", "cudnn_version.h"), "w") as f:
                    f.write(VERSION_H % tuple(int(x) for x in old.split(".")))
            return d

        # ---- dry run: nothing written ----
        d = fresh("t-dry")
        before = cliutil.snap(work)
        r = prog.run(["install", "--dry-run", "--json", "--into", d, src])
        doc = jdoc(r) or None
        c.named("dry-run exits 0", r.rc == 0, r.err_text)
        c.named("dry-run writes nothing anywhere", cliutil.snap(work) == before, cliutil.tree_diff(before, cliutil.snap(work)))
        c.named("dry-run plans every library and link",
                doc is not None and doc["result"]["status"] == "planned" and
                doc["plan"]["summary"]["place"] == 2 + 3 * len(SUBLIBS9) + 1, doc and doc["plan"]["summary"])

        def digests_right(doc, members):
            """Every file the plan places carries the SHA-256 of its source member (and a link none)."""
            ops = [o for o in (doc or {}).get("plan", {}).get("operations", []) if o["op"] in ("place", "replace")]
            files = [o for o in ops if "link" not in o and o.get("from") is not None]
            bad = [o for o in files if o.get("sha256") != hashlib.sha256(members[o["from"]]).hexdigest()]
            bad += [o for o in ops if "link" in o and "sha256" in o]
            return len(files) == 2 + len(SUBLIBS9) and not bad, bad[:3] or len(files)

        ok, why = digests_right(doc, mem)
        c.named("dry-run of an archive: every file placed with its member's SHA-256", ok, why)
        r = prog.run(["install", "--dry-run", "-v", "--into", d, src])
        line = [x for x in r.out_text.splitlines() if x.split()[:2] == ["place", "lib/libcudnn_ops.so.9.19.0"]]
        want = hashlib.sha256(mem[top + "/lib/libcudnn_ops.so.9.19.0"]).hexdigest()[:16]
        c.named("dry-run -v text shows each file's size and digest", r.rc == 0 and len(line) == 1 and
                ("sha256 " + want) in line[0] and "bytes" in line[0], line or r.out_text[-600:])
        unpacked = os.path.join(work, "unpacked")
        with tarfile.open(src) as t:
            t.extractall(unpacked)
        dmem = {k.split("/", 1)[1]: v for k, v in mem.items()}
        r = prog.run(["install", "--dry-run", "--json", "--into", d, os.path.join(unpacked, top)])
        ok, why = digests_right(jdoc(r), dmem)
        c.named("dry-run of a directory: every file placed with its SHA-256", r.rc == 0 and ok, (why, r.err_text))
        shutil.rmtree(unpacked)
        c.named("... and the dry runs wrote nothing", cliutil.snap(work) == before, cliutil.tree_diff(before, cliutil.snap(work)))

        # ---- install, byte for byte ----
        r = prog.run(["install", "--yes", "--json", "--into", d, src])
        doc = jdoc(r)
        c.named("install exits 0", r.rc == 0, r.err_text)
        ok = True
        for name, v in mem.items():
            rel = name.split("/", 1)[1]
            p = os.path.join(d, rel)
            if rel == "LICENSE":
                ok = ok and not os.path.lexists(p)
            elif isinstance(v, tuple):
                ok = ok and os.path.islink(p) and os.readlink(p) == v[1]
            else:
                ok = ok and open(p, "rb").read() == v
        c.named("every member in place, byte for byte; no license", ok)
        man = os.path.join(d, ".cudnnctl", "installed", "cudnn-9.19.0.json")
        mdoc = json.load(open(man)) if os.path.exists(man) else {}
        c.named("manifest with a digest per file",
                mdoc.get("id") == "cudnn-9.19.0" and all(
                    f.get("sha256") == hashlib.sha256(open(os.path.join(d, f["path"]), "rb").read()).hexdigest()
                    for f in mdoc.get("files", []) if "link" not in f), mdoc.get("files", [])[:2])
        r = prog.run(["history", "--json", d])
        h = jdoc(r)
        c.named("history shows the install",
                r.rc == 0 and [t["label"] for t in h.get("transactions", [])] == ["install"], r.out_text[:400])

        # ---- uninstall: back to the empty directory; rollback: the install again ----
        installed = cliutil.snap(d)
        r = prog.run(["uninstall", "--yes", d])
        c.named("uninstall exits 0", r.rc == 0, r.err_text + r.out_text)
        left = {k: v for k, v in cliutil.snap(d).items() if not k.startswith(".cudnnctl")}
        c.named("uninstall leaves nothing of the release", left == {}, left)
        r = prog.run(["rollback", "--yes"])  # no target: the last one recorded
        c.named("rollback of the uninstall exits 0", r.rc == 0, r.err_text + r.out_text)
        now = {k: v for k, v in cliutil.snap(d).items() if not k.startswith(".cudnnctl/txn-")}
        was = {k: v for k, v in installed.items() if not k.startswith(".cudnnctl/txn-")}
        c.named("rollback puts the install back, byte for byte", now == was, cliutil.tree_diff(was, now))

        # ---- replacing 9.1.0 in a CUDA 13 toolkit: nothing of it stays; 8.x left ----
        tk = fresh("t-toolkit", toolkit=True, old="9.1.0")
        r = prog.run(["install", "--dry-run", "--json", "--into", tk, src])
        ops = [o for o in jdoc(r).get("plan", {}).get("operations", []) if o["op"] in ("replace", "remove")]
        now = {}
        for o in ops:
            p = os.path.join(tk, o["path"])
            if not os.path.islink(p):
                now[o["path"]] = (os.path.getsize(p), hashlib.sha256(open(p, "rb").read()).hexdigest())
        c.named("dry-run: each file replaced or removed with its size and SHA-256 as it is now",
                r.rc == 0 and len(now) >= 6 and all((o.get("old_size"), o.get("old_sha256")) == now[o["path"]]
                                                    for o in ops if o["path"] in now) and
                not [o for o in ops if o["path"] not in now and "old_sha256" in o], (now, ops[:4]))
        r = prog.run(["install", "--yes", "--json", "--into", tk, src])
        doc = jdoc(r)
        names = sorted(os.listdir(os.path.join(tk, "lib64")))
        c.named("toolkit install exits 0", r.rc == 0, r.err_text + r.out_text[:600])
        c.named("no file of 9.1.0 stays", not [n for n in names if "9.1.0" in n], names)
        c.named("libraries go to the toolkit's lib64", "libcudnn_ops.so.9.19.0" in names, names)
        c.named("the 8.x library is left and named", "libcudnn.so.8.9.7" in names and
                "lib64/libcudnn.so.8.9.7" in doc.get("plan", {}).get("summary", {}).get("other_majors", []), names)
        c.named("links point at the new release", os.readlink(os.path.join(tk, "lib64", "libcudnn_ops.so.9")) ==
                "libcudnn_ops.so.9.19.0")
        # uninstall gives the toolkit back as it was, 9.1.0 and all (what the install replaced or removed)
        r = prog.run(["uninstall", "--yes", tk])
        ref = fresh("t-toolkit-ref", toolkit=True, old="9.1.0")
        got = {k: v for k, v in cliutil.snap(tk).items() if not k.startswith(".cudnnctl")}
        c.named("uninstall of the toolkit install puts 9.1.0 back byte for byte", r.rc == 0 and got == cliutil.snap(ref),
                (r.err_text, cliutil.tree_diff(cliutil.snap(ref), got)))

        # ---- stops: nothing written ----
        tk12 = fresh("t-cuda12", toolkit=True)
        with open(os.path.join(tk12, "version.json"), "w") as f:
            json.dump({"cuda": {"version": "12.8.0"}}, f)
        before = cliutil.snap(work)
        r = prog.run(["install", "--yes", "--json", "--into", tk12, src])
        doc = jdoc(r)
        stops = [x for x in doc.get("plan", {}).get("checks", []) if x["verdict"] == "stop"]
        c.named("a CUDA 13 build into a CUDA 12 toolkit stops (exit 1)", r.rc == 1 and
                [x["id"] for x in stops] == ["cuda"], stops)
        c.named("the stop wrote nothing", cliutil.snap(work) == before, cliutil.tree_diff(before, cliutil.snap(work)))
        r = prog.run(["install", "--yes", "--force", "--into", tk12, src])
        c.named("--force installs it", r.rc == 0, r.err_text + r.out_text[-300:])

        ww = fresh("t-ww")
        os.chmod(ww, 0o777)
        before = cliutil.snap(work)
        r = prog.run(["install", "--yes", "--force", "--json", "--into", ww, src])
        doc = jdoc(r)
        c.named("a world-writable target stops, even with --force",
                r.rc == 1 and any(x["id"] == "target" and x["verdict"] == "stop" for x in doc.get("plan", {}).get("checks", [])),
                r.out_text[:500])
        c.named("... and nothing is written", cliutil.snap(work) == before, cliutil.tree_diff(before, cliutil.snap(work)))
        os.chmod(ww, 0o755)

        evil = os.path.join(work, "cudnn-linux-x86_64-9.19.0.50_cuda13-archive.tar.gz")
        ti = tarfile.TarInfo(top + "/lib/../../../escape.so")
        ti.size = 4
        write_tar(evil, mem, mode="w:gz", extra=[(ti, b"evil")])
        de = fresh("t-evil")
        before = cliutil.snap(work)
        r = prog.run(["install", "--yes", "--json", "--into", de, evil])
        doc = jdoc(r)
        c.named("a member escaping the archive stops", r.rc == 1 and doc.get("result", {}).get("status") == "stopped",
                r.out_text[:500] + r.err_text)
        c.named("... and nothing is written anywhere", cliutil.snap(work) == before, cliutil.tree_diff(before, cliutil.snap(work)))

        # ---- .xz read by the multithreaded decoder: many blocks, concatenated streams, damage ----
        mb = dict(mem)
        mb[top + "/lib/libcudnn_big.so.9.19.0"] = b"".join(hashlib.sha256(b"%d" % i).digest() for i in range(65536))
        plain = os.path.join(work, "plain.tar")
        write_tar(plain, mb, mode="w")
        with open(plain, "rb") as f:
            tar_bytes = f.read()
        blocks = os.path.join(work, "blocks", top + ".tar.xz")
        os.makedirs(os.path.dirname(blocks))
        with open(blocks, "wb") as f:
            subprocess.run(["xz", "-1", "-T2", "--block-size=65536", "-c", plain], stdout=f, check=True)
        nblocks = subprocess.run(["xz", "--robot", "-l", blocks], capture_output=True, text=True).stdout
        nblocks = [int(x.split("\t")[2]) for x in nblocks.splitlines() if x.startswith("totals")]
        cat = os.path.join(work, "cat", top + ".tar.xz")
        os.makedirs(os.path.dirname(cat))
        with open(cat, "wb") as f:  # two .xz streams, one after the other (xz -dc reads both)
            f.write(lzma.compress(tar_bytes[:len(tar_bytes) // 2]) + lzma.compress(tar_bytes[len(tar_bytes) // 2:]))
        want = None
        for label, path in (("an .xz of %s blocks" % (nblocks[0] if nblocks else "?"), blocks),
                            ("two concatenated .xz streams", cat)):
            t = fresh("t-xz")
            r = prog.run(["install", "--yes", "--no-verify", "--into", t, path])
            got = settled(cliutil.snap(t))
            got = {k: v for k, v in got.items() if not k.startswith(".cudnnctl")}
            if want is None:
                want = got
            c.named("%s installs every member byte for byte" % label, r.rc == 0 and got == want and
                    got.get("lib/libcudnn_big.so.9.19.0", (0, 0, 0))[2] ==
                    hashlib.sha256(mb[top + "/lib/libcudnn_big.so.9.19.0"]).hexdigest() and
                    (path != blocks or (nblocks and nblocks[0] > 8)), (nblocks, r.err_text, r.out_text[-300:]))
        with open(blocks, "rb") as f:
            xzb = f.read()
        for label, data in (("cut in half", xzb[:len(xzb) // 2]),
                            ("with bytes changed in its middle", xzb[:len(xzb) // 2] + bytes(64) + xzb[len(xzb) // 2 + 64:])):
            bad = os.path.join(work, "bad", top + ".tar.xz")
            os.makedirs(os.path.dirname(bad), exist_ok=True)
            with open(bad, "wb") as f:
                f.write(data)
            t = fresh("t-xzbad")
            before = cliutil.snap(work)
            r = prog.run(["install", "--yes", "--no-verify", "--into", t, bad])
            lines = [x for x in (r.out_text + r.err_text).splitlines() if "xz data" in x]
            c.named("an .xz %s: stopped with a line that says so, nothing written" % label,
                    r.rc == 1 and cliutil.snap(work) == before and len(lines) >= 1,
                    (r.rc, r.out_text[-600:], r.err_text, cliutil.tree_diff(before, cliutil.snap(work))))

        before = cliutil.snap(work)
        r = prog.run(["install", "--into", de, src], stdin=b"y\n")
        c.named("no --yes and no terminal: refused (exit 2), nothing written",
                r.rc == 2 and b"--yes" in r.err and cliutil.snap(work) == before, r.err_text)

        # ---- the crash walk: install, uninstall, rollback ----
        def walk(label, setup, argv):
            """Kill before every writing call N, recover, compare; then each error kind at every N. A run
            stopped before its commit leaves the tree as it was; one stopped after it (the machine's record
            of the transaction, the pruning) leaves it done."""
            tgt = setup()
            r = prog.run(argv(tgt))
            if r.rc != 0:
                c.named("%s runs" % label, False, r.err_text + r.out_text[-300:])
                return
            done = settled(cliutil.snap(tgt))
            n, total, bad = 1, None, []
            while total is None and n < 400:
                tgt = setup()
                before = cliutil.snap(tgt)
                r = prog.run(argv(tgt), env={"CUDNNCTL_TEST_FAULT": "kill:%d" % n})
                if r.rc == 0:
                    total = n - 1
                    break
                if r.rc != -9:
                    bad.append(("kill", n, "rc %d" % r.rc, r.err_text))
                    break
                r2 = prog.run(["recover", "--yes", tgt])
                after = cliutil.snap(tgt)
                if r2.rc != 0 or (after != before and settled(after) != done):
                    bad.append(("kill", n, "recover rc %d %s" % (r2.rc, r2.err_text), cliutil.tree_diff(before, after)))
                    break
                n += 1
            c.named("%s: killed before each of its %s writing calls, then recover: as before, or done" % (label, total),
                    not bad and total is not None and total > 5, bad[:2] or total)
            bad = []
            kinds = ("enospc", "eacces", "eio")
            for k in range(1, (total or 0) + 1):
                # every call gets one kind of error, the kinds in turn
                for kind in (kinds[k % 3],):
                    tgt = setup()
                    before = cliutil.snap(tgt)
                    r = prog.run(argv(tgt), env={"CUDNNCTL_TEST_FAULT": "%s:%d" % (kind, k)})
                    after = cliutil.snap(tgt)
                    if not ((r.rc == 1 and after == before) or (r.rc == 0 and settled(after) == done)):
                        bad.append((kind, k, r.rc, r.err_text[:200], r.out_text[-200:], cliutil.tree_diff(before, after)))
            c.named("%s: ENOSPC, EACCES or EIO at each writing call: fails with the tree as it was" % label, not bad, bad[:3])

        top_s, mem_s = release9(19, sublibs=SUBLIBS9[:2])
        src_s = os.path.join(work, "small-" + top_s + ".tar.xz")
        write_tar(src_s, mem_s)

        def tk_old():
            return fresh("t-walk", toolkit=True, old="9.1.0")

        walk("install", tk_old, lambda t: ["install", "--yes", "--no-verify", "--into", t, src_s])

        def installed_tk():
            t = fresh("t-walk", toolkit=True, old="9.1.0")
            r = prog.run(["install", "--yes", "--no-verify", "--into", t, src_s])
            assert r.rc == 0, r.err_text
            return t

        walk("uninstall", installed_tk, lambda t: ["uninstall", "--yes", t])

        def uninstalled_tk():
            t = installed_tk()
            r = prog.run(["uninstall", "--yes", t])
            assert r.rc == 0, r.err_text
            return t

        walk("rollback", uninstalled_tk, lambda t: ["rollback", "--yes", t])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return c.summary("install")


sys.exit(main())
