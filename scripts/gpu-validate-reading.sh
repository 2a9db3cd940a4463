#!/usr/bin/env bash
# Real-GPU check of the reader and the launcher's paths: every report the
# other GPU validations wrote is read back (tests/gpu/check_reading.py), and a
# relative -o reaches a program that changes directory. Exits non-zero on a
# wrong result. Usage: scripts/gpu-validate-reading.sh STAGE_DIR OUT_DIR REPORT_DIR...
set -uo pipefail
cd "$(dirname "$0")/.."
stage="$(realpath "$1")"
out="$(realpath -m "$2")"
shift 2
mkdir -p "$out"
status=0
python3 tests/gpu/check_reading.py "$stage/bin/cudaleak" "$out/read" "$@" || status=1
# A relative report path is the launcher's, whatever directory the program runs in.
rel="$out/relative"
rm -rf "$rel" && mkdir -p "$rel"
(cd "$rel" && "$stage/bin/cudaleak" run -o reports/r.%p.json -- /bin/sh -c "cd / && exec $stage/samples/sample_loop_leak" \
  >/dev/null 2>&1)
count=$(ls "$rel/reports" 2>/dev/null | wc -l)
if [ "$count" = 1 ] && grep -q '"leaked_count": 50' "$rel"/reports/*.json; then
  echo "PASS relative -o: one report in reports/ with 50 leaks"
else
  echo "FAIL relative -o: $count reports in $rel/reports"
  status=1
fi
exit $status
