#!/usr/bin/env bash
# Benchmark: `cudnnctl doctor` against the guide's manual check-up on this
# machine, in the same run. The guide's route, as its steps are typed: look for
# the driver (nvidia-smi), find the toolkit (nvcc --version), list the cuDNN
# copies the loader knows (ldconfig -p | grep cudnn), find every libcudnn* on
# disk (find /usr /opt), read the version macros (grep cudnn_version.h), and
# compile and run the minimal cudnnCreate/cudnnGetVersion program, and ask
# PyTorch which cuDNN it has, in each interpreter that has it. The doctor
# does all of that and more (every installation's dependencies, the probes in
# child processes, the search paths), so the ratio is what the extra proof
# costs. Prints the best wall time of ROUNDS runs, the peak memory of one
# doctor, and the ratios. On the GPU machine scripts/device/doctor.sh compares
# with `python3 -m torch.utils.collect_env` instead.
# usage: bench/doctor.sh [CUDNNCTL] [PREFIX] [ROUNDS]   (PREFIX: default /usr/local/cuda)
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
        nvidia-smi >/dev/null 2>&1 || true
        "$prefix/bin/nvcc" --version >/dev/null 2>&1 || true
        ldconfig -p | grep -i cudnn >/dev/null || true
        find /usr /opt -name 'libcudnn*' 2>/dev/null >/dev/null || true
        grep -E "define CUDNN_(MAJOR|MINOR|PATCHLEVEL)" "$prefix/include/cudnn_version.h" >/dev/null
        gcc -o "$tmp/p" "$tmp/p.c" -I"$prefix/include" -L"$lib" -lcudnn -Wl,-rpath,"$lib"
        "$tmp/p"
        # the guide's third layer: ask the framework (each interpreter that has PyTorch)
        for py in $pys; do
                "$py" -c 'import torch; print(torch.__version__, torch.version.cuda, torch.backends.cudnn.version())'
        done
}
# the interpreters the guide would ask: those on PATH and the system's that import torch
pys=
for py in $(command -v python3 python 2>/dev/null) /usr/bin/python3; do
        [ -x "$py" ] && "$py" -c 'import torch' 2>/dev/null && case " $pys " in *" $py "*) ;; *) pys="$pys $py" ;; esac
done
echo "the guide asks PyTorch in:${pys:- (no interpreter with PyTorch)}"
g=$(best guide)
d=$(best "$exe" doctor --json)
n=$(best "$exe" doctor --no-compile --json)
f=$(best "$exe" doctor --no-frameworks --json)
mem=$(/usr/bin/time -f %M "$exe" doctor --json 2>&1 >/dev/null | tail -1)
printf "the guide's check-up (smi, nvcc, ldconfig, find, grep, gcc, run): %8.1f ms\n" "$(awk -v t="$g" 'BEGIN{print t/1000}')"
printf "cudnnctl doctor:                                                 %8.1f ms   ratio doctor/guide %s\n" \
        "$(awk -v t="$d" 'BEGIN{print t/1000}')" "$(ratio "$g" "$d")"
printf "cudnnctl doctor --no-compile:                                    %8.1f ms   ratio doctor/guide %s\n" \
        "$(awk -v t="$n" 'BEGIN{print t/1000}')" "$(ratio "$g" "$n")"
printf "cudnnctl doctor --no-frameworks:                                 %8.1f ms   ratio doctor/guide %s\n" \
        "$(awk -v t="$f" 'BEGIN{print t/1000}')" "$(ratio "$g" "$f")"
echo "peak memory of one doctor (largest process): ${mem} KiB"
