#!/usr/bin/env python3
"""Oracle: compare `cudnnctl inspect --json` with pefile on every PE fixture.

usage: pefile_oracle.py CUDNNCTL_EXE FIXTURES_DIR

For every file under FIXTURES_DIR/pe that is a PE image (by content, not by
name), run `CUDNNCTL_EXE inspect --json FILE` and compare results[0]["pe"] with
what pefile reads: machine code and name, DLL flag, PE32+, imported and
delay-imported DLL names (in order), the export directory's DLL name, exported
names (in order), the count of ordinal-only exports, the fixed FileVersion and
ProductVersion ("a.b.c.d"), file flags/OS/type/subtype, every StringFileInfo
(table, key, value) triple in file order, and the VarFileInfo translations.

Prints one line per file and "N files checked, M mismatches". Exit status: 0
when all agree, 1 on any mismatch (or no PE file found), 77 when pefile cannot
be imported (CTest's SKIP_RETURN_CODE).
"""

import json
import os
import re
import struct
import subprocess
import sys

try:
    import pefile
except ImportError:
    # The python3 on PATH may not be the system one that python3-pefile is
    # installed for (pyenv, venvs): try the system interpreter once.
    ALT = "/usr/bin/python3"
    if (os.environ.get("PEFILE_ORACLE_REEXEC") is None and os.path.exists(ALT)
            and os.path.realpath(sys.executable) != os.path.realpath(ALT)):
        os.environ["PEFILE_ORACLE_REEXEC"] = "1"
        os.execv(ALT, [ALT] + sys.argv)
    print("pefile cannot be imported (install python3-pefile); skipping")
    sys.exit(77)

MACHINES = {0x14C: "x86", 0x8664: "x64", 0xAA64: "arm64", 0x1C4: "arm"}

_PAIR = re.compile(r"\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})")
_LONE = re.compile(r"\\u(d[89a-f][0-9a-f]{2})")


def text(b):
    """pefile bytes -> str as cudnnctl prints it. pefile decodes UTF-16 code
    unit by unit and escapes surrogates as backslash-u text: join pairs and
    turn unpaired surrogates into U+FFFD, as the C reader does."""
    if b is None:
        return None
    if isinstance(b, bytes):
        s = b.decode("utf-8", "replace")
    else:
        s = str(b)

    def pair(m):
        hi, lo = int(m.group(1), 16), int(m.group(2), 16)
        return chr(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))

    s = _PAIR.sub(pair, s)
    return _LONE.sub("\ufffd", s)


def dotted(ms, ls):
    return "%d.%d.%d.%d" % (ms >> 16, ms & 0xFFFF, ls >> 16, ls & 0xFFFF)


def is_pe(path):
    try:
        with open(path, "rb") as f:
            head = f.read(64)
            if len(head) < 64 or head[:2] != b"MZ":
                return False
            lfanew = struct.unpack_from("<I", head, 0x3C)[0]
            f.seek(lfanew)
            return f.read(4) == b"PE\0\0"
    except OSError:
        return False


def translations(pe, data):
    """VarFileInfo\\Translation pairs, read from the raw Var value (pefile's
    Var.entry keeps only the last pair)."""
    out = []
    for fileinfo in getattr(pe, "FileInfo", [[]])[:1]:
        for fi in fileinfo:
            for var in getattr(fi, "Var", []):
                if b"Translation" not in var.entry:
                    continue
                off = var.get_file_offset() + 6 + 2 * (len("Translation") + 1)
                off = (off + 3) & ~3
                n = min(var.ValueLength, max(0, len(data) - off)) // 4
                for i in range(n):
                    lang, cp = struct.unpack_from("<HH", data, off + 4 * i)
                    out.append({"language": lang, "codepage": cp})
    return out


def expected(path):
    with open(path, "rb") as f:
        data = f.read()
    pe = pefile.PE(data=data)
    fh = pe.FILE_HEADER
    exp = {
        "machine": MACHINES.get(fh.Machine),
        "machine_code": fh.Machine,
        "type": "dll" if fh.Characteristics & 0x2000 else "exe",
        "pe32plus": pe.OPTIONAL_HEADER.Magic == 0x20B,
        "imports": [text(d.dll) for d in getattr(pe, "DIRECTORY_ENTRY_IMPORT", [])],
        "delay_imports": [text(d.dll) for d in getattr(pe, "DIRECTORY_ENTRY_DELAY_IMPORT", [])],
    }
    ex = getattr(pe, "DIRECTORY_ENTRY_EXPORT", None)
    exp["export_name"] = text(ex.name) if ex is not None and ex.name else None
    syms = ex.symbols if ex is not None else []
    exp["exports"] = [text(s.name) for s in syms if s.name is not None]
    exp["exports_by_ordinal_only"] = sum(1 for s in syms if s.name is None)

    strings = []
    for fileinfo in getattr(pe, "FileInfo", [[]])[:1]:
        for fi in fileinfo:
            for st in getattr(fi, "StringTable", []):
                for k, v in st.entries.items():
                    strings.append({"table": text(st.LangID), "key": text(k), "value": text(v)})
    fixed = getattr(pe, "VS_FIXEDFILEINFO", [])
    if not fixed and not strings:
        exp["version_info"] = None
    else:
        vi = {}
        if fixed:
            f0 = fixed[0]
            vi["file_version"] = dotted(f0.FileVersionMS, f0.FileVersionLS)
            vi["product_version"] = dotted(f0.ProductVersionMS, f0.ProductVersionLS)
            vi["file_flags"] = f0.FileFlags
            vi["file_os"] = f0.FileOS
            vi["file_type"] = f0.FileType
            vi["file_subtype"] = f0.FileSubtype
        vi["strings"] = strings
        vi["translations"] = translations(pe, data)
        exp["version_info"] = vi
    pe.close()
    return exp


def actual(exe, path):
    p = subprocess.run([exe, "inspect", "--json", "--symbols", path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    try:
        doc = json.loads(p.stdout.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise RuntimeError("exit %d, output is not JSON (%s): %s" %
                           (p.returncode, e, p.stderr.decode("utf-8", "replace").strip()[:200]))
    if doc.get("schema_version") != 2:
        raise RuntimeError("schema_version is %r" % (doc.get("schema_version"),))
    res = doc.get("results") or []
    if not res or res[0].get("kind") != "pe" or not isinstance(res[0].get("pe"), dict):
        raise RuntimeError("results[0] is not a \"pe\" result: %s" % json.dumps(res[:1])[:200])
    return res[0]["pe"]


def dump(v):
    return json.dumps(v, ensure_ascii=False)


def diff_value(name, got, want, diffs):
    """Append what differs between got (cudnnctl) and want (pefile)."""
    if got == want:
        return
    if isinstance(got, dict) and isinstance(want, dict):
        for k in want:
            diff_value("%s.%s" % (name, k), got.get(k, "<missing>"), want[k], diffs)
        return
    if isinstance(got, list) and isinstance(want, list):
        for i, (g, w) in enumerate(zip(got, want)):
            if g != w:
                diffs.append("%s[%d]: cudnnctl %s, pefile %s" % (name, i, dump(g), dump(w)))
                break
        if len(got) != len(want):
            diffs.append("%s: cudnnctl has %d entries, pefile %d" % (name, len(got), len(want)))
        return
    diffs.append("%s: cudnnctl %s, pefile %s" % (name, dump(got), dump(want)))


def compare(exp, act):
    diffs = []
    for key, want in exp.items():
        diff_value(key, act.get(key, "<missing>"), want, diffs)
    return diffs


def main(argv):
    if len(argv) != 3:
        print("usage: pefile_oracle.py CUDNNCTL_EXE FIXTURES_DIR", file=sys.stderr)
        return 2
    exe, fixtures = argv[1], argv[2]
    root = os.path.join(fixtures, "pe")
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if is_pe(path):
                files.append(path)
    checked = mismatches = 0
    for path in files:
        rel = os.path.relpath(path, fixtures)
        checked += 1
        try:
            exp = expected(path)
        except pefile.PEFormatError as e:
            # pefile refuses it: nothing to compare against.
            print("skip %s (pefile: %s)" % (rel, e))
            checked -= 1
            continue
        try:
            diffs = compare(exp, actual(exe, path))
        except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
            diffs = [str(e)]
        if diffs:
            mismatches += 1
            print("FAIL %s" % rel)
            for d in diffs:
                print("     %s" % d)
        else:
            print("ok   %s" % rel)
    print("%d files checked, %d mismatches" % (checked, mismatches))
    if checked == 0:
        print("no PE files found under %s" % root)
        return 1
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
