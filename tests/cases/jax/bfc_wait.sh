# XLA raising 10 s after its allocator's first failed call is one story with
# the calls as its attempts: as on an H200 with preallocation off, the
# device fills, XLA's BFC allocator makes 43 failed calls growing its pool
# while it waits 10 s for frees, then raises
# (tests/e2e/programs/jax_list_oom.py uncaught; fake_jax stands in for
# JAX). Its calls tell no story of their own, and XLA's failure, sized from
# its message (16.00MiB), is the one story. Seen as it is raised, through
# sys.monitoring (3.12+), as on the GPU machine's Python.
# Simulated only: fake_jax's pool on a device of a set size.
# REQUIRES: simulated, python>=3.12
# PYTHONS: all
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_jax:%root/tests/e2e/programs/fake_torch
# ENV: XLA_PYTHON_CLIENT_PREALLOCATE=false
# ENV: XLA_PYTHON_CLIENT_MEM_FRACTION=1.5
# ENV: FAKE_JAX_RAISE_DELAY_S=10.5
# LINES-OF: %root/tests/e2e/programs/jax_list_oom.py
# RUN(exit=1): %run --simulated-gpu-memory 256MiB -o %t/reports/report.%p.%n.json -- %python %root/tests/e2e/programs/jax_list_oom.py uncaught
# CHECK-COUNT(1): out of memory:
# CHECK-NONE: failed in Pool._cuda_malloc
# CHECK-NONE: more out-of-memory events
# CHECK: out of memory: JAX (XLA) could not allocate 16.0 MiB on device 0 in fill (jax_list_oom.py:%line:keep)
# RUN: %expr %t/reports \
# RUN:   'len(reports) == 2 and len(reports[1]["oom_events"]) == 1 and "jax" in reports[1]["oom_events"][0]' \
# RUN:   'reports[1]["oom_events"][0]["request_bytes"] == 16 << 20 and len(reports[1]["oom_events"][0]["attempts"]) == 16'
# CHECK-COUNT(2): holds:
