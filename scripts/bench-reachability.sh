#!/usr/bin/env bash
# What the reachability scan costs at exit, under the simulated GPU: a program
# with HEAP_MIB of malloc'd host memory in BLOCKS blocks, all reachable from a
# global, and ALLOCATIONS device allocations, half of them kept in a global
# (tests/bench/big_heap.cu). Prints the scan's bytes and time (the report's
# "reachability" member) with the scan on and off, and the whole run's time.
# Usage: scripts/bench-reachability.sh [HEAP_MIB] [BLOCKS] [ALLOCATIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
heap="${1:-1536}" blocks="${2:-10000}" allocations="${3:-10000}"
out=build/bench-reachability
mkdir -p "$out"
B=build/bin/cudaleak
P=build/tests/bench/bench_big_heap
[ -x "$P" ] || { echo "build the bench_big_heap target first (ninja -C build bench_big_heap)" >&2; exit 2; }
export CUDALEAK_SIM_MEMORY=64GiB
for reach in true false; do
  echo "== reachability=$reach"
  /usr/bin/time -f "run: %e s, %M KiB max RSS" $B run --simulated-gpu --verbose true --reachability "$reach" \
    --print-summary false -o "$out/$reach.json" -- $P "$heap" "$blocks" "$allocations" 2>&1 |
    grep -E "heap .* MiB|report of|reachability:|^run:"
done
/usr/bin/python3 - "$out/true.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r.get("reachability", {})
kinds = {}
for g in r["leaks"]:
    k = g.get("reachability", "not_scanned")
    kinds[k] = kinds.get(k, 0) + g["count"]
print("scan: %.1f MiB in %.1f ms, %d roots, %d heap blocks followed, complete=%s" % (
    s.get("bytes_scanned", 0) / 2**20, s.get("duration_ns", 0) / 1e6, s.get("roots", 0), s.get("heap_blocks", 0),
    s.get("complete")))
print("resources by class:", kinds)
PY
