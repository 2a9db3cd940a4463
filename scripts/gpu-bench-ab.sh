#!/usr/bin/env bash
# Two cudaleak libraries built with -DCUDALEAK_PHASE_TIMING=ON (a change's
# before and after) compared where processes of one kind differ by up to 2x:
# each process of tests/bench/api_costs.cu (BENCH_ALTERNATE=1) switches
# tracking on and off between rounds and prints per operation the ns tracking
# added within that process; the two libraries alternate RUNS times (9),
# unpinned and pinned to CPU 3. Prints per operation and library the median
# [min-max] of the added ns and the median pass-through time. Numbers for
# docs/performance.md, not pass/fail.
# Usage: scripts/gpu-bench-ab.sh STAGE BEFORE_LIB AFTER_LIB OUT_DIR
set -uo pipefail
usage="usage: gpu-bench-ab.sh STAGE BEFORE_LIB AFTER_LIB OUT_DIR"
stage="$(realpath "${1:?$usage}")"
before="$(realpath "${2:?$usage}")"
after="$(realpath "${3:?$usage}")"
out="$(realpath -m "${4:?$usage}")"
mkdir -p "$out"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# Each library beside a copy of the launcher, which preloads its own ../lib.
for v in before after; do
  rm -rf "$out/$v" && cp -a "$stage" "$out/$v"
done
cp "$before" "$out/before/lib/libcudaleak.so" && cp "$after" "$out/after/lib/libcudaleak.so"
P="$stage/tests/bench/bench_api_costs"
for pin in "" "taskset -c 3"; do
  tag=$([ -n "$pin" ] && echo pinned || echo unpinned)
  rm -f "$out/$tag".*.txt
  for ((i = 0; i < ${RUNS:-9}; ++i)); do
    for v in before after; do
      CUDALEAK_PHASES=off BENCH_ALTERNATE=1 $pin "$out/$v/bin/cudaleak" run -o "$out/r.%p.json" --print-summary false -- \
        "$P" "${DEPTH:-32}" 7 >>"$out/$tag.$v.txt" 2>&1
    done
  done
  echo "== $tag: ns added by tracking within one process, median [min-max] of ${RUNS:-9}; pass-through median"
  for op in cudaEventCreate+Destroy cudaStreamCreate+Destroy cudaMallocAsync+FreeAsync cudaMalloc_256B cudaFree_256B; do
    for v in before after; do
      f="$out/$tag.$v.txt"
      printf "%-28s %-7s %-22s pass %s\n" "$op" "$v" \
        "$(awk -v n="$op" '$1==n && NF==5 {print $5}' "$f" | sort -n |
           awk '{v[NR]=$1} END {if (NR) printf "%d [%d-%d]", v[int((NR+1)/2)], v[1], v[NR]}')" \
        "$(awk -v n="$op" '$1==n && NF==5 {print $4}' "$f" | sort -n | awk '{v[NR]=$1} END {if (NR) print v[int((NR+1)/2)]}')"
    done
  done
done
rm -rf "$out/before" "$out/after" "$out"/r.*.json
