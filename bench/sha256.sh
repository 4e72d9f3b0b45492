#!/usr/bin/env bash
# Benchmark: the library's SHA-256 (src/lib/formats/sha256.c, what the install
# hashes every staged file and the archive with) with the SHA-NI compression
# and with the portable one, against sha256sum (coreutils) and, where it is
# there, `openssl dgst -sha256`, on the same MIB MiB of pseudo-random data
# (default 512) in the page cache, in the same run. bench/sha256_bench.c is
# compiled here with CC (default cc) at -O2, the optimisation of the
# RelWithDebInfo build; it reads the file in 1 MiB pieces, as sha256sum reads
# it, so every figure includes the same reading. All digests must agree.
# Prints the best wall time of ROUNDS runs of each as MB/s (10^6 bytes per
# second) and the ratios. usage: bench/sha256.sh [MIB] [ROUNDS] [CC]
set -euo pipefail
mib=${1:-512}
rounds=${2:-3}
cc=${3:-cc}
here=$(cd "$(dirname "$0")" && pwd)
command -v sha256sum >/dev/null || { echo "sha256sum (coreutils) is needed" >&2; exit 2; }
command -v "$cc" >/dev/null || { echo "no C compiler '$cc'" >&2; exit 2; }
. "$here/timing.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cc" -std=c11 -O2 -I"$here/../src/lib" "$here/sha256_bench.c" "$here/../src/lib/formats/sha256.c" "$here/../src/lib/formats/mdblock.c" -o "$tmp/sha256_bench"
head -c "$((mib * 1048576))" /dev/urandom >"$tmp/data"
bytes=$((mib * 1048576))
cat "$tmp/data" >/dev/null
fast=$("$tmp/sha256_bench" --which)
echo "data: $mib MiB ($bytes bytes) of /dev/urandom in the page cache; this CPU's compression: $fast"

# every digest the same before anything is timed
want=$(sha256sum "$tmp/data" | cut -d' ' -f1)
for args in "" "--portable"; do
        # shellcheck disable=SC2086
        got=$("$tmp/sha256_bench" $args "$tmp/data" | cut -d' ' -f1)
        [ "$got" = "$want" ] || { echo "sha256_bench $args: $got, sha256sum: $want" >&2; exit 1; }
done
have_openssl=0
if command -v openssl >/dev/null && openssl dgst -sha256 -r "$tmp/data" | grep -q "^$want "; then
        have_openssl=1
fi

p=$(best "$tmp/sha256_bench" --portable "$tmp/data")
f=$(best "$tmp/sha256_bench" "$tmp/data")
s=$(best sha256sum "$tmp/data")
o=0
[ $have_openssl -eq 1 ] && o=$(best openssl dgst -sha256 "$tmp/data")
mbs() { awk -v b="$bytes" -v t="$1" 'BEGIN { printf "%7.0f MB/s  (%7.1f ms)", b / t, t / 1000 }'; }
echo "cudnnctl SHA-256, portable:        $(mbs "$p")"
echo "cudnnctl SHA-256, $(printf '%-16s' "$fast:") $(mbs "$f")   $(ratio "$f" "$p")x the portable path"
echo "sha256sum:                         $(mbs "$s")   cudnnctl ($fast) $(ratio "$f" "$s")x its speed"
if [ $have_openssl -eq 1 ]; then
        echo "openssl dgst -sha256:              $(mbs "$o")   cudnnctl ($fast) $(ratio "$f" "$o")x its speed"
fi
