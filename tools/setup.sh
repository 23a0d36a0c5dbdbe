#!/usr/bin/env bash
# Set up everything minitorch-kernel needs to build and test, idempotently:
#   1. Debian/Ubuntu packages (compiler, CMake, libzmq, Jansson, libsodium): only the missing ones
#      are installed, with one `apt-get update` first, via sudo when not root.
#   2. A Python virtual environment in .venv with the pinned lock tools/requirements.txt; pip runs
#      again only when the lock changed (stamp: .venv/.requirements.sha256).
# Works unattended (CI=true, no terminal). A second run installs nothing and says so.
#
# Environment:
#   PYTHON=python3        interpreter used to create .venv
#   SETUP_SKIP_APT=1      skip the Debian package step (e.g. on a machine set up by other means)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
VENV="$ROOT/.venv"
LOCK="$ROOT/tools/requirements.txt"
STAMP="$VENV/.requirements.sha256"
PYTHON=${PYTHON:-python3}

# build-essential: gcc, make, libc headers (libgomp for OpenMP comes with gcc).
# clang (and libomp-dev for its OpenMP) and clang-format: `make test` also builds with clang and
# checks formatting. chromium: the browser test drives Debian's Chromium headless (Playwright
# for Python from .venv, never a downloaded browser). valgrind: memcheck over scripted sessions.
PACKAGES=(build-essential cmake pkg-config libzmq3-dev libjansson-dev libsodium-dev clang libomp-dev
          clang-format chromium valgrind)

export DEBIAN_FRONTEND=noninteractive
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

APT_UPDATED=0
as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo -E "$@"
    else
        die "need root or sudo to run: $*"
    fi
}

is_installed() {
    local status
    status=$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)
    [ "$status" = "install ok installed" ]
}

apt_install() {
    if ! command -v apt-get >/dev/null 2>&1; then
        die "apt-get not found; install these packages by hand: $*"
    fi
    if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
        die "missing packages ($*) and neither root nor sudo is available; install them as root"
    fi
    if [ "$APT_UPDATED" -eq 0 ]; then
        say "apt-get update"
        as_root apt-get update -qq
        APT_UPDATED=1
    fi
    say "installing Debian packages: $*"
    as_root apt-get install -y -qq -o Dpkg::Use-Pty=0 --no-install-recommends "$@"
}

# --- 1. Debian packages --------------------------------------------------------------------
if [ "${SETUP_SKIP_APT:-0}" = "1" ]; then
    say "skipping Debian packages (SETUP_SKIP_APT=1)"
elif ! command -v dpkg-query >/dev/null 2>&1; then
    say "warning: not a Debian/Ubuntu system; make sure these (or equivalents) are installed:"
    say "  ${PACKAGES[*]}"
else
    missing=()
    for pkg in "${PACKAGES[@]}"; do
        is_installed "$pkg" || missing+=("$pkg")
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        say "Debian packages present"
    else
        apt_install "${missing[@]}"
    fi
fi

# --- 2. Python virtual environment -----------------------------------------------------------
command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found (set PYTHON=... or install python3)"

venv_ok() { [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import pip' >/dev/null 2>&1; }

make_venv() {
    rm -rf "$VENV"
    "$PYTHON" -m venv "$VENV" >"$ROOT/.venv-error.log" 2>&1
}

if venv_ok; then
    :
else
    if [ -e "$VENV" ]; then
        say "recreating broken virtual environment .venv"
    else
        say "creating virtual environment .venv ($("$PYTHON" --version 2>&1))"
    fi
    if ! make_venv; then
        # Debian's python3 ships without ensurepip; python3-venv provides it.
        if grep -qiE 'ensurepip|python3(\.[0-9]+)?-venv' "$ROOT/.venv-error.log" \
            && command -v dpkg-query >/dev/null 2>&1; then
            say "python3 -m venv needs ensurepip"
            pyver=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
            pkgs=(python3-venv)
            if apt-cache show "python${pyver}-venv" >/dev/null 2>&1; then
                pkgs+=("python${pyver}-venv")
            fi
            apt_install "${pkgs[@]}"
            make_venv || { cat "$ROOT/.venv-error.log" >&2; rm -f "$ROOT/.venv-error.log"; \
                die "could not create .venv"; }
        else
            cat "$ROOT/.venv-error.log" >&2
            rm -f "$ROOT/.venv-error.log"
            die "could not create .venv with $PYTHON -m venv"
        fi
    fi
    rm -f "$ROOT/.venv-error.log"
    venv_ok || die ".venv was created but has no working pip"
fi

[ -f "$LOCK" ] || die "missing $LOCK"
want=$(sha256sum "$LOCK" | cut -d' ' -f1)
have=$(cat "$STAMP" 2>/dev/null || true)
if [ "$want" = "$have" ]; then
    say "Python packages up to date (.venv matches tools/requirements.txt)"
else
    say "installing Python packages from tools/requirements.txt into .venv" \
        "($(grep -cE '^[A-Za-z0-9]' "$LOCK") pinned packages; may take a few minutes)"
    "$VENV/bin/python" -m pip install -q -r "$LOCK"
    echo "$want" >"$STAMP"
    say "Python packages installed"
fi
