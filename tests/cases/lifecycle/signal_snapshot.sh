# SIGUSR1 writes a snapshot (the program waits for its file, report.0.json),
# the exit report follows with the snapshot on its timeline. At the snapshot
# the program still holds its 2 MiB in main's frame: alive, still reachable,
# not leaked.
# RUN: %run -o %t/report.%n.json -- %build/tests/e2e/signal_snapshot %t/report.0.json
# CHECK-RE: \Asnapshot seen\n
# RUN: %expr %t \
# RUN:   'len(reports) == 2 and reports[0]["reason"] == "signal" and reports[1]["reason"] == "exit"' \
# RUN:   'reports[0]["summary"]["reachable_bytes"] == 2 << 20 and reports[0]["summary"]["leaked_bytes"] == 0' \
# RUN:   'reports[1]["leaks"] == [] and [m["type"] for m in reports[1]["timeline"]["marks"]] == ["snapshot"]'
# CHECK-COUNT(3): holds:
