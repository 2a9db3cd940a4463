# cuBLAS and cuSOLVER linked statically (nothing sees their creates): handles
# are found by the stack of what their creation made. Two cuBLAS handles
# alive, their resources and not the destroyed third's; the library's own
# kernels are not the program's; cuSOLVER's own cuBLAS handle belongs to the
# cuSOLVER handle; the summary counts the resources, not handles it cannot count.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/static_handles leak
# CHECK: cuBLAS handles never destroyed (cublasDestroy), created by cublasCreate_v2 on device 0, holding 8.3 MiB of device memory, 4 streams, 16 events (found by stack: cublasCreate_v2 is linked into the program statically, so how many handles is not known):
# CHECK-NONE: 16 events never destroyed
# RUN: %expr %t/r.json \
# RUN:   'group("library_handle", "cublasCreate_v2")["attributed_by_stack"] and group("library_handle", "cublasCreate_v2")["count"] == 0' \
# RUN:   'group("library_handle", "cublasCreate_v2")["stack"][0]["function"] == "open_blas()"' \
# RUN:   'group("library_handle", "cublasCreate_v2")["holds"]["device"] == {"count": 6, "bytes": 2 * ((4 << 20) + (128 << 10) + 1024)}' \
# RUN:   'group("library_handle", "cublasCreate_v2")["holds"]["event"]["count"] == 16 and group("library_handle", "cublasCreate_v2")["holds"]["stream"]["count"] == 4' \
# RUN:   '"library" not in group("library_handle", "cublasCreate_v2")["holds"] and count("library") == 0' \
# RUN:   'group("library_handle", "cusolverDnCreate")["attributed_by_stack"] and group("library_handle", "cusolverDnCreate")["holds"]["device"]["count"] == 4' \
# RUN:   'group("event", "cublasCreate_v2").get("owner", "") != ""' \
# RUN:   'count("library_handle") == 0 and count("device") == 10 and count("event") == 24'
# CHECK-COUNT(8): holds:
