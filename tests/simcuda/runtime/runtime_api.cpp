// The CUDA runtime API of the simulated GPU: what the samples and the tests
// call, mapped onto driver entry points the way cudart 13 maps them
// (cudaMallocHost -> cuMemHostAlloc, cudaDeviceReset -> cuDevicePrimaryCtxReset, ...).
#include <cstdio>
#include <cstring>

#include "tests/simcuda/include/not_simulated.h"
#include "tests/simcuda/runtime/runtime_common.h"
#include "tests/simcuda/runtime/not_simulated.h"

using simrt::driver;
using simrt::record;
using simrt::t_last_error;

namespace {

bool per_thread(cudaStream_t s) { return s == cudaStreamPerThread; }

}  // namespace

int simrt::not_simulated(const char* function) {
  simcuda::say_not_simulated(function, "cudaErrorNotSupported");
  return record(cudaErrorNotSupported);
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

// cudaMemLocation and CUmemLocation share their layout and values.
RT_EXPORT cudaError_t cudaMemPrefetchAsync(const void* ptr, size_t count, cudaMemLocation where, unsigned int flags,
                                           cudaStream_t stream) {
  RT_BEGIN();
  CUmemLocation location{CUmemLocationType(where.type), where.id};
  auto prefetch = per_thread(stream) ? d.cuMemPrefetchAsync_ptsz : d.cuMemPrefetchAsync;
  return record(prefetch(CUdeviceptr(ptr), count, location, flags, reinterpret_cast<CUstream>(stream)));
}

RT_EXPORT cudaError_t cudaMemPrefetchBatchAsync(void** ptrs, size_t* sizes, size_t count, cudaMemLocation* where,
                                                size_t* first_op, size_t location_count, unsigned long long flags,
                                                cudaStream_t stream) {
  RT_BEGIN();
  static_assert(sizeof(cudaMemLocation) == sizeof(CUmemLocation));
  return record(d.cuMemPrefetchBatchAsync(reinterpret_cast<CUdeviceptr*>(ptrs), sizes, count,
                                          reinterpret_cast<CUmemLocation*>(where), first_op, location_count, flags,
                                          reinterpret_cast<CUstream>(stream)));
}

RT_EXPORT cudaError_t cudaDeviceCanAccessPeer(int* can, int device, int peer) {
  RT_BEGIN();
  return record(d.cuDeviceCanAccessPeer(can, device, peer));
}

// Peer access from the current device's primary context to the peer's.
RT_EXPORT cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned int flags) {
  RT_BEGIN();
  CUcontext peer_context = nullptr;
  if (CUresult r = simrt::primary_context(peer, &peer_context); r != CUDA_SUCCESS) return record(r);
  return record(d.cuCtxEnablePeerAccess(peer_context, flags));
}

RT_EXPORT cudaError_t cudaDeviceDisablePeerAccess(int peer) {
  RT_BEGIN();
  CUcontext peer_context = nullptr;
  if (CUresult r = simrt::primary_context(peer, &peer_context); r != CUDA_SUCCESS) return record(r);
  return record(d.cuCtxDisablePeerAccess(peer_context));
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

// The driver runs them on its own thread (driver/host_functions.cpp).
RT_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* data) {
  RT_BEGIN();
  return record(d.cuLaunchHostFunc(reinterpret_cast<CUstream>(stream), fn, data));
}

RT_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t fn, void* data,
                                            unsigned int flags) {
  RT_BEGIN();
  // cudaStreamCallback_t takes a cudaError_t where CUstreamCallback takes a CUresult: both are ints.
  return record(
      d.cuStreamAddCallback(reinterpret_cast<CUstream>(stream), reinterpret_cast<CUstreamCallback>(fn), data, flags));
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

// 3D and mipmapped arrays: one element of the channel format per texel.
namespace {
CUDA_ARRAY3D_DESCRIPTOR array3d(const cudaChannelFormatDesc& desc, cudaExtent extent) {
  CUDA_ARRAY3D_DESCRIPTOR cu{};
  cu.Width = extent.width;
  cu.Height = extent.height;
  cu.Depth = extent.depth;
  cu.Format = CU_AD_FORMAT_UNSIGNED_INT8;
  cu.NumChannels = unsigned(desc.x + desc.y + desc.z + desc.w) / 8;  // bytes per element
  return cu;
}

// The driver's view of a resource: only what the simulation keeps (its type and memory).
CUDA_RESOURCE_DESC resource_of(const cudaResourceDesc& r) {
  CUDA_RESOURCE_DESC cu{};
  switch (r.resType) {
    case cudaResourceTypeArray:
      cu.resType = CU_RESOURCE_TYPE_ARRAY;
      cu.res.array.hArray = reinterpret_cast<CUarray>(r.res.array.array);
      break;
    case cudaResourceTypeMipmappedArray:
      cu.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
      cu.res.mipmap.hMipmappedArray = reinterpret_cast<CUmipmappedArray>(r.res.mipmap.mipmap);
      break;
    case cudaResourceTypeLinear:
      cu.resType = CU_RESOURCE_TYPE_LINEAR;
      cu.res.linear.devPtr = CUdeviceptr(r.res.linear.devPtr);
      cu.res.linear.sizeInBytes = r.res.linear.sizeInBytes;
      break;
    case cudaResourceTypePitch2D:
      cu.resType = CU_RESOURCE_TYPE_PITCH2D;
      cu.res.pitch2D.devPtr = CUdeviceptr(r.res.pitch2D.devPtr);
      cu.res.pitch2D.width = r.res.pitch2D.width;
      cu.res.pitch2D.height = r.res.pitch2D.height;
      cu.res.pitch2D.pitchInBytes = r.res.pitch2D.pitchInBytes;
      break;
  }
  return cu;
}
}  // namespace

RT_EXPORT cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                                        unsigned int) {
  if (!desc) return record(cudaErrorInvalidValue);
  RT_BEGIN();
  CUDA_ARRAY3D_DESCRIPTOR cu = array3d(*desc, extent);
  return record(d.cuArray3DCreate(reinterpret_cast<CUarray*>(array), &cu));
}

RT_EXPORT cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t* array, const cudaChannelFormatDesc* desc,
                                               cudaExtent extent, unsigned int levels, unsigned int) {
  if (!desc) return record(cudaErrorInvalidValue);
  RT_BEGIN();
  CUDA_ARRAY3D_DESCRIPTOR cu = array3d(*desc, extent);
  return record(d.cuMipmappedArrayCreate(reinterpret_cast<CUmipmappedArray*>(array), &cu, levels));
}

RT_EXPORT cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t array) {
  RT_BEGIN();
  return record(d.cuMipmappedArrayDestroy(reinterpret_cast<CUmipmappedArray>(array)));
}

// Textures and surfaces: objects over a resource, as cudart makes them.
RT_EXPORT cudaError_t cudaCreateTextureObject(cudaTextureObject_t* texture, const cudaResourceDesc* resource,
                                              const cudaTextureDesc*, const cudaResourceViewDesc*) {
  if (!texture || !resource) return record(cudaErrorInvalidValue);
  RT_BEGIN();
  CUDA_RESOURCE_DESC cu = resource_of(*resource);
  CUDA_TEXTURE_DESC tex{};
  CUtexObject object = 0;
  CUresult r = d.cuTexObjectCreate(&object, &cu, &tex, nullptr);
  if (r == CUDA_SUCCESS) *texture = object;
  return record(r);
}
RT_EXPORT cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texture) {
  RT_BEGIN();
  return record(d.cuTexObjectDestroy(texture));
}
RT_EXPORT cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* surface, const cudaResourceDesc* resource) {
  if (!surface || !resource) return record(cudaErrorInvalidValue);
  RT_BEGIN();
  CUDA_RESOURCE_DESC cu = resource_of(*resource);
  CUsurfObject object = 0;
  CUresult r = d.cuSurfObjectCreate(&object, &cu);
  if (r == CUDA_SUCCESS) *surface = object;
  return record(r);
}
RT_EXPORT cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surface) {
  RT_BEGIN();
  return record(d.cuSurfObjectDestroy(surface));
}

