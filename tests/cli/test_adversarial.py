#!/usr/bin/env python3
"""Hostile machines and inputs for the read side, each a case that crashed or
answered wrongly before its fix:

- one dangling symbolic link, and no other copy of its name, in every place a
  search looks (LD_LIBRARY_PATH, an ld.so.conf directory, a default directory,
  a program's RUNPATH, LD_PRELOAD; PATH on Windows): which, deps, list, verify
  and doctor, live and with --root, end without a signal and report the link;
- `doctor --facts` whose numbers are at the ends of their range (every integer
  INT64_MAX, INT64_MIN, -1, 2^31, 0; a compute capability of INT64_MAX);
- control characters and broken UTF-8 in a path reach standard error escaped,
  as on standard output;
- `explain` of an input that cannot be read: 1 (a directory, /dev/zero, over
  64 MiB), 3 (no such file), never 4;
- a DLL's version resource is labelled by what the file is (cudnn, or the
  file's own name), not always "cudnn";
- a program started through a symbolic link in another directory: $ORIGIN is
  the directory of the program itself, as ld.so takes it (/proc/self/exe).

Under the sanitizer build a report from AddressSanitizer or UBSan on standard
error fails the case too."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

ap = cliutil.parser(fixtures=True)
ap.add_argument("--source", required=True)
args = ap.parse_args()
EXE = cliutil.Program(os.path.abspath(args.exe), timeout=300)
CHECKS = cliutil.Checks(limit=600)
named = CHECKS.named
SANITIZER_WORDS = ("runtime error:", "AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer")


def clean_end(label, res, allowed):
    """The run ended by itself with one of the allowed statuses and no sanitizer report."""
    err = res.err_text
    named(label + ": no signal, exit in %s" % (allowed,), res.rc in allowed, "exit %d; %s" % (res.rc, err[-600:]))
    named(label + ": no sanitizer report", not any(w in err for w in SANITIZER_WORDS), err[-1500:])


def tried(doc, name):
    r = [x for x in doc.get("results", []) if x.get("name") == name]
    return r[0] if r else None


def dangling_entry(result, path):
    return [t for t in (result or {}).get("tried", []) if t.get("path") == path and "dangling" in (t.get("detail") or "")]


def elf_program(path, runpath, needed_dir, needed, fn):
    """A program with DT_RUNPATH `runpath` that calls fn of lib`needed`.so in needed_dir."""
    src = path + ".c"
    with open(src, "w") as f:
        f.write("int %s(void);\nint main(void) { return %s(); }\n" % (fn, fn))
    subprocess.run(["cc", "-o", path, src, "-L" + needed_dir, "-l" + needed, "-Wl,--enable-new-dtags,-rpath," + runpath],
                   check=True)
    os.unlink(src)


def shared_lib(path, soname, fn):
    src = path + ".c"
    with open(src, "w") as f:
        f.write("int %s(void) { return 0; }\n" % fn)
    subprocess.run(["cc", "-shared", "-fPIC", "-o", path, src, "-Wl,-soname," + soname], check=True)
    os.unlink(src)


# ---- 1. dangling links, --root --------------------------------------------------------------------------

def linux_tree(top):
    """A Linux tree where each search place holds one dangling link and no other copy of that name:
    LD_LIBRARY_PATH (/opt/lld), a default directory (/usr/lib64: the tree has no loader to read them from),
    the RUNPATH of /opt/app/bin/app, LD_PRELOAD, and a directory of ld.so.conf (which only `list` walks:
    without a cache entry the loader never looks there)."""
    r = os.path.join(top, "linux")
    for d in ("opt/lld", "opt/conf", "usr/lib64", "opt/app/bin", "opt/app/lib", "opt/pre",
              "etc/ld.so.conf.d", "bin"):
        os.makedirs(os.path.join(r, d), exist_ok=True)
    os.symlink("/nowhere/libcudnn.so.8.9.7", os.path.join(r, "opt/lld/libcudnn.so.8"))
    os.symlink("libcudnn_ops_infer.so.8.9.7", os.path.join(r, "opt/conf/libcudnn_ops_infer.so.8"))
    os.symlink("../../missing/libcudnn_cnn_infer.so.8.9.7", os.path.join(r, "usr/lib64/libcudnn_cnn_infer.so.8"))
    os.symlink("libcudnn_adv_infer.so.8.9.7", os.path.join(r, "opt/app/lib/libcudnn_adv_infer.so.8"))
    os.symlink("/opt/pre/gone.so", os.path.join(r, "opt/pre/libpre.so"))
    with open(os.path.join(r, "etc/ld.so.conf"), "w") as f:
        f.write("include /etc/ld.so.conf.d/*.conf\n")
    with open(os.path.join(r, "etc/ld.so.conf.d/conf.conf"), "w") as f:
        f.write("/opt/conf\n")
    # a program whose RUNPATH holds a dangling link for the name it needs
    scratch = os.path.join(top, "scratch")
    os.makedirs(scratch, exist_ok=True)
    shared_lib(os.path.join(scratch, "libcudnn_adv_infer.so"), "libcudnn_adv_infer.so.8", "cudnnAdvInferVersionCheck")
    elf_program(os.path.join(r, "opt/app/bin/app"), "$ORIGIN/../lib", scratch, "cudnn_adv_infer",
                "cudnnAdvInferVersionCheck")
    shutil.copy("/bin/sh", os.path.join(r, "bin/sh"))
    return r


def windows_tree(top):
    r = os.path.join(top, "windows")
    for d in ("Windows/System32", "tools"):
        os.makedirs(os.path.join(r, d), exist_ok=True)
    os.symlink("C:/nowhere/cudnn64_8.dll", os.path.join(r, "tools/cudnn64_8.dll"))
    return r


def root_cases(top):
    lr = linux_tree(top)
    m = ["--root", lr, "--system", "linux", "--set", "LD_LIBRARY_PATH=/opt/lld", "--set", "LD_PRELOAD=/opt/pre/libpre.so"]
    res = EXE.run(["which", "--json", "libcudnn.so.8", "libcudnn_ops_infer.so.8", "libcudnn_cnn_infer.so.8", "cudnn"] + m)
    clean_end("root which (4 names)", res, (0, 1, 3))
    doc, why = cliutil.parse_json(res.out)
    named("root which: JSON", doc is not None, why)
    doc = doc or {}
    for name, path in (("libcudnn.so.8", "/opt/lld/libcudnn.so.8"),
                       ("libcudnn_cnn_infer.so.8", "/usr/lib64/libcudnn_cnn_infer.so.8")):
        r = tried(doc, name)
        named("root which %s: not found" % name, r is not None and not r.get("found"), r)
        named("root which %s: the dangling link %s is tried and named" % (name, path), dangling_entry(r, path),
              r and r.get("tried"))
    res = EXE.run(["which", "--json", "--from", "/opt/app/bin/app", "libcudnn_adv_infer.so.8"] + m)
    clean_end("root which --from (RUNPATH)", res, (0, 1, 3))
    doc, _ = cliutil.parse_json(res.out)
    r = tried(doc or {}, "libcudnn_adv_infer.so.8")
    named("root which --from: the RUNPATH's dangling link is named",
          dangling_entry(r, "/opt/app/bin/../lib/libcudnn_adv_infer.so.8"), r and r.get("tried"))
    for label, a, allowed in (("deps program", ["deps", "/opt/app/bin/app"], (0, 1, 3)),
                              ("deps name", ["deps", "libcudnn.so.8"], (0, 1, 3)),
                              ("list", ["list"], (0, 1, 3)),
                              ("verify", ["verify"], (0, 1, 3)),
                              ("verify link", ["verify", "/opt/lld/libcudnn.so.8"], (0, 1, 3)),
                              ("doctor", ["doctor"], (0, 1))):
        res = EXE.run(a + m)
        clean_end("root " + label, res, allowed)
        if label == "doctor":
            named("root doctor: linux-broken-symlinks", "linux-broken-symlinks" in res.out_text, res.out_text[-2000:])
    wr = windows_tree(top)
    w = ["--root", wr, "--system", "windows", "--set", "PATH=C:\\tools"]
    for label, a, allowed in (("which", ["which", "cudnn64_8.dll"], (0, 1, 3)), ("which short", ["which", "cudnn"], (0, 1, 3)),
                              ("list", ["list"], (0, 1, 3)), ("doctor", ["doctor"], (0, 1))):
        res = EXE.run(a + w)
        clean_end("windows root " + label, res, allowed)


# ---- 1. dangling links, live -------------------------------------------------------------------------------

def live_cases(top):
    d = os.path.join(top, "live")
    os.makedirs(d)
    os.symlink("/nowhere/libcudnn.so.8.9.7", os.path.join(d, "libcudnn.so.8"))
    env = {"LD_LIBRARY_PATH": d, "TMPDIR": top}
    res = EXE.run(["which", "--json", "libcudnn.so.8"], env=env)
    clean_end("live which libcudnn.so.8", res, (3,))
    doc, _ = cliutil.parse_json(res.out)
    named("live which: the dangling link is named",
          dangling_entry(tried(doc or {}, "libcudnn.so.8"), os.path.join(d, "libcudnn.so.8")), res.out_text[:1500])
    for label, a, allowed in (("which cudnn", ["which", "cudnn"], (0, 1, 3)),
                              ("verify", ["verify", "--no-compile", "--timeout", "30"], (0, 1, 3)),
                              ("doctor", ["doctor", "--no-frameworks", "--no-compile", "--timeout", "30"], (0, 1))):
        res = EXE.run(a, env=env)
        clean_end("live " + label, res, allowed)
        if label == "doctor":
            named("live doctor: the dangling link is reported", "linux-broken-symlinks" in res.out_text,
                  res.out_text[-2000:])


# ---- 8. foreign numbers in --facts ---------------------------------------------------------------------------

def facts_cases(top):
    docs = [os.path.join(args.source, "docs/device", n) for n in ("doctor-h200.json", "doctor-frameworks-h200.json")]
    docs = [p for p in docs if os.path.exists(p)]
    named("facts: the recorded documents are there", len(docs) == 2, docs)

    def subst(o, val, key=None):
        if isinstance(o, dict):
            return {k: subst(v, val, k) for k, v in o.items()}
        if isinstance(o, list):
            return [subst(v, val) for v in o]
        if isinstance(o, bool) or key == "schema_version":
            return o
        if isinstance(o, int):
            return val
        if isinstance(o, float):
            return 1e308 if val > 0 else -1e308
        return o

    for p in docs:
        orig = json.load(open(p))
        for val in (2**63 - 1, -2**63, -1, 2**31, 0):
            f = os.path.join(top, "facts.json")
            json.dump(subst(orig, val), open(f, "w"))
            res = EXE.run(["doctor", "--facts", f], timeout=120)
            clean_end("facts %s, every integer %d" % (os.path.basename(p), val), res, (0, 1))
    orig = json.load(open(docs[0]))
    for v in orig["facts"]["verify"]:
        v["document"]["probes"]["driver"]["facts"]["devices"][0]["cc_major"] = 2**63 - 1
    f = os.path.join(top, "facts.json")
    json.dump(orig, open(f, "w"))
    res = EXE.run(["doctor", "--facts", f], timeout=120)
    clean_end("facts: compute capability INT64_MAX", res, (0, 1))
    named("facts: an impossible compute capability is unknown, not printed",
          "sm_unknown" in res.out_text and "sm_9223" not in res.out_text, res.out_text[:600])


# ---- 8. standard error, explain's inputs ---------------------------------------------------------------------

def stderr_cases(top):
    bad = os.path.join(top, "a\nb\x1b[31mred\x07").encode() + b"\xff"
    res = EXE.run([bad])  # an unknown command named by a hostile word
    named("stderr: a hostile command word is escaped", res.rc == 2 and b"\\x1b" in res.err and b"\x1b" not in res.err,
          res.err)
    res = EXE.run(["inspect", bad])
    clean_end("inspect of a hostile missing path", res, (1, 3))
    err = res.err
    named("stderr: control characters escaped", b"\\x0a" in err and b"\\x1b" in err and b"\\x07" in err, err)
    named("stderr: no raw control character or broken UTF-8",
          not any(c in err.rstrip(b"\n") for c in (b"\n", b"\x1b", b"\x07", b"\xff")), err)
    named("stderr: the broken byte as \\xff", b"\\xff" in err, err)
    res = EXE.run(["which", "lib\x1bcudnn.so.9", "--root", top])
    named("stderr/stdout of which: no raw escape", b"\x1b" not in res.err and b"\x1b" not in res.out, res.err + res.out)


def explain_cases(top):
    big = os.path.join(top, "big.log")
    with open(big, "wb") as f:
        f.truncate((64 << 20) + 1)  # sparse: over the 64 MiB limit
    for label, a, stdin, want in (("a directory", ["--file", top], None, 1),
                                  ("/dev/zero", ["--file", "/dev/zero"], None, 1),
                                  ("over 64 MiB", ["--file", big], None, 1),
                                  ("no such file", ["--file", os.path.join(top, "none.log")], None, 3)):
        res = EXE.run(["explain"] + a, stdin=stdin, timeout=120)
        named("explain %s: exit %d" % (label, want), res.rc == want, (res.rc, res.err_text))
        named("explain %s: one line on stderr naming it" % label,
              res.err_text.count("\n") == 1 and (a[-1] in res.err_text), res.err_text)
    p = subprocess.run(EXE.cmd + ["explain", "-"], stdin=os.open(top, os.O_RDONLY), capture_output=True, timeout=60)
    named("explain - (standard input a directory): exit 1", p.returncode == 1, (p.returncode, p.stderr))


# ---- 8. the component of a version resource -------------------------------------------------------------------

def version_resource_cases():
    misc = os.path.join(args.fixtures, "pe", "misc")
    for name, comp, ver in (("vendortool.dll", "vendortool", "10.0.18362.1350"), ("renamed.dll", "cudnn", "8.9.7.29")):
        p = os.path.join(misc, name)
        if not os.path.exists(p):
            named("version resource %s: fixture" % name, False, "missing (gen-pe.sh needs mingw-w64)")
            continue
        res = EXE.run(["inspect", "--json", p])
        doc, _ = cliutil.parse_json(res.out)
        vs = [(v["component"], v["version"]) for v in ((doc or {}).get("results") or [{}])[0].get("versions", [])
              if v["source"] == "version-resource"]
        named("version resource of %s is %s's" % (name, comp), vs == [(comp, ver)], vs)


# ---- 9. $ORIGIN of a program started through a link ------------------------------------------------------------

def origin_cases(top):
    base = os.path.join(top, "origin")
    for d in ("real/bin", "real/lib", "other"):
        os.makedirs(os.path.join(base, d))
    shared_lib(os.path.join(base, "real/lib/libfoo.so"), "libfoo.so", "foo")
    elf_program(os.path.join(base, "real/bin/prog"), "$ORIGIN/../lib", os.path.join(base, "real/lib"), "foo", "foo")
    link = os.path.join(base, "other/prog")
    os.symlink("../real/bin/prog", link)
    # the real loader, as the oracle: started through the link, it finds libfoo.so
    p = subprocess.run([link], capture_output=True)
    named("origin: the real loader runs the program through the link", p.returncode == 0, p.stderr)
    want = os.path.join(base, "real/bin/../lib/libfoo.so")
    res = EXE.run(["which", "--json", "--from", link, "libfoo.so"])
    doc, _ = cliutil.parse_json(res.out)
    r = tried(doc or {}, "libfoo.so")
    named("origin: which --from the link finds libfoo.so through $ORIGIN of the real program",
          r is not None and r.get("found") and r.get("path") == want and r.get("how") == "runpath", r)
    res = EXE.run(["deps", "--json", link])
    doc, _ = cliutil.parse_json(res.out)
    paths = [n.get("path") for n in (doc or {}).get("nodes", [])]
    named("origin: deps of the link finds libfoo.so", want in paths, paths)
    # a library is another matter: its $ORIGIN is the directory it was found in, links kept
    os.makedirs(os.path.join(base, "libs/sub"))
    shared_lib(os.path.join(base, "libs/libbar.so"), "libbar.so", "bar")
    src = os.path.join(base, "baz.c")
    with open(src, "w") as f:
        f.write("int bar(void);\nint baz(void) { return bar(); }\n")
    subprocess.run(["cc", "-shared", "-fPIC", "-o", os.path.join(base, "real/lib/libbaz.so"), src,
                    "-L" + os.path.join(base, "libs"), "-lbar", "-Wl,--enable-new-dtags,-rpath,$ORIGIN/sub"], check=True)
    os.symlink(os.path.join(base, "real/lib/libbaz.so"), os.path.join(base, "libs/libbaz.so"))
    shutil.move(os.path.join(base, "libs/libbar.so"), os.path.join(base, "libs/sub/libbar.so"))
    res = EXE.run(["which", "--json", "--from", os.path.join(base, "libs/libbaz.so"), "libbar.so"])
    doc, _ = cliutil.parse_json(res.out)
    r = tried(doc or {}, "libbar.so")
    named("origin: a library's $ORIGIN is the directory of the path it is loaded by",
          r is not None and r.get("found") and r.get("path") == os.path.join(base, "libs/sub/libbar.so"), r)


def main():
    if not os.path.exists(args.exe):
        print("no program at", args.exe)
        return 1
    top = tempfile.mkdtemp(prefix="cc-adv-")
    try:
        root_cases(top)
        live_cases(top)
        facts_cases(top)
        stderr_cases(top)
        explain_cases(top)
        version_resource_cases()
        origin_cases(top)
    finally:
        shutil.rmtree(top, ignore_errors=True)
    return CHECKS.summary("adversarial", list_failures=True, need_passes=True)


sys.exit(main())
