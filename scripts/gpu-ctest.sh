#!/usr/bin/env bash
# The CTest suite of tests/ctest-suite on a real GPU, gated by cudaleak through
# cmake/CudaLeak.cmake. Usage: scripts/gpu-ctest.sh [CUDALEAK_BUILD_DIR] [WORK_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(realpath "${1:-build}")"
work="$(realpath -m "${2:-build/gpu-ctest}")"
cuda="${CUDA_ROOT:-/usr/local/cuda}"
cmake -S tests/ctest-suite -B "$work" -G Ninja -DCMAKE_CUDA_COMPILER="$cuda/bin/nvcc" -DCUDALEAK_ROOT="$root" >/dev/null
cmake --build "$work" >/dev/null
cd "$work"
ctest --output-on-failure
