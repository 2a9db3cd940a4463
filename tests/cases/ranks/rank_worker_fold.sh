# One rank per GPU on two GPUs, started as torchrun starts them
# (tests/e2e/programs/fake_torchrun.py, tests/e2e/programs/rank_worker.cpp):
# each report has its rank, local rank, world size, launcher and host, and
# its resources on its own GPU; both ranks leak at one site, which reads as
# one group of the 2 ranks, and the folder as one job. (About 5 s.)
# REQUIRES: gpus>=2
# RUN: %run -o %t/fold/rank.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 2 -- %build/tests/e2e/rank_worker --leak-on 0,1 > /dev/null 2>&1 && ls %t/fold | wc -l
# CHECK-RE: \A2\n
# RUN: %expr %t/fold \
# RUN:   "sorted(x['process']['rank'] for x in reports) == [0, 1]" \
# RUN:   "all((x['process']['local_rank'], x['process']['world_size'], x['process']['launcher'], x['process']['host']) == (x['process']['rank'], 2, 'torchrun', '$(hostname)') for x in reports)" \
# RUN:   "all(g['device'] == x['process']['local_rank'] for x in reports for g in x['leaks'])"
# CHECK-COUNT(3): holds:
# RUN: %report %t/fold
# CHECK-DAG-RE: in rank_worker on ranks 0,1 \(2 of 2\):
# CHECK-DAG-RE: job: ranks 0(-|,)1 of 2 \(torchrun\) on host
