#!/usr/bin/env bash
# gpu-bundle.sh [BUILD] — the kernel, built here, in a folder a GPU machine can run it from.
#
# A GPU machine lent for a session has the CUDA toolkit but not the kernel's libraries (ZeroMQ,
# Jansson, libsodium) nor a package registry. This copies BUILD/minitorch-kernel (default build),
# the cuda backend's library and the shared libraries the kernel loads that glibc does not
# provide into .gpurun/ (git-ignored through .git/info/exclude), for bench/gpu_kernels.sh to run
# there: `carry` .gpurun with the working tree. The machine's glibc must be as new as this one's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${1:-build}
[ -x "$build/minitorch-kernel" ] || { echo "error: $build/minitorch-kernel is not built" >&2; exit 2; }
[ -f "$build/libminitorch_cuda.so" ] || { echo "error: $build has no cuda library (configure with the CUDA toolkit)" >&2; exit 2; }
exclude=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$exclude")"
grep -qx '/.gpurun/' "$exclude" 2>/dev/null || echo '/.gpurun/' >> "$exclude"
rm -rf .gpurun
mkdir -p .gpurun/lib
cp "$build/minitorch-kernel" .gpurun/
cp "$build/libminitorch_cuda.so" .gpurun/lib/
ldd "$build/minitorch-kernel" | awk '/=> \//{print $3}' | while read -r lib; do
    case $(basename "$lib") in
    libc.so* | libm.so* | libpthread.so* | libdl.so* | librt.so* | libresolv.so* | libgcc_s.so* | libstdc++.so*) ;;
    *) cp -L "$lib" .gpurun/lib/ ;;
    esac
done
echo "bundle: .gpurun ($(du -sh .gpurun | cut -f1)): carry it, then run bench/gpu_kernels.sh there"
