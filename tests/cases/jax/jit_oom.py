# A jitted step whose own temporaries (FAKE_JAX_JIT_TEMP bytes) do not fit
# in XLA's pool beside its parameters; the failure is caught.
# It is named with XLA's biggest buffer. jax raises XLA's error again as a
# new one of the same text: one failure, raised twice, told so when the
# report is read again. A caught failure is seen through sys.monitoring.
# Simulated only: fake_jax's compiled step on a device of a set size.
# REQUIRES: simulated, python>=3.12
# PYTHONS: all
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_jax:%root/tests/e2e/programs/fake_torch
# ENV: FAKE_JAX_JIT_TEMP=209715200
# RUN: %run --simulated-gpu-memory 256MiB -o %t/reports/report.%p.%n.json -- %python %s
# CHECK-RE: \Astep failed: RESOURCE_EXHAUSTED
# CHECK-COUNT(1): out of memory:
# CHECK: 1. the jitted function's own buffers need
# CHECK: more than XLA's whole pool (192.0 MiB); its biggest buffers: 200.0 MiB f32[4096,65536] for dot_general at jit_oom.py:%line:step
# CHECK: donate_argnums
# RUN: %expr %t/reports \
# RUN:   'len(reports) == 2 and len(reports[1]["oom_events"]) == 1 and reports[1]["oom_events"][0]["jax"]["raised"] == 2' \
# RUN:   'reports[1]["oom_events"][0]["jax"]["compiled"]["temp_bytes"] == 209715200' \
# RUN:   '[b["shape"] for b in reports[1]["oom_events"][0]["jax"]["compiled"]["peak_buffers"]] == ["f32[4096,65536]"]' \
# RUN:   'reports[1]["oom_events"][0]["diagnosis"][0]["cause"] == "compiled_peak"'
# CHECK-COUNT(4): holds:
# RUN: %report $(ls %t/reports/*.json | tail -1)
# CHECK: XLA raised it 2 times within 10 s (the same failure, retried or raised again): one failure.
import jax
import jax.numpy as jnp


def step(w, x):
    return w  # LINE:step


params = jnp.zeros((1024, 1024), dtype="float32")  # LINE:params
batch = jnp.zeros((256, 1024), dtype="float32")
try:
    jax.jit(step)(params, batch)
except jax.errors.JaxRuntimeError as e:
    print("step failed:", str(e).splitlines()[0])
