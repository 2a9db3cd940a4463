# PyTorch tests with device-memory budgets, under cudaleak with the pytest plugin
# (tests/cases/frameworks/pytest_budgets.sh checks each outcome and the text
# of each failure): one test within its budget, one over it (its peak
# comes from the driver), one over it served wholly from PyTorch's cache (its
# peak comes from PyTorch's own counters), and a fixture that leaks.
import ctypes

import pytest
import torch

torch.ones(1, device="cuda")  # CUDA and PyTorch's allocator initialized before the first test
MiB = 1 << 20


@pytest.mark.cuda_limit_memory("64 MB")
def test_elementwise_within_budget():
    a = torch.ones(1 << 20, device="cuda")  # 4 MiB
    b = a * 2 + 1
    assert float(b.sum()) == 3 * (1 << 20)


@pytest.mark.cuda_limit_memory("64 MB")
def test_workspace_over_budget():
    workspace = torch.empty(96 * MiB, dtype=torch.uint8, device="cuda")  # line 24: 96 MiB at once
    workspace.zero_()
    del workspace


@pytest.mark.cuda_limit_memory("64 MB")
def test_cached_block_still_counts():
    # The 96 MiB block freed above stays in PyTorch's cache: no driver call
    # at all, yet the test's tensor is 80 MiB.
    tensor = torch.empty(80 * MiB, dtype=torch.uint8, device="cuda")
    del tensor


@pytest.fixture
def raw_buffer():
    cuda = ctypes.CDLL("libcuda.so.1")
    pointer = ctypes.c_uint64()
    assert cuda.cuMemAlloc_v2(ctypes.byref(pointer), ctypes.c_size_t(4 * MiB)) == 0  # line 41: never freed
    yield pointer


def test_uses_a_leaking_fixture(raw_buffer):
    assert raw_buffer.value
