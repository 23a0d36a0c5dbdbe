#!/usr/bin/env bash
# gpu_kernels.sh [OUT_FILE] — students' cuda.jit kernels on a GPU, from the bundle
# tools/gpu-bundle.sh made here (.gpurun: the kernel and its libraries, built on the development
# machine). Runs tests/scripts/cuda/kernels.mt on the GPU (kernels compiled with NVRTC) and in the
# simulator, each against the script's expectations; compute-sanitizer's memcheck, racecheck,
# synccheck and initcheck over the GPU's run; then bench/cudasim/gpu.mt, the student's tiled
# matmul against the built-in cuda matmul, the training loop in the language
# (bench/gpu_training.mt) with its launches queued and with each waited for, and PyTorch's
# (cuBLAS) matmul on the same sizes where the machine's python3 has torch. Exits non-zero when a
# check fails.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-/dev/null}
B=$PWD/.gpurun
[ -x "$B/minitorch-kernel" ] || { echo "no bundle: run tools/gpu-bundle.sh on the development machine and carry .gpurun" | tee -a "$OUT"; exit 1; }
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export MT_CUDA_PLUGIN=$B/lib/libminitorch_cuda.so
K=$B/minitorch-kernel
status=0
say() { echo "$@" | tee -a "$OUT"; }
say
say "== students' kernels (tests/scripts/cuda/kernels.mt)"
printf '%%cuda\n' > /tmp/where.mt
say "$("$K" run /tmp/where.mt 2>&1)"
for mode in gpu simulate; do
    if [ "$mode" = simulate ]; then export MT_CUDA_SIMULATE=1; else unset MT_CUDA_SIMULATE; fi
    if r=$(sh tests/scripts/run_mt.sh "$K" tests/scripts/cuda/kernels.mt 2>&1); then
        say "$mode: ${r##*: }"
    else
        say "$mode: FAILED"; say "$r"; status=1
    fi
done
unset MT_CUDA_SIMULATE
cs=$(command -v compute-sanitizer || ls /usr/local/cuda/compute-sanitizer/compute-sanitizer 2>/dev/null || true)
if [ -z "$cs" ]; then
    say "compute-sanitizer not found: NOT run"; status=1
else
    for tool in memcheck racecheck synccheck initcheck; do
        log=$(mktemp)
        if timeout 600 "$cs" --tool "$tool" --error-exitcode 3 "$K" run tests/scripts/cuda/kernels.mt >"$log" 2>&1; then
            say "$tool: clean ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1 | sed 's/^=* *//'))"
        else
            say "$tool: FAILED"; tail -30 "$log" | tee -a "$OUT"; status=1
        fi
        rm -f "$log"
    done
fi
say
say "== the student's tiled matmul on the GPU (bench/cudasim/gpu.mt)"
{ printf 'import numba\nfrom numba import cuda\nimport minitorch\n'
  printf 'from minitorch import to_index, index_to_position, broadcast_index\nMAX_DIMS = 32\n'
  cat bench/cudasim/kernels.py bench/cudasim/gpu.mt; } > /tmp/gpu_bench.mt
"$K" run /tmp/gpu_bench.mt 2>&1 | tee -a "$OUT" || status=1
say
say "== the training loop in the language on cuda (bench/gpu_training.mt): queued, then each launch waited for"
"$K" run bench/gpu_training.mt 2>&1 | tee -a "$OUT" || status=1
CUDA_LAUNCH_BLOCKING=1 "$K" run bench/gpu_training.mt 2>&1 | sed 's/$/ (CUDA_LAUNCH_BLOCKING=1)/' |
    tee -a "$OUT" || status=1
if python3 -c 'import torch, sys; sys.exit(not torch.cuda.is_available())' 2>/dev/null; then
    python3 bench/cudasim/torch_side.py 2>&1 | tee -a "$OUT" || status=1
else
    say "(python3 has no torch with CUDA: no cuBLAS row)"
fi
exit $status
