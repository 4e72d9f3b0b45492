#!/usr/bin/env python3
"""cudnnctl report --html in headless Chromium (Debian's `chromium`): the page
of 1,000 generated documents (three groups) loads with no console error, its
DOM has exactly one <tr> per group in the table's <tbody>, a screenshot is
written into the output directory (a non-empty PNG).

Then the same page with JavaScript disabled in the browser
(--blink-settings=scriptEnabled=false), driven over the DevTools protocol
(--remote-debugging-pipe): headless Chromium's own --dump-dom and --screenshot
print and write nothing when script is off, but the protocol's DOM and Page
domains work without page script. On the DOM Chromium built: the page's script
did not run (the proof that script is off: #tools holds no buttons), no console
error; the table has one row per group, each laid out (a box); every group's
names and every finding of every group are a <details> whose first child is a
<summary>, the evidence (a <pre>) inside it; nothing is hidden waiting for
script (no hidden, aria-hidden or style attribute; the header, the tables,
every row, every <summary> laid out); a finding's <details> opens by a mouse
click on its <summary> and another by the keyboard (focus and Enter), its
evidence then laid out; with the print media the closed evidence is laid out
(the print stylesheet, not the beforeprint script, opens them); a screenshot.
Where the protocol cannot be used (an older Chromium), a copy of the page
without its <script> and with a Content-Security-Policy of script-src 'none'
goes through --dump-dom instead, and the static parts of those checks are made
on that DOM. Three Chromium runs.

usage: test_report_html.py --exe CUDNNCTL --docs DOCS_DEVICE_DIR [--out DIR]
exit 77: no chromium
"""
import argparse
import base64
import copy
import html.parser
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

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
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions"]
NOJS = "--blink-settings=scriptEnabled=false"


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def chromium(tmp, *extra):
    prof = tempfile.mkdtemp(dir=tmp)
    cmd = [CHROMIUM] + FLAGS + ["--user-data-dir=" + prof, "--enable-logging=stderr", "--v=0"] + list(extra)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


class Cdp:
    """Headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe: it reads
    commands on its descriptor 3 and writes answers and events on 4, each a JSON text ended by a NUL),
    attached to its one page (flat session)."""

    def __init__(self, tmp, *extra):
        self.to_r, self.to_w = os.pipe()
        self.from_r, self.from_w = os.pipe()
        prof = tempfile.mkdtemp(dir=tmp)
        cmd = [CHROMIUM] + FLAGS + ["--user-data-dir=" + prof, "--remote-debugging-pipe"] + list(extra) \
            + ["about:blank"]
        keep = (self.to_r, self.from_w)

        def fds():
            a, b = os.dup(keep[0]), os.dup(keep[1])
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.closerange(5, 65536)

        self.errf = tempfile.TemporaryFile(dir=tmp)
        self.p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.errf,
                                  preexec_fn=fds, close_fds=False)
        os.close(self.to_r)
        os.close(self.from_w)
        self.buf, self.next_id, self.events, self.session = b"", 0, [], None
        try:
            pages = [t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page"]
            self.session = self.call("Target.attachToTarget", {"targetId": pages[0]["targetId"],
                                                              "flatten": True})["sessionId"]
        except BaseException:
            self.close()
            raise

    def _recv(self, deadline):
        while b"\0" not in self.buf:
            r, _, _ = select.select([self.from_r], [], [], max(0.0, deadline - time.monotonic()))
            if not r:
                raise TimeoutError("no answer from chromium")
            data = os.read(self.from_r, 1 << 20)
            if not data:
                raise EOFError("chromium closed its pipe")
            self.buf += data
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, timeout=60):
        """A command to the page (the browser before attaching); its result; an error raises."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session:
            msg["sessionId"] = self.session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            m = self._recv(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"].get("message")))
                return m["result"]
            self.events.append(m)

    def wait(self, event, timeout=60):
        deadline = time.monotonic() + timeout
        while True:
            for m in self.events:
                if m.get("method") == event:
                    return m
            self.events.append(self._recv(deadline))

    def close(self):
        try:
            if self.p.poll() is None:
                self.session = None
                self.call("Browser.close", timeout=10)
        except (OSError, TimeoutError, EOFError, RuntimeError, ValueError):
            pass
        try:
            self.p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        for fd in (self.to_w, self.from_r):
            try:
                os.close(fd)
            except OSError:
                pass
        self.errf.close()


class Tree(html.parser.HTMLParser):
    """A serialized DOM as (tag, attrs, children, text) nodes, for the fallback's checks."""

    VOID = {"meta", "link", "br", "img", "input", "hr", "col", "area", "base", "source", "wbr"}

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.root = ("#root", {}, [], [])
        self.stack = [self.root]
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        n = (tag, dict(attrs), [], [])
        self.stack[-1][2].append(n)
        if tag not in self.VOID:
            self.stack.append(n)

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        self.stack[-1][2].append(data)

    @staticmethod
    def all(n, tag):
        out = []
        for c in n[2]:
            if isinstance(c, tuple):
                if c[0] == tag:
                    out.append(c)
                out += Tree.all(c, tag)
        return out

    @staticmethod
    def text(n):
        return "".join(c if isinstance(c, str) else Tree.text(c) for c in n[2])


base = json.load(open(os.path.join(args.docs, "doctor-h200.json")))
out_dir = args.out or tempfile.mkdtemp()
os.makedirs(out_dir, exist_ok=True)
shot = os.path.join(out_dir, "report-chromium.png")
shot_nojs = os.path.join(out_dir, "report-chromium-nojs.png")
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
    stdin = ("\n".join(lines) + "\n").encode()
    page = os.path.join(out_dir, "report-chromium.html")
    p = subprocess.run([args.exe, "report", "--html", page, "-"], input=stdin,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    check(p.returncode == 1 and os.path.exists(page) and os.path.getsize(page) > 0,
          "the page written (status %d: %s)" % (p.returncode, p.stderr.decode("utf-8", "replace").strip()))
    if not os.path.exists(page):
        print("%d failures" % len(FAILS))
        sys.exit(1)
    p = subprocess.run([args.exe, "report", "--json", "-"], input=stdin, stdout=subprocess.PIPE, timeout=300)
    groups = json.loads(p.stdout)["groups"]
    # the <details> the page should have: each group's names, each finding of each group
    want_details = sum(1 + len(g["findings"]) for g in groups)
    check(len(groups) == 3 and want_details >= 6, "three groups, each with findings (got %d groups, %d <details>)"
          % (len(groups), want_details))
    url = "file://" + os.path.abspath(page)

    rc, dom, err = chromium(tmp, "--dump-dom", url)
    check(rc == 0, "chromium --dump-dom ran (status %d)" % rc)
    console = [ln for ln in err.splitlines() if "CONSOLE" in ln or "Uncaught" in ln]
    check(not console, "no console messages: %s" % console[:3])
    body = dom.split("<tbody>", 1)[1].split("</tbody>", 1)[0] if "<tbody>" in dom else ""
    check(len(re.findall(r"<tr>", body)) == 3, "one <tr> per group in the tbody (got %d)" % body.count("<tr>"))
    # the button itself: the words alone are also in the <script> element's text
    check('<button type="button">Open all details</button>' in dom, "the script ran (its buttons are in the DOM)")

    if os.path.exists(shot):
        os.unlink(shot)
    rc, _, err = chromium(tmp, "--screenshot=" + shot, "--window-size=1280,2000", "--hide-scrollbars", url)
    ok = os.path.exists(shot) and os.path.getsize(shot) > 1000
    check(ok and open(shot, "rb").read(8) == b"\x89PNG\r\n\x1a\n", "a non-empty PNG screenshot at " + shot)

    # ---- JavaScript disabled in the browser ----
    if os.path.exists(shot_nojs):
        os.unlink(shot_nojs)
    try:
        cdp = Cdp(tmp, NOJS, "--window-size=1280,2000", "--hide-scrollbars")
    except (OSError, TimeoutError, EOFError, RuntimeError, ValueError, IndexError) as ex:
        cdp = None
        print("note: no DevTools protocol on a pipe (%s): the page without script through --dump-dom" % ex)
    if cdp is not None:
        try:
            for domain in ("Page", "Runtime", "Log", "DOM"):
                cdp.call(domain + ".enable")
            cdp.call("Page.navigate", {"url": url})
            cdp.wait("Page.loadEventFired")
            root = cdp.call("DOM.getDocument", {"depth": -1})["root"]["nodeId"]

            def q(sel, node=None):
                return cdp.call("DOM.querySelectorAll", {"nodeId": node or root, "selector": sel})["nodeIds"]

            def outer(n):
                return cdp.call("DOM.getOuterHTML", {"nodeId": n})["outerHTML"]

            def box(n):
                """The node's box on the page, None without one (display:none)."""
                try:
                    return cdp.call("DOM.getBoxModel", {"nodeId": n})["model"]
                except RuntimeError:
                    return None

            def laid_out(n):
                b = box(n)
                return b is not None and b["width"] > 0 and b["height"] > 0

            def is_open(n):
                a = cdp.call("DOM.getAttributes", {"nodeId": n})["attributes"]
                return "open" in a[0::2]

            def until(cond, secs=5.0):
                """cond() once it holds, or after secs (what it says then)."""
                end = time.monotonic() + secs
                while not cond() and time.monotonic() < end:
                    time.sleep(0.1)
                return cond()

            def shown(d):
                """Whether a <details>' content is shown: its box taller than its <summary>'s (a closed one's
                content keeps a box of its own, hidden by content-visibility, so the <details>' height tells)."""
                b, sb = box(d), box(q("summary", d)[0])
                return b is not None and sb is not None and b["height"] > sb["height"] + 10

            dom = outer(root)
            with open(os.path.join(out_dir, "report-chromium-nojs.dom.html"), "w", encoding="utf-8") as f:
                f.write(dom)
            tools = q("#tools")
            check(len(tools) == 1 and outer(tools[0]) == '<div id="tools"></div>' and not q("button"),
                  "JavaScript off: the page's script did not run (#tools empty): %s"
                  % (outer(tools[0]) if tools else "no #tools"))
            msgs = [m for m in cdp.events if m.get("method") in ("Runtime.exceptionThrown", "Runtime.consoleAPICalled")
                    or (m.get("method") == "Log.entryAdded" and m["params"]["entry"]["level"] in ("error", "warning"))]
            check(not msgs, "JavaScript off: no console messages: %s" % json.dumps(msgs)[:400])
            tables = q("main table")
            rows = q("tbody > tr", tables[0]) if tables else []
            check(len(rows) == 3, "JavaScript off: one <tr> per group in the tbody (got %d)" % len(rows))
            check(all(laid_out(r) for r in rows), "JavaScript off: every group's row laid out")
            for sel in ("header", "h1", "main", "main table", "main table > thead", "article", "article > h3"):
                ns = q(sel)
                check(ns and all(laid_out(n) for n in ns), "JavaScript off: %s present and laid out" % sel)
            check(not q("[hidden], [aria-hidden], [style], noscript"),
                  "JavaScript off: nothing hidden waiting for script (hidden, aria-hidden, style, noscript)")
            details = q("details")
            check(len(details) == want_details, "JavaScript off: %d <details> (got %d)" % (want_details, len(details)))
            summaries = q("details > summary:first-child")
            check(len(summaries) == len(details) and all(laid_out(s) for s in summaries),
                  "JavaScript off: each <details> opens with a <summary> that is laid out")
            check(not any(is_open(d) for d in details), "JavaScript off: every <details> closed at first")
            evidence = q("details > pre")
            check(len(evidence) == want_details - len(groups), "JavaScript off: each finding's evidence in its "
                  "<details> (%d <pre>, want %d)" % (len(evidence), want_details - len(groups)))
            old = [d for d in details if "driver-too-old" in outer(d)]
            check(len(old) == 1 and "535.104.05" in "".join(outer(n) for n in q("pre", old[0])),
                  "JavaScript off: driver-too-old's evidence (535.104.05) in its <details>")
            names = [d for d in details if "The 60 node names" in outer(d)]
            check(len(names) == 1 and "node0901" in outer(names[0]) and "node0960" in outer(names[0]),
                  "JavaScript off: group 2's names in a <details>")

            # the print stylesheet lays out the closed evidence (no beforeprint script to open them)
            check(not any(shown(d) for d in details), "JavaScript off: no <details>' content shown at first")
            cdp.call("Emulation.setEmulatedMedia", {"media": "print"})
            check(all(shown(d) for d in details), "JavaScript off, print media: every <details>' content shown")
            cdp.call("Emulation.setEmulatedMedia", {"media": ""})
            check(not any(shown(d) for d in details), "JavaScript off, screen again: closed")

            # opened by the mouse: a click on the summary of driver-too-old
            if len(old) == 1:
                summ = q("summary", old[0])[0]
                cdp.call("DOM.scrollIntoViewIfNeeded", {"nodeId": summ})
                quad = cdp.call("DOM.getContentQuads", {"nodeId": summ})["quads"][0]
                x, y = sum(quad[0::2]) / 4, sum(quad[1::2]) / 4
                for t in ("mousePressed", "mouseReleased"):
                    cdp.call("Input.dispatchMouseEvent", {"type": t, "x": x, "y": y, "button": "left",
                                                          "clickCount": 1})
                check(until(lambda: is_open(old[0]) and shown(old[0])),
                      "JavaScript off: a click on the <summary> opens the <details> and shows the evidence")
            # opened by the keyboard: the first finding's summary focused, Enter
            first = [d for d in details if q("pre", d)][0]
            summ = q("summary", first)[0]
            cdp.call("DOM.focus", {"nodeId": summ})
            for t in ("rawKeyDown", "char", "keyUp"):
                key = {"type": t, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13}
                if t == "char":
                    key["text"] = "\r"
                cdp.call("Input.dispatchKeyEvent", key)
            check(until(lambda: is_open(first) and shown(first)),
                  "JavaScript off: Enter on the focused <summary> opens it")

            png = base64.b64decode(cdp.call("Page.captureScreenshot", {"format": "png"})["data"])
            with open(shot_nojs, "wb") as f:
                f.write(png)
            check(len(png) > 1000 and png[:8] == b"\x89PNG\r\n\x1a\n",
                  "JavaScript off: a non-empty PNG screenshot at " + shot_nojs)
        except (OSError, TimeoutError, EOFError, RuntimeError, ValueError, KeyError, IndexError) as ex:
            check(False, "JavaScript off: the DevTools session failed: %r" % ex)
        finally:
            cdp.close()
    else:
        # no protocol: the page without its script (and a policy that forbids any) through --dump-dom
        text = open(page, encoding="utf-8").read()
        stripped = re.sub(r"<script\b.*?</script\s*>", "", text, flags=re.S | re.I)
        stripped = stripped.replace("<head>", "<head>\n<meta http-equiv=\"Content-Security-Policy\" "
                                    "content=\"script-src 'none'\">", 1)
        check("<script" not in stripped.lower(), "no <script> left in the copy")
        copy_page = os.path.join(out_dir, "report-chromium-nojs.html")
        with open(copy_page, "w", encoding="utf-8") as f:
            f.write(stripped)
        rc, dom, err = chromium(tmp, "--dump-dom", "file://" + os.path.abspath(copy_page))
        check(rc == 0 and "<tbody>" in dom, "without script: chromium --dump-dom ran (status %d)" % rc)
        t = Tree(dom)
        tbodies = Tree.all(t.root, "tbody")
        check(tbodies and len(Tree.all(tbodies[0], "tr")) == 3, "without script: one <tr> per group")
        det = Tree.all(t.root, "details")
        check(len(det) == want_details, "without script: %d <details> (got %d)" % (want_details, len(det)))
        check(all(isinstance(d[2][0], tuple) and d[2][0][0] == "summary" for d in det if d[2]),
              "without script: each <details> starts with its <summary>")
        check(any("driver-too-old" in Tree.text(d) and "535.104.05" in Tree.text(d) for d in det),
              "without script: driver-too-old's evidence in its <details>")
        check(not re.search(r"<[^>]+\s(hidden|aria-hidden|style)(=|\s|>)", dom) and "<noscript" not in dom,
              "without script: nothing hidden waiting for script")
        check(re.search(r'<div id="tools"></div>', dom) is not None, "without script: #tools empty")
        rc, _, err = chromium(tmp, "--screenshot=" + shot_nojs, "--window-size=1280,2000", "--hide-scrollbars",
                              "file://" + os.path.abspath(copy_page))
        check(os.path.exists(shot_nojs) and os.path.getsize(shot_nojs) > 1000,
              "without script: a screenshot at " + shot_nojs)
print("screenshots:", shot, shot_nojs)
print("%d failures" % len(FAILS))
sys.exit(1 if FAILS else 0)
