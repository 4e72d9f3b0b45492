#!/usr/bin/env python3
"""Oracle: the Linux loader emulation against the real loader on this machine.

1. ld.so.cache: for every library name `ldconfig -p` prints, `cudnnctl which`
   picks the same cache entry (and passes over entries for another ABI).
2. ld.so --list (ldd): for real programs and libraries (python3, bash, the
   cuDNN libraries, CUDA libraries) and generated fixture programs, every
   name `deps --no-runtime` resolves maps to the path the loader prints.
3. libtree: every DT_NEEDED edge resolves to the same file (canonically).
4. LD_DEBUG=libs: for generated programs covering RPATH, RUNPATH, $ORIGIN,
   $LIB, $PLATFORM, LD_LIBRARY_PATH (empty and relative entries), a 32-bit
   copy earlier on the path, DF_1_NODEFLIB, RPATH inheritance and
   glibc-hwcaps subdirectories, `which --from PROGRAM` tries the same files
   in the same order as ld.so and finds the same one.

usage: loader_oracle.py CUDNNCTL
Exits 77 (skipped) when the tools it compares against are missing.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

EXE = None
FAILS = []
PASSES = 0


def check(name, cond, detail=""):
    global PASSES
    if cond:
        PASSES += 1
    else:
        FAILS.append(name)
        print("FAIL %s %s" % (name, detail))


def clean_env(extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LD_")}
    env["LC_ALL"] = "C"
    if extra:
        env.update(extra)
    return env


def cudnnctl(args, env=None, cwd=None):
    p = subprocess.run([EXE] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env or clean_env(), cwd=cwd, timeout=600)
    try:
        doc = json.loads(p.stdout.decode("utf-8"))
    except ValueError:
        print("not JSON from %s: rc=%d %r %r" % (args, p.returncode, p.stdout[:300], p.stderr[:300]))
        doc = None
    return p.returncode, doc


# ---- 1. ld.so.cache ------------------------------------------------------------

def ldconfig_entries():
    out = subprocess.run(["ldconfig", "-p"], stdout=subprocess.PIPE, check=True,
                         env=clean_env()).stdout.decode()
    entries = []
    for line in out.splitlines()[1:]:
        line = line.strip()
        if " => " not in line or "(" not in line:
            continue
        left, path = line.split(" => ", 1)
        name, flags = left.split(" (", 1)
        flags = flags.rstrip(")")
        entries.append((name.strip(), flags.split(",")[0] + ("," + flags.split(",")[1]
                                                           if "," in flags else ""), flags, path))
    return entries


def test_cache():
    entries = ldconfig_entries()
    names = []
    for e in entries:
        if e[0] not in names:
            names.append(e[0])
    rc, doc = cudnnctl(["which", "--json"] + names)
    check("which over every ldconfig -p name gives JSON", doc is not None, rc)
    if doc is None:
        return
    results = {r["name"]: r for r in doc["results"]}
    compared = 0
    for name in names:
        mine = results.get(name)
        check("which answers %s" % name, mine is not None)
        if mine is None:
            continue
        ours = [t for t in mine["tried"] if t["how"] == "ld.so.cache"]
        expect = [e for e in entries if e[0] == name]
        x64 = [e for e in expect if "x86-64" in e[2]]
        if x64:
            chosen = [t for t in ours if t["outcome"] in ("found", "failed")]
            check("%s: the cache entry chosen is ldconfig's first x86-64 entry" % name,
                  len(chosen) == 1 and chosen[0]["path"] == x64[0][3],
                  "ours=%s ldconfig=%s" % ([(t["path"], t["outcome"]) for t in ours], x64[0][3]))
            if chosen and chosen[0]["outcome"] == "found":
                check("%s: found through the cache" % name, mine["how"] == "ld.so.cache" and
                      mine["path"] == x64[0][3], (mine["how"], mine["path"]))
        else:
            skipped = [t for t in ours if t["outcome"] == "skipped"]
            check("%s: entries for another ABI are passed over" % name,
                  len(skipped) == len(expect) and not any(t["outcome"] == "found" for t in ours),
                  [(t["path"], t["outcome"]) for t in ours])
        # every entry ldconfig prints for the name is in our list, in order
        check("%s: every cache entry listed in order" % name,
              [t["path"] for t in ours] == [e[3] for e in expect],
              ([t["path"] for t in ours], [e[3] for e in expect]))
        compared += 1
    print("ld.so.cache: %d names compared with ldconfig -p" % compared)
    check("some names were compared", compared > 50, compared)


# ---- 2. ld.so --list -------------------------------------------------------------

LDSO = "/lib64/ld-linux-x86-64.so.2"


def ldso_list(path, env=None):
    """What ldd does: the loader with LD_TRACE_LOADED_OBJECTS=1 lists every
    object (and "not found" ones) without running the program."""
    e = dict(env or clean_env())
    e["LD_TRACE_LOADED_OBJECTS"] = "1"
    p = subprocess.run([LDSO, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e, timeout=120)
    mapping = {}
    for line in p.stdout.decode().splitlines():
        line = line.strip()
        if " => " in line:
            name, rest = line.split(" => ", 1)
            target = rest.rsplit(" (", 1)[0].strip()
            mapping[name.strip()] = None if target == "not found" else target
        elif line.startswith("/") and "ld-linux" not in line:
            # an object listed by path alone: a preloaded one
            mapping.setdefault("(preloaded)", []).append(line.rsplit(" (", 1)[0].strip())
    return mapping


def deps_mapping(doc):
    """name -> path for every DT_NEEDED edge (first resolution of a name)."""
    mapping = {}
    nodes = doc["nodes"]
    for n in nodes:
        for e in n["edges"]:
            if e["kind"] != "needed":
                continue
            if e["status"] in ("loaded", "already-loaded"):
                path = e.get("path")
                if e["status"] == "already-loaded" and "node" in e:
                    path = nodes[e["node"]]["path"]
                mapping.setdefault(e["name"], path)
            elif e["status"] in ("missing", "fails"):
                mapping.setdefault(e["name"], None)
    return mapping


def compare_ldd(path, env=None, extra=(), cwd=None):
    want = ldso_list(path, env)
    rc, doc = cudnnctl(["deps", "--json", "--no-runtime"] + list(extra) + [path], env=env, cwd=cwd)
    check("deps %s gives JSON" % path, doc is not None, rc)
    if doc is None:
        return
    got = deps_mapping(doc)
    pre = sorted(n["path"] for n in doc["nodes"] if n.get("preload"))
    check("deps %s: the preloaded objects are ld.so's" % path, pre == sorted(want.get("(preloaded)", [])),
          (pre, want.get("(preloaded)")))
    for name, target in want.items():
        if name.startswith("linux-vdso") or name == "(preloaded)":
            continue
        mine = got.get(name, "(absent)")
        check("deps %s: %s => %s" % (path, name, target), mine == target, "ours: %s" % mine)
    for name in got:
        if name not in want and not name.startswith("ld-linux") and got[name] not in pre:
            check("deps %s: %s is also in ld.so --list" % (path, name), False, got[name])
    return doc


def real_targets():
    t = ["/usr/bin/python3", "/bin/bash", "/usr/bin/cmake", "/usr/bin/gcc"]
    for d in ("/usr/local/cuda/lib", "/usr/local/cuda/lib64"):
        if os.path.isdir(d):
            for f in sorted(os.listdir(d)):
                if (f.startswith("libcudnn") or f.startswith("libcublas") or f.startswith("libnvrtc.so")) \
                        and ".so." in f and os.path.isfile(os.path.join(d, f)):
                    t.append(os.path.join(d, f))
            break
    return [x for x in t if os.path.exists(x)]


# ---- 3. libtree ---------------------------------------------------------------------

def libtree_edges(path):
    """(parent, [children]) pairs from `libtree -p -vvv`, by canonical path."""
    p = subprocess.run(["libtree", "-p", "-vvv", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=120, env=clean_env())
    lines = p.stdout.decode("utf-8", "replace").splitlines()
    stack = []
    children = {}
    done = set()  # parents whose first listing is complete: later listings repeat it
    for line in lines:
        if not line.strip():
            continue
        depth = 0
        rest = line
        while True:
            for pre in ("│   ", "    ", "├── ", "└── "):
                if rest.startswith(pre):
                    rest = rest[len(pre):]
                    depth += 1
                    break
            else:
                break
        text = rest.split(" [")[0].strip()
        if " not found" in rest:
            text = None
        node = os.path.realpath(text) if text else None
        for closed in stack[depth:]:
            if closed in children:
                done.add(closed)
        del stack[depth:]
        if depth > 0 and stack:
            parent = stack[-1]
            if parent not in done:
                children.setdefault(parent, []).append(node)
        stack.append(node)
    return children


def compare_libtree(path):
    if shutil.which("libtree") is None:
        return
    theirs = libtree_edges(path)
    rc, doc = cudnnctl(["deps", "--json", "--no-runtime", path])
    if doc is None:
        check("deps %s gives JSON" % path, False, rc)
        return
    nodes = doc["nodes"]
    compared = 0
    for n in nodes:
        if n.get("interpreter") or n.get("error"):
            continue
        parent = os.path.realpath(n["path"])
        mine = []
        for e in n["edges"]:
            if e["kind"] != "needed":
                continue
            if e["status"] in ("loaded", "already-loaded"):
                p2 = e.get("realpath") or nodes[e["node"]].get("realpath") or e.get("path")
                mine.append(os.path.realpath(p2))
            else:
                mine.append(None)
        if parent in theirs:
            # libtree prints a node's dependencies in its own order: compare the sets of files
            key = lambda x: x or ""
            check("libtree %s: the DT_NEEDED of %s resolve to the same files" % (path, parent),
                  sorted(mine, key=key) == sorted(theirs[parent], key=key),
                  "ours=%s libtree=%s" % (mine, theirs[parent]))
            compared += 1
    check("libtree %s: something compared" % path, compared > 0, compared)


# ---- 4. LD_DEBUG traces -------------------------------------------------------------

def gcc(args, cwd):
    subprocess.run(["gcc"] + args, cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE)


def make_lib(d, rel, soname, extra=()):
    os.makedirs(os.path.dirname(os.path.join(d, rel)) or d, exist_ok=True)
    src = os.path.join(d, "lib_%s.c" % soname.replace(".", "_"))
    with open(src, "w") as f:
        f.write("int f_%s(void){return 7;}\n" % soname.split(".")[0].replace("-", "_"))
    gcc(["-shared", "-fPIC", "-o", os.path.join(d, rel), "-Wl,-soname," + soname, src] + list(extra), d)


def elf32_stub(path):
    """A 32-bit i386 ET_DYN header: ld.so passes over it and goes on."""
    h = b"\x7fELF\x01\x01\x01\x00" + b"\0" * 8 + struct.pack("<HHIIIIIHHHHHH", 3, 3, 1, 0, 0, 0, 0, 52, 32, 0, 40, 0, 0)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(h + b"\0" * 600)


def ld_debug_trace(prog, name, env, cwd):
    e = dict(env)
    e["LD_DEBUG"] = "libs"
    p = subprocess.run([prog], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e, cwd=cwd, timeout=60)
    tried, found, active = [], None, False
    for line in p.stderr.decode("utf-8", "replace").splitlines():
        body = line.split(":", 1)[1].strip() if ":" in line else line.strip()
        if body.startswith("find library=%s " % name):
            active = True
            continue
        if not active:
            continue
        if body.startswith("find library="):
            break
        if body.startswith("trying file="):
            tried.append(body[len("trying file="):])
            found = tried[-1]
        elif body.startswith("calling init") or body.startswith("find library"):
            break
    return tried, p.returncode


def trace_case(label, d, prog, name, env_extra, expect_found, cwd=None):
    env = clean_env(env_extra)
    theirs, prc = ld_debug_trace(prog, name, env, cwd or d)
    sets = ["--set=%s=%s" % (k, v) for k, v in env_extra.items()]
    rc, doc = cudnnctl(["which", "--json", "--from", prog] + sets + [name], env=clean_env(), cwd=cwd or d)
    if doc is None:
        check("%s: which gives JSON" % label, False, rc)
        return
    r = doc["results"][0]
    mine = [t["path"] for t in r["tried"]]
    check("%s: the same places in the same order as ld.so" % label, mine == theirs,
          "\n  ours  =%s\n  ld.so =%s" % (mine, theirs))
    check("%s: found as ld.so finds it" % label,
          r["found"] == expect_found and (not expect_found or r["path"] == theirs[-1]),
          (r["found"], r.get("path"), theirs[-1:] if theirs else None))
    return r


def test_traces(tmp):
    d = os.path.join(tmp, "trace")
    os.makedirs(d)
    with open(os.path.join(d, "main.c"), "w") as f:
        f.write("int f_libfx(void); int main(void){return f_libfx()-7;}\n")
    # the library the programs need, in a directory the linker sees
    make_lib(d, "build/libfx.so.1", "libfx.so.1")

    def prog(out, *ld):
        gcc(["-o", out, "main.c", "-Lbuild", "-l:libfx.so.1"] + list(ld), d)
        return os.path.join(d, out)

    # RUNPATH with $ORIGIN, $LIB and $PLATFORM; LD_LIBRARY_PATH with an empty and a relative entry
    p1 = prog("p_runpath", "-Wl,--enable-new-dtags,-rpath,$ORIGIN/rp:/nonexistent/$LIB/$PLATFORM")
    make_lib(d, "rp/libfx.so.1", "libfx.so.1")
    trace_case("RUNPATH $ORIGIN/$LIB/$PLATFORM + LD_LIBRARY_PATH ''/relative", d, p1, "libfx.so.1",
               {"LD_LIBRARY_PATH": os.path.join(d, "llp") + "::rel"}, True)
    # RPATH (DT_RPATH comes before LD_LIBRARY_PATH)
    p2 = prog("p_rpath", "-Wl,--disable-new-dtags,-rpath,$ORIGIN/rpath_dir")
    make_lib(d, "rpath_dir/libfx.so.1", "libfx.so.1")
    make_lib(d, "llp2/libfx.so.1", "libfx.so.1")
    trace_case("DT_RPATH before LD_LIBRARY_PATH", d, p2, "libfx.so.1",
               {"LD_LIBRARY_PATH": os.path.join(d, "llp2")}, True)
    # LD_LIBRARY_PATH beats RUNPATH
    trace_case("LD_LIBRARY_PATH before DT_RUNPATH", d, p1, "libfx.so.1",
               {"LD_LIBRARY_PATH": os.path.join(d, "llp2")}, True)
    # a 32-bit copy first on LD_LIBRARY_PATH is passed over
    elf32_stub(os.path.join(d, "l32", "libfx.so.1"))
    r = trace_case("a 32-bit copy is passed over", d, p1, "libfx.so.1",
                   {"LD_LIBRARY_PATH": os.path.join(d, "l32") + ":" + os.path.join(d, "llp2")}, True)
    if r:
        check("the 32-bit copy is marked skipped", any(t["outcome"] == "skipped" and "/l32/" in t["path"]
                                                      for t in r["tried"]), r["tried"])
    # glibc-hwcaps subdirectory wins over the directory itself
    make_lib(d, "hw/libfx.so.1", "libfx.so.1")
    make_lib(d, "hw/glibc-hwcaps/x86-64-v2/libfx.so.1", "libfx.so.1")
    trace_case("glibc-hwcaps/x86-64-v2 before the directory", d, p1, "libfx.so.1",
               {"LD_LIBRARY_PATH": os.path.join(d, "hw")}, True)
    # not found anywhere: every place, then the cache and the default directories
    p3 = prog("p_plain")
    trace_case("not found: the whole search", d, p3, "libfx.so.1", {}, False)
    # DF_1_NODEFLIB: no cache, no default directories
    p4 = prog("p_nodeflib", "-Wl,-z,nodefaultlib")
    trace_case("DF_1_NODEFLIB skips the cache and defaults", d, p4, "libfx.so.1", {}, False)
    # RPATH inheritance: the program's DT_RPATH applies to its library's dependencies
    make_lib(d, "inh/libdep.so.1", "libdep.so.1")
    with open(os.path.join(d, "mid.c"), "w") as f:
        f.write("int f_libdep(void); int f_libmid(void){return f_libdep();}\n")
    os.makedirs(os.path.join(d, "inhb"), exist_ok=True)
    gcc(["-shared", "-fPIC", "-o", "inhb/libmid.so.1", "-Wl,-soname,libmid.so.1", "mid.c", "-Linh",
         "-l:libdep.so.1"], d)
    with open(os.path.join(d, "main2.c"), "w") as f:
        f.write("int f_libmid(void); int main(void){return f_libmid()-7;}\n")
    gcc(["-o", "p_inherit", "main2.c", "-Linhb", "-l:libmid.so.1", "-Wl,-rpath-link," + os.path.join(d, "inh"),
         "-Wl,--disable-new-dtags,-rpath,$ORIGIN/inhb:$ORIGIN/inh"], d)
    compare_ldd(os.path.join(d, "p_inherit"))
    # LD_PRELOAD: the preloaded copy answers to the name; ld.so does not search for it at all
    pre = os.path.join(d, "llp2", "libfx.so.1")
    theirs, _ = ld_debug_trace(p1, "libfx.so.1", clean_env({"LD_PRELOAD": pre}), d)
    rc, doc = cudnnctl(["which", "--json", "--from", p1, "--set=LD_PRELOAD=" + pre, "libfx.so.1"], cwd=d)
    r = doc["results"][0] if doc else {}
    check("LD_PRELOAD: ld.so does not search for the name", theirs == [], theirs)
    check("LD_PRELOAD: which answers with the preloaded copy and nothing else tried",
          r.get("found") and r.get("how") == "preload" and r.get("path") == pre and len(r.get("tried", [])) == 1,
          (r.get("how"), r.get("path"), r.get("tried")))
    compare_ldd(p1, env=clean_env({"LD_PRELOAD": pre}), extra=["--set=LD_PRELOAD=" + pre], cwd=d)
    # and each fixture program's whole tree agrees with ld.so --list
    for p, env in ((p1, {"LD_LIBRARY_PATH": os.path.join(d, "llp2")}), (p2, {}), (p3, {}), (p4, {})):
        sets = ["--set=%s=%s" % (k, v) for k, v in env.items()]
        compare_ldd(p, env=clean_env(env), extra=sets, cwd=d)


def main():
    global EXE
    EXE = os.path.abspath(sys.argv[1])
    for tool in ("ldconfig", "gcc"):
        if shutil.which(tool) is None:
            print("skipped: %s is not installed" % tool)
            return 77
    if not os.path.exists(LDSO) or not os.path.exists("/etc/ld.so.cache"):
        print("skipped: not a glibc x86-64 system")
        return 77
    test_cache()
    targets = real_targets()
    for t in targets:
        compare_ldd(t)
        compare_libtree(t)
    tmp = tempfile.mkdtemp(prefix="cc-loader-")
    try:
        test_traces(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d checks passed, %d failed (%d real programs and libraries)" % (PASSES, len(FAILS), len(targets)))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
