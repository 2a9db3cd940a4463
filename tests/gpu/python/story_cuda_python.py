# cuda-python (cuda.bindings): 1 GiB buffers allocated each step and never
# freed, until cudaMalloc returns out-of-memory to the program.
from cuda.bindings import runtime as cudart

buffers = []


def load_shard():
    err, ptr = cudart.cudaMalloc(1 << 30)  # LINE:malloc
    if err != cudart.cudaError_t.cudaSuccess:
        return False
    buffers.append(ptr)
    return True


while load_shard():
    pass
print("out of memory after", len(buffers), "shards")
