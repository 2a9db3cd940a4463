# Imports torch (tests/e2e/programs/fake_torch on PYTHONPATH) and starts CUDA
# through it, as a PyTorch program does.
import torch

torch.cuda.init()
print("trained")
