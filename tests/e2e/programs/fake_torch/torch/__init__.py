# A stand-in for PyTorch with just what cudaleak_torch uses: lazy CUDA
# initialisation with queued calls, the allocator backend, history recording,
# snapshots, the out-of-memory observer, and a caching allocator
# (torch.empty, cuda/caching.py). FAKE_TORCH_BACKEND picks the
# backend ("native" or "cudaMallocAsync", which refuses history and snapshots
# as PyTorch 2.x does).
from . import _C, cuda  # noqa: F401
from .cuda.caching import OutOfMemoryError, empty  # noqa: F401
