# A relative report path is the launcher's, its directory made, whatever
# directory the program runs in (it changes to / first, as ctest runs each
# test in its own directory).
# RUN: %run -o reports/r.%p.json -- /bin/sh -c 'cd / && exec %build/samples/sample_pinned_leak_shared'
# RUN: %expr %t/reports 'len(reports) == 1 and "pinned" in summary["by_kind"]'
# CHECK: holds:
