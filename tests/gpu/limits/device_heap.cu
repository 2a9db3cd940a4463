// Context limits and the device heap on a real GPU (tests/cases/device_heap/*_real.sh, gpu-bench-device-heap.sh):
//   device_heap measure            prints the device's shape and what each limit reserves, measured with cudaMemGetInfo
//   device_heap heap_leak          a 512 MiB heap; 4096 threads malloc 4 KiB each and never free it
//   device_heap heap_freed         the same kernel, freeing what it allocates
//   device_heap stack_oom KIB MIB  a per-thread stack of KIB, then one cudaMalloc of MIB
//   device_heap kernels            device-side leaks in two kernels (4096 x 4096 B, 64 x 1000 B), one kernel
//                                  that frees what it mallocs, and blocks freed by a later launch
//   device_heap bench N            N launches of an empty kernel, then N of a kernel whose 256 threads malloc
//                                  and free 64 B: microseconds per launch
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void keep_blocks(bool release) {
  char* p = static_cast<char*>(malloc(4096));
  if (p) p[0] = 1;
  if (release) free(p);
}

__global__ void odd_sizes() {  // 64 of 128 threads keep 1000 bytes
  char* p = static_cast<char*>(malloc(1000));
  if (p) p[0] = 1;
  if (threadIdx.x % 2) free(p);
}

__global__ void balanced() {
  for (int i = 0; i < 4; ++i) free(malloc(256));
}

__device__ void* g_kept[128];
__global__ void keep_for_later() { g_kept[threadIdx.x] = malloc(512); }
__global__ void free_kept() { free(g_kept[threadIdx.x]); }

__global__ void empty() {}
__global__ void malloc_free() { free(malloc(64)); }

static size_t free_now() {
  size_t f = 0, t = 0;
  cudaMemGetInfo(&f, &t);
  return f;
}

// Not a tail call: the frame stays in the stack of the call it makes.
__attribute__((noinline)) static cudaError_t enlarge_heap(size_t bytes) {
  cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, bytes);
  if (e != cudaSuccess) std::fprintf(stderr, "enlarge_heap: %s\n", cudaGetErrorString(e));
  return e;
}

// Not a tail call: the frame stays in the stack of the call it makes.
__attribute__((noinline)) static cudaError_t enlarge_stack(size_t bytes) {
  cudaError_t e = cudaDeviceSetLimit(cudaLimitStackSize, bytes);
  if (e != cudaSuccess) std::fprintf(stderr, "enlarge_stack: %s\n", cudaGetErrorString(e));
  return e;
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  cudaFree(0);
  if (std::strcmp(argv[1], "measure") == 0) {
    int sms = 0, per_sm = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0);
    std::printf("sms %d threads_per_sm %d\n", sms, per_sm);
    for (size_t kib : {2, 8, 64, 1}) {
      size_t before = free_now();
      cudaError_t e = enlarge_stack(kib << 10);
      std::printf("stack %zu KiB: %s, reserved %lld more\n", kib, cudaGetErrorString(e),
                  (long long)before - (long long)free_now());
    }
    size_t before = free_now();
    cudaError_t e = enlarge_heap(size_t(512) << 20);
    size_t after_set = free_now();
    keep_blocks<<<1, 1>>>(true);
    cudaDeviceSynchronize();
    std::printf("heap 512 MiB: %s, reserved %lld at the call, %lld after the first kernel that mallocs\n",
                cudaGetErrorString(e), (long long)before - (long long)after_set,
                (long long)before - (long long)free_now());
    return 0;
  }
  if (std::strcmp(argv[1], "heap_leak") == 0 || std::strcmp(argv[1], "heap_freed") == 0) {
    cudaError_t e = enlarge_heap(size_t(512) << 20);
    keep_blocks<<<16, 256>>>(std::strcmp(argv[1], "heap_freed") == 0);
    cudaError_t k = cudaDeviceSynchronize();
    std::printf("%s: %s, %s\n", argv[1], cudaGetErrorString(e), cudaGetErrorString(k));
    return 0;
  }
  if (std::strcmp(argv[1], "kernels") == 0) {
    enlarge_heap(size_t(512) << 20);
    keep_blocks<<<16, 256>>>(false);
    odd_sizes<<<1, 128>>>();
    balanced<<<8, 64>>>();
    keep_for_later<<<1, 128>>>();
    cudaDeviceSynchronize();
    free_kept<<<1, 128>>>();
    cudaError_t k = cudaDeviceSynchronize();
    std::printf("kernels: %s\n", cudaGetErrorString(k));
    return k == cudaSuccess ? 0 : 1;
  }
  if (std::strcmp(argv[1], "bench") == 0 && argc > 2) {
    int n = std::atoi(argv[2]);
    auto time_us = [&](auto launch) {  // wall clock: a patched launch also waits on the host
      launch();  // warm
      cudaDeviceSynchronize();
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < n; ++i) launch();
      cudaDeviceSynchronize();
      return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / n;
    };
    double plain = time_us([] { empty<<<1, 256>>>(); });
    double mallocs = time_us([] { malloc_free<<<1, 256>>>(); });
    std::printf("bench: empty kernel %.2f us/launch, 256 x malloc+free kernel %.2f us/launch\n", plain, mallocs);
    return 0;
  }
  if (std::strcmp(argv[1], "stack_oom") == 0 && argc > 3) {
    cudaError_t e = enlarge_stack(size_t(std::atol(argv[2])) << 10);
    void* p = nullptr;
    cudaError_t m = cudaMalloc(&p, size_t(std::atol(argv[3])) << 20);
    std::printf("stack limit: %s; allocation: %s\n", cudaGetErrorString(e), cudaGetErrorString(m));
    return m == cudaSuccess ? 0 : 1;
  }
  return 2;
}
