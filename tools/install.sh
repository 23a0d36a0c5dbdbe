#!/bin/sh
# A system-wide install of the kernel, for every user of a machine or of a JupyterHub
# (`make install`):
#
#     tools/install.sh BUILD_DIR PREFIX [KERNELSPEC_PREFIX]
#
#   PREFIX/bin/minitorch-kernel                       the kernel (BUILD_DIR's)
#   PREFIX/lib/minitorch-kernel/                      its CUDA library, where BUILD_DIR built one
#   PREFIX/share/minitorch-kernel/kernelspec/         the kernelspec's template and logos
#   KERNELSPEC_PREFIX/share/jupyter/kernels/minitorch the kernelspec Jupyter finds (default:
#                                                     PREFIX; /usr/local and /usr are on every
#                                                     Jupyter's path, a hub's own environment
#                                                     is on its Jupyter's)
#   PREFIX/share/minitorch-kernel/notebooks/          the course notebooks, read-only
#   PREFIX/bin/minitorch-course                       copies them into the user's home
#
# Each user works on copies of their own: `minitorch-course` (run by the user, or by a hub when
# the user's server starts) copies into ~/minitorch-course the notebooks that are missing there
# and never overwrites one. What a kernel compiles goes to the user's own cache folder
# ($XDG_CACHE_HOME, else ~/.cache), made 0700, never to a shared one.
set -eu

[ $# -ge 2 ] || { echo "usage: tools/install.sh BUILD_DIR PREFIX [KERNELSPEC_PREFIX]" >&2; exit 2; }
build=$1
prefix=$2
specprefix=${3:-$2}
case $prefix in /*) ;; *) echo "tools/install.sh: PREFIX must be an absolute path: $prefix" >&2; exit 2 ;; esac
case $specprefix in /*) ;; *) echo "tools/install.sh: KERNELSPEC_PREFIX must be an absolute path: $specprefix" >&2; exit 2 ;; esac
[ -x "$build/minitorch-kernel" ] || { echo "tools/install.sh: no kernel in $build (make build-lab first)" >&2; exit 1; }
root=$(cd "$(dirname "$0")/.." && pwd)
share=$prefix/share/minitorch-kernel

# installed files are readable by everyone and written by no one but their owner, whatever the
# umask of whoever installs
umask 022
cmake --install "$build" --prefix "$prefix"
"$prefix/bin/minitorch-kernel" install --prefix "$specprefix"

# the notebooks of an earlier install are replaced, not merged: a notebook the course dropped
# must not stay behind
rm -rf "$share/notebooks"
mkdir -p "$share/notebooks"
for nb in "$root"/notebooks/*.ipynb; do
    cp "$nb" "$share/notebooks/"
done
cp "$root/tools/workcopy.py" "$share/workcopy.py"
cat >"$prefix/bin/minitorch-course" <<EOF
#!/bin/sh
# Copies the MiniTorch course notebooks into your home (~/minitorch-course, or
# \$MINITORCH_COURSE_DIR) where they are missing; never overwrites your copies.
#   minitorch-course              copy what is missing, say what the course changed
#   minitorch-course fresh NAME   a fresh copy of NAME, yours kept beside it
exec python3 "$share/workcopy.py" --source "$share/notebooks" \\
    --dest "\${MINITORCH_COURSE_DIR:-\$HOME/minitorch-course}" --command minitorch-course "\$@"
EOF
chmod 755 "$prefix/bin/minitorch-course"
chmod -R a+rX "$share"
echo "install.sh: the kernel in $prefix/bin, its kernelspec in $specprefix/share/jupyter/kernels/minitorch,"
echo "  the course notebooks in $share/notebooks (each user: minitorch-course)"
