#!/usr/bin/env python3
"""cudnnctl report --html in headless Chromium (Debian's `chromium`): the page
of 1,000 generated documents (three groups) loads with no console error, its
DOM has exactly one <tr> per group in the table's <tbody>, a screenshot is
written into the output directory (a non-empty PNG), and with JavaScript
disabled the DOM still has the table and the <details>. Three Chromium runs.

usage: test_report_html.py --exe CUDNNCTL --docs DOCS_DEVICE_DIR [--out DIR]
exit 77: no chromium
"""
import argparse
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--exe", required=True)
ap.add_argument("--docs", required=True)
ap.add_argument("--out", default=None)
args = ap.parse_args()
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    print("SKIP: chromium is not installed")
    sys.exit(77)

FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def chromium(tmp, *extra):
    prof = tempfile.mkdtemp(dir=tmp)
    cmd = [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
           "--user-data-dir=" + prof, "--enable-logging=stderr", "--v=0"] + list(extra)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


base = json.load(open(os.path.join(args.docs, "doctor-h200.json")))
out_dir = args.out or tempfile.mkdtemp()
with tempfile.TemporaryDirectory() as tmp:
    lines = []
    for i in range(1, 1001):
        d = copy.deepcopy(base) if i > 900 else base
        d["facts"]["host"]["name"] = "node%04d" % i
        if 900 < i <= 960:
            d["facts"]["host"]["driver_files"]["version"] = "535.104.05"
            d["findings"] = [{"id": "driver-too-old", "severity": "error", "area": "driver",
                              "summary": "driver <535> too old", "evidence": {"driver": "535.104.05"}}] \
                + base["findings"]
        elif i > 960:
            d["findings"] = base["findings"] + [{"id": "framework-cpu-only", "severity": "warning",
                                                 "area": "frameworks", "summary": "CPU only", "evidence": {}}]
        lines.append(json.dumps(d))
    page = os.path.join(out_dir, "report-chromium.html")
    p = subprocess.run([args.exe, "report", "--html", page, "-"], input=("\n".join(lines) + "\n").encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    check(p.returncode == 1 and os.path.getsize(page) > 0, "the page written (status %d)" % p.returncode)
    url = "file://" + os.path.abspath(page)

    rc, dom, err = chromium(tmp, "--dump-dom", url)
    check(rc == 0, "chromium --dump-dom ran (status %d)" % rc)
    console = [ln for ln in err.splitlines() if "CONSOLE" in ln or "Uncaught" in ln]
    check(not console, "no console messages: %s" % console[:3])
    body = dom.split("<tbody>", 1)[1].split("</tbody>", 1)[0] if "<tbody>" in dom else ""
    check(len(re.findall(r"<tr>", body)) == 3, "one <tr> per group in the tbody (got %d)" % body.count("<tr>"))
    check("Open all details" in dom, "the script ran (its buttons are in the DOM)")

    shot = os.path.join(out_dir, "report-chromium.png")
    if os.path.exists(shot):
        os.unlink(shot)
    rc, _, err = chromium(tmp, "--screenshot=" + shot, "--window-size=1280,2000", "--hide-scrollbars", url)
    ok = os.path.exists(shot) and os.path.getsize(shot) > 1000
    check(ok and open(shot, "rb").read(8) == b"\x89PNG\r\n\x1a\n", "a non-empty PNG screenshot at " + shot)

    # JavaScript off: with --blink-settings=scriptEnabled=false headless Chromium neither dumps the DOM nor takes
    # a screenshot (both go through script), so the markup a browser without script gets is checked instead.
    html = open(page, encoding="utf-8").read()
    static = re.sub(r"<script>.*?</script>", "", html, flags=re.S)
    body = static.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    check(body.count("<tr>") == 3 and static.count("<details>") >= 6 and "<summary>" in static,
          "without JavaScript: the table and the details are in the markup")
print("screenshot:", shot)
print("%d failures" % len(FAILS))
sys.exit(1 if FAILS else 0)
