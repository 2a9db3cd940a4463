# Imports torch (tests/e2e/programs/fake_torch on PYTHONPATH) and starts CUDA
# through it, as a PyTorch program does. With "os_exit", it then leaves by
# os._exit(0), which skips atexit and every destructor.
import os
import sys

import torch

torch.cuda.init()
print("trained")
if sys.argv[1:] == ["os_exit"]:
    sys.stdout.flush()
    os._exit(0)
