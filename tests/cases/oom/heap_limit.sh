# A device heap the program sets (128 MiB, then 256 MiB) is reported as
# reserved by the context, not as a leak; the second setting replaced the
# first, and both are moments on the timeline.
# REQUIRES: simulated
# RUN: %run --simulated-gpu-memory 512MiB -o %t/report.%p.%n.json -- %build/tests/e2e/oom_scenarios heap 256
# CHECK-RE: \Aheap limit: no error, 256 MiB\n
# CHECK-RE: Reserved by the context \(not leaks: held while the context lives, set by the program\):\n  256\.0 MiB for the device heap \(cudaLimitMallocHeapSize = 256\.0 MiB\) on device 0, set by cudaDeviceSetLimit in enlarge_heap \(oom_scenarios\.cu:
# RUN: %expr %t \
# RUN:   'len(reports) == 1 and summary["leaked_count"] == 0' \
# RUN:   '[(v["limit"], v["value"], v["bytes"], v["device"], v["api"], stack_has(v, "enlarge_heap")) for v in r["reservations"]] == [("malloc_heap_size", 256 << 20, 256 << 20, 0, "cudaDeviceSetLimit", True)]' \
# RUN:   '[m["name"] for m in r["timeline"]["marks"] if m["type"] == "limit"] == ["cudaLimitMallocHeapSize = 128.0 MiB: 128.0 MiB reserved", "cudaLimitMallocHeapSize = 256.0 MiB: 256.0 MiB reserved"]'
# CHECK-COUNT(3): holds:
