#!/usr/bin/env bash
# cudaleak's own cost per CUDA call, measured without a GPU: the simulated
# driver answers in a few hundred nanoseconds, so what cudaleak adds stands
# out. Runs tests/bench/api_costs.cu (shared cudart) plain and under
# `cudaleak run --simulated-gpu`, alternately, RUNS times at each depth, and
# prints for each operation the best (lowest) per-call time of each side and
# the difference. Numbers, not pass/fail: compare them with the targets in
# docs/performance.md.
# Usage: tests/bench/simulated.sh [BUILD_DIR] [RUNS] [DEPTHS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
B="$(realpath "${1:-build}")"
runs="${2:-5}"
shift $(( $# > 2 ? 2 : $# ))
depths=("$@")
[ ${#depths[@]} -gt 0 ] || depths=(8 32 64)
P="$B/tests/bench/bench_api_costs_shared"
[ -x "$P" ] || { echo "simulated.sh: $P not built (ninja -C $B bench_api_costs_shared)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for depth in "${depths[@]}"; do
  for ((i = 0; i < runs; ++i)); do
    LD_LIBRARY_PATH="$B/lib/cudaleak/simcuda${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$P" "$depth" >>"$work/plain.$depth"
    "$B/bin/cudaleak" run --simulated-gpu -o "$work/r.%p.json" --print-summary false -- "$P" "$depth" \
      >>"$work/traced.$depth"
  done
done

echo "cudaleak's cost under the simulated GPU: ns per operation, best of $runs runs ($(nproc) CPUs)"
printf "%-28s %5s %8s %8s %8s\n" operation depth plain traced added
for depth in "${depths[@]}"; do
  awk -v depth="$depth" '
    FNR == 1 { side++ }
    $1 !~ /^(cuda|thread_)/ { next }
    { best[side, $1] = (best[side, $1] == "" || $3 < best[side, $1]) ? $3 : best[side, $1]; if (side == 1 && !seen[$1]++) order[n++] = $1 }
    END { for (i = 0; i < n; i++) { op = order[i]; printf "%-28s %5s %8d %8d %8d\n", op, depth, best[1, op], best[2, op], best[2, op] - best[1, op] } }
  ' "$work/plain.$depth" "$work/traced.$depth"
done
