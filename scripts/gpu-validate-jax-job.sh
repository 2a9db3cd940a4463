#!/usr/bin/env bash
# A JAX job of 4 ranks on a real GPU (tests/gpu/jax/job_rank.py, each rank its
# own `cudaleak run`, all on device 0, XLA allocating on demand): the job
# view folds the ranks' JAX views (one "JAX at exit on 4 ranks" with the
# user's line once, bytes as a median and range), names rank 2 first (its
# arrays 8x the others'), and the job's JUnit and SARIF from the folder
# parse. Where the machine has two GPUs or more, also a job of 8 JAX
# processes over two GPUs, each with CUDA_VISIBLE_DEVICES of its own
# (tests/gpu/jax/many_processes.py: ranks 1, 3 and 5 fill their share of one
# GPU until XLA fails, the even ranks exit early): one story with the rank
# list, the ranks counted on 2 devices by UUID, ranks that had ended said so,
# the pool's room the device's free memory, rank 6's own line on it alone.
# Prints each command's raw output; exits non-zero on a wrong answer.
# Usage: scripts/gpu-validate-jax-job.sh STAGE_DIR OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
stage="${1:?usage: scripts/gpu-validate-jax-job.sh STAGE_DIR OUT_DIR}"
out="${2:?usage: scripts/gpu-validate-jax-job.sh STAGE_DIR OUT_DIR}"
cudaleak="$stage/bin/cudaleak"
rm -rf "$out/job"
mkdir -p "$out/job"
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
expect() {  # expect FILE TEXT
  grep -qF -- "$2" "$1" || fail "no \"$2\" in $(basename "$1")"
}
line=$(grep -n "# LINE:keep\$" tests/gpu/jax/job_rank.py | cut -d: -f1)

pids=()
for rank in 0 1 2 3; do
  env RANK=$rank LOCAL_RANK=$rank WORLD_SIZE=4 XLA_PYTHON_CLIENT_PREALLOCATE=false \
    timeout 600 "$cudaleak" run -o "$out/job/%h.%p.%n.json" -- python3 tests/gpu/jax/job_rank.py \
    >"$out/rank$rank.log" 2>&1 &
  pids+=($!)
done
for rank in 0 1 2 3; do
  wait "${pids[$rank]}" || fail "rank $rank: exit $?"
  echo "== rank $rank raw output:"
  sed 's/^/    /' "$out/rank$rank.log"
done

"$cudaleak" report "$out/job" >"$out/job.txt" 2>&1 || fail "cudaleak report exit $?"
echo "== cudaleak report $out/job:"
sed 's/^/    /' "$out/job.txt"
expect "$out/job.txt" "job: ranks 0-3 of 4"
expect "$out/job.txt" "JAX at exit on 4 ranks (0-3), on 1 device: "
expect "$out/job.txt" "arrays from keep (job_rank.py:$line)"
expect "$out/job.txt" "live arrays median 1.0 GiB (1.0 GiB-8.0 GiB) in 4-32 (not leaks, not gated), by the user's line:"
expect "$out/job.txt" "    median 1.0 GiB (1.0 GiB-8.0 GiB) in 4-32 arrays from keep (job_rank.py:$line)"
expect "$out/job.txt" "unlike the others:"  # with on-demand allocation its timeline grew too
expect "$out/job.txt" "held 8.0 GiB in JAX's live arrays on device 0 at exit, the most 8.0 GiB in 32 arrays from keep (job_rank.py:$line)"
grep -q "JAX at exit on device" "$out/job.txt" && fail "a rank's JAX view listed on its own in the folded text"
n=$(grep -c "JAX at exit" "$out/job.txt")
[ "$n" = 1 ] || fail "$n JAX views in the text, expected 1 (folded)"

"$cudaleak" report "$out/job" --ranks all >"$out/job-all.txt" 2>&1 || fail "cudaleak report --ranks all exit $?"
n=$(grep -c "JAX at exit on device 0 in " "$out/job-all.txt")
[ "$n" = 4 ] || fail "--ranks all: $n JAX views, expected 4 (one per rank)"

for fmt in junit sarif; do
  "$cudaleak" report "$out/job" --format $fmt -o "$out/job.$fmt" || fail "report --format $fmt exit $?"
  echo "== $out/job.$fmt ($(stat -c %s "$out/job.$fmt") bytes):"
  head -c 3000 "$out/job.$fmt" | sed 's/^/    /'
  echo
done
python3 - "$out" <<'PY' || fail "the job's JUnit or SARIF does not parse"
import json, sys, xml.etree.ElementTree as ET
out = sys.argv[1]
suites = ET.parse(out + "/job.junit").getroot().findall("testsuite")
assert len(suites) == 4, "one JUnit suite per rank: %d" % len(suites)
assert json.load(open(out + "/job.sarif"))["version"] == "2.1.0"
print("JUnit: %d suites; SARIF parses" % len(suites))
PY
"$cudaleak" report "$out/job" --format html -o "$out/job.html" || fail "report --format html exit $?"
grep -q 'id="jax-section"' "$out/job.html" || fail "the page has no JAX section"

gpus=$(nvidia-smi -L | grep -c '^GPU ')
if [ "$gpus" -ge 2 ]; then
  rm -rf "$out/many" && mkdir -p "$out/many"
  timeout 300 "$cudaleak" run -o "$out/many/%h.%p.%n.json" -- python3 tests/gpu/jax/many_processes.py 8 2 \
    >"$out/many.log" 2>&1
  echo "== many_processes (8 ranks on 2 GPUs): exit $?"
  "$cudaleak" report "$out/many" >"$out/many.txt" 2>&1 || fail "cudaleak report of the 8 ranks exit $?"
  sed 's/^/    /' "$out/many.txt"
  m=tests/gpu/jax/many_processes.py
  at() { grep -n "# LINE:$1\$" $m | cut -d: -f1; }
  expect "$out/many.txt" "3 ranks ran out of memory in worker (many_processes.py:$(at raise)): ranks 1,3,5"
  expect "$out/many.txt" "JAX at exit on 8 ranks (0-7), on 2 devices: "
  expect "$out/many.txt" "had ended at "
  expect "$out/many.txt" "free beyond it"
  expect "$out/many.txt" "from worker (many_processes.py:$(at odd)), the largest float32[16384,16384] (1.0 GiB), on rank 6 only"
  grep -q "MEM_FRACTION=0.9 gives" "$out/many.txt" && fail "0.9 advised while the other ranks hold the device's rest"
  grep -q "each on its own device" "$out/many.txt" && fail "8 ranks on 2 GPUs said to be each on its own device"
else
  echo "SKIP the 8-rank job over two GPUs: $gpus GPU(s) here"
fi

echo
[ "$failures" = 0 ] && echo "gpu-validate-jax-job: all checks passed" || echo "gpu-validate-jax-job: $failures checks failed"
exit $((failures > 0))
