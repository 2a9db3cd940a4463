# What the job scripts' ranks do (ranks_shared_gpu.py, ddp_nccl_job.py): a
# leak through the driver, and a request for more than the GPU has left.
import ctypes

import torch


def leak_through_the_driver(nbytes=1 << 20):
    pointer = ctypes.c_uint64()
    assert ctypes.CDLL("libcuda.so.1").cuMemAlloc_v2(ctypes.byref(pointer), nbytes) == 0


def ask_for_more_than_free(rank):
    free, _ = torch.cuda.mem_get_info()
    try:
        torch.empty(free + (1 << 30), dtype=torch.uint8, device="cuda")
    except torch.OutOfMemoryError:
        print(f"rank {rank}: out of memory, as planned", flush=True)
