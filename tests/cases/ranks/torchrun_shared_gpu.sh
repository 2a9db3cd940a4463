# A real torchrun job on one GPU: `cudaleak run -- torchrun
# --nproc_per_node 2` with both ranks on GPU 0 (tests/gpu/python/
# ranks_shared_gpu.py: each rank keeps 1 GiB, rank 0 leaks 1 MiB through
# the driver, then rank 1 asks for more than the GPU has left). Each report
# carries its rank, local rank, world size, launcher and host; the launcher
# leaks nothing; the leak is rank 0's only; rank 1's out-of-memory names
# rank 0's process as the other one on the device (NVML, its environment);
# the folder reads as one job with rank 1 failing first and rank 0's memory
# at that moment; the gate over the job names rank 0. (About 40 s.)
# REQUIRES: gpu, torch
# RUN: mkdir %t/barrier && BARRIER_DIR=%t/barrier %run -o %t/job/rank.%%p.%%n.json -- %python -m torch.distributed.run --standalone --nproc_per_node 2 %root/tests/gpu/python/ranks_shared_gpu.py
# CHECK-DAG-RE: ==\d+==cudaleak: out of memory on rank 1:
# CHECK-DAG-RE: another process holds [0-9.]+ GiB of the device: pid \d+ \(rank 0, [^)]*\) holds
# RUN: %expr %t/job \
# RUN:   'sorted(set(x["process"].get("rank", -1) for x in reports if x["process"].get("rank", -1) >= 0)) == [0, 1]' \
# RUN:   'all(not x.get("leaks") for x in reports if x["process"].get("rank", -1) < 0)' \
# RUN:   'all((p.get("local_rank"), p.get("world_size"), p.get("launcher")) == (k, 2, "torchrun") and p.get("host") for k in (0, 1) for p in [[x for x in reports if x["process"].get("rank", -1) == k][-1]["process"]])' \
# RUN:   '[len([g for g in [x for x in reports if x["process"].get("rank", -1) == k][-1].get("leaks", []) if g.get("api") == "cuMemAlloc_v2" and g["bytes"] == 1 << 20]) for k in (0, 1)] == [1, 0]' \
# RUN:   '(events := [e for x in reports if x["process"].get("rank", -1) == 1 for e in x.get("oom_events", []) if not e.get("recovered")]) and events[0].get("rank") == 1' \
# RUN:   '[(o.get("rank"), o["bytes"] >= 1 << 30) for e in [e for x in reports if x["process"].get("rank", -1) == 1 for e in x.get("oom_events", []) if not e.get("recovered")][:1] for o in e.get("other_processes", []) if o["pid"] in [x["process"]["pid"] for x in reports if x["process"].get("rank", -1) == 0]] == [(0, True)]'
# CHECK-COUNT(6): holds:
# RUN: %report %t/job
# CHECK-DAG-RE: job: ranks 0,1 of 2 \(torchrun\) on host
# CHECK-DAG-RE: rank 1 \(pid \d+\) ran out of memory first
# CHECK-DAG-RE: The other ranks at that moment: rank 0 on device 0 held [1-9][0-9]*(\.[0-9]+)? GiB
# RUN(exit=9): mkdir %t/barrier2 && BARRIER_DIR=%t/barrier2 %run --error-exitcode 9 -o %t/gate/rank.%%p.%%n.json -- %python -m torch.distributed.run --standalone --nproc_per_node 2 %root/tests/gpu/python/ranks_shared_gpu.py
# CHECK-RE: leak gate over the job's 2 ranks: rank 0 failed
# RUN: ls %t/gate/*.json | wc -l
# CHECK-RE: \A([2-9]|[1-9][0-9]+)\n
