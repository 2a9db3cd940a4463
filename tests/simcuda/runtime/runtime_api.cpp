// The CUDA runtime API of the simulated GPU: what the samples and the tests
// call, mapped onto driver entry points the way cudart 13 maps them
// (cudaMallocHost -> cuMemHostAlloc, cudaDeviceReset -> cuDevicePrimaryCtxReset, ...).
#include "driver_table.h"
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>

#include "driver_table.h"

#define RT_EXPORT extern "C" __attribute__((visibility("default")))

using simrt::driver;

namespace {

thread_local cudaError_t t_last_error = cudaSuccess;

cudaError_t record(cudaError_t e) {
  if (e != cudaSuccess) t_last_error = e;
  return e;
}
// Driver and runtime codes share their numbers for every error the simulation produces.
cudaError_t record(CUresult r) { return record(static_cast<cudaError_t>(r)); }

// Lazy initialisation of every runtime call: driver loaded, primary context current.
#define RT_BEGIN()                                            \
  if (CUresult init = simrt::ensure_context(); init != CUDA_SUCCESS) \
    return record(init == CUDA_ERROR_NO_DEVICE ? cudaErrorNoDevice : static_cast<cudaError_t>(init));  \
  const simrt::DriverTable& d = *driver()

bool per_thread(cudaStream_t s) { return s == cudaStreamPerThread; }

}  // namespace

RT_EXPORT const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorDeviceUninitialized: return "invalid device context";
    default: return "unknown error";
  }
}

RT_EXPORT const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    default: return "cudaErrorUnknown";
  }
}

RT_EXPORT cudaError_t cudaGetLastError() {
  cudaError_t e = t_last_error;
  t_last_error = cudaSuccess;
  return e;
}
RT_EXPORT cudaError_t cudaPeekAtLastError() { return t_last_error; }

RT_EXPORT cudaError_t cudaDriverGetVersion(int* version) {
  if (!version) return record(cudaErrorInvalidValue);
  *version = driver() ? CUDA_VERSION : 0;
  return cudaSuccess;
}
RT_EXPORT cudaError_t cudaRuntimeGetVersion(int* version) {
  if (!version) return record(cudaErrorInvalidValue);
  *version = CUDART_VERSION;
  return cudaSuccess;
}

RT_EXPORT cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return record(cudaErrorInvalidValue);
  const simrt::DriverTable* d = driver();
  if (!d) return record(cudaErrorNoDevice);
  return record(d->cuDeviceGetCount(count));
}

RT_EXPORT cudaError_t cudaSetDevice(int device) {
  int count = 0;
  if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) return e;
  if (device < 0 || device >= count) return record(cudaErrorInvalidDevice);
  simrt::set_current_device(device);
  return record(simrt::ensure_context());
}

RT_EXPORT cudaError_t cudaGetDevice(int* device) {
  if (!device) return record(cudaErrorInvalidValue);
  *device = simrt::current_device();
  return cudaSuccess;
}

RT_EXPORT cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (!prop) return record(cudaErrorInvalidValue);
  RT_BEGIN();
  std::memset(prop, 0, sizeof(*prop));
  d.cuDeviceGetName(prop->name, sizeof(prop->name), device);
  d.cuDeviceTotalMem(&prop->totalGlobalMem, device);
  d.cuDeviceGetAttribute(&prop->major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  d.cuDeviceGetAttribute(&prop->minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  d.cuDeviceGetAttribute(&prop->multiProcessorCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
  prop->maxThreadsPerBlock = 1024;
  return cudaSuccess;
}

RT_EXPORT cudaError_t cudaDeviceSynchronize() {
  RT_BEGIN();
  return record(d.cuCtxSynchronize());
}

// cudaLimit and CUlimit share their values.
RT_EXPORT cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  RT_BEGIN();
  return record(d.cuCtxSetLimit(CUlimit(limit), value));
}

RT_EXPORT cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  RT_BEGIN();
  return record(d.cuCtxGetLimit(value, CUlimit(limit)));
}

RT_EXPORT cudaError_t cudaDeviceReset() {
  const simrt::DriverTable* d = driver();
  if (!d) return record(cudaErrorNoDevice);
  int device = simrt::current_device();
  CUresult r = d->cuDevicePrimaryCtxReset(device);
  simrt::forget_context(device);  // the next call retains the primary context again
  return record(r);
}

RT_EXPORT cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
  RT_BEGIN();
  return record(d.cuMemGetInfo(free, total));
}

RT_EXPORT cudaError_t cudaMalloc(void** ptr, size_t size) {
  if (!ptr) return record(cudaErrorInvalidValue);
  RT_BEGIN();
  if (size == 0) {
    *ptr = nullptr;
    return cudaSuccess;
  }
  return record(d.cuMemAlloc(reinterpret_cast<CUdeviceptr*>(ptr), size));
}

RT_EXPORT cudaError_t cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
  RT_BEGIN();
  return record(d.cuMemAllocPitch(reinterpret_cast<CUdeviceptr*>(ptr), pitch, width, height, 4));
}

RT_EXPORT cudaError_t cudaFree(void* ptr) {
  RT_BEGIN();
  return record(d.cuMemFree(CUdeviceptr(ptr)));
}

RT_EXPORT cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int flags) {
  RT_BEGIN();
  return record(d.cuMemHostAlloc(ptr, size, flags));
}
RT_EXPORT cudaError_t cudaMallocHost(void** ptr, size_t size) { return cudaHostAlloc(ptr, size, 0); }

