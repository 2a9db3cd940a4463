# The context cudaleak learns against the driver's answer (--check-context)
# in CuPy on a real GPU: three threads each summing an array. The same
# status alone and traced; no creation placed elsewhere than the driver says.
# REQUIRES: gpu, cupy
# RUN: %root/tests/cases/tools/check_context.sh %t/cupy %run --check-context --print-summary=true -o %t/cupy.%p.json -- %python %s
# CHECK: cupy: same status (
# CHECK-RE: cupy: [0-9]+ creations placed, 0 differ from the driver
# CHECK-NONE: status differs
# CHECK-NONE: placed elsewhere
import threading

import cupy as cp


def work():
    x = cp.arange(1 << 20, dtype=cp.float32)
    print(float((x * 2).sum()))


threads = [threading.Thread(target=work) for _ in range(3)]
for t in threads:
    t.start()
for t in threads:
    t.join()
