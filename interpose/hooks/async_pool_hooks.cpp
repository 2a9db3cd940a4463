// The stream-ordered allocator and memory pools, legacy and per-thread-stream
// variants each with its own real-function slot.
#include "interpose/hooks/graph_capture.h"
#include "interpose/hooks/hook.h"

using namespace cudaleak;
using tracker::current_placement;

namespace {

// Stream-ordered memory, or graph memory when the stream is being captured.
template <HookId id>
void record_async(CUdeviceptr dptr, size_t bytes, CUstream stream) {
  if (uint64_t graph = capturing_graph(stream, hook_info(id).per_thread)) {
    tracker::created(id, Kind::GraphMemory, Space::DevicePtr, dptr, bytes, current_placement(), graph);
    tracker::graph_memory_added(graph);
    return;
  }
  tracker::created(id, Kind::Async, Space::DevicePtr, dptr, bytes, current_placement(), as_handle(stream));
}

template <HookId id>
CUresult alloc_async(CUdeviceptr* dptr, size_t bytes, CUstream stream) {
  Hook<id> hook;
  CUresult r = hook.real(dptr, bytes, stream);
  check_out_of_memory(hook, r, bytes, as_handle(stream));
  if (r == CUDA_SUCCESS && hook.tracking() && dptr) record_async<id>(*dptr, bytes, stream);
  return r;
}

template <HookId id>
CUresult alloc_from_pool(CUdeviceptr* dptr, size_t bytes, CUmemoryPool pool, CUstream stream) {
  Hook<id> hook;
  CUresult r = hook.real(dptr, bytes, pool, stream);
  check_out_of_memory(hook, r, bytes, as_handle(stream));
  if (r == CUDA_SUCCESS && hook.tracking() && dptr) record_async<id>(*dptr, bytes, stream);
  return r;
}

template <HookId id>
CUresult free_async(CUdeviceptr dptr, CUstream stream) {
  Hook<id> hook;
  return hook.release(Space::DevicePtr, dptr, dptr, stream);
}

}  // namespace

CUDALEAK_EXPORT CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr* dptr, size_t bytes, CUstream stream) {
  return alloc_async<HookId::cuMemAllocAsync>(dptr, bytes, stream);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemAllocAsync_ptsz(CUdeviceptr* dptr, size_t bytes, CUstream stream) {
  return alloc_async<HookId::cuMemAllocAsync_ptsz>(dptr, bytes, stream);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr* dptr, size_t bytes, CUmemoryPool pool,
                                                         CUstream stream) {
  return alloc_from_pool<HookId::cuMemAllocFromPoolAsync>(dptr, bytes, pool, stream);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemAllocFromPoolAsync_ptsz(CUdeviceptr* dptr, size_t bytes, CUmemoryPool pool,
                                                              CUstream stream) {
  return alloc_from_pool<HookId::cuMemAllocFromPoolAsync_ptsz>(dptr, bytes, pool, stream);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr dptr, CUstream stream) {
  return free_async<HookId::cuMemFreeAsync>(dptr, stream);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream stream) {
  return free_async<HookId::cuMemFreeAsync_ptsz>(dptr, stream);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemPoolCreate(CUmemoryPool* pool, const CUmemPoolProps* props) {
  Hook<HookId::cuMemPoolCreate> hook;
  CUresult r = hook.real(pool, props);
  if (r == CUDA_SUCCESS && hook.tracking() && pool) {
    tracker::Placement where = current_placement();
    if (props && props->location.type == CU_MEM_LOCATION_TYPE_DEVICE) where.device = props->location.id;
    tracker::created(HookId::cuMemPoolCreate, Kind::Pool, Space::Pool, as_handle(*pool), 0, where);
  }
  return r;
}

// A pool another process exported: a pool of this process until cuMemPoolDestroy.
CUDALEAK_EXPORT CUresult CUDAAPI cuMemPoolImportFromShareableHandle(CUmemoryPool* pool, void* os_handle,
                                                                    CUmemAllocationHandleType type,
                                                                    unsigned long long flags) {
  return create_into_first<HookId::cuMemPoolImportFromShareableHandle>(pool, os_handle, type, flags);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemPoolDestroy(CUmemoryPool pool) {
  Hook<HookId::cuMemPoolDestroy> hook;
  return hook.release(Space::Pool, as_handle(pool), pool);
}
