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
echo "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); $(nproc) CPUs"

configs=(${CONFIGS:-1: 1:3 4: 4:2-5 16:})
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
for cpus in "" 3; do
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
      printf " %26s" "$(awk -v n="$op" '$1==n {print $3}' "$out/ablate.$side" | sort -n |
        awk '{v[NR]=$1} END {if (NR) printf "%d [%d-%d]", v[int((NR+1)/2)], v[1], v[NR]}')"
    done
    echo
  done
done
rm -f "$out"/r.*.json
