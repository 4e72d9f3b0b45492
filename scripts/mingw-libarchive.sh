#!/usr/bin/env bash
# libarchive for the Windows x64 build: Debian's source package of this
# release (its patches, security fixes included), built static with
# mingw-w64 against Debian's libz-mingw-w64-dev, into PREFIX:
#   PREFIX/include/archive.h, archive_entry.h
#   PREFIX/lib/libarchive.a, libz.a (a copy: only the static zlib beside it)
#   PREFIX/lib/pkgconfig/libarchive.pc (LIBARCHIVE_STATIC, -larchive -lz)
# cmake/mingw-w64-x86_64.cmake takes it with -DCUDNNCTL_MINGW_PREFIX=PREFIX.
#
# The source comes through apt with a private list and state (nothing of the
# machine's apt configuration changes): a deb-src line for this system's
# release, checked against Debian's archive key as apt checks everything.
# Only the library is built (zip, tar, gzip/deflate, the formats cuDNN and
# wheels use; no xz: Debian has no liblzma for mingw). A PREFIX already built
# from the same source version is kept.
#
# usage: scripts/mingw-libarchive.sh PREFIX
set -euo pipefail
prefix=${1:?usage: scripts/mingw-libarchive.sh PREFIX}
here=$(cd "$(dirname "$0")/.." && pwd)
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
# shellcheck disable=SC1091
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$codename" ] || {
        echo "mingw-libarchive: /etc/os-release names no release (VERSION_CODENAME)" >&2
        exit 1
}
for tool in x86_64-w64-mingw32-gcc cmake ninja dpkg-source apt-get; do
        command -v "$tool" >/dev/null || {
                echo "mingw-libarchive: $tool is missing (scripts/deps.sh installs it)" >&2
                exit 1
        }
done
zlib=/usr/x86_64-w64-mingw32/lib/libz.a
[ -f "$zlib" ] || {
        echo "mingw-libarchive: $zlib is missing (apt-get install libz-mingw-w64-dev)" >&2
        exit 1
}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || {
        echo "mingw-libarchive: $keyring is missing (apt-get install debian-archive-keyring)" >&2
        exit 1
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial"
{
        echo "deb-src [signed-by=$keyring] $mirror $codename main"
        echo "deb-src [signed-by=$keyring] $mirror $codename-updates main"
        echo "deb-src [signed-by=$keyring] $security $codename-security main"
} >"$work/apt/sources.list"
opts=(-o "Dir::Etc::SourceList=$work/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
        -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache" -o APT::Sandbox::User=root)
apt=(apt-get -q "${opts[@]}")
"${apt[@]}" update >"$work/apt.log" 2>&1 || {
        tail -n 20 "$work/apt.log" >&2
        echo "mingw-libarchive: cannot read the source indexes of $mirror and $security ($codename)" >&2
        exit 1
}
version=$(apt-cache "${opts[@]}" showsrc libarchive 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -n 1)
[ -n "$version" ] || {
        echo "mingw-libarchive: no libarchive source package in $mirror $codename" >&2
        exit 1
}
if [ -f "$prefix/lib/libarchive.a" ] && [ "$(cat "$prefix/.source" 2>/dev/null)" = "libarchive $version" ]; then
        echo "mingw-libarchive: $prefix has libarchive $version"
        exit 0
fi
(cd "$work" && "${apt[@]}" source --download-only "libarchive=$version" >"$work/source.log" 2>&1) || {
        tail -n 20 "$work/source.log" >&2
        echo "mingw-libarchive: cannot download the source package libarchive $version" >&2
        exit 1
}
# apt checked the files against the signed index; the .dsc's own signature
# needs debian-keyring, which is not needed for that
dpkg-source --no-check -x "$work"/libarchive_*.dsc "$work/src" >/dev/null

cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$here/cmake/mingw-w64-x86_64.cmake" \
        -DCMAKE_BUILD_TYPE=Release \
        -DENABLE_TEST=OFF -DENABLE_TAR=OFF -DENABLE_CPIO=OFF -DENABLE_CAT=OFF -DENABLE_UNZIP=OFF \
        -DENABLE_OPENSSL=OFF -DENABLE_MBEDTLS=OFF -DENABLE_NETTLE=OFF -DENABLE_CNG=OFF -DENABLE_LZMA=OFF \
        -DENABLE_ZSTD=OFF -DENABLE_BZip2=OFF -DENABLE_LZ4=OFF -DENABLE_LZO=OFF -DENABLE_LIBB2=OFF \
        -DENABLE_LIBXML2=OFF -DENABLE_EXPAT=OFF -DENABLE_ACL=OFF -DENABLE_XATTR=OFF -DENABLE_ICONV=OFF \
        -DENABLE_WERROR=OFF -DZLIB_LIBRARY="$zlib" -DZLIB_INCLUDE_DIR=/usr/x86_64-w64-mingw32/include \
        >"$work/configure.log" 2>&1 || {
        tail -n 30 "$work/configure.log" >&2
        echo "mingw-libarchive: configuring libarchive $version failed" >&2
        exit 1
}
grep -q "define HAVE_ZLIB_H 1" "$work/build/config.h" 2>/dev/null || {
        echo "mingw-libarchive: libarchive $version was configured without zlib (zip and gzip need it)" >&2
        exit 1
}
ninja -C "$work/build" archive_static >"$work/build.log" 2>&1 || {
        tail -n 30 "$work/build.log" >&2
        echo "mingw-libarchive: building libarchive $version failed" >&2
        exit 1
}
rm -rf "$prefix"
mkdir -p "$prefix/include" "$prefix/lib/pkgconfig"
cp "$work/src/libarchive/archive.h" "$work/src/libarchive/archive_entry.h" "$prefix/include/"
cp "$work/build/libarchive/libarchive_static.a" "$prefix/lib/libarchive.a"
cp "$zlib" "$prefix/lib/libz.a"
upstream=${version%%-*}
cat >"$prefix/lib/pkgconfig/libarchive.pc" <<EOF
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: libarchive
Description: libarchive $version (Debian's source package), static, for mingw-w64
Version: ${upstream#*:}
Cflags: -I\${includedir} -DLIBARCHIVE_STATIC
Libs: -L\${libdir} -larchive -lz
EOF
echo "libarchive $version" >"$prefix/.source"
cp "$work"/src/COPYING "$prefix/COPYING.libarchive"
echo "mingw-libarchive: libarchive $version in $prefix"
