# Resources are placed on the context set by create, push, pop, set and
# destroy on each thread (1 and 5 MiB on device 0; 2, 3, 4 and 6 MiB on
# device 1); check_context asked the driver at every creation and never
# disagreed.
# REQUIRES: simulated
# ENV: CUDALEAK_SIM_DEVICES=2
# RUN: %run --check-context -o %t/report.json -- %build/tests/e2e/context_calls
# CHECK: after create b: current 0 b, device 0 1
# CHECK: after set none: current 0 none
# CHECK: end: current 0 none
# RUN: %expr %t/report.json \
# RUN:   'sorted((g["bytes"] >> 20, g["device"]) for g in leaks("device")) == [(1, 0), (2, 1), (3, 1), (4, 1), (5, 0), (6, 1)]' \
# RUN:   'not [n for n in r["notes"] if n["type"] in ("context_mismatch", "context_unseen", "device_mismatch")]'
# CHECK-COUNT(2): holds:
