# pytest tests on a real GPU with PyTorch, run under cudaleak with the plugin:
# memory PyTorch keeps in its cache (freed tensors, or tensors a test leaves
# in a global) is not the test's leak by the gate's rules; a raw driver
# allocation never freed is, and the failure names this file's line.
import ctypes

import torch

KEPT = []


def test_freed_tensor_stays_in_the_cache():
    x = torch.ones(64 << 20, device="cuda")
    del x  # its block stays in PyTorch's cache: not a leak of this test


def test_tensor_kept_in_a_global_is_cached_memory():
    KEPT.append(torch.ones(16 << 20, device="cuda"))


def test_raw_driver_allocation_leaks():
    torch.ones(1, device="cuda")  # a current context on this thread
    cuda = ctypes.CDLL("libcuda.so.1")
    pointer = ctypes.c_uint64()
    assert cuda.cuMemAlloc_v2(ctypes.byref(pointer), ctypes.c_size_t(8 << 20)) == 0  # never freed
