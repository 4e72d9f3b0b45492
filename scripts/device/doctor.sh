#!/usr/bin/env bash
# On the GPU machine (device tool): build cudnnctl with what the machine has
# (no libarchive, no tests), run the doctor (text and JSON, with GPU work),
# check what it must show there (both installations: the distro's 9.14 found
# through ld.so.cache and the pip wheel's 9.19 in the virtual environment;
# which one a plain program and a program built with the distro's headers get;
# a passing GPU proof; no warnings or errors), re-run the checks on the
# recorded facts, and time `doctor --no-gpu` against
# `python3 -m torch.utils.collect_env` in the same run. Results go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/cudnnctl-device}
# the JSON documents recorded here carry the checkout's path as <checkout> (expanded now, on purpose)
# shellcheck disable=SC2064
trap "sed -i 's|$PWD|<checkout>|g' '$out'/*.json 2>/dev/null" EXIT
mkdir -p "$out"
exec > >(tee "$out/doctor-h200.txt") 2>&1

echo "== machine"
date -u
uname -srm
nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv,noheader 2>&1 | head -4
py=$(command -v python3)
echo "python3: $py"

echo "== build"
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDNNCTL_TESTS=OFF \
        -DCUDNNCTL_WITH_LIBARCHIVE=OFF >/dev/null && ninja -C build-device cudnnctl >/dev/null || exit 1
B=$PWD/build-device/cudnnctl
$B --version

echo "== cudnnctl doctor --gpu"
/usr/bin/time -f "doctor --gpu: %e s wall, %M KiB peak" $B doctor --gpu
echo "exit status: $?"
$B doctor --gpu --json >"$out/doctor-h200.json"
echo "json exit status: $?"

echo "== what it must show"
"$py" - "$out/doctor-h200.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ok = True
def want(cond, what):
    global ok
    print(("ok   " if cond else "FAIL ") + what)
    ok &= bool(cond)
insts = d["facts"]["list"]["installations"]
by_kind = {i["provenance"]["kind"]: i for i in insts}
want(len(insts) >= 2, "two or more installations: " + ", ".join(f'{i["version"]} {i["prefix"]} ({i["provenance"]["kind"]})' for i in insts))
distro = by_kind.get("distro-package")
wheel = by_kind.get("pip-wheel")
want(distro and distro["version"] == "9.14.0", "the distro's 9.14.0")
want(wheel and wheel["version"] == "9.19.0", "the pip wheel's 9.19.0 in " + (wheel or {}).get("prefix", "?"))
plain = [r for r in d["facts"]["which"]["results"] if r["name"].startswith("libcudnn.so") and r["found"]]
want(plain and plain[0]["how"] == "ld.so.cache" and plain[0]["installation"] == (distro or {}).get("id"),
     "a plain program gets the distro's copy through ld.so.cache: " + (plain[0]["path"] if plain else "none"))
pv = [v for v in d["facts"]["verify"] if v["role"] == "plain-program"]
doc = pv[0]["document"] if pv else {}
printed = (doc.get("compile") or {}).get("printed") or {}
want(printed.get("runtime_version") in (91400, "91400"), "a program built with the distro headers runs %s from %s" % (printed.get("runtime_version"), printed.get("loaded_from")))
gw = [c for l in doc.get("layers", []) for c in l["checks"] if c["id"] == "gpu-work"]
want(gw and gw[0]["status"] == "passed", "GPU proof passed: " + (gw[0]["summary"] if gw else "none"))
# the frameworks area has its own script (scripts/device/frameworks.sh): the
# machine's onnxruntime is the CPU-only package, a warning of that area
loud = [f for f in d["findings"] if f["severity"] != "info" and f.get("area") != "frameworks"]
want(not loud, "no errors or warnings outside the frameworks area: " + ", ".join(f["id"] for f in loud))
print("findings:", [(f["severity"], f["id"]) for f in d["findings"]])
sys.exit(0 if ok else 1)
PY
echo "checks exit status: $?"

echo "== doctor --facts (the checks re-run on the recorded facts)"
$B doctor --facts "$out/doctor-h200.json" | tail -n 3

echo "== speed: doctor --no-gpu against python3 -m torch.utils.collect_env, same run"
for i in 1 2 3; do
        s=$(date +%s.%N)
        $B doctor --no-gpu --json >/dev/null
        e=$(date +%s.%N)
        "$py" -m torch.utils.collect_env >"$out/collect_env.txt" 2>&1
        g=$(date +%s.%N)
        awk -v a="$s" -v b="$e" -v c="$g" 'BEGIN { v=b-a; p=c-b; printf "round: doctor --no-gpu %.2f s, collect_env %.2f s, ratio collect_env/doctor %.2f\n", v, p, p/v }'
done
/usr/bin/time -f "doctor --no-gpu: %e s wall, %M KiB peak" $B doctor --no-gpu --json >/dev/null
grep -i cudnn "$out/collect_env.txt" | head -12
echo "== done"
