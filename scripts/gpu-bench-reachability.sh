#!/usr/bin/env bash
# What the reachability scan costs at exit on a real GPU, numbers not
# verdicts (the checks are the cases of tests/cases/reachability,
# scripts/gpu-test.sh STAGE OUT cases/reachability/): each scan's bytes,
# time, roots, threads and heap blocks, and the resources by class, for
# lost_and_held.cu (shared and static cudart), gate_leak_kinds.cu,
# streams_in_globals.cu (static cudart) and a PyTorch process scanned on
# request (--reachability true; a Python process is not scanned by default).
# Usage: scripts/gpu-bench-reachability.sh STAGE_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
stage="$(realpath "${1:?usage: scripts/gpu-bench-reachability.sh STAGE_DIR}")"
tmp=$(mktemp -d)
nvcc="${CUDA_ROOT:-/usr/local/cuda}/bin/nvcc"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
scan() {  # NAME JSON: the scan's numbers as the report keeps them
  python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[2]))
s = r.get("reachability")
if not s:
    print("%s: no scan" % sys.argv[1]); sys.exit(0)
by = {}
for g in r["leaks"]:
    k = g.get("reachability", "-")
    by[k] = by.get(k, 0) + g["count"]
print("%s: %.1f MiB in %.2f ms, %d roots, %d thread stacks (%d unseen), %d heap blocks, complete=%s; resources: %s" % (
    sys.argv[1], s["bytes_scanned"] / 2**20, s["duration_ns"] / 1e6, s["roots"], s["threads"],
    s.get("threads_unseen", 0), s["heap_blocks"], s["complete"], by))
PY
}
run() {  # NAME PROGRAM [ARGS...] under cudaleak, then its scan
  local name=$1; shift
  "$stage/bin/cudaleak" run --print-summary false -o "$tmp/$name.json" "$@" >/dev/null 2>&1
  scan "$name" "$tmp/$name.json"
}
"$nvcc" -g -cudart shared -o "$tmp/lost_and_held_shared" tests/cases/reachability/lost_and_held.cu
"$nvcc" -g -cudart static -o "$tmp/lost_and_held_static" tests/cases/reachability/lost_and_held.cu
"$nvcc" -g -cudart shared -o "$tmp/only_held" tests/cases/reachability/gate_leak_kinds.cu
"$nvcc" -g -cudart static -o "$tmp/streams" tests/cases/reachability/streams_in_globals.cu
run lost_and_held_shared -- "$tmp/lost_and_held_shared"
run lost_and_held_static -- "$tmp/lost_and_held_static"
run gate_leak_kinds -- "$tmp/only_held"
run streams_in_globals -- "$tmp/streams"
run torch_scanned --reachability true -- python3 tests/cases/reachability/torch_reachability.py
rm -rf "$tmp"
