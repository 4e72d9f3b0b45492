#!/usr/bin/env python3
"""cudnnctl plan: which cuDNN to install, where and with which command, with every reason. On this machine
(the verdict follows the driver: none here, so the driver comes first), on the recorded H200 facts (driver 580,
CUDA 13, H200 sm_90, PyTorch 2.11 on the cu13 wheel: the pinned wheel), and on generated facts: an old driver
(525: the CUDA 12 build), an sm_50 GPU (the last release supporting Maxwell), a framework pinned to an older
release (its wheel, not the newest), a GPU no build in the tables supports.

usage: test_plan.py --exe CUDNNCTL --source SOURCE_DIR [--wrapper=WINE]"""
import atexit
import copy
import http.server
import json
import os
import shutil
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

P = cliutil.parser(wrapper=True)
P.add_argument("--source", required=True)
ARGS = P.parse_args()
CHECKS = cliutil.Checks()
check = CHECKS.check
EXE = cliutil.Program(ARGS.exe, ARGS.wrapper, timeout=300)
H200 = os.path.join(ARGS.source, "docs", "device", "doctor-frameworks-h200.json")
TMP = tempfile.mkdtemp(prefix="cudnnctl-plan-")
atexit.register(shutil.rmtree, TMP, True)


def plan(args, want_rc=None, online=False):
    r = EXE.run(["plan", "--json"] + ([] if online else ["--offline"]) + args)
    doc, why = cliutil.parse_json(r.out_text)
    check(why is None, "%s: not JSON (%s): %r %r" % (args, why, r.out_text[:300], r.err_text[:300]))
    if why is not None:
        return {}
    if want_rc is not None:
        check(r.rc == want_rc, "%s: exit %d, want %d (%s)" % (args, r.rc, want_rc, r.err_text.strip()))
    check(doc.get("command") == "plan" and doc.get("verdict") in ("install", "driver-first", "none"),
          "%s: header %r" % (args, {k: doc.get(k) for k in ("command", "verdict")}))
    check("newer_than_tables" in doc and (online or doc["newer_than_tables"] is None),
          "%s: newer_than_tables (null when offline): %r" % (args, doc.get("newer_than_tables")))
    for w in doc.get("why", []):
        check(isinstance(w.get("about"), str) and isinstance(w.get("text"), str) and w["text"], "%s: why %r" % (args, w))
    return doc


def whys(doc, about=None):
    return " | ".join(w["text"] for w in doc.get("why", []) if about is None or w["about"] == about)


def facts_file(name, doc):
    path = os.path.join(TMP, name + ".json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


with open(H200) as f:
    BASE = json.load(f)


def machine(driver=None, gpus=(), frameworks=True, toolkits=None, pin=None):
    """The H200 facts changed: the driver, the GPUs [(name, major, minor)], the frameworks, a torch pin."""
    d = copy.deepcopy(BASE)
    d["facts"]["host"]["driver_files"]["version"] = driver
    for v in d["facts"]["verify"]:
        v["document"]["probes"]["driver"]["facts"]["devices"] = [
            {"index": i, "name": n, "cc_major": a, "cc_minor": b} for i, (n, a, b) in enumerate(gpus)]
    if toolkits is not None:
        d["facts"]["host"]["toolkits"] = toolkits
    if not frameworks:
        d["facts"]["frameworks"]["interpreters"] = []
    elif pin is not None:
        for it in d["facts"]["frameworks"]["interpreters"]:
            it["frameworks"] = [f for f in it["frameworks"] if f["name"] == "torch"]
            for f in it["frameworks"]:
                f["info"]["version"] = pin[0]
                f["build"]["cudnn"] = pin[2][:5]
                f["build"]["cuda"] = pin[3]
                f["devices"] = []
                f["distributions"][0]["requires"] = [r for r in f["distributions"][0]["requires"]
                                                     if not r.startswith("nvidia-cudnn")] + [pin[1] + "==" + pin[2]]
    return d


# ---- this machine: no driver, so the driver comes first, and which cuDNN then -------------------------------
doc = plan([], 1)
check(doc.get("verdict") == "driver-first", "this machine (no driver): driver-first, got %r" % doc.get("verdict"))
check(doc.get("machine", {}).get("driver") is None, "no driver read: %r" % doc.get("machine"))
check("driver comes first" in whys(doc, "driver"), "the driver comes first: %r" % whys(doc))
pl = doc.get("plan") or {}
check(pl.get("cudnn") and pl.get("cuda_build") and pl.get("command", "").startswith("cudnnctl install "),
      "which cuDNN then: %r" % pl)
steps = doc.get("steps", [])
check(len(steps) == 2 and steps[0].startswith("install an NVIDIA driver >= ") and steps[1] == pl.get("command"),
      "the steps: the driver, then the install: %r" % steps)
r = EXE.run(["plan", "--offline"])
check("the NVIDIA driver first" in r.out_text and "why:" in r.out_text, "text: %r" % r.out_text[:400])

# ---- the recorded H200: PyTorch 2.11 loads its pinned cu13 wheel ---------------------------------------------
doc = plan(["--facts", H200], 0)
pl = doc.get("plan") or {}
check(doc.get("verdict") == "install" and pl.get("where") == "wheel" and pl.get("cudnn") == "9.19.0.56"
      and pl.get("cuda_build") == "13", "H200: the pinned wheel: %r" % pl)
check(pl.get("command") == "/opt/torch/.venv/bin/python3 -m pip install nvidia-cudnn-cu13==9.19.0.56",
      "H200: the pip command in that environment: %r" % pl.get("command"))
check("PyTorch" in whys(doc, "framework") and "pins" in whys(doc, "framework"), "why a wheel: %r" % whys(doc))
m = doc.get("machine", {})
check(m.get("driver") == "580.159.04" and m.get("max_cuda", "").startswith("13.")
      and [g.get("sm") for g in m.get("gpus", [])] == [90], "H200 facts read: %r" % m)
# --for jax: JAX was built with 9.12: a 9.x release the driver runs, on the H200, into the CUDA 13 toolkit
doc = plan(["--facts", H200, "--for", "jax"], 0)
pl = doc.get("plan") or {}
check(pl.get("where") == "toolkit" and pl.get("cuda_build") == "13" and pl.get("cudnn", "").startswith("9.")
      and pl.get("command", "").startswith("cudnnctl install 9.") and pl["command"].endswith("--cuda 13.0"),
      "--for jax: a toolkit install: %r" % pl)
# the recorded facts without frameworks
doc = plan(["--facts", os.path.join(ARGS.source, "docs", "device", "doctor-h200.json")], 0)
pl = doc.get("plan") or {}
check(pl.get("where") == "toolkit" and pl.get("cuda_build") == "13" and pl.get("support") == "listed",
      "H200 without frameworks: the CUDA 13 build into the toolkit: %r" % pl)

# ---- an old driver: 525 runs CUDA 12, not 13 -----------------------------------------------------------------
doc = plan(["--facts", facts_file("old-driver", machine("525.60.13", [("NVIDIA A100", 8, 0)], frameworks=False))], 0)
pl = doc.get("plan") or {}
check(pl.get("cuda_build") == "12" and pl.get("where") == "side-by-side", "driver 525: the CUDA 12 build: %r" % pl)
check("525.60.13" in whys(doc, "driver") and "CUDA 13" in whys(doc, "driver"),
      "why not the newest: the driver: %r" % whys(doc))

# ---- an sm_50 GPU: the last release that supports Maxwell ----------------------------------------------------
doc = plan(["--facts", facts_file("sm50", machine("580.65.06", [("Tesla M60", 5, 0)], frameworks=False))], 0)
pl = doc.get("plan") or {}
check(pl.get("cudnn", "").startswith("9.10.2") and pl.get("cuda_build") == "12",
      "sm_50: the last release supporting Maxwell (9.10.2, CUDA 12 build): %r" % pl)
check("5.0" in whys(doc, "gpu"), "why not newer: the GPU: %r" % whys(doc))
doc = plan(["--facts", H200, "--gpu", "sm_50", "--driver", "580.65.06", "--for", "tensorflow"], 0)
check((doc.get("plan") or {}).get("cudnn", "").startswith("9.10.2"), "--gpu overrides the facts: %r" % doc.get("plan"))

# ---- a framework pinned to an older release: its wheel, not the newest ---------------------------------------
f = machine("580.65.06", [("NVIDIA A100", 8, 0)],
            pin=("2.4.1+cu121", "nvidia-cudnn-cu12", "9.1.0.70", "12.1"))
doc = plan(["--facts", facts_file("pinned", f)], 0)
pl = doc.get("plan") or {}
check(pl.get("where") == "wheel" and pl.get("cudnn") == "9.1.0.70"
      and pl.get("command", "").endswith("-m pip install nvidia-cudnn-cu12==9.1.0.70"),
      "a pinned older release: that wheel: %r" % pl)
check("2.4.1+cu121" in whys(doc, "framework"), "why a wheel: PyTorch pins it: %r" % whys(doc))

# ---- nothing fits: a GPU newer than every build in the tables --------------------------------------------------
doc = plan(["--facts", facts_file("new-gpu", machine("580.65.06", [("future GPU", 15, 0)], frameworks=False))], 1)
check(doc.get("verdict") == "none" and doc.get("plan") is None and whys(doc, "change"),
      "a GPU no build supports: nothing fits, and what to change: %r" % doc)
# a driver too old for every build that supports the GPU: the driver first
doc = plan(["--facts", facts_file("blackwell-old", machine("525.60.13", [("RTX 5090", 12, 0)], frameworks=False))], 1)
check(doc.get("verdict") == "driver-first" and doc.get("driver_needed"), "sm_120 on 525: the driver first: %r"
      % {k: doc.get(k) for k in ("verdict", "driver_needed", "plan")})

# ---- constraints and bad command lines -------------------------------------------------------------------------
doc = plan(["--facts", H200, "--for", "jax", "--cudnn", "9.19.0"], 0)
check((doc.get("plan") or {}).get("cudnn", "").startswith("9.19.0"), "--cudnn 9.19.0: %r" % doc.get("plan"))
doc = plan(["--facts", H200, "--for", "jax", "--cuda", "12.8"], 1)
check(doc.get("verdict") == "none" and "CUDA 13" in whys(doc), "JAX built with CUDA 13: no CUDA 12 build: %r" % whys(doc))
doc = plan(["--facts", H200, "--for", "tensorflow", "--cuda", "12.8"], 0)
check((doc.get("plan") or {}).get("cuda_build") == "12", "--cuda 12.8: a CUDA 12 build: %r" % doc.get("plan"))
for bad in (["--for", "caffe"], ["--cuda", "x.y", "--facts", H200], ["--facts", os.path.join(TMP, "none.json")],
            ["extra"], ["--gpu", "banana", "--facts", H200]):
    r = EXE.run(["plan", "--offline"] + bad)
    check(r.rc == 2 and r.out_text == "", "%r: exit %d, %r" % (bad, r.rc, r.err_text))

# ---- releases newer than the tables: NVIDIA's redist listing, served on 127.0.0.1 -----------------------------
class Listing(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_GET(self):
        names = ["9.19.0", "9.28.1", "9.30.0", "10.0.0", "9.28.1"]
        if self.path == "/redist/":
            body = "".join('<a href="redistrib_%s.json">redistrib_%s.json</a><br>\n' % (n, n) for n in names)
            data = ("<html><body>%s</body></html>" % body).encode()
            self.send_response(200)
        else:
            data = b"not here"
            self.send_response(404)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Listing)
threading.Thread(target=srv.serve_forever, daemon=True).start()
base = "http://127.0.0.1:%d" % srv.server_address[1]
doc = plan(["--facts", H200, "--index", base + "/redist/"], 0, online=True)
nt = doc.get("newer_than_tables") or {}
check(nt.get("index") == base + "/redist/" and nt.get("error") is None and nt.get("releases") == ["10.0.0", "9.30.0"]
      and nt.get("tables_newest") == "9.28.1", "index: the releases newer than the tables, newest first: %r" % nt)
check("2 releases newer than the tables (10.0.0, ...)" in whys(doc, "tables"), "index: said: %r" % whys(doc))
check((doc.get("plan") or {}).get("cudnn") == "9.19.0.56", "index: the plan keeps to what it knows: %r" % doc.get("plan"))
doc = plan(["--facts", H200, "--index", base + "/missing/", "--timeout", "5"], 0, online=True)
nt = doc.get("newer_than_tables") or {}
check(nt.get("releases") == [] and "404" in (nt.get("error") or "") and "could not be read" in whys(doc, "tables"),
      "index 404: said, and the plan from the tables: %r" % nt)
srv.shutdown()

sys.exit(CHECKS.summary("plan"))
