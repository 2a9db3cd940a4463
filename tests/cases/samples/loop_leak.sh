# samples/loop_leak: one group of 50 allocations, 16 of them listed
# (max_allocations' default) in creation order.
# RUN: %run -o %t/reports/r.%p.json -- %build/samples/sample_loop_leak_shared
# RUN: %expr %t/reports \
# RUN:   'len(reports) == 1 and all(x["format"] == "cudaleak-report" and x["format_version"] == 2 and x["reason"] == "exit" and x["symbolized"] and x["modules"] != [] for x in reports)' \
# RUN:   'len(r["leaks"]) == 1 and r["leaks"][0]["count"] == 50 and stack_has(r["leaks"][0], "step") and r["leaks"][0]["bytes"] == 50 * (16 << 10)' \
# RUN:   'len(r["leaks"][0]["allocations"]) == 16 and all(a["sequence"] < b["sequence"] for a, b in zip(r["leaks"][0]["allocations"], r["leaks"][0]["allocations"][1:]))'
# CHECK-COUNT(3): holds:
