# A thread's allocation names its own Python frames (the thread's lambda,
# then threading's Thread.run); a crash report names the Python frames of
# the leak (tests/e2e/programs/python_ctypes.py).
# LINES-OF: %root/tests/e2e/programs/python_ctypes.py
# RUN: %run -o %t/thread/report.%p.json -- %python %root/tests/e2e/programs/python_ctypes.py thread
# CHECK: [python] in allocate
# RUN: %expr %t/thread \
# RUN:   'len(reports) == 1 and len(r["leaks"]) == 1' \
# RUN:   '[(f["function"], f["line"]) for f in r["leaks"][0]["stack"] if f.get("language") == "python"][:2] == [("allocate", %line:allocate), ("in_thread.<locals>.<lambda>", %line:thread)]' \
# RUN:   '[f["function"] for f in r["leaks"][0]["stack"] if f.get("language") == "python"][2] == "Thread.run"'
# CHECK-COUNT(3): holds:
# RUN(signal=SIGSEGV): %run -o %t/crash/report.%p.json -- %python %root/tests/e2e/programs/python_ctypes.py crash
# CHECK: leak_in_loop
# RUN: %expr %t/crash \
# RUN:   'len(reports) == 1 and r["reason"] == "crash" and len(r["leaks"]) == 1' \
# RUN:   '("leak_in_loop", %line:loop) in [(f["function"], f["line"]) for f in r["leaks"][0]["stack"] if f.get("language") == "python"]'
# CHECK-COUNT(2): holds:
