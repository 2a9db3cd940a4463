#!/usr/bin/env bash
# What per-tensor stacks cost realistic training steps on a real GPU
# (GPT-2 small in bf16, ResNet-50 in fp16, an 8-layer MLP):
#   1. recording off and on in alternating blocks of one process;
#   2. the step plain, under `cudaleak run` as it is by default (stacks from
#      pytorch_stacks_at=90% of the device), with --pytorch-stacks-at 0 and with
#      --pytorch-stacks true, interleaved over ROUNDS rounds.
# Usage: scripts/gpu-bench-tensor-stacks.sh STAGE_DIR [ROUNDS]
set -uo pipefail
cd "$(dirname "$0")/.."
stage="${1:?usage: scripts/gpu-bench-tensor-stacks.sh STAGE_DIR [ROUNDS]}"
rounds="${2:-3}"
tmp=$(mktemp -d)
bench=tests/gpu/python/bench_tensor_stacks.py
echo "== recording off/on in one process"
python3 "$bench" 5 20 2>&1 | grep " step "
for round in $(seq "$rounds"); do
  echo "== round $round"
  python3 "$bench" fixed 4 20 2>&1 | grep " step " | sed 's/^/plain            /'
  for flags in "" "--pytorch-stacks-at 0" "--pytorch-stacks true"; do
    # shellcheck disable=SC2086
    "$stage/bin/cudaleak" run --print-summary false $flags -o "$tmp/r.%p.%n.json" -- python3 "$bench" fixed 4 20 2>&1 |
      grep " step " | sed "s/^/cudaleak ${flags:-default}  /"
  done
done
rm -rf "$tmp"
