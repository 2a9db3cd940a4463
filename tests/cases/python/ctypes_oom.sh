# An out-of-memory from Python (tests/e2e/programs/python_ctypes.py fills a
# 256 MiB device 64 MiB at a time) names the Python function that filled
# the device: told once, when it happened; the exit summary only counts it.
# Simulated only: a device of a set size.
# REQUIRES: simulated
# LINES-OF: %root/tests/e2e/programs/python_ctypes.py
# RUN: %run --simulated-gpu-memory 256M -o %t/report.%p.%n.json -- %python %root/tests/e2e/programs/python_ctypes.py oom
# CHECK-COUNT(1): out of memory: cudaMalloc
# CHECK: allocate (python_ctypes.py:%line:allocate)
# CHECK: 1 out-of-memory event shown above
# RUN: %expr %t \
# RUN:   'sum(len(x.get("oom_events", [])) for x in reports) >= 1' \
# RUN:   'all(e["top_sites"][0]["where"] == "allocate (python_ctypes.py:%line:allocate)" for x in reports for e in x.get("oom_events", []))' \
# RUN:   'all(any(f.get("language") == "python" and f["function"] == "fill_until_oom" and f["line"] == %line:fill for f in e["stack"]) for x in reports for e in x.get("oom_events", []))'
# CHECK-COUNT(3): holds:
