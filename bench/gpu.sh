#!/usr/bin/env bash
# gpu.sh — the cuda backend on a GPU machine: an engine-only build (no libzmq/Jansson/libsodium
# needed: a C compiler, CMake and the CUDA toolkit), the CUDA tests, and the GPU benchmarks, with
# everything written to a results file.
#
#   bench/gpu.sh [OUT_FILE]      default: bench/results/gpu-<date>-<gpu>.txt
#
# Exits non-zero when the build or a test fails. On a machine without a usable GPU the tests
# still run (and say why the GPU checks were skipped), so the script can be tried anywhere.
# What it runs grows with the backend: at present the device probe, the kernels against the
# host, device tensors against simple (ctest -R cuda), then bench/gpu_bench.c: the kernels
# against the device's copy bandwidth, the matmul kernels, SGEMM beside cuBLAS, Task 3.4's table
# beside the fast backend, and the training epoch on cuda (fused kernel and ops) beside fast;
# then students' cuda.jit kernels (bench/gpu_kernels.sh, from the bundle tools/gpu-bundle.sh
# makes on the development machine); last, compute-sanitizer's memcheck and racecheck over the
# CUDA tests (SAN_TIMEOUT seconds each).
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${BUILD:-build-gpu}
JOBS=${JOBS:-$(nproc)}
# each compute-sanitizer run; the tools slow a program by tens of times
SAN_TIMEOUT=${SAN_TIMEOUT:-1200}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ' /' '__' || true)
OUT=${1:-bench/results/gpu-$(date -u +%Y-%m-%d)-${gpu:-nogpu}.txt}
mkdir -p "$(dirname "$OUT")"

{
    echo "# bench/gpu.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), commit ${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo "?")}"
    echo "# host: $(uname -srm), $(nproc) CPUs"
    if command -v nvidia-smi >/dev/null; then
        nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem \
            --format=csv 2>&1 | sed 's/^/# /'
    else
        echo "# nvidia-smi: not found"
    fi
    echo "# nvcc: $(nvcc --version 2>/dev/null | tail -1 || echo 'not found')"
} | tee "$OUT"

mkdir -p "$BUILD"
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DMT_BUILD_KERNEL=OFF -DMT_CUDA=ON \
    >"$BUILD/configure.log" 2>&1 || { cat "$BUILD/configure.log"; exit 1; }
# a failed build shows its errors (another compiler than CI's may warn where CI's did not)
for target in all mt_gpu_bench; do
    cmake --build "$BUILD" -j"$JOBS" --target "$target" >"$BUILD/build.log" 2>&1 || {
        grep -E -B2 -A8 'error|Error' "$BUILD/build.log" | head -120
        echo "build of $target failed: $BUILD/build.log"
        exit 1
    }
done

status=0
log=$(mktemp)
ctest --test-dir "$BUILD" -R cuda --timeout 300 --output-on-failure -V >"$log" 2>&1 || status=1
{
    echo
    echo "== CUDA tests (ctest -R cuda)"
    grep -E '^[0-9]+: |Test #|tests passed|tests failed' "$log" | grep -vE 'Test command:|Working Directory:|timeout computed|Environment variables:' || true
} | tee -a "$OUT"

{
    echo
    echo "== GPU benchmarks (build/mt_gpu_bench)"
    "$BUILD/mt_gpu_bench" 2>&1 || echo "(mt_gpu_bench exited $?)"
} | tee -a "$OUT"

# students' cuda.jit kernels through the kernel itself, when the development machine made its
# bundle (tools/gpu-bundle.sh; this machine cannot build the kernel: no ZeroMQ, Jansson or
# libsodium here)
if [[ -x .gpurun/minitorch-kernel ]]; then
    bash bench/gpu_kernels.sh "$OUT" || status=1
else
    echo "(no kernel bundle .gpurun: tools/gpu-bundle.sh makes one; students' kernels NOT run)" |
        tee -a "$OUT"
fi

# compute-sanitizer: memcheck (out-of-bounds and misaligned accesses; no leak check: the library
# keeps its scratch buffers for the life of the process on purpose) and racecheck
# (shared-memory hazards: the tiled and register matmuls, block reductions, the fused training
# epoch) over the CUDA tests. Both must report no errors; a toolkit without it fails the run.
# Last, being the slowest: a run cut short keeps the tests and figures above. (The block
# writes through a process substitution, not a pipe, so that its `status=1` stays in this shell
# and each line reaches the results file as it is written.)
{
    echo
    echo "== compute-sanitizer"
    # on PATH, or where the toolkit keeps it beside nvcc's bin/
    cs=$(command -v compute-sanitizer ||
        ls "$(dirname "$(readlink -f "$(command -v nvcc)")")"/../compute-sanitizer/compute-sanitizer \
            2>/dev/null || true)
    if [[ -z $cs ]]; then
        echo "compute-sanitizer not found: memcheck and racecheck NOT run"
        status=1
    else
        # racecheck adds a fixed cost to every launch, and the tensor tests' training through
        # autodiff ops makes thousands of launches: there it watches only the fused training
        # kernel, the one kernel with shared memory that engine_test_cuda does not launch.
        for run in "memcheck engine_test_cuda" "memcheck engine_test_cuda_tensors" \
            "racecheck engine_test_cuda" \
            "racecheck engine_test_cuda_tensors --kernel-name kns=train_epoch"; do
            read -r tool t filter <<<"$run"
            # shellcheck disable=SC2086 # $filter: the option and its value, or nothing
            if MT_TEST_CUDA_PRELOADED=1 timeout "$SAN_TIMEOUT" "$cs" --tool "$tool" $filter \
                --error-exitcode 3 "$BUILD/$t" >"$log" 2>&1; then
                echo "$run: clean ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1))"
            else
                echo "$run: FAILED (exit $?)"
                tail -40 "$log"
                status=1
            fi
        done
    fi
} > >(tee -a "$OUT") 2>&1

rm -f "$log"
echo "results: $OUT"
exit $status
