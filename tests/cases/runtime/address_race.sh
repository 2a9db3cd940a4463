# Address reuse across 32 threads (the driver hands freed addresses straight
# to other threads) loses no record and makes no note: exactly 6400 of
# 640000 allocations alive, 3 runs.
# REQUIRES: simulated
# RUN: for i in 0 1 2; do %run -o %t/reports/r.$i.json -- %build/tests/e2e/address_race 32 20000 || echo failed; done
# CHECK-NONE: failed
# RUN: %expr %t/reports \
# RUN:   'len(reports) == 3 and all(x["summary"]["leaked_count"] == 6400 and x["summary"]["leaked_bytes"] == 6400 * 4096 for x in reports)' \
# RUN:   'all(x["notes"] == [] and x["notes_total"] == 0 for x in reports)'
# CHECK-COUNT(2): holds:
