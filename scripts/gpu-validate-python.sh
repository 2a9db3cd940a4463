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
for s in scenario_leak_in_list scenario_fragmentation scenario_exceptions scenario_ctypes scenario_fraction \
         scenario_other_process scenario_expandable scenario_async_backend scenario_cupy scenario_dataloader; do
  start=$(date +%s%N)
  timeout 300 "$stage/bin/cudaleak" run --pytorch-stacks true -o "$out/$s.%p.%n.json" -- python3 "tests/gpu/python/$s.py" >"$out/$s.log" 2>&1
  status=$?
  echo "$s: exit $status in $(( ($(date +%s%N) - start) / 1000000 )) ms"
done
# The default (no per-tensor stacks): the cause is still found.
timeout 300 "$stage/bin/cudaleak" run -o "$out/default_fragmentation.%p.%n.json" -- \
  python3 tests/gpu/python/scenario_fragmentation.py >"$out/default_fragmentation.log" 2>&1
# The gate on live tensors: the exceptions scenario keeps 320 MiB alive at exit.
timeout 300 "$stage/bin/cudaleak" run --pytorch-stacks true --gate-live-tensors true --error-exitcode 1 \
  -o "$out/gated_exceptions.%p.%n.json" -- python3 tests/gpu/python/scenario_exceptions.py >"$out/gated_exceptions.log" 2>&1
echo "gated_exceptions: exit $?" | tee "$out/gated_exceptions.status"
# Live tensors growing across the reports the program asks for, gated.
timeout 300 "$stage/bin/cudaleak" run --pytorch-stacks true --gate-growing-tensors true --error-exitcode 1 \
  -o "$out/scenario_growth.%p.%n.json" -- python3 tests/gpu/python/scenario_growth.py >"$out/scenario_growth.log" 2>&1
echo "scenario_growth: exit $?" | tee "$out/scenario_growth.status"
# Two CuPy processes under one run, merged: each process's pool, named.
rm -f "$out"/cupy_two.*.json
timeout 300 "$stage/bin/cudaleak" run -o "$out/cupy_two.%p.json" -- /bin/sh -c \
  'python3 tests/gpu/python/cupy_small_pool.py & python3 tests/gpu/python/cupy_small_pool.py; wait' >"$out/cupy_two.log" 2>&1
"$stage/bin/cudaleak" merge "$out"/cupy_two.*.json -o "$out/cupy_two_merged.json" >>"$out/cupy_two.log" 2>&1 &&
  "$stage/bin/cudaleak" report "$out/cupy_two_merged.json" >"$out/cupy_two_merged.txt" 2>&1
# torch.distributed.run: the launcher and both ranks under one `cudaleak run`.
timeout 300 "$stage/bin/cudaleak" run --pytorch-stacks true -o "$out/scenario_torchrun.%p.%n.json" -- \
  python3 -m torch.distributed.run --standalone --nproc_per_node 2 tests/gpu/python/scenario_torchrun.py \
  >"$out/scenario_torchrun.log" 2>&1
echo "scenario_torchrun: exit $?"
# An out-of-memory run, plain and traced: what cudaleak adds to it.
for side in plain traced; do
  start=$(date +%s%N)
  if [ $side = plain ]; then
    timeout 300 python3 tests/gpu/python/scenario_leak_in_list.py >/dev/null 2>&1
  else
    timeout 300 "$stage/bin/cudaleak" run -o "$out/timing.%p.%n.json" -- python3 tests/gpu/python/scenario_leak_in_list.py >/dev/null 2>&1
  fi
  echo "oom run $side: $(( ($(date +%s%N) - start) / 1000000 )) ms"
done
# Where the traced run's time goes: each report's own timing.
timeout 300 "$stage/bin/cudaleak" run --verbose true -o "$out/timing.%p.%n.json" -- \
  python3 tests/gpu/python/scenario_leak_in_list.py 2>&1 | grep -E "report of|symbols of|start-up|started" | sed 's/^/oom run traced, verbose: /'
python3 tests/gpu/python/check_python_reports.py "$out"
