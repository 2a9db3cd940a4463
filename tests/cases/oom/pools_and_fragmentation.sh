# Memory cached in pools (300 MiB reserved but unused; the request does not
# fit in what is free) and free-but-fragmented memory (an injected
# out-of-memory while plenty is free) are diagnosed.
# REQUIRES: simulated
# RUN(exit=1): CUDALEAK_SIM_OTHER_PROCESS=1:pool-holder:300MiB CUDALEAK_SIM_POOL_CACHED=300MiB %run --simulated-gpu-memory 512MiB -o %t/pools/report.%p.%n.json -- %build/tests/e2e/oom_scenarios single 300
# RUN: %expr %t/pools \
# RUN:   'reports[0]["reason"] == "oom" and len(reports[0]["oom_events"]) == 1' \
# RUN:   'any(d["cause"] == "cached_in_pools" and d["bytes"] == 300 << 20 for d in reports[0]["oom_events"][0]["diagnosis"])' \
# RUN:   'reports[0]["oom_events"][0]["pools"][0]["default"]'
# CHECK-COUNT(3): holds:
# RUN(exit=1): CUDALEAK_SIM_FAIL=cuMemAlloc_v2:1 %run -o %t/fragmented/report.%p.%n.json -- %build/tests/e2e/oom_scenarios single 64
# RUN: %expr %t/fragmented \
# RUN:   'reports[0]["reason"] == "oom" and len(reports[0]["oom_events"]) == 1' \
# RUN:   'reports[0]["oom_events"][0]["diagnosis"][0]["cause"] == "fragmentation"'
# CHECK-COUNT(2): holds:
