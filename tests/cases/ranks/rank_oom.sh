# The rank that ran out of memory says so first (its own summary names the
# rank), merged every rank at that moment; its out-of-memory report and its
# exit report are counted once, the earlier one as history; the merged
# report keeps its event with its rank and device, and one timeline lane
# for rank 2's device 2. The launcher's status: a rank failed.
# REQUIRES: simulated
# ENV: CUDALEAK_SIM_DEVICES=4
# RUN(exit=1): mkdir %t/sync && %run --simulated-gpu-memory 256MiB -o %t/job/rank.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 4 -- %build/tests/e2e/rank_worker --oom-on 2 --sync %t/sync
# CHECK: out of memory on rank 2: cudaMalloc of 64.0 MiB on device 2 failed
# RUN: ls %t/job | wc -l
# CHECK-RE: \A5\n
# RUN: %report %t/job
# CHECK: rank 2 (pid
# CHECK: ) ran out of memory first, at
# CHECK: The other ranks at that moment: rank 0 on device 0 held 32.0 MiB; rank 1 on device 1 held 32.0 MiB; rank 3 on device 3 held 32.0 MiB
# RUN: %report %t/job
# CHECK: 1 earlier report of the same processes
# RUN: %report %t/job
# CHECK: failed in (anonymous namespace)::grow_until_oom (rank_worker.cpp:
# RUN: mkdir %t/merged && %cudaleak merge %t/job -o %t/merged/m.json && %expr %t/merged/m.json \
# RUN:   'len(r["processes"]) == 4 and len(r["history"]) == 1' \
# RUN:   '[(e["rank"], e["device"]) for e in r["oom_events"]] == [(2, 2)]' \
# RUN:   'len([d for d in r["timeline"]["devices"] if d.get("rank") == 2 and d["device"] == 2]) == 1'
# CHECK-COUNT(3): holds:
