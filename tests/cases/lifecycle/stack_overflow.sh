# A stack overflow (SIGSEGV with no stack left on the thread's own) still
# writes its report, on the alternate signal stack.
# RUN(signal=SIGSEGV): %run -o %t/r.%p.%n.json -- %build/tests/e2e/stack_overflow
# CHECK-RE: \Aabout to overflow\n
# RUN: %expr %t \
# RUN:   'len(reports) == 1 and r["reason"] == "crash" and len(r["leaks"]) == 1 and r["leaks"][0]["bytes"] == 1 << 20' \
# RUN:   'stack_has(r["leaks"][0], "main")'
# CHECK-COUNT(2): holds:
