# One process, two devices (tests/cases/jax/two_devices.py): the failure the
# program catches is told on the fullest device, device 1 (XLA's message
# names none), beside each device's holders. A caught failure is seen
# through sys.monitoring (3.12+).
# Simulated only: fake_jax's pools over two simulated devices.
# REQUIRES: simulated, python>=3.12
# PYTHONS: all
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_jax:%root/tests/e2e/programs/fake_torch
# ENV: FAKE_JAX_DEVICES=2
# ENV: CUDALEAK_SIM_DEVICES=2
# LINES-OF: %S/two_devices.py
# RUN: %run --simulated-gpu-memory 256MiB -o %t/reports/report.%p.%n.json -- %python %S/two_devices.py > %t/run.out
# CHECK: out of memory: JAX (XLA) could not allocate 16.0 MiB on device 1 in <module> (two_devices.py:%line:keep)
# CHECK: JAX at exit on device 0: XLA's pool 4.0 MiB in use
# CHECK:     4.0 MiB in 1 array from <module> (two_devices.py:%line:params)
# CHECK: JAX at exit on device 1: XLA's pool 192.0 MiB in use
# CHECK:     192.0 MiB in 12 arrays from <module> (two_devices.py:%line:keep)
# RUN: %expr %t/reports \
# RUN:   'text("%t/run.out") == "device 1 full after 12\n"' \
# RUN:   'len(reports) == 2 and [(e["device"], e["jax"]["device"]["arrays"]) for e in reports[1]["oom_events"]] == [(1, 12)]'
# CHECK-COUNT(2): holds:
