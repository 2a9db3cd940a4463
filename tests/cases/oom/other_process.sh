# Another process holding the device (400 MiB of 512 MiB) is named, from NVML.
# REQUIRES: simulated
# RUN(exit=1): CUDALEAK_SIM_OTHER_PROCESS=4242:python:400MiB %run --simulated-gpu-memory 512MiB -o %t/report.%p.%n.json -- %build/tests/e2e/oom_scenarios single 300
# CHECK: another process holds 400.0 MiB of the device: pid 4242 (python) holds 400.0 MiB; without them the request would fit
# RUN: %expr %t \
# RUN:   'reports[0]["reason"] == "oom" and len(reports[0]["oom_events"]) == 1' \
# RUN:   '[(e["nvml"], e["free_bytes"], [(p["pid"], p["name"], p["bytes"]) for p in e["other_processes"]]) for e in reports[0]["oom_events"]] == [("ok", 112 << 20, [(4242, "python", 400 << 20)])]' \
# RUN:   '[(d["cause"], d["message"]) for d in reports[0]["oom_events"][0]["diagnosis"][:1]] == [("other_processes", "another process holds 400.0 MiB of the device: pid 4242 (python) holds 400.0 MiB; without them the request would fit")]'
# CHECK-COUNT(3): holds:
