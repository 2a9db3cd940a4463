#!/usr/bin/env bash
# Where cudaleak's added time goes on a GPU's host: tests/bench/api_costs.cu
# at depth 32 run plain, under cudaleak, and under a cudaleak built with
# -DCUDALEAK_PHASE_TIMING=ON (per-phase and per-entry-point cycle counts at
# exit), with 1, 4 and 16 threads, unpinned and pinned (one thread to CPU 3,
# four to CPUs 2-5; CONFIGS="THREADS:CPUS ..." picks others). Plain and
# cudaleak alternate RUNS times; each line gives the best run. Then each part
# of the work left out in turn (below). Numbers for docs/performance.md, not
# pass/fail.
# Usage: scripts/gpu-bench-phases.sh STAGE PHASE_LIBCUDALEAK_SO OUT_DIR
set -uo pipefail
stage="$(realpath "${1:?usage: gpu-bench-phases.sh STAGE PHASE_LIB OUT}")"
phase_lib="$(realpath "${2:?usage: gpu-bench-phases.sh STAGE PHASE_LIB OUT}")"
out="$(realpath -m "${3:?usage: gpu-bench-phases.sh STAGE PHASE_LIB OUT}")"
runs="${RUNS:-3}"
depth="${DEPTH:-32}"
mkdir -p "$out"
cuda="${CUDA_ROOT:-/usr/local/cuda}"
export LD_LIBRARY_PATH="$cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# The phase-timing library beside a copy of the launcher, which preloads the
# library of its own ../lib.
timed="$out/phase-stage"
rm -rf "$timed" && cp -a "$stage" "$timed" && cp "$phase_lib" "$timed/lib/libcudaleak.so"
P="$stage/tests/bench/bench_api_costs"
# spread FILE OP [COLUMN] [FIELDS]: "median [min-max]" of OP's values in
# COLUMN (3) over FILE's lines (those with FIELDS fields when given).
spread() {
  awk -v n="$2" -v c="${3:-3}" -v f="${4:-0}" '$1==n && (f==0 || NF==f) {print $c}' "$1" | sort -n |
    awk '{v[NR]=$1} END {if (NR) printf "%d [%d-%d]", v[int((NR+1)/2)], v[1], v[NR]}'
}
echo "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); $(nproc) CPUs"

configs=(${CONFIGS:-1: 1:3 4: 4:2-5 16:})
[ "${CONFIGS:-}" = none ] && configs=()
for config in "${configs[@]}"; do
  threads="${config%%:*}" cpus="${config#*:}"
  pin=() && [ -n "$cpus" ] && pin=(taskset -c "$cpus")
  tag="t${threads}${cpus:+.pinned}"
  rm -f "$out/$tag".*
  for ((i = 0; i < runs; ++i)); do
    "${pin[@]}" "$P" "$depth" 7 "$threads" >>"$out/$tag.plain" 2>&1
    "${pin[@]}" "$stage/bin/cudaleak" run -o "$out/r.%p.json" --print-summary false -- "$P" "$depth" 7 "$threads" \
      >>"$out/$tag.leak" 2>&1
  done
  "${pin[@]}" "$timed/bin/cudaleak" run -o "$out/r.%p.json" --print-summary false -- "$P" "$depth" 7 "$threads" \
    >"$out/$tag.phases" 2>&1
  echo
  echo "== $threads thread(s)${cpus:+, pinned to CPUs $cpus}: ns per operation, best of $runs (plain, cudaleak, added)"
  awk '
    FNR == 1 { side++ }
    $1 ~ /^cuda/ { if (best[side, $1] == "" || $3 < best[side, $1]) best[side, $1] = $3; if (side == 1 && !seen[$1]++) order[n++] = $1 }
    $1 == "process" { sw[side] = $0 }
    END {
      for (i = 0; i < n; i++) { op = order[i]; printf "%-28s %8d %8d %8d\n", op, best[1, op], best[2, op], best[2, op] - best[1, op] }
      print "plain:    " sw[1]; print "cudaleak: " sw[2]
    }' "$out/$tag.plain" "$out/$tag.leak"
  echo "-- phases (timing build; its own clock reads add about 10 ns a phase)"
  grep -E '^(phase|hook) ' "$out/$tag.phases"
  grep -E '^cuda(Event|Stream|MallocAsync|Malloc_256)' "$out/$tag.phases" | sed 's/^/timing build: /'
done

# Each part left out in turn (CUDALEAK_PHASE_SKIP, timing off), one thread,
# unpinned and pinned to CPU 3: what the pair costs without the part,
# including what the part does to the driver's own time; touch:N adds N
# pages to what each record touches (a larger footprint). Medians of RUNS
# alternating runs [min-max].
sides=(${SIDES:-plain full timing-build skip:clock skip:capture skip:registry skip:track touch:16 touch:64})
ablate_cpus=("" 3)
[ "${SIDES:-}" = none ] && ablate_cpus=()
for cpus in "${ablate_cpus[@]}"; do
  pin=() && [ -n "$cpus" ] && pin=(taskset -c "$cpus")
  rm -f "$out"/ablate.*
  for ((i = 0; i < runs; ++i)); do
    for side in "${sides[@]}"; do
      case "$side" in
        plain) "${pin[@]}" "$P" "$depth" 7 ;;
        full) "${pin[@]}" "$stage/bin/cudaleak" run -o "$out/r.%p.json" --print-summary false -- "$P" "$depth" 7 ;;
        touch:*) CUDALEAK_PHASES=off CUDALEAK_PHASE_TOUCH="${side#touch:}" "${pin[@]}" "$timed/bin/cudaleak" run \
             -o "$out/r.%p.json" --print-summary false -- "$P" "$depth" 7 ;;
        *) CUDALEAK_PHASES=off CUDALEAK_PHASE_SKIP="${side#skip:}" "${pin[@]}" "$timed/bin/cudaleak" run \
             -o "$out/r.%p.json" --print-summary false -- "$P" "$depth" 7 ;;
      esac >>"$out/ablate.$side" 2>&1
    done
  done
  echo
  echo "== parts left out, one thread${cpus:+, pinned to CPU $cpus}: ns per operation, median [min-max] of $runs runs"
  printf "%-16s" side; for op in cudaEventCreate+Destroy cudaStreamCreate+Destroy cudaMallocAsync+FreeAsync cudaMalloc_256B cudaFree_256B; do printf " %26s" "$op"; done; echo
  for side in "${sides[@]}"; do
    printf "%-16s" "$side"
    for op in cudaEventCreate+Destroy cudaStreamCreate+Destroy cudaMallocAsync+FreeAsync cudaMalloc_256B cudaFree_256B; do
      printf " %26s" "$(spread "$out/ablate.$side" "$op")"
    done
    echo
  done
done
rm -f "$out"/r.*.json

# Tracked and passed-through rounds alternating in one process
# (BENCH_ALTERNATE, the phase build's switch, timers off): what tracking adds
# without the spread between processes, with every part, then with one part
# left out or more pages touched (ALTERNATE_PARTS). Median [min-max] over RUNS
# processes of each process's difference of medians; unpinned for the whole
# tracking, pinned to CPU 3 for every variant.
parts=(${ALTERNATE_PARTS:-all skip:clock skip:capture skip:registry touch:16})
for variant in unpinned:all $(for p in "${parts[@]}"; do echo "pinned:$p"; done); do
  placement="${variant%%:*}" part="${variant#*:}"
  pin=() && [ "$placement" = pinned ] && pin=(taskset -c 3)
  env=(CUDALEAK_PHASES=off BENCH_ALTERNATE=1)
  case "$part" in
    skip:*) env+=(CUDALEAK_PHASE_SKIP="${part#skip:}") ;;
    touch:*) env+=(CUDALEAK_PHASE_TOUCH="${part#touch:}") ;;
  esac
  rm -f "$out/alternate"
  for ((i = 0; i < runs; ++i)); do
    env "${env[@]}" "${pin[@]}" "$timed/bin/cudaleak" run -o "$out/r.%p.json" \
      --print-summary false -- "$P" "$depth" 7 >>"$out/alternate" 2>&1
  done
  echo
  echo "== tracked ($part) against passed through in one process, $placement${pin[*]:+ (${pin[*]})}: ns per operation, median [min-max] of $runs runs"
  printf "%-28s %20s %20s %20s\n" op tracked passed-through added
  for op in $(awk '/^cuda/ && NF == 5 && !seen[$1]++ {print $1}' "$out/alternate"); do
    printf "%-28s" "$op"
    for col in 3 4 5; do
      printf " %20s" "$(spread "$out/alternate" "$op" "$col" 5)"
    done
    echo
  done
done
rm -f "$out"/r.*.json
