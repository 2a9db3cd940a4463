#!/usr/bin/env bash
# JAX on a real GPU, numbers and facts, not verdicts (the checks are the
# cases of tests/cases/jax, scripts/gpu-test.sh STAGE OUT cases/jax/): what
# this machine's JAX is (versions, the exception type of XLA's
# out-of-memory, the device memory profile's format and labels, and
# cudaleak_jax's own facts under cudaleak); a training step plain and under
# cudaleak (tests/gpu/jax/bench_step.py, 3 runs each); and the time from
# XLA's failure to the program's handler (tests/gpu/jax/list_oom.py), plain
# (XLA's own wait, about 10 s) and under cudaleak, whose own delay (the view
# gathered and the text printed) is the difference.
# Usage: scripts/gpu-bench-jax.sh STAGE_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
stage="$(realpath "${1:?usage: scripts/gpu-bench-jax.sh STAGE_DIR}")"
cudaleak="$stage/bin/cudaleak"
tmp=$(mktemp -d)
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

echo "== facts about this machine's JAX"
python3 tests/gpu/jax/facts.py "$stage/lib/cudaleak/python" 2>&1 | grep -E "^FACT|Error" | sed 's/^/    /'
"$cudaleak" run -o "$tmp/facts.%p.%n.json" -- python3 tests/gpu/jax/facts.py 2>&1 |
  grep "^FACT cudaleak_jax" | sed 's/^/    under cudaleak: /'

echo "== a training step"
for side in plain cudaleak; do
  for i in 1 2 3; do
    if [ $side = plain ]; then
      python3 tests/gpu/jax/bench_step.py 2>/dev/null | grep STEP_MS | sed "s/^/    step $side run $i: /"
    else
      "$cudaleak" run -o "$tmp/bench.%p.%n.json" -- python3 tests/gpu/jax/bench_step.py 2>/dev/null |
        grep STEP_MS | sed "s/^/    step $side run $i: /"
    fi
  done
done

echo "== from XLA's failure to the program's handler"
plain_ms=$(python3 tests/gpu/jax/list_oom.py 2>/dev/null | awk '/FAILURE_TO_HANDLER_MS/ {print $2}')
under_ms=$("$cudaleak" run -o "$tmp/oom.%p.%n.json" -- python3 tests/gpu/jax/list_oom.py 2>/dev/null |
  awk '/FAILURE_TO_HANDLER_MS/ {print $2}')
echo "    failure plain (XLA's own wait): FAILURE_TO_HANDLER_MS $plain_ms"
echo "    failure under cudaleak (the text printed in between): FAILURE_TO_HANDLER_MS $under_ms"
if [ -n "$plain_ms" ] && [ -n "$under_ms" ]; then
  echo "    cudaleak's own delay from the failure to the handler: $(awk -v u="$under_ms" -v p="$plain_ms" \
    'BEGIN {printf "%.1f", u - p}') ms (under cudaleak minus plain)"
fi
rm -rf "$tmp"
