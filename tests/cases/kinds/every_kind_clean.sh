# A program that makes every kind and releases everything reports nothing.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/every_kind clean
# CHECK: SUMMARY: cudaleak: 0 B leaked in 0 resources.
# Imported handles to one physical allocation count it once: nothing is
# held at the end, and nothing is past the seen calls.
# CHECK-NONE: more than the calls cudaleak saw can explain
# RUN: %run --verbose true -o %t/v.json -- %build/tests/e2e/every_kind clean
# CHECK: device 0: this process holds 0 bytes
# RUN: %expr %t/r.json 'r["leaks"] == [] and r["notes"] == [] and summary["leaked_count"] == 0'
# CHECK: holds:
