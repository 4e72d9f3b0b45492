#!/usr/bin/env python3
"""inspect over hostile archives built as the extraction would see them
(tests/fixtures/hostile_archives.py): every member must get exactly the
problems the generator's own model of the extraction gives it, with a reason
that names the systems when only Windows or macOS would merge or follow the
names, and no install_to when it is unsafe. Then archives whose members
declare gigabytes in kilobytes: the listing stops at the bound on the bytes
decompressed, says so, and takes well under a second of work.

usage: test_archive_hostile.py --exe CUDNNCTL --fixtures DIR
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

CHECKS = cliutil.Checks(limit=600)
check = CHECKS.named
TYPES = {"f": "file", "d": "dir", "l": "symlink", "h": "hardlink", "c": "chardev", "b": "blockdev", "p": "fifo",
         "s": "socket"}
SYSTEMS = {("windows",): "(on Windows)", ("macos",): "(on macOS)", ("windows", "macos"): "(on Windows and macOS)"}


def inspect(exe, paths):
    r = exe.run(["inspect", "--json"] + paths, timeout=600)
    doc, why = cliutil.parse_json(r.out)
    if doc is None:
        check("inspect --json parses (%d archives)" % len(paths), False, "%s: %r %r" % (why, r.out[:200], r.err[:300]))
        return [], r
    return doc.get("results", []), r


def compare(case, result):
    """The differences between what the generator expects and what inspect said."""
    bad = []
    a = result.get("archive") or {}
    members = a.get("members") or []
    if result.get("error"):
        bad.append("error: %s" % result["error"])
    if len(members) != len(case["members"]):
        return bad + ["%d members listed, %d in the archive" % (len(members), len(case["members"]))]
    unsafe = {u.get("entry"): u for u in a.get("unsafe_paths") or []}
    for i, (want, got) in enumerate(zip(case["members"], members)):
        label = "entry %d %r" % (i + 1, want["path"])
        shown = want["path"].encode("utf-8", "surrogateescape").decode("utf-8", "replace")  # as JSON shows it
        if got.get("path", "").rstrip("/") != shown.rstrip("/"):
            bad.append("%s: listed as %r" % (label, got.get("path")))
            continue
        if got.get("type") != TYPES[want["type"]]:
            bad.append("%s: type %s, want %s" % (label, got.get("type"), TYPES[want["type"]]))
        u = unsafe.get(i + 1)
        problems = u.get("problems") if u else []
        if problems != want["problems"]:
            bad.append("%s: problems %s, want %s (%s)" % (label, problems, want["problems"],
                                                         u.get("reason") if u else "safe"))
            continue
        if u is None:
            continue
        reason = u.get("reason") or ""
        if u.get("path") != got.get("path") or not reason or "\n" in reason:
            bad.append("%s: unsafe entry %r" % (label, u))
        if got.get("install_to") is not None:
            bad.append("%s: unsafe but installs to %s" % (label, got.get("install_to")))
        for p, systems in want["not_on_linux"].items():
            tag = SYSTEMS[tuple(systems)]
            if tag not in reason:
                bad.append("%s: %s only %s, the reason does not say so: %s" % (label, p, tag, reason))
    return bad


def test_model(exe, fixtures):
    d = os.path.join(fixtures, "archives", "model")
    with open(os.path.join(d, "manifest.json")) as f:
        manifest = json.load(f)
    check("the generator made the hand-made and the random archives", len(manifest) >= 300, len(manifest))
    failures = {}
    for k in range(0, len(manifest), 100):
        batch = manifest[k:k + 100]
        results, r = inspect(exe, [os.path.join(d, c["archive"]) for c in batch])
        if len(results) != len(batch):
            check("one result per archive", False, (len(results), len(batch), r.err_text[:300]))
            return
        for case, result in zip(batch, results):
            bad = compare(case, result)
            if bad:
                failures[case["archive"]] = bad
    hand = [c["archive"] for c in manifest if not c["archive"].startswith("random-")]
    for name in hand:
        check("hand-made %s: every member judged as the extraction sees it" % name, name not in failures,
              failures.get(name))
    rnd = [c["archive"] for c in manifest if c["archive"].startswith("random-")]
    bad = [n for n in rnd if n in failures]
    check("%d random archives: every member judged as the extraction sees it" % len(rnd), not bad,
          {n: failures[n] for n in bad[:5]})
    unsafe = sum(1 for c in manifest for m in c["members"] if m["problems"])
    kinds = sorted({p for c in manifest for m in c["members"] for p in m["problems"]})
    check("the archives cover every kind of problem but the bounds (%d unsafe members)" % unsafe,
          set(kinds) >= {"name", "absolute", "dotdot", "escape", "through-symlink", "symlink-escape",
                         "symlink-loop", "hardlink", "special", "mode", "duplicate", "case-collision",
                         "conflict"}, kinds)


def test_text(exe, fixtures):
    p = os.path.join(fixtures, "archives", "model", "through-abs-link.tar.gz")
    r = exe.run(["inspect", p])
    out = r.out_text
    check("text: the member written through the link is UNSAFE, naming the link",
          r.rc == 0 and "UNSAFE" in out and "cuda/lib64/cron.d/evil (written through the symbolic link entry 1 "
          "\"cuda/lib64\" (-> \"/etc\"): it lands outside the target)" in out, out)


def test_bombs(exe, fixtures):
    d = os.path.join(fixtures, "archives", "bombs")
    for comp in ("bz2", "gz", "xz"):
        p = os.path.join(d, "zeros-1g.tar.%s" % comp)
        results, r = inspect(exe, [p])
        a = (results[0].get("archive") or {}) if results else {}
        reason = a.get("truncated_reason") or ""
        check("1 GiB of zeros in %d bytes of %s: the listing stops before decompressing it"
              % (os.path.getsize(p), comp),
              r.rc == 0 and a.get("truncated") is True and a.get("entries") == 1 and "limit reached" in reason
              and "libcudnn_zeros.so.9, 1 GiB" in reason and 0 < a.get("decompressed", 0) < 256 << 20,
              (r.rc, a.get("entries"), a.get("truncated"), reason, a.get("decompressed")))
        check("%s: and it takes well under the seconds decompressing 1 GiB would (%.2f s)" % (comp, r.wall),
              r.wall < 10, r.wall)
    r = exe.run(["inspect", os.path.join(d, "zeros-1g.tar.bz2")])
    check("text: the listing says where it stopped and why",
          r.rc == 0 and "incomplete limit reached: the listing stops after entry 1 (top/lib/libcudnn_zeros.so.9, "
          "1 GiB)" in r.out_text, r.out_text)
    p = os.path.join(d, "zeros-128m.tar.bz2")
    results, r = inspect(exe, [p])
    res = results[0] if results else {}
    a = res.get("archive") or {}
    check("128 MiB of zeros (under the 256 MiB bound): listed whole, the header after it read",
          a.get("truncated") is False and a.get("entries") == 2 and a.get("decompressed", 0) > 128 << 20
          and any(v.get("source") == "header" and v.get("version") == "9.1.0" for v in res.get("versions", [])),
          (a.get("truncated"), a.get("entries"), a.get("decompressed"), res.get("versions")))


def main():
    args = cliutil.parser(fixtures=True).parse_args()
    exe = cliutil.Program(args.exe, unset=("NO_COLOR",))
    if not os.path.isdir(os.path.join(args.fixtures, "archives", "model")):
        check("hostile archive fixtures exist", False)
        return CHECKS.summary()
    results, r = inspect(exe, [os.path.join(args.fixtures, "archives", "model", "ok-redist.tar.gz")])
    if results and "cannot read archives" in (results[0].get("error") or ""):
        print("this build reads no archives (no libarchive): skipped")
        return 77
    test_model(exe, args.fixtures)
    test_text(exe, args.fixtures)
    test_bombs(exe, args.fixtures)
    return CHECKS.summary(need_passes=True)


if __name__ == "__main__":
    sys.exit(main())
