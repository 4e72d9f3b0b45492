"""Every source the knowledge base cites resolves inside the repository.

Each kb/*.tsv row has a source cell: ";"-separated references, each "KEY" or
"KEY detail" (kb/README.md). This test reads every table and fails on
  - a KEY that kb/sources.tsv does not list;
  - a kb/sources.tsv row whose location has neither an https:// address nor a
    path that exists in this repository (and on an http:// address, or an
    absolute path: a file outside the repository is no source);
  - a GitHub reference (owner/repo#N, which means
    https://github.com/owner/repo/issues/N) that is malformed, anywhere;
  - an FM reference without GitHub references (FM cites issue threads only);
  - a path of this repository (docs/..., src/..., ...) that does not exist.
Before the real tables it runs the same checker on a few rows that break each
rule and fails unless every one is reported, so the checker itself can fail.

    python3 tests/docs/test_kb_sources.py --source SOURCE_DIR
"""
import argparse
import glob
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import cliutil  # noqa: E402

# owner/repo#N: GitHub's rules for names, a positive issue or pull-request number.
ISSUE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}#[1-9][0-9]*$")
KEY_RE = re.compile(r"^[A-Z][A-Z0-9]*$")
URL_RE = re.compile(r"^https://[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+(/\S*)?$")
ISSUE_KEY = "FM"  # its references are GitHub issue and pull-request threads
TRAIL = ",;.)("  # punctuation around a token in prose


def read_table(path):
    """(header, [(line number, {column: cell})]) of one .tsv file."""
    header, rows = None, []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n").rstrip("\r")
            if line.startswith("#") or not line.strip():
                continue
            cells = line.split("\t")
            if header is None:
                header = cells
            else:
                rows.append((n, dict(zip(header, cells))))
    return header or [], rows


def tokens(text):
    for t in re.split(r"[\s,]+", text):
        t = t.strip(TRAIL)
        if t:
            yield t


class Checker:
    """Collects problems ("where: what") and counts what it checked."""

    def __init__(self, root, top_dirs):
        self.root = root
        self.top_dirs = top_dirs  # the repository's top-level directories
        self.problems = []
        self.counts = {"references": 0, "issues": 0, "paths": 0, "urls": 0}

    def bad(self, where, what):
        self.problems.append("%s: %s" % (where, what))

    def is_repo_path(self, tok):
        return "/" in tok and tok.split("/", 1)[0] in self.top_dirs

    def check_token(self, where, tok):
        """Checks one word of a detail or a location; says what kind it was."""
        if "#" in tok and "/" in tok and not tok.startswith("https://"):
            self.counts["issues"] += 1
            if not ISSUE_RE.match(tok):
                self.bad(where, "'%s' is not a GitHub reference owner/repo#N" % tok)
            return "issue"
        if tok.startswith("https://"):
            self.counts["urls"] += 1
            if not URL_RE.match(tok):
                self.bad(where, "'%s' is not a well-formed address" % tok)
            return "url"
        if tok.startswith("http://"):
            self.bad(where, "'%s': cite the https:// address" % tok)
            return "url"
        if tok.startswith("/") or tok.startswith("~"):
            self.bad(where, "'%s' is a file outside the repository, not a public source" % tok)
            return None
        if self.is_repo_path(tok):
            self.counts["paths"] += 1
            if not os.path.exists(os.path.join(self.root, tok.rstrip("/"))):
                self.bad(where, "'%s' does not exist in the repository" % tok)
            return "path"
        return None

    def check_sources(self, rows):
        """kb/sources.tsv rows -> the set of keys."""
        keys = set()
        for line, r in rows:
            where = "sources.tsv line %d" % line
            key = r.get("key", "")
            if not KEY_RE.match(key):
                self.bad(where, "key '%s' is not upper-case letters and digits" % key)
            if key in keys:
                self.bad(where, "key %s twice" % key)
            keys.add(key)
            if not r.get("title", "").strip() or r.get("title") == "-":
                self.bad(where, "%s has no title" % key)
            if r.get("source") != key:
                self.bad(where, "%s: its source cell is '%s', not its own key" % (key, r.get("source")))
            kinds = [self.check_token(where, t) for t in tokens(r.get("location", ""))]
            if "url" not in kinds and "path" not in kinds:
                self.bad(where, "%s: location '%s' has no https:// address and no repository path"
                         % (key, r.get("location", "")))
        return keys

    def check_table(self, name, header, rows, keys):
        if "source" not in header:
            self.bad(name, "no source column")
            return
        for line, r in rows:
            where = "%s line %d" % (name, line)
            cell = r.get("source", "")
            if cell.strip() in ("", "-"):
                self.bad(where, "no source")
                continue
            for ref in cell.split(";"):
                ref = ref.strip()
                self.counts["references"] += 1
                if not ref:
                    self.bad(where, "an empty reference in '%s'" % cell)
                    continue
                key, _, detail = ref.partition(" ")
                if key not in keys:
                    self.bad(where, "source key '%s' is not in kb/sources.tsv" % key)
                if key != ISSUE_KEY:
                    for t in tokens(detail):
                        self.check_token(where, t)
                    continue
                if not detail.strip():
                    self.bad(where, "%s without a GitHub reference: name the issue threads" % key)
                    continue
                for it in (t.strip() for t in detail.split(",")):
                    self.counts["issues"] += 1
                    if not ISSUE_RE.match(it):
                        self.bad(where, "%s cites '%s', which is no owner/repo#N" % (key, it))


def check_tree(root, tables):
    """tables: {name: (header, rows)}, sources among them."""
    top = {d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))
           and not d.startswith(".") and not d.startswith("build")}
    ck = Checker(root, top)
    s_header, s_rows = tables.get("sources", ([], []))
    for col in ("key", "title", "location", "source"):
        if col not in s_header:
            ck.bad("sources.tsv", "no %s column" % col)
    keys = ck.check_sources(s_rows)
    for name, (header, rows) in sorted(tables.items()):
        if name != "sources":
            ck.check_table(name + ".tsv", header, rows, keys)
    return ck


def self_test(root, c):
    """The checker reports each broken rule (so this test can fail)."""
    src_h = ["key", "title", "location", "source"]
    tables = {
        "sources": (src_h, [
            (1, {"key": "OK", "title": "t", "location": "https://docs.nvidia.com/x", "source": "OK"}),
            (2, {"key": "FM", "title": "t", "location": "https://github.com/", "source": "FM"}),
            (3, {"key": "VAGUE", "title": "t", "location": "in public repositories", "source": "VAGUE"}),
            (4, {"key": "GONE", "title": "t", "location": "docs/no-such-file.md", "source": "GONE"}),
            (5, {"key": "ABS", "title": "t", "location": "https://x.org /work/shared/ref.md", "source": "ABS"}),
        ]),
        "t": (["a", "source"], [
            (10, {"a": "1", "source": "NOPE"}),
            (11, {"a": "1", "source": "FM"}),
            (12, {"a": "1", "source": "FM owner/repo#12x"}),
            (13, {"a": "1", "source": "OK docs/none.json"}),
            (14, {"a": "1", "source": "OK; FM a/b#1, c/d#2; OK 9.1.0"}),
            (15, {"a": "1", "source": "-"}),
        ]),
    }
    ck = check_tree(root, tables)
    expect = ["sources.tsv line 3:", "sources.tsv line 4:", "sources.tsv line 5:", "t.tsv line 10:",
              "t.tsv line 11:", "t.tsv line 12:", "t.tsv line 13:", "t.tsv line 15:"]
    for e in expect:
        c.check(any(p.startswith(e) for p in ck.problems), "self-test: no problem reported for %s" % e)
    for ok in ("sources.tsv line 1:", "sources.tsv line 2:", "t.tsv line 14:"):
        c.check(not any(p.startswith(ok) for p in ck.problems),
                "self-test: a good row reported: %s" % [p for p in ck.problems if p.startswith(ok)])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    c = cliutil.Checks()
    self_test(a.source, c)
    tables = {}
    for path in sorted(glob.glob(os.path.join(a.source, "kb", "*.tsv"))):
        tables[os.path.splitext(os.path.basename(path))[0]] = read_table(path)
    c.check("sources" in tables and len(tables) >= 10, "kb/*.tsv: %d tables read" % len(tables))
    ck = check_tree(a.source, tables)
    for p in ck.problems:
        c.check(False, p)
    n = ck.counts
    c.check(n["references"] >= 500, "only %d references read" % n["references"])
    print("kb sources: %d references checked in %d tables (%d keys; %d GitHub references, %d addresses, "
          "%d repository paths)" % (n["references"], len(tables) - 1, len(tables.get("sources", ([], []))[1]),
                                    n["issues"], n["urls"], n["paths"]))
    return c.summary("docs.kb_sources")


if __name__ == "__main__":
    sys.exit(main())
