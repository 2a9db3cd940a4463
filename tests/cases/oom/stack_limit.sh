# A per-thread stack size that reserves the device is named as the cause,
# with its line: 8 KiB for each of the simulated device's 8192 resident
# threads, 64 MiB of 512 MiB reserved, and a 480 MiB request no longer fits.
# REQUIRES: simulated
# RUN(exit=1): %run --simulated-gpu-memory 512MiB -o %t/report.%p.%n.json -- %build/tests/e2e/oom_scenarios stack 8 480
# CHECK-RE: \Astack limit: no error\nallocation: out of memory\n
# CHECK:   1. the thread stack size limit set in enlarge_stack
# RUN: %expr %t \
# RUN:   'reports[0]["reason"] == "oom" and len(reports[0]["oom_events"]) == 1' \
# RUN:   'reports[0]["oom_events"][0]["free_bytes"] == 448 << 20 and reports[0]["oom_events"][0]["untracked_bytes"] == 0' \
# RUN:   '[(v["limit"], v["value"], v["threads"], v["bytes"], v["api"]) for v in reports[0]["oom_events"][0]["reservations"]] == [("stack_size", 8192, 8192, 64 << 20, "cudaDeviceSetLimit")]' \
# RUN:   'all(d["cause"] == "context_reservation" and d["bytes"] == 64 << 20 and d["message"].startswith("the thread stack size limit set in enlarge_stack (oom_scenarios.cu:") and "reserves 64.0 MiB (8.0 KiB per thread for each of the 8192 threads the device can run at once), without it the request would fit; fix: " in d["message"] for d in reports[0]["oom_events"][0]["diagnosis"][:1])'
# CHECK-COUNT(4): holds:
