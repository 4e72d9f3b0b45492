#!/usr/bin/env bash
# On the GPU machine (device tool): build cudnnctl with what the machine has
# (no libarchive, no tests), then prove both cuDNN installations there with
# `verify --gpu` (the distro's cuDNN 9.14 and the pip wheel's 9.19 that
# PyTorch loads), and time verify against the guide's route in the same run:
# importing PyTorch and running one convolution. Results go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/cudnnctl-device}
# the JSON documents recorded here carry the checkout's path as <checkout> (expanded now, on purpose)
# shellcheck disable=SC2064
trap "sed -i 's|$PWD|<checkout>|g' '$out'/*.json 2>/dev/null" EXIT
mkdir -p "$out"
log=$out/verify-h200.txt
exec > >(tee "$log") 2>&1

echo "== machine"
date -u
uname -srm
nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv,noheader 2>&1 | head -4
echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
py=$(command -v python3)
echo "python3: $py"

echo "== build"
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDNNCTL_TESTS=OFF \
        -DCUDNNCTL_WITH_LIBARCHIVE=OFF >/dev/null && ninja -C build-device cudnnctl >/dev/null || exit 1
B=$PWD/build-device/cudnnctl
$B --version

echo "== cudnnctl list"
$B list

wheel=$("$py" -c 'import importlib.util as u; print(list(u.find_spec("nvidia.cudnn").submodule_search_locations)[0])' 2>/dev/null)
distro=/usr/lib/x86_64-linux-gnu/libcudnn.so.9
echo "wheel: $wheel"
echo "distro: $distro"

status=0
run_verify() { # name, args...
        local name=$1
        shift
        echo "== cudnnctl verify $* --gpu"
        /usr/bin/time -f "verify $name: %e s wall, %M KiB peak" $B verify "$@" --gpu
        local rc=$?
        echo "exit status: $rc"
        [ $rc -eq 0 ] || status=1
        $B verify "$@" --gpu --json >"$out/verify-$name.json"
}
run_verify distro "$distro"
[ -n "$wheel" ] && run_verify wheel "$wheel"
echo "== cudnnctl verify (no INSTALL: what a plain program loads)"
$B verify --no-compile

echo "== speed: verify --gpu against the guide's route (import torch + one convolution), same run"
cat >"$out/guide.py" <<'PY'
import time
t = time.perf_counter()
import torch
x = torch.randn(2, 3, 16, 16, device="cuda")
w = torch.randn(8, 3, 3, 3, device="cuda")
y = torch.nn.functional.conv2d(x, w, padding=1)
torch.cuda.synchronize()
print("torch", torch.__version__, "cudnn", torch.backends.cudnn.version(), "conv ok", tuple(y.shape))
PY
for i in 1 2 3; do
        s=$(date +%s.%N)
        $B verify "$wheel" --gpu --json >/dev/null
        e=$(date +%s.%N)
        "$py" "$out/guide.py" >/dev/null 2>&1
        g=$(date +%s.%N)
        awk -v a="$s" -v b="$e" -v c="$g" 'BEGIN { v=b-a; p=c-b; printf "round: verify --gpu %.2f s, torch import + conv %.2f s, ratio torch/verify %.2f\n", v, p, p/v }'
done
for i in 1 2 3; do
        s=$(date +%s.%N)
        $B verify "$wheel" --no-gpu --no-compile --json >/dev/null
        e=$(date +%s.%N)
        awk -v a="$s" -v b="$e" 'BEGIN { printf "verify --no-gpu --no-compile: %.2f s\n", b-a }'
done
"$py" "$out/guide.py"
echo "== done (status $status)"
exit $status
