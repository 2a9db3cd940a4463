# report, merge and HTML count a process that wrote several reports (the
# out-of-memory report, then the exit report: one run_id, PID-...) once:
# main's vector still holds every step's buffer when forward() exits (still
# reachable), the earlier report is history. A forked child is a process of
# its own: another run_id, counted beside its parent.
# REQUIRES: simulated
# RUN(exit=1): %run --simulated-gpu-memory 400MiB -o %t/once/r.%p.%n.json -- %build/samples/sample_oom_leak_shared
# RUN: %expr %t/once \
# RUN:   'len(reports) == 2 and reports[0]["reason"] == "oom" and reports[0]["process"]["run_id"] != ""' \
# RUN:   'reports[0]["process"]["run_id"] == reports[1]["process"]["run_id"] and reports[0]["process"]["run_id"].startswith(str(reports[0]["process"]["pid"]) + "-")'
# CHECK-COUNT(2): holds:
# RUN: %report %t/once/*.json
# CHECK: SUMMARY: cudaleak: 0 B leaked in 0 resources. Still reachable: 40 / 400.0 MiB.
# RUN: %report %t/once/*.json
# CHECK: 1 earlier report of the same processes
# RUN: mkdir %t/once.merged && %cudaleak merge $(ls %t/once/*.json | sort -r) -o %t/once.merged/m.json
# RUN: %expr %t/once.merged/m.json \
# RUN:   '[p["reason"] for p in r["processes"]] == ["exit"] and summary["reachable_count"] == 40 and len(r["oom_events"]) == 1' \
# RUN:   '[h["reason"] for h in r["history"]] == ["oom"]'
# CHECK-COUNT(2): holds:
# RUN: %report %t/once/*.json --format html -o %t/once.html && cat %t/once.html
# CHECK: "history":[{
# CHECK-NONE: "leaked_count":80
# RUN: %run -o %t/fork/r.%p.json -- %build/tests/e2e/fork_child && mkdir %t/fork.merged && %cudaleak merge %t/fork/*.json -o %t/fork.merged/m.json
# RUN: %expr %t/fork 'len(reports) == 2 and reports[0]["process"]["run_id"] != reports[1]["process"]["run_id"]'
# CHECK: holds:
# RUN: %expr %t/fork.merged/m.json 'len(r["processes"]) == 2'
# CHECK: holds:
