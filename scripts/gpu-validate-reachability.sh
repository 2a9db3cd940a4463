#!/usr/bin/env bash
# Real-GPU checks of lost versus still reachable (docs/ci.md#lost-or-still-reachable):
# small CUDA programs built with nvcc, with the shared and the static cudart
# (-cudart static: its globals sit in the executable and must not count as
# the program's references), a cuda-samples-like program keeping streams and
# events in globals, and a PyTorch process. Asserts what the text says and
# prints each scan's bytes and time. Exits non-zero when a check fails.
# Usage: scripts/gpu-validate-reachability.sh [BUILD_DIR] [WORK_DIR]
# (BUILD_DIR: a build or a scripts/stage-build.sh copy of one)
set -uo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
B="$(realpath "${1:-build}")"
W="$(realpath -m "${2:-build/gpu-reachability}")"
mkdir -p "$W"
NVCC="${CUDA_ROOT:-/usr/local/cuda}/bin/nvcc"
PY="${PYTHON:-/opt/torch/.venv/bin/python}"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
failures=0
check() {  # NAME EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then echo "PASS $1: $3"; else echo "FAIL $1: got '$3', expected '$2'"; failures=$((failures + 1)); fi
}
has() {  # NAME TEXT PATTERN (grep -E)
  if grep -qE -- "$3" <<<"$2"; then echo "PASS $1"; else echo "FAIL $1: no '$3' in:"; echo "$2" | tail -25; failures=$((failures + 1)); fi
}
hasnt() {  # NAME TEXT PATTERN
  if grep -qE -- "$3" <<<"$2"; then echo "FAIL $1: '$3' in:"; echo "$2" | grep -E -- "$3"; failures=$((failures + 1)); else echo "PASS $1"; fi
}
scan() {  # JSON: the scan's numbers as the report keeps them
  /usr/bin/python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r.get("reachability")
if not s:
    print("  scan: none"); sys.exit(0)
by = {}
for g in r["leaks"]:
    k = g.get("reachability", "-")
    by[k] = by.get(k, 0) + g["count"]
print("  scan: %.1f MiB in %.2f ms, %d roots, %d thread stacks (%d unseen), %d heap blocks, complete=%s; resources: %s" % (
    s["bytes_scanned"] / 2**20, s["duration_ns"] / 1e6, s["roots"], s["threads"], s.get("threads_unseen", 0),
    s["heap_blocks"], s["complete"], by))
PY
}
run() { "$B/bin/cudaleak" run "$@"; }

for cudart in shared static; do
  "$NVCC" -g -cudart "$cudart" -o "$W/lost_and_held_$cudart" tests/cases/reachability/lost_and_held.cu || exit 2
  out=$(run -o "$W/held_$cudart.json" -- "$W/lost_and_held_$cudart" 2>&1)
  echo "$out"
  has "$cudart cudart: a pointer in a returned function's local is definitely lost" "$out" \
    "definitely lost: 4\.0 MiB of device memory in 1 allocation never freed, created by cudaMalloc on device 0:"
  has "$cudart cudart: a forgotten event is definitely lost" "$out" "definitely lost: 1 event never destroyed, created by cudaEventCreate(WithFlags)? on device 0:"
  has "$cudart cudart: held by a global, named" "$out" \
    "2\.0 MiB of device memory in 1 allocation, created by cudaMalloc at main \(lost_and_held\.cu:[0-9]+\) on device 0, referenced from g_cache \(lost_and_held_$cudart\)"
  has "$cudart cudart: held through a heap object" "$out" "referenced from a heap block reached from g_holder \(lost_and_held_$cudart\)"
  has "$cudart cudart: the totals" "$out" "definitely lost: 4\.0 MiB in 2 resources; still reachable: 3\.0 MiB in 4 resources"
  scan "$W/held_$cudart.json"
  run --error-exitcode 9 -o "$W/held_gate_$cudart.json" -- "$W/lost_and_held_$cudart" >/dev/null 2>&1
  check "$cudart cudart: the lost ones fail the default gate" 9 $?
done

"$NVCC" -g -cudart shared -o "$W/only_held" tests/cases/reachability/gate_leak_kinds.cu || exit 2
out=$(run --error-exitcode 9 -o "$W/only_held.json" -- "$W/only_held" 2>&1)
check "only still reachable: the default gate passes" 0 $?
has "only still reachable: said so" "$out" "no CUDA resources leaked \(apart from still reachable ones, listed below\)"
scan "$W/only_held.json"
run --error-exitcode 9 --leak-kinds all -o "$W/only_held_all.json" -- "$W/only_held" >/dev/null 2>&1
check "only still reachable: leak_kinds=all fails" 9 $?

"$NVCC" -g -cudart static -o "$W/streams" tests/gpu/reachability/streams_in_globals.cu || exit 2
out=$(run -o "$W/streams.json" -- "$W/streams" 2>&1)
echo "$out"
has "samples-like: the per-step events are definitely lost" "$out" "definitely lost: 8 events never destroyed, created by cudaEventCreate(WithFlags)? on device 0:"
has "samples-like: streams in a global array" "$out" "4 streams, created by cudaStreamCreate(WithFlags)? at main \(streams_in_globals\.cu:[0-9]+\) on device 0, referenced from g_streams \(streams\)"
has "samples-like: events in a global array" "$out" "4 events, created by cudaEventCreate(WithFlags)? at main .* referenced from g_done \(streams\)"
has "samples-like: buffers through the pipeline object" "$out" "referenced from a heap block reached from g_pipeline \(streams\)"
scan "$W/streams.json"

if [ -x "$PY" ] && "$PY" -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
  out=$(run --error-exitcode 9 -o "$W/torch.json" -- "$PY" tests/gpu/reachability/torch_reachability.py 2>&1)
  status=$?
  echo "$out" | tail -40
  has "torch: the program ran" "$out" "torch program done"
  # reachability=auto leaves a Python process unscanned: its objects, not raw
  # words, hold device memory, so every live resource counts, with no class.
  hasnt "torch: no scan by default in a Python process" "$out" "definitely lost|still reachable"
  has "torch: the dropped raw cudaMalloc is listed" "$out" "8\.0 MiB of device memory in 1 allocation never freed, created by cudaMalloc"
  has "torch: the user's line is named" "$out" "raw_malloc (\(|/.*/)torch_reachability.py:[0-9]+"
  check "torch: the default gate fails on the raw allocations" 9 "$status"
  hasnt "torch: the caching allocator's segments are no leak" "$out" "PyTorch caching allocator.*definitely lost"
  scan "$W/torch.json"
  # Asked for, the scan runs there too; the dropped pointer may read as lost
  # or, through a stale copy in malloc's heap, as still reachable.
  out=$(run --reachability true -o "$W/torch_scanned.json" -- "$PY" tests/gpu/reachability/torch_reachability.py 2>&1)
  has "torch: --reachability true scans a Python process" "$out" "definitely lost: .*; still reachable: "
  scan "$W/torch_scanned.json"
else
  echo "SKIP torch: $PY has no CUDA torch"
fi

echo "== $failures failure(s)"
[ "$failures" = 0 ]
