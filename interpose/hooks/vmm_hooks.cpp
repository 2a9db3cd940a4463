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
    tracker::created(HookId::cuMemCreate, Kind::Vmm, Space::Vmm, *handle, size, where);
  }
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemRetainAllocationHandle(CUmemGenericAllocationHandle* handle, void* addr) {
  Hook<HookId::cuMemRetainAllocationHandle> hook;
  CUresult r = hook.real(handle, addr);
  if (r == CUDA_SUCCESS && hook.tracking() && handle) tracker::reference_added(Space::Vmm, *handle);
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemRelease(CUmemGenericAllocationHandle handle) {
  Hook<HookId::cuMemRelease> hook;
  CUresult r = hook.real(handle);
  if (hook.tracking()) tracker::reference_dropped(HookId::cuMemRelease, Space::Vmm, handle, r);
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemAddressReserve(CUdeviceptr* ptr, size_t size, size_t alignment,
                                                     CUdeviceptr addr, unsigned long long flags) {
  Hook<HookId::cuMemAddressReserve> hook;
  CUresult r = hook.real(ptr, size, alignment, addr, flags);
  if (r == CUDA_SUCCESS && hook.tracking() && ptr)
    tracker::created(HookId::cuMemAddressReserve, Kind::VaReservation, Space::VaReservation, *ptr, size,
                     current_placement());
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemAddressFree(CUdeviceptr ptr, size_t size) {
  Hook<HookId::cuMemAddressFree> hook;
  return hook.release(Space::VaReservation, ptr, ptr, size);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
                                          CUmemGenericAllocationHandle handle, unsigned long long flags) {
  Hook<HookId::cuMemMap> hook;
  CUresult r = hook.real(ptr, size, offset, handle, flags);
  if (r == CUDA_SUCCESS && hook.tracking())
    tracker::created(HookId::cuMemMap, Kind::Mapping, Space::Mapping, ptr, size, current_placement());
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemUnmap(CUdeviceptr ptr, size_t size) {
  Hook<HookId::cuMemUnmap> hook;
  return hook.release(Space::Mapping, ptr, ptr, size);
}
