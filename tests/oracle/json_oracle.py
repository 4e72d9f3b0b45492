#!/usr/bin/env python3
"""Oracle: cudnnctl's JSON reader (through tests/oracle/json_roundtrip.c)
against python3's json module.

1. A few hundred random JSON documents (fixed seed: the same every run):
   the reader must accept each, and what it writes back must load in python
   to the same value as the document (same types, same numbers bit for bit,
   same key order, duplicates merged as python's dict does).
2. Invalid samples: the reader and a strict python parse must both refuse.
3. Mutations of the random documents (a byte deleted, inserted or replaced):
   the reader and strict python must agree on accept/refuse, and on the
   value when both accept.

"Strict python" is json.loads on text decoded as strict UTF-8, with
NaN/Infinity refused, plus the documented limits of the reader: a number
that overflows a double, a lone surrogate escape, an object key holding
U+0000 and nesting deeper than 64 levels are refused by the reader (python
accepts them).

Usage: json_oracle.py JSON_ROUNDTRIP_EXE
"""
import json
import math
import random
import subprocess
import sys

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
MAX_DEPTH = 64


class Refused(Exception):
    pass


def _no_constant(name):
    raise Refused("constant " + name)


def _pairs(pairs):
    return ("obj", pairs)


def check_strict(v, depth=0):
    """Apply the reader's documented limits to a value python accepted."""
    if isinstance(v, (list, tuple)) and depth >= MAX_DEPTH:
        raise Refused("nested deeper than %d levels" % MAX_DEPTH)
    if isinstance(v, float) and not math.isfinite(v):
        raise Refused("number overflows a double")
    if isinstance(v, str):
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:
            raise Refused("lone surrogate")
    if isinstance(v, tuple):  # ("obj", pairs)
        for k, x in v[1]:
            check_strict(k)
            if "\0" in k:
                raise Refused("U+0000 in a key")
            check_strict(x, depth + 1)
    if isinstance(v, list):
        for x in v:
            check_strict(x, depth + 1)


def strict_load(data):
    """Python's value (objects as ("obj", pairs)) or Refused."""
    try:
        text = data.decode("utf-8")
        v = json.loads(text, parse_constant=_no_constant, object_pairs_hook=_pairs)
    except (ValueError, RecursionError) as e:  # JSONDecodeError, UnicodeDecodeError
        raise Refused(str(e))
    check_strict(v)
    return v


def merged(v):
    """Objects as lists of (key, value) with duplicates merged like a dict:
    the first position keeps the last value."""
    if isinstance(v, tuple):
        d = {}
        for k, x in v[1]:
            d[k] = merged(x)
        return ("obj", list(d.items()))
    if isinstance(v, list):
        return [merged(x) for x in v]
    return v


def same(expect, got, path="$"):
    """None if equal, else where and how they differ. expect: python's parse
    of the input (merged); got: python's parse of the reader's output."""
    if isinstance(expect, bool) or expect is None:
        return None if expect is got else f"{path}: {expect!r} != {got!r}"
    if isinstance(expect, int):
        if INT64_MIN <= expect <= INT64_MAX:
            ok = type(got) is int and got == expect
        else:  # out of int64: a double, correctly rounded
            ok = type(got) is float and got == float(expect)
        return None if ok else f"{path}: {expect!r} != {got!r}"
    if isinstance(expect, float):
        ok = type(got) is float and got == expect and math.copysign(1, got) == math.copysign(1, expect)
        return None if ok else f"{path}: {expect!r} != {got!r}"
    if isinstance(expect, str):
        return None if expect == got else f"{path}: {expect!r} != {got!r}"
    if isinstance(expect, list):
        if not isinstance(got, list) or len(got) != len(expect):
            return f"{path}: array {expect!r} != {got!r}"
        for i, (a, b) in enumerate(zip(expect, got)):
            r = same(a, b, f"{path}[{i}]")
            if r:
                return r
        return None
    if isinstance(expect, tuple):
        if not isinstance(got, tuple) or len(got[1]) != len(expect[1]):
            return f"{path}: object {expect!r} != {got!r}"
        for (ka, a), (kb, b) in zip(expect[1], got[1]):
            if ka != kb:
                return f"{path}: key {ka!r} != {kb!r} (order)"
            r = same(a, b, f"{path}.{ka}")
            if r:
                return r
        return None
    return f"{path}: unexpected {expect!r}"


class Helper:
    """One json_roundtrip --batch process for the whole run (a process per
    input costs minutes under AddressSanitizer); the single-input mode is
    checked once against it in main()."""

    def __init__(self, exe):
        self.p = subprocess.Popen([exe, "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def ask(self, data):
        self.p.stdin.write(b"%d\n" % len(data) + data)
        self.p.stdin.flush()
        head = self.p.stdout.readline().split()
        if len(head) != 3:
            self.p.kill()
            raise SystemExit(f"FAIL: helper stopped (exit {self.p.wait()}) on {data[:200]!r}")
        rc, nout, nerr = (int(x) for x in head)
        out, err = self.p.stdout.read(nout), self.p.stdout.read(nerr)
        return rc, out, err.decode("utf-8", "replace").strip()

    def close(self):
        self.p.stdin.close()
        if self.p.wait(timeout=60) != 0:
            raise SystemExit(f"FAIL: helper exited {self.p.returncode}")


HELPER = None


def run(exe, data):
    return HELPER.ask(data)


def run_single(exe, data):
    p = subprocess.run([exe], input=data, capture_output=True, timeout=60)
    if p.returncode not in (0, 1):
        raise SystemExit(f"FAIL: helper exited {p.returncode} on {data[:200]!r}: {p.stderr.decode(errors='replace')}")
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace").strip()


# ---- random documents -----------------------------------------------------

ALPHABET = (
    ["a", "b", "z", "K", "0", " ", "_", "-", ".", "/", "\\", '"', "\n", "\t", "\r", "\b", "\f", "\x01", "\x1f",
     "\x7f", "é", "ß", "€", "中", "\u2028", "\ufeff", "\uffff", "😀", "\U0010ffff", "\U00010000"])


def rand_str(r):
    return "".join(r.choice(ALPHABET) for _ in range(r.randint(0, 12)))


def rand_number(r):
    k = r.randint(0, 9)
    if k == 0:
        return r.randint(-10, 10)
    if k == 1:
        return r.choice([INT64_MAX, INT64_MIN, INT64_MAX + 1, INT64_MIN - 1, 2**64, -(2**70), 10**30])
    if k == 2:
        return r.randint(INT64_MIN, INT64_MAX)
    if k == 3:
        return r.choice([0.1, 1e-300, 5e-324, 1.7976931348623157e308, -0.0, 0.0, 2.0, 1e20, 1e-7, 123456.0,
                         2.2250738585072014e-308, 9007199254740993.0, 0.30000000000000004])
    if k == 4:
        return r.uniform(-1e6, 1e6)
    if k == 5:
        return r.random() * 10 ** r.randint(-320, 308)
    if k == 6:
        return -r.random() * 10 ** r.randint(-20, 20)
    if k == 7:
        return float(r.randint(-(2**53), 2**53))
    if k == 8:
        return r.randint(-(10**6), 10**6) / 1000
    return r.getrandbits(64) * (1 if r.random() < 0.5 else -1)


def rand_value(r, depth):
    k = r.randint(0, 9 if depth < 6 else 5)
    if k == 0:
        return None
    if k == 1:
        return r.random() < 0.5
    if k in (2, 3):
        return rand_number(r)
    if k in (4, 5):
        return rand_str(r)
    if k in (6, 7):
        return [rand_value(r, depth + 1) for _ in range(r.randint(0, 5))]
    return {rand_str(r)[:4]: rand_value(r, depth + 1) for _ in range(r.randint(0, 6))}


def ws(r):
    return r.choice(["", "", "", " ", "\n", "\t", "\r\n  "])


def dump(r, v):
    """Serialize with random white space, escapes and number spellings."""
    if isinstance(v, dict):
        if not v:
            return "{" + ws(r) + "}"
        items = [ws(r) + dump(r, k) + ws(r) + ":" + ws(r) + dump(r, x) + ws(r) for k, x in v.items()]
        if r.random() < 0.2:  # a duplicate key: the last value wins
            k = r.choice(list(v))
            items.append(dump(r, k) + ":" + dump(r, rand_value(r, 5)))
        return "{" + ",".join(items) + "}"
    if isinstance(v, list):
        if not v:
            return "[" + ws(r) + "]"
        return "[" + ",".join(ws(r) + dump(r, x) + ws(r) for x in v) + "]"
    if isinstance(v, str):
        if r.random() < 0.5:
            return json.dumps(v, ensure_ascii=r.random() < 0.5)
        out = []
        for ch in v:  # some escapes of every kind
            c = ord(ch)
            if ch in "\"\\" or c < 0x20 or (r.random() < 0.1 and c < 0x10000):
                out.append(r.choice(["\\u%04x", "\\u%04X"]) % c if ch not in "\"\\" else "\\" + ch)
            elif c >= 0x10000 and r.random() < 0.3:
                c -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 + (c >> 10), 0xDC00 + (c & 0x3FF)))
            elif ch == "/" and r.random() < 0.5:
                out.append("\\/")
            else:
                out.append(ch)
        return '"' + "".join(out) + '"'
    if isinstance(v, float):
        s = repr(v)
        if r.random() < 0.3 and "e" not in s:
            s = "%.17e" % v
            s = s.replace("e", r.choice(["e", "E"]))
        return s
    return json.dumps(v)


