# cudaleak.h works with and without cudaleak, and growth is flagged: the
# checkpoint report, then the exit report with the group that grows at every
# step, its count history, and every checkpoint and the checkpoint report
# marked on the timeline, in order, within the run; one process start time.
# RUN: %run -o %t/r.%n.json -- %build/tests/e2e/checkpoints
# CHECK-RE: \Aactive: 1\nleaks since start: rc=0 count=4 bytes=16384\nunknown checkpoint: -1\nreport: 0\n
# RUN: %expr %t \
# RUN:   'len(reports) == 2 and reports[0]["reason"] == "checkpoint" and reports[0]["checkpoint"] == "after-loop"' \
# RUN:   'all(len(x["leaks"]) == 1 and x["leaks"][0]["growing"] and x["leaks"][0]["count_history"] == [0, 0, 1, 2, 3, 4] for x in reports[1:])' \
# RUN:   'all(len(m) == 6 and (m[0]["type"], m[0]["name"]) == ("checkpoint", "start") and m[4]["name"] == "step" and (m[5]["type"], m[5]["name"]) == ("report", "after-loop") for m in [reports[1]["timeline"]["marks"]])' \
# RUN:   'all(m[i]["time_ns"] >= m[i - 1]["time_ns"] for m in [reports[1]["timeline"]["marks"]] for i in range(1, 6)) and reports[1]["timeline"]["marks"][5]["time_ns"] <= reports[1]["duration_ns"]' \
# RUN:   'reports[1]["process"]["start_unix_ns"] > 1600000000000000000 and reports[1]["process"]["start_unix_ns"] == reports[0]["process"]["start_unix_ns"]'
# CHECK-COUNT(5): holds:
# Without cudaleak: the same lines, with -1 results.
# RUN: LD_LIBRARY_PATH=%build/lib/cudaleak/simcuda:$LD_LIBRARY_PATH %build/tests/e2e/checkpoints
# CHECK-RE: \Aactive: 0\nleaks since start: rc=-1 count=0 bytes=0\nunknown checkpoint: -1\nreport: -1\n\Z
