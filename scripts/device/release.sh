#!/usr/bin/env bash
# On the GPU machine (device tool): the release packages made elsewhere
# (scripts/release.sh on Debian 12), run there as a user would after
# downloading them: the tar.gz unpacked anywhere and the .deb unpacked with
# dpkg -x (not installed: the machine is shared), each program's --version,
# what it needs from the system (ldd), and the doctor of the tar.gz with GPU
# work, checked as scripts/device/doctor.sh checks a build made there: both
# installations, what a plain program gets, a passing GPU proof.
#
# usage: OUT=DIR scripts/device/release.sh PACKAGES_DIR
# Results go to $OUT/release.txt and $OUT/release-doctor.json.
set -uo pipefail
pk=$(cd "${1:?usage: scripts/device/release.sh PACKAGES_DIR}" && pwd)
cd "$(dirname "$0")/../.." || exit 1
out=${OUT:-/tmp/cudnnctl-device}
mkdir -p "$out"
exec > >(tee "$out/release.txt") 2>&1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== machine"
date -u
uname -srm
# shellcheck disable=SC1091
(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")
ldd --version 2>&1 | head -1
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>&1 | head -2
py=$(command -v python3)

echo "== packages"
(cd "$pk" && sha256sum cudnnctl-*-linux-x86_64.tar.gz cudnnctl_*_amd64.deb)

echo "== the tar.gz, unpacked"
tar -xzf "$pk"/cudnnctl-*-linux-x86_64.tar.gz -C "$work"
T=$(echo "$work"/cudnnctl-*-linux-x86_64/bin/cudnnctl)
[ -x "$T" ] || T=$(find "$work" -path '*/bin/cudnnctl' -type f | head -1)
echo "program: ${T#"$work"/}"
"$T" --version
echo "exit status: $?"
echo "-- ldd (what it needs from this system; libarchive, liblzma and libcurl are opened only when needed)"
ldd "$T" | sed 's/ (0x[0-9a-f]*)//'

echo "== the .deb, unpacked with dpkg -x"
dpkg-deb -f "$pk"/cudnnctl_*_amd64.deb Package Version Architecture Depends Recommends 2>&1
mkdir -p "$work/deb"
dpkg -x "$pk"/cudnnctl_*_amd64.deb "$work/deb" && "$work/deb/usr/bin/cudnnctl" --version
echo "exit status: $?"

echo "== the tar.gz's cudnnctl doctor --gpu"
/usr/bin/time -f "doctor --gpu: %e s wall, %M KiB peak" "$T" doctor --gpu
echo "exit status: $?"
"$T" doctor --gpu --json >"$out/release-doctor.json"
echo "json exit status: $?"

echo "== what it must show"
"$py" - "$out/release-doctor.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ok = True
def want(cond, what):
    global ok
    print(("ok   " if cond else "FAIL ") + what)
    ok &= bool(cond)
insts = d["facts"]["list"]["installations"]
by_kind = {i["provenance"]["kind"]: i for i in insts}
want(by_kind.get("distro-package", {}).get("version") == "9.14.0", "the distro's 9.14.0")
want(by_kind.get("pip-wheel", {}).get("version") == "9.19.0", "the pip wheel's 9.19.0")
plain = [r for r in d["facts"]["which"]["results"] if r["name"].startswith("libcudnn.so") and r["found"]]
want(plain and plain[0]["how"] == "ld.so.cache", "a plain program gets a copy through ld.so.cache: " +
     (plain[0]["path"] if plain else "none"))
pv = [v for v in d["facts"]["verify"] if v["role"] == "plain-program"]
doc = pv[0]["document"] if pv else {}
gw = [c for l in doc.get("layers", []) for c in l["checks"] if c["id"] == "gpu-work"]
want(gw and gw[0]["status"] == "passed", "GPU proof passed: " + (gw[0]["summary"] if gw else "none"))
# the machine's onnxruntime is a CPU-only build (framework-cpu-only, as docs/device/speed-h200.txt shows): its
# own state, not the package's
bad = [f["id"] for f in d["findings"] if f["severity"] == "error" or
       (f["severity"] == "warning" and f["id"] != "framework-cpu-only")]
want(not bad, "no errors, no warning but the machine's CPU-only onnxruntime: %s" % (bad or "none"))
sys.exit(0 if ok else 1)
PY
echo "checks exit status: $?"
