# A report written before the reachability scan existed reads as it did: no
# class on any group, nothing said of reachability, leaked totals unchanged.
# RUN: %report %root/tests/fixtures/h100/cublas_no_destroy.json
# CHECK: never destroyed
# CHECK: SUMMARY: cudaleak:
# CHECK-NONE: definitely lost
# CHECK-NONE: still reachable
# CHECK-NONE: Still reachable
