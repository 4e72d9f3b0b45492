#!/usr/bin/env python3
"""Loading and shadowing failure scenarios (tests/fixtures/gen-scenarios.sh,
failure catalog (kb/catalog.tsv) entries 2, 3, 4, 6, 7, 8, 9, 13, 14, 15, 17, 18, 19, 21, 23,
25 and hostile trees): `cudnnctl which/deps/list --json --root TREE --set ...`
must name the winner and how it won, the copies it shadows with their
versions, what is missing, the notes that matter, the copies elsewhere, and
exit with the documented status (which: 0 found, 3 not found, 1 the load
fails; deps: 1 when something is missing or fails; list: 3 when nothing is
found). Each scenario's text output is read once too.

usage: test_scenarios.py --exe CUDNNCTL --fixtures DIR
Exits 77 (skipped) when the fixtures could not be made here (no gcc/ldconfig
and no mingw-w64).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

ARGS = None
EXE = None  # the program under test (cliutil.Program), made by main()
CHECKS = cliutil.Checks(limit=1500)
check = CHECKS.named

WHEEL = "/home/user/venv/lib/python3.11/site-packages/nvidia/cudnn/lib"
SITE = "/home/user/venv/lib/python3.11/site-packages"
MULTI = "/usr/lib/x86_64-linux-gnu"
CUDA118 = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin"



def scen(name):
    return os.path.join(ARGS.fixtures, "scenarios", name)


def run(args, as_nobody=False, timeout=300):
    nobody = ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups") if as_nobody else ()
    r = EXE.run(args, timeout=timeout, prefix=nobody)
    return r.rc, r.out, r.err


def machine(name, sets=(), system=None):
    a = ["--root", scen(name)]
    if system:
        a += ["--system", system]
    for s in sets:
        a.append("--set=" + s)
    return a


def jrun(label, args, **kw):
    rc, out, err = run(args + ["--json"], **kw)
    doc, why = cliutil.parse_json(out)
    if why is not None:
        check("%s: JSON output" % label, False, "%s rc=%d out=%r err=%r" % (why, rc, out[:300], err[:300]))
        return rc, None
    return rc, doc


def text(args, **kw):
    rc, out, err = run(args, **kw)
    return rc, out.decode("utf-8", "replace") + err.decode("utf-8", "replace")


def which(label, sname, names, sets=(), extra=(), system=None, **kw):
    rc, doc = jrun(label, ["which"] + list(names) + list(extra) + machine(sname, sets, system), **kw)
    res = {r["name"]: r for r in doc["results"]} if doc else {}
    return rc, doc, res


def deps(label, sname, target, sets=(), extra=(), system=None, **kw):
    return jrun(label, ["deps", target] + list(extra) + machine(sname, sets, system), **kw)


def lst(label, sname, sets=(), system=None):
    return jrun(label, ["list"] + machine(sname, sets, system))


def same(a, b, nocase=False):
    if a is None or b is None:
        return False
    return a.lower() == b.lower() if nocase else a == b


def vers(entry, source=None):
    return [v["version"] for v in (entry or {}).get("versions") or []
            if source is None or v.get("source") == source]


def tried_at(r, path, nocase=False):
    return [t for t in (r or {}).get("tried", []) if same(t["path"], path, nocase)]


def notes_have(r, *words):
    return any(all(w in n for w in words) for n in (r or {}).get("notes", []))


def node_at(doc, path, nocase=False):
    for n in (doc or {}).get("nodes", []):
        if same(n["path"], path, nocase):
            return n
    return None


def edges_of(doc, path, nocase=False):
    n = node_at(doc, path, nocase)
    return {e["name"].lower() if nocase else e["name"]: e for e in (n or {}).get("edges", [])}


def all_edges(doc):
    for n in (doc or {}).get("nodes", []):
        for e in n["edges"]:
            yield n, e


def inst_by_prefix(doc, prefix, nocase=False):
    for i in (doc or {}).get("installations", []):
        if same(i["prefix"], prefix, nocase):
            return i
    return None


def exists(name):
    ok = os.path.isdir(scen(name))
    check("fixture %s exists" % name, ok, scen(name))
    return ok


# ---- Linux --------------------------------------------------------------------

def t13_pip_not_on_path():
    s = "linux-13-pip-not-on-path"
    if not exists(s):
        return
    env = ["VIRTUAL_ENV=/home/user/venv", "PATH=/home/user/venv/bin:/usr/bin:/bin"]
    rc, doc, res = which(s, s, ["libcudnn.so.9"], env)
    r = res.get("libcudnn.so.9")
    ld = (doc or {}).get("loader", {})
    check("13: the tree's own loader is used (PT_INTERP of its /bin/sh, directories read from it)",
          ld.get("interpreter") == "/lib64/ld-linux-x86-64.so.2" and ld.get("interpreter_source") == "PT_INTERP of /bin/sh"
          and ld.get("default_dirs_source", "").startswith("read from the loader") and ld.get("glibc"), ld)
    check("13 which libcudnn.so.9: exit 3 (not found)", rc == 3, rc)
    check("13: verdict not-found", doc and doc["verdict"] == "not-found", doc and doc.get("verdict"))
    check("13: not found, how not-found", r and not r["found"] and r["how"] == "not-found" and r["path"] is None, r)
    check("13: nothing found in the search", r and not any(t["outcome"] in ("found", "failed") for t in r["tried"]),
          r and r["tried"])
    check("13: the default directories were searched",
          r and any(t["path"] == MULTI + "/libcudnn.so.9" and t["how"] == "default-dirs" and t["outcome"] == "missing"
                    for t in r["tried"]), r and [t["path"] for t in r["tried"]][-5:])
    check("13: the site-packages copy is not on any search path (never tried)",
          r and not any(t["path"].startswith(WHEEL) for t in r["tried"]), r and r["tried"])
    check("13: found nowhere, so the machine was searched without --all",
          doc and doc.get("searched") == "machine", (doc or {}).get("searched"))
    ew = [e["path"] for e in (r or {}).get("elsewhere", [])]
    check("13: elsewhere lists the wheel copy", ew == [WHEEL + "/libcudnn.so.9"], ew)
    rc, ldoc = lst(s + " list", s, env)
    check("13 list: exit 0", rc == 0, rc)
    i = inst_by_prefix(ldoc, "/home/user/venv/lib/python3.11/site-packages/nvidia/cudnn")
    check("13 list: the wheel is an installation of provenance pip-wheel",
          i and i["provenance"]["kind"] == "pip-wheel", i and i["provenance"])
    check("13 list: the dist-info names nvidia-cudnn-cu12 9.1.0.70",
          i and any(p.get("name") == "nvidia-cudnn-cu12" and p.get("version") == "9.1.0.70"
                    for p in i["provenance"].get("packages", [])), i and i["provenance"])
    check("13 list: version 9.1.0", i and i["version"] == "9.1.0", i and i["version"])
    if i and r and r.get("elsewhere"):
        check("13: the elsewhere copy points at that installation", r["elsewhere"][0].get("installation") == i["id"],
              (r["elsewhere"][0].get("installation"), i["id"]))
    rc, t = text(["which", "libcudnn.so.9"] + machine(s, env))
    check("13 text: says not found and names the wheel copy",
          rc == 3 and "not found" in t and WHEEL + "/libcudnn.so.9" in t, t)


def t14_v8_helper_rpath():
    s = "linux-14-v8-helper-rpath"
    if not exists(s):
        return
    d = "/opt/cudnn-8.9.7/lib"
    rc, doc, res = which(s + " from cnn_infer", s, ["libcudnn_ops_infer.so.8"],
                         extra=["--from", d + "/libcudnn_cnn_infer.so.8"])
    r = res.get("libcudnn_ops_infer.so.8")
    check("14 which ops_infer --from cnn_infer: exit 3", rc == 3, rc)
    check("14: not found", r and not r["found"], r)
    check("14: no RUNPATH step (the helper has none)", r and not any(t["how"] == "runpath" for t in r["tried"]),
          r and r["tried"])
    check("14: the copy in the requester's own directory was not tried",
          r and not tried_at(r, d + "/libcudnn_ops_infer.so.8"), r and r["tried"])
    check("14: a note says it is in the requester's own directory (no $ORIGIN)",
          notes_have(r, d + "/libcudnn_ops_infer.so.8", "requester's own directory", "RUNPATH"), r and r["notes"])
    check("14: elsewhere lists that copy",
          [e["path"] for e in (r or {}).get("elsewhere", [])] == [d + "/libcudnn_ops_infer.so.8"],
          r and r.get("elsewhere"))
    rc, doc, res = which(s + " from shim", s, ["libcudnn_ops_infer.so.8"], extra=["--from", d + "/libcudnn.so.8"])
    r = res.get("libcudnn_ops_infer.so.8")
    check("14 which ops_infer --from the shim: exit 0", rc == 0, rc)
    check("14: found by the shim's RUNPATH $ORIGIN",
          r and r["found"] and r["how"] == "runpath" and r["path"] == d + "/libcudnn_ops_infer.so.8"
          and "RUNPATH of " + d + "/libcudnn.so.8" in (r["origin"] or ""), r)
    check("14: its real path is the .so.8.9.7 file", r and r["realpath"] == d + "/libcudnn_ops_infer.so.8.9.7",
          r and r["realpath"])
    rc, doc = deps(s + " deps cnn_infer", s, d + "/libcudnn_cnn_infer.so.8")
    e = edges_of(doc, d + "/libcudnn_cnn_infer.so.8").get("libcudnn_ops_infer.so.8")
    check("14 deps cnn_infer: exit 1", rc == 1, rc)
    check("14 deps cnn_infer: its DT_NEEDED libcudnn_ops_infer.so.8 is missing",
          e and e["kind"] == "needed" and e["status"] == "missing", e)
    check("14 deps cnn_infer: summary missing 1", doc and doc["summary"]["missing"] == 1, doc and doc["summary"])
    rc, doc = deps(s + " deps shim", s, d + "/libcudnn.so.8")
    ed = edges_of(doc, d + "/libcudnn.so.8")
    helpers = ["libcudnn_%s.so.8" % h for h in ("ops_infer", "ops_train", "cnn_infer", "cnn_train", "adv_infer",
                                                "adv_train")]
    check("14 deps shim: exit 0", rc == 0, rc)
    check("14 deps shim: the six helpers are loaded at run time through its RUNPATH",
          all(ed.get(h) and ed[h]["kind"] == "runtime" and ed[h]["status"] == "loaded" and ed[h]["how"] == "runpath"
              and ed[h]["path"] == d + "/" + h for h in helpers), ed)
    e = edges_of(doc, d + "/libcudnn_cnn_infer.so.8").get("libcudnn_ops_infer.so.8")
    check("14 deps shim: cnn_infer's DT_NEEDED ops_infer is the copy already loaded",
          e and e["status"] == "already-loaded" and e.get("path") == d + "/libcudnn_ops_infer.so.8", e)
    check("14 deps shim: nothing missing", doc and doc["summary"]["missing"] == 0
          and doc["summary"]["runtime_missing"] == 0, doc and doc["summary"])
    rc, t = text(["deps", d + "/libcudnn_cnn_infer.so.8"] + machine(s))
    check("14 text: deps names the missing helper", rc == 1 and "libcudnn_ops_infer.so.8 not found" in t, t)


def t15_broken_chain():
    s = "linux-15-broken-chain"
    if not exists(s):
        return
    env = ["LD_LIBRARY_PATH=/opt/broken/lib"]
    rc, doc, res = which(s, s, ["libcudnn.so.9"], env)
    r = res.get("libcudnn.so.9")
    check("15 which: exit 0", rc == 0, rc)
    check("15: the distro copy wins through ld.so.cache",
          r and r["found"] and r["how"] == "ld.so.cache" and r["path"] == MULTI + "/libcudnn.so.9", r)
    check("15: its real path is libcudnn.so.9.1.0", r and r["realpath"] == MULTI + "/libcudnn.so.9.1.0",
          r and r["realpath"])
    bt = tried_at(r, "/opt/broken/lib/libcudnn.so.9")
    check("15: the LD_LIBRARY_PATH link was tried first and is missing",
          bt and bt[0]["outcome"] == "missing" and bt[0]["how"] == "ld_library_path", bt)
    check("15: the tried entry says the link is dangling",
          bt and "dangling" in (bt[0].get("detail") or ""), bt)
    # found: only the winner's directory was read (no copies elsewhere, no list ids) ...
    check("15: found, so only the copies' directories were read: nothing elsewhere, no list id",
          doc and doc.get("searched") == "directories" and r and "elsewhere" not in r
          and r.get("installation") is None and r.get("installation_version") == "9.1.0"
          and r.get("installation_prefix") == "/usr", ((doc or {}).get("searched"), r))
    # ... and --all searches the machine
    rc, doc, res = which(s + " --all", s, ["libcudnn.so.9", "--all"], env)
    r = res.get("libcudnn.so.9")
    check("15 --all: the machine was searched", doc and doc.get("searched") == "machine", (doc or {}).get("searched"))
    ew = [(e["path"], e["realpath"]) for e in (r or {}).get("elsewhere", [])]
    check("15: the toolkit copy (on no path) is listed elsewhere",
          any(rp == "/usr/local/cuda-12.4/lib64/libcudnn.so.9" for _, rp in ew), ew)
    rc, ldoc = lst(s + " list", s, env)
    check("15 list: exit 0", rc == 0, rc)
    b = inst_by_prefix(ldoc, "/opt/broken")
    f = [x for x in (b or {}).get("files", []) if x["path"] == "/opt/broken/lib/libcudnn.so.9"]
    check("15 list: /opt/broken/lib/libcudnn.so.9 is a dangling link",
          f and f[0]["type"] == "symlink" and f[0].get("link_state") == "dangling"
          and f[0].get("link") == "libcudnn.so.9.0.0", f)
    check("15 list: a dangling-symlink problem for it",
          b and any(p["kind"] == "dangling-symlink" and "/opt/broken/lib/libcudnn.so.9" in p["paths"]
                    for p in b["problems"]), b and b["problems"])
    t = inst_by_prefix(ldoc, "/usr/local/cuda-12.4")
    check("15 list: the toolkit copy's chain is flattened",
          t and any(p["kind"] == "flattened-symlinks" and "libcudnn.so.9" in p["summary"] for p in t["problems"]),
          t and [p["summary"] for p in t["problems"]])
    check("15 list: the flattened copy is still 9.2.1", t and t["version"] == "9.2.1", t and t["version"])
    u = inst_by_prefix(ldoc, "/usr")
    check("15 list: the distro copy belongs to libcudnn9-cuda-12, version 9.1.0, no problems",
          u and u["provenance"]["kind"] == "distro-package" and u["version"] == "9.1.0" and not u["problems"]
          and any(p.get("name") == "libcudnn9-cuda-12" for p in u["provenance"].get("packages", [])), u)
    rc, tx = text(["which", "libcudnn.so.9"] + machine(s, env))
    check("15 text: names the winner", rc == 0 and "libcudnn.so.9 => " + MULTI + "/libcudnn.so.9" in tx, tx)
    rc, tx = text(["list"] + machine(s, env))
    check("15 text list: names the flattened chain and the dangling link",
          rc == 0 and "flattened" in tx and ("dangling" in tx.lower() or "does not exist" in tx), tx[:2000])


def t17_wsl():
    s = "linux-17-wsl-libcuda"
    if not exists(s):
        return
    rc, doc, res = which(s, s, ["libcuda.so"])
    r = res.get("libcuda.so")
    check("17 which libcuda.so: exit 3", rc == 3, rc)
    check("17: libcuda.so is not found", r and not r["found"], r)
    check("17: a note says ld.so.cache has libcuda.so.1 (in /usr/lib/wsl/lib)",
          notes_have(r, "ld.so.cache has libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1"), r and r["notes"])
    rc, doc, res = which(s + " .so.1", s, ["libcuda.so.1"])
    r = res.get("libcuda.so.1")
    check("17 which libcuda.so.1: exit 0, found in /usr/lib/wsl/lib through the cache",
          rc == 0 and r and r["found"] and r["path"] == "/usr/lib/wsl/lib/libcuda.so.1" and r["how"] == "ld.so.cache",
          (rc, r))
    check("17: ld.so.conf.d lists /usr/lib/wsl/lib",
          doc and "/usr/lib/wsl/lib" in doc["loader"]["ld_so_conf_dirs"], doc and doc["loader"]["ld_so_conf_dirs"])
    rc, ldoc = lst(s + " list", s)
    check("17 list: no cuDNN here: exit 3, no installations",
          rc == 3 and ldoc is not None and ldoc["installations"] == [], (rc, ldoc and ldoc["installations"]))
    wr = [x for x in (ldoc or {}).get("roots", []) if x["path"] == "/usr/lib/wsl/lib"]
    check("17 list: /usr/lib/wsl/lib is searched as WSL's (from /proc/version)",
          wr and wr[0]["state"] == "searched" and any("WSL" in src for src in wr[0]["sources"]), wr)
    rc, t = text(["which", "libcuda.so"] + machine(s))
    check("17 text: not found, with the libcuda.so.1 note", rc == 3 and "not found" in t and "libcuda.so.1" in t, t)


def t18_shim_alone():
    s = "linux-18-v9-shim-alone"
    if not exists(s):
        return
    shim = "/opt/shim/lib/libcudnn.so.9"
    rc, doc = deps(s, s, shim)
    ed = edges_of(doc, shim)
    subs = ["libcudnn_ops.so.9", "libcudnn_graph.so.9", "libcudnn_cnn.so.9", "libcudnn_adv.so.9"]
    check("18 deps shim: exit 1", rc == 1, rc)
    check("18: the four sub-libraries are run-time loads, all missing",
          sorted(ed) == sorted(subs) and all(ed[n]["kind"] == "runtime" and ed[n]["status"] == "missing" for n in subs),
          ed)
    check("18: the names tried include the unversioned one (libcudnn_cnn.so)",
          ed.get("libcudnn_cnn.so.9") and "libcudnn_cnn.so" in (ed["libcudnn_cnn.so.9"].get("candidates") or []),
          ed.get("libcudnn_cnn.so.9"))
    check("18: summary: 4 missing at run time, none at link time",
          doc and doc["summary"]["runtime_missing"] == 4 and doc["summary"]["missing"] == 0, doc and doc["summary"])
    e = ed.get("libcudnn_graph.so.9") or {}
    # the edge keeps the search for its last candidate name (libcudnn_graph.so)
    check("18: the shim's RUNPATH ($ORIGIN) was searched for them",
          any(t["path"] in ("/opt/shim/lib/libcudnn_graph.so.9", "/opt/shim/lib/libcudnn_graph.so")
              and t["how"] == "runpath" and t["outcome"] == "missing" for t in e.get("tried", [])),
          [t["path"] for t in e.get("tried", [])])
    rc, t = text(["deps", shim] + machine(s))
    check("18 text: every sub-library named not found",
          rc == 1 and all("%s not found" % n in t for n in subs), t)


def t19_mixed():
    s = "linux-19-mixed-9x"
    if not exists(s):
        return
    env = ["VIRTUAL_ENV=/home/user/venv"]
    shim = WHEEL + "/libcudnn.so.9"
    rc, doc = deps(s, s, shim, env)
    ed = edges_of(doc, shim)
    adv = ed.get("libcudnn_adv.so.9")
    check("19 deps wheel shim: exit 1 (everything resolves, but into a mixed set)", rc == 1, rc)
    cd = (doc or {}).get("summary", {}).get("cudnn", {})
    check("19: the summary sees two directories and two versions: a mixed set",
          cd.get("mixed") is True and len(cd.get("directories", [])) == 2 and sorted(cd.get("versions", [])) == ["9.1.0", "9.3.0"],
          cd)
    check("19: a note names the mixed set", any("mixed set" in n for n in (doc or {}).get("notes", [])),
          (doc or {}).get("notes"))
    check("19: libcudnn_adv.so.9 (absent from the wheel) comes from the system directory through ld.so.cache",
          adv and adv["status"] == "loaded" and adv["path"] == MULTI + "/libcudnn_adv.so.9"
          and adv["how"] == "ld.so.cache", adv)
    n = node_at(doc, MULTI + "/libcudnn_adv.so.9")
    check("19: that copy is 9.3.0 (its exported constant)", n and vers(n, "exported-constant") == ["9.3.0"],
          n and n["versions"])
    check("19: its real path is the 9.3.0 file", n and n["realpath"] == MULTI + "/libcudnn_adv.so.9.3.0",
          n and n["realpath"])
    for sub in ("libcudnn_ops.so.9", "libcudnn_graph.so.9", "libcudnn_cnn.so.9"):
        e = ed.get(sub)
        check("19: %s comes from the wheel (RUNPATH $ORIGIN)" % sub,
              e and e["status"] == "loaded" and e["path"] == WHEEL + "/" + sub and e["how"] == "runpath", e)
    g = node_at(doc, WHEEL + "/libcudnn_graph.so.9")
    check("19: the wheel's graph library is 9.1.0", g and vers(g, "exported-constant") == ["9.1.0"],
          g and g["versions"])
    ae = edges_of(doc, MULTI + "/libcudnn_adv.so.9").get("libcudnn_graph.so.9")
    check("19: the system adv library's DT_NEEDED graph is the wheel's, already loaded",
          ae and ae["status"] == "already-loaded" and ae.get("path") == WHEEL + "/libcudnn_graph.so.9", ae)
    rc, wdoc, res = which(s + " which", s, ["libcudnn_adv.so.9"], env, extra=["--from", shim])
    r = res.get("libcudnn_adv.so.9")
    check("19 which adv --from the wheel shim: exit 0, through ld.so.cache",
          rc == 0 and r and r["found"] and r["how"] == "ld.so.cache", (rc, r))
    check("19: the wheel directory was tried first (RUNPATH) and has no adv",
          r and any(t["path"] == WHEEL + "/libcudnn_adv.so.9" and t["how"] == "runpath" and t["outcome"] == "missing"
                    for t in r["tried"]), r and r["tried"])
    rc, ldoc = lst(s + " list", s, env)
    w = inst_by_prefix(ldoc, "/home/user/venv/lib/python3.11/site-packages/nvidia/cudnn")
    u = inst_by_prefix(ldoc, "/usr")
    check("19 list: the wheel 9.1.0 is an incomplete set",
          w and w["version"] == "9.1.0" and any(p["kind"] == "incomplete-set" and "cudnn_adv" in p["summary"]
                                                for p in w["problems"]), w and (w["version"], w["problems"]))
    check("19 list: the system copy is 9.3.0", u and u["version"] == "9.3.0", u and u["version"])
    rc, t = text(["deps", shim] + machine(s, env))
    check("19 text: names the system adv library and the mixed set",
          rc == 1 and MULTI + "/libcudnn_adv.so.9" in t and "mixed set" in t, t)


def t21_major_mismatch():
    s = "linux-21-major-mismatch"
    if not exists(s):
        return
    prog = "/opt/whisper/bin/whisper-ct2"
    rc, doc = deps(s, s, prog)
    ed = edges_of(doc, prog)
    check("21 deps program: exit 1", rc == 1, rc)
    check("21: DT_NEEDED libcudnn_ops_infer.so.8 is missing",
          ed.get("libcudnn_ops_infer.so.8") and ed["libcudnn_ops_infer.so.8"]["status"] == "missing"
          and ed["libcudnn_ops_infer.so.8"]["kind"] == "needed", ed.get("libcudnn_ops_infer.so.8"))
    check("21: libc.so.6 loads from the cache", ed.get("libc.so.6") and ed["libc.so.6"]["status"] == "loaded"
          and ed["libc.so.6"]["path"] == "/lib/x86_64-linux-gnu/libc.so.6", ed.get("libc.so.6"))
    check("21: summary missing 1", doc and doc["summary"]["missing"] == 1, doc and doc["summary"])
    rc, wdoc, res = which(s + " which cudnn", s, ["cudnn"])
    check("21 which cudnn: exit 0", rc == 0, rc)
    r9, r8 = res.get("libcudnn.so.9"), res.get("libcudnn.so.8")
    check("21: libcudnn.so.9 found in the distro directory",
          r9 and r9["found"] and r9["path"] == MULTI + "/libcudnn.so.9" and r9["how"] == "ld.so.cache", r9)
    check("21: libcudnn.so.8 not found", r8 is not None and not r8["found"], r8)
    check("21: verdict found (a cuDNN is there)", wdoc and wdoc["verdict"] == "found", wdoc and wdoc["verdict"])
    rc, wdoc, res = which(s + " which ops_infer", s, ["cudnn_ops_infer"])
    check("21 which cudnn_ops_infer: exit 3 (cuDNN 9 has no ops_infer)",
          rc == 3 and wdoc and wdoc["verdict"] == "not-found" and not any(r["found"] for r in res.values()),
          (rc, wdoc and wdoc["verdict"]))
    rc, ldoc = lst(s + " list", s)
    check("21 list: one installation, majors [9]",
          ldoc and len(ldoc["installations"]) == 1 and ldoc["installations"][0]["majors"] == [9],
          ldoc and [(i["prefix"], i["majors"]) for i in ldoc["installations"]])
    rc, t = text(["which", "cudnn"] + machine(s))
    check("21 text: names the .so.9 winner", rc == 0 and MULTI + "/libcudnn.so.9" in t, t)


def t23_ort_provider():
    s = "linux-23-ort-provider"
    if not exists(s):
        return
    env = ["VIRTUAL_ENV=/home/user/venv"]
    capi = SITE + "/onnxruntime/capi"
    prov = capi + "/libonnxruntime_providers_cuda.so"
    rc, doc = deps(s, s, prov, env)
    ed = edges_of(doc, prov)
    check("23 deps provider: exit 1", rc == 1, rc)
    check("23: libcudnn.so.9 (DT_NEEDED) is missing",
          ed.get("libcudnn.so.9") and ed["libcudnn.so.9"]["status"] == "missing", ed.get("libcudnn.so.9"))
    e = ed.get("libonnxruntime_providers_shared.so")
    check("23: libonnxruntime_providers_shared.so loads from its own directory (RUNPATH $ORIGIN)",
          e and e["status"] == "loaded" and e["how"] == "runpath" and e["path"] == capi + "/libonnxruntime_providers_shared.so",
          e)
    check("23: summary missing 1", doc and doc["summary"]["missing"] == 1, doc and doc["summary"])
    rc, wdoc, res = which(s + " which", s, ["libcudnn.so.9"], env, extra=["--from", prov])
    r = res.get("libcudnn.so.9")
    check("23 which --from provider: exit 3", rc == 3 and r and not r["found"], (rc, r))
    check("23: the provider's RUNPATH ($ORIGIN) was searched",
          r and any(t["path"] == capi + "/libcudnn.so.9" and t["how"] == "runpath" for t in r["tried"]),
          r and r["tried"][:3])
    check("23: the wheel's copy is listed elsewhere",
          r and [e["path"] for e in r.get("elsewhere", [])] == [WHEEL + "/libcudnn.so.9"], r and r.get("elsewhere"))
    rc, t = text(["which", "libcudnn.so.9", "--from", prov] + machine(s, env))
    check("23 text: not found, the wheel copy named", rc == 3 and "not found" in t and WHEEL in t, t)


def t25_conda_vs_system():
    s = "linux-25-conda-vs-system"
    if not exists(s):
        return
    conda, cuda = "/opt/conda/envs/tf/lib", "/usr/local/cuda/lib64"
    env = ["CONDA_PREFIX=/opt/conda/envs/tf", "LD_LIBRARY_PATH=%s:%s" % (conda, cuda)]
    rc, doc, res = which(s, s, ["libcudnn.so.8"], env)
    r = res.get("libcudnn.so.8")
    check("25 which (conda first): exit 0", rc == 0, rc)
    check("25: the conda copy wins, LD_LIBRARY_PATH element 1",
          r and r["found"] and r["path"] == conda + "/libcudnn.so.8" and r["how"] == "ld_library_path"
          and r["origin"] == "LD_LIBRARY_PATH element 1", r)
    check("25: winner's real path is libcudnn.so.8.1.0", r and r["realpath"] == conda + "/libcudnn.so.8.1.0",
          r and r["realpath"])
    sh = (r or {}).get("shadowed", [])
    check("25: the toolkit copy is shadowed (LD_LIBRARY_PATH element 2)",
          len(sh) == 1 and sh[0]["path"] == cuda + "/libcudnn.so.8" and sh[0]["how"] == "ld_library_path"
          and sh[0]["realpath"] == "/usr/local/cuda-11.8/lib64/libcudnn.so.8.6.0", sh)
    check("25: the winner's version from its file name is 8.1.0", "8.1.0" in vers(r, "file-name"),
          r and r.get("versions"))
    check("25: the shadowed copy's version from its file name is 8.6.0", sh and "8.6.0" in vers(sh[0], "file-name"),
          sh and sh[0].get("versions"))
    rc, ldoc = lst(s + " list", s, env)
    ci, ti = inst_by_prefix(ldoc, "/opt/conda/envs/tf"), inst_by_prefix(ldoc, "/usr/local/cuda-11.8")
    check("25 list: conda-package 8.1.0 and cuda-toolkit 8.6.0",
          ci and ti and ci["provenance"]["kind"] == "conda-package" and ci["version"] == "8.1.0"
          and ti["provenance"]["kind"] == "cuda-toolkit" and ti["version"] == "8.6.0",
          ldoc and [(i["prefix"], i["provenance"]["kind"], i["version"]) for i in ldoc["installations"]])
    check("25: without --all, winner and shadowed copy name their installations by prefix and version only",
          r and sh and r.get("installation") is None and sh[0].get("installation") is None
          and (r.get("installation_prefix"), r.get("installation_version")) == ("/opt/conda/envs/tf", "8.1.0")
          and (sh[0].get("installation_prefix"), sh[0].get("installation_version")) == ("/usr/local/cuda-11.8", "8.6.0"),
          r and sh and [(x.get("installation"), x.get("installation_prefix"), x.get("installation_version"))
                        for x in (r, sh[0])])
    rc, doc, res = which(s + " --all", s, ["libcudnn.so.8", "--all"], env)
    r = res.get("libcudnn.so.8")
    sh = (r or {}).get("shadowed", [])
    if ci and ti and r and sh:
        check("25 --all: winner and shadowed copy point at those installations (list's ids)",
              r.get("installation") == ci["id"] and sh[0].get("installation") == ti["id"],
              (r.get("installation"), sh[0].get("installation"), ci["id"], ti["id"]))
    env2 = ["CONDA_PREFIX=/opt/conda/envs/tf", "LD_LIBRARY_PATH=%s:%s" % (cuda, conda)]
    rc, doc, res = which(s + " reversed", s, ["libcudnn.so.8"], env2)
    r = res.get("libcudnn.so.8")
    check("25 which (toolkit first): the toolkit copy wins, the conda copy is shadowed",
          rc == 0 and r and r["path"] == cuda + "/libcudnn.so.8"
          and r["realpath"] == "/usr/local/cuda-11.8/lib64/libcudnn.so.8.6.0"
          and [x["path"] for x in r["shadowed"]] == [conda + "/libcudnn.so.8"], r)
    rc, t = text(["which", "libcudnn.so.8"] + machine(s, env))
    check("25 text: names the winner and what it shadows",
          rc == 0 and "libcudnn.so.8 => " + conda + "/libcudnn.so.8" in t and "shadows" in t
          and cuda + "/libcudnn.so.8" in t, t)


# ---- Linux, hostile ---------------------------------------------------------------

def host_loop_behaviour():
    """What this machine's ld.so does after a symbolic link loop in
    LD_LIBRARY_PATH element 1: 'abandons' the rest of LD_LIBRARY_PATH
    (glibc's open_path returns on an error other than ENOENT/EACCES) or
    'goes-on' to element 2. None when it cannot be seen here."""
    ldso = "/lib64/ld-linux-x86-64.so.2"
    if not shutil.which("gcc") or not os.path.exists(ldso):
        return None
    d = tempfile.mkdtemp(prefix="cc-scen-loop-")
    try:
        os.makedirs(os.path.join(d, "loop"))
        os.makedirs(os.path.join(d, "good"))
        with open(os.path.join(d, "l.c"), "w") as f:
            f.write("int fx_loop(void){return 0;}\n")
        with open(os.path.join(d, "m.c"), "w") as f:
            f.write("int fx_loop(void); int main(void){return fx_loop();}\n")
        subprocess.run(["gcc", "-shared", "-fPIC", "-o", "good/libfxloop.so.1", "-Wl,-soname,libfxloop.so.1", "l.c"],
                       cwd=d, check=True, stderr=subprocess.DEVNULL)
        subprocess.run(["gcc", "-o", "prog", "m.c", "good/libfxloop.so.1"], cwd=d, check=True,
                       stderr=subprocess.DEVNULL)
        os.symlink("libfxloop.so.1.0", os.path.join(d, "loop", "libfxloop.so.1"))
        os.symlink("libfxloop.so.1", os.path.join(d, "loop", "libfxloop.so.1.0"))
        env = {k: v for k, v in os.environ.items() if not k.startswith("LD_")}
        env.update(LD_DEBUG="libs", LD_LIBRARY_PATH="%s/loop:%s/good" % (d, d))
        p = subprocess.run([os.path.join(d, "prog")], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=60)
        lines = p.stderr.decode("utf-8", "replace")
        if "trying file=%s/loop/libfxloop.so.1" % d not in lines:
            return None
        return "goes-on" if "trying file=%s/good/libfxloop.so.1" % d in lines else "abandons"
    except (OSError, subprocess.SubprocessError):
        return None
    finally:
        shutil.rmtree(d, ignore_errors=True)


def t_symlink_loop():
    s = "linux-h-symlink-loop"
    if not exists(s):
        return
    env = ["LD_LIBRARY_PATH=/opt/loop/lib:/opt/good/lib"]
    rc, doc, res = which(s, s, ["libcudnn.so.9"], env)
    r = res.get("libcudnn.so.9")
    check("loop which: exit 0 (something is found)", rc == 0 and r and r["found"], (rc, r))
    lt = tried_at(r, "/opt/loop/lib/libcudnn.so.9")
    check("loop: the looping link is passed over with 'too many levels of symbolic links'",
          lt and lt[0]["outcome"] == "skipped" and "too many levels of symbolic links" in (lt[0].get("detail") or ""), lt)
    check("loop: the detail names tree paths, not the host's",
          lt and "scenarios/" + s not in (lt[0].get("detail") or ""), lt and lt[0].get("detail"))
    behaviour = host_loop_behaviour()
    print("     (this machine's ld.so after ELOOP in LD_LIBRARY_PATH element 1: %s)" % (behaviour or "not seen"))
    if behaviour == "goes-on":
        check("loop: the search goes on to LD_LIBRARY_PATH element 2 (as this ld.so does)",
              r and r["path"] == "/opt/good/lib/libcudnn.so.9" and r["how"] == "ld_library_path", r)
    else:
        # glibc (elf/dl-load.c open_path): an error other than ENOENT/EACCES
        # in one element ends that search path; ld.so goes on with RUNPATH,
        # ld.so.cache and the default directories.
        check("loop: ld.so leaves LD_LIBRARY_PATH at the loop and finds the cache's copy",
              r and r["path"] == MULTI + "/libcudnn.so.9" and r["how"] == "ld.so.cache", r)
        check("loop: LD_LIBRARY_PATH element 2 is not tried before the winner",
              r and not any(t["path"].startswith("/opt/good/lib/") for t in r["tried"]),
              r and [t["path"] for t in r["tried"] if t["outcome"] != "missing"])
    rc, t = text(["which", "libcudnn.so.9"] + machine(s, env))
    check("loop text: names a winner", rc == 0 and "libcudnn.so.9 => " in t, t)


def t_corrupt_cache():
    s = "linux-h-corrupt-cache"
    if not exists(s):
        return
    rc, doc, res = which(s, s, ["libcudnn.so.9"])
    r = res.get("libcudnn.so.9")
    check("corrupt cache: exit 0", rc == 0, rc)
    check("corrupt cache: the loader reports the cache as unreadable",
          doc and doc["loader"]["ld_so_cache"]["error"] and doc["loader"]["ld_so_cache"]["entries"] == 0,
          doc and doc["loader"]["ld_so_cache"])
    check("corrupt cache: a note says ld.so ignores it",
          doc and any("ld.so.cache" in n and "ignores" in n for n in doc["loader"]["notes"]), doc and doc["loader"]["notes"])
    check("corrupt cache: found in the default directories",
          r and r["found"] and r["how"] == "default-dirs" and r["path"] == MULTI + "/libcudnn.so.9", r)
    check("corrupt cache: no ld.so.cache step was tried", r and not any(t["how"] == "ld.so.cache" for t in r["tried"]),
          r and r["tried"])
    rc, doc, res = which(s + " heuristic", s, ["libcudnn_heuristic.so.9"])
    r = res.get("libcudnn_heuristic.so.9")
    check("corrupt cache: libcudnn_heuristic.so.9 (only in an ld.so.conf directory): exit 3",
          rc == 3 and r and not r["found"], (rc, r))
    check("corrupt cache: a note says /opt/cudnn/lib has it but the cache does not: run ldconfig",
          notes_have(r, "/opt/cudnn/lib/libcudnn_heuristic.so.9", "ld.so.conf", "run ldconfig"), r and r["notes"])
    check("corrupt cache: elsewhere lists the /opt/cudnn/lib copy",
          r and [e["path"] for e in r["elsewhere"]] == ["/opt/cudnn/lib/libcudnn_heuristic.so.9"], r and r["elsewhere"])
    rc, t = text(["which", "libcudnn.so.9"] + machine(s))
    check("corrupt cache text: names the winner", rc == 0 and MULTI + "/libcudnn.so.9" in t, t)


def t_long_path():
    s = "linux-h-long-path"
    if not exists(s):
        return
    n = 1200
    llp = ":".join("/nonexistent/entry%05d/lib" % i for i in range(n)) + ":/opt/far/away/lib"
    check("long path: LD_LIBRARY_PATH is over 32 KiB", len(llp) > 32 * 1024, len(llp))
    try:
        rc, doc, res = which(s, s, ["libcudnn.so.9"], ["LD_LIBRARY_PATH=" + llp], timeout=120)
    except subprocess.TimeoutExpired:
        check("long path: answers within 120 s", False)
        return
    r = res.get("libcudnn.so.9")
    check("long path: exit 0", rc == 0, rc)
    check("long path: found at the last element",
          r and r["found"] and r["path"] == "/opt/far/away/lib/libcudnn.so.9"
          and r["origin"] == "LD_LIBRARY_PATH element %d" % (n + 1), r and {k: r[k] for k in ("path", "origin")})
    sub = len(doc["loader"]["subdirs"]) if doc else 0
    check("long path: every element was tried (with each hwcaps subdirectory)",
          r and sub and len(r["tried"]) == (n + 1) * sub, (r and len(r["tried"]), sub))
    rc, t = text(["which", "libcudnn.so.9", "--set=LD_LIBRARY_PATH=" + llp] + machine(s), timeout=120)
    check("long path text: names the winner, short", rc == 0 and "/opt/far/away/lib/libcudnn.so.9" in t
          and len(t) < 4000, (rc, len(t)))


def t_32bit_first():
    s = "linux-h-32bit-first"
    if not exists(s):
        return
    env = ["LD_LIBRARY_PATH=/opt/cudnn32/lib:/opt/cudnn/lib"]
    rc, doc, res = which(s, s, ["libcudnn.so.9"], env)
    r = res.get("libcudnn.so.9")
    check("32-bit: exit 0", rc == 0, rc)
    check("32-bit: the 64-bit copy in element 2 wins",
          r and r["found"] and r["path"] == "/opt/cudnn/lib/libcudnn.so.9" and r["origin"] == "LD_LIBRARY_PATH element 2",
          r)
    t32 = tried_at(r, "/opt/cudnn32/lib/libcudnn.so.9")
    check("32-bit: the 32-bit copy is skipped (ELF 32-bit)",
          t32 and t32[0]["outcome"] == "skipped" and "32-bit" in (t32[0].get("detail") or ""), t32)
    rc, doc, res = which(s + " --all", s, ["libcudnn.so.9", "--all"], env)
    r = res.get("libcudnn.so.9")
    check("32-bit: the 32-bit copy, being on the search path, is not listed as elsewhere (--all)",
          r and "elsewhere" in r and not any(e["path"] == "/opt/cudnn32/lib/libcudnn.so.9" for e in r["elsewhere"]),
          r and r.get("elsewhere"))
    rc, t = text(["which", "libcudnn.so.9"] + machine(s, env))
    check("32-bit text: names the winner", rc == 0 and "libcudnn.so.9 => /opt/cudnn/lib/libcudnn.so.9" in t, t)


def t_non_elf_first():
    s = "linux-h-non-elf-first"
    if not exists(s):
        return
    env = ["LD_LIBRARY_PATH=/opt/downloads/lib"]
    bad = "/opt/downloads/lib/libcudnn.so.9"
    rc, doc, res = which(s, s, ["libcudnn.so.9"], env)
    r = res.get("libcudnn.so.9")
    check("non-ELF: exit 1 (the load fails)", rc == 1, rc)
    check("non-ELF: verdict fails", doc and doc["verdict"] == "fails", doc and doc["verdict"])
    check("non-ELF: not found", r and not r["found"] and r["path"] is None, r)
    last = r["tried"][-1] if r and r["tried"] else {}
    check("non-ELF: the search stops at the HTML file with 'invalid ELF header'",
          last.get("path") == bad and last.get("outcome") == "failed" and "invalid ELF header" in (last.get("detail") or ""),
          last)
    check("non-ELF: the cache's good copy is listed as shadowed",
          r and [x["path"] for x in r["shadowed"]] == [MULTI + "/libcudnn.so.9"], r and r["shadowed"])
    check("non-ELF: a note says the load fails there", notes_have(r, bad, "the load fails here"), r and r["notes"])
    check("non-ELF: no note claims ld.so.cache lacks an entry it has",
          r and not any("ld.so.cache has no usable entry" in n and MULTI + "/libcudnn.so.9" in n for n in r["notes"]),
          r and r["notes"])
    check("non-ELF: the failing file is not 'on no search path' (elsewhere)",
          r and not any(e["path"] == bad for e in r["elsewhere"]), r and r["elsewhere"])
    rc, ddoc = deps(s + " deps", s, "/opt/train/bin/train", env)
    e = edges_of(ddoc, "/opt/train/bin/train").get("libcudnn.so.9")
    check("non-ELF deps program: exit 1, libcudnn.so.9 fails",
          rc == 1 and e and e["status"] == "fails" and ddoc["summary"]["fails"] == 1, (rc, e, ddoc and ddoc["summary"]))
    rc, t = text(["deps", "libcudnn.so.9"] + machine(s, env))
    check("non-ELF deps libcudnn.so.9 (a name): exit 1 and the failing file named, not 'no such library' (3)",
          rc == 1 and bad in t, (rc, t))
    rc, t = text(["which", "libcudnn.so.9"] + machine(s, env))
    check("non-ELF text: names the file the load fails at", rc == 1 and "fails at " + bad in t, t)


def t_unreadable_dir():
    s = "linux-h-unreadable-dir"
    if not exists(s):
        return
    env = ["LD_LIBRARY_PATH=/opt/locked/lib:/opt/ok/lib"]
    rc, doc, res = which(s + " as root", s, ["libcudnn.so.9"], env)
    r = res.get("libcudnn.so.9")
    if os.geteuid() == 0:
        check("unreadable (as root, who can enter it): the copy in /opt/locked/lib wins",
              rc == 0 and r and r["path"] == "/opt/locked/lib/libcudnn.so.9", r)
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        print("skip unreadable directory as another user: needs root and setpriv")
        return
    exe = os.path.abspath(ARGS.exe)
    probe = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-c",
                            'test -x "$1" && test -r "$2/etc/ld.so.cache" && ! test -r "$2/opt/locked/lib"', "sh",
                            exe, scen(s)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if probe.returncode != 0:
        print("skip unreadable directory as nobody: nobody cannot reach the binary or the fixtures here")
        return
    rc, doc, res = which(s + " as nobody", s, ["libcudnn.so.9"], env, as_nobody=True)
    r = res.get("libcudnn.so.9")
    check("unreadable (as nobody): exit 0", rc == 0, rc)
    check("unreadable: the copy in /opt/ok/lib (element 2) wins",
          r and r["found"] and r["path"] == "/opt/ok/lib/libcudnn.so.9" and r["origin"] == "LD_LIBRARY_PATH element 2", r)
    lt = tried_at(r, "/opt/locked/lib/libcudnn.so.9")
    check("unreadable: the locked copy is passed over with a permission error",
          lt and lt[0]["outcome"] == "skipped" and "ermission" in (lt[0].get("detail") or ""), lt)
    check("unreadable: the detail names tree paths, not the host's",
          lt and "scenarios/" + s not in (lt[0].get("detail") or ""), lt and lt[0].get("detail"))
    rc, t = text(["which", "libcudnn.so.9"] + machine(s, env), as_nobody=True)
    check("unreadable text: names the winner", rc == 0 and "/opt/ok/lib/libcudnn.so.9" in t, t)


# ---- Windows ----------------------------------------------------------------------

W = "windows"


def w03_sublib_missing():
    s = "win-03-sublib-missing"
    if not exists(s):
        return
    for label, target, sets in (("deps app.exe", "C:\\app\\app.exe", ()),
                                ("deps cudnn64_8.dll", "cudnn64_8.dll", ("PATH=C:\\app",))):
        rc, doc = deps("3 " + label, s, target, sets, system=W)
        check("3 %s: exit 1" % label, rc == 1, rc)
        shim = edges_of(doc, "C:\\app\\cudnn64_8.dll", nocase=True)
        e = shim.get("cudnn_cnn_infer64_8.dll")
        check("3 %s: cudnn_cnn_infer64_8.dll (run time) is missing, error 126" % label,
              e and e["kind"] == "runtime" and e["status"] == "missing" and e.get("windows_error") == 126, e)
        others = [n for n in shim if n != "cudnn_cnn_infer64_8.dll"]
        check("3 %s: the other five sub-libraries load from C:\\app" % label,
              len(others) == 5 and all(shim[n]["status"] == "loaded" and shim[n]["path"].lower().startswith("c:\\app\\")
                                       for n in others), shim)
        z = edges_of(doc, "C:\\app\\cudnn_ops_infer64_8.dll", nocase=True).get("zlibwapi.dll")
        check("3 %s: cudnn_ops_infer64_8.dll's import zlibwapi.dll is missing" % label,
              z and z["kind"] == "import" and z["status"] == "missing" and z.get("windows_error") == 126, z)
        missing = sorted(set(e["name"].lower() for _, e in all_edges(doc) if e["status"] == "missing"))
        check("3 %s: exactly cudnn_cnn_infer64_8.dll and zlibwapi.dll are missing" % label,
              missing == ["cudnn_cnn_infer64_8.dll", "zlibwapi.dll"], missing)
        check("3 %s: summary 2 missing imports, 1 missing run-time load" % label,
              doc and doc["summary"]["missing"] == 2 and doc["summary"]["runtime_missing"] == 1, doc and doc["summary"])
    rc, doc, res = which("3 which", s, ["cudnn_cnn_infer64_8.dll"], extra=["--from", "C:\\app\\app.exe"], system=W)
    r = res.get("cudnn_cnn_infer64_8.dll")
    check("3 which cudnn_cnn_infer64_8.dll: exit 3, error 126",
          rc == 3 and r and not r["found"] and r.get("windows_error") == 126, (rc, r))
    check("3: the application directory was searched first",
          r and r["tried"] and r["tried"][0]["path"].lower() == "c:\\app\\cudnn_cnn_infer64_8.dll"
          and r["tried"][0]["how"] == "application-dir", r and r["tried"][:2])
    rc, t = text(["deps", "C:\\app\\app.exe", "--missing"] + machine(s, system=W))
    check("3 text: names both missing DLLs",
          rc == 1 and "cudnn_cnn_infer64_8.dll not found" in t and "zlibwapi.dll not found" in t, t)


def w03b_wide_names():
    s = "win-03b-wide-names"
    if not exists(s):
        return
    rc, doc = deps("3b deps app.exe", s, "C:\\app\\app.exe", (), system=W)
    ops = edges_of(doc, "C:\\app\\cudnn_ops_infer64_8.dll", nocase=True)
    z = ops.get("zlibwapi.dll")
    check("3b: zlibwapi.dll, named only in UTF-16, is a run-time load of cudnn_ops_infer64_8.dll",
          z is not None and z["kind"] == "runtime", ops)
    check("3b: found in System32", z and z["status"] == "loaded" and z["path"].lower().endswith("\\system32\\zlibwapi.dll"),
          z)
    check("3b deps: exit 0", rc == 0, rc)


def w04_mixed_copies():
    s = "win-04-mixed-copies"
    if not exists(s):
        return
    sets = ["PATH=%s;C:\\Windows\\system32" % CUDA118]
    rc, doc, res = which("4", s, ["cudnn64_8.dll"], sets, extra=["--from", "C:\\app\\app.exe"], system=W)
    r = res.get("cudnn64_8.dll")
    check("4 which: exit 0", rc == 0, rc)
    check("4: the copy beside the application wins",
          r and r["found"] and r["path"].lower() == "c:\\app\\cudnn64_8.dll" and r["how"] == "application-dir", r)
    check("4: the winner is 8.2.1.32 (version resource)", vers(r, "version-resource") == ["8.2.1.32"],
          r and r.get("versions"))
    sh = (r or {}).get("shadowed", [])
    check("4: the PATH copy 8.9.7.29 is shadowed",
          len(sh) == 1 and sh[0]["path"].lower() == (CUDA118 + "\\cudnn64_8.dll").lower() and sh[0]["how"] == "path"
          and vers(sh[0], "version-resource") == ["8.9.7.29"], sh)
    rc, ddoc = deps("4 deps", s, "C:\\app\\app.exe", sets, system=W)
    shim = edges_of(ddoc, "C:\\app\\cudnn64_8.dll", nocase=True)
    cnn, ops = shim.get("cudnn_cnn_infer64_8.dll"), shim.get("cudnn_ops_infer64_8.dll")
    check("4 deps: cudnn_cnn_infer64_8.dll from the application directory",
          cnn and cnn["status"] == "loaded" and cnn["path"].lower() == "c:\\app\\cudnn_cnn_infer64_8.dll", cnn)
    check("4 deps: cudnn_ops_infer64_8.dll from PATH (the other copy)",
          ops and ops["status"] == "loaded" and ops["how"] == "path"
          and ops["path"].lower() == (CUDA118 + "\\cudnn_ops_infer64_8.dll").lower(), ops)
    n1 = node_at(ddoc, "C:\\app\\cudnn_cnn_infer64_8.dll", nocase=True)
    n2 = node_at(ddoc, CUDA118 + "\\cudnn_ops_infer64_8.dll", nocase=True)
    check("4 deps: the two sub-libraries are 8.2.1.32 and 8.9.7.29 (a mixed set)",
          vers(n1, "version-resource") == ["8.2.1.32"] and vers(n2, "version-resource") == ["8.9.7.29"],
          (n1 and n1["versions"], n2 and n2["versions"]))
    # names and directories are case-insensitive
    low = ["PATH=%s;c:\\windows\\system32" % CUDA118.lower()]
    rc, doc, res = which("4 case", s, ["CUDNN_OPS_INFER64_8.DLL"], low, extra=["--from", "C:\\APP\\APP.EXE"], system=W)
    r = res.get("CUDNN_OPS_INFER64_8.DLL")
    check("4: CUDNN_OPS_INFER64_8.DLL with a lower-case PATH is found on PATH",
          rc == 0 and r and r["found"] and r["how"] == "path"
          and (r["realpath"] or "").lower() == (CUDA118 + "\\cudnn_ops_infer64_8.dll").lower(), r)
    rc, t = text(["which", "cudnn64_8.dll", "--from", "C:\\app\\app.exe"] + machine(s, sets, W))
    check("4 text: names the winner and the shadowed copy",
          rc == 0 and "C:\\app\\cudnn64_8.dll" in t and "shadows" in t, t)


def w06_cudnn9_subdir():
    s = "win-06-cudnn9-subdir"
    if not exists(s):
        return
    base = "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin"
    rc, doc, res = which("6", s, ["cudnn64_9.dll"], ["PATH=%s;C:\\Windows\\system32" % base], system=W)
    r = res.get("cudnn64_9.dll")
    check("6 which (PATH has ...\\bin): exit 3, error 126", rc == 3 and r and not r["found"]
          and r.get("windows_error") == 126, (rc, r))
    check("6: the bin directory itself was tried",
          r and any(t["path"].lower() == (base + "\\cudnn64_9.dll").lower() and t["how"] == "path" for t in r["tried"]),
          r and r["tried"])
    ew = [e["path"].lower() for e in (r or {}).get("elsewhere", [])]
    check("6: elsewhere lists bin\\12.3\\cudnn64_9.dll", (base + "\\12.3\\cudnn64_9.dll").lower() in ew, ew)
    check("6: a note says it is one directory below a PATH entry",
          notes_have(r, base + "\\12.3\\cudnn64_9.dll", "one directory below"), r and r["notes"])
    rc, doc, res = which("6 fixed", s, ["cudnn64_9.dll"], ["PATH=%s\\12.3" % base], system=W)
    r = res.get("cudnn64_9.dll")
    check("6 which (PATH has bin\\12.3): found on PATH, 9.1.0.70",
          rc == 0 and r and r["found"] and r["how"] == "path" and vers(r, "version-resource") == ["9.1.0.70"], r)
    rc, ldoc = lst("6 list", s, system=W)
    i = inst_by_prefix(ldoc, "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1", nocase=True)
    check("6 list: the installer's directory, provenance windows-installer, 9.1.0",
          rc == 0 and i and i["provenance"]["kind"] == "windows-installer" and i["version"] == "9.1.0", i)
    rc, t = text(["which", "cudnn64_9.dll"] + machine(s, ["PATH=%s" % base], W))
    check("6 text: not found, the 12.3 copy named", rc == 3 and "not found" in t and "12.3" in t, t)


def w07_python():
    s = "win-07-python-dll-path"
    if not exists(s):
        return
    d = "C:\\tools\\cudnn\\bin"
    sets = ["PATH=%s;C:\\Windows\\system32" % d]
    py = ["--from", "C:\\Python311\\python.exe"]
    rc, doc, res = which("7 python", s, ["cudnn64_9.dll"], sets, extra=py + ["--win-mode", "python"], system=W)
    r = res.get("cudnn64_9.dll")
    check("7 --win-mode python: exit 3, error 126",
          rc == 3 and r and not r["found"] and r.get("windows_error") == 126, (rc, r))
    check("7: PATH is not searched", r and not any(t["how"] == "path" for t in r["tried"]), r and r["tried"])
    check("7: a note names the PATH copy and os.add_dll_directory",
          notes_have(r, d + "\\cudnn64_9.dll", "os.add_dll_directory"), r and r["notes"])
    check("7: elsewhere lists the PATH copy",
          r and [e["path"].lower() for e in r["elsewhere"]] == [(d + "\\cudnn64_9.dll").lower()], r and r["elsewhere"])
    rc, doc, res = which("7 add-dll-dir", s, ["cudnn64_9.dll"], sets,
                         extra=py + ["--win-mode", "python", "--add-dll-dir", d], system=W)
    r = res.get("cudnn64_9.dll")
    check("7 --add-dll-dir: exit 0, found as a user directory",
          rc == 0 and r and r["found"] and r["how"] == "user-dir" and r["path"].lower() == (d + "\\cudnn64_9.dll").lower(),
          (rc, r))
    rc, doc, res = which("7 standard", s, ["cudnn64_9.dll"], sets, extra=py, system=W)
    r = res.get("cudnn64_9.dll")
    check("7 standard LoadLibrary: found on PATH", rc == 0 and r and r["found"] and r["how"] == "path", (rc, r))
    pyd = "C:\\Users\\user\\venv\\Lib\\site-packages\\fxpkg\\_ext.pyd"
    rc, ddoc = deps("7 deps", s, pyd, sets, extra=["--win-mode", "python"], system=W)
    e = edges_of(ddoc, pyd, nocase=True).get("cudnn64_9.dll")
    check("7 deps _ext.pyd (python): exit 1, its import cudnn64_9.dll is missing",
          rc == 1 and e and e["kind"] == "import" and e["status"] == "missing", (rc, e))
    rc, ddoc = deps("7 deps add", s, pyd, sets, extra=["--win-mode", "python", "--add-dll-dir", d], system=W)
    e = edges_of(ddoc, pyd, nocase=True).get("cudnn64_9.dll")
    check("7 deps _ext.pyd with --add-dll-dir: exit 0, cudnn64_9.dll loaded from the user directory",
          rc == 0 and e and e["status"] == "loaded" and e["how"] == "user-dir", (rc, e))
    rc, t = text(["which", "cudnn64_9.dll", "--win-mode", "python"] + py + machine(s, sets, W))
    check("7 text: not found, with the add_dll_directory hint", rc == 3 and "add_dll_directory" in t, t)


def w08_stale_system32():
    s = "win-08-stale-system32"
    if not exists(s):
        return
    app = ["--from", "C:\\app\\app.exe"]
    for label, path in (("", CUDA118), (" lower-case PATH", CUDA118.lower())):
        rc, doc, res = which("8" + label, s, ["CUDNN64_8.DLL"], ["PATH=%s;C:\\Windows\\system32" % path], extra=app,
                             system=W)
        r = res.get("CUDNN64_8.DLL")
        check("8%s which CUDNN64_8.DLL: exit 0" % label, rc == 0, rc)
        check("8%s: the stale System32 copy wins" % label,
              r and r["found"] and r["how"] == "system32"
              and (r["realpath"] or "").lower() == "c:\\windows\\system32\\cudnn64_8.dll", r)
        check("8%s: the System32 copy is 8.0.5.39" % label, vers(r, "version-resource") == ["8.0.5.39"],
              r and r.get("versions"))
        sh = (r or {}).get("shadowed", [])
        check("8%s: the PATH copy 8.9.7.29 is shadowed" % label,
              len(sh) == 1 and sh[0]["how"] == "path"
              and (sh[0]["realpath"] or "").lower() == (CUDA118 + "\\cudnn64_8.dll").lower()
              and vers(sh[0], "version-resource") == ["8.9.7.29"], sh)
        check("8%s: a note says the System32 copy shadows the others" % label,
              notes_have(r, "System32", "shadows every other one"), r and r["notes"])
    rc, t = text(["which", "cudnn64_8.dll"] + app + machine(s, ["PATH=%s" % CUDA118], W))
    check("8 text: names the System32 winner", rc == 0 and "C:\\Windows\\System32\\cudnn64_8.dll" in t, t)


def w09_renamed():
    s = "win-09-renamed-dll"
    if not exists(s):
        return
    rc, doc, res = which("9", s, ["cudnn64_8.dll"], ["PATH=C:\\tools\\bin"], system=W)
    r = res.get("cudnn64_8.dll")
    check("9 which: exit 0, found on PATH",
          rc == 0 and r and r["found"] and r["path"].lower() == "c:\\tools\\bin\\cudnn64_8.dll", (rc, r))
    check("9: its version resource says 7.6.5.32", vers(r, "version-resource") == ["7.6.5.32"], r and r.get("versions"))
    check("9: a problem says it is named for cuDNN 8 but its version resource says 7.6.5.32 (renamed)",
          r and any("cuDNN 8" in p and "7.6.5.32" in p and "renamed" in p for p in r.get("problems", [])),
          r and r.get("problems"))
    check("9: a problem says its export name is cudnn64_7.dll",
          r and any("cudnn64_7.dll" in p for p in r.get("problems", [])), r and r.get("problems"))
    rc, ldoc = lst("9 list", s, ["PATH=C:\\tools\\bin"], system=W)
    i = (ldoc or {}).get("installations", [None])[0] if ldoc and ldoc["installations"] else None
    check("9 list: the installation reports the name/content disagreement",
          i and (i["disagreements"] or any("7.6.5" in p["summary"] or "renamed" in p["summary"] for p in i["problems"])),
          i and (i["disagreements"], i["problems"]))
    rc, t = text(["which", "cudnn64_8.dll"] + machine(s, ["PATH=C:\\tools\\bin"], W))
    check("9 text: names the winner, 7.6.5.32 and the renamed copy",
          rc == 0 and "C:\\tools\\bin\\cudnn64_8.dll" in t and "7.6.5.32" in t and "renamed" in t, t)


def w09b_driver_style_resource():
    s = "win-09b-driver-style-resource"
    if not exists(s):
        return
    rc, doc, res = which("9b which", s, ["cudnn64_8.dll"], ["PATH=C:\\tools\\bin"], system=W)
    r = res.get("cudnn64_8.dll")
    check("9b: found, exit 0", rc == 0 and r and r["found"], (rc, r))
    check("9b: a 6.14.11.x version resource is not taken for a renamed cuDNN 6 copy",
          r and not r.get("problems"), r and r.get("problems"))


def w02_32bit_zlibwapi():
    s = "win-02-32bit-zlibwapi"
    if not exists(s):
        return
    old = "C:\\Program Files (x86)\\OldScanner"
    x64 = "C:\\tools\\zlib123dllx64\\dll_x64"
    oldz = (old + "\\zlibwapi.dll").lower()
    # the x64 build later on PATH: the loader passes over the x86 copy and loads it
    sets = ["PATH=%s;%s;%s" % (old, CUDA118, x64)]
    rc, doc, res = which("2", s, ["zlibwapi.dll"], sets, system=W)
    r = res.get("zlibwapi.dll")
    check("2 which zlibwapi.dll: exit 0, the x64 copy found", rc == 0 and r and r["found"]
          and r["path"].lower() == (x64 + "\\zlibwapi.dll").lower() and not r.get("windows_error"), (rc, r))
    skipped = [t for t in (r or {}).get("tried", []) if t.get("outcome") == "skipped"]
    check("2: the x86 copy is passed over, not fatal",
          [t["path"].lower() for t in skipped] == [oldz] and "passes over" in (skipped[0].get("detail") or ""),
          skipped)
    check("2: a note says a 32-bit program would load the x86 copy",
          notes_have(r, old + "\\zlibwapi.dll", "an x86 program would load it"), r and r["notes"])
    rc, ddoc = deps("2 deps", s, CUDA118 + "\\cudnn_ops_infer64_8.dll", sets, system=W)
    z = edges_of(ddoc, CUDA118 + "\\cudnn_ops_infer64_8.dll", nocase=True).get("zlibwapi.dll")
    check("2 deps cudnn_ops_infer64_8.dll: its import zlibwapi.dll is the x64 copy",
          z and z["status"] == "loaded" and z["path"].lower() == (x64 + "\\zlibwapi.dll").lower(), (rc, z))
    # only the x86 copy: error 193 once the whole search found nothing else
    sets = ["PATH=%s;%s" % (old, CUDA118)]
    rc, doc, res = which("2 only x86", s, ["zlibwapi.dll"], sets, system=W)
    r = res.get("zlibwapi.dll")
    check("2 only x86: exit 1, verdict fails, error 193", rc == 1 and doc and doc["verdict"] == "fails" and r
          and r.get("windows_error") == 193 and not r["found"], (rc, doc and doc["verdict"], r))
    check("2 only x86: the whole order is searched, the x86 copy passed over",
          r and len(r["tried"]) >= 2 and r["tried"][-1]["outcome"] == "missing"
          and [t["path"].lower() for t in r["tried"] if t["outcome"] == "skipped"] == [oldz], r and r["tried"])
    check("2 only x86: a note explains error 193", notes_have(r, old + "\\zlibwapi.dll", "193"), r and r["notes"])
    rc, ddoc = deps("2 only x86 deps", s, CUDA118 + "\\cudnn_ops_infer64_8.dll", sets, system=W)
    z = edges_of(ddoc, CUDA118 + "\\cudnn_ops_infer64_8.dll", nocase=True).get("zlibwapi.dll")
    check("2 only x86 deps cudnn_ops_infer64_8.dll: exit 1, its import zlibwapi.dll fails with 193",
          rc == 1 and z and z["status"] == "fails" and z.get("windows_error") == 193, (rc, z))
    rc, t = text(["which", "zlibwapi.dll"] + machine(s, sets, W))
    check("2 only x86 text: says error 193 and names the x86 copy",
          rc == 1 and "193" in t and old + "\\zlibwapi.dll" in t, t)


def json_tool():
    s = "linux-25-conda-vs-system"
    if not os.path.isdir(scen(s)):
        s = "win-08-stale-system32"
    if not os.path.isdir(scen(s)):
        return
    rc, out, _ = run(["which", "--json", "cudnn64_8.dll" if s.startswith("win") else "libcudnn.so.8"]
                     + machine(s, ["LD_LIBRARY_PATH=/opt/conda/envs/tf/lib:/usr/local/cuda/lib64"],
                               W if s.startswith("win") else None))
    p = subprocess.run([sys.executable, "-m", "json.tool"], input=out, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check("python3 -m json.tool accepts the which output", p.returncode == 0 and len(p.stdout) > 100,
          p.stderr.decode()[:300])


def main():
    global ARGS, EXE
    ARGS = cliutil.parser(fixtures=True).parse_args()
    EXE = cliutil.Program(ARGS.exe, setenv={"LC_ALL": "C"}, unset=("NO_COLOR",))
    if not os.path.isdir(os.path.join(ARGS.fixtures, "scenarios")):
        print("skipped: no scenario fixtures (gen-scenarios.sh did not run)")
        return 77
    def skipped(part):
        f = os.path.join(ARGS.fixtures, "scenarios", ".%s-skipped" % part)
        if os.path.exists(f):
            with open(f) as fh:
                return fh.read().strip() or "not made"
        return None

    linux_skip, win_skip = skipped("linux"), skipped("windows")
    if linux_skip and win_skip:
        print("skipped: no scenarios were made here (Linux: %s; Windows: %s)" % (linux_skip, win_skip))
        return 77
    if not linux_skip:
        for t in (t13_pip_not_on_path, t14_v8_helper_rpath, t15_broken_chain, t17_wsl, t18_shim_alone, t19_mixed,
                  t21_major_mismatch, t23_ort_provider, t25_conda_vs_system, t_symlink_loop, t_corrupt_cache,
                  t_long_path, t_32bit_first, t_non_elf_first, t_unreadable_dir):
            print("== %s" % t.__name__)
            t()
    else:
        print("skip Linux scenarios: %s" % linux_skip)
    if not win_skip:
        for t in (w03_sublib_missing, w03b_wide_names, w04_mixed_copies, w06_cudnn9_subdir, w07_python, w08_stale_system32, w09b_driver_style_resource,
                  w09_renamed, w02_32bit_zlibwapi):
            print("== %s" % t.__name__)
            t()
    else:
        print("skip Windows scenarios: %s" % win_skip)
    json_tool()
    return CHECKS.summary(list_failures=True, need_passes=True)


if __name__ == "__main__":
    sys.exit(main())