INVALID = [
    b"", b" ", b"{", b"[", b"]", b"}", b"[1,]", b'{"a":1,}', b"[,1]", b"{,}", b'{"a" 1}', b'{"a":}', b"{1:2}",
    b"{'a':1}", b"[1 2]", b"01", b"-01", b"00", b"1.", b".5", b"-", b"+1", b"1e", b"1e+", b"0x10", b"NaN",
    b"Infinity", b"-Infinity", b"nan", b"tru", b"truee", b"nul", b"True", b"[true false]", b'"abc', b'"\\x"',
    b'"\\u12"', b'"\\u12G4"', b'"\\ud800"', b'"\\udc00"', b'"\\ud800\\u0041"', b'"\\ud800x"', b'"a\x01b"',
    b'"a\nb"', b'"\xff"', b'"\xc0\xaf"', b'"\xed\xa0\x80"', b'"\xf4\x90\x80\x80"',
    b'"\xe2\x82"', b"\xef\xbb\xbf[]", b"[] []", b"[]x", b"/* c */ []", b"[] // c", b"[1]\x00", b"\x00",
    b"1e400", b"-1e400", b'{"a\\u0000b":1}', b"[" * 65 + b"]" * 65, b"\x0b[]", b"\xa0[]", b"[1,,2]",
    b'{"a":1 "b":2}', b"[\"\\\"]", b"'a'",
]
# not refused by either: a document that python accepts too (sanity for INVALID's handling)
VALID_EDGE = [
    b"[" * 64 + b"]" * 64, b"0", b"-0", b"-0.0", b"1E2", b"1e-2", b"[1e+2]", b'"\\u0000"', b'"\\ud83d\\ude00"',
    b'"\\/"', b" \t\r\n[ ] ", b'{"":""}', b'{"a":1,"a":2}', b"9223372036854775807", b"-9223372036854775808",
    b"9223372036854775808", b"1e-400", b"[5e-324]", b'"\xf4\x8f\xbf\xbf"', b'"\x7f"',
]


STATS = {"accepted": 0, "refused": 0}


def compare(exe, data, label, failures):
    try:
        expect = merged(strict_load(data))
        py_err = None
    except Refused as e:
        expect, py_err = None, str(e)
    rc, out, err = run(exe, data)
    STATS["accepted" if rc == 0 else "refused"] += 1
    if py_err is not None:
        if rc == 0:
            failures.append(f"{label}: reader accepted what python refuses ({py_err}): {data[:120]!r}")
        elif " at byte " not in err or not err.startswith("JSON: "):
            failures.append(f"{label}: error without an offset: {err!r}")
        return
    if rc != 0:
        failures.append(f"{label}: reader refused ({err}) what python accepts: {data[:120]!r}")
        return
    try:
        got = json.loads(out.decode("utf-8"), object_pairs_hook=_pairs)
    except ValueError as e:
        failures.append(f"{label}: output is not JSON ({e}): {out[:120]!r}")
        return
    diff = same(expect, got)
    if diff:
        failures.append(f"{label}: {diff}\n  input:  {data[:200]!r}\n  output: {out[:200]!r}")


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    exe = sys.argv[1]
    global HELPER
    HELPER = Helper(exe)
    r = random.Random(20240611)
    failures = []
    docs = []
    for i in range(300):
        v = rand_value(r, 0)
        if not isinstance(v, (list, dict)):
            v = [v]
        docs.append((ws(r) + dump(r, v) + ws(r)).encode("utf-8"))
    for i, d in enumerate(docs):
        try:
            strict_load(d)
        except Refused as e:
            failures.append(f"generator made an invalid document {i} ({e}): {d[:200]!r}")
            continue
        compare(exe, d, f"doc {i}", failures)
    for i, d in enumerate(INVALID):
        try:
            strict_load(d)
            failures.append(f"invalid sample {i} is accepted by strict python: {d!r}")
        except Refused:
            pass
        rc, _, err = run(exe, d)
        if rc == 0:
            failures.append(f"invalid sample {i} accepted by the reader: {d!r}")
        elif not err.startswith("JSON: ") or " at byte " not in err:
            failures.append(f"invalid sample {i}: error without an offset: {err!r}")
    for i, d in enumerate(VALID_EDGE):
        compare(exe, d, f"edge {i}", failures)
    nmut = 0
    for i in range(1500):
        d = bytearray(r.choice(docs))
        if not d:
            continue
        pos = r.randrange(len(d))
        op = r.randint(0, 2)
        byte = r.choice(b'{}[],:"\\-+.eE0159 \tntfu\x00\x1f\x80\xc3\xed\xff')
        if op == 0:
            del d[pos]
        elif op == 1:
            d.insert(pos, byte)
        else:
            d[pos] = byte
        compare(exe, bytes(d), f"mutation {i}", failures)
        nmut += 1
    # The single-input mode (what the helper's own contract promises) answers
    # as the batch did, on a few accepted and refused inputs.
    for d in docs[:5] + INVALID[:5]:
        if run_single(exe, d) != run(exe, d):
            failures.append(f"single and batch answers differ on {d[:120]!r}")
    HELPER.close()
    for f in failures[:30]:
        print("FAIL", f)
    print(f"{len(docs)} documents, {len(INVALID)} invalid samples, {len(VALID_EDGE)} edge cases, "
          f"{nmut} mutations ({STATS['accepted']} inputs accepted and {STATS['refused']} refused by both): "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
