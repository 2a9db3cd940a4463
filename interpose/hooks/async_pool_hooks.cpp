// The stream-ordered allocator and memory pools, legacy and per-thread-stream
// variants each with its own real-function slot.
#include "interpose/hooks/graph_capture.h"
#include "interpose/hooks/hook.h"

using namespace cudaleak;
using tracker::current_placement;

namespace {

// Stream-ordered memory, or graph memory when the stream is being captured;
// cuMemAllocFromPoolAsync names its pool before the stream.
// Memory from a pool the program created is counted in that pool
// (tracker::pool_slot), so that a report can say what the pool keeps.
template <HookId id, typename... Pool>
CUresult alloc_async(CUdeviceptr* dptr, size_t bytes, CUstream stream, Pool... pool) {
  Hook<id> hook;
  CUresult r = hook.real(dptr, bytes, pool..., stream);
  check_out_of_memory(hook, r, bytes, as_handle(stream));
  if (r == CUDA_SUCCESS && hook.tracking() && dptr) {
    if (uint64_t graph = capturing_graph(stream, hook_info(id).per_thread)) {
      hook.created_graph_memory(*dptr, bytes, current_placement(), graph);
    } else {
      tracker::Placement where = current_placement();
      if constexpr (sizeof...(Pool) == 1) where.pool = tracker::pool_slot(as_handle(pool...));
      hook.created(*dptr, bytes, where, as_handle(stream));
      if (where.pool) tracker::pool_allocated(where.pool, bytes);
    }
  }
  return r;
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
  return alloc_async<HookId::cuMemAllocFromPoolAsync>(dptr, bytes, stream, pool);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemAllocFromPoolAsync_ptsz(CUdeviceptr* dptr, size_t bytes, CUmemoryPool pool,
                                                              CUstream stream) {
  return alloc_async<HookId::cuMemAllocFromPoolAsync_ptsz>(dptr, bytes, stream, pool);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr dptr, CUstream stream) {
  return release_first<HookId::cuMemFreeAsync>(dptr, stream);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream stream) {
  return release_first<HookId::cuMemFreeAsync_ptsz>(dptr, stream);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemPoolCreate(CUmemoryPool* pool, const CUmemPoolProps* props) {
  Hook<HookId::cuMemPoolCreate> hook;
  CUresult r = hook.real(pool, props);
  if (r == CUDA_SUCCESS && hook.tracking() && pool) {
    tracker::Placement where = current_placement();
    if (props && props->location.type == CU_MEM_LOCATION_TYPE_DEVICE) where.device = props->location.id;
    hook.created(as_handle(*pool), 0, where);
    tracker::pool_created(as_handle(*pool));
  }
  return r;
}

// A pool another process exported: a pool of this process until cuMemPoolDestroy.
CUDALEAK_EXPORT CUresult CUDAAPI cuMemPoolImportFromShareableHandle(CUmemoryPool* pool, void* os_handle,
                                                                    CUmemAllocationHandleType type,
                                                                    unsigned long long flags) {
  CUresult r = create_into_first<HookId::cuMemPoolImportFromShareableHandle>(pool, os_handle, type, flags);
  if (r == CUDA_SUCCESS && pool && tracking_enabled()) tracker::pool_created(as_handle(*pool));
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemPoolDestroy(CUmemoryPool pool) {
  CUresult r = release_first<HookId::cuMemPoolDestroy>(pool);
  if (r == CUDA_SUCCESS && pool) tracker::pool_destroyed(as_handle(pool));
  return r;
}

// The release threshold: how much free memory the pool keeps at each
// synchronization instead of returning it (UINT64_MAX: all of it).
CUDALEAK_EXPORT CUresult CUDAAPI cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value) {
  Hook<HookId::cuMemPoolSetAttribute> hook;
  CUresult r = hook.real(pool, attr, value);
  if (r == CUDA_SUCCESS && hook.tracking() && value && attr == CU_MEMPOOL_ATTR_RELEASE_THRESHOLD)
    tracker::pool_threshold_set(HookId::cuMemPoolSetAttribute, as_handle(pool), *static_cast<cuuint64_t*>(value));
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemPoolTrimTo(CUmemoryPool pool, size_t keep) {
  Hook<HookId::cuMemPoolTrimTo> hook;
  CUresult r = hook.real(pool, keep);
  if (r == CUDA_SUCCESS && hook.tracking()) tracker::pool_trimmed(as_handle(pool), keep);
  return r;
}
