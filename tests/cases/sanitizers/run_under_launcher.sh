# Programs built with ASan or TSan (tests/e2e/programs/sanitized_leak.cpp)
# run under `cudaleak run` with their own output and status, no word from the
# sanitizer, and their 1 MiB device leak reported, as on the simulated GPU
# alone.
# REQUIRES: simulated
# RUN: for s in address thread; do LD_LIBRARY_PATH=%build/lib/cudaleak/simcuda %build/tests/e2e/sanitized_leak_$s > %t/plain.$s 2> /dev/null; echo "$s plain: $?"; %run -o %t/$s/r.%p.json -- %build/tests/e2e/sanitized_leak_$s > %t/traced.$s 2> %t/err.$s; echo "$s traced: $?"; cmp -s %t/plain.$s %t/traced.$s && echo "$s: same output"; cat %t/traced.$s; grep -c 'AddressSanitizer\|ThreadSanitizer\|does not come first' %t/err.$s; grep -c '1.0 MiB of device memory in 1 allocation never freed' %t/err.$s; done
# CHECK-RE: \Aaddress plain: 0\naddress traced: 0\naddress: same output\nsanitized program: allocated\n0\n1\n
# CHECK-RE: thread plain: 0\nthread traced: 0\nthread: same output\nsanitized program: allocated\n0\n1\n\Z
# RUN: %expr %t/address 'len(reports) == 1 and group("device")["bytes"] == 1 << 20 and summary["leaked_count"] + summary.get("reachable_count", 0) == 1'
# CHECK: holds:
# RUN: %expr %t/thread 'len(reports) == 1 and group("device")["bytes"] == 1 << 20 and summary["leaked_count"] + summary.get("reachable_count", 0) == 1'
# CHECK: holds:
