#!/usr/bin/env bash
# Install what cudnnctl needs to build and test on Debian 12 (idempotent).
# Needs root (or sudo). Set CUDNNCTL_SKIP_APT=1 to skip when already installed.
set -euo pipefail
[ "${CUDNNCTL_SKIP_APT:-0}" = 1 ] && exit 0
pkgs=(
        build-essential cmake ninja-build pkg-config git        # build
        libarchive-dev liblzma-dev                              # archives (zip, tar.*); multithreaded xz
        libcurl4-openssl-dev                                    # fetch: HTTP(S) (optional)
        libcmocka-dev                                           # unit tests
        python3 python3-pefile binutils libtree pax-utils file  # test oracles (readelf, pefile, libtree)
        clang clang-format libclang-rt-14-dev                   # format check, sanitizers, libFuzzer
        gcc-mingw-w64-x86-64 gcc-mingw-w64-i686                 # Windows build and PE fixtures
        binutils-mingw-w64-x86-64 binutils-mingw-w64-i686
        libz-mingw-w64-dev dpkg-dev debian-archive-keyring      # libarchive for Windows (mingw-libarchive.sh)
        lld llvm                                                # lld-link, llvm-dlltool: MSVC-style PE fixtures
        wine64 wine                                             # Windows tests
        zip unzip xz-utils                                      # archive fixtures
        python3-torch                                           # frameworks: Debian's CPU-only PyTorch 1.13
        groff-base zsh fish                                     # the manual page and completions, checked
        slurm-wlm munge python3-yaml python3-kubernetes         # fleet: a one-node Slurm, manifests' API types
        chromium                                                # report: the HTML page, headless
)
missing=()
for p in "${pkgs[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "installing: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
