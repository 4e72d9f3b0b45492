"""The README's "Findings" table, the failure catalog (kb/catalog.tsv, what
`cudnnctl explain` knows) and the doctor's registry (src/lib/doctor/findings.def,
every id the doctor can emit): the README table and the registry hold the same
ids with the same catalog numbers; each registry id is a catalog row with that
number; a catalog row the registry lacks is one the doctor does not detect,
numbered and named in the paragraph under the table. No id is written in the
doctor's checks but in the registry.

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


ROW = re.compile(r'^CC_FINDING\(\s*(\w+)\s*,\s*"([^"]+)"\s*,\s*(\d+)\s*,\s*"(\w+)"\s*,\s*"(\w+)"\s*,\s*(\w+)\s*\)',
                 re.M)


def registry(path):
    """{id: catalog number or ""} from the registry's rows, in order; and the ids listed twice."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out, twice = {}, []
    # rows may wrap: join a row's continuation lines first
    text = re.sub(r",\s*\n\s+", ", ", text)
    for m in ROW.finditer(text):
        if m.group(2) in out:
            twice.append(m.group(2))
        out[m.group(2)] = "" if m.group(3) == "0" else m.group(3)
    return out, twice


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
    # The registry: every id the doctor emits, once, against the table and the catalog.
    reg, twice = registry(os.path.join(a.source, "src", "lib", "doctor", "findings.def"))
    c.check(len(reg) >= 40, "src/lib/doctor/findings.def has %d rows" % len(reg))
    c.check(not twice, "findings.def lists %s more than once" % twice)
    for fid, num in sorted(reg.items()):
        c.check(fid in table, "the registry has %s, which the README table does not list" % fid)
        c.check(fid in cat, "the registry has %s, which kb/catalog.tsv does not have" % fid)
        if fid in table:
            c.check(table[fid] == num, "%s: README says #%s, the registry #%s" % (fid, table[fid] or "-", num or "-"))
        if fid in cat:
            c.check(cat[fid] == num,
                    "%s: kb/catalog.tsv says #%s, the registry #%s" % (fid, cat[fid] or "-", num or "-"))
    for fid in sorted(table):
        c.check(fid in reg, "README lists %s, which the doctor's registry does not have" % fid)
    for fid, num in sorted(cat.items()):
        if fid not in reg:
            c.check(num != "", "kb/catalog.tsv has %s, a finding of the doctor's own, but the registry does not" % fid)
    # No finding id written in the checks: they name registry entries (CC_F_...). A
    # discovery problem kind that is spelled like an id ("unreadable-file") names the kind.
    ids = set(cat) | set(reg)
    for path in glob.glob(os.path.join(a.source, "src", "lib", "discover", "*.c")):
        with open(path, encoding="utf-8") as f:
            ids -= set(re.findall(r'problem\(\s*in\s*,\s*"([^"]+)"', f.read()))
    for path in sorted(glob.glob(os.path.join(a.source, "src", "lib", "doctor", "*.[ch]"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        lits = set(re.findall(r'"([a-z0-9]+(?:-[a-z0-9]+)+)"', text))
        for fid in sorted(lits & ids):
            c.check(False, "%s writes the finding id \"%s\": name its registry entry instead" % (
                os.path.relpath(path, a.source), fid))
    return c.summary("docs.findings")


if __name__ == "__main__":
    sys.exit(main())
