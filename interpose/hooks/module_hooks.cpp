// Modules and libraries (cuModuleLoad*, cuLibraryLoad*), and texture and
// surface objects. The CUDA runtime loads its own device code through the same
// calls; the report tells those loads apart by their stack
// (report/model/cuda_frames.h, is_runtime_own_load).
#include <dlfcn.h>

#include <string>

#include "interpose/hooks/hook.h"
#include "interpose/driver/module_image.h"

using namespace cudaleak;

namespace {

// The bytes of a module's device globals, read from its image or file once
// the driver has accepted it. The same read tells whether its kernels call
// device-side malloc; such a module is named (by its file, or the object
// that holds its image: the program's fatbin inside the executable).
template <typename Read, typename Name>
uint64_t read_noting_malloc(Read read, Name name) {
  const uint64_t before = module_image::malloc_images_read();
  const uint64_t bytes = read();
  if (module_image::malloc_images_read() != before) tracker::device_malloc_module(name());
  return bytes;
}
auto in_image(const void* image) {
  return [image] {
    return read_noting_malloc([image] { return module_image::device_global_bytes(image); },
                              [image] {
                                Dl_info info{};
                                return dladdr(image, &info) && info.dli_fname ? std::string(info.dli_fname)
                                                                              : std::string();
                              });
  };
}
auto in_file(const char* path) {
  return [path] {
    return read_noting_malloc([path] { return module_image::device_global_bytes_of_file(path); },
                              [path] { return std::string(path ? path : ""); });
  };
}

}  // namespace

CUDALEAK_EXPORT CUresult CUDAAPI cuModuleLoad(CUmodule* module, const char* path) {
  return create_into_first_sized<HookId::cuModuleLoad>(module, in_file(path), path);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuModuleLoadData(CUmodule* module, const void* image) {
  return create_into_first_sized<HookId::cuModuleLoadData>(module, in_image(image), image);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int count,
                                                    CUjit_option* options, void** values) {
  return create_into_first_sized<HookId::cuModuleLoadDataEx>(module, in_image(image), image, count, options, values);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule* module, const void* fatbin) {
  return create_into_first_sized<HookId::cuModuleLoadFatBinary>(module, in_image(fatbin), fatbin);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuModuleUnload(CUmodule module) {
  return release_first<HookId::cuModuleUnload>(module);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option* jit_options,
                                                   void** jit_values, unsigned int jit_count, CUlibraryOption* options,
                                                   void** values, unsigned int count) {
  return create_into_first_sized<HookId::cuLibraryLoadData>(library, in_image(code), code, jit_options, jit_values,
                                                            jit_count, options, values, count);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuLibraryLoadFromFile(CUlibrary* library, const char* path, CUjit_option* jit_options,
                                                       void** jit_values, unsigned int jit_count,
                                                       CUlibraryOption* options, void** values, unsigned int count) {
  return create_into_first_sized<HookId::cuLibraryLoadFromFile>(library, in_file(path), path, jit_options, jit_values,
                                                                jit_count, options, values, count);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuLibraryUnload(CUlibrary library) {
  return release_first<HookId::cuLibraryUnload>(library);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuTexObjectCreate(CUtexObject* texture, const CUDA_RESOURCE_DESC* resource,
                                                   const CUDA_TEXTURE_DESC* desc, const CUDA_RESOURCE_VIEW_DESC* view) {
  return create_into_first<HookId::cuTexObjectCreate>(texture, resource, desc, view);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuTexObjectDestroy(CUtexObject texture) {
  return release_first<HookId::cuTexObjectDestroy>(texture);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuSurfObjectCreate(CUsurfObject* surface, const CUDA_RESOURCE_DESC* resource) {
  return create_into_first<HookId::cuSurfObjectCreate>(surface, resource);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuSurfObjectDestroy(CUsurfObject surface) {
  return release_first<HookId::cuSurfObjectDestroy>(surface);
}
