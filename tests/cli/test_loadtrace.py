#!/usr/bin/env python3
"""cuDNN 9's own search for its sub-libraries and engines, as `deps` emulates
it, against the truth:

1. the recorded loader traces of the GPU machine (docs/device/traces-h200.json,
   re-recorded by scripts/device/traces.sh): each case's layout (the distro's
   9.14 in /usr/lib/x86_64-linux-gnu with its full release names, `cp -L`
   copies of it on LD_LIBRARY_PATH, complete or not, `cp -a` copies, the pip
   wheel's lib/ with only .so.9 names, with and without a full name beside it)
   is rebuilt in a --root tree from stub libraries compiled here (a shim and a
   graph library that name what they load the way cuDNN's do: "%s.%d.%d.%d"
   with their release, then "%s.%d.%d", then "%s.%d"); `deps` must resolve every
   library the real process mapped to the same file;
2. the real loader on this machine, with the real cuDNN 9 of its toolkit where
   there is one: a plain program (scripts/device/traceprobe.c) opens
   libcudnn.so.9 and makes cuDNN load its sub-libraries; for the same layouts
   (a `cp -L` copy alone, with the full release names after it or before it,
   opened by its path), the files it mapped are the files `deps` resolves.

Exit 77 (skipped) only when there is no C compiler.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TRACES = os.path.join(HERE, os.pardir, os.pardir, "docs", "device", "traces-h200.json")
PROBE_C = os.path.join(HERE, os.pardir, os.pardir, "scripts", "device", "traceprobe.c")
SHIM_SUBS = ["graph", "ops", "cnn", "adv"]
GRAPH_SUBS = ["engines_precompiled", "heuristic", "engines_runtime_compiled"]
DISTRO = "/usr/lib/x86_64-linux-gnu"
LOADER = "/lib64/ld-linux-x86-64.so.2"
LOADER_C = """
#include <dlfcn.h>
#include <stdio.h>
static const char *const subs[] = {%s};
void *cc_fx_load(int i)
{
        char b[64];
        void *h;

        snprintf(b, sizeof(b), "%%s.%%d.%%d.%%d", subs[i], %d, %d, %d);
        if ((h = dlopen(b, RTLD_NOW)) != NULL)
                return h;
        snprintf(b, sizeof(b), "%%s.%%d.%%d", subs[i], %d, %d);
        if ((h = dlopen(b, RTLD_NOW)) != NULL)
                return h;
        snprintf(b, sizeof(b), "%%s.%%d", subs[i], %d);
        return dlopen(b, RTLD_NOW);
}
"""


def role(path):
    """libcudnn_graph.so.9.14.0 -> "graph"; libcudnn.so.9 -> "" (the shim); None: not cuDNN's."""
    m = re.match(r"libcudnn(?:_([a-z_]+))?\.so", os.path.basename(path))
    return None if m is None else (m.group(1) or "")


class Stubs:
    """Stub cuDNN 9 libraries of one release, compiled once: the shim and graph name what they load by
    the release; ops, cnn and adv need libcudnn_graph.so.9 as the real ones do."""

    def __init__(self, cc, work, release):
        self.files = {}
        d = os.path.join(work, "stubs-" + release)
        os.makedirs(d)
        M, m, p = (int(x) for x in release.split("."))
        for r in [""] + SHIM_SUBS + GRAPH_SUBS:
            name = "libcudnn%s.so" % ("_" + r if r else "")
            src = os.path.join(d, (r or "shim") + ".c")
            argv = [cc, "-O2", "-shared", "-fPIC", "-o", os.path.join(d, name), src,
                    "-Wl,-soname," + name + ".9", "-Wl,--enable-new-dtags,-rpath,$ORIGIN"]
            with open(src, "w") as f:
                f.write("const char cc_fx_role[] = \"%s %s\";\n" % (r or "shim", release))
                if r in ("graph", "ops", "adv"):
                    # the packed release the real sub-libraries export (cudnn_graph_version and the like)
                    f.write("const unsigned cudnn_%s_version = %d;\n" % (r, (M << 16) | (m << 8) | p))
                if r in ("", "graph"):
                    subs = SHIM_SUBS if r == "" else GRAPH_SUBS
                    f.write(LOADER_C % (", ".join('"libcudnn_%s.so"' % s for s in subs), M, m, p, M, m, M))
            if r in ("ops", "cnn", "adv"):
                argv += ["-L" + d, "-l:libcudnn_graph.so"]
            argv.append("-ldl")
            subprocess.run(argv, check=True, capture_output=True)
            self.files[r] = os.path.join(d, name)


def lay(stubs, where, names):
    """Copies of the stubs into where: names "full" (lib.so.M.m.p and the .so.9 links), "so9" (files
    named .so.9, as `cp -L` makes them), leaving out the roles in `without`."""
    os.makedirs(where, exist_ok=True)
    release = os.path.basename(os.path.dirname(stubs.files[""]))[len("stubs-"):]
    for r, f in stubs.files.items():
        if r in names.get("without", ()):
            continue
        base = os.path.basename(f)
        if names["kind"] == "full":
            shutil.copy(f, os.path.join(where, base + "." + release))
            os.symlink(base + "." + release, os.path.join(where, base + ".9"))
        else:
            shutil.copy(f, os.path.join(where, base + ".9"))


def emulated(prog, args, llp, target):
    """deps' resolution: role -> realpath of every cuDNN library the process would load."""
    argv = ["deps", "--json"] + args + ([("--set"), "LD_LIBRARY_PATH=" + llp] if llp else []) + [target]
    r = prog.run(argv)
    doc, _ = cliutil.parse_json(r.out)
    out = {}
    for n in (doc or {}).get("nodes", []):
        ro = role(n.get("realpath") or n.get("path") or "")
        if ro is not None and n.get("realpath"):
            out.setdefault(ro, n["realpath"])
    return out, r


def recorded_cases(c, prog, work, stubs914, stubs919):
    """Part 1: the GPU machine's recorded cases, rebuilt under --root."""
    with open(TRACES) as f:
        cases = json.load(f)["cases"]
    wheel_lib = None
    for case in cases:
        if case["case"] == "wheel":
            wheel_lib = case["ld_library_path"]
    done = 0
    for case in cases:
        label = case["case"]
        root = os.path.join(work, "root-" + label)
        lay(stubs914, root + DISTRO, {"kind": "full"})
        # this machine's loader, whose default directories (Debian's: /lib/x86_64-linux-gnu, /usr/lib/...)
        # are the GPU machine's: the emulation reads them from it
        os.makedirs(root + "/lib64")
        shutil.copy(LOADER, root + "/lib64/ld-linux-x86-64.so.2")
        # the placeholders of the record, as directories of the root
        copies = {
            "copyL": ("914", {"kind": "so9"}),
            "copyL-noeng": ("914", {"kind": "so9", "without": ("engines_precompiled",)}),
            "copyL-mixed": ("914", {"kind": "so9"}),
            "copya": ("914", {"kind": "full"}),
            "wheelcopy": ("919", {"kind": "so9"}),
            "wheelfull": ("919", {"kind": "so9"}),
        }
        for name, (rel, how) in copies.items():
            lay(stubs914 if rel == "914" else stubs919, root + "/tmp/" + name, how)
        # the mixed copy: the wheel's ops among 9.14 files; the full name beside the wheel's copy
        shutil.copy(stubs919.files["ops"], root + "/tmp/copyL-mixed/libcudnn_ops.so.9")
        shutil.copy(stubs919.files["graph"], root + "/tmp/wheelfull/libcudnn_graph.so.9.19.0")
        if wheel_lib:
            lay(stubs919, root + wheel_lib, {"kind": "so9"})

        def unplace(p):
            return re.sub(r"<([a-zA-Z-]+)>", r"/tmp/\1", p)
        llp = unplace(case["ld_library_path"])
        target = unplace(case["dlopen"])
        want = {}
        for mp in case["mapped"]:
            ro = role(mp["path"])
            if ro is not None:
                want.setdefault(ro, unplace(mp["path"]))
        got, r = emulated(prog, ["--root", root], llp, target)
        c.named("recorded case %s: deps resolves each library the real process mapped to the same file" % label,
                len(want) == 8 and got == want,
                (r.err_text[-300:], {k: (want.get(k), got.get(k)) for k in set(want) | set(got)
                                     if want.get(k) != got.get(k)}))
        done += 1
    c.named("every recorded case was compared", done >= 6, done)


def findings_of(prog, root, llp):
    """The doctor's findings on the root, LD_LIBRARY_PATH=llp: [(id, severity, summary, folded ids)]."""
    r = prog.run(["doctor", "--json", "--no-frameworks", "--root", root] +
                 (["--set", "LD_LIBRARY_PATH=" + llp] if llp else []))
    doc, _ = cliutil.parse_json(r.out)
    out = []
    for f in (doc or {}).get("findings", []):
        also = [a.get("id") for a in (f.get("evidence") or {}).get("also", [])]
        out.append((f.get("id"), f.get("severity"), f.get("summary") or "", also, f.get("evidence") or {}))
    return out, r


def doctor_cases(c, prog, work, stubs914, stubs919):
    """Part 3: the doctor on the recorded layouts, where the real program worked, and on a real mix.
    One release from two directories is a warning of its own (split-directories), never the error of a
    mixed set; an incomplete or mixed copy that the search does not use is a warning; a mix is one error."""
    root = os.path.join(work, "root-doctor")
    lay(stubs914, root + DISTRO, {"kind": "full"})
    os.makedirs(root + "/lib64")
    shutil.copy(LOADER, root + "/lib64/ld-linux-x86-64.so.2")
    lay(stubs914, root + "/tmp/copyL", {"kind": "so9"})
    lay(stubs914, root + "/tmp/copyL-noeng", {"kind": "so9", "without": ("engines_precompiled",)})
    lay(stubs914, root + "/tmp/copyL-mixed", {"kind": "so9"})
    shutil.copy(stubs919.files["ops"], root + "/tmp/copyL-mixed/libcudnn_ops.so.9")
    # the same with a pip wheel's 9.19 (only .so.9 names), which the copies on LD_LIBRARY_PATH mix
    wroot = os.path.join(work, "root-doctor-wheel")
    shutil.copytree(root, wroot, symlinks=True)
    lay(stubs919, wroot + "/opt/wheel/lib", {"kind": "so9"})
    # a copy of the wheel's files without ops: its 9.19 graph, and ops from the distro (9.14, by .so.9)
    nroot = os.path.join(work, "root-doctor-noops")
    shutil.copytree(root, nroot, symlinks=True)
    lay(stubs919, nroot + "/opt/noops/lib", {"kind": "so9", "without": ("ops",)})

    def ids(fs, sev=None):
        # the roots hold no C library: what the stubs need of the system is missing there, not here
        return [f[0] for f in fs if (sev is None or f[1] == sev) and f[0] != "dependency-missing"]

    def all_ids(fs):
        return ids(fs) + [a for f in fs for a in f[3]]

    fs, r = findings_of(prog, root, "/tmp/copyL")
    c.named("a complete cp -L copy on LD_LIBRARY_PATH (the real program works): no error, and the split is "
            "a split-directories warning naming the copy and the distro's directory",
            not ids(fs, "error") and any(f[0] == "split-directories" and f[1] == "warning" and "/tmp/copyL" in f[2]
                                         and DISTRO in f[2] for f in fs),
            (r.err_text[-300:], fs))
    fs, r = findings_of(prog, root, "/tmp/copyL-noeng")
    c.named("a copy without engines_precompiled (the real program takes the distro's): no error; the "
            "incomplete set is a warning that says the load takes them elsewhere, and explains the split",
            not ids(fs, "error") and any(f[0] == "v9-sublibrary-loading-failed" and f[1] == "warning" and
                                         "does not use them" in f[2] and "split-directories" in f[3] for f in fs),
            (r.err_text[-300:], fs))
    fs, r = findings_of(prog, root, "/tmp/copyL-mixed")
    c.named("a copy with another release's ops (the real program takes the distro's): no error; the two "
            "releases in one folder are a warning, the installation shown as its releases",
            not ids(fs, "error") and any(f[0] == "v9-sublibrary-version-mismatch" and f[1] == "warning"
                                         for f in fs),
            (r.err_text[-300:], fs))
    r = prog.run(["doctor", "--no-frameworks", "--root", root, "--set", "LD_LIBRARY_PATH=/tmp/copyL-mixed"])
    c.named("the mixed copy's version is its releases, with the odd file", "9.14.0 + 9.19.0" in r.out_text and
            "libcudnn_ops.so.9: 9.19.0" in r.out_text, r.out_text[:1500])
    # a real mix: the 9.19 wheel's shim asks for .so.9.19.0, .so.9.19, then .so.9, and LD_LIBRARY_PATH's
    # 9.14 copy answers .so.9 first; the distro's own load is not touched
    fs, r = findings_of(prog, wroot, "/tmp/copyL")
    mixes = [f for f in fs if f[0] == "v9-sublibrary-version-mismatch"]
    c.named("the wheel's shim with a 9.14 copy on LD_LIBRARY_PATH: the shim of one release runs the "
            "sub-libraries of another, one warning naming the wheel's shim and the copy's directory (cuDNN's "
            "own checks pass: the GPU machine's breaks)",
            len([m for m in mixes if "/opt/wheel/lib" in m[2]]) == 1 and
            any(m[1] == "warning" and "/opt/wheel/lib" in m[2] and "9.14.0 libraries from /tmp/copyL" in m[2] and
                "the shim of cuDNN 9.19.0 runs the sub-libraries of cuDNN 9.14.0" in m[2] for m in mixes),
            (r.err_text[-300:], fs))
    fs, r = findings_of(prog, nroot, "")
    noops = [f for f in fs if f[0] not in ("dependency-missing", "multiple-installations") and
             "/opt/noops" in json.dumps(f[4])]
    c.named("a 9.19 set without ops, whose load takes the distro's 9.14 ops: one error, the incomplete set, "
            "which explains the mix of graph 9.19 and ops 9.14",
            len(noops) == 1 and noops[0][0] == "v9-sublib-unloadable" and noops[0][1] == "error" and
            "v9-sublibrary-version-mismatch" in noops[0][3], (r.err_text[-300:], fs))
    # a directory in ld.so.conf.d that the cache does not have yet (ldconfig -r builds the root's cache)
    croot = os.path.join(work, "root-doctor-ldconf")
    shutil.copytree(root, croot, symlinks=True)
    os.makedirs(croot + "/etc/ld.so.conf.d")
    with open(croot + "/etc/ld.so.conf", "w") as f:
        f.write("include /etc/ld.so.conf.d/*.conf\n%s\n" % DISTRO)
    ldconfig = shutil.which("ldconfig") or "/sbin/ldconfig"
    built = subprocess.run([ldconfig, "-r", croot], capture_output=True).returncode == 0 and \
        os.path.exists(croot + "/etc/ld.so.cache")
    if built:
        lay(stubs914, croot + "/opt/cached/lib", {"kind": "full"})
        with open(croot + "/etc/ld.so.conf.d/zz-cudnn.conf", "w") as f:
            f.write("/opt/cached/lib\n")
        fs, r = findings_of(prog, croot, "")
        c.named("a cuDNN directory added to ld.so.conf.d without ldconfig: ldconfig-not-run, a warning naming it",
                any(f[0] == "ldconfig-not-run" and f[1] == "warning" and "/opt/cached/lib" in f[2] for f in fs),
                (r.err_text[-300:], fs))
        subprocess.run([ldconfig, "-r", croot], capture_output=True)
        fs, r = findings_of(prog, croot, "")
        c.named("after ldconfig: no ldconfig-not-run", "ldconfig-not-run" not in all_ids(fs), fs)
    else:
        print("note: ldconfig -r cannot build a cache here (not root?): the ld.so.conf case is left out")
    fs, r = findings_of(prog, wroot, "")
    c.named("without LD_LIBRARY_PATH nothing is split or mixed",
            not [f for f in all_ids(fs) if f in ("split-directories", "v9-sublibrary-version-mismatch")],
            (r.err_text[-300:], fs))


