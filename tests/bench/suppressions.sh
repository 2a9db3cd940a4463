#!/usr/bin/env bash
# What large suppression files cost, under the simulated GPU: a generated file
# of N rules (none of which matches, so every rule would be tried) against a
# program with 1,000 leak groups (bench_many_allocations 1000 spread).
# Prints, for each size:
#   compile   the launcher's one parse (compiled_rules.h), in the launcher;
#   start     wall time of a process that never uses CUDA (/bin/true) under
#             the preload, with the rules given (no report: nothing is read);
#   exit      time to apply the rules at the exit report, and its peak RSS,
#             under `cudaleak run` (mapped) and plain LD_PRELOAD (parsed).
# Numbers, not pass/fail (docs/performance.md).
# Usage: tests/bench/suppressions.sh [BUILD_DIR] [RULES...]
set -euo pipefail
cd "$(dirname "$0")/../.."
B="$(realpath "${1:-build}")"
shift $(( $# > 0 ? 1 : 0 ))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 200000 2000000)
P="$B/tests/bench/bench_many_allocations"
[ -x "$P" ] || { echo "suppressions.sh: $P not built (ninja -C $B bench_many_allocations)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sim="$B/lib/cudaleak/simcuda"
lib="${CUDALEAK_LIBRARY:-$B/lib/libcudaleak.so}"  # another build's library, to compare

ms() { echo $(( $(date +%s%N) / 1000000 )); }
# The "exit report ... in N ms" line of a verbose run, and the peak RSS (KiB) from /usr/bin/time.
report_ms() { sed -n 's/.*exit report of .* in \([0-9]*\) ms.*/\1/p' "$1" | head -1; }
peak_kib() { sed -n 's/.*Maximum resident set size (kbytes): //p' "$1" | head -1; }

printf "%-9s %8s %10s %10s %12s %12s %12s %12s\n" rules "MB" "compile ms" "start ms" "exit ms run" "RSS MiB run" "exit ms plain" "RSS MiB plain"
for n in "${sizes[@]}"; do
  supp="$work/rules.$n.supp"
  awk -v n="$n" 'BEGIN { for (i = 0; i < n; ++i) printf "leak:ns_%d::Widget::unrelated_function_%d kind:device\n", i % 97, i }' >"$supp"
  mb=$(du -m "$supp" | cut -f1)

  # The launcher's one parse, alone: a run of /bin/true, which never reports.
  t0=$(ms); "$B/bin/cudaleak" run --simulated-gpu --suppressions "$supp" -- /bin/true; t1=$(ms)
  compile=$((t1 - t0))
  t0=$(ms); LD_PRELOAD="$lib" CUDALEAK_OPTIONS="suppressions=$supp" /bin/true; t1=$(ms)
  start=$((t1 - t0))

  "$B/bin/cudaleak" run --simulated-gpu --verbose --print-summary false -o "$work/run.json" \
    --suppressions "$supp" -- /usr/bin/time -v "$P" 1000 spread >/dev/null 2>"$work/run.err"
  LD_PRELOAD="$lib" LD_LIBRARY_PATH="$sim" \
    CUDALEAK_OPTIONS="verbose=1:print_summary=0:output=$work/plain.json:suppressions=$supp" \
    /usr/bin/time -v "$P" 1000 spread >/dev/null 2>"$work/plain.err"
  grep -q "mapped from the run's compiled file" "$work/run.err" || { echo "suppressions.sh: the run did not map the compiled rules" >&2; exit 1; }
  printf "%-9s %8s %10s %10s %12s %12s %12s %12s\n" "$n" "$mb" "$compile" "$start" "$(report_ms "$work/run.err")" \
    "$(( $(peak_kib "$work/run.err") / 1024 ))" "$(report_ms "$work/plain.err")" "$(( $(peak_kib "$work/plain.err") / 1024 ))"
done
