// Device, pitched, pinned, registered and managed memory, and arrays.
#include <algorithm>

#include "interpose/hooks/hook.h"

using namespace cudaleak;
using tracker::current_placement;

namespace {

size_t format_bytes(CUarray_format format) {
  switch (format) {
    case CU_AD_FORMAT_UNSIGNED_INT8: case CU_AD_FORMAT_SIGNED_INT8:
      return 1;
    case CU_AD_FORMAT_UNSIGNED_INT16: case CU_AD_FORMAT_SIGNED_INT16: case CU_AD_FORMAT_HALF:
      return 2;
    default:
      return 4;
  }
}

uint64_t array_bytes(size_t w, size_t h, size_t d, unsigned channels, CUarray_format format) {
  return uint64_t(w) * std::max<size_t>(h, 1) * std::max<size_t>(d, 1) * channels * format_bytes(format);
}

template <HookId id>
CUresult host_register(void* p, size_t bytes, unsigned int flags) {
  Hook<id> hook;
  CUresult r = hook.real(p, bytes, flags);
  if (r == CUDA_SUCCESS && hook.tracking())
    tracker::created(id, Kind::Registered, Space::Registered, as_handle(p), bytes, current_placement());
  return r;
}

}  // namespace

namespace cudaleak {
uint64_t array3d_bytes(const CUDA_ARRAY3D_DESCRIPTOR& desc, unsigned levels) {
  uint64_t bytes = 0;
  size_t w = desc.Width, h = desc.Height, d = desc.Depth;
  for (unsigned i = 0; i < std::max(levels, 1u); ++i) {
    bytes += array_bytes(w, h, d, desc.NumChannels, desc.Format);
    w = std::max<size_t>(w / 2, 1), h = h ? std::max<size_t>(h / 2, 1) : 0, d = d ? std::max<size_t>(d / 2, 1) : 0;
  }
  return bytes;
}
}  // namespace cudaleak

CUDALEAK_EXPORT CUresult CUDAAPI cuMemAlloc_v2(CUdeviceptr* dptr, size_t bytes) {
  Hook<HookId::cuMemAlloc_v2> hook;
  CUresult r = hook.real(dptr, bytes);
  check_out_of_memory(hook, r, bytes);
  if (r == CUDA_SUCCESS && hook.tracking() && dptr)
    tracker::created(HookId::cuMemAlloc_v2, Kind::Device, Space::DevicePtr, *dptr, bytes, current_placement());
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemAllocPitch_v2(CUdeviceptr* dptr, size_t* pitch, size_t width, size_t height,
                                                    unsigned int element_bytes) {
  Hook<HookId::cuMemAllocPitch_v2> hook;
  CUresult r = hook.real(dptr, pitch, width, height, element_bytes);
  check_out_of_memory(hook, r, uint64_t(width) * height);
  if (r == CUDA_SUCCESS && hook.tracking() && dptr && pitch)
    tracker::created(HookId::cuMemAllocPitch_v2, Kind::Device, Space::DevicePtr, *dptr, uint64_t(*pitch) * height,
                     current_placement());
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemFree_v2(CUdeviceptr dptr) {
  Hook<HookId::cuMemFree_v2> hook;
  return hook.release(Space::DevicePtr, dptr, dptr);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemAllocHost_v2(void** pp, size_t bytes) {
  Hook<HookId::cuMemAllocHost_v2> hook;
  CUresult r = hook.real(pp, bytes);
  check_out_of_memory(hook, r, bytes);
  if (r == CUDA_SUCCESS && hook.tracking() && pp)
    tracker::created(HookId::cuMemAllocHost_v2, Kind::Pinned, Space::HostPtr, as_handle(*pp), bytes,
                     current_placement());
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemHostAlloc(void** pp, size_t bytes, unsigned int flags) {
  Hook<HookId::cuMemHostAlloc> hook;
  CUresult r = hook.real(pp, bytes, flags);
  check_out_of_memory(hook, r, bytes);
  if (r == CUDA_SUCCESS && hook.tracking() && pp)
    tracker::created(HookId::cuMemHostAlloc, Kind::Pinned, Space::HostPtr, as_handle(*pp), bytes, current_placement());
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemFreeHost(void* p) {
  Hook<HookId::cuMemFreeHost> hook;
  return hook.release(Space::HostPtr, as_handle(p), p);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemHostRegister(void* p, size_t bytes, unsigned int flags) {
  return host_register<HookId::cuMemHostRegister>(p, bytes, flags);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemHostRegister_v2(void* p, size_t bytes, unsigned int flags) {
  return host_register<HookId::cuMemHostRegister_v2>(p, bytes, flags);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemHostUnregister(void* p) {
  Hook<HookId::cuMemHostUnregister> hook;
  return hook.release(Space::Registered, as_handle(p), p);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr* dptr, size_t bytes, unsigned int flags) {
  Hook<HookId::cuMemAllocManaged> hook;
  CUresult r = hook.real(dptr, bytes, flags);
  check_out_of_memory(hook, r, bytes);
  if (r == CUDA_SUCCESS && hook.tracking() && dptr)
    tracker::created(HookId::cuMemAllocManaged, Kind::Managed, Space::DevicePtr, *dptr, bytes, current_placement());
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuArrayCreate_v2(CUarray* handle, const CUDA_ARRAY_DESCRIPTOR* desc) {
  Hook<HookId::cuArrayCreate_v2> hook;
  CUresult r = hook.real(handle, desc);
  if (r == CUDA_SUCCESS && hook.tracking() && handle && desc)
    tracker::created(HookId::cuArrayCreate_v2, Kind::Array, Space::Array, as_handle(*handle),
                     array_bytes(desc->Width, desc->Height, 1, desc->NumChannels, desc->Format), current_placement());
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuArray3DCreate_v2(CUarray* handle, const CUDA_ARRAY3D_DESCRIPTOR* desc) {
  Hook<HookId::cuArray3DCreate_v2> hook;
  CUresult r = hook.real(handle, desc);
  if (r == CUDA_SUCCESS && hook.tracking() && handle && desc)
    tracker::created(HookId::cuArray3DCreate_v2, Kind::Array, Space::Array, as_handle(*handle),
                     array_bytes(desc->Width, desc->Height, desc->Depth, desc->NumChannels, desc->Format),
                     current_placement());
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuArrayDestroy(CUarray handle) { return release_first<HookId::cuArrayDestroy>(handle); }

CUDALEAK_EXPORT CUresult CUDAAPI cuMipmappedArrayCreate(CUmipmappedArray* handle, const CUDA_ARRAY3D_DESCRIPTOR* desc,
                                                        unsigned int levels) {
  Hook<HookId::cuMipmappedArrayCreate> hook;
  CUresult r = hook.real(handle, desc, levels);
  if (r == CUDA_SUCCESS && hook.tracking() && handle && desc)
    tracker::created(HookId::cuMipmappedArrayCreate, Kind::Array, Space::Mipmapped, as_handle(*handle),
                     array3d_bytes(*desc, levels), current_placement());
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMipmappedArrayDestroy(CUmipmappedArray handle) {
  return release_first<HookId::cuMipmappedArrayDestroy>(handle);
}
