// Virtual memory management: physical allocations (reference counted),
// address reservations and mappings, each its own kind.
#include "interpose/hooks/hook.h"

using namespace cudaleak;
using tracker::current_placement;

CUDALEAK_EXPORT CUresult CUDAAPI cuMemCreate(CUmemGenericAllocationHandle* handle, size_t size,
                                             const CUmemAllocationProp* prop, unsigned long long flags) {
  Hook<HookId::cuMemCreate> hook;
  CUresult r = hook.real(handle, size, prop, flags);
  check_out_of_memory(hook, r, size);
  if (r == CUDA_SUCCESS && hook.tracking() && handle) {
    tracker::Placement where = current_placement();
    if (prop && prop->location.type == CU_MEM_LOCATION_TYPE_DEVICE) where.device = prop->location.id;
    hook.created(*handle, size, where);
  }
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemRetainAllocationHandle(CUmemGenericAllocationHandle* handle, void* addr) {
  Hook<HookId::cuMemRetainAllocationHandle> hook;
  CUresult r = hook.real(handle, addr);
  if (r == CUDA_SUCCESS && hook.tracking() && handle) tracker::reference_added(hook.space, *handle);
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemRelease(CUmemGenericAllocationHandle handle) {
  Hook<HookId::cuMemRelease> hook;
  CUresult r = hook.real(handle);
  if (hook.tracking()) tracker::reference_dropped(HookId::cuMemRelease, hook.space, handle, r);
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemAddressReserve(CUdeviceptr* ptr, size_t size, size_t alignment, CUdeviceptr addr,
                                                     unsigned long long flags) {
  Hook<HookId::cuMemAddressReserve> hook;
  CUresult r = hook.real(ptr, size, alignment, addr, flags);
  if (r == CUDA_SUCCESS && hook.tracking() && ptr) hook.created(*ptr, size, current_placement());
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemAddressFree(CUdeviceptr ptr, size_t size) {
  return release_first<HookId::cuMemAddressFree>(ptr, size);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
                                          CUmemGenericAllocationHandle handle, unsigned long long flags) {
  Hook<HookId::cuMemMap> hook;
  CUresult r = hook.real(ptr, size, offset, handle, flags);
  if (r == CUDA_SUCCESS && hook.tracking()) hook.created(ptr, size, current_placement());
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemUnmap(CUdeviceptr ptr, size_t size) {
  return release_first<HookId::cuMemUnmap>(ptr, size);
}
