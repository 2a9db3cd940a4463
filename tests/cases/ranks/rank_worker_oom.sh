# Out of memory on the last of two ranks, one per GPU, while the other
# holds its 32 MiB model (tests/e2e/programs/rank_worker.cpp --oom-on 1
# --sync): its own text says so first; the job's view names it, the other
# rank's memory at that moment, and counts its out-of-memory report once.
# A failed rank fails the job. (About 10 s.)
# REQUIRES: gpus>=2
# RUN(exit=1): mkdir %t/sync && %run -o %t/oom/rank.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 2 -- %build/tests/e2e/rank_worker --oom-on 1 --sync %t/sync
# CHECK: out of memory on rank 1: cudaMalloc of 64.0 MiB on device 1 failed
# RUN: %report %t/oom
# CHECK-DAG-RE: rank 1 \(pid [0-9]+\) ran out of memory first
# CHECK-DAG: The other ranks at that moment: rank 0 on device 0 held 32.0 MiB
# CHECK-DAG: 1 earlier report of the same processes
