#!/usr/bin/env bash
# Fresh Debian 12 machine -> installed dependencies, a built cudnnctl, and the
# check-up of this machine's cuDNN. (Until `cudnnctl doctor` exists, the
# check-up is `cudnnctl inspect` over the CUDA toolkit and the system's cuDNN
# locations: every cuDNN file there with its version from every source.)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build cudnnctl >/dev/null
targets=()
for t in "${CUDA_PATH:-}" "${CUDA_HOME:-}" /usr/local/cuda /usr/include/x86_64-linux-gnu/cudnn_version.h \
        /usr/lib/x86_64-linux-gnu/libcudnn.so*; do
        [ -n "$t" ] && [ -e "$t" ] && targets+=("$t")
done
if [ ${#targets[@]} -eq 0 ]; then
        echo "no CUDA toolkit or cuDNN found in the usual places; try: build/cudnnctl inspect PATH"
        exit 3
fi
exec build/cudnnctl inspect "${targets[@]}"
