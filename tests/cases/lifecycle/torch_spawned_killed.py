# A spawned PyTorch worker that used CUDA and dies of SIGKILL on a real GPU is
# named by the launcher, and the gate is not green (125).
# REQUIRES: gpu, torch
# RUN(exit=125): %run --error-exitcode 23 -o %t/spawned.%p.json -- %python %s
# CHECK: used CUDA and ended without its report
import os
import signal

import torch
import torch.multiprocessing as mp


def worker():
    kept = torch.empty(4 << 20, dtype=torch.uint8, device="cuda")  # noqa: F841
    torch.cuda.synchronize()
    os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":
    p = mp.get_context("spawn").Process(target=worker)
    p.start()
    p.join()
    print("worker exit", p.exitcode)
