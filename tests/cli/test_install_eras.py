#!/usr/bin/env python3
"""The real CLI installing a cuDNN release of every layout era, end to end.

Sources: the fixtures of gen-install-sources.sh and gen-install-eras.sh
(stub ELF and PE files with the real names, sonames, link chains and version
macros), each as the archive NVIDIA ships and as the directory it unpacks to:
the legacy cuda/ .tgz of 7.x and of 8.0-8.2, the 8.3+ tar.xz of cuDNN 8, the
9.x tar.xz, the nvidia-cudnn-cu13 wheel, and the Windows zips old (cuda/bin,
cuda/lib/x64) and new (9.18+: bin/x64). What each should install is read
here from the source itself (tarfile, zipfile, os.walk) by the era's rule
(src/lib/install/source.h): include/ and lib/ (lib64/ of the legacy era;
bin/, bin/x64/ and lib/x64/ on Windows) below the era's root, nothing else
(licenses, dist-info, __init__.py), links as they are.

For every Linux source, with CUDNNCTL_STATE_DIR in a scratch directory:
  1. install --dry-run --json into an empty prefix: the plan places exactly
     those paths (the release's own link chain, each file's size and mode),
     and nothing is written anywhere;
  2. install --yes --no-verify: the prefix holds exactly those files with the
     source's bytes, modes and links, and the manifest lists each with its
     size, mode and SHA-256 (computed here);
  3. uninstall --yes: the prefix is empty again (but for .cudnnctl).
A Windows zip on Linux stops with the system's reason and writes nothing;
under --root of a Windows tree (--system windows) it installs into a CUDA
toolkit's bin, include and lib\\x64, and uninstalls.

Replacing an older release of the same major in a CUDA toolkit (inside a
--root tree, so that `list --root` and `doctor --root` see only it): 8.2.2 of
the legacy .tgz, copied in as NVIDIA's guide does or installed by cudnnctl,
then 8.9.6 of the tar.xz; 9.1.0 then 9.19.0 of the tar.xz and of the wheel;
on Windows (--root), 9.18.0 then 9.19.0 of the 9.18+ zip (bin/x64).
No path of the old release stays (each is gone, or holds the new release's
file), the toolkit holds its own files and the new release's and nothing
else, and list shows one installation there, of the new version, with no
mixed set; the doctor finds that release alone, loaded by a plain program, and
none of its findings of mixed releases (a control: 9.19.0 copied over 9.1.0
by hand, NVIDIA's guide's route, must fail both).

The real cuDNN of this machine (/usr/local/cuda: cudnn*.h and the small
libraries libcudnn, libcudnn_graph, libcudnn_ops, libcudnn_cnn, about 50 MB),
packed as NVIDIA's 9.x tar.xz, installed (verify runs), then `verify --no-gpu`
of the prefix: it reports the header's version from the library itself.
Skipped with the reason when this machine has none.
"""
import collections
import hashlib
import io
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

SRC = "install-sources"  # tests/fixtures/gen-install-sources.sh
ERA = "install-eras"  # tests/fixtures/gen-install-eras.sh
V9 = ["cudnn", "cudnn_graph", "cudnn_ops", "cudnn_cnn", "cudnn_adv", "cudnn_engines_precompiled",
      "cudnn_engines_runtime_compiled", "cudnn_heuristic"]
V8 = ["cudnn", "cudnn_ops_infer", "cudnn_ops_train", "cudnn_cnn_infer", "cudnn_cnn_train", "cudnn_adv_infer",
      "cudnn_adv_train"]
T7 = "cudnn-10.2-linux-x64-v7.6.5.32"
T8 = "cudnn-11.4-linux-x64-v8.2.2.26"
T89 = "cudnn-linux-x86_64-8.9.6.50_cuda11-archive"
T91 = "cudnn-linux-x86_64-9.1.0.70_cuda12-archive"
T919 = "cudnn-linux-x86_64-9.19.0.56_cuda13-archive"
T919_12 = "cudnn-linux-x86_64-9.19.0.56_cuda12-archive"
WHL = "nvidia_cudnn_cu13-9.19.0.56-py3-none-manylinux_2_27_x86_64"
W8 = "cudnn-11.4-windows-x64-v8.2.2.26"
W9 = "cudnn-windows-x86_64-9.19.0.56_cuda12-archive"
W918 = "cudnn-windows-x86_64-9.19.0.56_cuda13-archive"
W918_OLD = "cudnn-windows-x86_64-9.18.0.50_cuda13-archive"


def chain(libs, full, major):
    """What a release's link chain must hold: lib.so.FULL a file, lib.so.M and lib.so links."""
    out = {}
    for l in libs:
        out["lib/lib%s.so.%s" % (l, full)] = None
        out["lib/lib%s.so.%d" % (l, major)] = "lib%s.so.%s" % (l, full)
        out["lib/lib%s.so" % l] = "lib%s.so.%d" % (l, major)
    return out


def dlls(libs, major, bindir="bin"):
    """The DLLs and import libraries of a Windows release."""
    out = {}
    for l in libs:
        stem = "cudnn64_%d" % major if l == "cudnn" else "%s64_%d" % (l, major)
        out["%s/%s.dll" % (bindir, stem)] = None
        out["lib/x64/%s.lib" % stem] = None
    return out


