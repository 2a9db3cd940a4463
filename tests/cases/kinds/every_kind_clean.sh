# A program that makes every kind and releases everything reports nothing.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/every_kind clean
# CHECK: SUMMARY: cudaleak: 0 B leaked in 0 resources.
# RUN: %expr %t/r.json 'r["leaks"] == [] and r["notes"] == [] and summary["leaked_count"] == 0'
# CHECK: holds:
