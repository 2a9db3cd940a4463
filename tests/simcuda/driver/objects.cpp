// Modules and libraries (loaded from any image; a path must name a file),
// texture and surface objects, IPC within one process (an opened handle maps
// the exported memory at a new address), and external memory and semaphores
// imported from a file descriptor.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "tests/simcuda/driver/sim_cuda.h"
#include "tests/simcuda/driver/sim_state.h"

using namespace simcuda;

namespace {

template <typename T>
CUresult make(T* out, Object type, bool needs_context = true, size_t bytes = 0) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  CUcontext ctx = current_context();
  if (needs_context && !ctx) return CUDA_ERROR_INVALID_CONTEXT;
  *out = reinterpret_cast<T>(new_handle(type, ctx ? device_of(ctx) : 0, ctx, bytes));
  return CUDA_SUCCESS;
}

CUresult drop(const void* handle, Object type) {
  if (!valid(handle, type)) return CUDA_ERROR_INVALID_HANDLE;
  const_cast<Handle*>(static_cast<const Handle*>(handle))->alive = false;
  return CUDA_SUCCESS;
}

bool readable_file(const char* path) { return path && access(path, R_OK) == 0; }

// A mapping of `bytes` at a new address, not counted again against the device.
CUresult map_again(State& sim, size_t bytes, CUdeviceptr* dptr) {
  void* p = nullptr;
  CUcontext ctx = current_context();
  if (CUresult r = sim.allocate(ctx ? device_of(ctx) : 0, bytes, ctx, false, &p); r != CUDA_SUCCESS) return r;
  *dptr = CUdeviceptr(p);
  return CUDA_SUCCESS;
}

size_t bytes_at(State& sim, uintptr_t address) {
  std::lock_guard lock(sim.mutex);
  for (const auto& [base, a] : sim.memory)
    if (address >= base && address < base + std::max<size_t>(a.bytes, 1)) return a.bytes;
  return 0;
}

// Exporting writes the pointer into the handle's bytes; importing maps the
// memory it names again, at a new address.
template <typename Byte, size_t N>
CUresult export_pointer(State& sim, Byte (&bytes)[N], CUdeviceptr dptr) {
  if (!bytes_at(sim, dptr)) return CUDA_ERROR_INVALID_VALUE;
  std::memset(bytes, 0, N);
  std::memcpy(bytes, &dptr, sizeof dptr);
  return CUDA_SUCCESS;
}
template <typename Byte, size_t N>
CUresult import_pointer(State& sim, const Byte (&bytes)[N], CUdeviceptr* dptr) {
  CUdeviceptr exported = 0;
  std::memcpy(&exported, bytes, sizeof exported);
  size_t size = bytes_at(sim, exported);
  if (!dptr || !size) return CUDA_ERROR_INVALID_VALUE;
  return map_again(sim, size, dptr);
}

}  // namespace

// A module made by a load: the simulated Sanitizer API hears of it.
static CUresult loaded(CUresult made, CUmodule* module, const void* image) {
  if (made == CUDA_SUCCESS) module_loaded(current_context(), *module, image, 0);
  return made;
}

SIM_EXPORT CUresult cuModuleLoad(CUmodule* module, const char* path) {
  SIM_ENTRY("cuModuleLoad");
  return readable_file(path) ? loaded(make(module, Object::Module), module, nullptr) : CUDA_ERROR_FILE_NOT_FOUND;
}
SIM_EXPORT CUresult cuModuleLoadData(CUmodule* module, const void* image) {
  SIM_ENTRY("cuModuleLoadData");
  return image ? loaded(make(module, Object::Module), module, image) : CUDA_ERROR_INVALID_IMAGE;
}
SIM_EXPORT CUresult cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int, CUjit_option*, void**) {
  SIM_ENTRY("cuModuleLoadDataEx");
  return image ? loaded(make(module, Object::Module), module, image) : CUDA_ERROR_INVALID_IMAGE;
}
SIM_EXPORT CUresult cuModuleLoadFatBinary(CUmodule* module, const void* fatbin) {
  SIM_ENTRY("cuModuleLoadFatBinary");
  return fatbin ? loaded(make(module, Object::Module), module, fatbin) : CUDA_ERROR_INVALID_IMAGE;
}
// Images are not parsed here: no global is known by name.
SIM_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr*, size_t*, CUmodule module, const char* name) {
  SIM_ENTRY("cuModuleGetGlobal_v2");
  if (!name || !valid(module, Object::Module)) return CUDA_ERROR_INVALID_VALUE;
  return CUDA_ERROR_NOT_FOUND;
}
SIM_EXPORT CUresult cuModuleUnload(CUmodule module) {
  SIM_ENTRY("cuModuleUnload");
  return drop(module, Object::Module);
}
SIM_EXPORT CUresult cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option*, void**, unsigned int,
                                      CUlibraryOption*, void**, unsigned int) {
  SIM_ENTRY("cuLibraryLoadData");
  return code ? make(library, Object::Library, false) : CUDA_ERROR_INVALID_IMAGE;
}
SIM_EXPORT CUresult cuLibraryLoadFromFile(CUlibrary* library, const char* path, CUjit_option*, void**, unsigned int,
                                          CUlibraryOption*, void**, unsigned int) {
  SIM_ENTRY("cuLibraryLoadFromFile");
  return readable_file(path) ? make(library, Object::Library, false) : CUDA_ERROR_FILE_NOT_FOUND;
}
SIM_EXPORT CUresult cuLibraryUnload(CUlibrary library) {
  SIM_ENTRY("cuLibraryUnload");
  return drop(library, Object::Library);
}

SIM_EXPORT CUresult cuTexObjectCreate(CUtexObject* texture, const CUDA_RESOURCE_DESC* resource,
                                      const CUDA_TEXTURE_DESC*, const CUDA_RESOURCE_VIEW_DESC*) {
  SIM_ENTRY("cuTexObjectCreate");
  return resource ? make(texture, Object::Texture) : CUDA_ERROR_INVALID_VALUE;
}
SIM_EXPORT CUresult cuTexObjectDestroy(CUtexObject texture) {
  SIM_ENTRY("cuTexObjectDestroy");
  return drop(reinterpret_cast<void*>(texture), Object::Texture);
}
SIM_EXPORT CUresult cuSurfObjectCreate(CUsurfObject* surface, const CUDA_RESOURCE_DESC* resource) {
  SIM_ENTRY("cuSurfObjectCreate");
  return resource ? make(surface, Object::Surface) : CUDA_ERROR_INVALID_VALUE;
}
SIM_EXPORT CUresult cuSurfObjectDestroy(CUsurfObject surface) {
  SIM_ENTRY("cuSurfObjectDestroy");
  return drop(reinterpret_cast<void*>(surface), Object::Surface);
}

SIM_EXPORT CUresult cuMemGetAddressRange_v2(CUdeviceptr* base, size_t* bytes, CUdeviceptr dptr) {
  SIM_ENTRY("cuMemGetAddressRange_v2");
  std::lock_guard lock(sim.mutex);
  for (const auto& [b, a] : sim.memory)
    if (dptr >= b && dptr < b + std::max<size_t>(a.bytes, 1)) {
      if (base) *base = b;
      if (bytes) *bytes = a.bytes;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND;
}

SIM_EXPORT CUresult cuIpcGetMemHandle(CUipcMemHandle* handle, CUdeviceptr dptr) {
  SIM_ENTRY("cuIpcGetMemHandle");
  return handle ? export_pointer(sim, handle->reserved, dptr) : CUDA_ERROR_INVALID_VALUE;
}
SIM_EXPORT CUresult cuIpcOpenMemHandle_v2(CUdeviceptr* dptr, CUipcMemHandle handle, unsigned int) {
  SIM_ENTRY("cuIpcOpenMemHandle_v2");
  return import_pointer(sim, handle.reserved, dptr);
}
SIM_EXPORT CUresult cuIpcCloseMemHandle(CUdeviceptr dptr) {
  SIM_ENTRY("cuIpcCloseMemHandle");
  return sim.release(dptr);
}
SIM_EXPORT CUresult cuMemPoolExportPointer(CUmemPoolPtrExportData* data, CUdeviceptr dptr) {
  SIM_ENTRY("cuMemPoolExportPointer");
  return data ? export_pointer(sim, data->reserved, dptr) : CUDA_ERROR_INVALID_VALUE;
}
SIM_EXPORT CUresult cuMemPoolImportPointer(CUdeviceptr* dptr, CUmemoryPool, CUmemPoolPtrExportData* data) {
  SIM_ENTRY("cuMemPoolImportPointer");
  return data ? import_pointer(sim, data->reserved, dptr) : CUDA_ERROR_INVALID_VALUE;
}
SIM_EXPORT CUresult cuMemPoolExportToShareableHandle(void* shareable, CUmemoryPool pool, CUmemAllocationHandleType,
                                                     unsigned long long) {
  SIM_ENTRY("cuMemPoolExportToShareableHandle");
  if (!shareable || !valid(pool, Object::Pool)) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(sim.mutex);
  int fd = sim.next_shared_fd++;
  sim.shared_pools[fd] = reinterpret_cast<Handle*>(pool)->device;
  *static_cast<int*>(shareable) = fd;
  return CUDA_SUCCESS;
}
SIM_EXPORT CUresult cuMemPoolImportFromShareableHandle(CUmemoryPool* pool, void* os_handle, CUmemAllocationHandleType,
                                                       unsigned long long) {
  SIM_ENTRY("cuMemPoolImportFromShareableHandle");
  int device;
  {
    std::lock_guard lock(sim.mutex);
    auto it = sim.shared_pools.find(int(reinterpret_cast<intptr_t>(os_handle)));
    if (!pool || it == sim.shared_pools.end()) return CUDA_ERROR_INVALID_VALUE;
    device = it->second;
  }
  // Another pool object over the same memory, destroyed with cuMemPoolDestroy.
  *pool = reinterpret_cast<CUmemoryPool>(new_handle(Object::Pool, device, nullptr));
  return CUDA_SUCCESS;
}
SIM_EXPORT CUresult cuMemExportToShareableHandle(void* shareable, CUmemGenericAllocationHandle handle,
                                                 CUmemAllocationHandleType, unsigned long long) {
  SIM_ENTRY("cuMemExportToShareableHandle");
  std::lock_guard lock(sim.mutex);
  if (!shareable || !sim.vmm.count(handle)) return CUDA_ERROR_INVALID_VALUE;
  int fd = sim.next_shared_fd++;
  sim.shared_vmm[fd] = handle;
  *static_cast<int*>(shareable) = fd;
  return CUDA_SUCCESS;
}
SIM_EXPORT CUresult cuMemImportFromShareableHandle(CUmemGenericAllocationHandle* handle, void* os_handle,
                                                   CUmemAllocationHandleType) {
  SIM_ENTRY("cuMemImportFromShareableHandle");
  std::lock_guard lock(sim.mutex);
  auto it = sim.shared_vmm.find(int(reinterpret_cast<intptr_t>(os_handle)));
  if (!handle || it == sim.shared_vmm.end() || !sim.vmm.count(it->second)) return CUDA_ERROR_INVALID_VALUE;
  // A new handle to the same memory, released with cuMemRelease: the memory
  // is counted once, until this handle and the original are both gone.
  const VmmHandle original = sim.vmm[it->second];
  uint64_t id = sim.next_vmm_handle++;
  sim.vmm[id] = VmmHandle{original.bytes, original.device, 1, original.physical};
  ++sim.vmm_physical_handles[original.physical];
  *handle = id;
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuImportExternalMemory(CUexternalMemory* memory, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC* desc) {
  SIM_ENTRY("cuImportExternalMemory");
  if (!desc || desc->type != CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD || fcntl(desc->handle.fd, F_GETFD) < 0)
    return CUDA_ERROR_INVALID_VALUE;
  return make(memory, Object::ExternalMemory, true, desc->size);
}
SIM_EXPORT CUresult cuExternalMemoryGetMappedBuffer(CUdeviceptr* dptr, CUexternalMemory memory,
                                                    const CUDA_EXTERNAL_MEMORY_BUFFER_DESC* desc) {
  SIM_ENTRY("cuExternalMemoryGetMappedBuffer");
  if (!dptr || !desc || !valid(memory, Object::ExternalMemory)) return CUDA_ERROR_INVALID_VALUE;
  if (desc->offset + desc->size > reinterpret_cast<Handle*>(memory)->bytes) return CUDA_ERROR_INVALID_VALUE;
  return map_again(sim, desc->size, dptr);
}
SIM_EXPORT CUresult cuDestroyExternalMemory(CUexternalMemory memory) {
  SIM_ENTRY("cuDestroyExternalMemory");
  return drop(memory, Object::ExternalMemory);
}
SIM_EXPORT CUresult cuImportExternalSemaphore(CUexternalSemaphore* semaphore,
                                              const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC* desc) {
  SIM_ENTRY("cuImportExternalSemaphore");
  if (!desc || desc->type != CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD || fcntl(desc->handle.fd, F_GETFD) < 0)
    return CUDA_ERROR_INVALID_VALUE;
  return make(semaphore, Object::ExternalSemaphore);
}
SIM_EXPORT CUresult cuDestroyExternalSemaphore(CUexternalSemaphore semaphore) {
  SIM_ENTRY("cuDestroyExternalSemaphore");
  return drop(semaphore, Object::ExternalSemaphore);
}
