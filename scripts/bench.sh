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

runs="${RUNS:-5}"
# Each side runs unpinned, then pinned to one CPU (`taskset -c $PIN_CPU`, 3
# by default), as many training jobs run; PIN_CPU= skips the pinned runs.
pin_cpu="${PIN_CPU-3}"
placements=(unpinned)
[ -n "$pin_cpu" ] && placements+=(pinned)
# stats NAME FILE: "median min max" of NAME's per-call times (column 3) over the runs.
stats() {
  awk -v n="$1" '$1==n {print $3}' "$2" 2>/dev/null | sort -n | awk '{v[NR]=$1} END {if (NR) print v[int((NR+1)/2)], v[1], v[NR]}'
}
for placement in "${placements[@]}"; do
  pin=() && [ "$placement" = pinned ] && pin=(taskset -c "$pin_cpu")
  echo
  echo "== per-call cost, $placement${pin[*]:+ (${pin[*]})}: ns per operation over $runs runs (each the median of"
  echo "   11 rounds): median [min-max]; added and ratios from the medians"
  # The runs alternate, so that a slow spell of the driver falls on every side.
  for depth in 8 32 64; do
    rm -f "$O/plain.$depth" "$O/leak.$depth" "$O/san.$depth"
    for ((i = 0; i < runs; ++i)); do
      "${pin[@]}" $P $depth >>"$O/plain.$depth" 2>&1
      "${pin[@]}" $L $P $depth >>"$O/leak.$depth" 2>&1
      [ "${SKIP_SANITIZER:-0}" = 1 ] || "${pin[@]}" $S $P $depth >>"$O/san.$depth" 2>&1
    done
  done
  printf "%-28s %5s %20s %20s %7s %6s %20s %6s\n" op depth plain cudaleak added ratio sanitizer ratio
  for depth in 8 32 64; do
    for name in $(awk '/^(cuda|thread_)/ && !seen[$1]++ {print $1}' "$O/plain.$depth"); do
      read -r pm pl ph <<<"$(stats "$name" "$O/plain.$depth")"
      read -r lm ll lh <<<"$(stats "$name" "$O/leak.$depth")"
      read -r sm sl sh <<<"$(stats "$name" "$O/san.$depth")"
      [ -n "${pm:-}" ] && [ -n "${lm:-}" ] || continue
      printf "%-28s %5s %20s %20s %7s %6s %20s %6s\n" "$name" "$depth" "$pm [$pl-$ph]" "$lm [$ll-$lh]" \
        "$((lm - pm))" "$(awk -v a="$lm" -v b="$pm" 'BEGIN{printf "%.2f", a/b}')" \
        "$([ -n "${sm:-}" ] && echo "$sm [$sl-$sh]" || echo -)" \
        "$([ -n "${sm:-}" ] && awk -v a="$sm" -v b="$pm" 'BEGIN{printf "%.2f", a/b}' || echo -)"
      unset pm lm sm
    done
  done
done

# best NAME FILE [COLUMN]: the lowest value of NAME's lines (column 3 by default)
best() { awk -v n="$1" -v c="${3:-3}" '$1==n && (b=="" || $c<b) {b=$c} END {print b}' "$2" 2>/dev/null; }

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