RT_EXPORT cudaError_t cudaFreeHost(void* ptr) {
  RT_BEGIN();
  return record(d.cuMemFreeHost(ptr));
}

RT_EXPORT cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags) {
  RT_BEGIN();
  return record(d.cuMemHostRegister(ptr, size, flags));
}

RT_EXPORT cudaError_t cudaHostUnregister(void* ptr) {
  RT_BEGIN();
  return record(d.cuMemHostUnregister(ptr));
}

RT_EXPORT cudaError_t cudaMallocManaged(void** ptr, size_t size, unsigned int flags) {
  RT_BEGIN();
  return record(d.cuMemAllocManaged(reinterpret_cast<CUdeviceptr*>(ptr), size, flags));
}

RT_EXPORT cudaError_t cudaMallocAsync(void** ptr, size_t size, cudaStream_t stream) {
  RT_BEGIN();
  auto fn = per_thread(stream) ? d.cuMemAllocAsync_ptsz : d.cuMemAllocAsync;
  return record(fn(reinterpret_cast<CUdeviceptr*>(ptr), size, reinterpret_cast<CUstream>(stream)));
}

RT_EXPORT cudaError_t cudaMallocFromPoolAsync(void** ptr, size_t size, cudaMemPool_t pool, cudaStream_t stream) {
  RT_BEGIN();
  auto fn = per_thread(stream) ? d.cuMemAllocFromPoolAsync_ptsz : d.cuMemAllocFromPoolAsync;
  return record(fn(reinterpret_cast<CUdeviceptr*>(ptr), size, reinterpret_cast<CUmemoryPool>(pool),
                   reinterpret_cast<CUstream>(stream)));
}

RT_EXPORT cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream) {
  RT_BEGIN();
  auto fn = per_thread(stream) ? d.cuMemFreeAsync_ptsz : d.cuMemFreeAsync;
  return record(fn(CUdeviceptr(ptr), reinterpret_cast<CUstream>(stream)));
}

RT_EXPORT cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* props) {
  if (!props) return record(cudaErrorInvalidValue);
  RT_BEGIN();
  CUmemPoolProps cu{};
  cu.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  cu.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  cu.location.id = props->location.id;
  return record(d.cuMemPoolCreate(reinterpret_cast<CUmemoryPool*>(pool), &cu));
}

RT_EXPORT cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
  RT_BEGIN();
  return record(d.cuMemPoolDestroy(reinterpret_cast<CUmemoryPool>(pool)));
}

RT_EXPORT cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width,
                                      size_t height, unsigned int) {
  if (!desc) return record(cudaErrorInvalidValue);
  RT_BEGIN();
  CUDA_ARRAY3D_DESCRIPTOR cu{};
  cu.Width = width;
  cu.Height = height;
  cu.Depth = 0;
  cu.Format = CU_AD_FORMAT_UNSIGNED_INT8;
  cu.NumChannels = unsigned(desc->x + desc->y + desc->z + desc->w) / 8;  // bytes per element
  return record(d.cuArray3DCreate(reinterpret_cast<CUarray*>(array), &cu));
}

RT_EXPORT cudaError_t cudaFreeArray(cudaArray_t array) {
  RT_BEGIN();
  return record(d.cuArrayDestroy(reinterpret_cast<CUarray>(array)));
}

RT_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority) {
  RT_BEGIN();
  return record(d.cuStreamCreateWithPriority(reinterpret_cast<CUstream*>(stream), flags, priority));
}
RT_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  RT_BEGIN();
  return record(d.cuStreamCreate(reinterpret_cast<CUstream*>(stream), flags));
}
RT_EXPORT cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, 0); }

RT_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  RT_BEGIN();
  return record(d.cuStreamDestroy(reinterpret_cast<CUstream>(stream)));
}

RT_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  RT_BEGIN();
  return record(d.cuStreamSynchronize(reinterpret_cast<CUstream>(stream)));
}

RT_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  RT_BEGIN();
  return record(d.cuEventCreate(reinterpret_cast<CUevent*>(event), flags));
}
RT_EXPORT cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, 0); }

RT_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t event) {
  RT_BEGIN();
  return record(d.cuEventDestroy(reinterpret_cast<CUevent>(event)));
}

RT_EXPORT cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  RT_BEGIN();
  return record(d.cuEventRecord(reinterpret_cast<CUevent>(event), reinterpret_cast<CUstream>(stream)));
}

RT_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  RT_BEGIN();
  return record(d.cuEventSynchronize(reinterpret_cast<CUevent>(event)));
}

// All simulated memory is host memory, so every copy direction is a memcpy.
RT_EXPORT cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind) {
  RT_BEGIN();
  (void)d;
  if (count && (!dst || !src)) return record(cudaErrorInvalidValue);
  std::memmove(dst, src, count);
  return cudaSuccess;
}
RT_EXPORT cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy(dst, src, count, kind);
}
RT_EXPORT cudaError_t cudaMemset(void* dst, int value, size_t count) {
  RT_BEGIN();
  (void)d;
  if (count && !dst) return record(cudaErrorInvalidValue);
  std::memset(dst, value, count);
  return cudaSuccess;
}
RT_EXPORT cudaError_t cudaMemsetAsync(void* dst, int value, size_t count, cudaStream_t) {
  return cudaMemset(dst, value, count);
}
