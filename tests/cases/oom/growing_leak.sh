# A leak that grows each step (32 MiB a step) until the 512 MiB device runs
# out is named with its growth, at the failing allocation (the "oom" report,
# then the exit report): the numbers behind it, the site, the diagnosis
# first; at the peak, the whole leak and the group to shrink.
# REQUIRES: simulated
# RUN(exit=1): %run --simulated-gpu-memory 512MiB -o %t/report.%p.%n.json -- %build/tests/e2e/oom_scenarios leak 32
# CHECK-RE: \Astep 16 failed: out of memory\n
# CHECK-RE: Likely causes, most likely first:\n  1\. 512\.0 MiB of device memory allocated in train_step
# RUN: %expr %t \
# RUN:   'len(reports) == 2 and reports[0]["reason"] == "oom" and len(reports[0]["oom_events"]) == 1' \
# RUN:   '[(e["api"], e["request_bytes"], e["device_info"], e["free_bytes"], e["total_bytes"], e["tracked_bytes"], e["tracked_by_kind"]["device"]) for e in reports[0]["oom_events"]] == [("cudaMalloc", 32 << 20, True, 0, 512 << 20, 512 << 20, 512 << 20)]' \
# RUN:   'all(e["top_sites"][0]["where"].startswith("train_step (oom_scenarios.cu:") and e["top_sites"][0]["count"] == 16 for e in reports[0]["oom_events"])' \
# RUN:   'all(e["recent_bytes"] + e["old_bytes"] == e["tracked_bytes"] and e["old_bytes"] > 0 for e in reports[0]["oom_events"])' \
# RUN:   'all(d["cause"] == "accumulating_leak" and d["message"].startswith("512.0 MiB of device memory allocated in train_step") and "16 allocations" in d["message"] and "about 32.0 MiB each" in d["message"] for d in [reports[0]["oom_events"][0]["diagnosis"][0]])' \
# RUN:   'all(p["bytes"] == 512 << 20 and p["groups"][0]["where"].startswith("train_step") and p["groups"][0]["count"] == 16 for p in [reports[1]["timeline"]["devices"][0]["peak"]])'
# CHECK-COUNT(6): holds:
