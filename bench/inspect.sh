#!/usr/bin/env bash
# Benchmark: `cudnnctl inspect` over the CUDA toolkit's library directory
# against the peer a person would use for the same facts, in the same run:
# `readelf -d --dyn-syms` on every ELF file there (SONAME, NEEDED, RUNPATH and
# the exported symbols whose constants cudnnctl decodes). Prints wall times,
# peak memory and the ratio. usage: bench/inspect.sh [CUDNNCTL] [DIR] [ROUNDS]
set -euo pipefail
exe=${1:-build/cudnnctl}
dir=${2:-/usr/local/cuda/lib}
rounds=${3:-5}
[ -x "$exe" ] || { echo "no $exe: build first" >&2; exit 2; }
[ -d "$dir" ] || { echo "no $dir" >&2; exit 2; }
mapfile -t files < <(find "$dir" -maxdepth 1 -type f -name 'libcudnn*.so*' | sort) # the files cudnnctl reads
. "$(dirname "$0")/timing.sh"
best_ours=0 best_peer=0
for ((i = 0; i < rounds; i++)); do
        stamp t0; "$exe" inspect --json "$dir" >/dev/null; stamp t1
        for f in "${files[@]}"; do readelf -d --dyn-syms -W "$f" >/dev/null; done; stamp t2
        o=$((t1 - t0)) p=$((t2 - t1))
        { [ $best_ours -eq 0 ] || [ $o -lt $best_ours ]; } && best_ours=$o
        { [ $best_peer -eq 0 ] || [ $p -lt $best_peer ]; } && best_peer=$p
done
rss=$( { /usr/bin/time -f '%M' "$exe" inspect --json "$dir" >/dev/null; } 2>&1 | tail -1)
echo "files: ${#files[@]} cuDNN libraries in $dir (best of $rounds rounds)"
echo "cudnnctl inspect --json DIR : ${best_ours} us (peak RSS ${rss} KiB)"
echo "readelf -d --dyn-syms each  : ${best_peer} us"
awk -v a="$best_ours" -v b="$best_peer" 'BEGIN { printf "ratio readelf/cudnnctl     : %.1fx\n", b / a }'
