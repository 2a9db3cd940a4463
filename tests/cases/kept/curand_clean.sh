# A destroyed generator takes the state made on its behalf with it.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/curand_state clean
# CHECK: SUMMARY: cudaleak: 0 B leaked in 0 resources
# RUN: %expr %t/r.json 'summary["leaked_count"] == 0'
# CHECK: holds:
