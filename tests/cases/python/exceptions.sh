# Tensors kept alive by stored exceptions (tests/gpu/python/
# scenario_exceptions.py: each traceback holds the frame of a 32 MiB
# tensor): at exit PyTorch's view names the 10 tensors, 320 MiB, at
# work's line, and the summary says they are held by live tensors there;
# with --gate-live-tensors the gate fails on them and says so. (About 25 s.)
# REQUIRES: gpu, torch
# LINES-OF: %root/tests/gpu/python/scenario_exceptions.py
# RUN: %run --pytorch-stacks true -o %t/plain/r.%%p.%%n.json -- %python %root/tests/gpu/python/scenario_exceptions.py
# CHECK-DAG: held by live tensors
# CHECK-DAG: work (scenario_exceptions.py:%line:scratch)
# RUN: %expr %t/plain \
# RUN:   '"pytorch" in last_report()' \
# RUN:   '[(g["bytes"] >= 320 << 20, g["count"]) for g in last_report()["pytorch"]["devices"][0]["live_tensors"][:1]] == [(True, 10)]' \
# RUN:   'any(f.get("function") == "work" and f.get("line") == %line:scratch for f in last_report()["pytorch"]["devices"][0]["live_tensors"][0]["stack"])'
# CHECK-COUNT(3): holds:
# RUN(exit=1): %run --pytorch-stacks true --gate-live-tensors true --error-exitcode 1 -o %t/gated/r.%%p.%%n.json -- %python %root/tests/gpu/python/scenario_exceptions.py
# CHECK: of them PyTorch's live tensors
# RUN: %expr %t/gated \
# RUN:   'last_report()["gate"]["failed"] and last_report()["gate"].get("failing_tensor_groups", 0) >= 1 and last_report()["gate"]["failing_bytes"] >= 320 << 20'
# CHECK: holds:
