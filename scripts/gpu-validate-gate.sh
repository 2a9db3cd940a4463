#!/usr/bin/env bash
# Real-GPU checks of the CI gate: the CTest suite, exit codes, kinds,
# baselines, checkpoints, GoogleTest/Catch2 binaries, process trees, blind
# runs, JUnit/SARIF. Usage: scripts/gpu-validate-gate.sh [BUILD_DIR] [WORK_DIR]
# (BUILD_DIR: a build or a scripts/stage-build.sh copy of one)
set -uo pipefail
cd "$(dirname "$0")/.."
B="$(realpath "${1:-build}")"
W="$(realpath -m "${2:-build/gpu-gate}")"
mkdir -p "$W"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
run() { "$B/bin/cudaleak" run "$@"; }

echo "== CTest suite (tests/ctest-suite, cmake/CudaLeak.cmake)"
scripts/gpu-ctest.sh "$B" "$W/ctest" 2>&1 | grep -E "Test +#|tests passed"
cd "$W"
echo "== exit codes"
run --error-exitcode 23 -o "$W/a.%p.json" -- "$B/samples/sample_loop_leak" >/dev/null 2>&1; echo "loop_leak gated: $?"
run --error-exitcode 23 -o "$W/b.%p.json" -- "$B/samples/sample_clean" >/dev/null 2>&1; echo "clean gated: $?"
run --error-exitcode 23 --fail-on device -o "$W/c.%p.json" -- "$B/samples/sample_stream_event_leak" >/dev/null 2>&1
echo "stream_event_leak, fail-on device: $?"
echo "== baseline"
"$B/bin/cudaleak" baseline "$W"/a.*.json -o "$W/base.json" 2>&1
run --error-exitcode 23 --baseline "$W/base.json" -o "$W/d.%p.json" -- "$B/samples/sample_loop_leak" 40 >/dev/null 2>&1
echo "loop_leak 40 steps vs baseline of 50: $?"
run --error-exitcode 23 --baseline "$W/base.json" -o "$W/e.%p.json" -- "$B/samples/sample_loop_leak" 60 2>&1 |
  grep -E "grown|gate failed"
echo "== checkpoints (cudaleak.h)"
run -o "$W/k.%n.json" -- "$B/tests/e2e/checkpoints" 2>&1 | grep -E "active|since|report:|growing"
echo "== GoogleTest listener"
run -o "$W/gt.%p.json" -- "$B/tests/e2e/gtest_cuda" 2>&1 | grep -E "OK \]|FAILED  \]|cudaleak: 1"
echo "== Catch2 with cudaleak.h"
run -o "$W/c2.%p.json" -- "$B/tests/e2e/catch2_cuda" 2>&1 | grep -E "test cases"
echo "== process tree"
run --error-exitcode 23 -o "$W/ch.%p.json" -- /bin/sh -c "$B/samples/sample_loop_leak >/dev/null 2>&1; exit 0"
echo "shell exiting 0 after a leaking child: $?"
echo "== CUDA used past cudaleak"
run --error-exitcode 23 -o "$W/bl.%p.json" -- "$B/tests/e2e/dlvsym_bypass" 2>&1 | tail -1
echo "status: ${PIPESTATUS[0]}"
echo "== JUnit and SARIF"
run --error-exitcode 7 --junit "$W/j.xml" --sarif "$W/s.sarif" -o "$W/js.%p.json" -- "$B/samples/sample_loop_leak" >/dev/null 2>&1
echo "status: $?"
python3 - "$W" <<'PY'
import json, sys, xml.etree.ElementTree as ET
w = sys.argv[1]
root = ET.parse(f"{w}/j.xml").getroot()
print("junit: tests", root.get("tests"), "failures", root.get("failures"))
doc = json.load(open(f"{w}/s.sarif"))
res = doc["runs"][0]["results"]
print("sarif:", len(res), "result(s) at", res[0]["locations"][0]["physicalLocation"])
PY
