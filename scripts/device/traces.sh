#!/usr/bin/env bash
# On the GPU machine (device tool): how cuDNN 9 finds its sub-libraries and
# engines, as the real loader shows it. A plain program (traceprobe.c) opens
# libcudnn.so.9 and makes cuDNN load the rest (cudnnCreate, the version
# checks, an RNN descriptor, a convolution on the GPU) under LD_DEBUG=libs,files,
# for each way users lay cuDNN out: the distro's copy as installed; copies of
# its libcudnn*.so.9 in a directory on LD_LIBRARY_PATH (complete, one
# sub-library missing, one from another release, `cp -a` with the full
# release names); the pip wheel's lib/ (only .so.9 names) on LD_LIBRARY_PATH,
# with and without a full-release name beside it, and opened by its path
# alone. Every cuDNN lookup the loader makes (who asks, which name, where it
# searched, what it found) and every cuDNN file mapped go to
# $OUT/traces.txt, with the machine's temporary directories written as
# <case>; $OUT/traces.json has the same per case for the tests.
set -uo pipefail
cd "$(dirname "$0")/../.."
here=$PWD/scripts/device
out=${OUT:-/tmp/cudnnctl-device}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

main() {
echo "== machine"
date -u
uname -srm
nvidia-smi -L 2>&1 | head -2
py=$(command -v python3)
distro=${CUDNN_DIR:-/usr/lib/x86_64-linux-gnu} # the distro cuDNN 9
ls "$distro"/libcudnn*.so.9* >/dev/null 2>&1 || { echo "no distro cuDNN 9 in $distro"; exit 1; }
wheel=$("$py" -c 'import os, nvidia.cudnn as c; print(os.path.join(list(c.__path__)[0], "lib"))' 2>/dev/null)
echo "distro: $(ls "$distro"/libcudnn.so.9.* 2>/dev/null | head -1)"
echo "wheel lib: ${wheel:-none}"
ls -la "$wheel" 2>/dev/null | grep cudnn
cudart=""
for c in /usr/local/cuda/lib64/libcudart.so.13 /usr/local/cuda/lib64/libcudart.so \
        "$(dirname "$wheel")/../cu13/lib/libcudart.so.13"; do
        [ -e "$c" ] && { cudart=$c; break; }
done
echo "cudart: ${cudart:-none}"
echo "== how libcudnn.so.9 names its sub-libraries (strings)"
strings -a "$distro/libcudnn.so.9" | grep -E 'libcudnn_[a-z_]*\.so|%s|\.so\.%' | grep -iE 'cudnn|\.so' | sort -u | head -30
echo "== its dynamic section"
readelf -d "$distro/libcudnn.so.9" | grep -E 'NEEDED|RPATH|RUNPATH|SONAME'
echo "== ldconfig -p | grep cudnn"
ldconfig -p | grep cudnn

gcc -O1 -o "$tmp/traceprobe" "$here/traceprobe.c" -ldl || exit 1

# one CASE: LABEL LD_LIBRARY_PATH LIBCUDNN
json="$tmp/cases.jsonl"
: >"$json"
one() {
        local label=$1 llp=$2 libarg=$3 dir=$tmp/case-$1
        mkdir -p "$dir"
        echo
        echo "== case $label: LD_LIBRARY_PATH=${llp:-(unset)}; dlopen(\"$libarg\")"
        (
                [ -n "$llp" ] && export LD_LIBRARY_PATH=$llp || unset LD_LIBRARY_PATH
                LD_DEBUG=libs,files LD_DEBUG_OUTPUT=$dir/ld timeout 120 "$tmp/traceprobe" "$libarg" "$cudart" \
                        >"$dir/out" 2>"$dir/err"
                echo "exit=$?" >>"$dir/out"
        )
        cat "$dir/out"
        echo "-- the loader's cuDNN lookups (LD_DEBUG=libs,files), in order"
        # only the lookups of cuDNN's own files (not of the system libraries cuDNN needs)
        cat "$dir"/ld.* 2>/dev/null | "$py" -c '
import re, sys
cur = None
for l in sys.stdin:
    l = re.sub(r"^\s*[0-9]+:\s*", "", l.rstrip("\n"))
    m = re.match(r"(?:find library|file)=(\S+)", l)
    if m:
        cur = m.group(1)
    if ("cudnn" in (cur or "") and not l.startswith("calling")) or (l.startswith("calling") and "cudnn" in l):
        print(l)
' >"$dir/trace"
        cat "$dir/trace"
        "$py" - "$label" "$llp" "$libarg" "$dir" >>"$json" <<'PY'
import json, re, sys
label, llp, lib, d = sys.argv[1:5]
out = open(d + "/out").read().splitlines()
kv = {}
mapped = []
for l in out:
    k, _, v = l.partition("=")
    if k.startswith("mapped."):
        mapped.append({"stage": k[7:], "path": v})
    elif k:
        kv[k] = v
finds, loads = [], []
for l in open(d + "/trace"):
    l = l.strip()
    m = re.match(r"find library=(\S+) \[\d+\]; searching", l)
    if m:
        finds.append({"name": m.group(1)})
        continue
    m = re.match(r"file=(\S+) \[\d+\];\s+(?:dynamically loaded|needed) by (\S+)", l)
    if m:
        loads.append({"name": m.group(1), "by": m.group(2)})
        continue
    m = re.match(r"trying file=(\S+)", l)
    if m and finds:
        finds[-1].setdefault("tried", []).append(m.group(1))
    m = re.match(r"file=(\S+) \[\d+\];\s+generating link map", l)
    if m and finds:
        finds[-1]["found"] = m.group(1)
print(json.dumps({"case": label, "ld_library_path": llp, "dlopen": lib, "result": kv, "finds": finds,
                  "loads": loads, "mapped": mapped}))
PY
}

# the copies users make
mkdir -p "$tmp/copyL" "$tmp/copyL-noeng" "$tmp/copyL-mixed" "$tmp/copya"
cp -L "$distro"/libcudnn*.so.9 "$tmp/copyL/"
cp -L "$distro"/libcudnn*.so.9 "$tmp/copyL-noeng/" && rm -f "$tmp/copyL-noeng/libcudnn_engines_precompiled.so.9"
cp -L "$distro"/libcudnn*.so.9 "$tmp/copyL-mixed/"
[ -n "$wheel" ] && cp -L "$wheel/libcudnn_ops.so.9" "$tmp/copyL-mixed/"
cp -a "$distro"/libcudnn*.so.9* "$tmp/copya/"
if [ -n "$wheel" ]; then
        mkdir -p "$tmp/wheelcopy" "$tmp/wheelfull"
        cp -L "$wheel"/libcudnn*.so.9 "$tmp/wheelcopy/"
        cp -L "$wheel"/libcudnn*.so.9 "$tmp/wheelfull/"
        # the wheel's own release name for one sub-library, beside its .so.9
        ver=$("$py" -c 'import importlib.metadata as m; v=m.version("nvidia-cudnn-cu13"); print(".".join(v.split(".")[:3]))' 2>/dev/null ||
                "$py" -c 'import importlib.metadata as m; v=m.version("nvidia-cudnn-cu12"); print(".".join(v.split(".")[:3]))' 2>/dev/null)
        echo "wheel release: ${ver:-unknown}"
        [ -n "$ver" ] && cp -L "$wheel/libcudnn_graph.so.9" "$tmp/wheelfull/libcudnn_graph.so.$ver"
fi

one distro "" libcudnn.so.9
one copyL "$tmp/copyL" libcudnn.so.9
one copyL-noeng "$tmp/copyL-noeng" libcudnn.so.9
one copyL-mixed "$tmp/copyL-mixed" libcudnn.so.9
one copya "$tmp/copya" libcudnn.so.9
one distro-by-path "" "$distro/libcudnn.so.9"
if [ -n "$wheel" ]; then
        one wheel "$wheel" libcudnn.so.9
        one wheel-by-path "" "$wheel/libcudnn.so.9"
        one wheelcopy "$tmp/wheelcopy" libcudnn.so.9
        one wheelfull "$tmp/wheelfull" libcudnn.so.9
fi
"$py" - "$json" "$tmp/traces.json" <<'PY'
import json, sys
cases = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
json.dump({"cases": cases}, open(sys.argv[2], "w"), indent=1)
PY
echo "== done"
}

main 2>&1 | tee "$tmp/log"
# the machine's temporary directory as <case>, the checkout as <checkout>
for f in log traces.json; do
        [ -f "$tmp/$f" ] && sed -E "s#$tmp/case-([a-zA-Z-]+)#<case-\\1>#g; s#$tmp/([a-zA-Z-]+)#<\\1>#g; s#$tmp#<tmp>#g; s#$PWD#<checkout>#g" \
                "$tmp/$f" >"$out/${f/log/traces.txt}"
done
