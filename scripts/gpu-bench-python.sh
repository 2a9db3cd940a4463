#!/usr/bin/env bash
# Python overheads on a real GPU: the PyTorch training step with cudaleak's
# PyTorch view on and off, a Python stack per tracked call (ctypes), the
# wall time of runs that end in a PyTorch out-of-memory (fragmentation, and
# a list that keeps every step's loss), plain and under cudaleak, and where
# the traced run's time goes (each report's own timing, --verbose).
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
for scenario in scenario_fragmentation scenario_leak_in_list; do
  for mode in plain cudaleak; do
    start=$(date +%s%N)
    if [ $mode = plain ]; then python3 "tests/gpu/python/$scenario.py" >/dev/null 2>&1
    else cl -- python3 "tests/gpu/python/$scenario.py" >/dev/null 2>&1; fi
    echo "OOM run $scenario ($mode): $(( ($(date +%s%N) - start) / 1000000 )) ms"
  done
done
"$stage/bin/cudaleak" run --verbose true -o "$tmp/timing.%p.%n.json" -- python3 tests/gpu/python/scenario_leak_in_list.py 2>&1 |
  grep -E "report of|symbols of|start-up|started" | sed 's/^/OOM run scenario_leak_in_list traced, verbose: /'
rm -rf "$tmp"
