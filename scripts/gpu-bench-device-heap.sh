#!/usr/bin/env bash
# The cost of --device-heap on a real GPU: tests/gpu/limits/device_heap.cu
# bench N (nvcc's default static cudart): N launches of an empty kernel
# (1 x 256 threads), then N of a kernel whose 256 threads each malloc(64) and
# free it, in microseconds per launch on the host wall clock; plain, under
# `cudaleak run` (device_heap off), with --device-heap, and under
# compute-sanitizer --leak-check full. Numbers for docs/performance.md
# ("Device-side allocations"), not pass/fail.
# Usage: scripts/gpu-bench-device-heap.sh STAGE [N=1000]
set -euo pipefail
cd "$(dirname "$0")/.."
stage="$(realpath "${1:?usage: scripts/gpu-bench-device-heap.sh STAGE [N]}")"
n="${2:-1000}"
cuda="${CUDA_ROOT:-/usr/local/cuda}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cuda/bin/nvcc" -arch=native -g -lineinfo -o "$tmp/device_heap" tests/gpu/limits/device_heap.cu
echo "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
echo "plain:                $("$tmp/device_heap" bench "$n")"
echo "cudaleak run:         $("$stage/bin/cudaleak" run -o "$tmp/off.%p.json" -- "$tmp/device_heap" bench "$n" 2>/dev/null)"
echo "--device-heap:        $("$stage/bin/cudaleak" run --device-heap -o "$tmp/on.%p.json" -- "$tmp/device_heap" bench "$n" 2>/dev/null)"
echo "compute-sanitizer:    $("$cuda/bin/compute-sanitizer" --leak-check full "$tmp/device_heap" bench "$n" 2>&1 | grep '^bench')"
