// Memory entry points of the simulated driver: device, pitched, pinned,
// registered, managed, arrays, and the stream-ordered allocator with pools.
#include <algorithm>
#include <vector>
#include <cstdlib>

#include "tests/simcuda/driver/sim_cuda.h"
#include "tests/simcuda/driver/sim_state.h"

using namespace simcuda;

namespace {

// Device-bound allocation in the current context, as cuMemAlloc does.
CUresult device_alloc(State& sim, CUdeviceptr* dptr, size_t bytes, bool context_bound) {
  if (!dptr || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  CUcontext ctx = current_context();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  void* p = nullptr;
  CUresult r = sim.allocate(device_of(ctx), bytes, context_bound ? ctx : nullptr, true, &p);
  if (r == CUDA_SUCCESS) *dptr = CUdeviceptr(p);
  return r;
}

CUresult host_alloc(State& sim, void** pp, size_t bytes) {
  if (!pp) return CUDA_ERROR_INVALID_VALUE;
  if (!current_context()) return CUDA_ERROR_INVALID_CONTEXT;
  return sim.allocate(-1, bytes, current_context(), false, pp);
}

size_t format_bytes(CUarray_format format) {
  switch (format) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT8: return 1;
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_HALF: return 2;
    default: return 4;
  }
}

CUresult array_create(State& sim, Object type, void** handle, size_t bytes) {
  if (!handle) return CUDA_ERROR_INVALID_VALUE;
  CUcontext ctx = current_context();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  std::lock_guard lock(sim.mutex);
  auto& device = sim.devices[size_t(device_of(ctx))];
  if (bytes > sim.available(device_of(ctx))) return CUDA_ERROR_OUT_OF_MEMORY;
  device.used += bytes;
  *handle = new_handle(type, device_of(ctx), ctx, bytes);
  return CUDA_SUCCESS;
}

CUresult array_destroy(State& sim, void* handle, Object type) {
  if (!valid(handle, type)) return CUDA_ERROR_INVALID_HANDLE;
  std::lock_guard lock(sim.mutex);
  auto* h = static_cast<Handle*>(handle);
  sim.devices[size_t(h->device)].used -= h->bytes;
  h->alive = false;
  return CUDA_SUCCESS;
}

CUresult alloc_async(State& sim, CUdeviceptr* dptr, size_t bytes, CUstream stream) {
  if (stream && stream != CU_STREAM_PER_THREAD && stream != CU_STREAM_LEGACY && !valid(stream, Object::Stream))
    return CUDA_ERROR_INVALID_HANDLE;
  CUresult r = device_alloc(sim, dptr, bytes, false);
  // On a capturing stream the allocation becomes an allocation node of the graph.
  if (void* graph = r == CUDA_SUCCESS && stream ? capture_graph_of(stream) : nullptr) {
    add_to_graph(graph, uintptr_t(*dptr));
    return r;
  }
  if (r == CUDA_SUCCESS) {
    std::lock_guard lock(sim.mutex);
    sim.devices[size_t(device_of(current_context()))].async_used += bytes;
  }
  return r;
}

CUresult free_async(State& sim, CUdeviceptr dptr) {
  size_t bytes = 0;
  int device = 0;
  {
    std::lock_guard lock(sim.mutex);
    auto it = sim.memory.find(uintptr_t(dptr));
    if (it != sim.memory.end()) bytes = it->second.bytes, device = it->second.device;
  }
  CUresult r = sim.release(uintptr_t(dptr));
  if (r == CUDA_SUCCESS) {
    std::lock_guard lock(sim.mutex);
    sim.devices[size_t(device)].async_used -= std::min(bytes, sim.devices[size_t(device)].async_used);
  }
  return r;
}

}  // namespace

SIM_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr* dptr, size_t bytes) {
  SIM_ENTRY("cuMemAlloc_v2");
  return device_alloc(sim, dptr, bytes, true);
}

SIM_EXPORT CUresult cuMemAllocPitch_v2(CUdeviceptr* dptr, size_t* pitch, size_t width, size_t height, unsigned int) {
  SIM_ENTRY("cuMemAllocPitch_v2");
  if (!pitch || width == 0 || height == 0) return CUDA_ERROR_INVALID_VALUE;
  *pitch = (width + 511) / 512 * 512;
  return device_alloc(sim, dptr, *pitch * height, true);
}

SIM_EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr) {
  SIM_ENTRY("cuMemFree_v2");
  if (dptr == 0) return CUDA_SUCCESS;
  return sim.release(uintptr_t(dptr));
}

SIM_EXPORT CUresult cuMemGetInfo_v2(size_t* free, size_t* total) {
  SIM_ENTRY("cuMemGetInfo_v2");
  if (!free || !total) return CUDA_ERROR_INVALID_VALUE;
  CUcontext ctx = current_context();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  std::lock_guard lock(sim.mutex);
  *total = sim.config.memory_per_device;
  *free = sim.available(device_of(ctx));
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemAllocHost_v2(void** pp, size_t bytes) {
  SIM_ENTRY("cuMemAllocHost_v2");
  return host_alloc(sim, pp, bytes);
}

SIM_EXPORT CUresult cuMemHostAlloc(void** pp, size_t bytes, unsigned int) {
  SIM_ENTRY("cuMemHostAlloc");
  return host_alloc(sim, pp, bytes);
}

SIM_EXPORT CUresult cuMemFreeHost(void* p) {
  SIM_ENTRY("cuMemFreeHost");
  return sim.release(uintptr_t(p));
}

SIM_EXPORT CUresult cuMemHostRegister_v2(void* p, size_t bytes, unsigned int) {
  SIM_ENTRY("cuMemHostRegister_v2");
  if (!p || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(sim.mutex);
  if (sim.memory.count(uintptr_t(p))) return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  sim.memory[uintptr_t(p)] = Allocation{bytes, -1, current_context(), false};
  return CUDA_SUCCESS;
}
SIM_EXPORT CUresult cuMemHostRegister(void* p, size_t bytes, unsigned int flags) {
  return cuMemHostRegister_v2(p, bytes, flags);
}

SIM_EXPORT CUresult cuMemHostUnregister(void* p) {
  SIM_ENTRY("cuMemHostUnregister");
  std::lock_guard lock(sim.mutex);
  auto it = sim.memory.find(uintptr_t(p));
  if (it == sim.memory.end()) return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
  sim.memory.erase(it);  // the host memory belongs to the caller
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemAllocManaged(CUdeviceptr* dptr, size_t bytes, unsigned int) {
  SIM_ENTRY("cuMemAllocManaged");
  CUresult r = device_alloc(sim, dptr, bytes, true);
  if (r == CUDA_SUCCESS) {
    std::lock_guard lock(sim.mutex);
    sim.memory[uintptr_t(*dptr)].managed = true;
  }
  return r;
}

namespace {

// Prefetching a whole managed allocation moves it: its bytes leave the device
// it was on and count on `device` (-1: the host, which counts nothing). Part
// of one, or a destination without room, leaves it where it is (the real
// driver evicts or migrates page by page).
CUresult prefetch(State& sim, CUdeviceptr dptr, size_t count, int device) {
  std::lock_guard lock(sim.mutex);
  if (device < -1 || device >= int(sim.devices.size())) return CUDA_ERROR_INVALID_DEVICE;
  auto it = sim.memory.find(uintptr_t(dptr));
  if (it == sim.memory.end() || !it->second.managed) return CUDA_ERROR_INVALID_VALUE;
  Allocation& a = it->second;
  if (count == 0 || count > a.bytes) return CUDA_ERROR_INVALID_VALUE;
  const int from = a.counted ? a.device : -1;
  if (count < a.bytes || from == device || (device >= 0 && a.bytes > sim.available(device))) return CUDA_SUCCESS;
  if (a.counted) sim.devices[size_t(a.device)].used -= a.bytes;
  a.counted = device >= 0;
  if (a.counted) {
    a.device = device;
    sim.devices[size_t(device)].used += a.bytes;
  }
  return CUDA_SUCCESS;
}

int location_device(CUmemLocation where) {
  if (where.type == CU_MEM_LOCATION_TYPE_DEVICE) return where.id;
  return where.type == CU_MEM_LOCATION_TYPE_INVALID ? -2 : -1;
}

// The real driver's rules: the first location starts at operation 0, each
// later one after the one before and before `count`; no flags; not the
// legacy NULL stream.
CUresult prefetch_batch(State& sim, CUdeviceptr* dptrs, size_t* sizes, size_t count, CUmemLocation* locations,
                        size_t* first_op, size_t location_count, unsigned long long flags, CUstream stream) {
  if (!dptrs || !sizes || !locations || !first_op || count == 0 || location_count == 0 || location_count > count ||
      first_op[0] != 0 || flags != 0 || !stream || stream == CU_STREAM_LEGACY)
    return CUDA_ERROR_INVALID_VALUE;
  for (size_t j = 1; j < location_count; ++j)
    if (first_op[j] <= first_op[j - 1] || first_op[j] >= count) return CUDA_ERROR_INVALID_VALUE;
  size_t j = 0;
  for (size_t i = 0; i < count; ++i) {
    while (j + 1 < location_count && first_op[j + 1] <= i) ++j;
    if (CUresult r = prefetch(sim, dptrs[i], sizes[i], location_device(locations[j])); r != CUDA_SUCCESS) return r;
  }
  return CUDA_SUCCESS;
}

}  // namespace

SIM_EXPORT CUresult cuMemPrefetchAsync(CUdeviceptr dptr, size_t count, CUdevice device, CUstream) {
  SIM_ENTRY("cuMemPrefetchAsync");
  return prefetch(sim, dptr, count, device);  // CU_DEVICE_CPU is -1, the host
}
SIM_EXPORT CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr dptr, size_t count, CUdevice device, CUstream) {
  SIM_ENTRY("cuMemPrefetchAsync_ptsz");
  return prefetch(sim, dptr, count, device);  // CU_DEVICE_CPU is -1, the host
}
SIM_EXPORT CUresult cuMemPrefetchAsync_v2(CUdeviceptr dptr, size_t count, CUmemLocation where, unsigned int, CUstream) {
  SIM_ENTRY("cuMemPrefetchAsync_v2");
  return prefetch(sim, dptr, count, location_device(where));
}
SIM_EXPORT CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr dptr, size_t count, CUmemLocation where, unsigned int,
                                               CUstream) {
  SIM_ENTRY("cuMemPrefetchAsync_v2_ptsz");
  return prefetch(sim, dptr, count, location_device(where));
}
SIM_EXPORT CUresult cuMemPrefetchBatchAsync(CUdeviceptr* dptrs, size_t* sizes, size_t count, CUmemLocation* locations,
                                            size_t* first_op, size_t location_count, unsigned long long flags,
                                            CUstream stream) {
  SIM_ENTRY("cuMemPrefetchBatchAsync");
  return prefetch_batch(sim, dptrs, sizes, count, locations, first_op, location_count, flags, stream);
}
SIM_EXPORT CUresult cuMemPrefetchBatchAsync_ptsz(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                                 CUmemLocation* locations, size_t* first_op, size_t location_count,
                                                 unsigned long long flags, CUstream stream) {
  SIM_ENTRY("cuMemPrefetchBatchAsync_ptsz");
  return prefetch_batch(sim, dptrs, sizes, count, locations, first_op, location_count, flags,
                        stream ? stream : CU_STREAM_PER_THREAD);
}

SIM_EXPORT CUresult cuArrayCreate_v2(CUarray* handle, const CUDA_ARRAY_DESCRIPTOR* d) {
  SIM_ENTRY("cuArrayCreate_v2");
  if (!d) return CUDA_ERROR_INVALID_VALUE;
  size_t bytes = d->Width * std::max<size_t>(d->Height, 1) * d->NumChannels * format_bytes(d->Format);
  return array_create(sim, Object::Array, reinterpret_cast<void**>(handle), bytes);
}

SIM_EXPORT CUresult cuArray3DCreate_v2(CUarray* handle, const CUDA_ARRAY3D_DESCRIPTOR* d) {
  SIM_ENTRY("cuArray3DCreate_v2");
  if (!d) return CUDA_ERROR_INVALID_VALUE;
  size_t bytes = d->Width * std::max<size_t>(d->Height, 1) * std::max<size_t>(d->Depth, 1) * d->NumChannels *
                 format_bytes(d->Format);
  return array_create(sim, Object::Array, reinterpret_cast<void**>(handle), bytes);
}

SIM_EXPORT CUresult cuArrayDestroy(CUarray handle) {
  SIM_ENTRY("cuArrayDestroy");
  return array_destroy(sim, handle, Object::Array);
}

SIM_EXPORT CUresult cuMipmappedArrayCreate(CUmipmappedArray* handle, const CUDA_ARRAY3D_DESCRIPTOR* d,
                                           unsigned int levels) {
  SIM_ENTRY("cuMipmappedArrayCreate");
  if (!d || levels == 0) return CUDA_ERROR_INVALID_VALUE;
  size_t bytes = 0, w = d->Width, h = std::max<size_t>(d->Height, 1), z = std::max<size_t>(d->Depth, 1);
  for (unsigned i = 0; i < levels;
       ++i, w = std::max<size_t>(w / 2, 1), h = std::max<size_t>(h / 2, 1), z = std::max<size_t>(z / 2, 1))
    bytes += w * h * z * d->NumChannels * format_bytes(d->Format);
  return array_create(sim, Object::Mipmapped, reinterpret_cast<void**>(handle), bytes);
}

SIM_EXPORT CUresult cuMipmappedArrayDestroy(CUmipmappedArray handle) {
  SIM_ENTRY("cuMipmappedArrayDestroy");
  return array_destroy(sim, handle, Object::Mipmapped);
}

SIM_EXPORT CUresult cuMemAllocAsync(CUdeviceptr* dptr, size_t bytes, CUstream stream) {
  SIM_ENTRY("cuMemAllocAsync");
  return alloc_async(sim, dptr, bytes, stream);
}
SIM_EXPORT CUresult cuMemAllocAsync_ptsz(CUdeviceptr* dptr, size_t bytes, CUstream stream) {
  SIM_ENTRY("cuMemAllocAsync_ptsz");
  return alloc_async(sim, dptr, bytes, stream);
}
SIM_EXPORT CUresult cuMemAllocFromPoolAsync(CUdeviceptr* dptr, size_t bytes, CUmemoryPool pool, CUstream stream) {
  SIM_ENTRY("cuMemAllocFromPoolAsync");
  if (!valid(pool, Object::Pool)) return CUDA_ERROR_INVALID_HANDLE;
  return alloc_async(sim, dptr, bytes, stream);
}
SIM_EXPORT CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr* dptr, size_t bytes, CUmemoryPool pool, CUstream stream) {
  SIM_ENTRY("cuMemAllocFromPoolAsync_ptsz");
  if (!valid(pool, Object::Pool)) return CUDA_ERROR_INVALID_HANDLE;
  return alloc_async(sim, dptr, bytes, stream);
}
SIM_EXPORT CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream) {
  SIM_ENTRY("cuMemFreeAsync");
  return free_async(sim, dptr);
}
SIM_EXPORT CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream) {
  SIM_ENTRY("cuMemFreeAsync_ptsz");
  return free_async(sim, dptr);
}

SIM_EXPORT CUresult cuMemPoolCreate(CUmemoryPool* pool, const CUmemPoolProps* props) {
  SIM_ENTRY("cuMemPoolCreate");
  if (!pool || !props) return CUDA_ERROR_INVALID_VALUE;
  *pool = reinterpret_cast<CUmemoryPool>(new_handle(Object::Pool, props->location.id, nullptr));
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemPoolDestroy(CUmemoryPool pool) {
  SIM_ENTRY("cuMemPoolDestroy");
  if (!valid(pool, Object::Pool)) return CUDA_ERROR_INVALID_HANDLE;
  reinterpret_cast<Handle*>(pool)->alive = false;
  return CUDA_SUCCESS;
}

// Pool figures: used = live stream-ordered bytes on the pool's device; reserved
// adds CUDALEAK_SIM_POOL_CACHED, memory the pool keeps cached but unused.
SIM_EXPORT CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value) {
  SIM_ENTRY("cuMemPoolGetAttribute");
  if (!value || !valid(pool, Object::Pool)) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(sim.mutex);
  auto* h = reinterpret_cast<Handle*>(pool);
  cuuint64_t used = sim.devices[size_t(h->device)].async_used;
  const auto& set = sim.pool_attributes[pool];
  auto stored = [&](cuuint64_t fallback) {
    auto it = set.find(int(attr));
    return it == set.end() ? fallback : it->second;
  };
  switch (attr) {
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT: *static_cast<cuuint64_t*>(value) = used; return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
      *static_cast<cuuint64_t*>(value) = used + sim.config.pool_cached;
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: *static_cast<cuuint64_t*>(value) = stored(0); return CUDA_SUCCESS;
    // The reuse policies are int flags, all enabled by default.
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
      *static_cast<int*>(value) = int(stored(1));
      return CUDA_SUCCESS;
    default: return CUDA_ERROR_NOT_SUPPORTED;
  }
}

