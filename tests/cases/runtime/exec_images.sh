# A process that replaces its image keeps each image's report under one -o:
# same pid, two images; the second is another writer of the run, never the
# first rewriting its own report. What each image had alive (lost or still
# held in a frame): 1 MiB and 2 MiB. The first image was replaced, not lost:
# never "ended without its report", and the gate fails on the second image's
# leak, never 125.
# RUN: %run -o %t/reports/report.json -- %build/tests/e2e/exec_after_report
# CHECK-RE: \Asecond image\n
# CHECK-NONE: ended without its report
# RUN: %expr %t/reports 'sorted(x["summary"]["leaked_bytes"] + x["summary"].get("reachable_bytes", 0) for x in reports) == [1 << 20, 2 << 20]'
# CHECK: holds:
# RUN(exit=9): %run --error-exitcode 9 -o %t/gated/report.json -- %build/tests/e2e/exec_after_report
# CHECK-NONE: ended without its report
