#!/usr/bin/env python3
"""The doctor's Windows checks (src/lib/doctor/checks_windows.c) on Windows
trees built here from the DLLs of tests/fixtures/gen-doctor-win.sh: for each
failure mode that a machine's files show, `cudnnctl doctor --json --root TREE
--system windows --set VAR=VALUE` must report the catalog's id and no other
warning or error; clean cuDNN 8 (with zlibwapi) and cuDNN 9 installations get
nothing but notes. Every document must parse with python's json module.

usage: test_doctor_win.py --exe CUDNNCTL --fixtures DIR
Exits 77 (skipped) when the fixtures could not be made here (no mingw-w64).
"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

ARGS = None
EXE = None  # the program under test (cliutil.Program), made by main()
CHECKS = cliutil.Checks(limit=2500)
check = CHECKS.named
TMP = None

SYS = "C:\\Windows\\System32;C:\\Windows"
CUDA118 = "Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.8"
CUDA124 = "Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.4"



def win(rel):
    return "C:\\" + rel.replace("/", "\\")


def part(name):
    return os.path.join(ARGS.fixtures, "doctor-win", name)


def tree(label):
    """A new Windows tree: System32 with the driver's nvcuda.dll, the usual folders."""
    t = os.path.join(TMP, label)
    for d in ("Windows/System32", "Windows/SysWOW64", "Program Files", "Program Files (x86)", "Users/user"):
        os.makedirs(os.path.join(t, d), exist_ok=True)
    shutil.copy(part("driver/nvcuda.dll"), os.path.join(t, "Windows/System32/nvcuda.dll"))
    return t


def put(t, src, dest, omit=()):
    """Copy a part (a file or every file of a directory) into dest under tree t."""
    d = os.path.join(t, dest)
    os.makedirs(d, exist_ok=True)
    s = part(src)
    if os.path.isdir(s):
        for f in sorted(os.listdir(s)):
            if f not in omit:
                shutil.copy(os.path.join(s, f), os.path.join(d, f))
    else:
        shutil.copy(s, d)


def headers(t, dest, version):
    major, minor, patch = version.split(".")[:3]
    d = os.path.join(t, dest)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "cudnn_version.h"), "w") as fh:
        fh.write("#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n#define CUDNN_MAJOR %s\n#define CUDNN_MINOR %s\n"
                 "#define CUDNN_PATCHLEVEL %s\n#define CUDNN_VERSION (CUDNN_MAJOR * %d + CUDNN_MINOR * 100 + "
                 "CUDNN_PATCHLEVEL)\n#endif\n" % (major, minor, patch, 10000 if int(major) >= 9 else 1000))
    with open(os.path.join(d, "cudnn.h"), "w") as fh:
        fh.write("#ifndef CUDNN_H_\n#define CUDNN_H_\n#include \"cudnn_version.h\"\n#endif\n")


def clean_v8(t, zlib=True, omit=()):
    put(t, "v8-8.9.7.29", CUDA118 + "/bin", omit)
    if zlib:
        put(t, "zlib-x64/zlibwapi.dll", CUDA118 + "/bin")
    headers(t, CUDA118 + "/include", "8.9.7")
    return ["CUDA_PATH=" + win(CUDA118), "CUDA_PATH_V11_8=" + win(CUDA118)]


def clean_v9(t, dest=CUDA124):
    put(t, "v9-9.1.0.70", dest + "/bin")
    headers(t, dest + "/include", "9.1.0")
    return ["CUDA_PATH=" + win(CUDA124), "CUDA_PATH_V12_4=" + win(CUDA124)] if dest == CUDA124 else []


def python311(t, dest="Python311"):
    put(t, "python/python.exe", dest)
    put(t, "python/python311.dll", dest)
    os.makedirs(os.path.join(t, dest, "Lib", "site-packages"), exist_ok=True)
    return win(dest)


def doctor(label, t, sets, extra=()):
    p = EXE.run(["doctor", "--json", "--root", t, "--system", "windows"] + list(extra) + ["--set=" + s for s in sets])
    doc, why = cliutil.parse_json(p.out)
    if why is not None:
        check("%s: doctor --json parses" % label, False, "%s rc=%d err=%r" % (why, p.rc, p.err[:500]))
        return p.rc, None
    check("%s: doctor --json parses, command doctor, static" % label,
          doc.get("command") == "doctor" and doc.get("mode") == "static", doc.get("mode"))
    return p.rc, doc


