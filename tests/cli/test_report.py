#!/usr/bin/env python3
"""cudnnctl report: 1,000 documents generated from the recorded H200 doctor
document (900 healthy nodes, 60 with an older driver and driver-too-old, 40
with a framework-cpu-only warning) and a few unreadable files give three
groups with the right counts, names, worst severity per area and finding
counts, in text, --json and --html; the same documents as JSON lines on
standard input give the same groups (CRLF line ends and a Ctrl-Z byte on a
line too: the documents after it read); a directory's unreadable files named
DIR, the system's separator, NAME; hostile strings in a document are
escaped in the page; an empty directory is zero nodes, exit status 0; a
missing file is listed as unreadable.

usage: test_report.py --exe CUDNNCTL --docs DOCS_DEVICE_DIR [--out DIR] [--wrapper=WINE]
Under a wrapper (the Windows build under Wine) every path given to the program
is the Windows one (Z:\\...), as a Windows user would type it.
"""
import copy
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

ap = cliutil.parser(wrapper=True)
ap.add_argument("--docs", required=True)
ap.add_argument("--out", default=None)
args = ap.parse_args()
if cliutil.wrapper_missing(args.wrapper):
    print("SKIP: no %s" % args.wrapper)
    sys.exit(77)
EXE = cliutil.Program(args.exe, args.wrapper, timeout=300)

FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def native(path):
    """A path as the program under test is given it: under Wine the Windows one (Z:\\...)."""
    return cliutil.wine_path(path) if args.wrapper else path


def run(argv, stdin=None):
    """report with argv, each absolute path in it given as native() makes it."""
    r = EXE.run(["report"] + [native(a) if a.startswith("/") else a for a in argv], stdin=stdin)
    return r.rc, r.out_text, r.err_text


# a file found in a directory is named DIR + the system's separator + NAME: "\\" on Windows
SEP = "\\" if args.wrapper else "/"


AREAS = ["driver", "toolkit", "cudnn", "loader", "headers", "runtime", "hygiene", "frameworks"]
base = json.load(open(os.path.join(args.docs, "doctor-h200.json")))


def node(i):
    d = copy.deepcopy(base)
    d["facts"]["host"]["name"] = "node%04d" % i
    if 900 < i <= 960:
        d["facts"]["host"]["driver_files"]["version"] = "535.104.05"
        d["findings"].insert(0, {"id": "driver-too-old", "severity": "error", "area": "driver",
                                 "summary": "driver 535.104.05 is older than CUDA 13.0 needs",
                                 "evidence": {"driver": "535.104.05", "needs": "580"}})
        for a in d["areas"]:
            if a["id"] == "driver":
                a["status"] = "error"
                a["findings"] = ["driver-too-old"]
    elif i > 960:
        d["findings"].append({"id": "framework-cpu-only", "severity": "warning", "area": "frameworks",
                              "summary": "onnxruntime is a CPU-only build", "evidence": {"framework": "onnxruntime"}})
    return d


if args.out:
    os.makedirs(args.out, exist_ok=True)
with tempfile.TemporaryDirectory() as tmp:
    docs = os.path.join(tmp, "docs")
    os.mkdir(docs)
    lines = []
    for i in range(1, 1001):
        text = json.dumps(node(i))
        lines.append(text)
        with open(os.path.join(docs, "n%04d.json" % i), "w") as f:
            f.write(text)
    with open(os.path.join(docs, "broken.json"), "w") as f:
        f.write('{"command": "doctor", "areas": [')
    with open(os.path.join(docs, "list.json"), "w") as f:
        f.write('{"command": "list", "installations": []}')
    with open(os.path.join(docs, "notes.txt"), "w") as f:
        f.write("not a document: not a .json name, not read\n")

    rc, out, err = run(["--json", docs])
    check(rc == 1, "1000 documents with errors: exit status 1 (got %d: %s)" % (rc, err))
    doc = json.loads(out)
    check(doc["command"] == "report", "command is report")
    check(doc["nodes"] == 1000, "1000 nodes (got %s)" % doc["nodes"])
    check(doc["areas"] == AREAS, "the doctor's 8 areas in order")
    un = {u["file"].rsplit(SEP, 1)[-1]: u["reason"] for u in doc["unreadable"]}
    check(sorted(u["file"] for u in doc["unreadable"])
          == [native(docs) + SEP + n for n in ("broken.json", "list.json")],
          "unreadable documents named DIR%sNAME (got %s)" % (SEP, [u["file"] for u in doc["unreadable"]]))
    check(set(un) == {"broken.json", "list.json"}, "two unreadable documents listed (got %s)" % sorted(un))
    check("not JSON" in un.get("broken.json", ""), "broken.json: a parse error")
    check("not a doctor document" in un.get("list.json", ""), "list.json: not a doctor document")
    g = doc["groups"]
    check(len(g) == 3, "three groups (got %d)" % len(g))
    check([x["nodes"] for x in g] == [900, 60, 40], "group sizes 900, 60, 40 (got %s)" % [x["nodes"] for x in g])
    check(g[0]["names"] == ["node%04d" % i for i in range(1, 901)], "group 1: node0001..node0900")
    check(g[1]["names"] == ["node%04d" % i for i in range(901, 961)], "group 2: node0901..node0960")
    check(g[2]["names"] == ["node%04d" % i for i in range(961, 1001)], "group 3: node0961..node1000")
    check(g[0]["stack"]["driver"] == "580.159.04" and g[1]["stack"]["driver"] == "535.104.05", "the drivers")
    check(g[0]["stack"]["cudnn"] == ["9.14.0 distro", "9.19.0 wheel"], "cuDNN installations with their kinds")
    check(g[0]["stack"]["gpus"] == ["NVIDIA H200"], "the GPU model")
    check(g[0]["verdict"] == "healthy" and g[1]["verdict"] == "errors" and g[2]["verdict"] == "warnings",
          "group verdicts")
    check(g[0]["areas"] == dict(zip(AREAS, ["ok", "ok", "info", "ok", "ok", "ok", "ok", "not-checked"])),
          "group 1 cells (got %s)" % g[0]["areas"])
    check(g[1]["areas"]["driver"] == "error" and g[1]["areas"]["cudnn"] == "info", "group 2 cells")
    check(g[2]["areas"]["frameworks"] == "warning" and g[2]["areas"]["driver"] == "ok", "group 3 cells")
    check(any(f["id"] == "driver-too-old" and f["evidence"]["driver"] == "535.104.05" for f in g[1]["findings"]),
          "group 2's finding with its evidence")
    fl = [(f["id"], f["severity"], f["nodes"]) for f in doc["findings"]]
    check(fl == [("driver-too-old", "error", 60), ("framework-cpu-only", "warning", 40),
                 ("multiple-installations", "info", 1000)], "findings by severity and nodes (got %s)" % fl)
    check(doc["summary"]["healthy"] == 900 and doc["summary"]["errors"] == 60 and doc["summary"]["warnings"] == 40,
          "summary counts")

    # text, and the page, in one run
    page = os.path.join(os.path.abspath(args.out) if args.out else tmp, "report-test.html")
    rc, out, err = run([docs, "--html", page])
    check(rc == 1, "text: exit status 1")
    check("1000 nodes in 3 groups; 2 unreadable documents" in out, "text: the head line")
    check("900 nodes: driver 580.159.04, NVIDIA H200, cuDNN 9.14.0 distro + 9.19.0 wheel, CUDA 13.0, healthy" in out,
          "text: the healthy group's line")
    check("60 nodes: driver 535.104.05" in out and "driver-too-old (error)" in out, "text: the old-driver group")
    check("node0001\u2026node0900" in out, "text: the names folded")
    rows = [ln for ln in out.splitlines() if ln.startswith(("1 ", "2 ", "3 "))]
    check(len(rows) == 3 and rows[1].split()[2] == "error", "text: the table (got %s)" % rows)
    html = open(page, encoding="utf-8").read()
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    check(body.count("<tr>") == 3, "html: one row per group")
    check('<html lang="en">' in html and "@media print" in html and "<details>" in html, "html: lang, print, details")
    check("http://" not in html and "https://" not in html and "<link" not in html and "src=" not in html,
          "html: nothing loaded from elsewhere")

    # the same documents on standard input as JSON lines
    rc, out, err = run(["--json"], stdin=("\n".join(lines[:1000]) + "\n\n").encode())
    d2 = json.loads(out)
    check(d2["nodes"] == 1000 and [x["nodes"] for x in d2["groups"]] == [900, 60, 40] and not d2["unreadable"],
          "stdin JSON lines: the same groups")
    rc, out, err = run(["--json", "-"], stdin=(lines[0] + "\nnot json\n" + lines[1]).encode())
    d3 = json.loads(out)
    check(d3["nodes"] == 2 and [u["file"] for u in d3["unreadable"]] == ["stdin:2"],
          "stdin: a bad line listed by its number (got %s)" % d3["unreadable"])
    check(rc == 1, "stdin: an unreadable line is exit status 1")
    # bytes as they come: a Ctrl-Z (the end of a text-mode stream on Windows) on a line, CRLF line ends
    rc, out, err = run(["--json", "-"],
                       stdin=(lines[0] + "\r\nnot \x1a json\r\n" + lines[1] + "\r\n" + lines[2]).encode())
    d3 = json.loads(out)
    check(d3["nodes"] == 3 and [u["file"] for u in d3["unreadable"]] == ["stdin:2"],
          "stdin: the documents after a Ctrl-Z byte read, CRLF ends (got %s nodes, %s)"
          % (d3["nodes"], d3["unreadable"]))

    # hostile strings
    h = node(1)
    h["facts"]["host"]["name"] = "<script>alert(1)</script>"
    h["findings"].append({"id": "x\"><img src=x onerror=alert(1)>", "severity": "warning", "area": "loader",
                          "summary": "</details><b>bold</b>&", "evidence": {"p": "<iframe src='//evil'>"}})
    hp = os.path.join(tmp, "hostile.json")
    with open(hp, "w") as f:
        json.dump(h, f)
    page2 = os.path.join(tmp, "hostile.html")
    rc, out, err = run([hp, "--html", page2])
    html = open(page2, encoding="utf-8").read()
    check("<script>alert" not in html and "<img" not in html and "<iframe" not in html and "<b>bold" not in html,
          "html: hostile strings escaped")
    check("&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;iframe src=&#39;//evil&#39;&gt;" in html,
          "html: hostile strings shown as text")
    check(html.count("<script>") == 1, "html: only the page's own script")

    # an empty directory; a missing file; healthy only
    empty = os.path.join(tmp, "empty")
    os.mkdir(empty)
    rc, out, err = run(["--json", empty])
    d4 = json.loads(out)
    check(rc == 0 and d4["nodes"] == 0 and d4["groups"] == [] and d4["unreadable"] == [], "empty directory: 0 nodes")
    rc, out, err = run([empty])
    check(rc == 0 and out.startswith("0 nodes in 0 groups"), "empty directory: text")
    rc, out, err = run(["--json", os.path.join(tmp, "missing.json")])
    d5 = json.loads(out)
    check(rc == 1 and len(d5["unreadable"]) == 1, "a missing file is listed as unreadable")
    rc, out, err = run([os.path.join(docs, "n0001.json"), os.path.join(docs, "n0002.json")])
    check(rc == 0, "healthy nodes only: exit status 0 (got %d)" % rc)
    rc, out, err = run(["--bogus"])
    check(rc == 2, "an unknown option: exit status 2")

print("%d failures" % len(FAILS))
sys.exit(1 if FAILS else 0)
