// Device, pitched, pinned, registered and managed memory, and arrays.
#include <algorithm>

#include "interpose/hooks/hook.h"

using namespace cudaleak;
using tracker::current_placement;

namespace {

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

uint64_t array_bytes(size_t w, size_t h, size_t d, unsigned channels, CUarray_format format) {
  return uint64_t(w) * std::max<size_t>(h, 1) * std::max<size_t>(d, 1) * channels * format_bytes(format);
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

namespace {

// Memory of `bytes` handed back in the first argument, out-of-memory explained.
template <HookId id, typename Out, typename... Args>
CUresult allocate(Out* out, size_t bytes, Args... args) {
  Hook<id> hook;
  CUresult r = hook.real(out, bytes, args...);
  check_out_of_memory(hook, r, bytes);
  if (r == CUDA_SUCCESS && hook.tracking() && out) hook.created(as_handle(*out), bytes, current_placement());
  return r;
}

template <HookId id>
CUresult host_register(void* p, size_t bytes, unsigned int flags) {
  Hook<id> hook;
  CUresult r = hook.real(p, bytes, flags);
  if (r == CUDA_SUCCESS && hook.tracking()) hook.created(as_handle(p), bytes, current_placement());
  return r;
}

uint64_t descriptor_bytes(const CUDA_ARRAY_DESCRIPTOR& desc) {
  return array_bytes(desc.Width, desc.Height, 1, desc.NumChannels, desc.Format);
}
// A 3D array is a mipmapped one of one level.
uint64_t descriptor_bytes(const CUDA_ARRAY3D_DESCRIPTOR& desc, unsigned levels = 1) {
  return array3d_bytes(desc, levels);
}

// An array (2D, 3D or mipmapped) sized from its descriptor.
template <HookId id, typename Handle, typename Descriptor, typename... Levels>
CUresult create_array(Handle* handle, const Descriptor* desc, Levels... levels) {
  Hook<id> hook;
  CUresult r = hook.real(handle, desc, levels...);
  if (r == CUDA_SUCCESS && hook.tracking() && handle && desc)
    hook.created(as_handle(*handle), descriptor_bytes(*desc, levels...), current_placement());
  return r;
}

}  // namespace

CUDALEAK_EXPORT CUresult CUDAAPI cuMemAlloc_v2(CUdeviceptr* dptr, size_t bytes) {
  return allocate<HookId::cuMemAlloc_v2>(dptr, bytes);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemAllocPitch_v2(CUdeviceptr* dptr, size_t* pitch, size_t width, size_t height,
                                                    unsigned int element_bytes) {
  Hook<HookId::cuMemAllocPitch_v2> hook;
  CUresult r = hook.real(dptr, pitch, width, height, element_bytes);
  check_out_of_memory(hook, r, uint64_t(width) * height);
  if (r == CUDA_SUCCESS && hook.tracking() && dptr && pitch)
    hook.created(*dptr, uint64_t(*pitch) * height, current_placement());
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMemFree_v2(CUdeviceptr dptr) { return release_first<HookId::cuMemFree_v2>(dptr); }

CUDALEAK_EXPORT CUresult CUDAAPI cuMemAllocHost_v2(void** pp, size_t bytes) {
  return allocate<HookId::cuMemAllocHost_v2>(pp, bytes);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemHostAlloc(void** pp, size_t bytes, unsigned int flags) {
  return allocate<HookId::cuMemHostAlloc>(pp, bytes, flags);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemFreeHost(void* p) { return release_first<HookId::cuMemFreeHost>(p); }

CUDALEAK_EXPORT CUresult CUDAAPI cuMemHostRegister(void* p, size_t bytes, unsigned int flags) {
  return host_register<HookId::cuMemHostRegister>(p, bytes, flags);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemHostRegister_v2(void* p, size_t bytes, unsigned int flags) {
  return host_register<HookId::cuMemHostRegister_v2>(p, bytes, flags);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemHostUnregister(void* p) { return release_first<HookId::cuMemHostUnregister>(p); }

CUDALEAK_EXPORT CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr* dptr, size_t bytes, unsigned int flags) {
  return allocate<HookId::cuMemAllocManaged>(dptr, bytes, flags);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuArrayCreate_v2(CUarray* handle, const CUDA_ARRAY_DESCRIPTOR* desc) {
  return create_array<HookId::cuArrayCreate_v2>(handle, desc);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuArray3DCreate_v2(CUarray* handle, const CUDA_ARRAY3D_DESCRIPTOR* desc) {
  return create_array<HookId::cuArray3DCreate_v2>(handle, desc);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuArrayDestroy(CUarray handle) {
  return release_first<HookId::cuArrayDestroy>(handle);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuMipmappedArrayCreate(CUmipmappedArray* handle, const CUDA_ARRAY3D_DESCRIPTOR* desc,
                                                        unsigned int levels) {
  return create_array<HookId::cuMipmappedArrayCreate>(handle, desc, levels);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMipmappedArrayDestroy(CUmipmappedArray handle) {
  return release_first<HookId::cuMipmappedArrayDestroy>(handle);
}
