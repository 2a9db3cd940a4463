# With preallocation off and with the platform allocator, the failed
# cudaMalloc calls are attempts of XLA's failure, never stories of their own
# (tests/e2e/programs/jax_list_oom.py uncaught; fake_jax stands in for JAX).
# Preallocation off, with a pool limit above the device's size (the stand-in
# takes it): the device fills first, and cudaMalloc fails before XLA raises;
# XLA's BFC allocator grows its pool in three rounds of 14 regions, from 4x
# the request down: the latest 16 failed calls are kept. The platform
# allocator keeps no statistics: no pool limit. Under every interpreter:
# the failure is seen through sys.monitoring (3.12+) or sys.excepthook.
# Simulated only: fake_jax's pool on a device of a set size.
# REQUIRES: simulated
# PYTHONS: all
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_jax:%root/tests/e2e/programs/fake_torch
# LINES-OF: %root/tests/e2e/programs/jax_list_oom.py
# RUN(exit=1): XLA_PYTHON_CLIENT_PREALLOCATE=false XLA_PYTHON_CLIENT_MEM_FRACTION=1.5 %run --simulated-gpu-memory 256MiB -o %t/on_demand/report.%p.%n.json -- %python %root/tests/e2e/programs/jax_list_oom.py uncaught
# CHECK-COUNT(1): out of memory:
# CHECK: out of memory: JAX (XLA) could not allocate 16.0 MiB on device 0 in fill (jax_list_oom.py:%line:keep)
# CHECK: Before it, 16 calls (cudaMalloc of
# CHECK: from fill (jax_list_oom.py:%line:keep)
# RUN: %expr %t/on_demand \
# RUN:   'len(reports) == 2 and len(reports[1]["oom_events"]) == 1 and "jax" in reports[1]["oom_events"][0]' \
# RUN:   'len(reports[1]["oom_events"][0]["attempts"]) == 16 and reports[1]["oom_events"][0]["attempts"][0]["api"] == "cudaMalloc"' \
# RUN:   'reports[1]["oom_events"][0]["jax"]["device"]["bytes_limit"] == 384 << 20 and reports[1]["oom_events"][0]["diagnosis"][0]["cause"] == "live_tensors"'
# CHECK-COUNT(3): holds:
# RUN(exit=1): XLA_PYTHON_CLIENT_ALLOCATOR=platform %run --simulated-gpu-memory 256MiB -o %t/platform/report.%p.%n.json -- %python %root/tests/e2e/programs/jax_list_oom.py uncaught
# CHECK-COUNT(1): out of memory:
# CHECK: out of memory: JAX (XLA) could not allocate 16.0 MiB on device 0 in fill (jax_list_oom.py:%line:keep)
# CHECK: arrays from fill (jax_list_oom.py:%line:keep)
# RUN: %expr %t/platform \
# RUN:   'len(reports) == 2 and len(reports[1]["oom_events"]) == 1' \
# RUN:   'reports[1]["oom_events"][0]["jax"]["device"].get("bytes_limit", 0) == 0 and reports[1]["oom_events"][0]["diagnosis"][0]["cause"] == "live_tensors"'
# CHECK-COUNT(2): holds:
