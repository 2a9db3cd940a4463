# Address reuse across 32 threads on a real GPU (the driver hands freed
# addresses straight to other threads) loses no record and makes no note:
# exactly 1600 allocations alive, 3 runs.
# REQUIRES: gpu
# RUN: for i in 0 1 2; do %run -o %t/reports/r.$i.json -- %build/tests/e2e/address_race 32 5000 || echo failed; done
# CHECK-NONE: failed
# RUN: %expr %t/reports \
# RUN:   'len(reports) == 3 and all(x["summary"]["leaked_count"] == 1600 for x in reports)' \
# RUN:   'all(len(x.get("notes", [])) == 0 for x in reports)'
# CHECK-COUNT(2): holds:
