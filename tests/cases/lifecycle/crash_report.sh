# A crash (SIGSEGV after a leak of 1 MiB and a checkpoint): a report of the
# live resources, then death by the same signal. Frames in shared libraries
# are symbolized too (each module's load address is right, so the runtime's
# frame names the API the program called); the memory timeline and the marks
# up to the crash, as an exit report has them.
# RUN(signal=SIGSEGV): %run -o %t/r.%p.%n.json -- %build/tests/e2e/crash_after_leak
# CHECK-RE: \Aabout to crash\n
# RUN: %expr %t \
# RUN:   'len(reports) == 1 and r["reason"] == "crash" and len(r["leaks"]) == 1 and r["leaks"][0]["bytes"] == 1 << 20' \
# RUN:   'stack_has(r["leaks"][0], "main") and r["leaks"][0]["api"] == "cudaMalloc" and stack_has(r["leaks"][0], "cudaMalloc")' \
# RUN:   'r["process"]["start_unix_ns"] > 1600000000000000000' \
# RUN:   'len(r["timeline"]["devices"]) == 1 and r["timeline"]["devices"][0]["peak"]["bytes"] == 1 << 20' \
# RUN:   'r["timeline"]["devices"][0]["points"][-1][2 + r["timeline"]["kinds"].index("device")] == 1 << 20' \
# RUN:   '[(m["type"], m["name"]) for m in r["timeline"]["marks"]] == [("checkpoint", "allocated")]'
# CHECK-COUNT(6): holds:
