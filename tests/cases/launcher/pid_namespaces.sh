# REQUIRES: simulated
# Simulated only: the thread count checked is the simulated driver's (a real driver starts threads of its own).
# Runs in three PID namespaces writing one %p name keep every report: in
# each the launcher is pid 1 and the program pid 2, and all ask for r.2.json.
# /proc is the parent namespace's: the reachability scan still tells the
# reporting thread (itself) and cudaleak's threads from the program's one.
# REQUIRES: pid-namespaces
# RUN: for i in 1 2 3; do unshare --pid --fork %run -o %t/reports/r.%p.json -- %build/tests/e2e/launcher_edges linger 200 & done; wait
# RUN: %expr %t/reports \
# RUN:   'len(reports) == 3 and files.count("r.2.json") == 1' \
# RUN:   'all(x["summary"]["leaked_bytes"] == 1 << 20 and x["reachability"]["threads"] == 1 for x in reports)'
# CHECK-COUNT(2): holds:
