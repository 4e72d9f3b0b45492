#!/usr/bin/env bash
# Benchmark: `cudnnctl frameworks --python PY` against asking the framework by
# hand in the same run: `PY -c 'import torch; print(torch.__version__,
# torch.version.cuda, torch.backends.cudnn.version())'`, the guide's third
# layer of proof. The tool starts the interpreter twice (the survey, then one
# child for the framework), reads the mapped files and judges, so the ratio is
# what isolation and the extra facts cost. Prints the best wall time of ROUNDS
# runs, the peak memory of one run and the ratio. Needs an interpreter with
# PyTorch (Debian's python3-torch here; on the GPU machine
# scripts/device/frameworks.sh times `frameworks --gpu` the same way).
# usage: bench/frameworks.sh [CUDNNCTL] [PYTHON] [ROUNDS]
set -euo pipefail
exe=${1:-build/cudnnctl}
py=${2:-/usr/bin/python3}
rounds=${3:-5}
[ -x "$exe" ] || { echo "no $exe: build first" >&2; exit 2; }
"$py" -c 'import torch' 2>/dev/null || { echo "no PyTorch in $py (apt-get install python3-torch)" >&2; exit 2; }
. "$(dirname "$0")/timing.sh"
by_hand() { "$py" -c 'import torch; print(torch.__version__, torch.version.cuda, torch.backends.cudnn.version())'; }
tool_us=$(best "$exe" frameworks --python "$py" --json)
hand_us=$(best by_hand)
peak=$( { /usr/bin/time -f '%M' "$exe" frameworks --python "$py" --json >/dev/null || true; } 2>&1 | tail -1)
printf 'frameworks --python %s: best of %d %8.1f ms, peak %s KiB (the largest process: the interpreter importing torch)\n' \
        "$py" "$rounds" "$(awk -v u="$tool_us" 'BEGIN{print u/1000}')" "$peak"
printf 'by hand (import torch, three questions): %8.1f ms\n' "$(awk -v u="$hand_us" 'BEGIN{print u/1000}')"
printf 'ratio frameworks / by hand: %s\n' "$(ratio "$hand_us" "$tool_us")"
