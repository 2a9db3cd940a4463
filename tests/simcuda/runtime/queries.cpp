// Runtime functions modelled because they are cheap and programs call them
// around the allocations cudaleak tracks: channel formats, device attributes,
// the default memory pool and its attributes, driver entry points.
#include "tests/simcuda/runtime/runtime_common.h"

using simrt::record;

// Returned by value in memory (a hidden pointer on x86-64): it must be
// modelled, never stubbed (gen_stub_lists.py lists it MODELLED).
RT_EXPORT cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return cudaChannelFormatDesc{x, y, z, w, f};
}

// cudaDeviceAttr and CUdevice_attribute share their values.
RT_EXPORT cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device) {
  if (!value) return record(cudaErrorInvalidValue);
  RT_BEGIN();
  return record(d.cuDeviceGetAttribute(value, CUdevice_attribute(attribute), device));
}

RT_EXPORT cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
  RT_BEGIN();
  return record(d.cuDeviceGetDefaultMemPool(reinterpret_cast<CUmemoryPool*>(pool), device));
}
// The simulation never replaces a device's pool (cudaDeviceSetMemPool is not modelled).
RT_EXPORT cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) {
  return cudaDeviceGetDefaultMemPool(pool, device);
}

// cudaMemPoolAttr and CUmemPool_attribute share their values.
RT_EXPORT cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value) {
  RT_BEGIN();
  return record(d.cuMemPoolSetAttribute(reinterpret_cast<CUmemoryPool>(pool), CUmemPool_attribute(attribute), value));
}
RT_EXPORT cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value) {
  RT_BEGIN();
  return record(d.cuMemPoolGetAttribute(reinterpret_cast<CUmemoryPool>(pool), CUmemPool_attribute(attribute), value));
}

// Through the driver's cuGetProcAddress, as cudart does; cudaDriverEntryPointQueryResult
// and CUdriverProcAddressQueryResult share their values.
RT_EXPORT cudaError_t cudaGetDriverEntryPointByVersion(const char* symbol, void** fn, unsigned int version,
                                                       unsigned long long flags,
                                                       cudaDriverEntryPointQueryResult* status) {
  RT_BEGIN();
  return record(
      d.cuGetProcAddress(symbol, fn, int(version), flags, reinterpret_cast<CUdriverProcAddressQueryResult*>(status)));
}
RT_EXPORT cudaError_t cudaGetDriverEntryPoint(const char* symbol, void** fn, unsigned long long flags,
                                              cudaDriverEntryPointQueryResult* status) {
  return cudaGetDriverEntryPointByVersion(symbol, fn, CUDA_VERSION, flags, status);
}

// Every stream and event of the simulation has finished its work.
RT_EXPORT cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }
RT_EXPORT cudaError_t cudaEventQuery(cudaEvent_t) { return cudaSuccess; }
