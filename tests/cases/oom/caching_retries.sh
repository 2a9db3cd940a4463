# A caching allocator's retries (tests/e2e/programs/caching_retry.cpp, named
# as CuPy's pool) are one failure, told once at exit with its attempts: held
# while the pool retried, no report of its own; the user's line in the first
# line of the story.
# REQUIRES: simulated
# RUN: %run --simulated-gpu-memory 256MiB -o %t/report.%p.%n.json -- %build/tests/e2e/caching_retry 2> %t/err.txt && cat %t/err.txt >&2
# CHECK-RE: \Apool gave up after 16 arrays\n
# CHECK-COUNT(1): out of memory: cudaMalloc
# CHECK: Before it, 2 calls (cudaMalloc of 16.0 MiB
# RUN: %expr %t \
# RUN:   'len(reports) == 1 and len(r["oom_events"]) == 1' \
# RUN:   '[(e["request_bytes"], [(a["api"], a["request_bytes"]) for a in e["attempts"]], e.get("recovered", False)) for e in r["oom_events"]] == [(16 << 20, [("cudaMalloc", 16 << 20), ("cudaMalloc", 16 << 20)], False)]' \
# RUN:   'all(e["attempts"][0]["time_ns"] <= e["attempts"][1]["time_ns"] <= e["time_ns"] for e in r["oom_events"])' \
# RUN:   'r["oom_events"][0]["diagnosis"][0]["cause"] == "held_by_cache" and r["oom_events"][0]["diagnosis"][0]["message"].startswith("the CuPy memory pool holds 256.0 MiB")' \
# RUN:   '("fill_with_arrays (caching_retry.cpp:" + str(line_of("%root/tests/e2e/programs/caching_retry.cpp", "// LINE:fill")) + ")") in r["oom_events"][0]["diagnosis"][0]["message"]' \
# RUN:   '("in fill_with_arrays (caching_retry.cpp:" + str(line_of("%root/tests/e2e/programs/caching_retry.cpp", "// LINE:fill")) + ")") in text("%t/err.txt")'
# CHECK-COUNT(6): holds:
