# With python_frames off, and in an interpreter of a version cudaleak has
# no frame layout for (tests/e2e/programs/fake_python.cpp says it is
# 3.99.0), stacks stay native: no Python frame, a note saying why.
# LINES-OF: %root/tests/e2e/programs/python_ctypes.py
# RUN: %run --python-frames false -o %t/off/report.%p.json -- %python %root/tests/e2e/programs/python_ctypes.py leak
# CHECK-NONE: [python]
# RUN: %expr %t/off \
# RUN:   'len(reports) == 1 and len(r["leaks"]) == 1' \
# RUN:   'not any(f.get("language") == "python" for f in r["leaks"][0]["stack"]) and not r["python"].get("frames", False)'
# CHECK-COUNT(2): holds:
# RUN: %run -o %t/unknown/report.%p.json -- %build/tests/e2e/fake_python 2> %t/unknown.err
# CHECK-RE: \Aallocated\n\Z
# RUN: %expr %t/unknown \
# RUN:   'len(reports) == 1 and r["python"]["version"] == "3.99.0" and not r["python"].get("frames", False)' \
# RUN:   '"no frame layout" in r["python"]["note"]' \
# RUN:   'len(r["leaks"]) == 1 and stack_has(r["leaks"][0], "main")'
# CHECK-COUNT(3): holds:
