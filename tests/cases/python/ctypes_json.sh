# The JSON marks each Python frame with its language, its file and no module
# (tests/e2e/programs/python_ctypes.py: four Python frames under the leak).
# RUN: %run -o %t/report.%p.json -- %python %root/tests/e2e/programs/python_ctypes.py leak
# CHECK: [python] in allocate
# RUN: %expr %t \
# RUN:   'len(reports) == 1 and r["python"]["frames"] is True' \
# RUN:   'len([f for f in r["leaks"][0]["stack"] if f.get("language") == "python"]) == 4' \
# RUN:   'all("module" not in f and f["file"] == "%root/tests/e2e/programs/python_ctypes.py" for f in r["leaks"][0]["stack"] if f.get("language") == "python")'
# CHECK-COUNT(3): holds:
