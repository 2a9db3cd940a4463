# A program that fills the device with one framework's arrays until that
# framework raises its out-of-memory error, for scripts/gpu-bench-oom-delay.sh.
# It prints on stdout, unbuffered: "ATTEMPT <t>" with the wall time at the start
# of the allocation that failed, and "EXIT <t>" as it returns; the benchmark
# compares those with the arrival time of cudaleak's lines on stderr.
# Usage: oom_delay_program.py torch|jax|cupy [CHUNK_MIB]
import sys
import time

framework = sys.argv[1]
chunk = (int(sys.argv[2]) if len(sys.argv) > 2 else 512) << 20
kept = []


def fill_torch():
    import torch
    while True:
        t = time.time()
        try:
            kept.append(torch.empty(chunk, dtype=torch.uint8, device="cuda"))
        except torch.OutOfMemoryError:
            return t


def fill_jax():
    import jax.numpy as jnp
    while True:
        t = time.time()
        try:
            kept.append(jnp.ones((chunk,), dtype=jnp.uint8).block_until_ready())
        except Exception as e:  # jaxlib's error type changes between releases
            if "RESOURCE_EXHAUSTED" not in str(e):
                raise
            return t


def fill_cupy():
    import cupy
    while True:
        t = time.time()
        try:
            kept.append(cupy.empty(chunk, dtype=cupy.uint8))
        except cupy.cuda.memory.OutOfMemoryError:
            return t


attempt = {"torch": fill_torch, "jax": fill_jax, "cupy": fill_cupy}[framework]()
print("ATTEMPT %.6f kept=%d" % (attempt, len(kept)), flush=True)
kept.clear()
print("EXIT %.6f" % time.time(), flush=True)
