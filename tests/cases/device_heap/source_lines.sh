# A kernel built with -lineinfo names its malloc's source line in the group,
# the text and SARIF (whose location is the first program frame with a file:
# the device line); one built without line information shows none and is
# grouped as before.
# REQUIRES: simulated
# RUN: %run --device-heap --sarif %t/leaks.sarif -o %t/r.json -- %build/tests/e2e/device_heap_kernels leaks 2> %t/err.txt
# RUN: %expr %t/r.json \
# RUN:   '[(g["count"], g["stack"][0]["line"], g["stack"][0]["file"].endswith("tests/e2e/programs/device_heap_kernels.cu")) for g in leaks("device_heap") if g["stack"][0]["function"] == "keep_rows(int)"] == [(64, line_of("%root/tests/e2e/programs/device_heap_kernels.cu", "char* row = static_cast<char*>(malloc(bytes));"), True)]' \
# RUN:   '[g["stack"][0]["line"] for g in leaks("device_heap") if g["stack"][0]["function"] == "odd_sizes()"] == [line_of("%root/tests/e2e/programs/device_heap_kernels.cu", "char* kept = static_cast<char*>(malloc(1000));")]' \
# RUN:   '("made by malloc in keep_rows(int) at device_heap_kernels.cu:" + str(line_of("%root/tests/e2e/programs/device_heap_kernels.cu", "char* row = static_cast<char*>(malloc(bytes));")) + " on device 0") in text("%t/err.txt")' \
# RUN:   '("\"startLine\": " + str(line_of("%root/tests/e2e/programs/device_heap_kernels.cu", "char* row = static_cast<char*>(malloc(bytes));"))) in text("%t/leaks.sarif")'
# CHECK-COUNT(4): holds:
# RUN: %run --device-heap -o %t/no_lines.json -- %build/tests/e2e/device_heap_kernels_no_lines leaks
# CHECK: made by malloc in keep_rows(int) on device 0
# CHECK: keep_rows(int) ([device])
# CHECK-NONE: made by malloc in keep_rows(int) at
# RUN: %expr %t/no_lines.json '[(g["count"], g["stack"][0].get("line", 0), g["stack"][0].get("file", "")) for g in leaks("device_heap") if g["stack"][0]["function"] == "keep_rows(int)"] == [(64, 0, "")]'
# CHECK: holds:
