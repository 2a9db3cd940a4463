# Library handles are counted exactly and hold what their creation made: 3 of
# 4 cuBLAS handles alive, cuSOLVER's own cuBLAS handle part of the cuSOLVER
# one, cuBLASLt's handle handed out twice and destroyed once; the driver
# resources stay in the report, each with its handle; the text names them as
# users know them and lists what they hold once.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/every_kind leak
# CHECK: 3 cuBLAS handles never destroyed (cublasDestroy), created by cublasCreate_v2 on device 0, holding 12.4 MiB of device memory, 6 streams, 24 events:
# CHECK: 1 cuSOLVER dense handle never destroyed (cusolverDnDestroy)
# CHECK-NONE: 24 events never destroyed
# RUN: %expr %t/r.json \
# RUN:   'group("library_handle", "cublasCreate_v2")["count"] == 3 and stack_has(group("library_handle", "cublasCreate_v2"), "open_solver")' \
# RUN:   'group("library_handle", "cublasCreate_v2")["holds"]["device"] == {"count": 9, "bytes": 3 * ((4 << 20) + (128 << 10) + 1024)}' \
# RUN:   'group("library_handle", "cublasCreate_v2")["holds"]["event"]["count"] == 24 and group("library_handle", "cublasCreate_v2")["holds"]["stream"]["count"] == 6' \
# RUN:   '"library" not in group("library_handle", "cublasCreate_v2")["holds"]' \
# RUN:   'group("library_handle", "cusolverDnCreate")["count"] == 1 and group("library_handle", "cusolverDnCreate")["holds"]["device"]["count"] == 4' \
# RUN:   'group("library_handle", "cublasLtCreate")["count"] == 1 and count("library_handle") == 5' \
# RUN:   'group("event", "cublasCreate_v2")["owner"] == "cublasCreate_v2" and all(a.get("owner", "0x0") != "0x0" for a in group("event", "cublasCreate_v2")["allocations"])' \
# RUN:   'all("libcudaleak" not in f.get("module", "") for g in r["leaks"] for f in g["stack"])'
# CHECK-COUNT(8): holds:
# An imported VMM handle has no size until it is mapped: not "0 B" (every group, as `report` prints them).
# RUN: %report %t/r.json
# CHECK: 1 allocation of IPC-mapped memory of unknown size never freed, created by cuMemImportFromShareableHandle
