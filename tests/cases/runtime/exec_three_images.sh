# Three images of one process each write a report of their own: each later
# image takes the next free name, NAME.PID then NAME.PID-2 with -o NAME;
# where the pattern already says the pid, NAME.PID-2 and NAME.PID-3 (never
# the pid twice). Images are told apart by what each had alive, lost or still
# held in a frame (image k: k MiB).
# RUN: %run -o %t/plain/report.json -- %build/tests/e2e/exec_after_report 1 3
# CHECK-RE: \Aimage 3\n
# RUN: %expr %t/plain \
# RUN:   'len(reports) == 3' \
# RUN:   'dict(zip([x["summary"]["leaked_bytes"] + x["summary"].get("reachable_bytes", 0) for x in reports], files))[1 << 20] == "report.json"' \
# RUN:   'all(n.startswith("report.") and "-" not in n for n in [dict(zip([x["summary"]["leaked_bytes"] + x["summary"].get("reachable_bytes", 0) for x in reports], files))[2 << 20]])' \
# RUN:   'all(dict(zip([x["summary"]["leaked_bytes"] + x["summary"].get("reachable_bytes", 0) for x in reports], files))[3 << 20] == n[:-5] + "-2.json" for n in [dict(zip([x["summary"]["leaked_bytes"] + x["summary"].get("reachable_bytes", 0) for x in reports], files))[2 << 20]])'
# CHECK-COUNT(4): holds:
# RUN: %run -o %t/pid/report.%p.json -- %build/tests/e2e/exec_after_report 1 3
# CHECK-RE: \Aimage 3\n
# RUN: %expr %t/pid \
# RUN:   'len(reports) == 3' \
# RUN:   'all(by[2 << 20] == by[1 << 20][:-5] + "-2.json" and by[3 << 20] == by[1 << 20][:-5] + "-3.json" for by in [dict(zip([x["summary"]["leaked_bytes"] + x["summary"].get("reachable_bytes", 0) for x in reports], files))])'
# CHECK-COUNT(2): holds:
