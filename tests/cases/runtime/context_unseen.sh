# check_context notes a context bound where cudaleak cannot see (cuCtxSetCurrent
# found in the driver's ELF symbol table): 7 MiB placed on b, which cudaleak
# saw pushed (the documented limit), 8 MiB asked of the driver and right.
# REQUIRES: simulated
# ENV: CUDALEAK_SIM_DEVICES=2
# RUN: %run --check-context -o %t/report.json -- %build/tests/e2e/context_calls unseen
# CHECK: unseen set a 0
# CHECK: check_context: 8 creations placed, 1 differ from the driver, 1 on a context bound unseen
# RUN: %expr %t/report.json \
# RUN:   'sorted((n["type"], n["api"], n["count"]) for n in r["notes"]) == [("context_mismatch", "cuMemAlloc_v2", 1), ("context_unseen", "cuMemAlloc_v2", 1)]' \
# RUN:   '[g["device"] for g in leaks("device") if g["bytes"] == 7 << 20] == [1] and [g["device"] for g in leaks("device") if g["bytes"] == 8 << 20] == [0]'
# CHECK-COUNT(2): holds:
