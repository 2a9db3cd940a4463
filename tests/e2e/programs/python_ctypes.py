# CUDA from Python through ctypes, for the Python-frame cases
# (tests/cases/python/ctypes_*.sh): every line a case names is marked, and
# the cases name the marks through LINES-OF.
import ctypes
import os
import signal
import sys
import threading

cudart = ctypes.CDLL("libcudart.so.13")


def allocate(n):
    p = ctypes.c_void_p()
    rc = cudart.cudaMalloc(ctypes.byref(p), ctypes.c_size_t(n))  # LINE:allocate
    if rc != 0:
        raise MemoryError("cudaMalloc failed with %d" % rc)
    return p


class Trainer:
    def step(self, i):
        return allocate((i + 1) << 20)  # LINE:step


def leak_in_loop():
    t = Trainer()
    kept = []
    for i in range(3):
        kept.append(t.step(i))  # LINE:loop
    return kept


def fill_until_oom():
    kept = []
    while True:
        kept.append(allocate(64 << 20))  # LINE:fill


def in_thread():
    out = []
    worker = threading.Thread(target=lambda: out.append(allocate(2 << 20)))  # LINE:thread
    worker.start()
    worker.join()
    return out


mode = sys.argv[1] if len(sys.argv) > 1 else "leak"
if mode == "leak":
    kept = leak_in_loop()  # LINE:module
    cudart.cudaFree(allocate(4096))
elif mode == "oom":
    try:
        fill_until_oom()
    except MemoryError:
        pass
elif mode == "thread":
    kept = in_thread()
elif mode == "crash":
    kept = leak_in_loop()
    os.kill(os.getpid(), signal.SIGSEGV)
