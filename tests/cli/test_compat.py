#!/usr/bin/env python3
"""cudnnctl compat: questions to the knowledge base through the CLI. The
answers NVIDIA's support matrices give (CUDA 11.4 -> cuDNN 8.2.2/8.2.4; 8.2.2 on sm_90 no;
driver floors; GPU names), every answer with verdict, reason and source, the
JSON document (read with python's json module), the exit statuses (0 all yes,
1 some no, 3 unknown, 2 bad command line) and one-line errors.

usage: test_compat.py --exe CUDNNCTL [--wrapper=WINE]"""
import http.server
import os
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

ARGS = cliutil.parser(wrapper=True).parse_args()
CHECKS = cliutil.Checks()
check = CHECKS.check
EXE = cliutil.Program(ARGS.exe, ARGS.wrapper, timeout=120)


def run(args, online=False):
    """compat with args; --offline unless online (a test reaches nothing but 127.0.0.1)"""
    r = EXE.run(["compat"] + ([] if online else ["--offline"]) + args)
    return r.rc, r.out_text, r.err_text


def doc_of(args, want_rc=None, online=False):
    rc, out, err = run(args + ["--json"], online)
    doc, why = cliutil.parse_json(out)
    if why is not None:
        check(False, "%s: not JSON (%s): %r %r" % (args, why, out[:300], err[:300]))
        return rc, None
    if want_rc is not None:
        check(rc == want_rc, "%s: exit %d, want %d (%s)" % (args, rc, want_rc, err.strip()))
    check(doc.get("schema_version") == 2 and doc.get("tool") == "cudnnctl" and doc.get("command") == "compat"
          and isinstance(doc.get("tool_version"), str), "%s: document header %r" % (args, list(doc)[:5]))
    check(isinstance(doc.get("query"), dict), "%s: query object" % args)
    for a in doc.get("answers", []):
        check(a.get("verdict") in ("yes", "no", "unknown"), "%s: verdict %r" % (args, a.get("verdict")))
        check(isinstance(a.get("question"), str) and a["question"].endswith("?"), "%s: question %r" % (args, a))
        check(isinstance(a.get("reason"), str) and a["reason"] and "\n" not in a["reason"],
              "%s: reason %r" % (args, a.get("reason")))
        check("source" in a and (a["source"] is None or isinstance(a["source"], str)), "%s: source %r" % (args, a))
        if a.get("verdict") != "unknown" and a.get("id") != "gpu":
            check(bool(a.get("source")), "%s: answer %s has no source" % (args, a.get("id")))
    s = doc.get("summary", {})
    n = {v: sum(1 for a in doc.get("answers", []) if a["verdict"] == v) for v in ("yes", "no", "unknown")}
    check(s.get("yes") == n["yes"] and s.get("no") == n["no"] and s.get("unknown") == n["unknown"],
          "%s: summary %r vs %r" % (args, s, n))
    want = 1 if n["no"] else 3 if n["unknown"] else 0
    check(rc == want, "%s: exit %d but the answers say %d" % (args, rc, want))
    return rc, doc


def answers(doc, aid):
    return [a for a in (doc or {}).get("answers", []) if a.get("id") == aid]


def one(doc, aid, args):
    a = answers(doc, aid)
    check(len(a) >= 1, "%s: no answer %s in %r" % (args, aid, [x.get("id") for x in (doc or {}).get("answers", [])]))
    return a[0] if a else {}


# ---- which cuDNN for CUDA 11.4 --------------------------------------------------------
args = ["--cuda", "11.4"]
rc, doc = doc_of(args, 0)
a = one(doc, "cudnn-for-cuda", args)
exact = [r["cudnn"] for r in a.get("releases", []) if r["match"] == "exact"]
check("8.2.2.26" in exact and "8.2.4.15" in exact, "CUDA 11.4: exact releases %r" % exact)
check(all(r["cuda_build"] == "11.4" for r in a.get("releases", []) if r["match"] == "exact"), "11.4 builds")
check(not any(r["cudnn"].startswith("9.11") for r in a.get("releases", [])), "9.11 has no CUDA 11 build")
check(any(r["cudnn"] == "9.10.2.21" and r["match"] == "major" for r in a.get("releases", [])),
      "9.10.2's CUDA 11 build serves 11.4")
drv = answers(doc, "driver-for-cuda")
check(sorted(d["os"] for d in drv) == ["linux", "windows"], "both systems without --os: %r" % drv)
for d in drv:
    want = {"linux": ("470.42.01", "450.80.02"), "windows": ("471.11", "452.39")}[d["os"]]
    check((d["driver_min"], d["driver_floor"]) == want, "CUDA 11.4 %s driver %r" % (d["os"], d))
