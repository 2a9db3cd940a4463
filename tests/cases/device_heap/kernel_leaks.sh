# Device-side malloc and free (--device-heap) under the simulated GPU and its
# simulated Sanitizer API: kernels' leaks are counted exactly, grouped by
# kernel above the launch's stack; the 24-byte blocks odd_sizes freed are not
# reported, nor scratch_only, which frees all it takes.
# REQUIRES: simulated
# RUN: %run --device-heap -o %t/r.%p.json -- %build/tests/e2e/device_heap_kernels leaks
# CHECK-RE: \Aleaks done\n
# CHECK: keep_rows(int)
# RUN: %expr %t \
# RUN:   'len(reports) == 1' \
# RUN:   'len([g for g in leaks("device_heap") if g["stack"][0]["function"] == "keep_rows(int)"]) == 1' \
# RUN:   'all(g["count"] == 64 and g["bytes"] == 64 * 4096 and g["stack"][0]["module"] == "[device]" and stack_has(g, "launch_rows") and stack_has(g, "main") for g in leaks("device_heap") if g["stack"][0]["function"] == "keep_rows(int)")' \
# RUN:   '[(g["count"], g["bytes"], stack_has(g, "launch_odd")) for g in leaks("device_heap") if g["stack"][0]["function"] == "odd_sizes()"] == [(16, 16 * 1000, True)]' \
# RUN:   'not [g for g in leaks("device_heap") if g["stack"][0]["function"] == "scratch_only()"]' \
# RUN:   'count("device_heap") == 80 and size("device_heap") == 64 * 4096 + 16 * 1000'
# CHECK-COUNT(6): holds:
