# A JAX job of NPROC processes (default 8) spread over the machine's GPUs,
# one rank each (RANK, WORLD_SIZE, LOCAL_RANK in the environment each process
# starts with, as a launcher sets them), started with multiprocessing "spawn" so that each
# inherits cudaleak. Every rank keeps its "model state" from one line
# (LINE:state, 2 GiB); ranks 1, 3 and 5 then fill their share of the device
# with 1 GiB arrays from one line (LINE:filler) until XLA fails; rank 6 also
# keeps an extra 4 GiB from a line no other rank has (LINE:odd). Each
# process allocates on demand with a fraction of the device of its own
# (XLA_PYTHON_CLIENT_MEM_FRACTION), so the failures are each rank's own.
# The arrays stay in a module-level list until the process ends, so that
# each exit view has them.
import multiprocessing as mp
import os
import sys

kept = []


def worker(rank, world, gpus):
    os.environ["CUDA_VISIBLE_DEVICES"] = str(rank % gpus)
    os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
    per_device = -(-world // gpus)
    os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = "%.3f" % (0.9 / per_device)
    import jax.numpy as jnp
    for _ in range(2):
        kept.append(jnp.ones((16384, 16384), jnp.float32))  # LINE:state
    if rank == 6:
        for _ in range(4):
            kept.append(jnp.ones((16384, 16384), jnp.float32))  # LINE:odd
    kept[-1].block_until_ready()
    if rank in (1, 3, 5):
        try:
            while True:
                kept.append(jnp.ones((16384, 16384), jnp.float32))  # LINE:filler
                kept[-1].block_until_ready()  # XLA raises here (asynchronous dispatch)  # LINE:raise
        except Exception as e:
            print("rank %d kept %d arrays; %s" % (rank, len(kept), str(e).splitlines()[0][:120]), flush=True)
    print("rank %d done with %d arrays" % (rank, len(kept)), flush=True)


if __name__ == "__main__":
    world = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    gpus = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    ctx = mp.get_context("spawn")
    procs = []
    for r in range(world):
        # the rank cudaleak reads from the environment the process starts with
        os.environ.update(RANK=str(r), WORLD_SIZE=str(world), LOCAL_RANK=str(r % gpus))
        procs.append(ctx.Process(target=worker, args=(r, world, gpus)))
        procs[-1].start()
    for p in procs:
        p.join()
    sys.exit(max(p.exitcode for p in procs))
