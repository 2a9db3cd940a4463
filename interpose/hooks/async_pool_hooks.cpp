// The stream-ordered allocator and memory pools, legacy and per-thread-stream
// variants each with its own real-function slot.
#include "interpose/hooks/graph_capture.h"
#include "interpose/hooks/hook.h"

using namespace cudaleak;
using tracker::current_placement;

namespace {

// Stream-ordered memory, or graph memory when the stream is being captured;
// cuMemAllocFromPoolAsync names its pool before the stream.
template <HookId id, typename... Pool>
CUresult alloc_async(CUdeviceptr* dptr, size_t bytes, CUstream stream, Pool... pool) {
  Hook<id> hook;
  CUresult r = hook.real(dptr, bytes, pool..., stream);
  check_out_of_memory(hook, r, bytes, as_handle(stream));
  if (r == CUDA_SUCCESS && hook.tracking() && dptr) {
    if (uint64_t graph = capturing_graph(stream, hook_info(id).per_thread))
      hook.created_graph_memory(*dptr, bytes, current_placement(), graph);
    else
      hook.created(*dptr, bytes, current_placement(), as_handle(stream));
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
  return release_first<HookId::cuMemPoolDestroy>(pool);
}
