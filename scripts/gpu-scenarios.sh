#!/usr/bin/env bash
# The end-to-end scenarios (tests/scenarios/*.cu: each a program and its
# expectations) on a real GPU: each built scenario runs under cudaleak with
# the real driver and its expectations are checked by run_scenario.py --real.
# Exits non-zero when any fails.
# Usage: scripts/gpu-scenarios.sh [BUILD_DIR]   (a build or a scripts/stage-build.sh copy)
set -uo pipefail
cd "$(dirname "$0")/.."
B="$(realpath "${1:-build}")"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
passed=0 failed=0 skipped=0
for source in tests/scenarios/*.cu; do
  name=$(basename "$source" .cu)
  out=$(python3 tests/scenarios/run_scenario.py "$source" "$B/tests/scenarios/scenario_$name" "$B/bin/cudaleak" --real 2>&1)
  case $? in
    0) passed=$((passed + 1)); echo "PASS $name" ;;
    77) skipped=$((skipped + 1)); echo "SKIP $name" ;;
    *) failed=$((failed + 1)); echo "FAIL $name:"; echo "$out" | sed 's/^/    /' ;;
  esac
done
echo "scenarios on the GPU: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
