# pytest tests that use CUDA through ctypes (libcudart.so.13): one leaks.
import ctypes

cudart = ctypes.CDLL("libcudart.so.13")


def malloc(size):
    ptr = ctypes.c_void_p()
    assert cudart.cudaMalloc(ctypes.byref(ptr), ctypes.c_size_t(size)) == 0
    return ptr


def test_frees_its_buffer():
    cudart.cudaFree(malloc(1 << 16))


def test_keeps_a_buffer():
    malloc(1 << 20)