rc, out, err = run(args)
check(rc == 0 and "8.2.2.26" in out and "8.2.4.15" in out and "470.42.01" in out, "text: %r" % out[:400])
check("source" in out and "reason" in out, "text shows reason and source")

rc, doc = doc_of(["--cuda", "11.4", "--os", "windows"], 0)
check([d["os"] for d in answers(doc, "driver-for-cuda")] == ["windows"], "--os windows: one system")

# ---- the seed pair on a Hopper GPU: no, with why ------------------------------------------
args = ["--cuda", "11.4", "--cudnn", "8.2.2", "--gpu", "sm_90"]
rc, doc = doc_of(args, 1)
check(one(doc, "cudnn-pairs-cuda", args).get("verdict") == "yes", "8.2.2 has an 11.4 build")
r = one(doc, "cudnn-runs-on-gpu", args)
check(r.get("verdict") == "no", "8.2.2 on sm_90: %r" % r)
check("8.6" in r.get("reason", "") and "11.8" in r.get("reason", ""), "reason names 8.6 and 11.8: %r" % r.get("reason"))
check(doc["summary"]["verdict"] == "no", "summary verdict no")
rc, out, err = run(args)
check(rc == 1 and "NO" in out and "8.6" in out, "text of a no: %r" % out[-600:])

rc, doc = doc_of(["--cudnn", "8.2.2", "--gpu", "H200"], 1)
g = one(doc, "gpu", ["H200"])
check(g.get("sm") == 90 and g.get("compute_capability") == "9.0" and g.get("source") == "GPU", "H200: %r" % g)
rc, doc = doc_of(["--gpu", "RTX 4090"], 0)
check(one(doc, "gpu", ["RTX 4090"]).get("sm") == 89, "RTX 4090 -> 89")
rc, doc = doc_of(["--gpu", "sm_120"], 0)
check(one(doc, "gpu", ["sm_120"]).get("sm") == 120, "sm_120 -> 120")
rc, doc = doc_of(["--gpu", "Voodoo 5"], 3)
check(one(doc, "gpu", ["Voodoo"]).get("sm") is None, "unknown GPU: sm null")

rc, doc = doc_of(["--cudnn", "9.19.0", "--gpu", "sm_90"], 0)
check(one(doc, "cudnn-runs-on-gpu", []).get("verdict") == "yes", "9.19.0 on sm_90")
rc, doc = doc_of(["--cudnn", "9.11.0", "--gpu", "sm_70"], 1)
check("9.10.2" in one(doc, "cudnn-runs-on-gpu", []).get("reason", ""), "9.11 on sm_70: last 9.10.2")
rc, doc = doc_of(["--cudnn", "9.5.1", "--gpu", "sm_120"], 1)
check("9.7" in one(doc, "cudnn-runs-on-gpu", []).get("reason", ""), "9.5 on sm_120: needs 9.7")
rc, doc = doc_of(["--cudnn", "9.8.0", "--cuda", "12.8", "--gpu", "RTX 5090"], 0)
check(one(doc, "cudnn-runs-on-gpu", []).get("verdict") == "yes", "9.8 + CUDA 12.8 on a 5090")
rc, doc = doc_of(["--cudnn", "8.2.2", "--cuda", "12.4"], 1)
check(one(doc, "cudnn-pairs-cuda", []).get("verdict") == "no", "8.2.2 has no CUDA 12 build")

# ---- drivers ---------------------------------------------------------------------------------------
rc, doc = doc_of(["--driver", "470.57.02", "--cuda", "11.4", "--os", "linux"], 0)
d = one(doc, "driver-runs-cuda", [])
check(d.get("verdict") == "yes" and "minor-version" not in d.get("reason", ""), "470.57.02 runs 11.4: %r" % d)
rc, doc = doc_of(["--driver", "450.80.02", "--cuda", "11.4", "--os", "linux"], 0)
d = one(doc, "driver-runs-cuda", [])
check(d.get("verdict") == "yes" and "minor-version compatibility" in d.get("reason", ""), "450.80.02: %r" % d)
rc, doc = doc_of(["--driver", "440.33", "--cuda", "11.4", "--os", "linux"], 1)
check(one(doc, "driver-runs-cuda", []).get("verdict") == "no", "440.33 does not run 11.4")
rc, doc = doc_of(["--driver", "580.65.06", "--cuda", "13.0", "--os", "linux"], 0)
check(one(doc, "driver-runs-cuda", []).get("verdict") == "yes", "580.65.06 runs 13.0")
m = one(doc, "cuda-for-driver", [])
check(m.get("max_cuda") == "13.0", "580.65.06: max CUDA %r" % m)
rc, doc = doc_of(["--driver", "580.82.07", "--os", "linux"], 0)
check(one(doc, "cuda-for-driver", []).get("max_cuda") == "13.0", "580.82.07: max CUDA 13.0")
rc, doc = doc_of(["--driver", "580", "--os", "linux"], 3)
check(one(doc, "cuda-for-driver", []).get("max_cuda") is None, "580 alone: which release decides")

