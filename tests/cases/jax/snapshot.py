# Three arrays, then the snapshot signal, then two more (fake_jax stands in
# for JAX): the snapshot's report must carry JAX's view of that moment. With
# "torch", PyTorch (fake_torch) is used beside it: both views come fresh
# through the one source the library calls.
# The three arrays of the snapshot are one group, by their line (a
# comprehension's frame is its own before Python 3.12).
# Simulated only: fake_jax's arrays and fake_torch's snapshot.
# REQUIRES: simulated
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_jax:%root/tests/e2e/programs/fake_torch
# RUN: %run --simulated-gpu-memory 256MiB -o %t/alone/report.%p.%n.json -- %python %s > %t/alone.out
# RUN: %expr %t/alone \
# RUN:   'text("%t/alone.out") == "done\n" and len(reports) == 2' \
# RUN:   '[(x["jax"]["when"], len(x["jax"]["devices"]), x["jax"]["devices"][0]["arrays"]) for x in reports if x["reason"] == "signal"] == [("snapshot", 1, 3)]' \
# RUN:   '[(x["jax"]["when"], x["jax"]["devices"][0]["arrays"]) for x in reports if x["reason"] != "signal"] == [("exit", 5)]' \
# RUN:   '[(g["count"], g["stack"][1]["line"]) for x in reports if x["reason"] == "signal" for g in x["jax"]["devices"][0]["groups"]] == [(3, %line:first)]'
# CHECK-COUNT(4): holds:
# RUN: %run --simulated-gpu-memory 256MiB -o %t/torch/report.%p.%n.json -- %python %s torch > %t/torch.out
# RUN: %expr %t/torch \
# RUN:   'text("%t/torch.out") == "done\n" and len(reports) == 2' \
# RUN:   '[(x["jax"]["when"], len(x["jax"]["devices"]), x["jax"]["devices"][0]["arrays"]) for x in reports if x["reason"] == "signal"] == [("snapshot", 1, 3)]' \
# RUN:   '[(x["jax"]["when"], x["jax"]["devices"][0]["arrays"]) for x in reports if x["reason"] != "signal"] == [("exit", 5)]' \
# RUN:   '[(g["count"], g["stack"][1]["line"]) for x in reports if x["reason"] == "signal" for g in x["jax"]["devices"][0]["groups"]] == [(3, %line:first)]' \
# RUN:   '[x["pytorch"]["when"] for x in reports if x["reason"] == "signal"] == ["snapshot"]'
# CHECK-COUNT(5): holds:
import os
import signal
import sys
import time

import jax.numpy as jnp

if sys.argv[1:] == ["torch"]:
    import torch
    torch.cuda.init()
kept = [jnp.zeros((256, 1024)) for _ in range(3)]  # LINE:first
os.kill(os.getpid(), signal.SIGUSR1)
time.sleep(1.0)  # the snapshot is written by cudaleak's thread; the views' source needs the GIL
kept += [jnp.zeros((256, 1024)) for _ in range(2)]  # LINE:second
print("done")