// Interprocess memory handles.
RT_EXPORT cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t* handle, void* ptr) {
  if (!handle) return record(cudaErrorInvalidValue);
  RT_BEGIN();
  return record(d.cuIpcGetMemHandle(reinterpret_cast<CUipcMemHandle*>(handle), CUdeviceptr(ptr)));
}
RT_EXPORT cudaError_t cudaIpcOpenMemHandle(void** ptr, cudaIpcMemHandle_t handle, unsigned int flags) {
  if (!ptr) return record(cudaErrorInvalidValue);
  RT_BEGIN();
  CUipcMemHandle cu;
  static_assert(sizeof cu == sizeof handle);
  std::memcpy(&cu, &handle, sizeof cu);
  return record(d.cuIpcOpenMemHandle(reinterpret_cast<CUdeviceptr*>(ptr), cu, flags));
}
RT_EXPORT cudaError_t cudaIpcCloseMemHandle(void* ptr) {
  RT_BEGIN();
  return record(d.cuIpcCloseMemHandle(CUdeviceptr(ptr)));
}

// Graphs: built node by node or captured from a stream, instantiated, launched.
RT_EXPORT cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int flags) {
  RT_BEGIN();
  return record(d.cuGraphCreate(reinterpret_cast<CUgraph*>(graph), flags));
}
RT_EXPORT cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t original) {
  RT_BEGIN();
  return record(d.cuGraphClone(reinterpret_cast<CUgraph*>(clone), reinterpret_cast<CUgraph>(original)));
}
RT_EXPORT cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  RT_BEGIN();
  return record(d.cuGraphDestroy(reinterpret_cast<CUgraph>(graph)));
}
RT_EXPORT cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                               const cudaGraphNode_t* dependencies, size_t count,
                                               cudaMemAllocNodeParams* params) {
  if (!params) return record(cudaErrorInvalidValue);
  RT_BEGIN();
  CUDA_MEM_ALLOC_NODE_PARAMS cu{};
  cu.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  cu.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  cu.poolProps.location.id = params->poolProps.location.id;
  cu.bytesize = params->bytesize;
  CUresult r = d.cuGraphAddMemAllocNode(reinterpret_cast<CUgraphNode*>(node), reinterpret_cast<CUgraph>(graph),
                                        reinterpret_cast<const CUgraphNode*>(dependencies), count, &cu);
  if (r == CUDA_SUCCESS) params->dptr = reinterpret_cast<void*>(cu.dptr);
  return record(r);
}
RT_EXPORT cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                              const cudaGraphNode_t* dependencies, size_t count, void* ptr) {
  RT_BEGIN();
  return record(d.cuGraphAddMemFreeNode(reinterpret_cast<CUgraphNode*>(node), reinterpret_cast<CUgraph>(graph),
                                        reinterpret_cast<const CUgraphNode*>(dependencies), count, CUdeviceptr(ptr)));
}
RT_EXPORT cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph,
                                                    unsigned long long flags) {
  RT_BEGIN();
  return record(
      d.cuGraphInstantiateWithFlags(reinterpret_cast<CUgraphExec*>(exec), reinterpret_cast<CUgraph>(graph), flags));
}
RT_EXPORT cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
  return cudaGraphInstantiateWithFlags(exec, graph, flags);
}
RT_EXPORT cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  RT_BEGIN();
  return record(d.cuGraphLaunch(reinterpret_cast<CUgraphExec>(exec), reinterpret_cast<CUstream>(stream)));
}
RT_EXPORT cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  RT_BEGIN();
  return record(d.cuGraphExecDestroy(reinterpret_cast<CUgraphExec>(exec)));
}
RT_EXPORT cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  RT_BEGIN();
  return record(d.cuStreamBeginCapture(reinterpret_cast<CUstream>(stream), static_cast<CUstreamCaptureMode>(mode)));
}
RT_EXPORT cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
  RT_BEGIN();
  return record(d.cuStreamEndCapture(reinterpret_cast<CUstream>(stream), reinterpret_cast<CUgraph*>(graph)));
}
