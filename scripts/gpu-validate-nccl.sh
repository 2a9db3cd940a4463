#!/usr/bin/env bash
# NCCL communicators made by PyTorch, on one GPU (one rank, a process group
# over NCCL): while they are alive a snapshot (SIGUSR1) reports each
# communicator as a library handle created by ncclCommInitRankConfig (a new
# group of the same ranks: by ncclCommSplit or another init), holding NCCL's
# own vmm, pinned memory, streams and events, at the user's line; at exit,
# whether or not destroy_process_group was called, PyTorch 2.11 has destroyed
# or aborted them and the exit report holds nothing of NCCL's.
# Asserts; exits non-zero on a wrong result.
# Usage: scripts/gpu-validate-nccl.sh [BUILD_DIR] [WORK_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
B="$(realpath "${1:-build}")"
W="$(realpath -m "${2:-build/gpu-nccl}")"
rm -rf "$W"; mkdir -p "$W"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
script="$(pwd)/tests/gpu/python/nccl_single_rank.py"
port=29531
for mode in "keep eager snapshot" "keep eager split snapshot" "destroy" "keep"; do
  tag=$(echo "$mode" | tr ' ' _)
  port=$((port + 1))
  MASTER_PORT=$port timeout 300 "$B/bin/cudaleak" run -o "$W/$tag.%n.json" -- python3 "$script" $mode >"$W/$tag.out" 2>&1
  echo "$mode: status $?"
  for f in "$W/$tag".*.json; do "$B/bin/cudaleak" report "$f" >"${f%.json}.txt" 2>&1; done
  grep -h -E "NCCL communicator" "$W/$tag".*.txt | cut -c1-250
done

python3 - "$W" "$script" <<'PY'
import json, sys
w, script = sys.argv[1], sys.argv[2]
sys.path.insert(0, "tests/gpu")
from checks import check, finish
src = open(script).read().splitlines()
init_line = next(i + 1 for i, l in enumerate(src) if l.startswith("dist.init_process_group("))
split_line = next(i + 1 for i, l in enumerate(src) if "dist.new_group(" in l)

def load(tag, n):
    try:
        return json.load(open(f"{w}/{tag}.{n}.json"))
    except OSError:
        return {}

def comms(r):
    return [g for g in r.get("leaks", []) if g.get("kind") == "library_handle" and g.get("api", "").startswith("ncclComm")]

def nccl_held(r):
    # Anything NCCL made itself: a frame in libnccl or an nccl* function.
    def of_nccl(g):
        return any("libnccl" in (f.get("module") or "") or (f.get("function") or "").startswith("nccl")
                   for f in g.get("stack", []))
    return [g for g in r.get("leaks", []) if g.get("kind") != "library_handle" and of_nccl(g)]

for tag, want in (("keep_eager_snapshot", 1), ("keep_eager_split_snapshot", 2)):
    snap, end = load(tag, 0), load(tag, 1)
    check(snap.get("reason") == "signal" and end.get("reason") == "exit", f"{tag}: a snapshot and an exit report")
    cs = comms(snap)
    check(sum(g["count"] for g in cs) == want,
          f"{tag}: the snapshot has {want} communicator(s): {[(g['api'], g['count']) for g in cs]}")
    first = [g for g in cs if g["api"] == "ncclCommInitRankConfig"]
    check(first and first[0]["site"].endswith(f"nccl_single_rank.py:{init_line}"),
          f"{tag}: the first, by ncclCommInitRankConfig at init_process_group's line {init_line}: "
          f"{[g['site'] for g in first]}")
    held = first[0].get("holds", {}) if first else {}
    check(held.get("vmm", {}).get("bytes", 0) > 0 and held.get("pinned", {}).get("count", 0) > 0 and
          held.get("stream", {}).get("count", 0) > 0,
          f"{tag}: it holds NCCL's vmm memory, pinned memory and streams: "
          f"{ {k: (v['count'], v['bytes']) for k, v in held.items()} }")
    if want == 2:
        other = [g for g in cs if g is not (first[0] if first else None)]
        check(other and any(g["site"].endswith(f"nccl_single_rank.py:{split_line}") for g in other),
              f"{tag}: the second at new_group's line {split_line}: {[(g['api'], g['site']) for g in other]}")
    text = open(f"{w}/{tag}.0.txt").read()
    check("NCCL communicator never destroyed (ncclCommDestroy), created by ncclCommInitRankConfig on device 0" in text,
          f"{tag}: the snapshot's text names the communicator")
    check(not comms(end) and not nccl_held(end),
          f"{tag}: at exit PyTorch has aborted its communicators: {len(comms(end))} left, "
          f"{len(nccl_held(end))} groups of NCCL's memory")
    check(not [n for n in end.get("notes", []) + snap.get("notes", []) if n.get("type") == "unknown_release"],
          f"{tag}: every release was of a tracked handle")
for tag in ("destroy", "keep"):
    end = load(tag, 0)
    check(end.get("reason") == "exit" and not comms(end) and not nccl_held(end),
          f"{tag}: nothing of NCCL's at exit ({len(comms(end))} communicators, {len(nccl_held(end))} groups)")
finish("nccl")
PY
