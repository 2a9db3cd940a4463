# An uncaught XLA out-of-memory (tests/e2e/programs/jax_list_oom.py
# uncaught; fake_jax stands in for JAX) is told under every interpreter,
# watched by sys.monitoring where there is one and by sys.excepthook where
# asked (and before 3.12), and the program ends as it would: Python's own
# status and traceback.
# Simulated only: fake_jax's pool on a device of a set size.
# REQUIRES: simulated
# PYTHONS: all
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_jax:%root/tests/e2e/programs/fake_torch
# LINES-OF: %root/tests/e2e/programs/jax_list_oom.py
# RUN(exit=1): CUDALEAK_JAX_WATCH= %run --simulated-gpu-memory 256MiB -o %t/default/report.%p.%n.json -- %python %root/tests/e2e/programs/jax_list_oom.py uncaught
# CHECK-COUNT(1): out of memory:
# CHECK: out of memory: JAX (XLA) could not allocate 16.0 MiB on device 0 in fill (jax_list_oom.py:%line:keep)
# CHECK: 176.0 MiB in 11 arrays from fill (jax_list_oom.py:%line:keep)
# CHECK: Traceback (most recent call last)
# CHECK: JaxRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 16.00MiB with allocator GPU_0_bfc on device 0.
# RUN: %expr %t/default 'len(reports) == 2 and len(reports[1]["oom_events"]) == 1 and "jax" in reports[1]["oom_events"][0]'
# CHECK: holds:
# RUN(exit=1): CUDALEAK_JAX_WATCH=excepthook %run --simulated-gpu-memory 256MiB -o %t/excepthook/report.%p.%n.json -- %python %root/tests/e2e/programs/jax_list_oom.py uncaught
# CHECK-COUNT(1): out of memory:
# CHECK: out of memory: JAX (XLA) could not allocate 16.0 MiB on device 0 in fill (jax_list_oom.py:%line:keep)
# CHECK: 176.0 MiB in 11 arrays from fill (jax_list_oom.py:%line:keep)
# CHECK: Traceback (most recent call last)
# CHECK: JaxRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 16.00MiB with allocator GPU_0_bfc on device 0.
# RUN: %expr %t/excepthook 'len(reports) == 2 and len(reports[1]["oom_events"]) == 1 and "jax" in reports[1]["oom_events"][0]'
# CHECK: holds:
