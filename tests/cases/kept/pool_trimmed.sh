# A trim lowers what a pool keeps to what it was trimmed to (16 MiB).
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/pool_keeps trimmed
# CHECK: keeping up to 16.0 MiB reserved
# RUN: %expr %t/r.json 'len(leaks("pool")) == 1 and group("pool")["pool"]["reserved"] == 16 << 20 and group("pool")["pool"]["high_water"] == 16 << 20'
# CHECK: holds:
