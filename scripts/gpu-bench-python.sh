#!/usr/bin/env bash
# Python overheads on a real GPU: the PyTorch training step with cudaleak's
# PyTorch view on and off, a Python stack per tracked call (ctypes), and the
# wall time of a run that ends in a PyTorch out-of-memory, plain and under cudaleak.
# Usage: scripts/gpu-bench-python.sh STAGE_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
stage="${1:?usage: scripts/gpu-bench-python.sh STAGE_DIR}"
tmp=$(mktemp -d)
cl() { "$stage/bin/cudaleak" run --print-summary false -o "$tmp/r.%p.%n.json" "$@"; }
for round in 1 2 3; do
  echo "round $round"
  echo "  step plain:        $(python3 tests/gpu/torch_bench.py 500 | head -1)"
  echo "  step view on:      $(cl -- python3 tests/gpu/torch_bench.py 500 2>/dev/null | head -1)"
  echo "  step view+stacks:  $(cl --pytorch-stacks true -- python3 tests/gpu/torch_bench.py 500 2>/dev/null | head -1)"
  echo "  step view off:     $(cl --pytorch-view false -- python3 tests/gpu/torch_bench.py 500 2>/dev/null | head -1)"
  echo "  ctypes plain:      $(python3 tests/gpu/python/bench_python_frames.py)"
  echo "  ctypes frames on:  $(cl -- python3 tests/gpu/python/bench_python_frames.py 2>/dev/null)"
  echo "  ctypes frames off: $(cl --python-frames false -- python3 tests/gpu/python/bench_python_frames.py 2>/dev/null)"
done
for mode in plain cudaleak; do
  start=$(date +%s%N)
  if [ $mode = plain ]; then python3 tests/gpu/python/scenario_fragmentation.py >/dev/null 2>&1
  else cl -- python3 tests/gpu/python/scenario_fragmentation.py >/dev/null 2>&1; fi
  echo "OOM run ($mode): $(( ($(date +%s%N) - start) / 1000000 )) ms"
done
rm -rf "$tmp"
