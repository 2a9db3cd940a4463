#!/usr/bin/env bash
# Real-GPU checks of what CI users copy: the demo on the GPU, the pytest
# plugin's per-test gate with PyTorch (installed from its wheel into a venv,
# loaded by its entry point), log_path and colour. Every check asserts;
# exits non-zero when any is wrong.
# Usage: scripts/gpu-validate-ci-fit.sh STAGE_DIR OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
stage="$(realpath "${1:?usage: scripts/gpu-validate-ci-fit.sh STAGE_DIR OUT_DIR}")"
out="$(realpath -m "${2:?usage: scripts/gpu-validate-ci-fit.sh STAGE_DIR OUT_DIR}")"
mkdir -p "$out"
failures=0
has() {  # NAME TEXT PATTERN (grep -E)
  if grep -qE -- "$3" <<<"$2"; then echo "PASS $1"; else echo "FAIL $1: no '$3' in:"; echo "$2" | tail -8; failures=$((failures + 1)); fi
}
check() {  # NAME EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then echo "PASS $1: $3"; else echo "FAIL $1: got '$3', expected '$2'"; failures=$((failures + 1)); fi
}

# The demo, on the real GPU (static cudart samples).
start=$(date +%s%N)
demo=$(CUDALEAK_BUILD="$stage" scripts/demo.sh 2>&1)
check "demo exit status" 0 $?
echo "demo took $(( ($(date +%s%N) - start) / 1000000 )) ms"
echo "$demo" >"$out/demo.log"
has "demo: on the real GPU" "$demo" "== real GPU: GPU 0"
has "demo: the leak's line" "$demo" "process_batch .*exception_leak.cu:10"
has "demo: the gate fails" "$demo" "leak gate failed: 1 leak group .*exiting with status 1"
has "demo: the generated rule" "$demo" "accepted as known: leak:step kind:device"
has "demo: the gate passes with it" "$demo" "Suppressed: 50 / 800.0 KiB"
has "demo: the out-of-memory explained" "$demo" "1\. .* of device memory allocated in forward \(oom_leak.cu:11\) is still held from earlier: [0-9]+ allocations"
has "demo: the HTML report" "$demo" "Open .*/demo/report.html in a browser"
grep -q 'data-section' "$stage/demo/report.html" 2>/dev/null; check "demo: the HTML page was written" 0 $?

# The pytest plugin's per-test gate with PyTorch. The wheel goes into a
# folder of its own on PYTHONPATH (the machine's python3 may itself be a
# virtual environment, whose packages a nested venv would not see); pytest
# finds the plugin there by its entry point, with no -p.
if python3 -c "import pytest, torch" 2>/dev/null; then
  rm -rf "$out/site"
  python3 -m pip install -q --no-index --no-deps --target "$out/site" \
    "$stage"/lib/cudaleak/python/pytest_cudaleak-*-py3-none-any.whl
  check "pytest plugin: the wheel installs with pip, offline" 0 $?
  py=$(cd "$out" && PYTHONPATH="$out/site" "$stage/bin/cudaleak" run -o "$out/pytest.%p.json" -- python3 -m pytest -q \
       -p no:cacheprovider "$OLDPWD/tests/gpu/pytest/test_per_test_gate.py" 2>&1)
  echo "$py" >"$out/pytest.log"
  has "pytest plugin: loaded by its entry point, only the raw leak fails" "$py" "1 failed, 2 passed"
  has "pytest plugin: the failing test" "$py" "FAILED .*test_raw_driver_allocation_leaks"
  has "pytest plugin: the failure's bytes" "$py" "cudaleak: 1 CUDA resource \(8388608 bytes\) created by this test is still alive"
  has "pytest plugin: the failure's Python line" "$py" "at .*test_per_test_gate.py:25"
  has "pytest plugin: the failure's stack from the test" "$py" "\[python\] in test_raw_driver_allocation_leaks"
else
  echo "SKIP pytest plugin: this machine's python3 has no pytest or no torch"
fi

# log_path and colour on a real run.
rm -rf "$out/logs" && mkdir -p "$out/logs"
err=$("$stage/bin/cudaleak" run --log-path "$out/logs/cl" --color always -o "$out/log.%p.json" -- \
      "$stage/samples/sample_loop_leak" 2>&1 >/dev/null)
check "log_path: nothing of cudaleak's on stderr" "" "$err"
log=$(cat "$out"/logs/cl.* 2>/dev/null)
has "log_path: the summary in PATH.PID" "$log" "SUMMARY:.* cudaleak: 800.0 KiB leaked in 50 resources"
has "color=always: coloured" "$log" $'\033\\[1;31mdetected CUDA resource leaks'

echo "ci-fit checks: $failures failed"
exit $((failures > 0))
