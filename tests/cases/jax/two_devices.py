# One process, two devices (fake_jax with FAKE_JAX_DEVICES=2 over two
# simulated GPUs): device 1 gets arrays kept in a list until its pool is
# full; device 0 keeps its parameters. The failure and each device's holders
# must name the device.
# Each device's holders at exit, under any interpreter; the failure, which
# the program catches, in two_devices_caught.sh (3.12+).
# Simulated only: fake_jax's pools over two simulated devices.
# REQUIRES: simulated
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_jax:%root/tests/e2e/programs/fake_torch
# ENV: FAKE_JAX_DEVICES=2
# ENV: CUDALEAK_SIM_DEVICES=2
# RUN: %run --simulated-gpu-memory 256MiB -o %t/reports/report.%p.%n.json -- %python %s > %t/run.out
# CHECK: JAX at exit on device 0: XLA's pool 4.0 MiB in use
# CHECK:     4.0 MiB in 1 array from <module> (two_devices.py:%line:params)
# CHECK: JAX at exit on device 1: XLA's pool 192.0 MiB in use
# CHECK:     192.0 MiB in 12 arrays from <module> (two_devices.py:%line:keep)
# RUN: %expr %t/reports 'text("%t/run.out") == "device 1 full after 12\n"'
# CHECK: holds:
import jax
import jax.numpy as jnp

gpu0, gpu1 = jax.local_devices()
params = jnp.zeros((1024, 1024), device=gpu0)  # LINE:params
kept = []
try:
    while True:
        kept.append(jnp.zeros((4096, 1024), device=gpu1))  # LINE:keep
except jax.errors.JaxRuntimeError:
    print("device 1 full after", len(kept))
