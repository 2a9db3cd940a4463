# A destroyed communicator takes what its library mapped with it.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/nccl_dying_rank clean
# CHECK: SUMMARY: cudaleak: 0 B leaked in 0 resources
# RUN: %expr %t/r.json 'summary["leaked_count"] == 0'
# CHECK: holds:
