#!/usr/bin/env bash
# What per-tensor stacks cost realistic training steps on a real GPU
# (GPT-2 small in bf16, ResNet-50 in fp16, an 8-layer MLP):
#   1. recording off and on in alternating blocks of one process;
#   2. the step plain, under `cudaleak run` as it is by default (stacks from
#      pytorch_stacks_at=90% of the device), with --pytorch-stacks-at 0 and with
#      --pytorch-stacks true, interleaved over ROUNDS rounds;
#   3. where the live tensors of three out-of-memory scenarios are placed by
#      segment attribution (the default) and by per-tensor stacks
#      (--pytorch-stacks true): the top three groups of each exit report
#      (docs/python.md, "Segment and tensor lines").
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
echo "== segment attribution (default) against per-tensor stacks (--pytorch-stacks true)"
for script in tests/gpu/python/scenario_leak_in_list.py tests/cases/oom/story_debug_activations.py \
              tests/gpu/python/scenario_exceptions.py; do
  name=$(basename "$script" .py)
  mkdir -p "$tmp/segments.$name" "$tmp/tensors.$name"
  timeout 300 "$stage/bin/cudaleak" run --print-summary false -o "$tmp/segments.$name/r.%p.%n.json" -- python3 "$script" \
    >/dev/null 2>&1
  timeout 300 "$stage/bin/cudaleak" run --print-summary false --pytorch-stacks true -o "$tmp/tensors.$name/r.%p.%n.json" \
    -- python3 "$script" >/dev/null 2>&1
  for run in "segments.$name" "tensors.$name"; do
    python3 - "$tmp/$run" "$run" <<'PY'
import glob, json, sys
for path in sorted(glob.glob(sys.argv[1] + "/*.json")):
    r = json.load(open(path))
    if r.get("reason") != "exit":
        continue
    for d in r.get("pytorch", {}).get("devices", []):
        for g in d["live_tensors"][:3]:
            frames = [f for f in g.get("stack", []) if f.get("language") == "python" and "/torch/" not in f.get("file", "")]
            f = frames[0] if frames else {}
            print("  %-40s %8.1f MiB in %5d tensors %s %s:%s" % (sys.argv[2], g["bytes"] / 2**20, g["count"],
                  "segment" if g.get("by_segment") else "tensor ", f.get("function"), f.get("line")))
PY
  done
done
rm -rf "$tmp"
