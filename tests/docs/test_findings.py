"""The README's "Findings" table against the failure catalog (kb/catalog.tsv)
and the doctor's source: the same ids with the same catalog numbers; a catalog
entry missing from the table is one the paragraph under it names; every
finding id the doctor's checks write literally is in the table.

    python3 tests/docs/test_findings.py --source SOURCE_DIR
"""
import argparse
import glob
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import cliutil  # noqa: E402


def readme_table(text):
    """{id: number or ""} from the README's Findings section, and the prose after the table."""
    start = text.index("\n## Findings\n")
    end = text.find("\n## ", start + 5)
    sec = text[start:end if end > 0 else len(text)]
    rows = {}
    prose = []
    for line in sec.splitlines():
        m = re.match(r"^\| `([^`]+)` \|\s*([0-9]*)\s*\|", line)
        if m:
            if m.group(1) in rows:
                raise ValueError("README: %s listed twice" % m.group(1))
            rows[m.group(1)] = m.group(2)
        elif rows and not line.startswith("|"):
            prose.append(line)
    return rows, " ".join(prose)


def catalog(path):
    """{id: catalog number or ""} from kb/catalog.tsv."""
    out = {}
    header = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if header is None:
                header = cols
                continue
            row = dict(zip(header, cols))
            n = row["catalog_number"]
            out[row["id"]] = "" if n == "-" else n
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    c = cliutil.Checks()
    with open(os.path.join(a.source, "README.md"), encoding="utf-8") as f:
        table, prose = readme_table(f.read())
    cat = catalog(os.path.join(a.source, "kb", "catalog.tsv"))
    c.check(len(table) >= 40, "README Findings table has %d rows" % len(table))
    for fid, num in sorted(table.items()):
        c.check(fid in cat, "README lists %s, which kb/catalog.tsv does not have" % fid)
        if fid in cat:
            c.check(cat[fid] == num, "%s: README says #%s, kb/catalog.tsv #%s" % (fid, num or "-", cat[fid] or "-"))
    # Catalog entries the doctor cannot detect yet are named by number in the prose.
    named = set(re.findall(r"\b(\d{1,2})\b", prose))
    for fid, num in sorted(cat.items()):
        if fid in table:
            continue
        c.check(num != "", "kb/catalog.tsv has %s, a finding of the doctor's own, but the README table does not" % fid)
        if num:
            c.check(num in named, "catalog entry %s (%s) is neither in the README table nor named under it" % (num, fid))
    # Literal finding ids in the doctor's checks.
    ids = set()
    for path in glob.glob(os.path.join(a.source, "src", "lib", "doctor", "checks*.c")):
        with open(path, encoding="utf-8") as f:
            ids.update(re.findall(r'cc_finding\(\s*d\s*,\s*"([^"]+)"', f.read()))
    c.check(len(ids) >= 10, "found %d literal finding ids in src/lib/doctor" % len(ids))
    for fid in sorted(ids):
        c.check(fid in table, "the doctor writes %s, which the README table does not list" % fid)
    return c.summary("docs.findings")


if __name__ == "__main__":
    sys.exit(main())
