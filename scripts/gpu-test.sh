#!/usr/bin/env bash
# The test cases of tests/cases (one format: a program with its BUILD, RUN and
# CHECK lines; tests/cases/runner.py) on this machine's real GPUs, with a
# build staged by scripts/stage-build.sh: every case whose REQUIRES this
# machine meets (gpu, gpus>=N, nvcc, torch, jax, cupy, ...). Each case's
# commands and output are kept in OUT/<area>/<case>/log.txt. Exits non-zero when a
# case fails. --long also runs the cases that take minutes (REQUIRES: long,
# as the soak of tests/cases/growth/soak_long.sh). CUDA_SAMPLES=DIR (a
# checkout of NVIDIA's cuda-samples) lets the cases that build its samples
# run (REQUIRES: cuda-samples); the Vulkan cases need the loader and headers,
# installed or as .deb files in .gl (apt-get download libvulkan1
# libvulkan-dev; REQUIRES: vulkan).
# Usage: scripts/gpu-test.sh [--long] STAGE OUT [FILTER]   (FILTER: a regular expression on the case's path)
set -uo pipefail
cd "$(dirname "$0")/.."
long=()
[ "${1:-}" = --long ] && { long=(--long); shift; }
stage="$(realpath "${1:?usage: scripts/gpu-test.sh [--long] STAGE OUT [FILTER]}")"
out="$(realpath -m "${2:?usage: scripts/gpu-test.sh [--long] STAGE OUT [FILTER]}")"
mkdir -p "$out"
[ -n "${CUDA_SAMPLES:-}" ] && export CUDA_SAMPLES="$(realpath "$CUDA_SAMPLES")"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1), $(nvidia-smi -L | wc -l) GPU(s)"
exec python3 tests/cases/runner.py --mode gpu --cudaleak "$stage/bin/cudaleak" --out "$out" --filter "${3:-}" "${long[@]}" tests/cases
