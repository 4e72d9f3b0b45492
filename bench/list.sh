#!/usr/bin/env bash
# Benchmark: `cudnnctl list --json` against what a person would run for the
# same answer, in the same run:
#   1. this machine: `ldconfig -p` (the loader cache, one place) and `find`
#      over the very roots cudnnctl searched (from its own JSON) for cuDNN
#      libraries, headers and dist-info directories;
#   2. generated trees of 10, 100, 1000 and 10000 directories under /opt (one
#      of them holding cuDNN), `cudnnctl list --root TREE --json` against
#      `find TREE`, to show how the cost grows with the number of directories.
# Prints the best wall time of ROUNDS runs, the ratios, and microseconds per
# directory. usage: bench/list.sh [CUDNNCTL] [ROUNDS]
set -euo pipefail
exe=${1:-build/cudnnctl}
rounds=${2:-5}
[ -x "$exe" ] || { echo "no $exe: build first" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed (to read the JSON)" >&2; exit 2; }
. "$(dirname "$0")/timing.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- 1. this machine ------------------------------------------------------------

"$exe" list --json >"$tmp/live.json" || true
python3 - "$tmp/live.json" >"$tmp/roots" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
seen = set()
for r in d["roots"]:
    p = r.get("canonical", r["path"])
    if r["state"] == "searched" and p not in seen:
        seen.add(p)
        print(p)
EOF
read -r nroots ndirs ninst < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d["stats"]; print(s["roots"], s["directories"], s["installations"])' "$tmp/live.json")
mapfile -t roots <"$tmp/roots"
findroots() {
        find "${roots[@]}" -maxdepth 4 \( -name 'libcudnn*' -o -name 'cudnn*.h' -o -name 'cudnn*.dll' \
                -o -name 'nvidia_cudnn*.dist-info' \) -print 2>/dev/null
}
t_ours=$(best "$exe" list --json)
t_ldc=$(best ldconfig -p)
t_find=$(best findroots)
rss=$( { /usr/bin/time -f '%M' "$exe" list --json >/dev/null; } 2>&1 | tail -1) || rss=?
echo "== this machine: $nroots roots, $ndirs directories read, $ninst installation(s) (best of $rounds)"
printf '%-44s %9s us  (peak RSS %s KiB)\n' "cudnnctl list --json" "$t_ours" "$rss"
printf '%-44s %9s us  (ratio %s; the cache only: no headers, no wheels, no versions)\n' "ldconfig -p" "$t_ldc" \
        "$(ratio "$t_ours" "$t_ldc")"
printf '%-44s %9s us  (ratio %s; names only: no versions, no grouping)\n' "find over the ${#roots[@]} searched roots" \
        "$t_find" "$(ratio "$t_ours" "$t_find")"
printf '%-44s %9s us\n' "ldconfig -p + find together" "$((t_ldc + t_find))"
echo "  (ratio = peer time / cudnnctl time: above 1 means cudnnctl is faster)"

# ---- 2. generated trees ---------------------------------------------------------------

echo "== generated trees under /opt (best of $rounds)"
printf '%8s %14s %14s %8s %14s\n' dirs "cudnnctl us" "find us" ratio "cudnnctl us/dir"
prev=0 prevn=0
for n in 10 100 1000 10000; do
        t="$tmp/tree$n"
        python3 - "$t" "$n" <<'EOF'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
made = 0
i = 0
# /opt/gNN/dNNNN/{lib,include}: three directories per package, one of them with cuDNN
while made < n:
    d = os.path.join(root, "opt", "g%02d" % (i % 50), "d%05d" % i)
    os.makedirs(os.path.join(d, "lib"))
    os.makedirs(os.path.join(d, "include"))
    with open(os.path.join(d, "lib", "libfoo%d.so" % i), "w") as f:
        f.write("x")
    made += 3
    i += 1
d = os.path.join(root, "opt", "g00", "d00000")
for name in ("libcudnn.so.9", "libcudnn_graph.so.9"):
    with open(os.path.join(d, "lib", name), "wb") as f:
        f.write(b"\x7fELF")
with open(os.path.join(d, "include", "cudnn_version.h"), "w") as f:
    f.write("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n")
EOF
        real=$(find "$t" -type d | wc -l)
        to=$(best "$exe" list --json --root "$t")
        tf=$(best find "$t" \( -name 'libcudnn*' -o -name 'cudnn*.h' \) -print)
        got=$("$exe" list --json --root "$t" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["installations"]), d["stats"]["directories"], d["stats"]["truncated"])')
        per=$(awk -v a="$to" -v b="$real" 'BEGIN { printf "%.2f", a / b }')
        printf '%8s %14s %14s %8s %14s   (installations, dirs read, truncated: %s)\n' "$real" "$to" "$tf" \
                "$(ratio "$to" "$tf")" "$per" "$got"
        if [ $prev -gt 0 ]; then
                awk -v a="$prev" -v b="$to" -v m="$prevn" -v k="$real" \
                        'BEGIN { printf "%8s x%.1f directories -> x%.1f time\n", "", k / m, b / a }'
        fi
        prev=$to prevn=$real
done
