# With --device-heap off, a loaded module whose kernels call malloc is named
# once with the option that shows them (issue 50), rather than "no CUDA
# resources leaked" alone; with it on, no note; a module without malloc is
# not named.
# REQUIRES: simulated
# RUN: %run -o %t/off.json -- %build/tests/e2e/module_globals clean %build/tests/e2e/device_heap_kernels.cubin %build/tests/e2e/device_heap_kernels.cubin
# CHECK-COUNT(1): note: kernels of device_heap_kernels.cubin and a module loaded from memory call device-side malloc, which cudaleak tracks only with --device-heap (what they leaked is not in this report)
# RUN: %expr %t/off.json 'len(r["device_malloc_modules"]) == 2'
# CHECK: holds:
# RUN: %run --device-heap -o %t/on.json -- %build/tests/e2e/module_globals clean %build/tests/e2e/device_heap_kernels.cubin %build/tests/e2e/device_heap_kernels.cubin
# CHECK-NONE: device-side malloc
# RUN: %expr %t/on.json 'r.get("device_malloc_modules", []) == []'
# CHECK: holds:
# RUN: %run -o %t/plain.json -- %build/tests/e2e/module_globals clean %build/tests/e2e/module_globals_kernels.cubin %build/tests/e2e/module_globals_kernels.cubin
# CHECK-NONE: device-side malloc
# RUN: %expr %t/plain.json 'r.get("device_malloc_modules", []) == []'
# CHECK: holds:
