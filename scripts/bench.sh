#!/usr/bin/env bash
# Overhead benchmarks on a GPU, side by side: plain, under cudaleak, under
# compute-sanitizer --leak-check full. Prints tables of medians; writes the
# raw numbers to OUT_DIR. Usage: scripts/bench.sh [BUILD_DIR] [OUT_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
B="$(realpath "${1:-build}")"
O="$(realpath -m "${2:-build/bench}")"
mkdir -p "$O"
cuda="${CUDA_ROOT:-/usr/local/cuda}"
export LD_LIBRARY_PATH="$cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
L="$B/bin/cudaleak run -o $O/bench.%p.json --print-summary false --"
S="$cuda/bin/compute-sanitizer --leak-check full --print-level error"
P="$B/tests/bench/bench_api_costs"
echo "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); $("$cuda/bin/nvcc" --version | tail -1)"

runs="${RUNS:-3}"
# PIN_CPUS=2-5: every side runs under `taskset -c 2-5`, so that the scheduler
# cannot place one process's threads far from another's (plain driver times
# moved by 1.5-2x between processes on the H100 machine).
pin=()
[ -n "${PIN_CPUS:-}" ] && pin=(taskset -c "$PIN_CPUS") && echo "every side pinned to CPUs $PIN_CPUS"
echo "== per-call cost (ns; each run's median of 11 rounds, best of $runs runs): plain / cudaleak / compute-sanitizer"
# The runs alternate, so that a slow spell of the driver falls on every side.
for depth in 8 32 64; do
  rm -f "$O/plain.$depth" "$O/leak.$depth" "$O/san.$depth"
  for ((i = 0; i < runs; ++i)); do
    "${pin[@]}" $P $depth >>"$O/plain.$depth" 2>&1
    "${pin[@]}" $L $P $depth >>"$O/leak.$depth" 2>&1
    [ "${SKIP_SANITIZER:-0}" = 1 ] || "${pin[@]}" $S $P $depth >>"$O/san.$depth" 2>&1
  done
done
# best NAME FILE [COLUMN]: the lowest value of NAME's lines (column 3 by default)
best() { awk -v n="$1" -v c="${3:-3}" '$1==n && (b=="" || $c<b) {b=$c} END {print b}' "$2" 2>/dev/null; }
printf "%-28s %5s %10s %10s %8s %12s %8s\n" op depth plain cudaleak ratio sanitizer ratio
for depth in 8 32 64; do
  for name in $(awk '/^cuda/ && !seen[$1]++ {print $1}' "$O/plain.$depth"); do
    plain=$(best "$name" "$O/plain.$depth")
    leak=$(best "$name" "$O/leak.$depth")
    san=$(best "$name" "$O/san.$depth")
    printf "%-28s %5s %10s %10s %8s %12s %8s\n" "$name" "$depth" "$plain" "$leak" \
      "$(awk -v a="$leak" -v b="$plain" 'BEGIN{printf "%.2f", a/b}')" "${san:--}" \
      "$( [ -n "$san" ] && awk -v a="$san" -v b="$plain" 'BEGIN{printf "%.2f", a/b}' || echo -)"
  done
done

echo "== tracker memory and exit report with 1,000,000 live allocations"
$P memory 1000000 | sed 's/^/plain:    /'
$B/bin/cudaleak run --verbose true -o "$O/million.%p.json" --print-summary false -- $P memory 1000000 2>&1 |
  grep -E "live_allocations|report of" | sed 's/^/cudaleak: /'

echo "== start-up cost in a process that never uses CUDA (200 runs of /bin/true)"
t() { local s e; s=$(date +%s%N); for _ in $(seq 200); do "$@" >/dev/null; done; e=$(date +%s%N); echo $(( (e - s) / 200000 )); }
plain_us=$(t /bin/true)
preload_us=$(LD_PRELOAD="$B/lib/libcudaleak.so" t /bin/true)
echo "plain ${plain_us} us, with libcudaleak.so ${preload_us} us per run"

if python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
  echo "== symbolizing in a PyTorch process: an out-of-memory report, then the exit report (ms)"
  $B/bin/cudaleak run --verbose true -o "$O/symbols.%p.%n.json" -- python3 tests/gpu/python/scenario_fragmentation.py \
    2>&1 >/dev/null | grep -E "report of|symbols of" | sed 's/^/cudaleak: /'

  echo "== PyTorch training step (ms, median of 240 steps; runs alternate, best of $runs)"
  rm -f "$O/torch.plain" "$O/torch.leak"
  for ((i = 0; i < runs; ++i)); do
    python3 tests/gpu/torch_bench.py 300 >>"$O/torch.plain"
    $L python3 tests/gpu/torch_bench.py 300 >>"$O/torch.leak"
  done
  for side in plain leak; do
    echo "$side: $(best torch_step_ms "$O/torch.$side" 2)"
  done
fi
