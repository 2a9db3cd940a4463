#!/usr/bin/env bash
# The out-of-memory story on a real GPU, with default options: each scenario
# of tests/gpu/python runs under `cudaleak run`, then check_oom_story.py
# asserts one event per failure, its first cause and the user's line in the
# printed text and the JSON (exits non-zero on a wrong answer). Three also run
# with --pytorch-stacks true, to set segment attribution beside PyTorch's
# per-tensor stacks. Reports and logs go to OUT_DIR.
# Usage: scripts/gpu-validate-oom-story.sh STAGE_DIR OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
stage="${1:?usage: scripts/gpu-validate-oom-story.sh STAGE_DIR OUT_DIR}"
out="${2:?usage: scripts/gpu-validate-oom-story.sh STAGE_DIR OUT_DIR}"
mkdir -p "$out"
traced() {  # NAME SCRIPT [cudaleak options...]
  local name=$1 script=$2
  shift 2
  local start
  start=$(date +%s%N)
  timeout 300 "$stage/bin/cudaleak" run "$@" -o "$out/$name.%p.%n.json" -- python3 "tests/gpu/python/$script.py" \
    >"$out/$name.log" 2>&1
  echo "$name: exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms"
}
for s in scenario_leak_in_list story_debug_activations scenario_exceptions scenario_fragmentation scenario_other_process \
         story_jax_then_torch story_torch_then_cupy scenario_cupy scenario_expandable scenario_async_backend \
         story_cuda_graph story_compile story_cuda_python scenario_numba; do
  traced "$s" "$s"
done
for s in scenario_leak_in_list story_debug_activations scenario_exceptions; do
  traced "stacks_$s" "$s" --pytorch-stacks true
done
start=$(date +%s%N)
timeout 300 "$stage/bin/cudaleak" run -o "$out/scenario_torchrun.%p.%n.json" -- \
  python3 -m torch.distributed.run --standalone --nproc_per_node 2 tests/gpu/python/scenario_torchrun.py \
  >"$out/scenario_torchrun.log" 2>&1
echo "scenario_torchrun: exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms"
python3 tests/gpu/python/check_oom_story.py "$out"
