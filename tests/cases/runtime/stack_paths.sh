# Twin call paths at the same stack pointer are never mixed up by the stack
# cache: each site allocates its own size, so a group with another site's
# stack would have bytes that are not count times that size; four threads
# and the main thread make 200 of each. The cache was in use: of the main
# thread's 800 allocations, all but the first sightings hit it.
# RUN: %run --verbose true --max-allocations 0 -o %t/r.json -- %build/tests/e2e/stack_paths 4 200 2> %t/err.txt
# RUN: %expr %t/r.json \
# RUN:   'all(int(c[0]) > 700 and int(c[2]) >= 4 for c in [[x.split()[0] for x in text("%t/err.txt").split("stack cache of the reporting thread: ")[1].split(",")]])' \
# RUN:   'all(g["bytes"] == g["count"] * size and all(a["bytes"] == size for a in g["allocations"]) for function, size in [("site_a", 256), ("site_b", 512), ("via_left", 768), ("via_right", 1024)] for g in r["leaks"] if stack_has(g, function))' \
# RUN:   'all(sum(g["count"] for g in r["leaks"] if stack_has(g, function)) == 5 * 200 for function in ["site_a", "site_b", "via_left", "via_right"])'
# CHECK-COUNT(3): holds:
