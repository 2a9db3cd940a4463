# diff of two jobs' folders names the ranks of each changed site: the
# gradients leaked on rank 1, then on ranks 1 and 2.
# REQUIRES: simulated
# ENV: CUDALEAK_SIM_DEVICES=4
# RUN: %run -o %t/before/rank.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 4 -- %build/tests/e2e/rank_worker --leak-on 1 > /dev/null 2>&1; %run -o %t/after/rank.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 4 -- %build/tests/e2e/rank_worker --leak-on 1,2 > /dev/null 2>&1; echo ran
# RUN(exit=1): %cudaleak diff %t/before %t/after
# CHECK: grown
# CHECK: leak_gradients
# CHECK: [ranks 1,2]
