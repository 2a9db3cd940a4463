# A raw cudaMalloc through ctypes, never freed.
import ctypes
import glob
import os
import sys


def load_cudart():
    for name in ["libcudart.so.13"] + glob.glob("/usr/local/cuda/lib64/libcudart.so.13*"):
        try:
            return ctypes.CDLL(name)
        except OSError:
            pass
    sys.exit("no libcudart.so.13")


cudart = load_cudart()


def leaky_buffer(n):
    p = ctypes.c_void_p()
    assert cudart.cudaMalloc(ctypes.byref(p), ctypes.c_size_t(n)) == 0  # LINE:malloc
    return p


buffer = leaky_buffer(64 << 20)
print("allocated")
