# XLA's out-of-memory that the program catches is one story that names the
# line filling the pool (tests/e2e/programs/jax_list_oom.py; fake_jax stands
# in for JAX: XLA's pool is 0.75 of 256 MiB; 4 KiB of params, then 11
# arrays of 16 MiB). The pool's share of the device is told after, as what
# only delays it; at exit the same arrays, by the same line, JAX's own
# frames skipped. A caught failure is seen through sys.monitoring (3.12+).
# Simulated only: fake_jax's pool on a device of a set size.
# REQUIRES: simulated, python>=3.12
# PYTHONS: all
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_jax:%root/tests/e2e/programs/fake_torch
# LINES-OF: %root/tests/e2e/programs/jax_list_oom.py
# RUN: %run --simulated-gpu-memory 256MiB -o %t/reports/report.%p.%n.json -- %python %root/tests/e2e/programs/jax_list_oom.py > %t/run.out
# CHECK-COUNT(1): out of memory:
# CHECK-NONE: array_creation.py
# CHECK: out of memory: JAX (XLA) could not allocate 16.0 MiB on device 0 in fill (jax_list_oom.py:%line:keep)
# CHECK: 1. 176.0 MiB is held by 12 live arrays: 176.0 MiB in 11 arrays from fill (jax_list_oom.py:%line:keep), the largest float32[4096,1024] (16.0 MiB)
# CHECK: arrays from one line that stay alive accumulate
# CHECK: XLA's pool is limited to 192.0 MiB, 75% of the device's 256.0 MiB (XLA_PYTHON_CLIENT_MEM_FRACTION 0.75 by default)
# CHECK: while the arrays from fill (jax_list_oom.py:%line:keep) keep growing, a bigger pool only delays the failure
# CHECK: JAX on device 0: XLA's pool 176.0 MiB in use of its 192.0 MiB limit
# CHECK: raised as jax.errors.JaxRuntimeError
# CHECK: JAX at exit on device 0: XLA's pool 176.0 MiB in use of its 192.0 MiB limit
# CHECK:     176.0 MiB in 11 arrays from fill (jax_list_oom.py:%line:keep)
# RUN: %expr %t/reports \
# RUN:   'text("%t/run.out") == "out of memory after 11 steps\n"' \
# RUN:   'len(reports) == 2 and reports[1]["jax"]["source"] == "profile" and len(reports[1]["oom_events"]) == 1' \
# RUN:   '[(e["api"], e["request_bytes"], e["jax"]["raised"], e["jax"]["exception"]) for e in reports[1]["oom_events"]] == [("XLA (JAX)", 16 << 20, 1, "jax.errors.JaxRuntimeError")]' \
# RUN:   'reports[1]["oom_events"][0]["jax"]["message"].startswith("RESOURCE_EXHAUSTED: Out of memory while trying to allocate")' \
# RUN:   'reports[1]["oom_events"][0]["jax"]["device"]["bytes_limit"] == 192 << 20 and reports[1]["oom_events"][0]["jax"]["device"]["arrays"] == 12' \
# RUN:   '[d["cause"] for d in reports[1]["oom_events"][0]["diagnosis"]][:2] == ["live_tensors", "pool_limit"]' \
# RUN:   'reports[1]["oom_events"][0]["jax"]["device"]["groups"][0]["stack"][1]["function"] == "fill"'
# CHECK-COUNT(7): holds:
