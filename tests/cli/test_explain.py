#!/usr/bin/env python3
"""cudnnctl explain: every error text quoted in the failure-mode catalog
(tests/cli/explain_cases.txt) maps to its catalog id; cuDNN statuses in both
numberings, CUDA and Windows errors, a multi-line log, the version rule, the
JSON document, exit statuses, and hostile input (10 MB of text, binary bytes,
an empty string) answered without crashing."""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

ap = cliutil.parser(wrapper=True)
ap.add_argument("--cases", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "explain_cases.txt"))
args = ap.parse_args()

EXE = cliutil.Program(os.path.abspath(args.exe), args.wrapper, timeout=120)
CHECKS = cliutil.Checks()
check = CHECKS.check


def run(argv, stdin=None, timeout=120):
    r = EXE.run(argv, stdin=stdin, timeout=timeout)
    return r.rc, r.out_text, r.err_text, r.wall


def explain(argv, stdin=None):
    rc, out, err, wall = run(["explain", "--json"] + argv, stdin)
    doc = None
    if out.strip():
        doc, why = cliutil.parse_json(out)
        if why is not None:
            check(False, "not JSON for %r: %s" % (argv, out[:300]))
    return rc, doc, err, wall


def ids(doc):
    """Every catalog id of every match: the first one and the alternatives."""
    out = []
    for m in (doc or {}).get("matches", []):
        if m["id"]:
            out.append(m["id"])
        out.extend(m["also"])
    return out


def first(doc, kind=None):
    for m in (doc or {}).get("matches", []):
        if kind is None or m["kind"] == kind:
            return m
    return {}


# ---- every quoted error text of the catalog ----------------------------------------

ncases = 0
with open(args.cases, encoding="utf-8") as f:
    for line in f:
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        want, text = line.split("\t", 1)
        ncases += 1
        rc, doc, err, _ = explain([text])
        check(rc == 0 and want in ids(doc), "case %r: rc %d, ids %s, want %s %s" % (text, rc, ids(doc), want, err))
        # the same text inside a log is still recognised (not under Wine: every run costs seconds there)
        if args.wrapper:
            continue
        rc, doc, err, _ = explain(["--file", "-"], ("[12:00:01] starting\n%s\n[12:00:02] exit\n" % text).encode())
        check(rc == 0 and want in ids(doc), "case in a log %r: ids %s" % (text, ids(doc)))
check(ncases >= 60, "only %d cases read from %s" % (ncases, args.cases))

# ---- the examples the command must answer, most specific first ------------------------

rc, doc, err, _ = explain(["Could not load library cudnn_cnn_infer64_8.dll. Error code 126"])
m = first(doc)
check(m.get("id") == "win-sublib-126" and m["captures"].get("library") == "cudnn_cnn_infer64_8.dll" and m["code"] == 126
      and m["name"] == "ERROR_MOD_NOT_FOUND", "126 message: %r" % m)
check(any("cudnnctl which cudnn_cnn_infer64_8.dll" in c["command"] for c in m.get("commands", [])),
      "126 message: the commands name the library: %r" % m.get("commands"))
check(m.get("fix") and m.get("source", "").startswith("FM ") and len(m.get("causes", [])) >= 2, "126: fix/causes/source")

rc, doc, err, _ = explain(["cuDNN version incompatibility: PyTorch was compiled against (8, 5, 0) but found runtime "
                           "version (8, 3, 3)"])
m = first(doc)
check(m.get("id") == "runtime-older-than-build", "torch versions: %r" % m.get("id"))
check(m.get("captures") == {"build": "8.5.0", "runtime": "8.3.3"}, "torch captures %r" % m.get("captures"))
check(m.get("rule", {}).get("holds") is False and "minor 3 < build minor 5" in m["rule"]["reason"],
      "torch rule %r" % m.get("rule"))
rc, doc, err, _ = explain(["PyTorch was compiled against (8, 5, 0) but found runtime version (8, 9, 2)"])
check(first(doc).get("rule", {}).get("holds") is True, "a newer runtime minor holds: %r" % first(doc).get("rule"))
rc, doc, err, _ = explain(["PyTorch was compiled against (8, 5, 0) but found runtime version (9, 1, 0)"])
check(first(doc).get("rule", {}).get("holds") is False and "majors differ" in first(doc)["rule"]["reason"],
      "another major fails")

rc, doc, err, _ = explain(["Loaded runtime CuDNN library: 8.1.0 but source was compiled with: 8.6.0"])
m = first(doc)
check(m.get("captures") == {"runtime": "8.1.0", "build": "8.6.0"} and m["rule"]["holds"] is False,
      "TF versions: %r" % m)
rc, doc, err, _ = explain(["Loaded runtime CuDNN library: 5005 (compatibility version 5000) but source was compiled "
                           "with 5105"])
m = first(doc)
check(m.get("captures", {}).get("runtime") == "5.0.5" and m["captures"].get("build") == "5.1.5", "integer versions %r"
      % m.get("captures"))

rc, doc, err, _ = explain(["Unable to load any of {libcudnn_cnn.so.9.1.0, libcudnn_cnn.so.9.1, libcudnn_cnn.so.9, "
                           "libcudnn_cnn.so}"])
m = first(doc)
check(m.get("id") == "v9-sublib-unloadable" and m["captures"].get("library") == "libcudnn_cnn.so.9.1.0"
      and m["captures"].get("library_version") == "9.1.0", "unable to load any: %r" % m)

rc, doc, err, _ = explain(["CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH"])
m = first(doc)
check(m.get("kind") == "cudnn-status" and m["code"] == 1002 and m["major"] == 9
      and m["id"] == "v9-sublibrary-version-mismatch", "SUBLIBRARY_VERSION_MISMATCH: %r" % m)

# ---- cuDNN statuses: names and both numberings --------------------------------------------

for text, name, major, code in [
        ("1001", "CUDNN_STATUS_NOT_INITIALIZED", 9, 1001), ("1", "CUDNN_STATUS_NOT_INITIALIZED", 8, 1),
        ("1002", "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH", 9, 1002), ("14", "CUDNN_STATUS_VERSION_MISMATCH", 8, 14),
        ("3007", "CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH", 9, 3007), ("6", "CUDNN_STATUS_ARCH_MISMATCH", 8, 6),
        ("4003", "CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED", 9, 4003), ("2", "CUDNN_STATUS_ALLOC_FAILED", 8, 2),
        ("5003", "CUDNN_STATUS_EXECUTION_FAILED_CUDART", 9, 5003), ("8", "CUDNN_STATUS_EXECUTION_FAILED", 8, 8),
        ("2000", "CUDNN_STATUS_BAD_PARAM", 9, 2000), ("3", "CUDNN_STATUS_BAD_PARAM", 8, 3),
        ("1008", "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED", 9, 1008), ("11", "CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING", 8, 11),
        ("(6 vs. 0)", "CUDNN_STATUS_ARCH_MISMATCH", 8, 6), ("3008", "CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING", 9, 3008)]:
    rc, doc, err, _ = explain([text])
    m = first(doc, "cudnn-status")
    check(rc == 0 and m.get("name") == name and m.get("major") == major and m.get("code") == code,
          "status %s: %r" % (text, {k: m.get(k) for k in ("name", "major", "code")}))
rc, doc, err, _ = explain(["1"])
check("1001" in (first(doc, "cudnn-status").get("note") or ""), "1: the note names cuDNN 9's 1001")
rc, doc, err, _ = explain(["--major", "9", "1"])
check(first(doc, "cudnn-status") == {} and any("not a cuDNN 9 status" in n for n in doc["notes"]),
      "--major 9 1: no cuDNN 9 status, a note: %r" % (doc and doc["notes"]))
rc, doc, err, _ = explain(["--major", "8", "1001"])
check(rc == 3 and doc and doc["matches"] == [], "--major 8 1001: not recognised (rc %d)" % rc)
for text in ("CUDNN_STATUS_NOT_INITIALIZED", "NOT_INITIALIZED", "not_initialized", "cudnn_status_not_initialized"):
    rc, doc, err, _ = explain([text])
    m = first(doc)
    check(rc == 0 and m.get("name") == "CUDNN_STATUS_NOT_INITIALIZED" and m.get("id") == "not-initialized"
          and [(c["major"], c["code"]) for c in m.get("codes", [])] == [(8, 1), (9, 1001)],
          "name %s: %r" % (text, m))
rc, doc, err, _ = explain(["--major", "9", "NOT_INITIALIZED"])
check(first(doc).get("code") == 1001 and first(doc).get("major") == 9, "--major 9 NOT_INITIALIZED")
rc, doc, err, _ = explain(["CUDNN_STATUS_ARCH_MISMATCH"])
codes = first(doc).get("codes", [])
check(len(codes) == 2 and codes[1]["alias_of"] == "CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH", "alias: %r" % codes)
rc, doc, err, _ = explain(["CuDNNError: 1: CUDNN_STATUS_NOT_INITIALIZED"])
check(first(doc, "cudnn-status").get("major") == 8, "'1: NAME' pins the cuDNN 8 numbering")

# ---- Windows and CUDA errors ---------------------------------------------------------------

for text, code, name, cid in [("126", 126, "ERROR_MOD_NOT_FOUND", "win-sublib-126"),
                              ("127", 127, "ERROR_PROC_NOT_FOUND", "win-sublib-127"),
                              ("193", 193, "ERROR_BAD_EXE_FORMAT", "win-wrong-bitness"),
                              ("1455", 1455, "ERROR_COMMITMENT_LIMIT", "win-pagefile-1455"),
                              ("998", 998, "ERROR_NOACCESS", None), ("5", 5, "ERROR_ACCESS_DENIED", None),
                              ("32", 32, "ERROR_SHARING_VIOLATION", "win-locked-partial-upgrade"),
                              ("87", 87, "ERROR_INVALID_PARAMETER", None),
                              ("WinError 126", 126, "ERROR_MOD_NOT_FOUND", "win-sublib-126"),
                              ("[WinError 193]", 193, "ERROR_BAD_EXE_FORMAT", "win-wrong-bitness"),
                              ("Error code 193", 193, "ERROR_BAD_EXE_FORMAT", "win-wrong-bitness"),
                              ("0x7E", 126, "ERROR_MOD_NOT_FOUND", "win-sublib-126"),
                              ("0x8007007E", 126, "ERROR_MOD_NOT_FOUND", "win-sublib-126"),
                              ("0x5AF", 1455, "ERROR_COMMITMENT_LIMIT", "win-pagefile-1455")]:
    rc, doc, err, _ = explain([text])
    m = first(doc, "windows-error")
    check(rc == 0 and m.get("code") == code and m.get("name") == name and (cid is None or m.get("id") == cid)
          and m.get("message"), "windows %s: %r" % (text, {k: m.get(k) for k in ("code", "name", "id")}))
rc, doc, err, _ = explain(["--system", "linux", "126"])
check(rc == 3, "--system linux 126: no Windows reading, rc %d" % rc)
for text, name, code, cid in [("cudaErrorInsufficientDriver", "cudaErrorInsufficientDriver", 35, "driver-too-old"),
                              ("error 35", "cudaErrorInsufficientDriver", 35, "driver-too-old"),
                              ("35", "cudaErrorInsufficientDriver", 35, "driver-too-old"),
                              ("CUDA_ERROR_NO_DEVICE", "CUDA_ERROR_NO_DEVICE", 100, "not-initialized"),
                              ("100", "cudaErrorNoDevice", 100, "not-initialized"),
                              ("34", "cudaErrorStubLibrary", 34, "not-initialized"),
                              ("999", "cudaErrorUnknown", 999, "not-initialized"),
                              ("209", "cudaErrorNoKernelImageForDevice", 209, "gpu-too-new"),
                              ("222", "cudaErrorUnsupportedPtxVersion", 222, "driver-too-old"),
                              ("cudaErrorInitializationError", "cudaErrorInitializationError", 3, "not-initialized")]:
    rc, doc, err, _ = explain([text])
    m = first(doc, "cuda-error")
    check(rc == 0 and m.get("name") == name and m.get("code") == code and m.get("id") == cid,
          "cuda %s: %r" % (text, {k: m.get(k) for k in ("name", "code", "id")}))
rc, doc, err, _ = explain(["3"])
kinds = [(m["kind"], m["name"]) for m in doc["matches"]]
check(("cudnn-status", "CUDNN_STATUS_BAD_PARAM") in kinds and ("cuda-error", "cudaErrorInitializationError") in kinds
      and not any(n == "CUDA_ERROR_NOT_INITIALIZED" for k, n in kinds), "3: both readings, driver equivalent merged %r"
      % kinds)

