# A raw cudaMalloc through ctypes, never freed (tests/gpu/python/
# scenario_ctypes.py): the 64 MiB leak's stack and site name the Python
# function and line that made it, and the report says Python frames were
# read. (Under 1 s.)
# REQUIRES: gpu
# LINES-OF: %root/tests/gpu/python/scenario_ctypes.py
# RUN: %run --pytorch-stacks true -o %t/r.%%p.%%n.json -- %python %root/tests/gpu/python/scenario_ctypes.py
# CHECK: allocated
# RUN: %expr %t \
# RUN:   'len([g for g in last_report().get("leaks", []) if g["kind"] == "device" and g["bytes"] == 64 << 20]) == 1' \
# RUN:   'all(python_frame(g["stack"], "leaky_buffer", %line:malloc) for g in last_report()["leaks"] if g["kind"] == "device" and g["bytes"] == 64 << 20)' \
# RUN:   'all(g.get("site", "").startswith("device | leaky_buffer @ scenario_ctypes.py:%line:malloc") for g in last_report()["leaks"] if g["kind"] == "device" and g["bytes"] == 64 << 20)' \
# RUN:   'last_report().get("python", {}).get("frames") is True'
# CHECK-COUNT(4): holds:
