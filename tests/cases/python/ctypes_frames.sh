# CUDA from Python through ctypes (tests/e2e/programs/python_ctypes.py),
# under every CPython found: the leak's stack names the Python functions
# and lines, innermost first, up to the module level, in place of the
# interpreter's frames; 3.11 and later name a method by its qualified name.
# PYTHONS: all
# LINES-OF: %root/tests/e2e/programs/python_ctypes.py
# RUN: %run -o %t/report.%p.json -- %python %root/tests/e2e/programs/python_ctypes.py leak
# CHECK: [python] in allocate %root/tests/e2e/programs/python_ctypes.py:%line:allocate
# RUN: %expr %t \
# RUN:   'len(reports) == 1 and r["python"]["frames"] is True and r["python"]["version"].startswith("3.")' \
# RUN:   'len(r["leaks"]) == 1 and r["leaks"][0]["count"] == 3' \
# RUN:   '[(f["function"], f["line"]) for f in r["leaks"][0]["stack"] if f.get("language") == "python"] == [("allocate", %line:allocate), ("Trainer.step" if int(r["python"]["version"].split(".")[1]) >= 11 else "step", %line:step), ("leak_in_loop", %line:loop), ("<module>", %line:module)]' \
# RUN:   'all(f["file"] == "%root/tests/e2e/programs/python_ctypes.py" for f in r["leaks"][0]["stack"] if f.get("language") == "python")' \
# RUN:   'r["leaks"][0]["site"] == "device | allocate @ python_ctypes.py:%line:allocate | " + ("Trainer.step" if int(r["python"]["version"].split(".")[1]) >= 11 else "step") + " @ python_ctypes.py:%line:step | leak_in_loop @ python_ctypes.py:%line:loop | <module> @ python_ctypes.py:%line:module"'
# CHECK-COUNT(5): holds:
