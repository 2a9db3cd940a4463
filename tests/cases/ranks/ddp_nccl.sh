# A DDP job over NCCL on two GPUs: `cudaleak run -- torchrun
# --nproc_per_node 2 tests/gpu/python/ddp_nccl_job.py` (three training
# steps, a snapshot while each rank's communicator lives, then rank 0
# leaks 1 MiB through the driver and rank 1 asks for more than its GPU
# has), gated on device memory. One report per rank with its rank, local
# rank and world size; the leak rank 0's only, on device 0; rank 1's
# out-of-memory on its own device, said first in its text and in the
# job's, at the same moment, with NCCL's buffers tracked there; each rank's
# PyTorch view with its cuBLAS workspaces apart; each snapshot has its
# communicator on its own device at init_process_group's line, holding
# NCCL's memory and streams, and the snapshots merged read as one group on
# both ranks; the gate fails rank 0 alone, in JUnit and SARIF too.
# (About 45 s.)
# REQUIRES: gpus>=2, torch
# LINES-OF: %root/tests/gpu/python/ddp_nccl_job.py
# RUN(exit=23): %run --error-exitcode 23 --fail-on device --junit %t/job.xml --sarif %t/job.sarif -o %t/job/rank.%%p.%%n.json -- %python -m torch.distributed.run --standalone --nproc_per_node 2 %root/tests/gpu/python/ddp_nccl_job.py > %t/job.txt 2>&1; s=$?; cat %t/job.txt; exit $s
# CHECK-DAG-RE: ==\d+==cudaleak: out of memory on rank 1: .* on device 1[ ]
# CHECK-DAG: leak gate over the job's 2 ranks: rank 0 failed, rank 1 passed; exiting with status 23
# RUN: %expr %t/job \
# RUN:   'sorted(by_rank()) == [0, 1]' \
# RUN:   'all((x["process"].get("local_rank"), x["process"].get("world_size"), x["process"].get("launcher")) == (k, 2, "torchrun") for k, x in by_rank().items())' \
# RUN:   '[[g.get("device") for g in x.get("leaks", []) if g.get("api") == "cuMemAlloc_v2" and g["bytes"] == 1 << 20] for k, x in sorted(by_rank().items())] == [[0], []]' \
# RUN:   '[(e.get("rank"), e.get("device")) for x in reports if x["process"].get("rank") == 1 for e in x.get("oom_events", []) if not e.get("recovered")][:1] == [(1, 1)]' \
# RUN:   'sum(t["bytes"] for x in reports if x["process"].get("rank") == 1 for e in x.get("oom_events", []) for t in e.get("top_sites", []) if any(f.get("function", "").startswith("nccl") for f in t.get("stack", []))) > 0'
# CHECK-COUNT(5): holds:
# The rank's own line and the job's give one moment: the job's clock starts
# at torchrun's agent, so the job's line gives the rank's own time too.
# RUN: %report %t/job > %t/merged.txt; cat %t/job.txt %t/merged.txt
# CHECK-RE: out of memory on rank 1: .* at ([0-9.]+ [mu]?s)\n[\s\S]*rank 1 \(pid \d+\) ran out of memory first, at [0-9.]+ [mu]?s of the job \(\1 into its own run\)
# RUN: cat %t/merged.txt
# CHECK-DAG-RE: job: ranks 0,1 of 2 \(torchrun\) on host
# CHECK-DAG-RE: rank 1 \(pid \d+\) ran out of memory first
# CHECK-DAG: The other ranks at that moment: rank 0 on device 0 held
# CHECK-DAG-RE: PyTorch at exit on device 0 in python3[.0-9]* \(pid \d+, rank 0\):
# CHECK-DAG-RE: PyTorch at exit on device 1 in python3[.0-9]* \(pid \d+, rank 1\):
# CHECK-DAG: in PyTorch's cuBLAS workspace (one per handle and stream
# CHECK-DAG-RE: reserved, [0-9.]+ [KMG]?i?B held by live tensors and [0-9.]+ [KMG]?i?B by PyTorch's cuBLAS workspaces
# CHECK-NONE: reserved by c10::cuda::CUDACachingAllocator
# The communicators, from each rank's snapshot.
# RUN: mkdir %t/snapshots && cp $(grep -l '"reason": *"signal"' %t/job/*.json) %t/snapshots/ && %expr %t/snapshots \
# RUN:   'sorted(x["process"].get("rank", -1) for x in reports if x["process"].get("rank", -1) >= 0) == [0, 1]' \
# RUN:   'all([(g["count"], g.get("device")) for g in x.get("leaks", []) if g.get("kind") == "library_handle" and g.get("api") == "ncclCommInitRankConfig" and g["site"].endswith("ddp_nccl_job.py:%line:init")] == [(1, x["process"]["rank"])] for x in reports)' \
# RUN:   'all(h.get("vmm", {}).get("bytes", 0) > 0 and h.get("stream", {}).get("count", 0) > 0 for x in reports for h in [g.get("holds", {}) for g in x.get("leaks", []) if g.get("kind") == "library_handle" and g.get("api") == "ncclCommInitRankConfig" and g["site"].endswith("ddp_nccl_job.py:%line:init")][:1])' \
# RUN:   'not [g for x in reports for g in x.get("leaks", []) if g.get("device", x["process"]["rank"]) not in (x["process"]["rank"], -1)]' \
# RUN:   'not [n for x in reports for n in x.get("notes", []) if n.get("type") == "unknown_release"]' \
# RUN:   'sum(g["count"] for x in reports for g in x.get("leaks", []) if g.get("kind") == "library_handle" and g.get("api", "").startswith("ncclComm")) == 2'
# CHECK-COUNT(6): holds:
# RUN: %report %t/snapshots
# CHECK-DAG: 2 NCCL communicators never destroyed (ncclCommDestroy), created by ncclCommInitRankConfig on devices 0,1, holding
# CHECK-DAG-RE: NCCL communicators never destroyed \(ncclCommDestroy\), created by ncclCommInitRankConfig on devices 0,1, holding [^\n]* on ranks 0,1 \(2 of 2\):
# CHECK-DAG-RE: job: ranks [0-9,-]+ of 2(?!\d)
# RUN: cat %t/job.xml
# CHECK-DAG-RE: <testsuite name="cudaleak: [^"]*\(rank 0\)" tests="\d+" failures="1"
# CHECK-DAG-RE: <testsuite name="cudaleak: [^"]*\(rank 1\)" tests="\d+" failures="0"
# RUN: %expr %t/job.sarif \
# RUN:   'sorted((x["ruleId"], x["level"], x["properties"].get("rank")) for x in r["runs"][0]["results"]) == [("cudaleak/device-leak", "error", 0), ("cudaleak/out-of-memory", "warning", 1)]'
# CHECK: holds:
