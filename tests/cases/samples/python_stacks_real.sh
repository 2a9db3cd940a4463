# A raw cudaMalloc through ctypes, never freed, on a real GPU
# (tests/gpu/python/scenario_ctypes.py): the script's top level is the last
# frame shown, the interpreter below it left out; cudart's frames (a link
# and its target) are counted in one line.
# REQUIRES: gpu
# RUN: %run -o %t/ctypes.%p.json -- %python %root/tests/gpu/python/scenario_ctypes.py > %t/out.txt 2>&1; cat %t/out.txt
# CHECK-DAG-RE: in <module> .*scenario_ctypes\.py
# CHECK-DAG-RE: \.\.\. 2 frames in libcudart\.so
# RUN: grep -cE 'Py_RunMain|Py_BytesMain|__libc_start|in main ' %t/out.txt || true
# CHECK-RE: \A0\n
