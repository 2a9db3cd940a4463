# A training loop that keeps each step's loss alive (fake_torch stands in for
# PyTorch): after each step the program asks cudaleak for a report, as a
# test harness would, and once it sends itself the snapshot signal. Each
# report must carry PyTorch's view of that moment, and the loss list's
# tensors must be seen growing across them; the model's weights stay the same.
# With the argument `hold_gil`, the program holds the GIL for 3 s after the
# signal: the snapshot must come anyway, with the view of the last report.
# Reports 0-3 are the program's, one per step; 4 the signal's; 5 at exit.
# gate_growing_tensors fails the gate on keep_loss's growing tensors only.
# Simulated only: fake_torch's allocator and snapshot.
# REQUIRES: simulated
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_torch
# RUN(exit=7): %run --error-exitcode 7 --gate-growing-tensors true -o %t/gated/report.%n.json -- %python %s
# CHECK: (the growing ones counted by the gate: gate_growing_tensors)
# CHECK: keep_loss (train.py:12) [growing: 1.0 MiB -> 2.0 MiB -> 3.0 MiB -> 4.0 MiB -> 5.0 MiB -> 5.0 MiB]
# RUN: %expr %t/gated \
# RUN:   'files == ["report.%%d.json" %% n for n in range(6)]' \
# RUN:   '[(x.get("checkpoint"), x["pytorch"]["when"]) for x in reports[:4]] == [("step%%d" %% n, "snapshot") for n in range(4)]' \
# RUN:   '[[(t["bytes"] >> 20, t.get("growing", False)) for d in x["pytorch"]["devices"] for t in d["live_tensors"] if t["stack"][:1] and t["stack"][0]["function"] == "keep_loss"] for x in reports[:5]] == [[(1, False)], [(2, False)], [(3, True)], [(4, True)], [(5, True)]]' \
# RUN:   'reports[4]["reason"] == "signal"' \
# RUN:   'reports[5]["gate"]["failing_tensor_groups"] == 1 and reports[5]["gate"]["failing_bytes"] == 5 << 20'
# CHECK-COUNT(5): holds:
# Not gated without the option: the program's status.
# RUN: %run --error-exitcode 7 -o %t/plain/report.%n.json -- %python %s
# CHECK: trained
# A program that holds the GIL when the signal comes still gets its
# snapshot, with the view of its last report, and goes on.
# RUN: %run --error-exitcode 7 -o %t/gil/report.%n.json -- %python %s hold_gil
# CHECK: trained
# RUN: %expr %t/gil \
# RUN:   'reports[4]["reason"] == "signal"' \
# RUN:   '[[t["bytes"] >> 20 for d in x["pytorch"]["devices"] for t in d["live_tensors"] if t["stack"][:1] and t["stack"][0]["function"] == "keep_loss"] for x in reports[4:6]] == [[4], [5]]'
# CHECK-COUNT(2): holds:
import ctypes
import os
import signal
import sys
import time

import torch

torch.cuda.init()
memory = torch.cuda.memory
memory.extra_live.append((2 << 20, "model.py", "build_model", 3))
report = ctypes.CDLL(None).cudaleak_impl_report
report.argtypes = [ctypes.c_char_p]
for step in range(4):
    memory.extra_live.append((1 << 20, "train.py", "keep_loss", 12))
    report(b"step%d" % step)
memory.extra_live.append((1 << 20, "train.py", "keep_loss", 12))
os.kill(os.getpid(), signal.SIGUSR1)
if sys.argv[1:] == ["hold_gil"]:
    ctypes.PyDLL(None).usleep(3000000)  # a C call that keeps the GIL
time.sleep(1.0)  # the snapshot is written by cudaleak's thread; the view's source needs the GIL
print("trained")
