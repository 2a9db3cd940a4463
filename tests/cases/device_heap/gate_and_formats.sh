# The device_heap kind through the gate, JUnit, SARIF (the launch's line)
# and `report --kind`; a suppression naming one kernel leaves the other
# failing the gate, both named pass it.
# REQUIRES: simulated
# RUN(exit=23): %run --device-heap --error-exitcode 23 --junit %t/leaks.xml --sarif %t/leaks.sarif -o %t/r.json -- %build/tests/e2e/device_heap_kernels leaks
# CHECK: leak gate failed: 2 leak groups (80 resources, 278144 bytes)
# RUN: cat %t/leaks.xml
# CHECK: failures="2"
# CHECK: classname="cudaleak.device_heap"
# CHECK: keep_rows(int)
# RUN: cat %t/leaks.sarif
# CHECK: "ruleId": "cudaleak/device_heap-leak"
# CHECK: device_heap_kernels.cu
# RUN: %report --kind device_heap %t/r.json
# CHECK: keep_rows(int)
# CHECK: odd_sizes()
# RUN: %report --kind stream %t/r.json
# CHECK-NONE: keep_rows(int)
# RUN: echo 'leak:keep_rows* kind:device_heap' > %t/one.supp
# RUN(exit=23): %run --device-heap --error-exitcode 23 --suppressions %t/one.supp -o %t/one.json -- %build/tests/e2e/device_heap_kernels leaks
# RUN: %expr %t/one.json \
# RUN:   '[g["suppressed_by"].startswith("leak:keep_rows* kind:device_heap") for g in leaks("device_heap") if g["stack"][0]["function"] == "keep_rows(int)"] == [True]' \
# RUN:   'summary["suppressed_count"] == 64 and summary["suppressed_bytes"] == 64 * 4096'
# CHECK-COUNT(2): holds:
# RUN: printf 'leak:keep_rows* kind:device_heap\nleak:odd_sizes*\n' > %t/both.supp
# RUN: %run --device-heap --error-exitcode 23 --suppressions %t/both.supp -o %t/both.json -- %build/tests/e2e/device_heap_kernels leaks
# CHECK-NONE: leak gate failed
