// Memory shared with other processes and APIs: IPC mappings (legacy IPC
// handles, imported pool pointers, imported VMM handles) and external memory
// and semaphores (Vulkan, Direct3D, file descriptors).
#include <atomic>

#include "interpose/hooks/hook.h"

using namespace cudaleak;
using tracker::current_placement;

namespace {

// The size of the allocation an imported pointer lies in (0 when unknown).
uint64_t range_bytes(CUdeviceptr dptr) {
  static std::atomic<PFN_cuMemGetAddressRange_v3020> range{nullptr};
  auto fn = tracker::cached_driver_function(range, "cuMemGetAddressRange", 3020);
  CUdeviceptr base = 0;
  size_t bytes = 0;
  return fn && fn(&base, &bytes, dptr) == CUDA_SUCCESS ? bytes : 0;
}

template <HookId id, typename... Args>
CUresult import_pointer(CUdeviceptr* dptr, Args... args) {
  Hook<id> hook;
  CUresult r = hook.real(dptr, args...);
  if (r == CUDA_SUCCESS && hook.tracking() && dptr) hook.created(*dptr, range_bytes(*dptr), current_placement());
  return r;
}

// The bytes an external memory descriptor names (0 without one).
template <typename Descriptor>
auto size_in(const Descriptor* desc) {
  return [desc] { return uint64_t(desc ? desc->size : 0); };
}

}  // namespace

CUDALEAK_EXPORT CUresult CUDAAPI cuIpcOpenMemHandle(CUdeviceptr* dptr, CUipcMemHandle handle, unsigned int flags) {
  return import_pointer<HookId::cuIpcOpenMemHandle>(dptr, handle, flags);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuIpcOpenMemHandle_v2(CUdeviceptr* dptr, CUipcMemHandle handle, unsigned int flags) {
  return import_pointer<HookId::cuIpcOpenMemHandle_v2>(dptr, handle, flags);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuIpcCloseMemHandle(CUdeviceptr dptr) {
  return release_first<HookId::cuIpcCloseMemHandle>(dptr);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemPoolImportPointer(CUdeviceptr* dptr, CUmemoryPool pool,
                                                        CUmemPoolPtrExportData* data) {
  return import_pointer<HookId::cuMemPoolImportPointer>(dptr, pool, data);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuMemImportFromShareableHandle(CUmemGenericAllocationHandle* handle, void* os_handle,
                                                                CUmemAllocationHandleType type) {
  // A vmm handle like cuMemCreate's: cuMemRelease drops it.
  return create_into_first<HookId::cuMemImportFromShareableHandle>(handle, os_handle, type);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuImportExternalMemory(CUexternalMemory* memory,
                                                        const CUDA_EXTERNAL_MEMORY_HANDLE_DESC* desc) {
  return create_into_first_sized<HookId::cuImportExternalMemory>(memory, size_in(desc), desc);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuExternalMemoryGetMappedBuffer(CUdeviceptr* dptr, CUexternalMemory memory,
                                                                 const CUDA_EXTERNAL_MEMORY_BUFFER_DESC* desc) {
  // Device memory to the program: cuMemFree releases it.
  return create_into_first_sized<HookId::cuExternalMemoryGetMappedBuffer>(dptr, size_in(desc), memory, desc);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuExternalMemoryGetMappedMipmappedArray(
    CUmipmappedArray* array, CUexternalMemory memory, const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC* desc) {
  auto bytes = [desc] { return desc ? array3d_bytes(desc->arrayDesc, desc->numLevels) : 0; };
  return create_into_first_sized<HookId::cuExternalMemoryGetMappedMipmappedArray>(array, bytes, memory, desc);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuDestroyExternalMemory(CUexternalMemory memory) {
  return release_first<HookId::cuDestroyExternalMemory>(memory);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuImportExternalSemaphore(CUexternalSemaphore* semaphore,
                                                           const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC* desc) {
  return create_into_first<HookId::cuImportExternalSemaphore>(semaphore, desc);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuDestroyExternalSemaphore(CUexternalSemaphore semaphore) {
  return release_first<HookId::cuDestroyExternalSemaphore>(semaphore);
}
