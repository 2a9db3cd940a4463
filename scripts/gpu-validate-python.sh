#!/usr/bin/env bash
# Python and PyTorch scenarios on a real GPU (tests/gpu/python), each run under
# `cudaleak run`, then checked by check_python_reports.py, which exits
# non-zero on a wrong answer. Reports and logs go to OUT_DIR.
# Usage: scripts/gpu-validate-python.sh STAGE_DIR OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
stage="${1:?usage: scripts/gpu-validate-python.sh STAGE_DIR OUT_DIR}"
out="${2:?usage: scripts/gpu-validate-python.sh STAGE_DIR OUT_DIR}"
mkdir -p "$out"
for s in scenario_leak_in_list scenario_fragmentation scenario_exceptions scenario_ctypes scenario_fraction; do
  start=$(date +%s%N)
  timeout 300 "$stage/bin/cudaleak" run --pytorch-stacks true -o "$out/$s.%p.%n.json" -- python3 "tests/gpu/python/$s.py" >"$out/$s.log" 2>&1
  status=$?
  echo "$s: exit $status in $(( ($(date +%s%N) - start) / 1000000 )) ms"
done
# The default (no per-tensor stacks): the cause is still found.
timeout 300 "$stage/bin/cudaleak" run -o "$out/default_fragmentation.%p.%n.json" -- \
  python3 tests/gpu/python/scenario_fragmentation.py >"$out/default_fragmentation.log" 2>&1
python3 tests/gpu/python/check_python_reports.py "$out"
