#!/usr/bin/env bash
# Benchmark: each command against the tool a user would otherwise run for the
# same answer, in the same run, rounds interleaved (A, B, A, B...), so that
# the machine's noise falls on both. Prints the median wall time of each,
# their ratio (cudnnctl / peer) and the goal the ratio is held to, then the
# peak memory of the tool's own process (children apart) for every command.
#
#   doctor --no-gpu              python3 -m torch.utils.collect_env   (goal 0.50)
#   doctor --no-frameworks       verify --no-compile (the installation a
#                                plain program loads)                  (1.20)
#                                (and with --recompile: the compile proof
#                                built each time, not its kept build)
#   frameworks                   python3 -c "import torch" (the heaviest
#                                framework found)                      (1.20)
#   deps --no-runtime FILE       libtree FILE                          (1.00)
#   deps FILE                    libtree FILE                          (2.00)
#   which libcudnn.so.9          ldconfig -p                           (3.00)
#   list                         find over the same roots              (1.00)
#
# The peak of the tool's own process is read from /proc/self/status (VmHWM)
# as it exits, by a small preloaded library built here (children report
# their own, which are left out). Goal: under 32 MiB each.
# With GPU=1 (a machine with a GPU: scripts/device/speed.sh) the doctor runs
# with its default options and `frameworks --gpu` against an import with one
# convolution on the GPU; a row then compares the doctor with the slowest
# child it started in the same run (goal 1.15).
# usage: [GPU=1] bench/speed.sh [CUDNNCTL] [ROUNDS] [PYTHON]
set -euo pipefail
exe=$(readlink -f "${1:-build/cudnnctl}")
rounds=${2:-7}
py=${3:-/usr/bin/python3}
[ -x "$exe" ] || { echo "no $exe: build first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the compile proof's kept builds (README, verify): this run's own cache
export XDG_CACHE_HOME="$tmp/cache"
. "$(dirname "$0")/timing.sh"
# median_pair NAME_A CMD_A -- CMD_B: the medians (microseconds) of A and B, interleaved
declare -a ta tb
pair() {
        local i t0 t1 a=() b=() n=0 sep
        for sep in "$@"; do
                n=$((n + 1))
                [ "$sep" = "--" ] && break
        done
        local A=("${@:1:n-1}") B=("${@:n+1}")
        for ((i = 0; i < rounds; i++)); do
                stamp t0
                "${A[@]}" >/dev/null 2>&1 || true
                stamp t1
                a+=($((t1 - t0)))
                stamp t0
                "${B[@]}" >/dev/null 2>&1 || true
                stamp t1
                b+=($((t1 - t0)))
        done
        ma=$(printf '%s\n' "${a[@]}" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
        mb=$(printf '%s\n' "${b[@]}" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
}
row() { # WORK PEER GOAL
        awk -v w="$1" -v p="$2" -v g="$3" -v a="$ma" -v b="$mb" 'BEGIN {
                printf "| %-34s | %9.1f ms | %-38s | %9.1f ms | %5.2fx | %s |\n", w, a / 1000, p, b / 1000, (b > 0 ? a / b : 0), g }'
}
echo "| work | cudnnctl (median of $rounds) | peer, same run | peer | ratio | goal |"
echo "|---|---|---|---|---|---|"
if [ "${GPU:-0}" = 1 ]; then
        dargs=() fargs=(--gpu)
        peer_fw="import torch; x = torch.randn(1, 3, 32, 32, device='cuda'); w = torch.randn(8, 3, 3, 3, device='cuda'); torch.nn.functional.conv2d(x, w); torch.cuda.synchronize()"
        peer_label="import torch + one convolution on the GPU"
else
        dargs=(--no-gpu) fargs=()
        peer_fw="import torch"
        peer_label="$py -c 'import torch'"
fi
if "$py" -c "import torch" >/dev/null 2>&1; then
        pair "$exe" doctor "${dargs[@]}" -- "$py" -m torch.utils.collect_env
        row "doctor ${dargs[*]}" "$py -m torch.utils.collect_env" "<= 0.50"
        pair "$exe" frameworks "${fargs[@]}" -- "$py" -c "$peer_fw"
        row "frameworks ${fargs[*]}" "$peer_label" "<= 1.20"
        # the doctor against the slowest child it started, in the same run
        # (each child's wall_ms is in the document)
        for ((i = 0; i < rounds; i++)); do
                stamp t0
                "$exe" doctor "${dargs[@]}" --json >"$tmp/doctor.json" 2>/dev/null || true
                stamp t1
                python3 - "$tmp/doctor.json" $((t1 - t0)) <<'PY'
import json, sys
def walls(v, key=""):
    # every child's wall_ms (probes, the compiler, the compiled program); a summary's is a whole's
    if isinstance(v, dict):
        if isinstance(v.get("wall_ms"), int) and key != "summary":
            yield v["wall_ms"]
        for k, x in v.items():
            yield from walls(x, k)
    elif isinstance(v, list):
        for x in v:
            yield from walls(x, key)
try:
    doc = json.load(open(sys.argv[1]))
except ValueError:
    doc = {}
print(sys.argv[2], max(walls(doc), default=0) * 1000)
PY
        done >"$tmp/slowest"
        ma=$(sort -n "$tmp/slowest" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
        mb=$(awk '{print $2}' "$tmp/slowest" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
        row "doctor ${dargs[*]}" "its slowest child (same run)" "<= 1.15"
else
        echo "($py has no torch: doctor and frameworks against it not measured)"
fi
# verify without an installation named takes the one a plain program loads.
# The compile proof's build is kept (a cache of this run's own, warmed by one
# run first) and run again; --recompile is the proof compiled every time.
"$exe" doctor --no-gpu --no-frameworks >/dev/null 2>&1 || true
pair "$exe" doctor --no-gpu --no-frameworks -- "$exe" verify --no-gpu --no-compile
row "doctor --no-frameworks" "verify --no-compile" "<= 1.20"
pair "$exe" doctor --no-gpu --no-frameworks --recompile -- "$exe" verify --no-gpu --no-compile
row "doctor --no-frameworks --recompile" "verify --no-compile" "(compiles)"
# (awk reads to the end: leaving early would stop ldconfig with SIGPIPE, which pipefail makes fatal)
file=$(ldconfig -p | awk '/libcudnn_graph.so.9 / && f == "" {f = $NF} END {print f}')
[ -n "$file" ] || file=$(ls /usr/local/cuda/lib*/libcudnn_graph.so.9 2>/dev/null | head -n 1 || true)
if [ -n "$file" ] && command -v libtree >/dev/null; then
        pair "$exe" deps --no-runtime "$file" -- libtree "$file"
        row "deps --no-runtime $(basename "$file")" "libtree" "<= 1.00"
        pair "$exe" deps "$file" -- libtree "$file"
        row "deps $(basename "$file")" "libtree" "<= 2.00"
fi
pair "$exe" which libcudnn.so.9 -- ldconfig -p
row "which libcudnn.so.9" "ldconfig -p" "<= 3.00"
roots=$("$exe" list --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join(r["path"] for r in d.get("roots", []) if r.get("state") == "searched"))')
# shellcheck disable=SC2086
pair "$exe" list -- find $roots -name "*cudnn*"
row "list" "find over its $(echo $roots | wc -w) roots" "<= 1.00"

# the tool's own peak: a preloaded library prints VmHWM of each process as it exits
cat >"$tmp/peak.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
__attribute__((destructor)) static void peak(void)
{
        const char *log = getenv("CC_PEAK_LOG");
        char line[256], self[64];
        FILE *f, *o;
        ssize_t n;

        if (log == NULL || (n = readlink("/proc/self/exe", self, sizeof(self) - 1)) < 0)
                return;
        f = fopen("/proc/self/status", "r");
        if (f == NULL)
                return;
        while (fgets(line, sizeof(line), f) != NULL)
                if (strncmp(line, "VmHWM:", 6) == 0 && (o = fopen(log, "a")) != NULL) {
                        fprintf(o, "%ld %s", (long)getpid(), line + 6);
                        fclose(o);
                }
        fclose(f);
}
C
if cc -shared -fPIC -O2 -o "$tmp/peak.so" "$tmp/peak.c" 2>/dev/null; then
        echo
        echo "| command | peak of the tool's own process |"
        echo "|---|---|"
        peak() {
                local label=$1
                shift
                : >"$tmp/peak.log"
                CC_PEAK_LOG="$tmp/peak.log" LD_PRELOAD="$tmp/peak.so" bash -c 'echo $$ >"$0"; exec "$@"' "$tmp/pid" "$@" >/dev/null 2>&1 || true
                awk -v pid="$(cat "$tmp/pid")" -v l="$label" '$1 == pid { printf "| %-40s | %6.1f MiB |\n", l, $2 / 1024 }' "$tmp/peak.log"
        }
        peak "doctor --no-gpu" "$exe" doctor --no-gpu
        peak "frameworks" "$exe" frameworks
        peak "verify" "$exe" verify
        peak "list" "$exe" list
        [ -n "$file" ] && peak "deps $(basename "$file")" "$exe" deps "$file"
        peak "which libcudnn.so.9" "$exe" which libcudnn.so.9
        peak "inspect /usr/local/cuda/lib" "$exe" inspect /usr/local/cuda/lib
fi
