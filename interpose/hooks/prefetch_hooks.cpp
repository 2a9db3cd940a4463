// Managed memory prefetched to a device or to the host. Where a managed
// allocation lives decides which device's memory it takes, so a prefetch of a
// whole allocation moves its record (tracker::managed_prefetched); cudart's
// cudaMemPrefetchAsync and cudaMemPrefetchBatchAsync reach the driver here.
#include "interpose/hooks/hook.h"

using namespace cudaleak;

namespace {

constexpr int kNowhere = -2;  // a location that names neither a device nor the host

int device_of(CUmemLocation where) {
  switch (where.type) {
    case CU_MEM_LOCATION_TYPE_DEVICE: return where.id;
    case CU_MEM_LOCATION_TYPE_HOST:
    case CU_MEM_LOCATION_TYPE_HOST_NUMA:
    case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT: return -1;
    default: return kNowhere;
  }
}

void prefetched(CUdeviceptr dptr, size_t count, int device) {
  if (device != kNowhere) tracker::managed_prefetched(dptr, count, device);
}

// CUDA 8's form names the destination by device ordinal, CU_DEVICE_CPU for
// the host: the -1 that stands for the host in a record.
static_assert(CU_DEVICE_CPU == -1);
template <HookId id>
CUresult prefetch_to_ordinal(CUdeviceptr dptr, size_t count, CUdevice device, CUstream stream) {
  Hook<id> hook;
  CUresult r = hook.real(dptr, count, device, stream);
  if (r == CUDA_SUCCESS && hook.tracking()) prefetched(dptr, count, device);
  return r;
}

template <HookId id>
CUresult prefetch_to_location(CUdeviceptr dptr, size_t count, CUmemLocation where, unsigned int flags,
                              CUstream stream) {
  Hook<id> hook;
  CUresult r = hook.real(dptr, count, where, flags, stream);
  if (r == CUDA_SUCCESS && hook.tracking()) prefetched(dptr, count, device_of(where));
  return r;
}

// Operation i goes to locations[j] for the last j whose first_op[j] <= i.
template <HookId id>
CUresult prefetch_batch(CUdeviceptr* dptrs, size_t* sizes, size_t count, CUmemLocation* locations, size_t* first_op,
                        size_t location_count, unsigned long long flags, CUstream stream) {
  Hook<id> hook;
  CUresult r = hook.real(dptrs, sizes, count, locations, first_op, location_count, flags, stream);
  if (r != CUDA_SUCCESS || !hook.tracking() || !dptrs || !sizes || !locations || !first_op) return r;
  size_t j = 0;
  for (size_t i = 0; i < count; ++i) {
    while (j + 1 < location_count && first_op[j + 1] <= i) ++j;
    if (location_count && first_op[j] <= i) prefetched(dptrs[i], sizes[i], device_of(locations[j]));
  }
  return r;
}

}  // namespace

CUDALEAK_EXPORT CUresult CUDAAPI cuMemPrefetchAsync(CUdeviceptr dptr, size_t count, CUdevice device, CUstream stream) {
  return prefetch_to_ordinal<HookId::cuMemPrefetchAsync>(dptr, count, device, stream);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemPrefetchAsync_ptsz(CUdeviceptr dptr, size_t count, CUdevice device,
                                                         CUstream stream) {
  return prefetch_to_ordinal<HookId::cuMemPrefetchAsync_ptsz>(dptr, count, device, stream);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemPrefetchAsync_v2(CUdeviceptr dptr, size_t count, CUmemLocation where,
                                                       unsigned int flags, CUstream stream) {
  return prefetch_to_location<HookId::cuMemPrefetchAsync_v2>(dptr, count, where, flags, stream);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemPrefetchAsync_v2_ptsz(CUdeviceptr dptr, size_t count, CUmemLocation where,
                                                            unsigned int flags, CUstream stream) {
  return prefetch_to_location<HookId::cuMemPrefetchAsync_v2_ptsz>(dptr, count, where, flags, stream);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemPrefetchBatchAsync(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                                         CUmemLocation* locations, size_t* first_op,
                                                         size_t location_count, unsigned long long flags,
                                                         CUstream stream) {
  return prefetch_batch<HookId::cuMemPrefetchBatchAsync>(dptrs, sizes, count, locations, first_op, location_count,
                                                         flags, stream);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemPrefetchBatchAsync_ptsz(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                                              CUmemLocation* locations, size_t* first_op,
                                                              size_t location_count, unsigned long long flags,
                                                              CUstream stream) {
  return prefetch_batch<HookId::cuMemPrefetchBatchAsync_ptsz>(dptrs, sizes, count, locations, first_op, location_count,
                                                              flags, stream);
}
