# A clean CuPy program that copies through pinned staging buffers
# (cupyx.zeros_pinned): CuPy's pinned memory pool keeps an event per staged
# block to know when the copy is done. Nothing here is the program's leak:
# on a real GPU the gate passes, the event held by CuPy's pinned pool.
# REQUIRES: gpu, cupy
# RUN: %run --error-exitcode 9 -o %t/r.%p.json -- %python %s
# CHECK: copied
# CHECK: CuPy pinned memory pool
import cupy
import cupyx

for i in range(4):
    host = cupyx.zeros_pinned((1 << 20,), dtype=cupy.float32)
    host[:] = i
    dev = cupy.asarray(host)  # LINE:copy
    back = cupy.empty_like(dev)
    dev.get(out=host)
    del host, dev, back
cupy.cuda.Device().synchronize()
print("copied")

