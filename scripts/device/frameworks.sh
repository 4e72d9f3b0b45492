#!/usr/bin/env bash
# On the GPU machine (device tool): build cudnnctl with what the machine has
# (no libarchive, no tests), run `frameworks --gpu` (text, verbose text and
# JSON), check what it must show there (PyTorch reports and maps cuDNN 9.19.0
# from its pip wheel's directory only, after a convolution on the GPU, while a
# plain program gets the distro's 9.14.0; JAX, when installed, with what its
# plugin loads), run the doctor's frameworks area, and time the probe against
# a bare `python -c 'import torch'` in the same run. Results go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/cudnnctl-device}
# the JSON documents recorded here carry the checkout's path as <checkout> (expanded now, on purpose)
# shellcheck disable=SC2064
trap "sed -i 's|$PWD|<checkout>|g' '$out'/*.json 2>/dev/null" EXIT
mkdir -p "$out"
exec > >(tee "$out/frameworks-h200.txt") 2>&1

echo "== machine"
date -u
uname -srm
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>&1 | head -2
py=$(command -v python3)
echo "python3: $py ($("$py" --version 2>&1))"
for p in "$py" /usr/bin/python3; do
        "$p" - <<'PY' 2>&1 | sed "s|^|$p: |"
import importlib.util as u
print("importable:", [n for n in ("torch", "tensorflow", "jax", "onnxruntime", "cupy") if u.find_spec(n)])
PY
done

echo "== build"
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDNNCTL_TESTS=OFF \
        -DCUDNNCTL_WITH_LIBARCHIVE=OFF >/dev/null && ninja -C build-device cudnnctl >/dev/null || exit 1
B=$PWD/build-device/cudnnctl
$B --version

echo "== cudnnctl frameworks --gpu"
/usr/bin/time -f "frameworks --gpu: %e s wall, %M KiB peak" $B frameworks --gpu
echo "exit status: $?"
echo "== cudnnctl frameworks --gpu --verbose"
$B frameworks --gpu --verbose
$B frameworks --gpu --json >"$out/frameworks-h200.json"
echo "json exit status: $?"

echo "== what it must show"
"$py" - "$out/frameworks-h200.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ok = True
def want(cond, what):
    global ok
    print(("ok   " if cond else "FAIL ") + what)
    ok &= bool(cond)
plain = d.get("plain_program") or {}
want(plain.get("installation_version") == "9.14.0" or "9.14" in json.dumps(plain),
     "a plain program gets the distro's 9.14: %s (%s)" % (plain.get("path"), plain.get("how")))
torches = [(it, f) for it in d["interpreters"] for f in it.get("frameworks", []) if f["name"] == "torch"]
want(torches, "PyTorch found in: " + ", ".join(it["path"] for it, _ in torches))
for it, f in torches:
    cu = f.get("cudnn", {})
    dirs = cu.get("directories", [])
    v = {x["id"]: x["status"] for x in f.get("verdicts", [])}
    print("  %s: torch %s, cuda %s, build cuDNN %s, runtime %s (%s)" % (
        it["path"], f.get("info", {}).get("version"), f.get("info", {}).get("cuda"),
        f.get("build", {}).get("cudnn"), cu.get("version"), cu.get("version_source")))
    for x in dirs:
        print("    from %s: %s (installation %s, %s %s)" % (x["path"], ", ".join(x["files"]), x.get("installation"),
                                                           x.get("provenance"), x.get("version")))
    if not (f.get("info", {}).get("version", "").startswith("2.11")):
        continue
    want(cu.get("version") == "9.19.0", "PyTorch 2.11 reports cuDNN 9.19.0 (%s)" % cu.get("version"))
    want(len(dirs) == 1 and dirs[0]["path"].endswith("site-packages/nvidia/cudnn/lib"),
         "every cuDNN module from the wheel's directory: %s" % [x["path"] for x in dirs])
    want(dirs and dirs[0].get("provenance") == "pip-wheel" and dirs[0].get("version") == "9.19.0",
         "that directory is list's pip-wheel installation 9.19.0")
    want(f.get("gpu_call", {}).get("ok") is True, "the convolution on the GPU: %s" % f.get("gpu_call"))
    want(f.get("modules", {}).get("when") == "after-gpu-call", "mapped files read after the GPU call")
    want(v.get("version-rule") == "pass" and v.get("one-directory") == "pass" and v.get("expected-copy") == "pass"
         and v.get("cuda-build") == "pass", "verdicts: %s" % v)
jax = [(it, f) for it in d["interpreters"] for f in it.get("frameworks", []) if f["name"] == "jax"]
if not jax:
    print("note: JAX is not installed in any interpreter found")
for it, f in jax:
    print("  jax in %s: %s, plugin %s, build cuDNN %s, runtime %s, from %s, GPU call %s" % (
        it["path"], f.get("info", {}).get("version"), f.get("info", {}).get("plugin"),
        f.get("build", {}).get("cudnn"), f.get("cudnn", {}).get("version"),
        [x["path"] for x in f.get("cudnn", {}).get("directories", [])], f.get("gpu_call")))
    v = {x["id"]: x["status"] for x in f.get("verdicts", [])}
    want(f.get("info", {}).get("plugin") and f.get("runtime", {}).get("cudnn"),
         "JAX's plugin reports the cuDNN it loads: %s (%s)" % (f.get("runtime", {}).get("cudnn"),
                                                               f.get("runtime", {}).get("cudnn_source")))
    want(v.get("cuda-build") == "pass" and v.get("one-directory") == "pass" and v.get("gpu-call") == "pass",
         "JAX verdicts: %s" % v)
print("summary:", d["summary"])
sys.exit(0 if ok else 1)
PY
echo "checks exit status: $?"

echo "== cudnnctl doctor --gpu: the frameworks area and findings"
$B doctor --gpu --json >"$out/doctor-frameworks-h200.json"
"$py" - "$out/doctor-frameworks-h200.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for a in d["areas"]:
    print("%-12s %-12s %s" % (a["id"], a["status"], a["summary"]))
print("findings:", [(f["severity"], f["id"]) for f in d["findings"]])
PY

echo "== speed: frameworks --gpu against a bare 'import torch' with one cuDNN call, same run"
for i in 1 2 3; do
        s=$(date +%s.%N)
        $B frameworks --gpu --json >/dev/null
        e=$(date +%s.%N)
        "$py" -c 'import torch; torch.backends.cudnn.version(); torch.nn.functional.conv2d(torch.ones(1,3,8,8,device="cuda"), torch.ones(4,3,3,3,device="cuda")); torch.cuda.synchronize()' >/dev/null 2>&1
        g=$(date +%s.%N)
        awk -v a="$s" -v b="$e" -v c="$g" 'BEGIN { v=b-a; p=c-b; printf "round: frameworks --gpu %.2f s, bare torch %.2f s, ratio %.2f\n", v, p, v/p }'
done
