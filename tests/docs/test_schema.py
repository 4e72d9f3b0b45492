#!/usr/bin/env python3
"""The fact schema (src/lib/facts/schema.h, dumped by schema_dump) against
docs/json.md: every key of every view is documented (written `key` in the
document), and every key a view's key table lists (the `| key |` table that
follows the line naming the view, e.g. "INSTALLATION:" or "### RESOLUTION")
is in the schema. A key renamed in one place and not the other fails here."""
import re
import subprocess
import sys


def tables(doc_lines, what):
    """The first-column keys of the key table right after the line that names `what`, or None."""
    head = re.compile(r"^(#+\s*)?%s\b(:|\s*\(|\s*$)" % re.escape(what))
    for i, line in enumerate(doc_lines):
        if not head.match(line):
            continue
        j = i + 1
        while j < len(doc_lines) and not doc_lines[j].strip():
            j += 1
        if j >= len(doc_lines) or not doc_lines[j].startswith("| key"):
            continue
        keys = set()
        j += 2  # the header and its |---| line
        while j < len(doc_lines) and doc_lines[j].startswith("|"):
            first = doc_lines[j].split("|")[1]
            keys.update(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", first))
            j += 1
        return keys
    return None


def main():
    dump, doc_path = sys.argv[1], sys.argv[2]
    rows = [l.split("\t") for l in subprocess.run([dump], capture_output=True, text=True, check=True).stdout.splitlines()]
    doc = open(doc_path, encoding="utf-8").read()
    lines = doc.splitlines()
    documented = set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", doc))
    failures = 0
    views = {}
    for view, what, key, kind, req, null in rows:
        views.setdefault((view, what), set()).add(key)
        if key not in documented:
            print("FAIL: %s.%s (%s) is in the schema but docs/json.md never names `%s`" % (view, key, what, key))
            failures += 1
    tabled = 0
    for (view, what), keys in sorted(views.items()):
        t = tables(lines, what)
        if t is None:
            continue
        tabled += 1
        for k in sorted(t - keys):
            print("FAIL: docs/json.md's %s table lists `%s`, which the schema's view %s lacks" % (what, k, view))
            failures += 1
    print("%d views, %d keys, %d key tables compared; %d failed" % (len(views), len(rows), tabled, failures))
    if not rows or tabled == 0:
        print("FAIL: nothing compared")
        return 1
    return 1 if failures else 0


sys.exit(main())
