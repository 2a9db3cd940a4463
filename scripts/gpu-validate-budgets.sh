#!/usr/bin/env bash
# Real-GPU checks of per-test memory budgets: a pytest suite of PyTorch tests
# (tests/gpu/pytest/test_budgets_torch.py) under cudaleak with the plugin
# installed from its wheel: one test within its cuda_limit_memory budget, one
# over it (a 96 MiB workspace), one over it served from PyTorch's cache (no
# driver call), a fixture that leaks; then the run's own budget
# (--limit-memory) on a sample. Asserts the text a user reads; prints the raw
# output; exits non-zero when any check is wrong.
# Usage: scripts/gpu-validate-budgets.sh STAGE_DIR OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
src="$PWD"
stage="$(realpath "${1:?usage: scripts/gpu-validate-budgets.sh STAGE_DIR OUT_DIR}")"
out="$(realpath -m "${2:?usage: scripts/gpu-validate-budgets.sh STAGE_DIR OUT_DIR}")"
mkdir -p "$out"
failures=0
has() {  # NAME TEXT PATTERN (grep -E)
  if grep -qE -- "$3" <<<"$2"; then echo "PASS $1"; else echo "FAIL $1: no '$3'"; failures=$((failures + 1)); fi
}
lacks() {  # NAME TEXT PATTERN (grep -E)
  if grep -qE -- "$3" <<<"$2"; then echo "FAIL $1: '$3' is there"; failures=$((failures + 1)); else echo "PASS $1"; fi
}
check() {  # NAME EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then echo "PASS $1: $3"; else echo "FAIL $1: got '$3', expected '$2'"; failures=$((failures + 1)); fi
}

python3 -c "import pytest, torch" 2>/dev/null || { echo "FAIL this machine's python3 has no pytest or no torch"; exit 1; }

# The wheel, offline, into a folder of its own (python3 may itself be a venv).
rm -rf "$out/site"
python3 -m pip install -q --no-index --no-deps --target "$out/site" \
  "$stage"/lib/cudaleak/python/pytest_cudaleak-*-py3-none-any.whl
check "the wheel installs offline" 0 $?

suite="$src/tests/gpu/pytest/test_budgets_torch.py"
start=$(date +%s%N)
py=$(cd "$out" && PYTHONPATH="$out/site" "$stage/bin/cudaleak" run --print-summary false -o "$out/budgets.%p.json" -- \
     python3 -m pytest -rA -p no:cacheprovider "$suite" 2>&1)
status=$?
echo "pytest under cudaleak took $(( ($(date +%s%N) - start) / 1000000 )) ms"
echo "$py" >"$out/pytest.log"
echo "----- raw output -----"; echo "$py"; echo "----------------------"
check "pytest exit status (failures)" 1 "$status"
has "the test within its budget passes" "$py" "PASSED .*test_budgets_torch.py::test_elementwise_within_budget"
has "the test over its budget fails" "$py" "FAILED .*test_budgets_torch.py::test_workspace_over_budget"
has "its message: peak, device, budget, marker" "$py" \
    "cudaleak: test_workspace_over_budget used 96\.0 MiB of device memory at its peak on device 0, over its budget of 64\.0 MiB \(@pytest\.mark\.cuda_limit_memory\)"
has "its message names the test's own line" "$py" "^at .*test_budgets_torch\.py:24$"
has "its sites: what grew, with the test's frame" "$py" "MiB of device memory more than at the start, created by "
has "its stack reaches the test" "$py" "\[python\] in test_workspace_over_budget .*test_budgets_torch\.py:24"
has "a tensor served from PyTorch's cache still counts" "$py" \
    "cudaleak: test_cached_block_still_counts used 80\.0 MiB of device memory at its peak on device 0, over its budget of 64\.0 MiB"
has "the fixture that leaks fails its test at teardown" "$py" "ERROR .*test_budgets_torch.py::test_uses_a_leaking_fixture"
has "the fixture's message" "$py" \
    "cudaleak: fixture 'raw_buffer' \(function scope, set up for .*test_uses_a_leaking_fixture\) left 1 CUDA resource \(4194304 bytes\) alive after its teardown"
has "the fixture's line" "$py" "^at .*test_budgets_torch\.py:41$"
has "stacks stop at the test" "$py" "\(the rest of the stack is in the report\)"
lacks "no pytest or pluggy frames in the failures" "$py" "\[python\] in .*(pluggy|_pytest)/"
has "the session table" "$py" "cudaleak: the tests that used the most device memory \(peak\)"
has "the table's first row" "$py" "96\.0 MiB  .*test_workspace_over_budget"
has "the leak table" "$py" "4\.0 MiB  .*test_uses_a_leaking_fixture"
has "pytest's summary" "$py" "2 failed, 2 passed, 1 error"

# pytest --help lists the plugin's options.
help=$(PYTHONPATH="$out/site" python3 -m pytest --help 2>&1)
has "pytest --help lists --cuda-limit-memory" "$help" "--cuda-limit-memory=SIZE"
has "pytest --help lists the ini option" "$help" "cuda_limit_memory \(string\)"

# The run's own budget (CTest's LIMIT_MEMORY), on a sample with the static cudart.
run=$("$stage/bin/cudaleak" run --limit-memory 65536 --error-exitcode 3 -o "$out/limit.%p.json" -- \
      "$stage/samples/sample_clean" 2>&1)
check "limit_memory: the run over its budget exits 3" 3 $?
echo "$run" >"$out/limit.log"
has "limit_memory: its message" "$run" \
    "cudaleak: device memory peaked at [0-9.]+ [KM]iB above the start on device 0, over the budget of 64\.0 KiB \(limit_memory\)"
"$stage/bin/cudaleak" run --limit-memory 1048576 --error-exitcode 3 -o "$out/limit.%p.json" -- \
  "$stage/samples/sample_clean" >/dev/null 2>&1
check "limit_memory: the run within its budget exits 0" 0 $?

echo "$failures check(s) failed"
[ "$failures" -eq 0 ]
