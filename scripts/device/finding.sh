#!/usr/bin/env bash
# On the GPU machine (device tool): build cudnnctl with what the machine has
# (no libarchive, no tests), then record what the finding commands say there,
# next to what the real loader and a real PyTorch process do, so the answers
# can be compared: the distro cuDNN that a plain program gets, the pip wheel's
# cuDNN that PyTorch gets. Results go to $OUT (at most 8 files).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/cudnnctl-device}
mkdir -p "$out"
log=$out/finding.txt
exec > >(tee "$log") 2>&1

echo "== machine"
date -u
uname -srm
nvidia-smi -L 2>&1 | head -4
echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
py=$(command -v python3)
echo "python3: $py"

echo "== build"
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDNNCTL_TESTS=OFF \
        -DCUDNNCTL_WITH_LIBARCHIVE=OFF >/dev/null && ninja -C build-device cudnnctl >/dev/null || exit 1
B=$PWD/build-device/cudnnctl
$B --version

echo "== cudnnctl list"
/usr/bin/time -f "list: %e s, %M KiB" $B list
$B list --json >"$out/list.json"

echo "== cudnnctl which cudnn (a plain program)"
$B which cudnn

echo "== the real loader, for a plain program linked with -lcudnn"
tmp=$(mktemp -d)
printf '#include <stddef.h>\nsize_t cudnnGetVersion(void);\nint main(void){return cudnnGetVersion()==0;}\n' >"$tmp/p.c"
if gcc -o "$tmp/p" "$tmp/p.c" -lcudnn 2>"$tmp/err"; then
        ldd "$tmp/p" | grep -i cudnn
        echo "-- cudnnctl which libcudnn.so.9 --from that program"
        $B which --from "$tmp/p" libcudnn.so.9
else
        echo "cannot link -lcudnn: $(head -1 "$tmp/err")"
fi

echo "== PyTorch"
torchlib=$("$py" -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))' 2>/dev/null)
echo "torch lib: $torchlib"
"$py" - <<'PY' 2>&1
import torch
print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version())
x = torch.randn(1, 1, 8, 8, device="cuda")
w = torch.randn(1, 1, 3, 3, device="cuda")
torch.nn.functional.conv2d(x, w)
torch.cuda.synchronize()
seen = set()
for line in open("/proc/self/maps"):
    parts = line.split()
    if len(parts) >= 6 and "cudnn" in parts[5] and parts[5] not in seen:
        seen.add(parts[5])
        print("mapped:", parts[5])
PY
if [ -n "$torchlib" ] && [ -f "$torchlib/libtorch_cuda.so" ]; then
        echo "-- cudnnctl which libcudnn.so.9 --from libtorch_cuda.so"
        $B which --from "$torchlib/libtorch_cuda.so" libcudnn.so.9
        $B which --json --from "$torchlib/libtorch_cuda.so" libcudnn.so.9 >"$out/which_torch.json"
        echo "-- cudnnctl deps --missing libtorch_cuda.so"
        /usr/bin/time -f "deps: %e s, %M KiB" $B deps --missing "$torchlib/libtorch_cuda.so"
        $B deps --json "$torchlib/libtorch_cuda.so" >"$out/deps_torch.json"
        echo "-- the real loader: ld.so's list for libtorch_cuda.so"
        ldd "$torchlib/libtorch_cuda.so" | grep -iE "cudnn|cublas|nvrtc|libcuda" || true
fi
echo "== cudnnctl deps on the distro cuDNN"
lib=$($B which --json libcudnn.so.9 | "$py" -c 'import json,sys; r=json.load(sys.stdin)["results"][0]; print(r["path"] or "")')
[ -n "$lib" ] && $B deps --missing "$lib"
rm -rf "$tmp"
echo "== done"
