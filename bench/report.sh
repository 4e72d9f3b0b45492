#!/usr/bin/env bash
# bench/report.sh [CUDNNCTL] [COUNTS...]: time `cudnnctl report --json` over N
# doctor documents generated from docs/device/doctor-h200.json (default N: 10
# 100 1000 10000; a few vary: an older driver with driver-too-old on 6%, a
# framework-cpu-only warning on 4%), with the peak memory (/usr/bin/time -f %M
# when there, else unmeasured), and print ms per document; the last line says
# whether the cost of each added document stays within a factor of 2 (linear).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
exe=${1:-$here/build/cudnnctl}
shift || true
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(10 100 1000 10000)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
max=0
for n in "${counts[@]}"; do [ "$n" -gt "$max" ] && max=$n; done
python3 - "$here/docs/device/doctor-h200.json" "$tmp/all" "$max" <<'PY'
import copy, json, os, sys
base = json.load(open(sys.argv[1]))
out, n = sys.argv[2], int(sys.argv[3])
os.makedirs(out)
healthy = json.dumps(base)
old = copy.deepcopy(base)
old["facts"]["host"]["driver_files"]["version"] = "535.104.05"
old["findings"].insert(0, {"id": "driver-too-old", "severity": "error", "area": "driver",
                           "summary": "driver 535.104.05 is too old", "evidence": {"driver": "535.104.05"}})
old = json.dumps(old)
cpu = copy.deepcopy(base)
cpu["findings"].append({"id": "framework-cpu-only", "severity": "warning", "area": "frameworks",
                        "summary": "a CPU-only build", "evidence": {}})
cpu = json.dumps(cpu)
for i in range(n):
    text = old if i % 50 < 3 else cpu if i % 50 == 3 or i % 50 == 4 else healthy
    name = '"node%05d"' % (i + 1)
    text = text.replace('"system": "linux", "shell"', '"system": "linux", "name": %s, "shell"' % name, 1)
    with open(os.path.join(out, "n%05d.json" % (i + 1)), "w") as f:
        f.write(text)
PY
have_time=0
[ -x /usr/bin/time ] && have_time=1
printf '%8s %10s %12s %10s %8s\n' documents MB ms ms/doc "peak KiB"
prev=""
prev_ms=0
prev_marg=""
linear=yes
for n in "${counts[@]}"; do
        d=$tmp/n$n
        mkdir "$d"
        (cd "$tmp/all" && ls | sed -n "1,${n}p" | while read -r f; do ln "$f" "$d/$f"; done)
        mb=$(du -sm "$d" | cut -f1)
        "$exe" report --json "$d" >/dev/null 2>&1 || true  # warm the page cache
        t0=$(date +%s%N)
        if [ $have_time = 1 ]; then
                /usr/bin/time -f %M -o "$tmp/mem" "$exe" report --json "$d" >/dev/null 2>&1 || true
                mem=$(tail -n1 "$tmp/mem")
        else
                "$exe" report --json "$d" >/dev/null 2>&1 || true
                mem=-
        fi
        t1=$(date +%s%N)
        ms=$(((t1 - t0) / 1000000))
        per=$(awk -v a="$ms" -v b="$n" 'BEGIN { printf "%.3f", a / b }')
        printf '%8d %10s %12d %10s %8s\n' "$n" "$mb" "$ms" "$per" "$mem"
        # the cost of each document beyond the previous count's (start-up left out)
        if [ -n "$prev" ]; then
                marg=$(awk -v a="$ms" -v b="$prev_ms" -v n="$n" -v m="$prev" 'BEGIN { printf "%.3f", (a - b) / (n - m) }')
                if [ -n "$prev_marg" ] && awk -v a="$marg" -v b="$prev_marg" 'BEGIN { exit !(a > 2 * b || b > 2 * a) }'; then
                        linear=no
                fi
                [ "$n" -ge 1000 ] && prev_marg=$marg
        fi
        prev=$n
        prev_ms=$ms
        rm -rf "$d"
done
echo "linear (the cost of each added document within a factor of 2 from 1000 documents up): $linear"
