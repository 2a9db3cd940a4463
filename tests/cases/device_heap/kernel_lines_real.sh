# The simulated GPU's device-heap program (tests/e2e/programs/
# device_heap_kernels.cu) with its real device code on a real GPU, built
# with -lineinfo: the lines of its mallocs in the text (keep_rows's 64 x
# 4096 B; odd_sizes's 16 x 1000 B, its freed 24-byte blocks not reported; a
# kernel that frees all it takes not named), and a heap filled until malloc
# returns NULL: the kernel, its launch, the limit and where it was set.
# REQUIRES: gpu, nvcc
# BUILD: %nvcc-static -arch=native -lineinfo -o %t/device_heap_kernels %root/tests/e2e/programs/device_heap_kernels.cu
# RUN: %run --device-heap -o %t/leaks/r.%p.%n.json -- %t/device_heap_kernels leaks 2> %t/leaks.err; cat %t/leaks.err
# CHECK: made by malloc in keep_rows(int) at device_heap_kernels.cu:
# CHECK-NONE: scratch_only
# RUN: %expr %t/leaks \
# RUN:   '("256.0 KiB of device-heap memory in 64 allocations never freed, made by malloc in keep_rows(int) at device_heap_kernels.cu:" + str(line_of("%root/tests/e2e/programs/device_heap_kernels.cu", "char* row = static_cast<char*>(malloc(bytes));"))) in text("%t/leaks.err")' \
# RUN:   '("in 16 allocations never freed, made by malloc in odd_sizes() at device_heap_kernels.cu:" + str(line_of("%root/tests/e2e/programs/device_heap_kernels.cu", "char* kept = static_cast<char*>(malloc(1000));"))) in text("%t/leaks.err")'
# CHECK-COUNT(2): holds:
# RUN: %run --device-heap -o %t/exhaust/r.%p.%n.json -- %t/device_heap_kernels exhaust
# CHECK-RE: device heap exhausted: 4 device-side mallocs in fill_until_full\(int\) returned NULL \(launched from launch_fill \(device_heap_kernels\.cu:\d+\)\); the device heap limit \(cudaLimitMallocHeapSize\) is [0-9.]+ MiB, set by cudaDeviceSetLimit in enlarge_heap \(device_heap_kernels\.cu:\d+\)
