// Kernels that malloc and free on the device, for the device_heap option.
// On a GPU the device code below runs; under the simulated GPU each kernel
// runs the host body beside it (docs/simulated-gpu.md#device-code), which
// makes the same calls through the simulated device heap.
//   leaks:   keep_rows<<<2, 32>>>(4096) keeps 64 x 4096 B; odd_sizes<<<1, 16>>>
//            keeps 16 x 1000 B and frees its 16 x 24 B; scratch_only<<<1, 8>>>
//            frees all it takes.
//   exhaust: the heap limited to 1 MiB (enlarge_heap), fill_until_full<<<1, 4>>>
//            mallocs 64 KiB blocks until malloc returns NULL: 16 kept, 4 NULLs.
//   clean:   scratch_only only.
// Built with -lineinfo (device_heap_kernels) and without (device_heap_kernels_no_lines):
// the report names the malloc's line, "device_heap_kernels.cu:N", only with it.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstring>

#include "../../simcuda/include/simcuda_device.h"

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t e = (call);                                                      \
    if (e != cudaSuccess) {                                                      \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e));            \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

// Each malloc and free sits on a line named below (kRows...): the simulated
// GPU reports the pc of that line's first instruction in the cubin nvcc
// built with -lineinfo, as a real GPU would report the call's pc.
enum : unsigned { kRows = __LINE__ + 2 };
__global__ void keep_rows(int bytes) {
  char* row = static_cast<char*>(malloc(bytes));
  if (row) row[0] = 1;
}
enum : unsigned { kKept = __LINE__ + 2, kScratch = kKept + 1, kScratchFree = kKept + 2 };
__global__ void odd_sizes() {
  char* kept = static_cast<char*>(malloc(1000));
  void* scratch = malloc(24);
  free(scratch);
  if (kept) kept[0] = 1;
}
enum : unsigned { kScratchOnly = __LINE__ + 1 };
__global__ void scratch_only() { free(malloc(512)); }
enum : unsigned { kFill = __LINE__ + 2 };
__global__ void fill_until_full(int bytes) {
  while (malloc(bytes)) {
  }
}

// The same kernels as host bodies, for the simulated GPU.
namespace sim {
void* (*device_malloc)(size_t, unsigned);
void (*device_free)(void*, unsigned);

void keep_rows(const SimcudaThread* t) { device_malloc(size_t(*static_cast<int*>(t->args[0])), kRows); }
void odd_sizes(const SimcudaThread*) {
  device_malloc(1000, kKept);
  device_free(device_malloc(24, kScratch), kScratchFree);
}
void scratch_only(const SimcudaThread*) { device_free(device_malloc(512, kScratchOnly), kScratchOnly); }
void fill_until_full(const SimcudaThread* t) {
  while (device_malloc(size_t(*static_cast<int*>(t->args[0])), kFill)) {
  }
}

// False on a real GPU: its runtime has no kernel bodies to set.
bool install() {
  using Set = cudaError_t (*)(const void*, SimcudaKernelBody);
  auto set = reinterpret_cast<Set>(dlsym(RTLD_DEFAULT, "cudaSimSetKernelBody"));
  device_malloc = reinterpret_cast<void* (*)(size_t, unsigned)>(dlsym(RTLD_DEFAULT, "cudaSimDeviceMalloc"));
  device_free = reinterpret_cast<void (*)(void*, unsigned)>(dlsym(RTLD_DEFAULT, "cudaSimDeviceFree"));
  if (!set || !device_malloc || !device_free) return false;
  set(reinterpret_cast<const void*>(::keep_rows), keep_rows);
  set(reinterpret_cast<const void*>(::odd_sizes), odd_sizes);
  set(reinterpret_cast<const void*>(::scratch_only), scratch_only);
  set(reinterpret_cast<const void*>(::fill_until_full), fill_until_full);
  return true;
}
}  // namespace sim

__attribute__((noinline)) int launch_rows() {
  keep_rows<<<2, 32>>>(4096);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
__attribute__((noinline)) int launch_odd() {
  odd_sizes<<<1, 16>>>();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
__attribute__((noinline)) int launch_scratch() {
  scratch_only<<<1, 8>>>();
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
__attribute__((noinline)) int enlarge_heap(size_t bytes) {
  return cudaDeviceSetLimit(cudaLimitMallocHeapSize, bytes) == cudaSuccess ? 0 : 1;
}
__attribute__((noinline)) int launch_fill() {
  fill_until_full<<<1, 4>>>(64 << 10);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "leaks";
  sim::install();
  CHECK(cudaFree(nullptr));
  if (std::strcmp(mode, "leaks") == 0) {
    if (launch_rows() || launch_odd() || launch_scratch()) return 1;
  } else if (std::strcmp(mode, "exhaust") == 0) {
    if (enlarge_heap(1 << 20) || launch_fill()) return 1;
  } else if (std::strcmp(mode, "clean") == 0) {
    if (launch_scratch()) return 1;
  } else {
    std::fprintf(stderr, "usage: device_heap_kernels leaks|exhaust|clean\n");
    return 2;
  }
  CHECK(cudaDeviceSynchronize());
  std::printf("%s done\n", mode);
  return 0;
}
