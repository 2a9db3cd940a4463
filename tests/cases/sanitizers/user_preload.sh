# The user's own preload of the ASan runtime stays first, under the launcher
# and under plain LD_PRELOAD after it (as docs/usage.md says): the program's
# output and status as alone, no word from the sanitizer, the leak reported.
# The ASan runtime is the one of the compiler that built the program (CXX,
# which CTest sets).
# REQUIRES: simulated
# RUN: LD_LIBRARY_PATH=%build/lib/cudaleak/simcuda %build/tests/e2e/sanitized_leak_address > %t/plain.txt 2> /dev/null; echo "plain: $?"
# CHECK: plain: 0
# RUN: LD_PRELOAD=$(${CXX:-g++} -print-file-name=libasan.so) %run -o %t/launcher/r.%p.json -- %build/tests/e2e/sanitized_leak_address > %t/launcher.txt; echo "launcher: $?"; cmp %t/plain.txt %t/launcher.txt && echo same output
# CHECK: launcher: 0
# CHECK: same output
# CHECK-NONE: AddressSanitizer
# CHECK-NONE: does not come first
# RUN: %expr %t/launcher 'len(reports) == 1 and group("device")["bytes"] == 1 << 20 and summary["leaked_count"] + summary.get("reachable_count", 0) == 1'
# CHECK: holds:
# RUN: mkdir %t/preload && LD_PRELOAD=$(${CXX:-g++} -print-file-name=libasan.so):%build/lib/libcudaleak.so LD_LIBRARY_PATH=%build/lib/cudaleak/simcuda CUDALEAK_OPTIONS=output=%t/preload/r.%p.json %build/tests/e2e/sanitized_leak_address > %t/preload.txt; echo "preload: $?"; cmp %t/plain.txt %t/preload.txt && echo same output
# CHECK: preload: 0
# CHECK: same output
# CHECK-NONE: AddressSanitizer
# CHECK-NONE: does not come first
# RUN: %expr %t/preload 'len(reports) == 1 and group("device")["bytes"] == 1 << 20 and summary["leaked_count"] + summary.get("reachable_count", 0) == 1'
# CHECK: holds:
