# Live tensors growing across the reports a program asks for
# (tests/gpu/python/scenario_growth.py keeps every step's loss and asks for
# a report after each of 6 steps, then sends itself the snapshot signal):
# each report carries a fresh PyTorch view, train_step's tensors grow
# report to report and are marked growing, the signal's snapshot has the
# view of its moment, and --gate-growing-tensors fails the run on them and
# says so. (About 10 s.)
# REQUIRES: gpu, torch
# LINES-OF: %root/tests/gpu/python/scenario_growth.py
# RUN(exit=1): %run --pytorch-stacks true --gate-growing-tensors true --error-exitcode 1 -o %t/r.%%p.%%n.json -- %python %root/tests/gpu/python/scenario_growth.py
# CHECK-DAG: gate_growing_tensors
# CHECK-DAG: [growing:
# The bytes of live tensors made on train_step's two lines, in each report.
# RUN: %expr %t \
# RUN:   '[x.get("pytorch", {}).get("when") for x in reports if x["reason"] == "checkpoint"] == ["snapshot"] * 6' \
# RUN:   '(sizes := [sum(g["bytes"] for d in x.get("pytorch", {}).get("devices", []) for g in d["live_tensors"] if python_frame(g["stack"], "train_step", %line:forward) or python_frame(g["stack"], "train_step", %line:input)) for x in reports if x["reason"] == "checkpoint"]) and all(b > a for a, b in zip(sizes, sizes[1:]))' \
# RUN:   'any(g.get("growing", False) for x in [x for x in reports if x["reason"] == "checkpoint"][-1:] for d in x.get("pytorch", {}).get("devices", []) for g in d["live_tensors"] if python_frame(g["stack"], "train_step", %line:forward) or python_frame(g["stack"], "train_step", %line:input))' \
# RUN:   '(snap := [x for x in reports if x["reason"] == "signal"]) and snap[0]["pytorch"]["when"] == "snapshot" and sum(g["bytes"] for d in snap[0]["pytorch"]["devices"] for g in d["live_tensors"] if python_frame(g["stack"], "train_step", %line:forward) or python_frame(g["stack"], "train_step", %line:input)) > sum(g["bytes"] for d in last_report("checkpoint")["pytorch"]["devices"] for g in d["live_tensors"] if python_frame(g["stack"], "train_step", %line:forward) or python_frame(g["stack"], "train_step", %line:input))' \
# RUN:   'last_report()["gate"].get("failing_tensor_groups", 0) >= 1'
# CHECK-COUNT(5): holds:
