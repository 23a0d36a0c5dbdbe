#!/usr/bin/env bash
# What `make lab` and `make test` cost on a fresh machine: a Debian 12 (bookworm) system made by
# debootstrap, this repository's HEAD cloned into it, then, timed one after the other in a chroot
# (as a student would run them), with the disk used after each step:
#   make setup                 Debian packages (tools/debian-lab.txt) and .venv (lab lock)
#   make install-kernelspec    the student's build (build-lab/) and the kernelspec: all of
#                              `make lab` but starting JupyterLab
#   make setup-test            what `make test` adds: tools/debian-test.txt, the test lock
#   make build-asan build-clang build-tsan   the other builds `make test` runs
#   make fuzz FUZZ_SECONDS=1   the libFuzzer build, each target run for a second
# The chroot has no CUDA toolkit, so the builds leave the cuda backend out (CMake says so).
#
#   bench/fresh-setup.sh [WORKDIR] [MIRROR]     as root; default /tmp/mt-fresh-setup, deb.debian.org
#
# Writes bench/results/setup-fresh-DATE.txt. The debootstrapped base is kept in WORKDIR/base and
# reused (each run copies it); git, make and ca-certificates are added to it, since a student
# needs them to get the repository and run make.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
W=${1:-/tmp/mt-fresh-setup}
MIRROR=${2:-http://deb.debian.org/debian}
[ "$(id -u)" -eq 0 ] || { echo "fresh-setup.sh: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "fresh-setup.sh: apt-get install debootstrap" >&2; exit 2; }
OUT=$ROOT/bench/results/setup-fresh-$(date -u +%F).txt
mkdir -p "$W"
if [ ! -x "$W/base/usr/bin/git" ]; then
    rm -rf "$W/base"
    debootstrap bookworm "$W/base" "$MIRROR"
    printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s-security bookworm-security main\n' \
        "$MIRROR" "$MIRROR" "$MIRROR" >"$W/base/etc/apt/sources.list"
    chroot "$W/base" bash -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends git make ca-certificates >/dev/null && apt-get clean'
fi
R=$W/run
for d in dev/pts dev sys proc; do umount "$R/$d" 2>/dev/null || true; done
rm -rf "$R"
cp -a "$W/base" "$R"
git clone -q "$ROOT" "$R/root/minitorch-kernel"
cp /etc/resolv.conf "$R/etc/resolv.conf"
# A machine that reaches PyPI through a TLS-intercepting proxy: the chroot's pip gets the host's
# CA bundle (a no-op elsewhere).
cp /etc/ssl/certs/ca-certificates.crt "$R/etc/host-ca.crt"
printf '[global]\ncert = /etc/host-ca.crt\n' >"$R/etc/pip.conf"
for d in proc sys dev dev/pts; do mount --bind "/$d" "$R/$d"; done
trap 'for d in dev/pts dev sys proc; do umount "$R/$d" 2>/dev/null || true; done' EXIT

LOG=$W/log.txt
: >"$LOG"
in_chroot() {
    chroot "$R" env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        CI=true bash -c "cd /root/minitorch-kernel && $*"
}
mb() { du -sxm "$R${1:-}" 2>/dev/null | cut -f1; }
{
    echo "# bench/fresh-setup.sh: make lab / make test set-up on a fresh Debian 12 (debootstrap"
    echo "# bookworm, $MIRROR) chroot; commit $(git -C "$ROOT" rev-parse --short HEAD);" \
        "$(date -u '+%F %H:%M') UTC"
    echo "# host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores," \
        "$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); the builds use make's default -j$(nproc)"
    echo "# columns: step, exit status, wall seconds, chroot disk after (MB, du -sx), .venv MB," \
        "apt's downloaded .debs MB (/var/cache/apt/archives), Debian packages installed"
    echo "base (git, make, ca-certificates added) - - $(mb) - - $(in_chroot 'dpkg -l | grep -c ^ii')"
} | tee "$OUT"
step() {
    local t0 t1 rc
    echo "==== $*" >>"$LOG"
    t0=$(date +%s.%N)
    set +e; in_chroot "$*" >>"$LOG" 2>&1; rc=$?; set -e
    t1=$(date +%s.%N)
    printf '%-45s %s %6.1f %6s %5s %5s %4s\n' "$*" "$rc" "$(echo "$t1 - $t0" | bc)" "$(mb)" \
        "$(mb /root/minitorch-kernel/.venv)" "$(mb /var/cache/apt/archives)" \
        "$(in_chroot 'dpkg -l | grep -c ^ii')" | tee -a "$OUT"
    return "$rc"
}
step make setup
step make install-kernelspec
step make setup-test
step make build-asan build-clang build-tsan
step make fuzz FUZZ_SECONDS=1
step make install-kernelspec
{
    echo "# after: .venv's lock stamp, build dirs (MB), the configure line about cuda"
    in_chroot 'cat .venv/.requirements.sha256; du -sm build build-asan build-clang build-tsan'
    grep -m1 'cuda backend' "$LOG"
    in_chroot 'command -v nvcc || echo "no nvcc in the chroot"'
} | tee -a "$OUT"
echo "full log: $LOG"