# ---- a multi-line log: every recogniser that matches, most specific first ---------------------

log = """2024-05-01 10:00:00 I tensorflow/core/platform/cpu_feature_guard.cc:193] This TensorFlow binary is optimized
2024-05-01 10:00:01 W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory
2024-05-01 10:00:02 E tensorflow/stream_executor/cuda/cuda_dnn.cc:361] Loaded runtime CuDNN library: 8.1.0 but source was compiled with: 8.6.0.  CuDNN library needs to have matching major version and equal or higher minor version.
2024-05-01 10:00:03 E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR
2024-05-01 10:00:03 E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR
Traceback (most recent call last):
RuntimeError: CUDA error: no kernel image is available for execution on the device
"""
rc, doc, err, _ = explain(["-"], log.encode())
got = ids(doc)
for want in ("linux-libcudnn-not-found", "runtime-older-than-build", "internal-error-gpu-memory", "gpu-too-new"):
    check(want in got, "log: %s missing from %s" % (want, got))
scores = [len(m["text"]) for m in doc["matches"]]
lines = {m["id"]: m["line"] for m in doc["matches"] if m["kind"] == "message"}
check(lines.get("linux-libcudnn-not-found") == 2 and lines.get("internal-error-gpu-memory") == 4, "log lines %r" % lines)
check(any(m["count"] == 2 for m in doc["matches"] if m["id"] == "internal-error-gpu-memory"), "log: repeats counted")
check(doc["matches"][0]["recogniser"] == "tf-dlerror", "log: the most specific (longest) first, got %s"
      % doc["matches"][0]["recogniser"])
rc, out, err, _ = run(["explain", "-"], log.encode())
check(rc == 0 and "runtime-older-than-build" in out and "FAILS" in out and "cudnnctl which" in out,
      "log text: rc %d\n%s" % (rc, out[:2000]))

# ---- the JSON document --------------------------------------------------------------------------

rc, doc, err, _ = explain(["CUDNN_STATUS_NOT_INITIALIZED"])
check(doc and doc["schema_version"] == 2 and doc["tool"] == "cudnnctl" and doc["command"] == "explain"
      and doc["input"] == "CUDNN_STATUS_NOT_INITIALIZED" and doc["input_bytes"] == 28 and not doc["input_truncated"]
      and doc["major"] is None and doc["system"] == "any", "document head: %r" % {k: v for k, v in (doc or {}).items()
                                                                                  if k != "matches"})
for m in doc["matches"]:
    for key in ("kind", "id", "code", "name", "major", "captures", "meaning", "causes", "commands", "fix", "source"):
        check(key in m, "match lacks %s" % key)
    check(all(set(c) == {"command", "shows"} and c["command"].startswith("cudnnctl ") for c in m["commands"]),
          "commands are cudnnctl commands: %r" % m["commands"])
rc, doc, err, _ = explain(["--system", "windows", "--major", "9", "1001"])
check(doc["system"] == "windows" and doc["major"] == 9, "options in the document")

# ---- exit statuses and usage -----------------------------------------------------------------

rc, out, err, _ = run(["explain", "this is not any error at all"])
check(rc == 3 and out == "" and err.count("\n") == 1 and "not recognised" in err, "unrecognised: rc %d %r" % (rc, err))
rc, out, err, _ = run(["explain", "CUDNN_STATUS_NOT_INITIALISED"])
check(rc == 3 and "CUDNN_STATUS_NOT_INITIALIZED" in err and err.count("\n") == 1, "suggestion: rc %d %r" % (rc, err))
rc, out, err, _ = run(["explain", "SUBLIBRARY_MISMATCH"])
check(rc == 3 and "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH" in err, "suggestion 2: %r" % err)
rc, doc, err, _ = explain(["CUDNN_STATUS_NOT_INITIALISED"])
check(rc == 3 and doc and "CUDNN_STATUS_NOT_INITIALIZED" in doc["suggestions"], "suggestions in JSON")
rc, out, err, _ = run(["explain"])
check(rc == 2 and err.count("\n") == 1, "no input: rc %d" % rc)
rc, out, err, _ = run(["explain", "--major", "7", "1"])
check(rc == 2, "--major 7: rc %d" % rc)
rc, out, err, _ = run(["explain", "--system", "mac", "1"])
check(rc == 2, "--system mac: rc %d" % rc)
rc, out, err, _ = run(["explain", "--file", "/nonexistent/log.txt"])
check(rc == 3 and "nonexistent" in err, "missing --file: rc %d %r" % (rc, err))
rc, out, err, _ = run(["explain", "-h"])
check(rc == 0 and "usage: cudnnctl explain" in out, "-h")
rc, out, err, _ = run(["explain", "1001"])
check(rc == 0 and "CUDNN_STATUS_NOT_INITIALIZED" in out and "not-initialized" in out and "cudnnctl verify" in out,
      "text 1001:\n%s" % out)
rc, out, err, _ = run(["explain", "Could", "not", "load", "library", "cudnn_cnn_infer64_8.dll.", "Error", "code", "126"])
check(rc == 0 and "win-sublib-126" in out, "words joined: rc %d" % rc)

# ---- hostile input ------------------------------------------------------------------------------

rc, out, err, _ = run(["explain", ""])
check(rc == 3 and "empty" in err, "empty string: rc %d %r" % (rc, err))
rc, doc, err, _ = explain(["-"], b"")
check(rc == 3 and doc and doc["matches"] == [], "empty stdin: rc %d" % rc)
rng = random.Random(7)
binary = bytes(rng.getrandbits(8) for _ in range(1 << 20))
rc, doc, err, wall = explain(["-"], binary)
check(rc in (0, 3) and doc is not None, "1 MiB of random bytes: rc %d %r" % (rc, err[:200]))
blob = b"\x00\xff\xfe" * 1000 + b"\x00Could not load library cudnn_cnn_infer64_8.dll. Error code 127\x00" + b"\x01" * 1000
rc, doc, err, _ = explain(["-"], blob)
check(rc == 0 and "win-sublib-127" in ids(doc), "a message among NUL bytes: rc %d %s" % (rc, ids(doc)))
words = ["error", "Error", "code", "cudnn", "CUDNN_STATUS_", "libcudnn.so", ": cannot", "Loaded", "runtime", "(", "vs.",
         "0x", "WinError", "Could", "not", "load", "library", "{", "*", "\\", "compiled", "with", "."]
parts, size = [], 0
while size < 10 * 1024 * 1024:
    w = rng.choice(words) + (" " if rng.random() < 0.8 else "\n")
    parts.append(w)
    size += len(w)
big = "".join(parts) + "\nRuntimeError: cuDNN error: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH\n"
rc, doc, err, wall = explain(["-"], big.encode())
check(rc == 0 and doc and "v9-sublibrary-version-mismatch" in ids(doc) and doc["input_truncated"]
      and doc["input_bytes"] == len(big), "10 MB of text: rc %d, %s" % (rc, err[:200]))
check(wall < 60, "10 MB of text took %.1f s" % wall)
long_line = ("Loaded runtime CuDNN library: " * 50000).encode()
rc, doc, err, wall = explain(["-"], long_line)
check(rc in (0, 3) and wall < 60, "a long repeated prefix: rc %d, %.1f s" % (rc, wall))
print("explain: 10 MB answered in %.1f s" % wall)

# ---- a finding id of the doctor: its catalog entry ----------------------------------------

cat = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kb", "catalog.tsv")
cat_ids = []
with open(cat, encoding="utf-8") as f:
    for line in f:
        if line.startswith("#") or line.startswith("id\t") or not line.strip():
            continue
        cat_ids.append(line.split("\t", 1)[0])
check(len(cat_ids) >= 40, "catalog ids: %d" % len(cat_ids))
# under Wine each run takes a second or two: a sample there, every id here
for cid in (cat_ids[::10] if args.wrapper else cat_ids):
    rc, doc, err, wall = explain([cid])
    m = first(doc) if doc else None
    check(rc == 0 and m is not None and m.get("kind") == "catalog-id" and m.get("id") == cid and m.get("fix"),
          "explain %s: rc %d, %r" % (cid, rc, m and {k: m.get(k) for k in ("kind", "id")}))
rc, doc, err, wall = explain(["framework-cpu-only-not"])
check(rc != 0 or not any(m.get("kind") == "catalog-id" for m in (doc or {}).get("matches", [])),
      "a near id is no catalog id")

sys.exit(CHECKS.summary())