# An era's source: its fixture set and name (below archives/ and dirs/), the archive's suffix, the era's root
# inside the archive and inside the directory, what install must read it as (version, layout, system, CUDA
# major), paths it must install (path -> link target, None for a file: the oracle's own check) and, for Windows,
# the CUDA toolkit (vX.Y) it goes into under --root.
Era = collections.namedtuple("Era", "label fset name ext roots version layout system cuda must toolkit")
ERAS = [Era(*e) for e in [
    ("7.x legacy .tgz", SRC, T7, ".tgz", ("cuda/", "cuda/"), "7.6.5", "legacy-cuda", "linux", 10,
     dict(chain(["cudnn"], "7.6.5", 7), **{"include/cudnn.h": None, "lib/libcudnn_static.a": None}), None),
    ("8.0-8.2 legacy .tgz", SRC, T8, ".tgz", ("cuda/", "cuda/"), "8.2.2", "legacy-cuda", "linux", 11,
     dict(chain(V8, "8.2.2", 8), **{"include/cudnn_version.h": None, "include/cudnn_ops_infer.h": None,
                                    "lib/libcudnn_static_v8.a": None}), None),
    ("8.3+ tar.xz", ERA, T89, ".tar.xz", (T89 + "/", ""), "8.9.6", "redist", "linux", 11,
     dict(chain(V8, "8.9.6", 8), **{"include/cudnn_version.h": None, "lib/libcudnn_static_v8.a": None}),
     None),
    ("9.x tar.xz", SRC, T919, ".tar.xz", (T919 + "/", ""), "9.19.0", "redist", "linux", 13,
     dict(chain(V9, "9.19.0", 9), **{"include/cudnn_version.h": None, "include/cudnn_graph_v9.h": None,
                                     "lib/libcudnn_adv_static_v9.a": None}), None),
    ("9.x wheel", SRC, WHL, ".whl", ("nvidia/cudnn/", "nvidia/cudnn/"), "9.19.0", "wheel", "linux", 13,
     dict({"lib/lib%s.so.9" % l: None for l in V9}, **{"include/cudnn_version.h": None}), None),
    ("Windows 8.x zip (cuda/bin, cuda/lib/x64)", SRC, W8, ".zip", ("cuda/", "cuda/"), "8.2.2", "legacy-cuda",
     "windows", 11, dict(dlls(V8, 8), **{"include/cudnn_version.h": None, "lib/x64/cudnn.lib": None}), "11.4"),
    ("Windows 9.x zip (bin, lib/x64)", SRC, W9, ".zip", (W9 + "/", ""), "9.19.0", "redist", "windows", 12,
     dict(dlls(V9, 9), **{"include/cudnn_version.h": None}), "12.8"),
    ("Windows 9.18+ zip (bin/x64)", ERA, W918, ".zip", (W918 + "/", ""), "9.19.0", "redist", "windows", 13,
     dict(dlls(V9, 9, "bin/x64"), **{"include/cudnn_version.h": None}), "13.0"),
]]
ROOTS = ("include", "lib", "lib64", "bin")
# The archive names kb/checksums.tsv has NVIDIA's digest of (file -> sha256).
KB_DIGESTS = {}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kb", "checksums.tsv")) as kbf:
    for line in kbf:
        cells = line.rstrip("\n").split("\t")
        if not line.startswith("#") and len(cells) > 4 and cells[0] != "cudnn" and cells[4] != "-":
            KB_DIGESTS[cells[3]] = cells[4]
# The doctor's findings of two releases in one place (kb/catalog.tsv).
MIXED = {"linux-v8-mixed-helpers", "v9-sublibrary-version-mismatch", "header-lib-mismatch", "multiple-installations",
         "major-mismatch"}


# ---- the sources, read here -----------------------------------------------------------------------------------

def read_source(path):
    """Every member: name -> ("file", mode, bytes) | ("link", target). Directories are left out."""
    out = {}
    if os.path.isdir(path):
        for d, dirs, files in os.walk(path):
            dirs.sort()
            for n in dirs + files:
                p = os.path.join(d, n)
                rel = os.path.relpath(p, path)
                st = os.lstat(p)
                if stat.S_ISLNK(st.st_mode):
                    out[rel] = ("link", os.readlink(p))
                elif stat.S_ISREG(st.st_mode):
                    with open(p, "rb") as f:
                        out[rel] = ("file", st.st_mode & 0o777, f.read())
    elif path.endswith((".zip", ".whl")):
        with zipfile.ZipFile(path) as z:
            for i in z.infolist():
                mode = i.external_attr >> 16
                if i.is_dir():
                    continue
                data = z.read(i)
                if stat.S_ISLNK(mode):
                    out[i.filename] = ("link", data.decode())
                else:
                    out[i.filename] = ("file", mode & 0o777, data)
    else:
        with tarfile.open(path) as t:
            for m in t.getmembers():
                name = m.name[2:] if m.name.startswith("./") else m.name
                if m.issym():
                    out[name] = ("link", m.linkname)
                elif m.isfile():
                    out[name] = ("file", m.mode & 0o777, t.extractfile(m).read())
    return out


def expected(members, root, lib_dir="lib"):
    """What the era's rule installs: dest -> ("file", mode, bytes) | ("link", target). Below root, the members
    under include/, lib/ (lib64/ read as lib/), bin/; lib/ becomes lib_dir (a Linux toolkit's lib64)."""
    out = {}
    for name, v in members.items():
        if not name.startswith(root):
            continue
        rel = name[len(root):]
        first, _, rest = rel.partition("/")
        if first not in ROOTS or not rest:
            continue
        if first == "lib64":
            first = "lib"
        if first == "lib" and lib_dir != "lib" and not rest.startswith("x64/"):
            first = lib_dir
        out[first + "/" + rest] = v
    return out


def must_hold(c, label, exp, must):
    """The oracle's own check: the era's known names are in what it expects (so an empty or wrong reading of the
    source cannot pass)."""
    bad = []
    for p, link in must.items():
        v = exp.get(p)
        if v is None or (link is None and v[0] != "file") or (link is not None and v != ("link", link)):
            bad.append((p, link, v and v[:2]))
    c.named("%s: the source holds the era's names and link chain" % label, not bad, bad[:6])


# ---- trees ----------------------------------------------------------------------------------------------------

def outside_state(tree):
    return {k: v for k, v in tree.items() if k != ".cudnnctl" and not k.startswith(".cudnnctl/")}


def as_tree(exp):
    """What cliutil.snap() must show for the expected files (and their directories)."""
    out = {}
    for p, v in exp.items():
        if v[0] == "link":
            out[p] = ("link", v[1])
        else:
            out[p] = ("file", oct(v[1]), hashlib.sha256(v[2]).hexdigest())
        d = os.path.dirname(p)
        while d:
            out[d] = "dir"
            d = os.path.dirname(d)
    return out


def dirs_any(tree):
    """cliutil.snap() with every directory's mode left out (the install makes them 0755; the test only asks that they
    are there)."""
    return {k: ("dir" if v[0] == "dir" else v) for k, v in tree.items()}


def jdoc(r):
    d, _ = cliutil.parse_json(r.out) if r.out else (None, None)
    return d or {}


def plan_files(doc, manifest):
    """The plan's placed paths: path -> (link, size, mode), the manifest's own left out; and the manifest op."""
    out, mop = {}, None
    for o in doc.get("plan", {}).get("operations", []):
        if o.get("op") not in ("place", "replace"):
            continue
        if o.get("path") == manifest:
            mop = o
            continue
        out[o.get("path")] = (o.get("link"), o.get("size"), o.get("mode"))
    return out, mop


def want_plan(exp):
    return {p: (v[1], None, None) if v[0] == "link" else (None, len(v[2]), "%04o" % v[1]) for p, v in exp.items()}


def check_manifest(c, label, prefix, version, exp):
    """The manifest under .cudnnctl/installed lists exactly exp, each file with its size, mode and SHA-256 (of the
    file there, and of the source's bytes)."""
    path = os.path.join(prefix, ".cudnnctl", "installed", "cudnn-%s.json" % version)
    try:
        with open(path) as f:
            man = json.load(f)
    except (OSError, ValueError) as ex:
        c.named("%s: the manifest is there" % label, False, "%s: %s" % (path, ex))
        return
    bad, seen = [], set()
    for f in man.get("files", []):
        p = f.get("path")
        seen.add(p)
        v = exp.get(p)
        if v is None:
            bad.append((p, "not installed from the source"))
        elif v[0] == "link":
            if f.get("link") != v[1]:
                bad.append((p, "link %r, want %r" % (f.get("link"), v[1])))
        else:
            try:
                with open(os.path.join(prefix, p), "rb") as fh:
                    data = fh.read()
            except OSError as ex:
                bad.append((p, str(ex)))
                continue
            want = hashlib.sha256(v[2]).hexdigest()
            if f.get("sha256") != want or hashlib.sha256(data).hexdigest() != want:
                bad.append((p, "sha256 %s, file %s, source %s" % (f.get("sha256"), hashlib.sha256(data).hexdigest(),
                                                                   want)))
            if f.get("size") != len(v[2]):
                bad.append((p, "size %r, want %d" % (f.get("size"), len(v[2]))))
            if f.get("mode") != "%04o" % v[1]:
                bad.append((p, "mode %r, want %04o" % (f.get("mode"), v[1])))
    for p in sorted(set(exp) - seen):
        bad.append((p, "missing from the manifest"))
    c.named("%s: the manifest lists every file with its size, mode and SHA-256" % label,
            not bad and man.get("version") == version, bad[:6] or man.get("version"))


# ---- the test -------------------------------------------------------------------------------------------------

class Eras:
    def __init__(self, args):
        self.c = cliutil.Checks(limit=900)
        self.fx = args.fixtures
        self.work = tempfile.mkdtemp(prefix="cc-install-eras-")
        self.state = os.path.join(self.work, "state")
        self.prog = cliutil.Program(args.exe, setenv={"CUDNNCTL_STATE_DIR": self.state},
                                    unset=("CUDNNCTL_TEST_FAULT",), timeout=180)
        self.n = 0

    def fresh(self, name):
        self.n += 1
        d = os.path.join(self.work, "%s-%d" % (name, self.n))
        os.makedirs(d)
        return d

    def source(self, era, form):
        """(path, members) of an era's archive or directory; (None, None) when the fixture set lacks it."""
        p = os.path.join(self.fx, era.fset, "archives", era.name + era.ext) if form == "archive" else \
            os.path.join(self.fx, era.fset, "dirs", era.name)
        if not os.path.exists(p):
            return None, None
        return p, read_source(p)

    # 1-3: an empty prefix ------------------------------------------------------------------------------------
    def linux_era(self, era, form):
        c = self.c
        version, layout, cuda = era.version, era.layout, era.cuda
        label = "%s (%s)" % (era.label, form)
        src, mem = self.source(era, form)
        if src is None:
            c.named("%s: fixture there" % label, False, "missing under %s" % self.fx)
            return
        exp = expected(mem, era.roots[1 if form == "directory" else 0])
        must_hold(c, label, exp, era.must)
        manifest = ".cudnnctl/installed/cudnn-%s.json" % version
        if form == "archive" and os.path.basename(src) in KB_DIGESTS:
            src = self.unlisted(label, src)

        # 1. the plan, and nothing written anywhere
        p = self.fresh("prefix")
        before = cliutil.snap(self.work)
        r = self.prog.run(["install", "--dry-run", "--json", "--into", p, src])
        doc = jdoc(r)
        after = cliutil.snap(self.work)
        c.named("%s: dry run exits 0, planned" % label,
                r.rc == 0 and doc.get("result", {}).get("status") == "planned", (r.rc, r.err_text[-400:]))
        c.named("%s: dry run writes nothing anywhere" % label, after == before, cliutil.tree_diff(before, after))
        sd = doc.get("plan", {}).get("source", {})
        c.named("%s: read as cuDNN %s, %s layout, CUDA %d" % (label, version, layout, cuda),
                (sd.get("version"), sd.get("layout"), sd.get("cuda_major")) == (version, layout, cuda), sd)
        got, mop = plan_files(doc, manifest)
        want = want_plan(exp)
        c.named("%s: the plan places exactly the release's files and links (%d)" % (label, len(want)),
                got == want, {"missing": sorted(set(want) - set(got))[:6], "extra": sorted(set(got) - set(want))[:6],
                              "differ": [(k, got[k], want[k]) for k in sorted(set(got) & set(want))
                                         if got[k] != want[k]][:6]})
        c.named("%s: the plan writes the manifest %s" % (label, manifest), mop is not None,
                [o.get("path") for o in doc.get("plan", {}).get("operations", [])][:12])

        # 2. installed byte for byte, with its manifest
        r = self.prog.run(["install", "--yes", "--json", "--no-verify", "--into", p, src])
        doc = jdoc(r)
        c.named("%s: install exits 0, installed" % label,
                r.rc == 0 and doc.get("result", {}).get("status") == "installed",
                (r.rc, doc.get("result"), r.err_text[-400:]))
        now = dirs_any(outside_state(cliutil.snap(p)))
        c.named("%s: the prefix holds exactly the release's files, bytes, modes and links" % label,
                now == as_tree(exp), cliutil.tree_diff(as_tree(exp), now))
        check_manifest(c, label, p, version, exp)

        # 3. uninstall: empty again
        r = self.prog.run(["uninstall", "--yes", "--json", p])
        left = outside_state(cliutil.snap(p))
        c.named("%s: uninstall exits 0 and leaves the prefix empty" % label, r.rc == 0 and left == {},
                (r.rc, r.err_text[-300:], sorted(left)[:8]))

    def unlisted(self, label, src):
        """A stub archive named as one of NVIDIA's that kb/checksums.tsv has the digest of: install must stop on
        it (a different download), writing nothing. The same bytes under a name the table lacks (build number 0)
        are what the era is installed from."""
        c = self.c
        p = self.fresh("prefix")
        before = cliutil.snap(self.work)
        r = self.prog.run(["install", "--dry-run", "--json", "--into", p, src])
        doc = jdoc(r)
        stops = [(x.get("id"), x.get("reason")) for x in doc.get("plan", {}).get("checks", [])
                 if x.get("verdict") == "stop"]
        c.named("%s: %s is not NVIDIA's file of that name (kb/checksums.tsv): a stop" % (label, os.path.basename(src)),
                r.rc == 1 and [i for i, _ in stops] == ["checksum"] and "kb/checksums.tsv" in stops[0][1],
                (r.rc, stops, [(x.get("id"), x.get("verdict")) for x in doc.get("plan", {}).get("checks", [])]))
        c.named("%s: the checksum stop wrote nothing anywhere" % label, cliutil.snap(self.work) == before,
                cliutil.tree_diff(before, cliutil.snap(self.work)))
        name = re.sub(r"(\d+\.\d+\.\d+)\.\d+", r"\1.0", os.path.basename(src), count=1)
        if name in KB_DIGESTS:
            raise SystemExit("%s: kb/checksums.tsv lists %s too: pick another name" % (label, name))
        copy = os.path.join(self.fresh("renamed"), name)
        shutil.copyfile(src, copy)
        return copy

    # Windows zips: a stop on Linux; installed under --root of a Windows tree -----------------------------------
    def windows_era(self, era, form):
        c = self.c
        version, tkver = era.version, era.toolkit
        label = "%s (%s)" % (era.label, form)
        src, mem = self.source(era, form)
        if src is None:
            print("skip: %s: no fixture (the generators skip Windows sources without mingw-w64)" % label)
            return
        exp = expected(mem, era.roots[1 if form == "directory" else 0])
        must_hold(c, label, exp, era.must)

        p = self.fresh("prefix")
        before = cliutil.snap(self.work)
        for argv in (["--dry-run"], ["--yes"]):
            r = self.prog.run(["install", "--json"] + argv + ["--into", p, src])
            doc = jdoc(r)
            stops = [(x.get("id"), x.get("reason")) for x in doc.get("plan", {}).get("checks", [])
                     if x.get("verdict") == "stop"]
            c.named("%s: install %s on Linux stops with the system's reason" % (label, argv[0]),
                    r.rc == 1 and doc.get("result", {}).get("status") == "stopped" and
                    ("system", "a windows release cannot be installed on linux") in stops,
                    (r.rc, stops, r.err_text[-300:]))
        c.named("%s: the stops wrote nothing anywhere" % label, cliutil.snap(self.work) == before,
                cliutil.tree_diff(before, cliutil.snap(self.work)))

        # --root of a Windows machine, into its CUDA toolkit
        root = self.fresh("winroot")
        rel = "Program Files/NVIDIA GPU Computing Toolkit/CUDA/v" + tkver
        tk = os.path.join(root, rel)
        os.makedirs(os.path.join(tk, "bin"))
        with open(os.path.join(tk, "version.json"), "w") as f:
            json.dump({"cuda": {"name": "CUDA SDK", "version": tkver + ".0"}}, f)
        base = dirs_any(cliutil.snap(tk))
        vtk = "C:\\" + rel.replace("/", "\\")
        mach = ["--root", root, "--system", "windows"]
        r = self.prog.run(["install", "--dry-run", "--json"] + mach + ["--into", vtk, src])
        doc = jdoc(r)
        got, _ = plan_files(doc, ".cudnnctl/installed/cudnn-%s.json" % version)
        want = want_plan(exp)
        c.named("%s: under --root of Windows, the plan places exactly the release's files (%d) into %s" %
                (label, len(want), vtk),
                r.rc == 0 and doc.get("result", {}).get("status") == "planned" and got == want,
                (r.rc, r.err_text[-300:], cliutil.tree_diff(want, got)))
        r = self.prog.run(["install", "--yes", "--json", "--no-verify"] + mach + ["--into", vtk, src])
        doc = jdoc(r)
        now = dirs_any(outside_state(cliutil.snap(tk)))
        want_tree = dict(base, **as_tree(exp))
        c.named("%s: under --root of Windows, installed: exactly the release's files in the toolkit" % label,
                r.rc == 0 and doc.get("result", {}).get("status") == "installed" and now == want_tree,
                (r.rc, r.err_text[-300:], cliutil.tree_diff(want_tree, now)))
        check_manifest(c, label + " under --root", tk, version, exp)
        r = self.prog.run(["uninstall", "--yes"] + mach + [vtk])
        now = dirs_any(outside_state(cliutil.snap(tk)))
        c.named("%s: under --root of Windows, uninstall gives the toolkit back" % label, r.rc == 0 and now == base,
                (r.rc, r.err_text[-300:], cliutil.tree_diff(base, now)))

    # 4: a toolkit holding an older release of the same major -----------------------------------------------
    def replace(self, label, tkver, old, old_how, new, windows=False):
        """old, new: (era, form). old_how: "copy" (NVIDIA's guide: cp -P of include/ and lib64/ into the
        toolkit; on Windows the copy of bin, include and lib\\x64) or "install" (cudnnctl). The toolkit lies
        at /usr/local/cuda-X.Y of a --root tree (C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\vX.Y
        with windows)."""
        c = self.c
        root = self.fresh("root")
        short = ".".join(tkver.split(".")[:2])
        if windows:
            rel = "Program Files/NVIDIA GPU Computing Toolkit/CUDA/v" + short
            vtk = "C:\\" + rel.replace("/", "\\")
            mach = ["--root", root, "--system", "windows"]
            into = vtk
            lib_dir = "lib"
        else:
            rel = "usr/local/cuda-" + short
            vtk = "/" + rel
            mach = []
            lib_dir = "lib64"
        tk = os.path.join(root, rel)
        if not windows:
            into = tk
        for d in ("bin", "include", "lib64" if not windows else "lib/x64"):
            os.makedirs(os.path.join(tk, d))
        with open(os.path.join(tk, "version.json"), "w") as f:
            json.dump({"cuda": {"name": "CUDA SDK", "version": tkver}}, f)
        # a file of the toolkit's own, which stays
        own = os.path.join(tk, "bin", "cudart64_%s.dll" % tkver.split(".")[0]) if windows else \
            os.path.join(tk, "lib64", "libcudart.so.%s" % tkver)
        with open(own, "wb") as f:
            f.write(b"not a library: the toolkit's own file\n")
        toolkit_own = dirs_any(cliutil.snap(tk))

        osrc, omem = self.source(*old)
        nsrc, nmem = self.source(*new)
        if osrc is None or nsrc is None:
            if windows:
                print("skip: %s: no fixture (the generators skip Windows sources without mingw-w64)" % label)
                return
            c.named("%s: fixtures there" % label, False, (osrc, nsrc))
            return
        oexp = expected(omem, old[0].roots[1 if old[1] == "directory" else 0], lib_dir)
        nexp = expected(nmem, new[0].roots[1 if new[1] == "directory" else 0], lib_dir)
        oversion, nversion = old[0].version, new[0].version
        if old_how == "copy":
            for p, v in sorted(oexp.items()):
                dst = os.path.join(tk, p)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                if v[0] == "link":
                    os.symlink(v[1], dst)
                else:
                    with open(dst, "wb") as f:
                        f.write(v[2])
                    os.chmod(dst, v[1])
        else:
            r = self.prog.run(["install", "--yes", "--json", "--no-verify"] + mach + ["--into", into, osrc])
            if r.rc != 0:
                c.named("%s: the old release %s installs" % (label, oversion), False, r.err_text[-400:])
                return
        c.named("%s: the old release's %d paths are in the toolkit" % (label, len(oexp)),
                all(os.path.lexists(os.path.join(tk, p)) for p in oexp),
                [p for p in oexp if not os.path.lexists(os.path.join(tk, p))][:6])

        r = self.prog.run(["install", "--yes", "--json", "--no-verify"] + mach + ["--into", into, nsrc])
        doc = jdoc(r)
        c.named("%s: install of %s exits 0, installed" % (label, nversion),
                r.rc == 0 and doc.get("result", {}).get("status") == "installed",
                (r.rc, doc.get("result"), [x for x in doc.get("plan", {}).get("checks", [])
                                            if x.get("verdict") != "ok"], r.err_text[-400:]))
        stays = []
        for p in sorted(oexp):
            full = os.path.join(tk, p)
            if p in nexp:
                v = nexp[p]
                if v[0] == "link":
                    same = os.path.islink(full) and v == ("link", os.readlink(full))
                else:
                    same = not os.path.islink(full) and os.path.isfile(full) and open(full, "rb").read() == v[2]
                if not same:
                    stays.append(p + " (not the new release's)")
            elif os.path.lexists(full):
                stays.append(p)
        c.named("%s: no path of %s stays (its %d paths checked)" % (label, oversion, len(oexp)), not stays, stays[:10])
        now = dirs_any(outside_state(cliutil.snap(tk)))
        want_tree = dict(toolkit_own, **as_tree(nexp))
        c.named("%s: the toolkit holds its own files and %s's, nothing else" % (label, nversion), now == want_tree,
                cliutil.tree_diff(want_tree, now))
        mdir = os.path.join(tk, ".cudnnctl", "installed")
        mans = sorted(os.listdir(mdir)) if os.path.isdir(mdir) else []
        c.named("%s: one manifest, of %s" % (label, nversion), mans == ["cudnn-%s.json" % nversion], mans)
        for name, ok, detail in self.one_release(root, vtk, nversion, oversion, windows):
            c.named("%s: %s" % (label, name), ok, detail)

    def one_release(self, root, vtk, version, old, windows=False):
        """What list and doctor say of the toolkit vtk of the machine root: [(check, holds, detail)]. One
        installation there, of version, with no mixed set and no file named for old (list); the doctor's cuDNN
        area and a plain program's load (LD_LIBRARY_PATH, or PATH, on the toolkit's libraries) on version, with
        none of its findings of mixed releases."""
        out = []
        mach = ["--root", root] + (["--system", "windows"] if windows else [])
        r = self.prog.run(["list", "--json"] + mach)
        doc = jdoc(r)
        same = (lambda a, b: a.lower() == b.lower()) if windows else (lambda a, b: a == b)
        inst = [i for i in doc.get("installations", []) if same(i.get("prefix") or "", vtk)]
        detail = [(i.get("prefix"), i.get("version")) for i in doc.get("installations", [])]
        ok = r.rc == 0 and len(inst) == 1
        if ok:
            i = inst[0]
            old_named = sorted(f.get("path") for f in i.get("files", []) if old in (f.get("name_version") or ""))
            mixed = [p for p in i.get("problems", []) if p.get("kind") == "mixed-versions"]
            ok = i.get("version") == version and not i.get("sets") and not old_named and not mixed
            detail = {"version": i.get("version"), "sets": i.get("sets"), "files named %s" % old: old_named,
                      "mixed": mixed}
        out.append(("list shows one installation in %s, of %s, no mixed set" % (vtk, version), ok, detail))
        env = "PATH=%s\\bin\\x64;%s\\bin" % (vtk, vtk) if windows else "LD_LIBRARY_PATH=%s/lib64" % vtk
        r = self.prog.run(["doctor", "--json"] + mach + ["--set", env])
        doc = jdoc(r)
        areas = {a.get("id"): a.get("summary") or "" for a in doc.get("areas", [])}
        bad = sorted(f.get("id") for f in doc.get("findings", []) if f.get("id") in MIXED)
        ok = (areas.get("cudnn", "").lower().startswith(("%s in %s " % (version, vtk)).lower()) and
              "cuDNN %s" % version in areas.get("loader", "") and not bad)
        out.append(("doctor: cuDNN %s in %s, loaded alone, no finding of mixed releases" % (version, vtk), ok,
                    {"cudnn": areas.get("cudnn"), "loader": areas.get("loader"), "findings": bad, "rc": r.rc}))
        return out

    def control(self):
        """The checks of one_release can fail: the guide's route (cp -P of 9.19.0 over 9.1.0 in the toolkit)
        leaves 9.1.0's files beside 9.19.0's, and both list and the doctor must say so."""
        root = self.fresh("control")
        vtk = "/usr/local/cuda-13.0"
        tk = os.path.join(root, vtk.lstrip("/"))
        os.makedirs(os.path.join(tk, "lib64"))
        with open(os.path.join(tk, "version.json"), "w") as f:
            json.dump({"cuda": {"name": "CUDA SDK", "version": "13.0.88"}}, f)
        for e in (OLD9, era("9.x tar.xz")):
            path, mem = self.source(e, "directory")
            for p, v in sorted(expected(mem, "", "lib64").items()):
                dst = os.path.join(tk, p)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                if os.path.lexists(dst):
                    os.unlink(dst)
                if v[0] == "link":
                    os.symlink(v[1], dst)
                else:
                    with open(dst, "wb") as f:
                        f.write(v[2])
        res = self.one_release(root, vtk, "9.19.0", "9.1.0")
        self.c.named("control: 9.19.0 copied over 9.1.0 by hand is a mixed set to list and to the doctor",
                     not any(ok for _, ok, _ in res), res)

    # 5: the real cuDNN of this machine ----------------------------------------------------------------------
    def real(self):
        c = self.c
        cuda = "/usr/local/cuda"
        names = ["libcudnn", "libcudnn_graph", "libcudnn_ops", "libcudnn_cnn"]
        libs = [os.path.join(cuda, "lib64", n + ".so.9") for n in names]
        hdr = os.path.join(cuda, "include", "cudnn_version.h")
        missing = [p for p in libs + [hdr] if not os.path.isfile(p)]
        if missing:
            print("skip: the real cuDNN 9: this machine lacks %s" % ", ".join(missing))
            return
        with open(hdr) as f:
            text = f.read()
        mac = {k: int(v) for k, v in re.findall(r"#define\s+CUDNN_(MAJOR|MINOR|PATCHLEVEL)\s+(\d+)", text)}
        version = "%d.%d.%d" % (mac.get("MAJOR", 0), mac.get("MINOR", 0), mac.get("PATCHLEVEL", 0))
        if mac.get("MAJOR") != 9:
            print("skip: the real cuDNN here is %s, not 9.x" % version)
            return
        build, cu = "0", "13"
        for n in os.listdir(os.path.join(cuda, "dist-info")) if os.path.isdir(os.path.join(cuda, "dist-info")) else []:
            m = re.match(r"nvidia_cudnn_cu(\d+)-(\d+\.\d+\.\d+)\.(\d+)\.dist-info$", n)
            if m and m.group(2) == version:
                cu, build = m.group(1), m.group(3)
        top = "cudnn-linux-x86_64-%s.%s_cuda%s-archive" % (version, build, cu)
        total = sum(os.path.getsize(p) for p in libs)
        print("real cuDNN %s: %s, %d MB of libraries" % (version, top, total >> 20))
        stage = self.fresh("real-src")
        mem = {}
        for n in sorted(os.listdir(os.path.join(cuda, "include"))):
            if n.startswith("cudnn") and n.endswith(".h"):
                with open(os.path.join(cuda, "include", n), "rb") as f:
                    mem[top + "/include/" + n] = ("file", 0o644, f.read())
        for n, p in zip(names, libs):
            full = "%s.so.%s" % (n, version)
            with open(os.path.realpath(p), "rb") as f:
                mem[top + "/lib/" + full] = ("file", 0o755, f.read())
            mem[top + "/lib/%s.so.9" % n] = ("link", full)
            mem[top + "/lib/%s.so" % n] = ("link", n + ".so.9")
        tarpath = os.path.join(stage, top + ".tar")
        with tarfile.open(tarpath, "w", format=tarfile.GNU_FORMAT) as t:
            for name in sorted(mem):
                v = mem[name]
                ti = tarfile.TarInfo(name)
                ti.mtime = 1600000000
                if v[0] == "link":
                    ti.type, ti.linkname = tarfile.SYMTYPE, v[1]
                    t.addfile(ti)
                else:
                    ti.size, ti.mode = len(v[2]), v[1]
                    t.addfile(ti, io.BytesIO(v[2]))
        if shutil.which("xz"):  # xz -0 on both cores: a few seconds; python's lzma is one core
            subprocess.run(["xz", "-0", "-T2", tarpath], check=True)
        else:
            import lzma
            with open(tarpath, "rb") as f, lzma.open(tarpath + ".xz", "wb", preset=0) as z:
                shutil.copyfileobj(f, z, 1 << 20)
            os.unlink(tarpath)
        src = tarpath + ".xz"
        exp = expected(mem, top + "/")
        p = self.fresh("real-prefix")
        r = self.prog.run(["install", "--yes", "--json", "--into", p, src])
        doc = jdoc(r)
        label = "real cuDNN %s" % version
        c.named("%s: install exits 0, installed" % label,
                r.rc == 0 and doc.get("result", {}).get("status") == "installed", (r.rc, doc.get("result"),
                                                                                 r.err_text[-400:]))
        now = dirs_any(outside_state(cliutil.snap(p)))
        c.named("%s: the prefix holds exactly the archive's files, bytes, modes and links" % label,
                now == as_tree(exp), cliutil.tree_diff(as_tree(exp), now))
        check_manifest(c, label, p, version, exp)
        iv = cliutil.checks_of(doc.get("verify") or {})
        c.named("%s: install ran verify on it (runtime version %s)" % (label, version),
                iv.get("version", {}).get("status") == "passed" and version in iv["version"].get("summary", ""),
                doc.get("verify_error") or {k: (v.get("status"), v.get("summary")) for k, v in iv.items()})
        r = self.prog.run(["verify", "--no-gpu", "--json", p])
        vdoc = jdoc(r)
        ch = cliutil.checks_of(vdoc)
        c.named("%s: verify --no-gpu of the prefix runs, and reports %s" % (label, version),
                r.rc in (0, 1) and (vdoc.get("installation") or {}).get("version") == version,
                (r.rc, r.err_text[-300:], vdoc.get("installation")))
        cliutil.expect_check(c.check, vdoc, label, "header-vs-library", "passed", version)
        cliutil.expect_check(c.check, vdoc, label, "version", "passed", "cudnnGetVersion %d" %
                             (mac["MAJOR"] * 10000 + mac["MINOR"] * 100 + mac["PATCHLEVEL"]), version)
        # four of the eight libraries of cuDNN 9 were packed: the set check fails, naming one left out
        cliutil.expect_check(c.check, vdoc, label, "library-set", "failed")
        summ = ch.get("library-set", {}).get("summary", "")
        left = [n for n in V9 if "lib" + n not in names]
        c.named("%s: verify's library set names a library that was left out" % label,
                any("lib%s.so.9" % n in summ for n in left), summ)
        c.named("%s: verify's checks are there" % label, bool(ch), sorted(ch))

    def close(self):
        shutil.rmtree(self.work, ignore_errors=True)


def era(label):
    """The era whose label starts so."""
    return next(e for e in ERAS if e.label.startswith(label))


def main():
    ap = cliutil.parser(fixtures=True)
    args = ap.parse_args()
    t = Eras(args)
    try:
        for e in ERAS:
            for form in ("archive", "directory"):
                if e.system == "windows":
                    t.windows_era(e, form)
                else:
                    t.linux_era(e, form)
        t.replace("8.2.2 copied by the guide -> 8.9.6 tar.xz", "11.8.89", (era("8.0-8.2"), "archive"), "copy",
                  (era("8.3+"), "archive"))
        t.replace("8.2.2 installed by cudnnctl -> 8.9.6 directory", "11.8.89", (era("8.0-8.2"), "archive"),
                  "install", (era("8.3+"), "directory"))
        t.replace("9.1.0 copied by the guide -> 9.19.0 tar.xz", "13.0.88", (OLD9, "archive"), "copy",
                  (era("9.x tar.xz"), "archive"))
        t.replace("9.1.0 copied by the guide -> 9.19.0 wheel", "13.0.88", (OLD9, "directory"), "copy",
                  (era("9.x wheel"), "archive"))
        t.replace("9.1.0 installed by cudnnctl -> 9.19.0 tar.xz", "12.8.93", (OLD9, "archive"), "install",
                  (NEW9_12, "archive"))
        t.replace("Windows 9.18.0 copied by hand -> 9.19.0 zip (bin/x64)", "13.0.88", (OLD918, "directory"), "copy",
                  (era("Windows 9.18+"), "archive"), windows=True)
        t.control()
        t.real()
    finally:
        t.close()
    return t.c.summary("install eras", list_failures=True)


# The releases of the replacements that are not an era of their own above.
OLD9 = Era("9.1.0 tar.xz", ERA, T91, ".tar.xz", (T91 + "/", ""), "9.1.0", "redist", "linux", 12,
           chain(V9, "9.1.0", 9), None)
OLD918 = Era("Windows 9.18.0 zip", ERA, W918_OLD, ".zip", (W918_OLD + "/", ""), "9.18.0", "redist", "windows", 13,
             dlls(V9, 9, "bin/x64"), "13.0")
NEW9_12 = Era("9.19.0 tar.xz for CUDA 12", ERA, T919_12, ".tar.xz", (T919_12 + "/", ""), "9.19.0", "redist",
              "linux", 12, chain(V9, "9.19.0", 9), None)

sys.exit(main())
