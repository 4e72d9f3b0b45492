#!/usr/bin/env bash
# On the GPU machine (device tool): build cudnnctl with what the machine has
# (no tests) and run bench/speed.sh there with the GPU: the doctor with its
# default options against `python3 -m torch.utils.collect_env` and against
# the slowest child it started, `frameworks --gpu` against an import of
# torch with one convolution on the GPU, and the rest of the table. Results
# go to $OUT/speed-h200.txt (the checkout's path written as <checkout>).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/cudnnctl-device}
mkdir -p "$out"
root=$PWD
exec > >(sed -u "s|$root|<checkout>|g" | tee "$out/speed-h200.txt") 2>&1

echo "== machine"
date -u
uname -srm
nproc
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>&1 | head -2
py=$(command -v python3)
echo "python3: $py ($("$py" --version 2>&1)); torch: $("$py" -c 'import torch; print(torch.__version__, torch.backends.cudnn.version())' 2>&1 | tail -n 1)"

echo "== build"
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDNNCTL_TESTS=OFF >/dev/null &&
        ninja -C build-device cudnnctl >/dev/null || exit 1
B=$root/build-device/cudnnctl
$B --version
ldd "$B" | sed 's/ (0x[0-9a-f]*)//'

echo "== the doctor once, as a user sees it"
/usr/bin/time -f "doctor: %e s wall, %M KiB peak (children included)" "$B" doctor
echo "exit status: $?"

echo "== bench/speed.sh (GPU=1, 5 rounds, $py)"
GPU=1 bash bench/speed.sh "$B" 5 "$py"

# Where the doctor without frameworks spends its time: each installation's
# verify (the first with the compile proof, run from its kept build or not)
# against one verify without the compile proof
echo "== doctor --no-gpu --no-frameworks: each installation's verify"
"$B" doctor --no-gpu --no-frameworks --json >/dev/null 2>&1
"$B" doctor --no-gpu --no-frameworks --json >"$out/doctor-nofw.json" 2>/dev/null
"$py" - "$out/doctor-nofw.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for v in d["facts"]["verify"]:
    doc = v["document"]
    c = doc.get("compile") or {}
    probes = ", ".join("%s %s ms" % (k, p.get("wall_ms")) for k, p in (doc.get("probes") or {}).items()
                       if isinstance(p, dict))
    print("installation %s (%s): verify %s ms; compile proof %s, kept build run again: %s, program %s ms; "
          "probes: %s" % (v["installation"], v["role"], doc.get("summary", {}).get("wall_ms"), c.get("status"),
                          "yes" if c.get("reused") else "no", (c.get("run") or {}).get("wall_ms"), probes))
print("facts gathered in %s ms, the doctor %s ms" % (d["facts"].get("gather_ms"), d["summary"].get("wall_ms")))
PY
/usr/bin/time -f "verify --no-gpu --no-compile: %e s" "$B" verify --no-gpu --no-compile >/dev/null

# The installations verified one at a time (CUDNNCTL_JOBS=1) and side by
# side (the default), interleaved, medians of 5
echo "== doctor --no-gpu --no-frameworks: one at a time against side by side"
"$py" - "$B" <<'PY'
import os, statistics, subprocess, sys, time
exe = sys.argv[1]
t = {"1": [], "": []}
for _ in range(5):
    for jobs in ("1", ""):
        env = dict(os.environ)
        if jobs:
            env["CUDNNCTL_JOBS"] = jobs
        else:
            env.pop("CUDNNCTL_JOBS", None)
        t0 = time.monotonic()
        subprocess.run([exe, "doctor", "--no-gpu", "--no-frameworks", "--json"], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t[jobs].append(time.monotonic() - t0)
a, b = statistics.median(t["1"]) * 1000, statistics.median(t[""]) * 1000
print("one at a time %.0f ms, side by side %.0f ms (%.2fx)" % (a, b, b / a))
PY
