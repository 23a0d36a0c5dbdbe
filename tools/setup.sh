#!/usr/bin/env bash
# Set up what minitorch-kernel needs, idempotently, in one of two sizes:
#   tools/setup.sh lab    (default; `make lab`) building and running the kernel, with JupyterLab
#                         and classic Notebook: tools/debian-lab.txt, tools/requirements-lab.txt
#   tools/setup.sh test   (`make test`) the lab set plus the test and benchmark tools:
#                         tools/debian-test.txt, tools/requirements-test.txt (which includes the
#                         lab lock), installed into the same .venv
#   1. Debian/Ubuntu packages: only the missing ones are installed, with one `apt-get update`
#      first, via sudo when not root.
#   2. A Python virtual environment in .venv with the pinned lock; pip runs again only when a lock
#      changed. The stamp .venv/.requirements.sha256 holds one line per lock installed
#      ("lab SHA", "test SHA"): a venv set up for test also serves lab, and `make test` after
#      `make lab` only adds the test lock's packages.
# Works unattended (CI=true, no terminal). A second run installs nothing and says so.
#
# Environment:
#   PYTHON=python3        interpreter used to create .venv
#   SETUP_SKIP_APT=1      skip the Debian package step (e.g. on a machine set up by other means)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
VENV="$ROOT/.venv"
STAMP="$VENV/.requirements.sha256"
PYTHON=${PYTHON:-python3}

SET=${1:-lab}
case "$SET" in
    lab) SETS=(lab) ;;
    test) SETS=(lab test) ;;
    *) echo "usage: tools/setup.sh [lab|test]" >&2; exit 2 ;;
esac

# The words of a package list, without its comments.
list() { sed -e 's/#.*//' "$ROOT/tools/$1" | tr -s ' \t' '\n' | sed '/^$/d'; }
PACKAGES=()
for s in "${SETS[@]}"; do
    mapfile -t -O "${#PACKAGES[@]}" PACKAGES < <(list "debian-$s.txt")
done
LOCK="$ROOT/tools/requirements-$SET.txt"

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
if ! command -v "$PYTHON" >/dev/null 2>&1; then
    # A bare Debian system has no python3; python3-venv brings it with ensurepip.
    if [ "$PYTHON" = python3 ] && [ "${SETUP_SKIP_APT:-0}" != "1" ] \
        && command -v dpkg-query >/dev/null 2>&1; then
        apt_install python3-venv
    fi
    command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found (set PYTHON=... or install python3)"
fi

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
# Up to date when the stamp has the current hash of every lock this set needs.
want=$(for s in "${SETS[@]}"; do
    echo "$s $(sha256sum "$ROOT/tools/requirements-$s.txt" | cut -d' ' -f1)"; done)
have=$(cat "$STAMP" 2>/dev/null || true)
if [ -z "$(comm -23 <(echo "$want" | sort) <(echo "$have" | sort))" ]; then
    say "Python packages up to date (.venv matches tools/requirements-$SET.txt)"
else
    locks=(); for s in "${SETS[@]}"; do locks+=("$ROOT/tools/requirements-$s.txt"); done
    say "installing Python packages from tools/requirements-$SET.txt into .venv" \
        "($(cat "${locks[@]}" | grep -cE '^[A-Za-z0-9]') pinned packages; may take a few minutes)"
    "$VENV/bin/python" -m pip install -q -r "$LOCK"
    echo "$want" >"$STAMP"
    say "Python packages installed"
fi
