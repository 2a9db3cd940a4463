// Caching allocators in the same process as the program's own allocations.
//   cupy: a pool (functions named as CuPy's Cython pool) fills the device
//         and keeps freed blocks; the next allocation fails, the pool frees
//         its cache and retries twice, as CuPy does, then gives up.
//   recover: the pool keeps freed blocks; the next allocation fails, the
//         pool frees its cache and its retry succeeds.
//   xla:  a BFC allocator (named as XLA's) takes most of the device at its
//         first use, as JAX's preallocation does; the program's own cudaMalloc
//         then fails.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace cupy_4cuda_6memory {
struct SingleDeviceMemoryPool {
  std::vector<void*> cached;  // freed blocks kept for reuse
  __attribute__((noinline)) void free(void* p) { cached.push_back(p); }
  __attribute__((noinline)) void free_all_blocks() {
    for (void* p : cached) cudaFree(p);
    cached.clear();
  }
  __attribute__((noinline)) void* malloc(size_t bytes) {
    void* p = nullptr;
    if (cudaMalloc(&p, bytes) == cudaSuccess) return p;
    for (int retry = 0; retry < 2; ++retry) {  // CuPy: free_all_blocks, then gc and free_all_blocks again
      free_all_blocks();
      if (cudaMalloc(&p, bytes) == cudaSuccess) return p;
    }
    return nullptr;
  }
};
}  // namespace cupy_4cuda_6memory

namespace tsl {
struct BFCAllocator {
  void* region = nullptr;
  __attribute__((noinline)) void preallocate(size_t bytes) { cudaMalloc(&region, bytes); }
};
}  // namespace tsl

// The pool is reached as CuPy's is, not passed: a function whose parameters
// name the pool's type would be taken for the pool's own code.
static cupy_4cuda_6memory::SingleDeviceMemoryPool pool;

__attribute__((noinline)) void fill_with_arrays(std::vector<void*>& arrays) {
  while (void* p = pool.malloc(16 << 20)) arrays.push_back(p);  // LINE:fill
}

static tsl::BFCAllocator bfc;

__attribute__((noinline)) void warm_up_jax() {
  bfc.preallocate(192 << 20);  // LINE:preallocate
}

__attribute__((noinline)) bool own_buffer() {
  void* p = nullptr;
  return cudaMalloc(&p, 128 << 20) == cudaSuccess;  // LINE:own
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "recover") == 0) {
    std::vector<void*> arrays;
    for (int i = 0; i < 15; ++i) arrays.push_back(pool.malloc(16 << 20));  // 240 of 256 MiB
    for (int i = 0; i < 4; ++i) pool.free(arrays[size_t(i)]);            // 64 MiB cached
    std::printf("big array: %s\n", pool.malloc(32 << 20) ? "allocated" : "out of memory");
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "xla") == 0) {
    warm_up_jax();
    std::printf("own buffer: %s\n", own_buffer() ? "allocated" : "out of memory");
    return 0;
  }
  std::vector<void*> arrays;
  fill_with_arrays(arrays);
  std::printf("pool gave up after %zu arrays\n", arrays.size());
  return 0;
}
