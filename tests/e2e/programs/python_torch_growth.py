# A training loop that keeps each step's loss alive (fake_torch stands in for
# PyTorch): after each step the program asks cudaleak for a report, as a
# test harness would, and once it sends itself the snapshot signal. Each
# report must carry PyTorch's view of that moment, and the loss list's
# tensors must be seen growing across them; the model's weights stay the same.
# With the argument `hold_gil`, the program holds the GIL for 3 s after the
# signal: the snapshot must come anyway, with the view of the last report.
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
