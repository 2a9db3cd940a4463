# JAX's device memory profile read gzipped or not, and without it (a
# backend that refuses heap profiles) the live arrays by shape
# (tests/e2e/programs/jax_list_oom.py; fake_jax stands in for JAX). A
# caught failure adds a report of its own under 3.12+ (sys.monitoring).
# --pytorch-view false turns every framework's view off.
# Simulated only: fake_jax's pool and profile on a device of a set size.
# REQUIRES: simulated
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_jax:%root/tests/e2e/programs/fake_torch
# LINES-OF: %root/tests/e2e/programs/jax_list_oom.py
# RUN: FAKE_JAX_PROFILE=gzip %run --simulated-gpu-memory 256MiB -o %t/gzip/report.%p.%n.json -- %python %root/tests/e2e/programs/jax_list_oom.py
# CHECK:     176.0 MiB in 11 arrays from fill (jax_list_oom.py:%line:keep), the largest float32[4096,1024] (16.0 MiB)
# RUN: %expr %t/gzip \
# RUN:   'len(reports) == (2 if int(reports[-1]["python"]["version"].split(".")[1]) >= 12 else 1)' \
# RUN:   'reports[-1]["jax"]["when"] == "exit" and reports[-1]["jax"]["executables_bytes"] == 4096' \
# RUN:   '[d["arrays"] for d in reports[-1]["jax"]["devices"]] == [12]'
# CHECK-COUNT(3): holds:
# RUN: FAKE_JAX_PROFILE=raw %run --simulated-gpu-memory 256MiB -o %t/raw/report.%p.%n.json -- %python %root/tests/e2e/programs/jax_list_oom.py
# CHECK:     176.0 MiB in 11 arrays from fill (jax_list_oom.py:%line:keep), the largest float32[4096,1024] (16.0 MiB)
# RUN: %expr %t/raw \
# RUN:   'len(reports) == (2 if int(reports[-1]["python"]["version"].split(".")[1]) >= 12 else 1)' \
# RUN:   'reports[-1]["jax"]["when"] == "exit" and reports[-1]["jax"]["executables_bytes"] == 4096' \
# RUN:   '[d["arrays"] for d in reports[-1]["jax"]["devices"]] == [12]'
# CHECK-COUNT(3): holds:
# RUN: FAKE_JAX_PROFILE=broken %run --simulated-gpu-memory 256MiB -o %t/broken/report.%p.%n.json -- %python %root/tests/e2e/programs/jax_list_oom.py
# CHECK:     176.0 MiB in 11 arrays of float32[4096,1024] (no line: JAX gave no stack for them)
# CHECK: (the device memory profile failed (heap profiles are not supported by this backend)
# RUN: %expr %t/broken \
# RUN:   'len(reports) == (2 if int(reports[-1]["python"]["version"].split(".")[1]) >= 12 else 1)' \
# RUN:   'reports[-1]["jax"]["source"] == "live_arrays"'
# CHECK-COUNT(2): holds:
# RUN: %run --simulated-gpu-memory 256MiB --pytorch-view false -o %t/off/report.%p.%n.json -- %python %root/tests/e2e/programs/jax_list_oom.py
# CHECK-NONE: JAX at exit
# RUN: %expr %t/off 'len(reports) == 1 and "jax" not in r'
# CHECK: holds:
