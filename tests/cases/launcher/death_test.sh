# A death test's child that aborts on purpose is reported but not gated: its
# report is written with its leak, and the gate passes.
# RUN: %run --error-exitcode 9 -o %t/reports/r.%p.json -- %build/tests/e2e/launcher_edges abort-child
# CHECK-RE: \Achild died of signal 6\n
# CHECK: ended by abort (SIGABRT): its report is written, and the leak gate does not count its leaks
# RUN: %expr %t/reports 'len(reports) == 1 and summary["leaked_bytes"] == 1 << 20 and not r["gate"].get("failed", False)'
# CHECK: holds:
