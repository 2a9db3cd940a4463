# pytest tests with device-memory budgets and a fixture that leaks, using CUDA
# through ctypes (libcudart.so.13). The e2e test checks each outcome by name.
import ctypes

import pytest

cudart = ctypes.CDLL("libcudart.so.13")
MiB = 1 << 20


def malloc(size):
    ptr = ctypes.c_void_p()
    assert cudart.cudaMalloc(ctypes.byref(ptr), ctypes.c_size_t(size)) == 0
    return ptr


@pytest.mark.cuda_limit_memory("24 MB")
def test_peak_within_budget():
    cudart.cudaFree(malloc(16 * MiB))


@pytest.mark.cuda_limit_memory("24 MB")
def test_peak_over_budget():
    first = malloc(8 * MiB)
    second = malloc(20 * MiB)  # the test's line: 28 MiB at once
    cudart.cudaFree(first)
    cudart.cudaFree(second)


def test_peak_of_12_mib():  # no marker: the ini or command-line default applies
    cudart.cudaFree(malloc(12 * MiB))


@pytest.mark.cuda_limit_leaks("1 MB")
def test_leak_within_budget():
    malloc(512 * 1024)


@pytest.mark.cuda_limit_leaks("1 MB")
def test_leak_over_budget():
    malloc(2 * MiB)


@pytest.fixture
def leaky_buffer():
    buffer = malloc(3 * MiB)  # the fixture's line: never freed
    yield buffer


@pytest.fixture
def tidy_buffer():
    buffer = malloc(3 * MiB)
    yield buffer
    cudart.cudaFree(buffer)


def test_uses_a_leaky_fixture(leaky_buffer):
    assert leaky_buffer.value


def test_uses_a_tidy_fixture(tidy_buffer):
    assert tidy_buffer.value
