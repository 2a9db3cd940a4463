# A pool without a threshold keeps what is in use, and its allocation stays
# a leak, counted once: 64 MiB kept by the first pool, 8 MiB in use in the second.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/pool_keeps in_use
# CHECK: 8.0 MiB of async memory in 1 allocation never freed
# CHECK: 1 memory pool never destroyed (8.0 MiB in use)
# RUN: %expr %t/r.json \
# RUN:   'len(leaks("pool")) == 2 and sum(g["pool"]["reserved"] for g in leaks("pool")) == 72 << 20' \
# RUN:   'all(g["pool"]["used"] == 8 << 20 for g in leaks("pool") if not g["pool"].get("threshold_set"))' \
# RUN:   'summary["leaked_bytes"] == 8 << 20'
# CHECK-COUNT(3): holds:
