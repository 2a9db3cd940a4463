# Device-side leaks on a real GPU (tests/gpu/limits/device_heap.cu built
# with -lineinfo, nvcc's static and shared cudart) under --device-heap: the
# kernels' leaks counted exactly as compute-sanitizer --leak-check full
# counts them on the same binary (4096 x 4096 B + 64 x 1000 B), grouped by
# kernel with the device line of each malloc and the launch's host stack;
# what kernels freed (balanced, keep_for_later then free_kept) is not
# reported. compute-sanitizer on the 512 MiB heap program: 4096 x 4 KiB.
# REQUIRES: gpu, nvcc, command=compute-sanitizer
# BUILD: %nvcc-static -arch=native -lineinfo -o %t/device_heap_static %root/tests/gpu/limits/device_heap.cu
# BUILD: %nvcc -arch=native -lineinfo -o %t/device_heap_shared %root/tests/gpu/limits/device_heap.cu
# RUN: compute-sanitizer --leak-check full %t/device_heap_static heap_leak > %t/sanitizer.out 2>&1; cat %t/sanitizer.out
# CHECK: LEAK SUMMARY: 16777216 bytes leaked in 4096 allocations
# RUN: %run --device-heap -o %t/dh_static/r.%p.%n.json -- %t/device_heap_static kernels
# CHECK: made by malloc in keep_blocks(bool) at device_heap.cu:18, launched by
# CHECK: made by malloc in odd_sizes() at device_heap.cu:24, launched by
# RUN: %run --device-heap -o %t/dh_shared/r.%p.%n.json -- %t/device_heap_shared kernels
# CHECK: made by malloc in keep_blocks(bool) at device_heap.cu:18, launched by
# CHECK: made by malloc in odd_sizes() at device_heap.cu:24, launched by
# RUN: compute-sanitizer --leak-check full %t/device_heap_static kernels > %t/dh_sanitizer_static.out 2>&1; cat %t/dh_sanitizer_static.out
# CHECK: LEAK SUMMARY: 16841216 bytes leaked in 4160 allocations
# RUN: compute-sanitizer --leak-check full %t/device_heap_shared kernels > %t/dh_sanitizer_shared.out 2>&1; cat %t/dh_sanitizer_shared.out
# CHECK: LEAK SUMMARY: 16841216 bytes leaked in 4160 allocations
# RUN: for rt in static shared; do %expr %t/dh_$rt \
# RUN:   '(sum(g["count"] for g in leaks("device_heap", report=reports[-1])), sum(g["bytes"] for g in leaks("device_heap", report=reports[-1]))) == (4160, 16841216)' \
# RUN:   'all((sum(g["count"] for g in G if g["stack"] and g["stack"][0].get("function", "") == k), sum(g["bytes"] for g in G if g["stack"] and g["stack"][0].get("function", "") == k)) == v for k, v in [("keep_blocks(bool)", (4096, 16777216)), ("odd_sizes()", (64, 64000))] for G in [leaks("device_heap", report=reports[-1])])' \
# RUN:   'all(any(f.get("function") == "main" for f in g["stack"]) for g in leaks("device_heap", report=reports[-1]))' \
# RUN:   'set((g["stack"][0].get("function", ""), g["stack"][0].get("file", "").rsplit("/", 1)[-1], g["stack"][0].get("line")) for g in leaks("device_heap", report=reports[-1]) if g["stack"]) == {("keep_blocks(bool)", "device_heap.cu", 18), ("odd_sizes()", "device_heap.cu", 24)}' \
# RUN:   'not [g for g in leaks("device_heap", report=reports[-1]) if g["stack"] and g["stack"][0].get("function", "").startswith(("balanced", "keep_for_later", "free_kept"))]'; done
# CHECK-COUNT(10): holds:
# CHECK-NONE: FALSE
