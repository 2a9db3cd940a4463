# What a library makes for a live handle outside any call cudaleak
# interposes: NCCL's proxy thread and its collectives map a communicator's
# buffers after ncclCommInitRank returned. A rank that dies with its
# communicator alive has one story (the communicator, holding 3 proxy and 3
# channel buffers), not a leak per buffer; what ncclMemAlloc handed to the
# program stays the program's. The gate fails on those two groups.
# REQUIRES: simulated
# RUN(exit=7): %run --error-exitcode 7 -o %t/r.%p.json -- %build/tests/e2e/nccl_dying_rank dying
# CHECK: 1 NCCL communicator never destroyed (ncclCommDestroy), created by ncclCommInitRank on device 0, holding 15.0 MiB of device memory
# CHECK-NONE: proxy_service
# CHECK-NONE: enqueue_check
# RUN: %expr %t \
# RUN:   'len(reports) == 1' \
# RUN:   'group("library_handle", "ncclCommInitRank")["holds"]["device"] == {"count": 6, "bytes": 3 * ((4 << 20) + (1 << 20))}' \
# RUN:   '[(g["bytes"], g["api"]) for g in leaks("device") if not g.get("owner")][:1] == [(2 << 20, "ncclMemAlloc")]' \
# RUN:   'r["gate"]["failing_groups"] == 2'
# CHECK-COUNT(4): holds:
