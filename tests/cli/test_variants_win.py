#!/usr/bin/env python3
"""The cuDNN 9 Windows installer's layout, a build per CUDA version
(Program Files\\NVIDIA\\CUDNN\\v9.19\\bin\\12.9\\, include\\12.9\\,
lib\\12.9\\x64\\, and the same for 13.0), in `verify` and `install`, under
--system windows --root TREE (on Linux, and under Wine with --wrapper).

The trees are made here from install-sources/dirs/installer-two (fixtures/
gen-install-sources.sh: PE DLLs with cuDNN 9.19.0's version resource, the
headers, the import libraries, for CUDA 12.9 and 13.0):
  verify: each CUDA variant a set of its own; the one of CUDA_PATH's
  toolkit by default, else every one; --cuda picks another; a DLL missing
  from one variant, or a header of one that disagrees with its DLLs, is
  that variant's failure only; --cuda 99.9 is a one-line error.
  install from the installer's directory: the build of the target
  toolkit's CUDA (version.json, else its cudart DLL), --cuda to choose,
  a one-line error naming the builds when the target tells none or fits
  none; --dry-run says which and why and writes nothing; the install
  places exactly that build's files; rollback puts the tree back. Into a
  tree of the installer's layout: a stop.

usage: test_variants_win.py --exe CUDNNCTL --fixtures DIR [--wrapper=WINE]
exit 77: no install-sources fixture (mingw-w64 missing when it was built)
"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

args = cliutil.parser(fixtures=True, wrapper=True).parse_args()
SRC = os.path.join(args.fixtures, "install-sources", "dirs", "installer-two")
if not os.path.isdir(os.path.join(SRC, "bin", "13.0")):
    print("skip: no %s (gen-install-sources.sh without mingw-w64?)" % SRC)
    sys.exit(77)
if cliutil.wrapper_missing(args.wrapper):
    print("skip: no %s" % args.wrapper)
    sys.exit(77)

C = cliutil.Checks()
PROG = cliutil.Program(args.exe, args.wrapper, setenv={"WINEDEBUG": "-all"},
                       unset=("CUDA_PATH", "CUDNNCTL_TEST_FAULT"), timeout=180)
INST = "Program Files/NVIDIA/CUDNN/v9.19"
INST_W = "C:\\Program Files\\NVIDIA\\CUDNN\\v9.19"
TK = "Program Files/NVIDIA GPU Computing Toolkit/CUDA/v%s"
TK_W = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v%s"


def native(path):
    return cliutil.wine_path(path) if args.wrapper else os.path.abspath(path)


def toolkit(root, ver, full=None, cudart=None):
    d = os.path.join(root, TK % ver)
    for sub in ("bin", "include", os.path.join("lib", "x64")):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    with open(os.path.join(d, "bin", "nvcc.exe"), "wb") as f:
        f.write(b"MZ nvcc")
    if full:
        with open(os.path.join(d, "version.json"), "w") as f:
            f.write('{"cuda": {"name": "CUDA SDK", "version": "%s"}}' % full)
    if cudart:
        with open(os.path.join(d, "bin", cudart), "wb") as f:
            f.write(b"MZ cudart")
    return d


def tree(work, name):
    """A Windows root with the installer's directory and toolkits 12.9 and 13.0."""
    root = os.path.join(work, name)
    shutil.copytree(SRC, os.path.join(root, INST))
    toolkit(root, "12.9", "12.9.1")
    toolkit(root, "13.0", "13.0.48")
    return root


def run(root, argv, sets=()):
    mach = ["--system", "windows", "--root", native(root)]
    for s in sets:
        mach += ["--set", s]
    return PROG.run(argv[:1] + mach + argv[1:])


def verify(root, extra=(), sets=()):
    r = run(root, ["verify", INST_W, "--json"] + list(extra), sets)
    doc, why = cliutil.parse_json(r.out_text)
    return r, (doc if why is None else None)


def layer(doc, cuda, lid):
    for lay in (doc or {}).get("layers", []):
        if lay.get("id") == lid and lay.get("cuda_variant") == cuda:
            return lay
    return None


def check_of(lay, cid):
    for c in (lay or {}).get("checks", []):
        if c.get("id") == cid:
            return c
    return {}


def kept(root):
    """The tree but for the tool's own records (the target's .cudnnctl, the state directory)."""
    return {k: v for k, v in cliutil.snap(root).items() if ".cudnnctl" not in k and not k.startswith("ProgramData")}


def variants_of(doc):
    return {v["cuda_variant"]: v for v in (doc or {}).get("variants", [])}


work = tempfile.mkdtemp(prefix="cc-variants-")
try:
    # ---- verify --------------------------------------------------------------------------------
    root = tree(work, "ok")
    cp129 = "CUDA_PATH=" + TK_W % "12.9"
    r, doc = verify(root, sets=[cp129])
    inst = (doc or {}).get("installation", {})
    C.named("verify, CUDA_PATH 12.9: exit 0, the 12.9 variant chosen by CUDA_PATH",
            r.rc == 0 and inst.get("cuda_variant") == "12.9" and "CUDA_PATH" in inst.get("variant_chosen_by", "")
            and inst.get("cuda_variants") == ["12.9", "13.0"], (r.rc, inst, r.err_text[-300:]))
    st = layer(doc, "12.9", "static")
    C.named("  its static layer passes: header = DLLs, every DLL, the import library in lib\\12.9\\x64",
            st is not None and st["status"] == "passed" and
            check_of(st, "import-library").get("summary", "").endswith("lib\\12.9\\x64\\cudnn.lib"), st)
    C.named("  only that variant was verified, its directories are the installation's",
            list(variants_of(doc)) == ["12.9"] and inst.get("lib_dir", "").endswith("bin\\12.9") and
            inst.get("include_dir", "").endswith("include\\12.9"), (variants_of(doc), inst))
    C.named("  the compile proof is not run under --root (it would use include\\12.9 and lib\\12.9\\x64)",
            check_of(layer(doc, "12.9", "compile"), "compile").get("status") == "not-checked")

    r, doc = verify(root, ["--cuda", "13.0"], sets=[cp129])
    inst = (doc or {}).get("installation", {})
    C.named("verify --cuda 13.0 picks the other variant", r.rc == 0 and inst.get("cuda_variant") == "13.0" and
            inst.get("variant_chosen_by") == "--cuda 13.0" and list(variants_of(doc)) == ["13.0"], (r.rc, inst))
    r, doc = verify(root, ["--cuda", "13"])
    C.named("verify --cuda 13 (a major) picks 13.0", r.rc == 0 and
            (doc or {}).get("installation", {}).get("cuda_variant") == "13.0")

    r, doc = verify(root)
    C.named("verify without CUDA_PATH (two toolkits): every variant, each its own set, all passed",
            r.rc == 0 and (doc or {}).get("installation", {}).get("cuda_variant", "x") is None and
            sorted(variants_of(doc)) == ["12.9", "13.0"] and
            all(v["verdict"] != "failed" for v in variants_of(doc).values()) and
            layer(doc, "12.9", "static") is not None and layer(doc, "13.0", "static") is not None,
            (r.rc, (doc or {}).get("installation"), r.err_text[-300:]))
    t = run(root, ["verify", INST_W])
    C.named("  the text names each variant and its verdict", t.rc == 0 and "CUDA 12.9" in t.out_text and
            "CUDA 13.0" in t.out_text and "every one" in t.out_text, t.out_text[-600:])

    r = run(root, ["verify", INST_W, "--cuda", "99.9"])
    lines = r.err_text.strip().splitlines()
    C.named("verify --cuda 99.9: exit 3, one line naming the variants there",
            r.rc == 3 and len(lines) == 1 and "99.9" in lines[0] and "12.9, 13.0" in lines[0], (r.rc, r.err_text))
    r = run(root, ["verify", INST_W, "--cuda", "twelve"])
    C.named("verify --cuda twelve: a usage error", r.rc == 2 and len(r.err_text.strip().splitlines()) >= 1,
            (r.rc, r.err_text))

    # a DLL missing from 12.9 only
    root = tree(work, "missing")
    os.remove(os.path.join(root, INST, "bin", "12.9", "cudnn_cnn64_9.dll"))
    r, doc = verify(root)
    vs = variants_of(doc)
    ls12 = check_of(layer(doc, "12.9", "static"), "library-set")
    C.named("12.9 lacks cudnn_cnn64_9.dll: 12.9 fails its library set, 13.0 passes",
            r.rc == 1 and vs.get("12.9", {}).get("verdict") == "failed" and vs.get("13.0", {}).get("verdict") != "failed"
            and ls12.get("status") == "failed" and "cudnn_cnn64_9.dll" in ls12.get("summary", "") and
            check_of(layer(doc, "13.0", "static"), "library-set").get("status") == "passed", (r.rc, vs, ls12))
    r, doc = verify(root, ["--cuda", "13.0"])
    C.named("  --cuda 13.0 on that tree: passes", r.rc == 0, (r.rc, r.err_text[-300:]))

    # the 13.0 header says 9.18.0, its DLLs 9.19.0
    root = tree(work, "header")
    hdr = os.path.join(root, INST, "include", "13.0", "cudnn_version.h")
    text = open(hdr).read().replace("#define CUDNN_MINOR 19", "#define CUDNN_MINOR 18")
    C.named("  (fixture) the 13.0 header rewritten to 9.18", "CUDNN_MINOR 18" in text)
    open(hdr, "w").write(text)
    r, doc = verify(root)
    vs = variants_of(doc)
    hv13 = check_of(layer(doc, "13.0", "static"), "header-vs-library")
    C.named("13.0's header 9.18.0 against its 9.19.0 DLLs: 13.0 fails header-vs-library, 12.9 passes",
            r.rc == 1 and vs.get("13.0", {}).get("verdict") == "failed" and vs.get("12.9", {}).get("verdict") != "failed"
            and hv13.get("status") == "failed" and "9.18.0" in hv13.get("summary", "") and
            vs.get("13.0", {}).get("version") == "9.18.0" and
            check_of(layer(doc, "12.9", "static"), "header-vs-library").get("status") == "passed", (r.rc, vs, hv13))

    # ---- install from the installer's directory ------------------------------------------------
    def target(name, ver=None, full=None, cudart=None):
        root = os.path.join(work, name)
        os.makedirs(root)
        if ver:
            toolkit(root, ver, full, cudart)
        os.makedirs(os.path.join(root, "pfx"))
        return root

    src = native(SRC)
    root = target("t13", "13.0", "13.0.48")
    before = cliutil.snap(root)
    r = run(root, ["install", "--dry-run", "--json", "--into", TK_W % "13.0", src])
    doc, why = cliutil.parse_json(r.out_text)
    plan = (doc or {}).get("plan", {})
    cv = [c for c in plan.get("checks", []) if c.get("id") == "cuda-variant"]
    placed = [o["path"] for o in plan.get("operations", []) if o.get("op") == "place"]
    C.named("install --dry-run into the CUDA 13.0 toolkit: the 13.0 build, chosen by the target's CUDA 13.0.48",
            r.rc == 0 and len(cv) == 1 and "CUDA 13.0 build" in cv[0]["reason"] and "13.0.48" in cv[0]["reason"],
            (r.rc, cv, r.err_text[-300:]))
    C.named("  the plan places bin/, include/, lib/x64/ (no CUDA version directory), and writes nothing",
            len([p for p in placed if ".cudnnctl" not in p]) ==
            sum(len(os.listdir(os.path.join(SRC, d))) for d in ("bin/13.0", "include/13.0", "lib/13.0/x64")) and
            "bin/cudnn64_9.dll" in placed and "include/cudnn_version.h" in placed and "lib/x64/cudnn.lib" in placed
            and not any("13.0" in p or "12.9" in p for p in placed) and cliutil.snap(root) == before, placed[:6])
    t = run(root, ["install", "--dry-run", "--into", TK_W % "13.0", src])
    C.named("  the text plan says which build and why", t.rc == 0 and "cuda-variant" in t.out_text and
            "the target's CUDA 13.0.48" in t.out_text, t.out_text[-800:])

    r = run(root, ["install", "--yes", "--no-verify", "--json", "--into", TK_W % "13.0", src])
    bins = sorted(os.listdir(os.path.join(root, TK % "13.0", "bin")))
    same = all(open(os.path.join(root, TK % "13.0", "bin", b), "rb").read() ==
               open(os.path.join(SRC, "bin", "13.0", b), "rb").read() for b in os.listdir(os.path.join(SRC, "bin", "13.0")))
    C.named("install: exit 0, the 13.0 build's DLLs in bin, byte for byte", r.rc == 0 and same and
            "cudnn64_9.dll" in bins, (r.rc, bins, r.err_text[-300:]))
    r = run(root, ["rollback", "--yes", TK_W % "13.0"])
    after = kept(root)
    C.named("  rollback: the tree as before", r.rc == 0 and after == before, (r.rc, cliutil.tree_diff(before, after)))

    root = target("t12", "12.9", None, "cudart64_12.dll")
    r = run(root, ["install", "--dry-run", "--json", "--into", TK_W % "12.9", src])
    doc, why = cliutil.parse_json(r.out_text)
    cv = [c for c in (doc or {}).get("plan", {}).get("checks", []) if c.get("id") == "cuda-variant"]
    C.named("into a toolkit with no version.json but cudart64_12.dll: the 12.9 build, by that DLL",
            r.rc == 0 and len(cv) == 1 and "CUDA 12.9 build" in cv[0]["reason"] and "cudart64_12.dll" in cv[0]["reason"],
            (r.rc, cv, r.err_text[-300:]))

    # every CUDA 11 ships cudart64_110.dll: it tells the major alone, never a minor 0
    root = target("t11", "11.8", None, "cudart64_110.dll")
    r = run(root, ["install", "--dry-run", "--into", TK_W % "11.8", src])
    lines = r.err_text.strip().splitlines()
    C.named("into a CUDA 11 toolkit known by cudart64_110.dll alone: CUDA 11 (not 11.0) fits none of the builds",
            r.rc != 0 and len(lines) == 1 and "CUDA 11 (" in lines[0] and "11.0" not in lines[0] and
            "fits none" in lines[0], (r.rc, r.err_text))

    root = target("tpfx")
    before = cliutil.snap(root)
    r = run(root, ["install", "--dry-run", "--into", "C:\\pfx", src])
    lines = r.err_text.strip().splitlines()
    C.named("into a prefix that tells no CUDA: a one-line error naming the builds and --cuda",
            r.rc != 0 and len(lines) == 1 and "--cuda 12.9 or --cuda 13.0" in lines[0], (r.rc, r.err_text))
    r = run(root, ["install", "--dry-run", "--json", "--into", "C:\\pfx", "--cuda", "12.9", src])
    doc, why = cliutil.parse_json(r.out_text)
    cv = [c for c in (doc or {}).get("plan", {}).get("checks", []) if c.get("id") == "cuda-variant"]
    C.named("  --cuda 12.9 chooses: the plan says so", r.rc == 0 and len(cv) == 1 and "--cuda 12.9" in cv[0]["reason"],
            (r.rc, cv, r.err_text[-300:]))
    r = run(root, ["install", "--yes", "--no-verify", "--into", "C:\\pfx", "--cuda", "12.9", src])
    C.named("  installed: the 12.9 build's files", r.rc == 0 and
            sorted(os.listdir(os.path.join(root, "pfx", "bin"))) == sorted(os.listdir(os.path.join(SRC, "bin", "12.9"))),
            (r.rc, r.err_text[-300:]))
    r = run(root, ["rollback", "--yes", "C:\\pfx"])
    after = kept(root)
    C.named("  rollback: the tree as before", r.rc == 0 and after == before, cliutil.tree_diff(before, after))
    r = run(root, ["install", "--dry-run", "--into", "C:\\pfx", "--cuda", "99.9", src])
    C.named("  --cuda 99.9: a one-line error", r.rc != 0 and len(r.err_text.strip().splitlines()) == 1 and
            "99.9" in r.err_text, (r.rc, r.err_text))

    root = target("t118", "11.8", "11.8.89")
    r = run(root, ["install", "--dry-run", "--into", TK_W % "11.8", src])
    C.named("into a CUDA 11.8 toolkit: fits none of them, a one-line error", r.rc != 0 and
            len(r.err_text.strip().splitlines()) == 1 and "11.8.89" in r.err_text and "fits none" in r.err_text,
            (r.rc, r.err_text))

    # into a tree of the installer's layout: a stop
    root = tree(work, "into")
    zipdir = os.path.join(args.fixtures, "install-sources", "dirs", "cudnn-windows-x86_64-9.19.0.56_cuda12-archive")
    if os.path.isdir(zipdir):
        r = run(root, ["install", "--dry-run", "--json", "--into", INST_W, native(zipdir)])
        doc, why = cliutil.parse_json(r.out_text)
        stops = [c for c in (doc or {}).get("plan", {}).get("checks", []) if c.get("verdict") == "stop"]
        C.named("into the installer's own tree: a stop naming its layout", r.rc == 1 and
                any("installer's layout" in c["reason"] for c in stops), (r.rc, stops, r.err_text[-300:]))
finally:
    shutil.rmtree(work, ignore_errors=True)
sys.exit(C.summary("CUDA variants of the Windows installer's layout"))
