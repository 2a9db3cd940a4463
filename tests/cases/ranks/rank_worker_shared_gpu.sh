# Two ranks on one GPU (CUDA_VISIBLE_DEVICES=0): rank 1 runs out of memory
# while rank 0 holds its model there (tests/e2e/programs/rank_worker.cpp
# --oom-on 1 --sync); NVML names rank 0's pid as the other process, the
# report its rank, and a cause says "(rank 0". (About 10 s.)
# REQUIRES: gpu
# RUN(exit=1): mkdir %t/sync && CUDA_VISIBLE_DEVICES=0 %run -o %t/shared/rank.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 2 -- %build/tests/e2e/rank_worker --oom-on 1 --sync %t/sync
# CHECK: out of memory on rank 1:
# RUN: %expr %t/shared \
# RUN:   '(rank := {x["process"]["rank"]: x for x in reports}) and [o.get("rank") for e in [e for e in rank[1].get("oom_events", []) if not e.get("recovered")][:1] for o in e["other_processes"] if o["pid"] == rank[0]["process"]["pid"]][:1] == [0]' \
# RUN:   '(rank := {x["process"]["rank"]: x for x in reports}) and any("(rank 0" in d["message"] for e in [e for e in rank[1].get("oom_events", []) if not e.get("recovered")][:1] for d in e["diagnosis"])'
# CHECK-COUNT(2): holds:
