#!/usr/bin/env bash
# The release packages, made with CPack (the "Release packages" section of CMakeLists.txt):
#   cudnnctl-<version>-linux-x86_64.tar.gz and cudnnctl_<version>_amd64.deb from a Linux build,
#   cudnnctl-<version>-windows-x86_64.zip from the mingw-w64 build,
# left in OUTDIR (default build-release/), whose names, sizes and SHA-256 it prints.
#
# The Linux build comes first: the Windows build runs its cudnnctl (CUDNNCTL_HOST_CUDNNCTL) for the zip's manual
# page and PowerShell completion, which a cross build cannot write itself. Both are RelWithDebInfo, the
# configuration the tests run, with warnings as errors; CPack strips the programs. A build directory given that
# is already configured is reused as it is (only CUDNNCTL_HOST_CUDNNCTL is added to the Windows one): CI passes
# the Windows build its tests ran on.
#
# usage: scripts/release.sh [OUTDIR]
# environment:
#   CUDNNCTL_RELEASE_LINUX_BUILD  the Linux build directory (default build-release-linux; configured without
#                                 the tests when new)
#   CUDNNCTL_RELEASE_WIN_BUILD    the Windows build directory (default build-release-win)
#   CUDNNCTL_MINGW_PREFIX         libarchive for mingw-w64 (scripts/mingw-libarchive.sh), made there when it has
#                                 none (default build-release-mingw); for a new Windows build only
#   CUDNNCTL_RELEASE_JOBS         ninja's -j (default: ninja's own)
# Needs what scripts/deps.sh installs (cmake, ninja, mingw-w64, dpkg-dev, groff-base, file).
set -euo pipefail
start=$(date +%s)
here=$(cd "$(dirname "$0")/.." && pwd)
abs() { # abs PATH: PATH made absolute against the directory the script was started in
        case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac
}
out=$(abs "${1:-$here/build-release}")
linux=$(abs "${CUDNNCTL_RELEASE_LINUX_BUILD:-$here/build-release-linux}")
win=$(abs "${CUDNNCTL_RELEASE_WIN_BUILD:-$here/build-release-win}")
mingw=$(abs "${CUDNNCTL_MINGW_PREFIX:-$here/build-release-mingw}")
ninja=(ninja)
[ -n "${CUDNNCTL_RELEASE_JOBS:-}" ] && ninja+=(-j "$CUDNNCTL_RELEASE_JOBS")
cd "$here"
for tool in cmake ninja cpack x86_64-w64-mingw32-gcc groff dpkg-shlibdeps dpkg-deb file; do
        command -v "$tool" >/dev/null || {
                echo "release: $tool is missing (scripts/deps.sh installs it)" >&2
                exit 1
        }
done
configured() { [ -f "$1/CMakeCache.txt" ] && [ -f "$1/build.ninja" ]; }
build() { # build DIR: ninja in DIR, its output in DIR/release-build.log (its end shown when it fails)
        "${ninja[@]}" -C "$1" >"$1/release-build.log" 2>&1 || {
                tail -n 40 "$1/release-build.log" >&2
                echo "release: the build in $1 failed (its log: $1/release-build.log)" >&2
                exit 1
        }
        tail -n 1 "$1/release-build.log"
}

echo "release: Linux build in $linux"
if configured "$linux"; then
        cmake -S . -B "$linux" >/dev/null
else
        cmake -S . -B "$linux" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDNNCTL_WERROR=ON -DCUDNNCTL_TESTS=OFF \
                >/dev/null
fi
build "$linux"
[ -x "$linux/cudnnctl" ] || {
        echo "release: $linux made no cudnnctl" >&2
        exit 1
}

echo "release: Windows build in $win"
if configured "$win"; then
        cmake -S . -B "$win" -DCUDNNCTL_HOST_CUDNNCTL="$linux/cudnnctl" >/dev/null
else
        if [ ! -f "$mingw/lib/libarchive.a" ]; then
                echo "release: libarchive for mingw-w64 into $mingw (scripts/mingw-libarchive.sh)"
                scripts/mingw-libarchive.sh "$mingw"
        fi
        cmake -S . -B "$win" -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake \
                -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDNNCTL_WERROR=ON -DCUDNNCTL_TESTS=OFF \
                -DCUDNNCTL_MINGW_PREFIX="$mingw" -DCUDNNCTL_HOST_CUDNNCTL="$linux/cudnnctl" >/dev/null
fi
build "$win"

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$linux/CMakeCache.txt")
wversion=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$win/CMakeCache.txt")
if [ -z "$version" ] || [ "$version" != "$wversion" ]; then
        echo "release: the builds are of versions '$version' (Linux) and '$wversion' (Windows)" >&2
        exit 1
fi
want=("cudnnctl-$version-linux-x86_64.tar.gz" "cudnnctl_${version}_amd64.deb" "cudnnctl-$version-windows-x86_64.zip")

mkdir -p "$out"
for b in "$linux" "$win"; do
        # each build's packages into a directory of its own (CPack's work files stay there), then into OUTDIR
        rm -rf "$b/release-packages"
        (cd "$b" && cpack -B "$b/release-packages" >"$b/cpack.log" 2>&1) || {
                tail -n 30 "$b/cpack.log" >&2
                echo "release: cpack failed in $b (its log: $b/cpack.log)" >&2
                exit 1
        }
        find "$b/release-packages" -maxdepth 1 -type f -exec mv -f {} "$out/" \;
done

echo "release: cudnnctl $version in $out ($(($(date +%s) - start)) s)"
for f in "${want[@]}"; do
        [ -f "$out/$f" ] || {
                echo "release: $f was not made" >&2
                exit 1
        }
        printf '  %-44s %10s bytes  sha256 %s\n' "$f" "$(stat -c %s "$out/$f")" "$(sha256sum "$out/$f" | cut -d' ' -f1)"
done