def real_loader(c, prog, cc, work):
    """Part 2: the real loader and the real cuDNN 9 of this machine."""
    real = None
    for d in (os.environ.get("CUDNN_LIB_DIR"), "/usr/local/cuda/lib64", "/usr/local/cuda/lib", DISTRO):
        if d and os.path.exists(os.path.join(d, "libcudnn.so.9")) and \
                os.path.exists(os.path.join(d, "libcudnn_graph.so.9")):
            real = os.path.realpath(d)
            break
    if real is None:
        print("skip: the real loader's part: no cuDNN 9 here (libcudnn.so.9 and libcudnn_graph.so.9)")
        return
    cudart = next((p for p in ("/usr/local/cuda/lib64/libcudart.so.13", "/usr/local/cuda/lib64/libcudart.so.12",
                               "/usr/local/cuda/lib64/libcudart.so") if os.path.exists(p)), "libcudart.so")
    probe = os.path.join(work, "traceprobe")
    subprocess.run([cc, "-O1", "-o", probe, PROBE_C, "-ldl"], check=True, capture_output=True)
    ver = subprocess.run([probe, os.path.join(real, "libcudnn.so.9"), cudart], capture_output=True, text=True).stdout
    m = re.search(r"^version=(\d+)", ver, re.M)
    if m is None:
        c.named("the real cuDNN 9 opens", False, ver[-500:])
        return
    v = int(m.group(1))
    release = "%d.%d.%d" % (v // 10000, v // 100 % 100, v % 100)
    copy = os.path.join(work, "real-copyL")
    full = os.path.join(work, "real-full")
    os.makedirs(copy)
    os.makedirs(full)
    for f in sorted(os.listdir(real)):
        if role(f) is not None and f.endswith(".so.9"):
            shutil.copy(os.path.join(real, f), copy)  # cp -L
            if role(f):
                os.symlink(os.path.join(real, f), os.path.join(full, f[:-len(".so.9")] + ".so." + release))
    cases = [("a cp -L copy alone", copy, "libcudnn.so.9"),
             ("the copy, then the full release names", copy + ":" + full, "libcudnn.so.9"),
             ("the full release names, then the copy", full + ":" + copy, "libcudnn.so.9"),
             ("the copy opened by its path", "", os.path.join(copy, "libcudnn.so.9"))]
    for label, llp, target in cases:
        env = dict(os.environ)
        env.pop("LD_LIBRARY_PATH", None)
        if llp:
            env["LD_LIBRARY_PATH"] = llp
        out = subprocess.run([probe, target, cudart], capture_output=True, text=True, env=env, timeout=120).stdout
        want = {}
        for line in out.splitlines():
            k, _, p = line.partition("=")
            if k.startswith("mapped.") and role(p) is not None:
                want.setdefault(role(p), os.path.realpath(p))
        got, r = emulated(prog, [], llp, target)
        got = {k: v for k, v in got.items() if k in want}
        c.named("the real loader, %s (cuDNN %s): deps resolves the shim and its sub-libraries to the files the "
                "process mapped" % (label, release),
                len(want) >= 5 and got == want,
                (out[-400:], {k: (want.get(k), got.get(k)) for k in want if want.get(k) != got.get(k)}))


def main():
    ap = cliutil.parser()
    args = ap.parse_args()
    cc = shutil.which(os.environ.get("CC", "gcc")) or shutil.which("cc")
    if cc is None:
        print("skip: no C compiler for the stub libraries")
        return 77
    if not os.path.exists(LOADER) or not os.path.exists(TRACES):
        print("skip: no %s (an x86-64 glibc machine's loader) or no %s" % (LOADER, TRACES))
        return 77
    c = cliutil.Checks(limit=300)
    prog = cliutil.Program(args.exe, timeout=120)
    work = tempfile.mkdtemp(prefix="cc-loadtrace-")
    try:
        stubs914 = Stubs(cc, work, "9.14.0")
        stubs919 = Stubs(cc, work, "9.19.0")
        recorded_cases(c, prog, work, stubs914, stubs919)
        doctor_cases(c, prog, work, stubs914, stubs919)
        real_loader(c, prog, cc, work)
    finally:
        if not os.environ.get("CUDNNCTL_KEEP_TEMP"):  # set it to look at the roots after a failure
            shutil.rmtree(work, ignore_errors=True)
    return c.summary("loadtrace", need_passes=True)


if __name__ == "__main__":
    sys.exit(main())
