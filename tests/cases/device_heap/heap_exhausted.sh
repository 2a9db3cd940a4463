# Mallocs that find the device heap full are counted per kernel (each of the
# 4 threads' last malloc), with the heap limit named and where it was set;
# what the kernel kept (1 MiB of 64 KiB blocks) is its leak.
# REQUIRES: simulated
# RUN: %run --device-heap -o %t/r.json -- %build/tests/e2e/device_heap_kernels exhaust
# CHECK: device heap exhausted: 4 device-side mallocs in fill_until_full(int) returned NULL (launched from launch_fill (device_heap_kernels.cu:
# CHECK: the device heap limit (cudaLimitMallocHeapSize) is 1.0 MiB, set by cudaDeviceSetLimit in enlarge_heap (device_heap_kernels.cu:
# RUN: %expr %t/r.json \
# RUN:   '[(g["count"], g["bytes"]) for g in leaks("device_heap") if g["stack"][0]["function"] == "fill_until_full(int)"] == [(16, 1 << 20)]' \
# RUN:   '[(n["count"], n["stack"][0]["function"]) for n in r["notes"] if n["type"] == "device_heap_exhausted"] == [(4, "fill_until_full(int)")]'
# CHECK-COUNT(2): holds:
