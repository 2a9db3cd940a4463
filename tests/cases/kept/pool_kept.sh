# Memory kept without being leaked bytes (issue 50): a pool with an unlimited
# release threshold keeps the 64 MiB it held, said under the pool (with the
# line that set the threshold) and beside the summary's leaked bytes, never
# in them. The JSON keeps format version 2, so readers that predate the pool
# field still read it.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/pool_keeps kept
# CHECK: 1 memory pool never destroyed, keeping up to 64.0 MiB reserved (release threshold unlimited, set at
# CHECK: (pool_keeps.cpp:
# CHECK: ; 0 B in use), created by cuMemPoolCreate
# CHECK: 0 B leaked in
# CHECK: . Kept reserved by 1 memory pool: 64.0 MiB (not in the leaked bytes).
# RUN: %expr %t/r.json \
# RUN:   'len(leaks("pool")) == 1' \
# RUN:   'group("pool")["pool"]["reserved"] == 64 << 20 and group("pool")["pool"]["used"] == 0 and group("pool")["pool"]["high_water"] == 64 << 20' \
# RUN:   'group("pool")["pool"]["threshold_set"] and group("pool")["pool"]["release_threshold"] == 2 ** 64 - 1 and group("pool")["pool"]["threshold_api"] == "cuMemPoolSetAttribute"' \
# RUN:   'group("pool")["pool"]["threshold_stack"] != []' \
# RUN:   'summary["leaked_bytes"] == 0 and summary["pool_reserved_bytes"] == 64 << 20 and summary["pool_reserved_count"] == 1'
# CHECK-COUNT(5): holds:
# RUN: cat %t/r.json
# CHECK: "format_version": 2
# CHECK: "pool": {
# CHECK: "pool_reserved_bytes": 67108864
