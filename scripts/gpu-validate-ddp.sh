#!/usr/bin/env bash
# A DDP job over NCCL on every GPU of the machine (2 or more):
# `cudaleak run -- torchrun --nproc_per_node N tests/gpu/python/ddp_nccl_job.py`.
# Asserts: one report per rank with its rank, local rank and world size;
# rank 0's driver leak on device 0 and rank 0 only; the last rank's
# out-of-memory on its own device, said first in its text and in the job's;
# NCCL's buffers tracked on the failing device; the job's folder read as one
# job of N ranks; each rank's snapshot, taken while its process group lives,
# has its NCCL communicator on its own device at init_process_group's line,
# holding NCCL's memory there, and the snapshots merged read as one
# communicator group on every rank; the gate over the job (device memory
# only) fails rank 0 alone, with JUnit and SARIF naming it. Exits non-zero
# on a wrong result.
# Usage: scripts/gpu-validate-ddp.sh [BUILD_DIR] [WORK_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
B="$(realpath "${1:-build}")"
W="$(realpath -m "${2:-build/gpu-ddp}")"
rm -rf "$W"; mkdir -p "$W/job"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
gpus=$(nvidia-smi -L | grep -c '^GPU')
[ "$gpus" -ge 2 ] || { echo "FAIL: needs 2 or more GPUs, found $gpus"; exit 1; }
"$B/bin/cudaleak" run --error-exitcode 23 --fail-on device --junit "$W/job.xml" --sarif "$W/job.sarif" \
  -o "$W/job/rank.%p.%n.json" -- python3 -m torch.distributed.run --standalone \
  --nproc_per_node "$gpus" tests/gpu/python/ddp_nccl_job.py >"$W/job.out" 2>&1
status=$?
echo "job status $status"
echo "$status" >"$W/status"
"$B/bin/cudaleak" report "$W/job" >"$W/merged.txt" 2>&1
# The snapshots alone, merged: what every rank held while its communicator lived.
snaps=$(grep -l '"reason": *"signal"' "$W"/job/*.json)
"$B/bin/cudaleak" report $snaps >"$W/snapshots.txt" 2>&1
grep -E "NCCL communicator" "$W/snapshots.txt" | cut -c1-300
grep -E "out of memory on rank|rank [0-9]+ done|Error|error" "$W/job.out" | cut -c1-250 | head -20
sed -n '1,30p' "$W/merged.txt" | cut -c1-250

python3 - "$W" "$gpus" <<'PY'
import glob, json, re, sys
sys.path.insert(0, "tests/gpu")
from checks import check, finish
w, gpus = sys.argv[1], int(sys.argv[2])
last = gpus - 1
reports = [json.load(open(p)) for p in sorted(glob.glob(f"{w}/job/*.json"))]
latest = {}
for r in reports:
    p = r["process"]
    if p.get("rank", -1) >= 0 and (p["pid"] not in latest or r.get("duration_ns", 0) >= latest[p["pid"]].get("duration_ns", 0)):
        latest[p["pid"]] = r
by_rank = {r["process"]["rank"]: r for r in latest.values()}
check(sorted(by_rank) == list(range(gpus)), f"one report per rank: {sorted(by_rank)}")
for rank, r in sorted(by_rank.items()):
    p = r["process"]
    check((p.get("local_rank"), p.get("world_size"), p.get("launcher")) == (rank, gpus, "torchrun"),
          f"rank {rank}: local rank, world size, launcher = {p.get('local_rank')}, {p.get('world_size')}, {p.get('launcher')}")
def driver_leaks(r):
    return [g for g in r.get("leaks", []) if g.get("api") == "cuMemAlloc_v2" and g["bytes"] == 1 << 20]
leaks = {rank: driver_leaks(r) for rank, r in by_rank.items()}
check(len(leaks.get(0, [])) == 1 and leaks[0][0].get("device") == 0 and all(not v for k, v in leaks.items() if k),
      f"the 1 MiB driver leak: rank 0 on device 0 only {[(k, [g.get('device') for g in v]) for k, v in sorted(leaks.items())]}")
events = [e for r in reports if r["process"].get("rank") == last for e in r.get("oom_events", []) if not e.get("recovered")]
check(bool(events) and events[0].get("rank") == last and events[0].get("device") == last,
      f"rank {last} ran out of memory on device {last}: {[(e.get('rank'), e.get('device')) for e in events[:2]]}")
# NCCL's own buffers reach the driver through cudaleak's hooks whether
# PyTorch links NCCL statically or not; its communicator handles are seen
# only through libnccl.so's exports (printed, for the record).
def nccl_frames(stack):
    return any(f.get("function", "").startswith("nccl") for f in stack)
held = {rank: sum(s["bytes"] for r in reports if r["process"].get("rank") == rank for e in r.get("oom_events", [])
                  for s in e.get("top_sites", []) if nccl_frames(s.get("stack", []))) for rank in by_rank}
check(held.get(last, 0) > 0, f"NCCL's buffers tracked on the failing rank's device: {held}")
handles = {rank: sorted({g.get("api", "") for g in r.get("leaks", []) if g.get("api", "").startswith("nccl")}) for rank, r in by_rank.items()}
print(f"NCCL communicator handles seen through libnccl's exports: {handles}")
out = open(f"{w}/job.out").read()
check(re.search(rf"==\d+==cudaleak: out of memory on rank {last}: .* on device {last} ", out) is not None, f"rank {last}'s text says it first")
merged = open(f"{w}/merged.txt").read()
ranks_text = "0-%d" % last if gpus > 2 else "0,1"
check(re.search(rf"job: ranks {ranks_text} of {gpus} \(torchrun\) on host ", merged) is not None, "the folder reads as one job")
check(re.search(rf"rank {last} \(pid \d+\) ran out of memory first", merged) is not None, "the merged view: the failing rank first")
check(re.search(r"The other ranks at that moment: rank 0 on device 0 held", merged) is not None, "with the other ranks at that moment")
# The rank's own line and the job's give one moment: the job's clock starts
# at torchrun's agent, so the job's line gives the rank's own time too.
own = re.search(rf"out of memory on rank {last}: .* at ([0-9.]+ [mu]?s)\n", out)
check(own is not None and re.search(rf"rank {last} \(pid \d+\) ran out of memory first, at [0-9.]+ [mu]?s of the job "
                                    rf"\({re.escape(own.group(1))} into its own run\)", merged) is not None,
      f"the job's line gives rank {last}'s own time, {own.group(1) if own else None}")
for rank in range(gpus):
    check(re.search(rf"PyTorch at exit on device {rank} in python3[.0-9]* \(pid \d+, rank {rank}\): ", merged) is not None,
          f"the merged view has rank {rank}'s PyTorch allocator on its device")
# PyTorch's cuBLAS workspaces are said as such, and no live-tensor group is
# named by the caching allocator's own function.
check("in PyTorch's cuBLAS workspace (one per handle and stream" in merged, "the cuBLAS workspace is named")
check("reserved by c10::cuda::CUDACachingAllocator" not in merged, "no group named by the allocator's own function")
# What PyTorch has allocated is said apart: the tensors, and its workspaces.
check(re.search(r"reserved, [0-9.]+ [KMG]?i?B held by live tensors and [0-9.]+ [KMG]?i?B by PyTorch's cuBLAS workspaces",
                merged) is not None, "each rank's view says its cuBLAS workspaces apart from its live tensors")
# The communicators, from each rank's snapshot.
src = open("tests/gpu/python/ddp_nccl_job.py").read().splitlines()
init_line = next(i + 1 for i, l in enumerate(src) if l.startswith("dist.init_process_group("))
def comms(r):
    return [g for g in r.get("leaks", []) if g.get("kind") == "library_handle" and g.get("api", "").startswith("ncclComm")]
snaps = {r["process"]["rank"]: r for r in reports if r.get("reason") == "signal" and r["process"].get("rank", -1) >= 0}
check(sorted(snaps) == list(range(gpus)), f"one snapshot per rank: {sorted(snaps)}")
total = 0
for rank, r in sorted(snaps.items()):
    cs = comms(r)
    total += sum(g["count"] for g in cs)
    first = [g for g in cs if g["api"] == "ncclCommInitRankConfig" and g["site"].endswith(f"ddp_nccl_job.py:{init_line}")]
    check(len(first) == 1 and first[0]["count"] == 1 and first[0].get("device") == rank,
          f"rank {rank}: 1 communicator by ncclCommInitRankConfig at line {init_line} on device {rank}: "
          f"{[(g['api'], g['count'], g.get('device'), g['site'][-40:]) for g in cs]}")
    held = first[0].get("holds", {}) if first else {}
    check(held.get("vmm", {}).get("bytes", 0) > 0 and held.get("stream", {}).get("count", 0) > 0,
          f"rank {rank}: it holds NCCL's vmm memory and streams: { {k: (v['count'], v['bytes']) for k, v in held.items()} }")
    elsewhere = [(g["kind"], g.get("device")) for g in r.get("leaks", []) if g.get("device", rank) not in (rank, -1)]
    check(not elsewhere, f"rank {rank}: nothing of its snapshot on another rank's device: {elsewhere[:4]}")
    check(not [n for n in r.get("notes", []) if n.get("type") == "unknown_release"], f"rank {rank}: no unknown release")
snap_text = open(f"{w}/snapshots.txt").read()
ranks_text = "0-%d" % last if gpus > 2 else "0,1"
m = re.search(r"(\d+) NCCL communicators never destroyed \(ncclCommDestroy\), created by ncclCommInitRankConfig "
              rf"on devices {ranks_text}, holding [^\n]* on ranks {ranks_text} \({gpus} of {gpus}\):", snap_text)
check(m is not None and int(m.group(1)) == gpus == total,
      f"the snapshots merged: {gpus} communicators ({total} in the ranks' own), one group on every rank and device")
m = re.search(r"job: ranks ([0-9,-]+) of (\d+)", snap_text)
check(m is not None and m.group(2) == str(gpus), f"the snapshots read as one job: {m.group(0) if m else None}")
# The gate over the job: rank 0's driver leak fails it, the other ranks pass.
status = int(open(f"{w}/status").read())
check(status == 23, f"the job's gate: exit status {status} == 23")
passed = "rank 1 passed" if gpus == 2 else f"ranks 1-{last} passed"
check(f"leak gate over the job's {gpus} ranks: rank 0 failed, {passed}; exiting with status 23" in out,
      "the job's verdict by rank")
junit = open(f"{w}/job.xml").read()
check(re.search(r'<testsuite name="cudaleak: [^"]*\(rank 0\)" tests="\d+" failures="1"', junit) is not None and
      all(re.search(rf'<testsuite name="cudaleak: [^"]*\(rank {k}\)" tests="\d+" failures="0"', junit) for k in range(1, gpus)),
      "JUnit: rank 0's suite fails, the others pass")
results = json.load(open(f"{w}/job.sarif"))["runs"][0]["results"]
by_rule = {}
for res in results:
    by_rule.setdefault(res["ruleId"], []).append((res["level"], res["properties"].get("rank")))
check(by_rule == {"cudaleak/device-leak": [("error", 0)], "cudaleak/out-of-memory": [("warning", last)]},
      f"SARIF: rank 0's leak an error, rank {last}'s out-of-memory a warning: {by_rule}")
finish("ddp")
PY
