#!/usr/bin/env bash
# Regenerate the pinned locks from the hand-edited top-level lists (`make lock`):
#   tools/requirements-lab.in   -> tools/requirements-lab.txt   what `make lab` installs
#   tools/requirements-test.in  -> tools/requirements-test.txt  `-r requirements-lab.txt` plus
#                                  the pins only the tests need
# Both are resolved in one fresh virtual environment, the lab list first, so that nothing else
# installed leaks into a lock and the test lock cannot move a lab pin (the new lab lock is a
# constraint while the test list is installed). The pins of the current locks are kept where the
# .in files still allow them (they are constraints too; when the .in files rule them out, the
# lock is resolved afresh). LOCK_UPGRADE=1 ignores them: every package at its newest version.
#
# Environment: PYTHON=python3 (the interpreter the locks are for; tools/setup.sh's default).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON=${PYTHON:-python3}
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mt-lock.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

pins() { grep -hE '^[A-Za-z0-9]' "$@" 2>/dev/null || true; }

pins tools/requirements-lab.txt tools/requirements-test.txt >"$WORK/current.txt"
[ "${LOCK_UPGRADE:-0}" = 1 ] && : >"$WORK/current.txt"

"$PYTHON" -m venv "$WORK/venv"
pip() { "$WORK/venv/bin/python" -m pip "$@"; }
# install REQUIREMENTS [CONSTRAINTS...]: with the current pins kept, else resolved afresh
install() {
    local req=$1; shift
    local c=(); for f in "$@"; do c+=(-c "$f"); done
    if ! pip install -q -r "$req" "${c[@]}" -c "$WORK/current.txt"; then
        echo "lock: $req does not allow the current pins; resolving it afresh" >&2
        pip install -q -r "$req" "${c[@]}"
    fi
}
# --all: setuptools too, which a venv may or may not bring along and nbgrader needs at run time
# (pip itself is the venv's own)
freeze() { pip freeze --all --exclude-editable | grep -v '^pip==' | sort -f; }
pyver=$("$WORK/venv/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')

install tools/requirements-lab.in
{
    echo "# Pinned lock of what \`make lab\` installs into .venv, generated from"
    echo "# tools/requirements-lab.in by \`make lock\` (tools/lock.sh: pip freeze, Python $pyver)."
    freeze
} >"$WORK/lab.txt"

install tools/requirements-test.in "$WORK/lab.txt"
{
    echo "# Pinned lock of what \`make test\` adds to the lab lock, generated from"
    echo "# tools/requirements-test.in by \`make lock\` (tools/lock.sh: pip freeze, Python $pyver)."
    echo "-r requirements-lab.txt"
    # what the lab lock does not pin (the lab pins were constraints, so the rest is identical)
    freeze | grep -vxFf <(pins "$WORK/lab.txt")
} >"$WORK/test.txt"

cp "$WORK/lab.txt" tools/requirements-lab.txt
cp "$WORK/test.txt" tools/requirements-test.txt
echo "lock: tools/requirements-lab.txt ($(pins tools/requirements-lab.txt | wc -l) pins) and" \
    "tools/requirements-test.txt ($(pins tools/requirements-test.txt | wc -l) more) written;" \
    "the next tools/setup.sh run installs them"
