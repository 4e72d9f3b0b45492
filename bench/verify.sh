#!/usr/bin/env bash
# Benchmark: `cudnnctl verify` against the guide's manual route on the same
# installation, in the same run:
#   the guide: read the version macros out of cudnn_version.h (grep), compile
#   the minimal cudnnCreate/cudnnGetVersion program with gcc against the
#   installation's headers and library, and run it;
#   cudnnctl: `verify --json` (all three layers: static, run-time probes in
#   child processes, compile and run) and `verify --no-compile --json`.
# Prints the best wall time of ROUNDS runs, the peak memory of one verify, and
# the ratios. On a GPU machine scripts/device/verify.sh compares with importing
# PyTorch and running a convolution instead.
# usage: bench/verify.sh [CUDNNCTL] [PREFIX] [ROUNDS]   (PREFIX: default /usr/local/cuda)
set -euo pipefail
exe=${1:-build/cudnnctl}
prefix=${2:-/usr/local/cuda}
rounds=${3:-5}
[ -x "$exe" ] || { echo "no $exe: build first" >&2; exit 2; }
[ -f "$prefix/include/cudnn.h" ] || { echo "no $prefix/include/cudnn.h" >&2; exit 2; }
lib=$prefix/lib64
[ -d "$lib" ] || lib=$prefix/lib
. "$(dirname "$0")/timing.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
guide_program "$tmp/p.c"
guide() {
        grep -E "define CUDNN_(MAJOR|MINOR|PATCHLEVEL)" "$prefix/include/cudnn_version.h" >/dev/null
        gcc -o "$tmp/p" "$tmp/p.c" -I"$prefix/include" -L"$lib" -lcudnn -Wl,-rpath,"$lib"
        "$tmp/p"
}
echo "installation: $prefix ($("$tmp/p" 2>/dev/null || (guide >/dev/null 2>&1; "$tmp/p" 2>/dev/null || echo "the guide's program does not build here")))"
g=$(best guide)
v=$(best "$exe" verify "$prefix" --json)
n=$(best "$exe" verify "$prefix" --no-compile --json)
mem=$(/usr/bin/time -f %M "$exe" verify "$prefix" --json 2>&1 >/dev/null | tail -1)
printf "the guide (grep + gcc + run):     %8.1f ms\n" "$(awk -v t="$g" 'BEGIN{print t/1000}')"
printf "cudnnctl verify (3 layers):       %8.1f ms   ratio verify/guide %s\n" "$(awk -v t="$v" 'BEGIN{print t/1000}')" \
        "$(ratio "$g" "$v")"
printf "cudnnctl verify --no-compile:     %8.1f ms   ratio verify/guide %s\n" "$(awk -v t="$n" 'BEGIN{print t/1000}')" \
        "$(ratio "$g" "$n")"
echo "peak memory of one verify (largest process): ${mem} KiB"
