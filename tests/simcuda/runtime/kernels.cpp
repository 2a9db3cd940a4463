// Kernel registration and launch of the simulated runtime. A kernel runs
// only where the program gave it a body (cudaSimSetKernelBody, a host
// function per thread: docs/simulated-gpu.md#device-code); otherwise a launch
// is validated and succeeds, which is all a leak check needs.
#include <cuda_runtime_api.h>

#include <mutex>
#include <string>
#include <unordered_map>

#include "tests/simcuda/include/simcuda_device.h"
#include "tests/simcuda/runtime/driver_table.h"

#define RT_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
struct LaunchConfig {
  dim3 grid, block;
  size_t shared = 0;
  void* stream = nullptr;
};
thread_local LaunchConfig t_config;
void* g_fatbin_handle = nullptr;
const void* g_fatbin = nullptr;  // the program's (the last registered)
std::mutex g_mutex;
struct Kernel {
  std::string name;  // mangled, as the driver knows it
  SimcudaKernelBody body = nullptr;
};
std::unordered_map<const void*, Kernel> g_kernels;  // by host stub
}  // namespace

RT_EXPORT void** __cudaRegisterFatBinary(void* fatbin) {
  g_fatbin = fatbin;
  return &g_fatbin_handle;
}
RT_EXPORT void __cudaRegisterFatBinaryEnd(void**) {}
RT_EXPORT void __cudaUnregisterFatBinary(void**) {}
RT_EXPORT char __cudaInitModule(void**) { return 1; }
RT_EXPORT void __cudaRegisterFunction(void**, const char* stub, char*, const char* name, int, uint3*, uint3*, dim3*,
                                      dim3*, int*) {
  std::lock_guard lock(g_mutex);
  if (stub && name) g_kernels[stub].name = name;
}

// The simulated GPU's own: the host function that runs for each thread of
// `kernel` (its host stub), and a kernel's malloc and free.
RT_EXPORT cudaError_t cudaSimSetKernelBody(const void* kernel, SimcudaKernelBody body) {
  std::lock_guard lock(g_mutex);
  auto it = g_kernels.find(kernel);
  if (it == g_kernels.end()) return cudaErrorInvalidDeviceFunction;
  it->second.body = body;
  return cudaSuccess;
}
RT_EXPORT void* cudaSimDeviceMalloc(size_t bytes, unsigned site) {
  static auto fn = reinterpret_cast<decltype(&simcuda_device_malloc)>(simrt::driver_symbol("simcuda_device_malloc"));
  return fn ? fn(bytes, site) : nullptr;
}
RT_EXPORT void cudaSimDeviceFree(void* address, unsigned site) {
  static auto fn = reinterpret_cast<decltype(&simcuda_device_free)>(simrt::driver_symbol("simcuda_device_free"));
  if (fn) fn(address, site);
}
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

// A registered kernel is launched in the module of the program's fatbin,
// through the driver, where the simulated Sanitizer API sees it.
static cudaError_t launch(const void* stub, dim3 grid, dim3 block, void** args, cudaStream_t stream) {
  if (simrt::ensure_context() != CUDA_SUCCESS) return cudaErrorNoDevice;
  Kernel kernel;
  {
    std::lock_guard lock(g_mutex);
    auto it = g_kernels.find(stub);
    if (it == g_kernels.end()) return cudaSuccess;
    kernel = it->second;
  }
  static auto module_of = reinterpret_cast<decltype(&simcuda_runtime_module)>(
      simrt::driver_symbol("simcuda_runtime_module"));
  static auto run = reinterpret_cast<decltype(&simcuda_launch)>(simrt::driver_symbol("simcuda_launch"));
  if (!module_of || !run) return cudaSuccess;
  const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
  return run(module_of(g_fatbin), kernel.name.c_str(), g, b, reinterpret_cast<CUstream_st*>(stream), kernel.body,
             args) == CUDA_SUCCESS
             ? cudaSuccess
             : cudaErrorLaunchFailure;
}

RT_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t,
                                         cudaStream_t stream) {
  return launch(kernel, grid, block, args, stream);
}
RT_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t,
                                              cudaStream_t stream) {
  return launch(kernel, grid, block, args, stream);
}
RT_EXPORT cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t,
                                       cudaStream_t stream) {
  return launch(func, grid, block, args, stream);
}
