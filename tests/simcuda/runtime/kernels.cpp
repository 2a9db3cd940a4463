// Kernel registration and launch of the simulated runtime. Kernels do not run:
// a launch is validated and succeeds, which is all a leak check needs.
#include "driver_table.h"
#include <cuda_runtime_api.h>

#include "driver_table.h"

#define RT_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
struct LaunchConfig {
  dim3 grid, block;
  size_t shared = 0;
  void* stream = nullptr;
};
thread_local LaunchConfig t_config;
void* g_fatbin_handle = nullptr;
}  // namespace

RT_EXPORT void** __cudaRegisterFatBinary(void*) { return &g_fatbin_handle; }
RT_EXPORT void __cudaRegisterFatBinaryEnd(void**) {}
RT_EXPORT void __cudaUnregisterFatBinary(void**) {}
RT_EXPORT char __cudaInitModule(void**) { return 1; }
RT_EXPORT void __cudaRegisterFunction(void**, const char*, char*, const char*, int, uint3*, uint3*, dim3*, dim3*,
                                      int*) {}
RT_EXPORT void __cudaRegisterVar(void**, char*, char*, const char*, int, size_t, int, int) {}
RT_EXPORT void __cudaRegisterManagedVar(void**, void**, char*, const char*, int, size_t, int, int) {}

RT_EXPORT unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, struct CUstream_st* stream) {
  t_config = LaunchConfig{grid, block, shared, stream};
  return 0;
}

RT_EXPORT cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, void* stream) {
  *grid = t_config.grid;
  *block = t_config.block;
  *shared = t_config.shared;
  *static_cast<void**>(stream) = t_config.stream;
  return cudaSuccess;
}

RT_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* func) {
  *kernel = reinterpret_cast<cudaKernel_t>(const_cast<void*>(func));
  return cudaSuccess;
}

static cudaError_t launch() {
  return simrt::ensure_context() == CUDA_SUCCESS ? cudaSuccess : cudaErrorNoDevice;
}

RT_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t, dim3, dim3, void**, size_t, cudaStream_t) { return launch(); }
RT_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t, dim3, dim3, void**, size_t, cudaStream_t) {
  return launch();
}
RT_EXPORT cudaError_t cudaLaunchKernel(const void*, dim3, dim3, void**, size_t, cudaStream_t) { return launch(); }
