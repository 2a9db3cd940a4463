# Each report records its rank, local rank, world size, launcher and host,
# for each launcher fake_torchrun.py imitates (torchrun, Open MPI, PMI,
# Slurm): node 1 of 2 with 2 processes each, ranks 2 and 3 leaking, every
# resource on the rank's own device (local rank N: device N).
# REQUIRES: simulated
# ENV: CUDALEAK_SIM_DEVICES=4
# RUN: for l in torchrun openmpi pmi slurm; do %run -o %t/$l/rank.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 2 --nnodes 2 --node-rank 1 --launcher $l -- %build/tests/e2e/rank_worker --leak-on 2,3 > /dev/null 2>&1 || echo "$l failed"; %expr %t/$l "sorted((x['process']['rank'], x['process']['local_rank'], x['process']['world_size'], x['process']['launcher'], x['process']['host']) for x in reports) == [(2, 0, 4, '$l', '$(hostname)'), (3, 1, 4, '$l', '$(hostname)')]" "all(x['leaks'] and all(g['device'] == x['process']['rank'] - 2 for g in x['leaks']) for x in reports)"; done
# CHECK-COUNT(8): holds:
# CHECK-NONE: failed