def found(doc, fid):
    return [f for f in (doc or {}).get("findings", []) if f["id"] == fid]


def serious(doc):
    return [(f["id"], f["severity"], f["summary"]) for f in (doc or {}).get("findings", [])
            if f["severity"] in ("error", "warning")]


def expect(label, doc, fid, severity=None, allowed=()):
    fs = found(doc, fid)
    check("%s: finding %s" % (label, fid), len(fs) >= 1, [f["id"] for f in (doc or {}).get("findings", [])])
    if severity and fs:
        check("%s: %s is %s" % (label, fid, severity), fs[0]["severity"] == severity, fs[0]["severity"])
    others = [s for s in serious(doc) if s[0] != fid and s[0] not in allowed]
    check("%s: no other warning or error" % label, not others, others)
    for f in fs:
        check("%s: %s has evidence and a fix" % (label, fid), f["evidence"] and f["fix"], f)
    return fs[0] if fs else None


def expect_clean(label, doc, rc):
    check("%s: no warning or error" % label, not serious(doc), serious(doc))
    check("%s: exit 0, verdict healthy" % label, rc == 0 and doc and doc["summary"]["verdict"] == "healthy",
          (rc, doc and doc["summary"]))


# ---- scenarios --------------------------------------------------------------------------

def s_clean_v8():
    t = tree("clean-v8")
    sets = clean_v8(t) + ["PATH=%s\\bin;%s" % (win(CUDA118), SYS)]
    rc, doc = doctor("clean cuDNN 8", t, sets)
    expect_clean("clean cuDNN 8", doc, rc)
    loader = [a for a in (doc or {}).get("areas", []) if a["id"] == "loader"]
    check("clean cuDNN 8: a plain program gets 8.9.7 from CUDA v11.8\\bin",
          loader and "cudnn64_8.dll" in loader[0]["summary"] and "8.9.7" in loader[0]["summary"], loader)
    df = (doc or {}).get("facts", {}).get("host", {}).get("driver_files", {})
    # nvcuda.dll's file version 32.0.15.8088 is driver 580.88 (its last five digits)
    check("clean cuDNN 8: the driver's version from nvcuda.dll's version resource", df.get("version") == "580.88", df)


def s_clean_v9():
    t = tree("clean-v9")
    sets = clean_v9(t) + ["PATH=%s\\bin;%s" % (win(CUDA124), SYS)]
    rc, doc = doctor("clean cuDNN 9", t, sets)
    expect_clean("clean cuDNN 9", doc, rc)


def s_zlib_missing():
    t = tree("zlib-missing")
    sets = clean_v8(t, zlib=False) + ["PATH=%s\\bin;%s" % (win(CUDA118), SYS)]
    rc, doc = doctor("zlibwapi missing", t, sets)
    expect("zlibwapi missing", doc, "win-zlibwapi-missing", "error")
    check("zlibwapi missing: exit 1", rc == 1, rc)


def s_zlib_x86():
    # the x64 build later on PATH: the loader passes over the 32-bit copy (a note)
    t = tree("zlib-x86")
    sets = clean_v8(t, zlib=False)
    put(t, "zlib-x86/zlibwapi.dll", "Program Files (x86)/OldScanner")
    put(t, "zlib-x64/zlibwapi.dll", "tools/zlib123dllx64/dll_x64")
    sets.append("PATH=C:\\Program Files (x86)\\OldScanner;%s\\bin;C:\\tools\\zlib123dllx64\\dll_x64;%s"
                % (win(CUDA118), SYS))
    rc, doc = doctor("32-bit zlibwapi first", t, sets)
    f = expect("32-bit zlibwapi first", doc, "win-wrong-bitness", "info")
    check("32-bit zlibwapi first: names the copy passed over and the x64 one loaded",
          f and [p.lower() for p in f["evidence"]["passed_over"]] == ["c:\\program files (x86)\\oldscanner\\zlibwapi.dll"]
          and f["evidence"]["loads"].lower() == "c:\\tools\\zlib123dllx64\\dll_x64\\zlibwapi.dll", f)
    check("32-bit zlibwapi first: exit 0", rc == 0, rc)
    # only the 32-bit copy: every copy found is x86, error 193
    t = tree("zlib-x86-only")
    sets = clean_v8(t, zlib=False)
    put(t, "zlib-x86/zlibwapi.dll", "Program Files (x86)/OldScanner")
    sets.append("PATH=C:\\Program Files (x86)\\OldScanner;%s\\bin;%s" % (win(CUDA118), SYS))
    rc, doc = doctor("32-bit zlibwapi only", t, sets)
    f = expect("32-bit zlibwapi only", doc, "win-wrong-bitness", "error")
    check("32-bit zlibwapi only: names the x86 copy and error 193",
          f and f["evidence"]["path"].lower() == "c:\\program files (x86)\\oldscanner\\zlibwapi.dll"
          and f["evidence"]["windows_error"] == 193 and "every copy" in f["summary"], f)
    check("32-bit zlibwapi only: the fix asks for the x64 build", f and "x64 zlibwapi.dll" in (f["fix"] or ""), f)
    check("32-bit zlibwapi only: not also reported as missing", not found(doc, "win-zlibwapi-missing"),
          found(doc, "win-zlibwapi-missing"))
    check("32-bit zlibwapi only: exit 1", rc == 1, rc)


def s_cudnn_x86():
    t = tree("cudnn-x86")
    sets = clean_v8(t)
    put(t, "x86/cudnn64_8.dll", "OldApp")
    sets.append("PATH=C:\\OldApp;%s\\bin;%s" % (win(CUDA118), SYS))
    rc, doc = doctor("32-bit cudnn64_8.dll", t, sets)
    f = expect("32-bit cudnn64_8.dll", doc, "win-wrong-bitness", "info")
    check("32-bit cudnn64_8.dll: names C:\\OldApp\\cudnn64_8.dll as passed over",
          f and [p.lower() for p in f["evidence"]["passed_over"]] == ["c:\\oldapp\\cudnn64_8.dll"], f)
    check("32-bit cudnn64_8.dll: the fix names the x86 copy", f and "C:\\OldApp\\cudnn64_8.dll" in (f["fix"] or ""), f)


def s_not_on_path():
    t = tree("not-on-path")
    sets = clean_v8(t)
    bindir = win(CUDA118) + "\\bin"
    rc, doc = doctor("not on PATH", t, sets + ["PATH=" + SYS])
    f = expect("not on PATH", doc, "win-sublib-126", "warning")
    check("not on PATH: the cause is PATH, the directory named",
          f and f["evidence"].get("cause") == "PATH"
          and f["evidence"].get("directory", "").lower() == bindir.lower(), f and f["evidence"])
    check("not on PATH: the fix is a cmd line that puts the folder first",
          f and ('set "PATH=%s;%%PATH%%"' % bindir) in (f["fix"] or ""), f and f["fix"])
    check("not on PATH: one finding for the cause", len(found(doc, "win-sublib-126")) == 1,
          [x["summary"] for x in found(doc, "win-sublib-126")])
    rc, doc = doctor("not on PATH (PowerShell)", t, sets + ["PATH=" + SYS, "PSModulePath=C:\\x"])
    f = found(doc, "win-sublib-126")
    check("not on PATH (PowerShell): the fix is a PowerShell line",
          f and ('$env:PATH = "%s;" + $env:PATH' % bindir) in (f[0]["fix"] or ""), f and f[0]["fix"])
    # nothing installed where the loader looks: headers only
    t = tree("headers-only")
    headers(t, CUDA118 + "/include", "8.9.7")
    os.makedirs(os.path.join(t, CUDA118, "bin"))
    rc, doc = doctor("headers only", t, ["CUDA_PATH=" + win(CUDA118), "PATH=%s\\bin;%s" % (win(CUDA118), SYS)])
    f = found(doc, "win-sublib-126") + found(doc, "no-cudnn")
    check("headers only: a plain program finds no cudnn64_N.dll, and the finding says why",
          f and (f[0]["id"] == "no-cudnn" or f[0]["evidence"].get("cause") == "nothing installed where the loader looks"),
          [(x["id"], x["evidence"]) for x in (doc or {}).get("findings", [])])


def s_sublib_missing():
    t = tree("sublib-missing")
    sets = clean_v8(t, omit=("cudnn_cnn_infer64_8.dll",)) + ["PATH=%s\\bin;%s" % (win(CUDA118), SYS)]
    rc, doc = doctor("sub-library missing", t, sets)
    f = expect("sub-library missing", doc, "win-sublib-126", "error")
    check("sub-library missing: cudnn_cnn_infer is named",
          any("cnn_infer" in x["summary"] for x in found(doc, "win-sublib-126")), found(doc, "win-sublib-126"))


def s_mixed_dir():
    t = tree("mixed-dir")
    sets = clean_v8(t)
    for n in ("cudnn_cnn_infer64_8.dll", "cudnn_cnn_train64_8.dll"):
        shutil.copy(part("v8-8.6.0.163/" + n), os.path.join(t, CUDA118, "bin", n))
    sets.append("PATH=%s\\bin;%s" % (win(CUDA118), SYS))
    rc, doc = doctor("mixed versions in one folder", t, sets)
    expect("mixed versions in one folder", doc, "win-sublib-127", "error")
    check("mixed versions in one folder: one finding", len(found(doc, "win-sublib-127")) == 1,
          found(doc, "win-sublib-127"))


def s_cudnn9_subdir():
    t = tree("cudnn9-subdir")
    inst = "Program Files/NVIDIA/CUDNN/v9.1"
    put(t, "v9-9.1.0.70", inst + "/bin/12.4")
    put(t, "v9-9.1.0.70", inst + "/bin/11.8")
    t1 = tree("cudnn9-subdir-one")
    put(t1, "v9-9.1.0.70", inst + "/bin/12.4")
    headers(t1, inst + "/include/12.4", "9.1.0")
    headers(t, inst + "/include/12.4", "9.1.0")
    os.makedirs(os.path.join(t, CUDA124, "bin"), exist_ok=True)
    base = ["CUDA_PATH=" + win(CUDA124)]
    rc, doc = doctor("cuDNN 9 installer subfolder", t, base + ["PATH=%s\\bin;%s\\bin;%s" % (win(inst), win(CUDA124), SYS)])
    f = expect("cuDNN 9 installer subfolder", doc, "win-cudnn9-subdir", "error")
    check("cuDNN 9 installer subfolder: the 12.4 folder (the toolkit's major) is the fix",
          f and f["evidence"]["directory"].lower() == (win(inst) + "\\bin\\12.4").lower()
          and f["evidence"]["bin_on_path"] == 1, f and f["evidence"])
    check("cuDNN 9 installer subfolder: the sub-libraries are not reported apart", not found(doc, "win-sublib-126"),
          found(doc, "win-sublib-126"))
    rc, doc = doctor("cuDNN 9 installer subfolder, nothing on PATH", t, base + ["PATH=" + SYS])
    f = expect("cuDNN 9 installer subfolder, nothing on PATH", doc, "win-cudnn9-subdir", "error")
    check("cuDNN 9 installer subfolder, nothing on PATH: bin is not on PATH", f and f["evidence"]["bin_on_path"] is False,
          f and f["evidence"])
    # one CUDA variant (with two, commands/doctor.c runs deps on bin\11.8's shim, whose sub-libraries then come
    # from bin\12.4 on PATH: checks_loader.c reports a mixed set; reported, not tested here)
    rc, doc = doctor("cuDNN 9 installer subfolder on PATH", t1, base + ["PATH=%s\\bin\\12.4;%s" % (win(inst), SYS)])
    expect_clean("cuDNN 9 installer subfolder on PATH", doc, rc)


def s_python():
    t = tree("python")
    clean_v9(t, "tools/cudnn")
    py = python311(t)
    rc, doc = doctor("Python 3.11 and cuDNN on PATH", t, ["PATH=C:\\tools\\cudnn\\bin;%s;%s" % (py, SYS)])
    f = expect("Python 3.11 and cuDNN on PATH", doc, "win-python-dll-path", "info")
    check("Python 3.11: the interpreter and its version from python311.dll",
          f and f["evidence"]["pythons"][0]["path"].lower() == "c:\\python311\\python.exe"
          and f["evidence"]["pythons"][0]["version"] == "3.11", f and f["evidence"])
    check("Python 3.11: the fix is os.add_dll_directory on the folder",
          f and 'os.add_dll_directory(r"C:\\tools\\cudnn\\bin")' in (f["fix"] or ""), f and f["fix"])
    check("Python 3.11: only notes (exit 0)", rc == 0, rc)
    # a Python 3.7 still searches PATH: nothing to say
    t = tree("python37")
    clean_v9(t, "tools/cudnn")
    put(t, "python/python.exe", "Python37")
    shutil.copy(part("python/python311.dll"), os.path.join(t, "Python37", "python37.dll"))
    rc, doc = doctor("Python 3.7", t, ["PATH=C:\\tools\\cudnn\\bin;C:\\Python37;%s" % SYS])
    check("Python 3.7: no win-python-dll-path", not found(doc, "win-python-dll-path"), found(doc, "win-python-dll-path"))
    # a virtual environment: the version from pyvenv.cfg
    t = tree("python-venv")
    clean_v9(t, "tools/cudnn")
    put(t, "python/python.exe", "Users/user/venv/Scripts")
    os.makedirs(os.path.join(t, "Users/user/venv/Lib/site-packages"), exist_ok=True)
    with open(os.path.join(t, "Users/user/venv/pyvenv.cfg"), "w") as fh:
        fh.write("home = C:\\Python312\ninclude-system-site-packages = false\nversion = 3.12.1\n")
    rc, doc = doctor("venv Python 3.12", t, ["PATH=C:\\tools\\cudnn\\bin;%s" % SYS,
                                             "VIRTUAL_ENV=C:\\Users\\user\\venv"])
    f = expect("venv Python 3.12", doc, "win-python-dll-path", "info")
    check("venv Python 3.12: version 3.12.1 from pyvenv.cfg",
          f and f["evidence"]["pythons"][0]["version"] == "3.12.1"
          and f["evidence"]["pythons"][0]["version_source"] == "pyvenv.cfg", f and f["evidence"])


def s_stale_system32():
    t = tree("stale-system32")
    sets = clean_v8(t)
    put(t, "v8-8.6.0.163", "Windows/System32")
    sets.append("PATH=%s\\bin;%s" % (win(CUDA118), SYS))
    rc, doc = doctor("stale System32 copy", t, sets)
    f = expect("stale System32 copy", doc, "win-stale-dll-shadow", "warning")
    check("stale System32 copy: one finding (list's), with which's shadowed copy",
          len(found(doc, "win-stale-dll-shadow")) == 1 and f and f["evidence"].get("winner_version") == "8.6.0.163"
          and any("v11.8" in s["path"] and s["version"] == "8.9.7.29" for s in f["evidence"].get("shadows", [])),
          found(doc, "win-stale-dll-shadow"))


def s_stale_path():
    t = tree("stale-path")
    sets = clean_v8(t)
    put(t, "v8-8.6.0.163", "tools/old-cudnn/bin")
    put(t, "zlib-x64/zlibwapi.dll", "tools/old-cudnn/bin")
    sets.append("PATH=C:\\tools\\old-cudnn\\bin;%s\\bin;%s" % (win(CUDA118), SYS))
    rc, doc = doctor("older copy first on PATH", t, sets)
    f = expect("older copy first on PATH", doc, "win-stale-dll-shadow", "warning")
    check("older copy first on PATH: winner 8.6.0.163, newer copy in CUDA v11.8",
          f and f["evidence"]["winner_version"] == "8.6.0.163" and "v11.8" in f["evidence"]["newer_copy"], f)
    check("older copy first on PATH: the fix puts the newer folder first",
          f and ("%s\\bin;%%PATH%%" % win(CUDA118)) in (f["fix"] or ""), f and f["fix"])


def s_renamed():
    t = tree("renamed")
    os.makedirs(os.path.join(t, "tools/bin"))
    shutil.copy(part("v7/cudnn64_7.dll"), os.path.join(t, "tools/bin/cudnn64_8.dll"))
    rc, doc = doctor("renamed cudnn64_7.dll", t, ["PATH=C:\\tools\\bin;" + SYS])
    expect("renamed cudnn64_7.dll", doc, "renamed-dll", "error")
    check("renamed cudnn64_7.dll: reported once", len(found(doc, "renamed-dll")) == 1,
          [f["summary"] for f in found(doc, "renamed-dll")])