// What a program may set: the release threshold (cuuint64_t) and the reuse policies (int).
SIM_EXPORT CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value) {
  SIM_ENTRY("cuMemPoolSetAttribute");
  if (!value || !valid(pool, Object::Pool)) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(sim.mutex);
  switch (attr) {
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
      sim.pool_attributes[pool][int(attr)] = *static_cast<cuuint64_t*>(value);
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
      sim.pool_attributes[pool][int(attr)] = cuuint64_t(*static_cast<int*>(value) != 0);
      return CUDA_SUCCESS;
    default: return CUDA_ERROR_NOT_SUPPORTED;  // the high watermarks' reset is not modelled
  }
}

// Releasing a pool's cached memory: nothing is cached per pool here.
SIM_EXPORT CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t) {
  SIM_ENTRY("cuMemPoolTrimTo");
  return valid(pool, Object::Pool) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

SIM_EXPORT CUresult cuDeviceGetDefaultMemPool(CUmemoryPool* pool, CUdevice dev) {
  SIM_ENTRY("cuDeviceGetDefaultMemPool");
  if (!pool || dev < 0 || dev >= sim.config.devices) return CUDA_ERROR_INVALID_VALUE;
  // Never destroyed, as the driver's own: code that runs at exit still asks.
  static std::vector<Handle*>& defaults = *new std::vector<Handle*>;
  std::lock_guard lock(sim.mutex);
  if (defaults.size() < size_t(sim.config.devices)) defaults.resize(size_t(sim.config.devices), nullptr);
  if (!defaults[size_t(dev)]) defaults[size_t(dev)] = new_handle(Object::Pool, dev, nullptr);
  *pool = reinterpret_cast<CUmemoryPool>(defaults[size_t(dev)]);
  return CUDA_SUCCESS;
}
