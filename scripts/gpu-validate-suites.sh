#!/usr/bin/env bash
# Runs GPU validation suites one after another on a staged build, each with
# its own log and output folder, and prints one line per suite and a total.
# Exits non-zero when any suite failed. The suites are the scripts' names
# without "gpu-validate-" and ".sh" ("cases" is scripts/gpu-test.sh: every case in tests/cases);
# "unseen" and "reading" read the reports the earlier suites of the run
# wrote; "kinds" builds and runs NVIDIA's cuda-samples too when CUDA_SAMPLES
# names a checkout, which "context" needs; "whole" is scripts/gpu-validate.sh.
# Usage: scripts/gpu-validate-suites.sh STAGE_DIR OUT_DIR SUITE...
set -uo pipefail
cd "$(dirname "$0")/.."
stage="$(realpath "${1:?usage: scripts/gpu-validate-suites.sh STAGE_DIR OUT_DIR SUITE...}")"
out="${2:?usage: scripts/gpu-validate-suites.sh STAGE_DIR OUT_DIR SUITE...}"
shift 2
[ $# -gt 0 ] || { echo "gpu-validate-suites.sh: name at least one suite" >&2; exit 2; }
mkdir -p "$out"
out="$(realpath "$out")"
failed=0
for suite in "$@"; do
  work="$out/$suite"
  mkdir -p "$work"
  case "$suite" in
    cases) cmd=(scripts/gpu-test.sh "$stage" "$work") ;;
    unseen) cmd=(scripts/gpu-validate-unseen.sh "$stage" "$work" "$out") ;;
    kinds) cmd=(scripts/gpu-validate-kinds.sh "$stage" "$work" ${CUDA_SAMPLES:+"$(realpath "$CUDA_SAMPLES")"}) ;;
    context) cmd=(scripts/gpu-validate-context.sh "$stage" "$work" "$(realpath "${CUDA_SAMPLES:?context needs CUDA_SAMPLES}")") ;;
    reading) cmd=(scripts/gpu-validate-reading.sh "$stage" "$work" "$out") ;;
    whole) cmd=(scripts/gpu-validate.sh "$stage" "$work") ;;
    *) script="scripts/gpu-validate-$suite.sh"
       [ -x "$script" ] || { echo "gpu-validate-suites.sh: no suite '$suite' ($script)" >&2; exit 2; }
       cmd=("$script" "$stage" "$work") ;;
  esac
  start=$SECONDS
  "${cmd[@]}" > "$out/$suite.log" 2>&1
  rc=$?
  printf '%-12s %s in %3d s  (%s)\n' "$suite" "$([ $rc -eq 0 ] && echo passed || echo "FAILED rc=$rc")" \
    $((SECONDS - start)) "$(grep -E -i 'passed|failed|checks' "$out/$suite.log" | tail -1 | cut -c1-90)"
  [ $rc -eq 0 ] || { failed=$((failed + 1)); tail -15 "$out/$suite.log" | sed 's/^/    /'; }
done
echo "suites: $# run, $failed failed"
[ $failed -eq 0 ]
