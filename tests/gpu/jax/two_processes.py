# Two JAX processes on the device(s), started with multiprocessing "spawn"
# (each inherits cudaleak through PYTHONPATH and LD_PRELOAD): worker 0 holds
# a sixth of its pool in arrays (24 GiB on an H200) and waits; worker 1, on
# the same device, fills the rest with 1 GiB arrays until it fails. Each
# allocates on demand (XLA_PYTHON_CLIENT_PREALLOCATE=false, MEM_FRACTION=0.95)
# and prints whether cudaleak_jax was armed in it ("FACT rank N"). The arrays
# stay in a module-level list until the process ends, as a job's state does,
# so that each process's exit view has them (arrays local to `worker` would
# be gone before its exit, and a view with nothing of JAX's is not printed).
import multiprocessing as mp
import os
import sys

kept = []


def worker(rank, ready, done):
    os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
    os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = "0.95"
    import jax
    import jax.numpy as jnp
    if rank == 0:
        # a sixth of XLA's limit in 1 GiB arrays (24 on an H200)
        for _ in range(jax.devices()[0].memory_stats()["bytes_limit"] // 6 >> 30):
            kept.append(jnp.ones((16384, 16384), jnp.float32))  # LINE:holder
        kept[-1].block_until_ready()
        ready.set()
        done.wait(600)
        _facts(rank)
        return
    ready.wait(600)
    try:
        while True:
            kept.append(jnp.ones((16384, 16384), jnp.float32))  # LINE:filler
            kept[-1].block_until_ready()
    except Exception as e:
        print("rank 1 kept %d arrays; %s" % (len(kept), str(e).splitlines()[0][:120]))
    finally:
        done.set()
    _facts(rank)


def _facts(rank):
    # Whether cudaleak_jax was armed in this spawned child (its exit view).
    mod = sys.modules.get("cudaleak_jax")
    print("FACT rank %d cudaleak_jax: %s" % (rank, mod.facts() if mod else "not imported"), flush=True)


if __name__ == "__main__":
    ctx = mp.get_context("spawn")
    ready, done = ctx.Event(), ctx.Event()
    procs = []
    for r in (0, 1):
        os.environ["RANK"] = str(r)  # the rank cudaleak reads from each process's environment
        procs.append(ctx.Process(target=worker, args=(r, ready, done)))
        procs[-1].start()
    for p in procs:
        p.join()
    sys.exit(max(p.exitcode for p in procs))
