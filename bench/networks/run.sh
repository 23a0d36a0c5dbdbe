#!/usr/bin/env bash
# make bench-networks: PyTorch from Debian (python3-torch, the CPU build) for the peer, installed
# when missing, then bench/networks/run.py. Usage: bench/networks/run.sh KERNEL [run.py options]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
KERNEL=$1
shift
if ! /usr/bin/python3 -c "import torch" 2>/dev/null; then
    echo "bench-networks: installing Debian's python3-torch (the peer)"
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo -E"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -q && $sudo apt-get install -y -q --no-install-recommends python3-torch
fi
exec .venv/bin/python bench/networks/run.py --kernel "$KERNEL" --torch-python /usr/bin/python3 "$@"
