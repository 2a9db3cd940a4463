# A report carries a verdict only when a gate option asked for one
# (--error-exitcode, or --fail-on, which keeps the status); with no gate
# option the report has no verdict, only the groups it would count (JUnit and
# SARIF still list them). Plain LD_PRELOAD alike; with error_exitcode it
# gates. A refused gate option still asks: the report says why there is no verdict.
# RUN(exit=23): %run --error-exitcode 23 -o %t/exitcode.json -- %build/samples/sample_loop_leak_shared
# RUN: %expr %t/exitcode.json 'r["gate"]["evaluated"] and r["gate"]["failed"] and r["gate"]["failing_groups"] == 1'
# CHECK: holds:
# RUN: %run --fail-on device -o %t/fail_on.json -- %build/samples/sample_loop_leak_shared
# RUN: %expr %t/fail_on.json 'r["gate"]["evaluated"] and r["gate"]["failed"]'
# CHECK: holds:
# RUN: %run -o %t/plain.json -- %build/samples/sample_loop_leak_shared
# RUN: %expr %t/plain.json 'not r["gate"].get("evaluated") and not r["gate"].get("failed") and not r["gate"].get("failing_groups") and len(r["leaks"]) == 1 and r["leaks"][0]["fails_gate"]'
# CHECK: holds:
# RUN: CUDALEAK_OPTIONS=output=%t/p.json %preload %build/samples/sample_loop_leak_shared
# RUN: %expr %t/p.json 'not r["gate"].get("evaluated")'
# CHECK: holds:
# RUN(exit=23): CUDALEAK_OPTIONS=error_exitcode=23:output=%t/g.json %preload %build/samples/sample_loop_leak_shared
# RUN: %expr %t/g.json 'r["gate"]["evaluated"]'
# CHECK: holds:
# RUN: CUDALEAK_OPTIONS=fail_on=devise:output=%t/r.json %preload %build/samples/sample_clean_shared
# RUN: %expr %t/r.json 'r["gate"]["evaluated"] and "fail_on" in r["gate"]["error"]'
# CHECK: holds:
