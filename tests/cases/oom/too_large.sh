# A request larger than the device says so first.
# REQUIRES: simulated
# RUN(exit=1): %run --simulated-gpu-memory 512MiB -o %t/report.%p.%n.json -- %build/tests/e2e/oom_scenarios single 1024
# CHECK: the request (1.0 GiB) is larger than the device's total memory (512.0 MiB): it can never succeed on this device
# RUN: %expr %t \
# RUN:   'reports[0]["reason"] == "oom" and len(reports[0]["oom_events"]) == 1' \
# RUN:   '[(d["cause"], d["message"]) for d in reports[0]["oom_events"][0]["diagnosis"][:1]] == [("request_too_large", "the request (1.0 GiB) is larger than the device'"'"'s total memory (512.0 MiB): it can never succeed on this device")]'
# CHECK-COUNT(2): holds:
