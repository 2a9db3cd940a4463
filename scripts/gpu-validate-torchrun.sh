#!/usr/bin/env bash
# A real torchrun job on one GPU: `cudaleak run -- torchrun --nproc_per_node 2`
# with both ranks on GPU 0 (tests/gpu/python/ranks_shared_gpu.py): each
# report carries its rank, local rank, world size, launcher and host; rank 0's
# driver leak is a group of rank 0 only; the last rank's out-of-memory names
# rank 0 as the other process on the device (NVML, its environment); the
# job's folder reads as one job with the failing rank first and the other
# rank's memory at that moment; the gate over the job names the failing rank.
# Asserts; exits non-zero on a wrong result.
# Usage: scripts/gpu-validate-torchrun.sh [BUILD_DIR] [WORK_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
B="$(realpath "${1:-build}")"
W="$(realpath -m "${2:-build/gpu-torchrun}")"
rm -rf "$W"; mkdir -p "$W/job" "$W/barrier" "$W/gate" "$W/barrier2"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
script="$(pwd)/tests/gpu/python/ranks_shared_gpu.py"
torchrun=(python3 -m torch.distributed.run --standalone --nproc_per_node 2)

BARRIER_DIR="$W/barrier" "$B/bin/cudaleak" run -o "$W/job/rank.%p.%n.json" -- "${torchrun[@]}" "$script" \
  >"$W/job.out" 2>&1
echo "job status $?"
"$B/bin/cudaleak" report "$W/job" >"$W/merged.txt" 2>&1
BARRIER_DIR="$W/barrier2" "$B/bin/cudaleak" run --error-exitcode 9 -o "$W/gate/rank.%p.%n.json" -- \
  "${torchrun[@]}" "$script" >"$W/gate.out" 2>&1
echo "gated job status $?" | tee "$W/gate.status"
grep -E "out of memory on rank|leak gate over" "$W/job.out" "$W/gate.out" | cut -c1-300
sed -n '1,40p' "$W/merged.txt" | cut -c1-300

python3 - "$W" <<'PY'
import glob, json, os, re, sys
w = sys.argv[1]
sys.path.insert(0, "tests/gpu")
from checks import check, finish
reports = [json.load(open(p)) for p in sorted(glob.glob(f"{w}/job/*.json"))]
by_rank = {}
for r in reports:
    by_rank.setdefault(r["process"].get("rank", -1), []).append(r)
# torchrun's own agent process imports torch too: a report without a rank,
# holding nothing.
check(sorted(r for r in by_rank if r >= 0) == [0, 1], f"reports of ranks {sorted(by_rank)}")
check(all(not r.get("leaks") for r in by_rank.get(-1, [])), "the launcher's own process leaks nothing")
for rank, rs in sorted((k, v) for k, v in by_rank.items() if k >= 0):
    p = rs[-1]["process"]
    check((p.get("local_rank"), p.get("world_size"), p.get("launcher")) == (rank, 2, "torchrun") and p.get("host"),
          f"rank {rank}: local rank, world size, launcher, host = {p.get('local_rank')}, {p.get('world_size')}, {p.get('launcher')}, {p.get('host')}")
leaks = {rank: [g for r in rs[-1:] for g in r.get("leaks", []) if g.get("api") == "cuMemAlloc_v2" and g["bytes"] == 1 << 20]
         for rank, rs in by_rank.items()}
check(len(leaks.get(0, [])) == 1 and not leaks.get(1), f"the 1 MiB driver leak is rank 0's only: {[(k, len(v)) for k, v in leaks.items()]}")
rank0_pids = {r["process"]["pid"] for r in by_rank.get(0, [])}
events = [e for r in by_rank.get(1, []) for e in r.get("oom_events", []) if not e.get("recovered")]
check(len(events) >= 1 and events[0].get("rank") == 1, f"rank 1 ran out of memory: {len(events)} events")
others = events[0].get("other_processes", []) if events else []
named = [o for o in others if o["pid"] in rank0_pids]
check(len(named) == 1 and named[0].get("rank") == 0 and named[0]["bytes"] >= 1 << 30,
      f"the other process on the device is rank 0 with >= 1 GiB: {named}")
job_out = open(f"{w}/job.out").read()
check(re.search(r"==\d+==cudaleak: out of memory on rank 1: ", job_out) is not None, "rank 1's text says it first")
check(re.search(r"another process holds [0-9.]+ GiB of the device: pid \d+ \(rank 0, [^)]*\) holds", job_out) is not None,
      "its diagnosis names rank 0's process as a cause")
merged = open(f"{w}/merged.txt").read()
check(re.search(r"job: ranks 0,1 of 2 \(torchrun\) on host ", merged) is not None, "the folder reads as one job")
check(re.search(r"rank 1 \(pid \d+\) ran out of memory first", merged) is not None, "the merged view: rank 1 failed first")
m = re.search(r"The other ranks at that moment: rank 0 on device 0 held ([0-9.]+) (GiB|MiB)", merged)
check(m is not None and (m.group(2) == "GiB" and float(m.group(1)) >= 1.0), f"and rank 0 held {m and m.group(1) + ' ' + m.group(2)}")
gate = open(f"{w}/gate.out").read()
status = open(f"{w}/gate.status").read()
check("gated job status 9" in status, f"the gate fails the job: {status.strip()}")
check(re.search(r"leak gate over the job's 2 ranks: rank 0 failed", gate) is not None, "and names rank 0 as the failing rank")
junit_like = glob.glob(f"{w}/gate/*.json")
check(len(junit_like) >= 2, f"the gated job's reports: {len(junit_like)}")
finish("torchrun")
PY