def s_tf():
    t = tree("tf")
    clean_v9(t)
    py = python311(t)
    os.makedirs(os.path.join(t, "Python311/Lib/site-packages/tensorflow-2.15.0.dist-info"))
    rc, doc = doctor("TensorFlow 2.15", t, ["CUDA_PATH=" + win(CUDA124),
                                            "PATH=%s\\bin;%s;%s" % (win(CUDA124), py, SYS)])
    f = expect("TensorFlow 2.15", doc, "win-tf-native-gpu-dropped", "info")
    check("TensorFlow 2.15: the version and the dist-info",
          f and f["evidence"]["version"] == "2.15.0" and f["evidence"]["dist_info"].lower().endswith(
              "site-packages\\tensorflow-2.15.0.dist-info"), f and f["evidence"])
    t = tree("tf210")
    clean_v9(t)
    py = python311(t)
    os.makedirs(os.path.join(t, "Python311/Lib/site-packages/tensorflow-2.10.1.dist-info"))
    rc, doc = doctor("TensorFlow 2.10", t, ["PATH=%s\\bin;%s;%s" % (win(CUDA124), py, SYS)])
    check("TensorFlow 2.10: no finding", not found(doc, "win-tf-native-gpu-dropped"),
          found(doc, "win-tf-native-gpu-dropped"))


def s_locked():
    t = tree("locked")
    clean_v9(t)
    py = python311(t)
    sp = os.path.join(t, "Python311/Lib/site-packages")
    for d in ("torch/lib", "~orch/lib", "nvidia/cudnn/bin"):
        os.makedirs(os.path.join(sp, d))
    rc, doc = doctor("pip leftovers", t, ["CUDA_PATH=" + win(CUDA124), "PATH=%s\\bin;%s;%s" % (win(CUDA124), py, SYS)])
    f = expect("pip leftovers", doc, "win-locked-partial-upgrade", "warning")
    check("pip leftovers: names ~orch", f and any(p.lower().endswith("\\~orch") for p in f["evidence"]["leftovers"]),
          f and f["evidence"])


def s_setx():
    t = tree("setx")
    sets = clean_v8(t)
    path = "%s\\bin;%s" % (win(CUDA118), SYS)
    pad = ";C:\\pad"
    while len(path) + len(pad) <= 1000:
        path += pad
    path += ";C:\\" + "x" * (1024 - len(path) - 4)
    check("setx: the PATH is 1024 characters", len(path) == 1024, len(path))
    rc, doc = doctor("PATH of 1024 characters", t, sets + ["PATH=" + path])
    expect("PATH of 1024 characters", doc, "win-setx-truncation", "warning")
    rc, doc = doctor("PATH of 1023 characters", t, sets + ["PATH=" + path[:-1]])
    check("PATH of 1023 characters: no win-setx-truncation", not found(doc, "win-setx-truncation"),
          found(doc, "win-setx-truncation"))


def main():
    global ARGS, EXE, TMP
    ap = cliutil.parser(fixtures=True)
    ap.add_argument("--keep", action="store_true", help="keep the trees")
    ARGS = ap.parse_args()
    EXE = cliutil.Program(ARGS.exe, setenv={"LC_ALL": "C"})
    d = os.path.join(ARGS.fixtures, "doctor-win")
    if not os.path.isdir(d) or os.path.exists(os.path.join(d, ".skipped")):
        print("skipped: no doctor Windows fixtures (gen-doctor-win.sh: %s)"
              % (open(os.path.join(d, ".skipped")).read().strip() if os.path.exists(os.path.join(d, ".skipped"))
                 else "did not run"))
        return 77
    TMP = tempfile.mkdtemp(prefix="doctor-win-")
    try:
        for t in (s_clean_v8, s_clean_v9, s_zlib_missing, s_zlib_x86, s_cudnn_x86, s_not_on_path, s_sublib_missing,
                  s_mixed_dir, s_cudnn9_subdir, s_python, s_stale_system32, s_stale_path, s_renamed, s_tf, s_locked,
                  s_setx):
            print("== %s" % t.__name__)
            t()
    finally:
        if ARGS.keep:
            print("trees kept in %s" % TMP)
        else:
            shutil.rmtree(TMP, ignore_errors=True)
    return CHECKS.summary()


if __name__ == "__main__":
    sys.exit(main())
