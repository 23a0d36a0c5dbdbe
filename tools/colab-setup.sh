#!/usr/bin/env bash
# Sets the MiniTorch kernel up on a Google Colab VM: the Debian packages of tools/debian-lab.txt
# (what `make lab` installs; Colab brings its own Python and Jupyter), the student's build of
# `make lab` (tools/build-release.sh --lab: the kernel alone; with the cuda backend on a GPU
# runtime, where the driver is loaded), and the kernelspec in /usr/local/share/jupyter, where
# Colab's Jupyter finds it. Run by the first cell of each course notebook
# (notebooks/src/colab_cell.py) and by notebooks/colab_setup.ipynb; a page reload then connects the notebook to the kernel (its
# metadata names the kernelspec "minitorch").
# The VM is temporary: a new Colab session needs this again.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export DEBIAN_FRONTEND=noninteractive
echo "minitorch: installing build dependencies"
apt-get -qq update
mapfile -t packages < <(sed -e 's/#.*//' tools/debian-lab.txt | tr -s ' \t' '\n' | sed '/^$/d')
apt-get -qq install -y --no-install-recommends "${packages[@]}" >/dev/null
[ -d /usr/local/cuda/bin ] && export PATH=/usr/local/cuda/bin:$PATH
echo "minitorch: building (nvcc: $(command -v nvcc || echo none))"
tools/build-release.sh --lab >/dev/null
build-lab/minitorch-kernel install --prefix /usr/local
echo "minitorch: installed. Reload the page (Ctrl-R or Cmd-R): Colab then runs this notebook on"
echo "the MiniTorch kernel (Runtime > Change runtime type shows it)."
