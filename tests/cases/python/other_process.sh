# Another process holds 70% of the device (tests/gpu/python/
# scenario_other_process.py starts it, also under cudaleak): the request
# for half the device fails, and its first cause names the holding
# process by its pid; the failure's stack holds the request's line.
# (About 20 s.)
# REQUIRES: gpu, torch
# LINES-OF: %root/tests/gpu/python/scenario_other_process.py
# RUN: %run --pytorch-stacks true -o %t/r.%%p.%%n.json -- %python %root/tests/gpu/python/scenario_other_process.py
# CHECK: oom as expected
# RUN: %expr %t \
# RUN:   '[e["diagnosis"][0]["cause"] for e in oom_events() if "pytorch" in e] == ["other_processes"]' \
# RUN:   'all(("pid " + str(h["process"]["pid"])) in e["diagnosis"][0]["message"] for h in [x for x in reports if x["reason"] == "exit" and not x.get("oom_events")][:1] for e in oom_events() if "pytorch" in e)' \
# RUN:   'all(python_frame(e["stack"], "<module>", %line:request) for e in oom_events() if "pytorch" in e)'
# CHECK-COUNT(3): holds:
