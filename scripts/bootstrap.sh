#!/usr/bin/env bash
# Fresh Debian 12 machine -> installed dependencies, a built cudnnctl, and the
# check-up of this machine's cuDNN: `cudnnctl doctor` (every installation, what
# the loader finds, the three layers of proof in child processes, the driver,
# the toolkits and the search paths, with a fix for each finding).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build cudnnctl >/dev/null
exec build/cudnnctl doctor "$@"
