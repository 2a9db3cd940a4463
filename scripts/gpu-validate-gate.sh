#!/usr/bin/env bash
# Real-GPU checks of the CI gate: the CTest suite, exit codes, kinds,
# baselines, checkpoints, GoogleTest/Catch2 binaries, process trees, blind
# runs, JUnit/SARIF. Every check asserts; exits non-zero when any is wrong.
# Usage: scripts/gpu-validate-gate.sh [BUILD_DIR] [WORK_DIR]
# (BUILD_DIR: a build or a scripts/stage-build.sh copy of one)
set -uo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
B="$(realpath "${1:-build}")"
W="$(realpath -m "${2:-build/gpu-gate}")"
mkdir -p "$W"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# SIMULATED_GPU=1: the same checks under the simulated GPU (no GPU needed).
# There the samples linked with the shared cudart run, and the CTest suite
# (built with the real static cudart) is left out.
run() { "$B/bin/cudaleak" run ${SIMULATED_GPU:+--simulated-gpu} "$@"; }
x="${SIMULATED_GPU:+_shared}"
failures=0
check() {  # NAME EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then echo "PASS $1: $3"; else echo "FAIL $1: got '$3', expected '$2'"; failures=$((failures + 1)); fi
}
has() {  # NAME TEXT PATTERN (grep -E)
  if grep -qE -- "$3" <<<"$2"; then echo "PASS $1"; else echo "FAIL $1: no '$3' in:"; echo "$2" | tail -5; failures=$((failures + 1)); fi
}

if [ -z "${SIMULATED_GPU:-}" ]; then
  ctest_out=$(scripts/gpu-ctest.sh "$B" "$W/ctest" 2>&1)
  has "CTest suite through CudaLeak.cmake" "$ctest_out" "100% tests passed(, 0 tests failed)? out of 5"
fi
cd "$W"
run --error-exitcode 23 -o "$W/a.%p.json" -- "$B/samples/sample_loop_leak$x" >/dev/null 2>&1
check "loop_leak gated" 23 $?
run --error-exitcode 23 -o "$W/b.%p.json" -- "$B/samples/sample_clean$x" >/dev/null 2>&1
check "clean gated" 0 $?
run --error-exitcode 23 --fail-on device -o "$W/c.%p.json" -- "$B/samples/sample_stream_event_leak$x" >/dev/null 2>&1
check "stream_event_leak with --fail-on device" 0 $?

"$B/bin/cudaleak" baseline "$W"/a.*.json -o "$W/base.json" >/dev/null 2>&1
check "baseline written" 0 $?
run --error-exitcode 23 --baseline "$W/base.json" -o "$W/d.%p.json" -- "$B/samples/sample_loop_leak$x" 40 >/dev/null 2>&1
check "40 steps against a baseline of 50" 0 $?
out=$(run --error-exitcode 23 --baseline "$W/base.json" -o "$W/e.%p.json" -- "$B/samples/sample_loop_leak$x" 60 2>&1)
check "60 steps against a baseline of 50" 23 $?
has "60 steps: grown" "$out" "grown beyond the baseline"

out=$(run -o "$W/k.%n.json" -- "$B/tests/e2e/checkpoints" 2>&1)
has "checkpoints: leaks since start" "$out" "leaks since start: rc=0 count=4 bytes=16384"
has "checkpoints: growing" "$out" "growing: .*1 -> 2 -> 3 -> 4 -> 4"

out=$(run -o "$W/gt.%p.json" -- "$B/tests/e2e/gtest_cuda" --gtest_filter='Cuda.*' 2>&1)
has "GoogleTest: clean test passes" "$out" "OK \] Cuda.ReleasesEverything"
has "GoogleTest: leaking test fails" "$out" "FAILED  \] Cuda.ForgetsABuffer \("
has "GoogleTest: the listener says why" "$out" "1 CUDA resource \(8192 bytes\) created by this test is still alive"
has "GoogleTest: the failure is at the leak's line" "$out" "gtest_cuda.cpp:14: Failure"
has "GoogleTest: the failure names kind, bytes and API" "$out" "8.0 KiB of device memory in 1 allocation never freed, created by cudaMalloc"
has "GoogleTest: the failure's stack starts at the test" "$out" "#[0-9]+ 0x[0-9a-f]+ in Cuda_ForgetsABuffer_Test::TestBody"
echo "leak:Cuda_ForgetsABuffer_Test::TestBody" >"$W/gtest.supp"
out=$(run --suppressions "$W/gtest.supp" -o "$W/gs.%p.json" -- "$B/tests/e2e/gtest_cuda" --gtest_filter='Cuda.*' 2>&1)
has "GoogleTest: a suppressed leak does not fail its test (the gate's rules)" "$out" "PASSED  \] 2 tests"

out=$(run -o "$W/c2.%p.json" -- "$B/tests/e2e/catch2_cuda" '~*budget*' 2>&1)
has "Catch2 with cudaleak.h" "$out" "test cases: 2 \| 1 passed \| 1 failed"

run --error-exitcode 23 -o "$W/ch.%p.json" -- /bin/sh -c "$B/samples/sample_loop_leak$x >/dev/null 2>&1; exit 0" >/dev/null 2>&1
check "shell exiting 0 after a leaking child" 23 $?

out=$(run --error-exitcode 23 -o "$W/bl.%p.json" -- "$B/tests/e2e/dlvsym_bypass" 2>&1)
check "CUDA reached past cudaleak" 125 $?
has "CUDA reached past cudaleak: the driver answered" "$out" "cuInit: 0"

# The driver found through dlvsym and through a fetched "real dlsym": seen,
# so gated as leaks. A driver whose symbols carry no version also answers
# dlvsym(libcuda, "cuMemAlloc_v2", v) (5 MiB more).
plain=$(LD_LIBRARY_PATH="${SIMULATED_GPU:+$B/lib/cudaleak/simcuda:}$LD_LIBRARY_PATH" "$B/tests/e2e/loader_lookups" 2>&1)
out=$(run --error-exitcode 23 --print-summary false -o "$W/ll.json" -- "$B/tests/e2e/loader_lookups" 2>/dev/null)
check "loader lookups gated as leaks" 23 $?
check "loader lookups: the program's output unchanged" "$plain" "$out"
check "loader lookups: every way allocated" 4 "$(grep -cE '^(RTLD_NEXT dlsym|RTLD_DEFAULT dlsym|libc dlsym|libc dlvsym): allocated$' <<<"$out")"
want=$((10 << 20)); grep -q '^versioned cuMemAlloc_v2: allocated$' <<<"$out" && want=$((15 << 20))
check "loader lookups: every allocation tracked" "$want" \
  "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["leaked_bytes"])' "$W/ll.json")"

run --error-exitcode 7 --junit "$W/j.xml" --sarif "$W/s.sarif" --source-root "$repo" \
  -o "$W/js.%p.json" -- "$B/samples/sample_loop_leak$x" >/dev/null 2>&1
check "JUnit and SARIF run" 7 $?
got=$(python3 - "$W" <<'PY'
import json, sys, xml.etree.ElementTree as ET
w = sys.argv[1]
root = ET.parse(f"{w}/j.xml").getroot()
res = json.load(open(f"{w}/s.sarif"))["runs"][0]["results"]
loc = res[0]["locations"][0]["physicalLocation"]
print(root.get("tests"), root.get("failures"), len(res), loc["artifactLocation"]["uri"].split("/")[-1], loc["region"]["startLine"])
PY
)
check "JUnit tests, failures; SARIF results at" "1 1 1 loop_leak.cu 8" "$got"

# Suppression rules compiled once by the launcher: 200,000 rules that match
# nothing plus one for loop_leak's site; every process maps the launcher's
# file, plain LD_PRELOAD parses the same rules itself, and both hide the leak.
awk 'BEGIN { for (i = 0; i < 200000; ++i) printf "leak:ns_%d::unrelated_function_%d kind:device\n", i % 97, i }' >"$W/many.supp"
echo "leak:step kind:device" >>"$W/many.supp"
out=$(run --verbose --error-exitcode 23 --suppressions "$W/many.supp" -o "$W/sup.%p.json" -- "$B/samples/sample_loop_leak$x" 2>&1)
check "200,001 rules hide loop_leak under cudaleak run" 0 $?
has "the rules are mapped from the launcher's compiled file" "$out" "suppression rules: 2000[0-9][0-9], mapped from the run's compiled file"
has "the leak is named as suppressed by its rule" "$out" "leak:step kind:device \($W/many.supp:200001\)"
lib="$B/lib/libcudaleak.so"
out=$(env CUDALEAK_OPTIONS="verbose=1:suppressions=$W/many.supp:output=$W/sup_plain.%p.json" \
      LD_PRELOAD="$lib" ${SIMULATED_GPU:+LD_LIBRARY_PATH=$B/lib/cudaleak/simcuda:$LD_LIBRARY_PATH} "$B/samples/sample_loop_leak$x" 2>&1)
has "plain LD_PRELOAD parses the same rules itself" "$out" "suppression rules: 2000[0-9][0-9], parsed from the files"
has "and hides the same leak" "$out" "Suppressed: 50 / 800.0 KiB"

echo "gate checks: $failures failed"
exit $((failures > 0))
