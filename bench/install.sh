#!/usr/bin/env bash
# Benchmark: `cudnnctl install --into` an empty prefix against the guide's
# route and against a bare tar, in the same run, on an archive made from the
# real cuDNN files of this machine in the layout of NVIDIA's 9.x tar.xz
# (cudnn-linux-x86_64-VERSION_cudaMAJOR-archive/{include,lib}: the
# include/cudnn*.h headers and lib/libcudnn* libraries and links of PREFIX):
#   the guide:  tar -xf ARCHIVE -C TMP, then cp -a TMP/.../{include,lib} into the target;
#   bare tar:   tar -xf ARCHIVE -C TARGET --strip-components=1;
#   cudnnctl:   install --yes --no-verify --into TARGET ARCHIVE (plan and checks, the journal,
#               staging with SHA-256, every sync, the manifest, the commit).
# Each round starts from an empty target with the archive in the page cache.
# Prints the best wall time of ROUNDS runs of each, the peak memory of one
# install, and the ratios install/guide and install/tar; then the peak
# memory of an install of an archive of half the size (peak memory must not
# grow with the archive). With xz, the same again on a single-block .xz.
# usage: bench/install.sh [CUDNNCTL] [PREFIX] [ROUNDS] [COMPRESSION]   (COMPRESSION: xz (default) or gz)
set -euo pipefail
exe=${1:-build/cudnnctl}
prefix=${2:-/usr/local/cuda}
rounds=${3:-3}
comp=${4:-xz}
[ -x "$exe" ] || { echo "no $exe: build first" >&2; exit 2; }
exe=$(readlink -f "$exe")
lib=$prefix/lib64
[ -d "$lib" ] || lib=$prefix/lib
ls "$lib"/libcudnn* >/dev/null 2>&1 || { echo "no cuDNN libraries in $lib" >&2; exit 2; }
ver=$(awk '/define CUDNN_MAJOR/{a=$3} /define CUDNN_MINOR/{b=$3} /define CUDNN_PATCHLEVEL/{c=$3} END{print a"."b"."c}' \
        "$prefix/include/cudnn_version.h")
. "$(dirname "$0")/timing.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
top=cudnn-linux-x86_64-$ver.0_cuda13-archive
mkdir -p "$tmp/src/$top/include" "$tmp/src/$top/lib"
cp -a "$prefix"/include/cudnn*.h "$tmp/src/$top/include/"
cp -a "$lib"/libcudnn* "$tmp/src/$top/lib/"
case $comp in
xz) ext=tar.xz flag=-J ;;
gz) ext=tar.gz flag=-z ;;
*) echo "COMPRESSION: xz or gz" >&2; exit 2 ;;
esac
archive=$tmp/$top.$ext
(cd "$tmp/src" && XZ_OPT="-1 -T0" tar -c $flag -f "$archive" "$top")
half=$tmp/half-$top.$ext
(cd "$tmp/src" && ls "$top"/lib/libcudnn* | awk 'NR % 2' >"$tmp/halflist" && XZ_OPT="-1 -T0" tar -c $flag -f "$half" \
        "$top/include" -T "$tmp/halflist")
(cd "$tmp" && sha256sum "$top.$ext" >"$top.$ext.sha256") # the checksum pre-check compares it (ok, not "no digest")
bytes=$(du -sb "$tmp/src/$top" | cut -f1)
echo "archive: $top.$ext, $(du -b "$archive" | cut -f1) bytes, $bytes bytes unpacked ($(ls "$tmp/src/$top/lib" | wc -l) library entries)"
cat "$archive" >/dev/null

t_best() { # t_best NAME CMD...: best wall time (us) of $rounds runs into a fresh, empty target
        local b=0 t0 t1 t i
        for ((i = 0; i < rounds; i++)); do
                rm -rf "$tmp/t" "$tmp/x"
                mkdir "$tmp/t" "$tmp/x"
                stamp t0
                "$@" >/dev/null 2>&1 || { echo "$1 failed" >&2; exit 1; }
                stamp t1
                t=$((t1 - t0))
                { [ $b -eq 0 ] || [ $t -lt $b ]; } && b=$t
        done
        echo $b
}
guide() { tar -xf "$archive" -C "$tmp/x" && cp -a "$tmp/x/$top/include" "$tmp/x/$top/lib" "$tmp/t/"; }
bare() { tar -xf "$archive" -C "$tmp/t" --strip-components=1; }
inst() { CUDNNCTL_STATE_DIR=$tmp/state "$exe" install --yes --no-verify --into "$tmp/t" "$archive"; }
mkdir -p "$tmp/t"
echo "checksum pre-check: $(CUDNNCTL_STATE_DIR=$tmp/state "$exe" install --dry-run --into "$tmp/t" "$archive" | grep -m1 ' checksum ' | tr -s ' ' | cut -c2-)"
g=$(t_best guide)
b=$(t_best bare)
c=$(t_best inst)
rm -rf "$tmp/t" && mkdir "$tmp/t"
mem=$(CUDNNCTL_STATE_DIR=$tmp/state /usr/bin/time -f %M "$exe" install --yes --no-verify --into "$tmp/t" "$archive" 2>&1 >/dev/null | tail -1)
rm -rf "$tmp/t" && mkdir "$tmp/t"
memh=$(CUDNNCTL_STATE_DIR=$tmp/state /usr/bin/time -f %M "$exe" install --yes --no-verify --into "$tmp/t" "$half" 2>&1 >/dev/null | tail -1)
ms() { awk -v t="$1" 'BEGIN{printf "%8.1f", t/1000}'; }
echo "the guide (tar -xf to a temporary directory + cp -a): $(ms "$g") ms"
echo "bare tar -xf into the target:                         $(ms "$b") ms"
echo "cudnnctl install --into:                              $(ms "$c") ms   install/guide $(ratio "$g" "$c")   install/tar $(ratio "$b" "$c")"
echo "peak memory of one install: ${mem} KiB; of the archive of half the libraries: ${memh} KiB"
if [ "$comp" = xz ]; then
        # xz -T0 (above) writes blocks that decompress in parallel; a single-block
        # .xz (xz -T1, older xz) decompresses on one core, whoever reads it.
        single=$tmp/single/$top.tar.xz
        mkdir -p "$tmp/single"
        xz -dc "$archive" | xz -1 -T1 >"$single"
        (cd "$tmp/single" && sha256sum "$top.tar.xz" >"$top.tar.xz.sha256")
        cat "$single" >/dev/null
        archive=$single
        g=$(t_best guide)
        b=$(t_best bare)
        c=$(t_best inst)
        echo "the same as a single-block .xz (xz -T1): guide $(ms "$g") ms, bare tar $(ms "$b") ms, install $(ms "$c") ms" \
                "  install/guide $(ratio "$g" "$c")   install/tar $(ratio "$b" "$c")"
fi