# ---- frameworks -------------------------------------------------------------------------------------
rc, doc = doc_of(["--torch", "2.4.1+cu121"], 0)
t = answers(doc, "torch-needs")
check(len(t) == 1 and t[0]["cudnn"] == "9.1.0.70" and t[0]["cuda"] == "12.1" and t[0]["variant"] == "cu121",
      "torch 2.4.1+cu121: %r" % t)
rc, doc = doc_of(["--torch", "2.3.1"], 0)
check(sorted(a["variant"] for a in answers(doc, "torch-needs")) == ["cu118", "cu121"], "torch 2.3 variants")
rc, doc = doc_of(["--torch", "2.3.1", "--cuda", "12.1", "--cudnn", "8.5.0"], 1)
acc = answers(doc, "torch-accepts-cudnn")
check(len(acc) == 1 and acc[0]["verdict"] == "no" and acc[0]["build_cudnn"] == "8.9.2.26",
      "torch 2.3.1 cu121 refuses cuDNN 8.5: %r" % acc)
rc, doc = doc_of(["--torch", "2.11.0+cu130", "--driver", "575.57.08", "--os", "linux"], 1)
check(one(doc, "driver-runs-torch", []).get("verdict") == "no", "a 575 driver cannot run torch cu130")
rc, doc = doc_of(["--tf", "2.15"], 1)
tf = {a["os"]: a for a in answers(doc, "tensorflow-needs")}
check(tf.get("linux", {}).get("cudnn") == "8.9" and tf.get("linux", {}).get("cuda") == "12.2", "tf 2.15 linux")
check(tf.get("windows", {}).get("verdict") == "no" and "WSL2" in tf.get("windows", {}).get("reason", ""),
      "tf 2.15 windows: no GPU build")
rc, doc = doc_of(["--tf", "2.15", "--os", "linux", "--cuda", "11.8"], 1)
check(one(doc, "tensorflow-fits-cuda", []).get("verdict") == "no", "tf 2.15 is a CUDA 12 build")
rc, doc = doc_of(["--torch", "0.4.1"], 3)

# ---- known-bad, unknown releases ------------------------------------------------------------------------
rc, doc = doc_of(["--cudnn", "9.10.0"], 0)
kb = one(doc, "cudnn-known-bad", [])
check(kb.get("listed") is True and "ABI" in kb.get("reason", ""), "9.10.0 is on JAX's list: %r" % kb)
rc, doc = doc_of(["--cudnn", "6.5.1"], 3)
check(one(doc, "cuda-builds-of-cudnn", []).get("verdict") == "unknown", "6.5.1 is not in the tables")
rc, doc = doc_of(["--cuda", "15.0"], 3)

# ---- capabilities the support matrix does not list: binary compatibility, never listed support -------------
for cuda in ("12.8", "13.0"):
    for sm, sass in (("87", "8.6"), ("103", "10.0"), ("121", "12.0")):
        args = ["--cudnn", "9.19.0", "--cuda", cuda, "--gpu", "sm_" + sm]
        rc, doc = doc_of(args, 0)
        a = one(doc, "cudnn-runs-on-gpu", args)
        check(a.get("verdict") == "yes" and a.get("support") == "binary-compatibility"
              and "by binary compatibility" in a.get("reason", "") and "SASS for " + sass in a.get("reason", "")
              and "not listed" in a.get("reason", "") and "CPG" in (a.get("source") or ""),
              "%s: by binary compatibility, not listed: %r" % (args, a))
        rc, out, err = run(args)
        check("inferred" in out and "lower confidence" in out, "%s: the text says it is inferred: %r" % (args, out))
    args = ["--cudnn", "9.19.0", "--cuda", cuda, "--gpu", "sm_110"]
    rc, doc = doc_of(args, 3)
    a = one(doc, "cudnn-runs-on-gpu", args)
    check(a.get("verdict") == "unknown" and a.get("support") is None and "not listed" in a.get("reason", ""),
          "%s: no listed 11.x: unknown, not listed support: %r" % (args, a))
    args = ["--cudnn", "9.19.0", "--cuda", cuda, "--gpu", "sm_90"]
    rc, doc = doc_of(args, 0)
    check(one(doc, "cudnn-runs-on-gpu", args).get("support") == "listed", "%s: listed" % args)

# ---- the audit's rows: 9.28.1 is known; CUDA 12.x's Windows floor is 528.33 ------------------------------
rc, doc = doc_of(["--cudnn", "9.28.1"], 0)
b = one(doc, "cuda-builds-of-cudnn", [])
check(b.get("verdict") == "yes" and set(b.get("builds") or []) == {"12", "13"}, "9.28.1 is known: %r" % b)
rc, doc = doc_of(["--cuda", "12.4", "--os", "windows"], 0)
d = one(doc, "driver-for-cuda", [])
check(d.get("driver_floor") == "528.33" and "528.33" in d.get("reason", ""), "CUDA 12.x Windows floor: %r" % d)
rc, doc = doc_of(["--cuda", "12.4", "--os", "windows", "--driver", "527.41"], 1)
check(one(doc, "driver-runs-cuda", []).get("verdict") == "no", "527.41 is below the floor of CUDA 12.4")

# ---- bad command lines: one line, exit 2 ---------------------------------------------------------------
for bad in (["--cuda", "banana"], ["--cudnn", "x.y"], ["--driver", "470,57"], ["--torch", "2.4+"],
            ["--os", "macos", "--cuda", "11.4"], [], ["11.4"], ["--gpu", ""], ["--frobnicate"]):
    rc, out, err = run(bad)
    lines = [l for l in err.splitlines() if l.strip()]
    check(rc == 2 and out == "" and len(lines) == 1 and lines[0].startswith("cudnnctl compat"),
          "%r: exit %d, stderr %r, stdout %r" % (bad, rc, err, out[:100]))
rc, out, err = run(["--cuda", "banana"])
check("banana" in err and "CUDA" in err, "the error names the value: %r" % err)
rc, out, err = run(["--help"])
check(rc == 0 and "--cuda" in out and "Exit status" in out and "3" in out, "--help")

# ---- a release the tables do not know: NVIDIA's redist listing, served on 127.0.0.1 -----------------------------
class Listing(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_GET(self):
        if self.path == "/redist/":
            data = "".join('<a href="redistrib_%s.json">redistrib_%s.json</a>\n' % (n, n)
                           for n in ("9.19.0", "9.28.1", "9.29.0")).encode()
            self.send_response(200)
        else:
            data = b"no"
            self.send_response(404)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Listing)
threading.Thread(target=srv.serve_forever, daemon=True).start()
index = "http://127.0.0.1:%d/redist/" % srv.server_address[1]


def index_answer(doc):
    return next((a for a in (doc or {}).get("answers", []) if a.get("id") == "cudnn-in-index"), None)


rc, doc = doc_of(["--cudnn", "9.29", "--index", index], 3, online=True)
a = index_answer(doc)
check(a is not None and a["verdict"] == "yes" and "9.29.0" in a["reason"] and "newer than" in a["reason"]
      and a.get("source") == "RDL", "9.29 listed: a release newer than the tables: %r" % a)
rc, doc = doc_of(["--cudnn", "9.31.0", "--index", index], 1, online=True)
a = index_answer(doc)
check(a is not None and a["verdict"] == "no" and "lists no cuDNN 9.31.0" in a["reason"],
      "9.31.0 not listed: no such release: %r" % a)
rc, doc = doc_of(["--cudnn", "7.0.5", "--index", index], 3, online=True)
a = index_answer(doc)
check(a is not None and a["verdict"] == "unknown" and "begins at cuDNN 9.19.0" in a["reason"],
      "7.0.5, older than the index's first release: unknown, not no: %r" % a)
rc, doc = doc_of(["--cudnn", "9.19.0", "--index", index], 0, online=True)
check(index_answer(doc) is None, "a release the tables know: the index is not read: %r" % index_answer(doc))
rc, doc = doc_of(["--cudnn", "9.29", "--index", index.replace("/redist/", "/gone/")], 3, online=True)
a = index_answer(doc)
check(a is not None and a["verdict"] == "unknown" and "could not be read" in a["reason"] and "404" in a["reason"],
      "an index that cannot be read: unknown, with why: %r" % a)
rc, doc = doc_of(["--cudnn", "9.29"], 3)
check(index_answer(doc) is None, "--offline keeps to the tables")
srv.shutdown()

sys.exit(CHECKS.summary("compat"))
