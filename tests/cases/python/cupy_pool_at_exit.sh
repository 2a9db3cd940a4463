# CuPy's pool numbers at exit and its segments as cached memory with the
# Python line: tests/e2e/programs/fake_cupy stands in for CuPy, one 1 MiB
# array alive at exit, one 2 MiB array freed into the pool's cache. A
# pool's cache is not a leak: the gate passes. With the views turned off,
# no numbers are claimed.
# Simulated only: fake_cupy's pool.
# REQUIRES: simulated
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_cupy
# RUN: %run --error-exitcode 9 -o %t/on/report.%p.json -- %python %root/tests/e2e/programs/python_cupy.py > %t/on.out
# CHECK: CuPy's memory pool at exit on device 0: 3.0 MiB held, 1.0 MiB by live arrays, 2.0 MiB cached in 1 free block
# RUN: %expr %t/on \
# RUN:   'text("%t/on.out") == "arrays made\n"' \
# RUN:   'len(reports) == 1 and r["cupy"]["when"] == "exit" and r["cupy"]["device"] == 0' \
# RUN:   'r["cupy"]["used_bytes"] == 1 << 20 and r["cupy"]["total_bytes"] == 3 << 20 and r["cupy"]["free_blocks"] == 1' \
# RUN:   'len(r["leaks"]) == 2 and all(g["cached_by"] == "CuPy memory pool" and stack_has(g, "<module>") for g in r["leaks"])'
# CHECK-COUNT(4): holds:
# RUN: %run --pytorch-view false -o %t/off/report.%p.json -- %python %root/tests/e2e/programs/python_cupy.py
# CHECK: arrays made
# RUN: %expr %t/off 'len(reports) == 1 and "cupy" not in r'
# CHECK: holds:
