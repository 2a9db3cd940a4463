# Growth by site (issue 56): tests/e2e/programs/slow_leak.cpp leaks a little
# at one site (about 1 MiB per 100 ms for 6 s, 20 ms a step, sampled every
# 100 ms) while churning elsewhere and holding its weights. The exit report
# names the site that grew, steadily, with its rate, and not the churn or
# the weights; the words a user reads carry the stack; read back, `report`
# prints the same.
# REQUIRES: simulated
# RUN: %run --growth-interval-ms 100 -o %t/r.json -- %build/tests/e2e/slow_leak 6
# CHECK: 1 site grew steadily
# CHECK: by cuMemAlloc_v2 at (anonymous namespace)::leak_a_little (slow_leak.cpp:
# CHECK: per minute), never fell
# RUN: %expr %t/r.json \
# RUN:   'len([g for d in r["timeline"]["devices"] for g in d.get("growth", []) if stack_has(g, "leak_a_little")]) == 1' \
# RUN:   'all(g.get("steady") and len(g["history"]) >= 20 and g["level"] - g["since_bytes"] >= 30 << 20 for d in r["timeline"]["devices"] for g in d.get("growth", []) if stack_has(g, "leak_a_little"))' \
# RUN:   'all((g["level"] - g["since_bytes"]) * 60e9 / (g["history_ns"] + len(g["history"]) * g["interval_ns"] - g["since_ns"]) > 200 * (1 << 20) for d in r["timeline"]["devices"] for g in d.get("growth", []) if stack_has(g, "leak_a_little"))' \
# RUN:   'not any(g.get("steady") for d in r["timeline"]["devices"] for g in d.get("growth", []) if stack_has(g, "churn_step") or stack_has(g, "load_weights"))'
# CHECK-COUNT(4): holds:
# RUN: %report %t/r.json
# CHECK: grew steadily for
# CHECK: leak_a_little
