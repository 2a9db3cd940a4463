# A failed call whose retry succeeds is kept as recovered and never told as
# a failure: no out-of-memory report, nothing failed for the program.
# REQUIRES: simulated
# RUN: %run --simulated-gpu-memory 256MiB -o %t/report.%p.%n.json -- %build/tests/e2e/caching_retry recover
# CHECK-RE: \Abig array: allocated\n
# CHECK: 1 allocation failed with out-of-memory and succeeded when the allocator retried after releasing memory it held
# CHECK-NONE: out of memory:
# RUN: %expr %t 'len(reports) == 1 and [(e["recovered"], e["request_bytes"]) for e in r["oom_events"]] == [(True, 32 << 20)]'
# CHECK: holds:
