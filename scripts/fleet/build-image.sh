#!/usr/bin/env bash
# The image of deploy/container/Containerfile, its steps done without a container engine: the release tarball
# unpacked into a staging root as ADD does (/opt/cudnnctl-<version>-linux-x86_64), the entrypoint found on the
# image's PATH there, run with --version, and `doctor --root HOSTTREE --json` run from there as the image's user
# (65532, when this runs as root) with the image's working directory. When podman or docker can build (a
# daemon answering), the real image is built too and its default command run on HOSTTREE mounted at /host.
#
# usage: scripts/fleet/build-image.sh TARBALL [HOSTTREE] [STAGING]
#   TARBALL   cudnnctl-<version>-linux-x86_64.tar.gz (scripts/release.sh)
#   HOSTTREE  a tree laid out like a host's root, as the DaemonSet mounts it (default /)
#   STAGING   the staging root, kept (default: a temporary directory, removed)
# environment: CUDNNCTL_IMAGE  the tag of the real image (default cudnnctl:<version>)
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 3 ]; then
        echo "usage: scripts/fleet/build-image.sh TARBALL [HOSTTREE] [STAGING]" >&2
        exit 2
fi
here=$(cd "$(dirname "$0")/../.." && pwd)
tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
host=${2:-/}
say() { echo "build-image: $*"; }
die() {
        echo "build-image: $*" >&2
        exit 1
}
name=$(basename "$tarball")
version=${name#cudnnctl-}
version=${version%-linux-x86_64.tar.gz}
{ [ "$version" != "$name" ] && [ -n "$version" ]; } || die "$name is not cudnnctl-<version>-linux-x86_64.tar.gz"
[ -f "$tarball" ] || die "no $tarball"
[ -d "$host" ] || die "no directory $host"
if [ -n "${3:-}" ]; then
        staging=$3
        rm -rf "$staging"
        mkdir -p "$staging"
else
        staging=$(mktemp -d)
        trap 'rm -rf "$staging"' EXIT
fi
staging=$(cd "$staging" && pwd)

# ADD cudnnctl-${VERSION}-linux-x86_64.tar.gz /opt/
mkdir -p "$staging/opt" "$staging/tmp"
tar -xzf "$tarball" -C "$staging/opt"
prefix=/opt/cudnnctl-$version-linux-x86_64
[ -d "$staging$prefix/bin" ] || die "the tarball has no ${prefix#/opt/}/bin: ADD would not give the image's PATH"
# ENV PATH=/opt/cudnnctl-${VERSION}-linux-x86_64/bin:...; ENTRYPOINT ["cudnnctl"]
entry=$staging$prefix/bin/cudnnctl
[ -x "$entry" ] || die "the image's PATH has no cudnnctl ($prefix/bin)"
say "staged $name in $staging ($(du -sh "$staging" | cut -f1)); entrypoint $prefix/bin/cudnnctl"
if command -v ldd >/dev/null; then
        say "it needs: $(ldd "$entry" | awk '/=>/ {print $1} /ld-linux/ && !/=>/ {print $1}' | tr '\n' ' ')"
fi
# USER 65532:65532, WORKDIR /tmp (as root here: the same user, through setpriv)
as_user=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
        as_user=(setpriv --reuid 65532 --regid 65532 --clear-groups)
        chmod 755 "$staging" "$staging/opt"
        chmod 1777 "$staging/tmp"
fi
run() { (cd "$staging/tmp" && env -i PATH="$staging$prefix/bin:/usr/bin:/bin" HOME=/nonexistent TMPDIR="$staging/tmp" \
        "${as_user[@]}" cudnnctl "$@"); }
got=$(run --version) || die "cudnnctl --version failed from the staging root"
case $got in *"$version"*) ;; *) die "cudnnctl --version says '$got', not $version" ;; esac
say "cudnnctl --version: $got"
rc=0
run doctor --root "$host" --json --quiet >"$staging/tmp/doctor.json" || rc=$?
[ $rc -le 1 ] || die "doctor --root $host --json exited $rc"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["command"] == "doctor"' \
        "$staging/tmp/doctor.json" || die "doctor --root $host --json gave no doctor document"
say "doctor --root $host --json: a document (status $rc), $(stat -c %s "$staging/tmp/doctor.json") bytes"
if [ -n "${3:-}" ]; then say "the document: $staging/tmp/doctor.json"; fi

engine=
for e in podman docker; do
        if command -v "$e" >/dev/null && "$e" info >/dev/null 2>&1; then
                engine=$e
                break
        fi
done
if [ -z "$engine" ]; then
        say "no podman or docker that can build here: the image itself not built"
        exit 0
fi
tag=${CUDNNCTL_IMAGE:-cudnnctl:$version}
say "$engine build -t $tag"
"$engine" build -f "$here/deploy/container/Containerfile" --build-arg VERSION="$version" -t "$tag" \
        "$(dirname "$tarball")"
rc=0
"$engine" run --rm --read-only -v "$(cd "$host" && pwd):/host:ro" "$tag" >"$staging/tmp/image.json" || rc=$?
[ $rc -le 1 ] || die "$tag's default command exited $rc"
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["command"] == "doctor"' "$staging/tmp/image.json" ||
        die "$tag's default command gave no doctor document"
say "$tag: doctor --root /host --json gives a document (status $rc)"
