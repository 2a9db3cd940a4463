#!/usr/bin/env bash
# JAX on a real GPU (tests/gpu/jax), each program under `cudaleak run`: the
# printed text must tell XLA's out-of-memory once and name the program's
# line. Prints what this machine's JAX is (versions, the exception type, the
# device memory profile's format and labels), each run's raw output, and the
# cost: a training step plain and under cudaleak, and the time from the
# failure to the program's handler, plain and under cudaleak. Exits non-zero
# on a wrong answer. Reports and logs go to OUT_DIR.
# Usage: scripts/gpu-validate-jax.sh STAGE_DIR OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
stage="${1:?usage: scripts/gpu-validate-jax.sh STAGE_DIR OUT_DIR}"
out="${2:?usage: scripts/gpu-validate-jax.sh STAGE_DIR OUT_DIR}"
mkdir -p "$out"
cudaleak="$stage/bin/cudaleak"
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

line_of() {  # line_of FILE MARKER: the line of "# LINE:MARKER"
  grep -n "# LINE:$2\$" "tests/gpu/jax/$1" | cut -d: -f1
}

# run NAME [ENV=VALUE...] -- ARGS...: the program under cudaleak, its output in $out/NAME.log.
run() {
  local name=$1
  shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local start=$(date +%s%N)
  env "${envs[@]}" timeout 600 "$cudaleak" run -o "$out/$name.%p.%n.json" -- "$@" >"$out/$name.log" 2>&1
  local status=$?
  echo "== $name: exit $status in $(( ($(date +%s%N) - start) / 1000000 )) ms; raw output:"
  sed 's/^/    /' "$out/$name.log"
  return $status
}

# expect NAME TEXT: the run's text holds TEXT.
expect() {
  grep -qF -- "$2" "$out/$1.log" || fail "$1: no \"$2\" in the text"
}

# one_story NAME: XLA's failure told exactly once (on a rank: "out of memory
# on rank 1: "), with the size XLA's message gives, never "0 B".
one_story() {
  local n
  n=$(grep -cE "out of memory( on rank [0-9]+)?: " "$out/$1.log")
  [ "$n" = 1 ] || fail "$1: $n out-of-memory stories, expected 1"
  grep -qE "out of memory( on rank [0-9]+)?: JAX \(XLA\) could not allocate [1-9]" "$out/$1.log" ||
    fail "$1: no \"out of memory: JAX (XLA) could not allocate\" with a size in the text"
  grep -q "more out-of-memory events of a call already told" "$out/$1.log" &&
    fail "$1: XLA's failed calls told as events of their own"
  return 0
}

echo "== facts about this machine's JAX"
python3 tests/gpu/jax/facts.py "$stage/lib/cudaleak/python" 2>&1 | grep -E "^FACT|Error" | sed 's/^/    /'
run facts -- python3 tests/gpu/jax/facts.py
grep "^FACT cudaleak_jax" "$out/facts.log" | sed 's/^/    under cudaleak: /'

keep=$(line_of list_oom.py keep)
for variant in default prealloc_false platform uncaught; do
  envs=()
  args=()
  case $variant in
    prealloc_false) envs=(XLA_PYTHON_CLIENT_PREALLOCATE=false) ;;
    platform) envs=(XLA_PYTHON_CLIENT_ALLOCATOR=platform) ;;
    uncaught) args=(uncaught) ;;
  esac
  run "list_oom_$variant" "${envs[@]}" -- python3 tests/gpu/jax/list_oom.py "${args[@]}"
  status=$?
  one_story "list_oom_$variant"
  expect "list_oom_$variant" "from step (list_oom.py:$keep)"
  if [ $variant = uncaught ]; then
    [ $status = 1 ] || fail "list_oom_uncaught: exit $status, Python's own status for an uncaught exception is 1"
    expect list_oom_uncaught "Traceback (most recent call last)"
  else
    expect "list_oom_$variant" "kept "
    expect "list_oom_$variant" "JAX at exit on device 0"
  fi
done
expect list_oom_default "1. "  # the causes are numbered
expect list_oom_default "arrays from one line that stay alive accumulate"

run pytree_oom -- python3 tests/gpu/jax/pytree_oom.py
one_story pytree_oom
expect pytree_oom "pytree_oom.py:$(line_of pytree_oom.py update)"

# Never synchronized: the failed steps raise nothing and leave arrays that
# hold no memory; the exit view counts them apart, never as held.
run pytree_nosync -- python3 tests/gpu/jax/pytree_oom.py nosync
expect pytree_nosync "that hold no memory)"
expect pytree_nosync "from <module> (pytree_oom.py:$(line_of pytree_oom.py update)) hold no memory"
expect pytree_nosync "their computation failed (XLA ran out of memory) and nothing read them"
grep -q "TiB in" "$out/pytree_nosync.log" && fail "pytree_nosync: arrays counted as held beyond the pool"

run jit_peak -- python3 tests/gpu/jax/jit_peak.py
one_story jit_peak
# jaxlib 0.11 fails this one while autotuning the dot (XLA's message names
# no buffers): then the request itself, larger than the pool, is the cause,
# at the call; where XLA lists the executable's buffers, the gram line.
grep -qE "the jitted function's own buffers need|is larger than XLA's whole pool" "$out/jit_peak.log" ||
  fail "jit_peak: neither the jitted function's buffers nor the request larger than the pool"
grep -qE "jit_peak.py:($(line_of jit_peak.py gram)|$(line_of jit_peak.py call))" "$out/jit_peak.log" ||
  fail "jit_peak: neither the gram line nor the call named"

run beside_torch_cupy XLA_PYTHON_CLIENT_PREALLOCATE=false XLA_PYTHON_CLIENT_MEM_FRACTION=0.95 -- \
  python3 tests/gpu/jax/beside_torch_cupy.py
one_story beside_torch_cupy
expect beside_torch_cupy "beside_torch_cupy.py:$(line_of beside_torch_cupy.py keep)"
expect beside_torch_cupy "PyTorch caching allocator holds"

run prealloc_off -- python3 tests/gpu/jax/prealloc_off.py
one_story prealloc_off
expect prealloc_off "prealloc_off.py:$(line_of prealloc_off.py keep)"

rm -rf "$out/two" && mkdir -p "$out/two"
start=$(date +%s%N)
timeout 600 "$cudaleak" run -o "$out/two/rank.%p.%n.json" -- python3 tests/gpu/jax/two_processes.py >"$out/two_processes.log" 2>&1
echo "== two_processes: exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms; raw output:"
sed 's/^/    /' "$out/two_processes.log"
one_story two_processes
expect two_processes "two_processes.py:$(line_of two_processes.py filler)"
expect two_processes "another process holds"
grep "^FACT rank" "$out/two_processes.log" | sed 's/^/    /'
"$cudaleak" report "$out/two/" >"$out/two_job.log" 2>&1
echo "== cudaleak report $out/two/:"
sed 's/^/    /' "$out/two_job.log"
[ "$(grep -c "JAX at exit on device 0 in" "$out/two_job.log")" -ge 2 ] || fail "two_job: each process's JAX device not named"

echo "== cost"
for side in plain cudaleak; do
  for i in 1 2 3; do
    if [ $side = plain ]; then
      python3 tests/gpu/jax/bench_step.py 2>/dev/null | grep STEP_MS | sed "s/^/    step $side run $i: /"
    else
      "$cudaleak" run -o "$out/bench.%p.%n.json" -- python3 tests/gpu/jax/bench_step.py 2>/dev/null |
        grep STEP_MS | sed "s/^/    step $side run $i: /"
    fi
  done
done
# XLA itself waits about 10 s for frees before it raises: the plain time is
# XLA's; cudaleak's own delay (the view gathered and the text printed) is
# the difference.
plain_ms=$(python3 tests/gpu/jax/list_oom.py 2>/dev/null | awk '/FAILURE_TO_HANDLER_MS/ {print $2}')
under_ms=$(awk '/FAILURE_TO_HANDLER_MS/ {print $2}' "$out/list_oom_default.log")
echo "    failure plain (XLA's own wait): FAILURE_TO_HANDLER_MS $plain_ms"
echo "    failure under cudaleak (the text printed in between): FAILURE_TO_HANDLER_MS $under_ms"
if [ -n "$plain_ms" ] && [ -n "$under_ms" ]; then
  echo "    cudaleak's own delay from the failure to the handler: $(awk -v u="$under_ms" -v p="$plain_ms" \
    'BEGIN {printf "%.1f", u - p}') ms (under cudaleak minus plain)"
fi

if [ $failures -ne 0 ]; then
  echo "gpu-validate-jax: $failures check(s) failed"
  exit 1
fi
echo "gpu-validate-jax: all checks passed"
