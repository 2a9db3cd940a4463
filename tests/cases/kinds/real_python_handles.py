"""cuDNN handles and NCCL communicators on a real GPU, through ctypes (the
libraries PyTorch ships, loaded privately as Python loads them): two of each
created, one destroyed in `leak`; all destroyed in `clean`. A third
communicator split from the one left alive (ncclCommSplit) is left alive in
`leak` too. Each is counted by its API on a real GPU; nothing in `clean`."""
# REQUIRES: gpu, torch
# RUN: %run -o %t/leak/r.%p.json -- %python %s leak
# RUN: %expr %t/leak 'len(reports) == 1 and dict((g["api"], g["count"]) for g in r["leaks"] if g["kind"] == "library_handle") == {"cudnnCreate": 1, "ncclCommInitAll": 1, "ncclCommSplit": 1}'
# CHECK: holds:
# RUN: %run -o %t/clean/r.%p.json -- %python %s clean
# RUN: %expr %t/clean 'len(reports) == 1 and dict((g["api"], g["count"]) for g in r["leaks"] if g["kind"] == "library_handle") == {}'
# CHECK: holds:
import ctypes
import glob
import os
import sys

import torch  # noqa: F401  (brings its CUDA libraries' directories)


def find(name):
    roots = [os.path.dirname(torch.__file__)] + [p for p in sys.path if p]
    for root in roots:
        hits = glob.glob(os.path.join(root, "**", name), recursive=True)
        if hits:
            return hits[0]
    sys.exit(f"{name} not found")


def check(what, status):
    if status != 0:
        sys.exit(f"{what} -> {status}")


leak = len(sys.argv) > 1 and sys.argv[1] == "leak"
cudnn = ctypes.CDLL(find("libcudnn.so.9"))
nccl = ctypes.CDLL(find("libnccl.so.2"))

handles = [ctypes.c_void_p() for _ in range(2)]
for h in handles:
    check("cudnnCreate", cudnn.cudnnCreate(ctypes.byref(h)))
comms = [ctypes.c_void_p() for _ in range(2)]
devices = (ctypes.c_int * 1)(0)
for c in comms:
    check("ncclCommInitAll", nccl.ncclCommInitAll(ctypes.byref(c), 1, devices))

split = ctypes.c_void_p()
check("ncclCommSplit", nccl.ncclCommSplit(comms[1], 0, 0, ctypes.byref(split), None))

check("cudnnDestroy", cudnn.cudnnDestroy(handles[0]))
check("ncclCommDestroy", nccl.ncclCommDestroy(comms[0]))
if not leak:
    check("cudnnDestroy", cudnn.cudnnDestroy(handles[1]))
    check("ncclCommDestroy", nccl.ncclCommDestroy(split))
    check("ncclCommDestroy", nccl.ncclCommDestroy(comms[1]))
print("one of each left alive" if leak else "every handle destroyed")

