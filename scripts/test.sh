#!/usr/bin/env bash
# The whole test suite: install dependencies, build with warnings as errors,
# generate the fixtures and run every test (unit, CLI, oracles, fuzz seeds).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
BUILD=${BUILD:-build-test}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDNNCTL_WERROR=ON >/dev/null
ninja -C "$BUILD"
cd "$BUILD"
exec ctest --output-on-failure -j "$(nproc)"
