# Matching suppression rules hide leaks, stay visible in the report, and are
# counted: nothing counted, so the program's own status (3); read back, the
# summary says what the run's did, and no filter is blamed.
# RUN: printf '# known: the batch buffer of process_batch\nleak:process_batch kind:device\nleak:*never_called_function*\n' > %t/app.supp
# RUN(exit=3): %run --error-exitcode 23 --suppressions %t/app.supp -o %t/r.json -- %build/samples/sample_exception_leak_shared
# CHECK: Suppressions used:
# CHECK:       1    1.0 MiB  leak:process_batch kind:device (%t/app.supp:2)
# RUN: %expr %t/r.json \
# RUN:   'len(r["leaks"]) == 1 and r["leaks"][0]["suppressed_by"] == "leak:process_batch kind:device (%t/app.supp:2)" and not r["leaks"][0].get("fails_gate")' \
# RUN:   'summary["leaked_count"] == 0 and summary["suppressed_bytes"] == 1 << 20' \
# RUN:   '[(s["count"], s["bytes"]) for s in r["suppressions"]] == [(1, 1 << 20)]'
# CHECK-COUNT(3): holds:
# RUN: %report %t/r.json
# CHECK: SUMMARY: cudaleak: 0 B leaked in 0 resources. Suppressed: 1 / 1.0 MiB.
# CHECK-NONE: no leak group matches
