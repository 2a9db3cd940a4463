# Memory XLA preallocated is named with JAX's settings when the program's own
# call fails: no attempts of its own, the preallocation's line and the
# program's own line named.
# REQUIRES: simulated
# RUN: %run --simulated-gpu-memory 256MiB -o %t/report.%p.%n.json -- %build/tests/e2e/caching_retry xla 2> %t/err.txt
# CHECK-RE: \Aown buffer: out of memory\n
# RUN: %expr %t \
# RUN:   'text("%t/err.txt").count("out of memory: cudaMalloc") == 1' \
# RUN:   'len(reports[0]["oom_events"]) == 1 and reports[0]["oom_events"][0].get("attempts", []) == []' \
# RUN:   'all(d["cause"] == "held_by_cache" and d["message"].startswith("the XLA BFC allocator holds 192.0 MiB") and "XLA_PYTHON_CLIENT_PREALLOCATE=false" in d["message"] for d in reports[0]["oom_events"][0]["diagnosis"][:1])' \
# RUN:   '("warm_up_jax (caching_retry.cpp:" + str(line_of("%root/tests/e2e/programs/caching_retry.cpp", "// LINE:preallocate")) + ")") in reports[0]["oom_events"][0]["diagnosis"][0]["message"]' \
# RUN:   '("in own_buffer (caching_retry.cpp:" + str(line_of("%root/tests/e2e/programs/caching_retry.cpp", "// LINE:own")) + ")") in text("%t/err.txt")'
# CHECK-COUNT(5): holds:
