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

# one_story NAME: XLA's failure told exactly once.
one_story() {
  local n
  n=$(grep -c "out of memory: " "$out/$1.log")
  [ "$n" = 1 ] || fail "$1: $n out-of-memory stories, expected 1"
  expect "$1" "out of memory: JAX (XLA) could not allocate"
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

run jit_peak -- python3 tests/gpu/jax/jit_peak.py
one_story jit_peak
expect jit_peak "the jitted function's own buffers need"
expect jit_peak "jit_peak.py:$(line_of jit_peak.py gram)"

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
python3 tests/gpu/jax/list_oom.py 2>/dev/null | grep FAILURE_TO_HANDLER_MS | sed "s/^/    failure plain: /"
grep FAILURE_TO_HANDLER_MS "$out/list_oom_default.log" | sed "s/^/    failure under cudaleak (the text printed in between): /"

if [ $failures -ne 0 ]; then
  echo "gpu-validate-jax: $failures check(s) failed"
  exit 1
fi
echo "gpu-validate-jax: all checks passed"
