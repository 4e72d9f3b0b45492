#!/usr/bin/env python3
"""Compare what `cudnnctl inspect --json` says about ELF files with readelf.

usage: readelf_oracle.py CUDNNCTL_EXE FIXTURES_DIR

For every ELF file (found by its magic; symlinks resolved and de-duplicated)
under /usr/local/cuda/lib, /usr/local/cuda/lib64 (when they exist) and
FIXTURES_DIR/elf: SONAME, the DT_NEEDED list in order, RPATH, RUNPATH, the
class and the byte order must equal what `readelf -h -d -W` prints. For the
small fixture files the defined exported dynamic symbols (global or weak,
default or protected visibility) must equal `readelf --dyn-syms -W`.

Prints one line per file and "N files checked, M mismatches". Exit status 0
when all agree, 1 on any mismatch or failure, 77 (skip) if readelf is missing.
Python 3 standard library only.
"""
import json
import os
import re
import shutil
import subprocess
import sys

SYSTEM_DIRS = ["/usr/local/cuda/lib", "/usr/local/cuda/lib64"]
EXPORTS_MAX_SIZE = 1 << 20  # compare exported symbols for fixture files up to 1 MiB
TIMEOUT = 300


def is_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def find_files(fixtures):
    """[(path, compare_exports)] in a stable order, de-duplicated by real path."""
    roots = [(d, False) for d in SYSTEM_DIRS if os.path.isdir(d)]
    roots.append((os.path.join(fixtures, "elf"), True))
    seen = set()
    out = []
    for root, small in roots:
        if not os.path.isdir(root):
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                real = os.path.realpath(path)
                if real in seen or not os.path.isfile(real) or not is_elf(real):
                    continue
                seen.add(real)
                exports = small and os.path.getsize(real) <= EXPORTS_MAX_SIZE
                out.append((real, exports))
    return out


def run(cmd):
    env = dict(os.environ, LC_ALL="C")
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=TIMEOUT)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


BRACKET = re.compile(r"\[(.*)\]\s*$")


def readelf_facts(path):
    rc, out, err = run(["readelf", "-h", "-d", "-W", path])
    if rc != 0:
        raise RuntimeError("readelf -h -d failed: %s" % err.strip())
    facts = {"soname": None, "needed": [], "rpath": None, "runpath": None, "class": None, "endian": None}
    for line in out.splitlines():
        s = line.strip()
        if s.startswith("Class:"):
            facts["class"] = {"ELF32": 32, "ELF64": 64}.get(s.split(":", 1)[1].strip())
        elif s.startswith("Data:"):
            v = s.split(":", 1)[1]
            facts["endian"] = "little" if "little endian" in v else "big" if "big endian" in v else None
        m = BRACKET.search(s)
        if not m:
            continue
        if "(NEEDED)" in s:
            facts["needed"].append(m.group(1))
        elif "(SONAME)" in s and facts["soname"] is None:
            facts["soname"] = m.group(1)
        elif "(RPATH)" in s and facts["rpath"] is None:
            facts["rpath"] = m.group(1)
        elif "(RUNPATH)" in s and facts["runpath"] is None:
            facts["runpath"] = m.group(1)
    return facts


SYM_LINE = re.compile(r"^\s*\d+:\s+[0-9a-fA-F]+\s+")


def readelf_exports(path):
    """Defined global/weak default/protected dynamic symbol names, or None if
    readelf shows no dynamic symbol table."""
    rc, out, err = run(["readelf", "--dyn-syms", "-W", path])
    if rc != 0:
        raise RuntimeError("readelf --dyn-syms failed: %s" % err.strip())
    names = set()
    saw_table = False
    for line in out.splitlines():
        if line.startswith("Symbol table"):
            saw_table = True
            continue
        if not SYM_LINE.match(line):
            continue
        f = line.split()
        # Num: Value Size Type Bind Vis Ndx Name [(version)]
        if len(f) < 8:
            continue
        bind, vis, ndx, name = f[4], f[5], f[6], f[7]
        if ndx == "UND" or bind not in ("GLOBAL", "WEAK") or vis not in ("DEFAULT", "PROTECTED"):
            continue
        name = name.split("@", 1)[0]
        if name:
            names.add(name)
    return names if saw_table else None


def cli_facts(exe, path):
    rc, out, err = run([exe, "inspect", "--json", "--symbols", path])
    try:
        doc = json.loads(out)
    except ValueError:
        raise RuntimeError("exit %d, output is not JSON: %s" % (rc, (err or out).strip()[:200]))
    if doc.get("schema_version") != 2:
        raise RuntimeError("schema_version is %r, expected 2" % doc.get("schema_version"))
    results = doc.get("results") or []
    if not results:
        raise RuntimeError("no results (exit %d): %s" % (rc, err.strip()[:200]))
    r = results[0]
    if r.get("kind") != "elf":
        raise RuntimeError("kind is %r, expected \"elf\"" % r.get("kind"))
    elf = r.get("elf")
    if not isinstance(elf, dict):
        raise RuntimeError("no \"elf\" object (error: %r)" % r.get("error"))
    return elf


def short(v):
    s = json.dumps(v)
    return s if len(s) <= 200 else s[:200] + "..."


def check(exe, path, compare_exports):
    """A list of mismatch descriptions (empty when all agree)."""
    problems = []
    ours = cli_facts(exe, path)
    theirs = readelf_facts(path)
    for key in ("soname", "needed", "rpath", "runpath", "class", "endian"):
        if key not in ours:
            problems.append("%s: missing from the JSON" % key)
        elif ours[key] != theirs[key]:
            problems.append("%s: cudnnctl %s, readelf %s" % (key, short(ours[key]), short(theirs[key])))
    if compare_exports:
        want = readelf_exports(path)
        if want is not None:
            got = ours.get("exports")
            if not isinstance(got, list):
                problems.append("exports: missing from the JSON")
            else:
                got_set = set(got)
                if got_set != want:
                    problems.append("exports: only cudnnctl %s, only readelf %s"
                                    % (short(sorted(got_set - want)), short(sorted(want - got_set))))
    return problems


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: readelf_oracle.py CUDNNCTL_EXE FIXTURES_DIR\n")
        return 2
    exe, fixtures = argv[1], argv[2]
    if shutil.which("readelf") is None:
        print("readelf not found: skipped")
        return 77
    if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
        print("cudnnctl executable not found: %s" % exe)
        return 1
    files = find_files(fixtures)
    if not files:
        print("no ELF files found under %s or %s" % (os.path.join(fixtures, "elf"), " ".join(SYSTEM_DIRS)))
        return 1
    mismatches = 0
    for path, exports in files:
        try:
            problems = check(exe, path, exports)
        except (RuntimeError, subprocess.TimeoutExpired, OSError) as ex:
            problems = ["error: %s" % ex]
        if problems:
            mismatches += 1
            print("MISMATCH %s: %s" % (path, "; ".join(problems)))
        else:
            print("ok %s%s" % (path, " (+exports)" if exports else ""))
    print("%d files checked, %d mismatches" % (len(files), mismatches))
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
