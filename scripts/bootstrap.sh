#!/usr/bin/env bash
# Fresh Debian 12 machine -> installed dependencies, a built cudnnctl, and the
# check-up of this machine's cuDNN. Until `cudnnctl doctor` exists the
# check-up is what the finding commands tell: every cuDNN installation on the
# machine with its provenance and versions (`list`), which copy a plain
# program loads and what it shadows (`which cudnn`), and whether everything
# that copy loads can be found (`deps`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build cudnnctl >/dev/null
status=0
echo "== cudnnctl list"
build/cudnnctl list || status=$?
echo
echo "== cudnnctl which cudnn"
build/cudnnctl which cudnn || status=$?
lib=$(build/cudnnctl which --json cudnn | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(next((r["path"] for r in d["results"] if r["found"]), ""))' 2>/dev/null || true)
if [ -n "$lib" ]; then
        echo
        echo "== cudnnctl deps --missing $lib"
        build/cudnnctl deps --missing "$lib" || status=$?
        echo
        echo "== cudnnctl verify $lib"
        build/cudnnctl verify "$lib" || status=$?
fi
exit "$status"
