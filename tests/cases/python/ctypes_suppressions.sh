# Suppressions match Python function names (a method by its qualified name)
# and file names: every leak of tests/e2e/programs/python_ctypes.py
# suppressed, the gate passes; a rule suggested for a Python leak names the
# Python function.
# RUN: printf 'leak:Trainer.step\n' > %t/by_function.supp; printf 'leak:python_ctypes.py kind:device\n' > %t/by_file.supp
# RUN: %run --suppressions %t/by_function.supp --error-exitcode 3 -o %t/function/report.%p.json -- %python %root/tests/e2e/programs/python_ctypes.py leak
# CHECK-NONE: never freed
# RUN: %expr %t/function 'len(reports) == 1 and summary["leaked_count"] == 0 and summary["suppressed_count"] == 3'
# CHECK: holds:
# RUN: %run --suppressions %t/by_file.supp --error-exitcode 3 -o %t/file/report.%p.json -- %python %root/tests/e2e/programs/python_ctypes.py leak
# CHECK-NONE: never freed
# RUN: %expr %t/file 'len(reports) == 1 and summary["leaked_count"] == 0 and summary["suppressed_count"] == 3'
# CHECK: holds:
# RUN: %run --gen-suppressions true -o %t/gen/report.%p.json -- %python %root/tests/e2e/programs/python_ctypes.py leak
# CHECK: leak:allocate kind:device
