# SIGTERM to the program writes the final report (the waiting program still
# holds its 1 MiB: still reachable), then it dies of SIGTERM: 128 + 15.
# RUN: %run -o %t/reports/r.%p.json -- %build/tests/e2e/wait_for_signal %t/pid & L=$!; while [ ! -s %t/pid ]; do sleep 0.05; done; kill -TERM $(cat %t/pid); wait $L; echo status=$?
# CHECK-RE: \Astatus=143\n
# RUN: %expr %t/reports 'len(reports) == 1 and r["reason"] == "termination" and summary["reachable_bytes"] == 1 << 20'
# CHECK: holds:
