// Resource kinds. Their names are part of the report format (docs/report-format.md).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cudaleak {

enum class Kind : uint8_t {
  Device,             // cuMemAlloc_v2, cuMemAllocPitch_v2
  Pinned,             // cuMemAllocHost_v2, cuMemHostAlloc
  Registered,         // cuMemHostRegister(_v2)
  Managed,            // cuMemAllocManaged
  Async,              // cuMemAllocAsync, cuMemAllocFromPoolAsync (+_ptsz)
  Pool,               // cuMemPoolCreate
  Vmm,                // cuMemCreate (refcounted by cuMemRetainAllocationHandle)
  VaReservation,      // cuMemAddressReserve
  Mapping,            // cuMemMap
  Array,              // cuArrayCreate_v2, cuArray3DCreate_v2, cuMipmappedArrayCreate
  Context,            // cuCtxCreate (v1-v4), cuGreenCtxCreate
  Stream,             // cuStreamCreate, cuStreamCreateWithPriority, cuGreenCtxStreamCreate
  Event,              // cuEventCreate
  Graph,              // cuGraphCreate, cuGraphClone, cuStreamEndCapture
  GraphExec,          // cuGraphInstantiate (every variant)
  GraphMemory,        // graph allocation nodes, cuMemAllocAsync during stream capture
  Module,             // cuModuleLoad, LoadData, LoadDataEx, LoadFatBinary
  Library,            // cuLibraryLoadData, cuLibraryLoadFromFile
  Texture,            // cuTexObjectCreate
  Surface,            // cuSurfObjectCreate
  IpcMapping,         // cuIpcOpenMemHandle, cuMemPoolImportPointer, cuMemImportFromShareableHandle
  ExternalMemory,     // cuImportExternalMemory
  ExternalSemaphore,  // cuImportExternalSemaphore
  LibraryHandle,      // cublasCreate, cudnnCreate, cufftPlan*, ncclCommInit*, ... (library_handles.h)
  DeviceHeap,         // malloc/new in a kernel, with the device_heap option (runtime/device_heap.h)
};
inline constexpr int kKindCount = 25;

std::string_view kind_name(Kind kind);
std::optional<Kind> kind_from_name(std::string_view name);

// Kinds that hold memory (their bytes count towards leaked_bytes). Inline:
// the preload asks it on every creation and release.
constexpr bool kind_holds_memory(Kind kind) {
  switch (kind) {
    case Kind::Device:
    case Kind::Pinned:
    case Kind::Registered:
    case Kind::Managed:
    case Kind::Async:
    case Kind::Vmm:
    case Kind::Array:
    case Kind::GraphMemory:
    case Kind::IpcMapping:  // keeps the exporter's memory alive
    case Kind::DeviceHeap: return true;
    default: return false;
  }
}

// How the text report names a kind, as users know it (the JSON keeps
// kind_name): for kinds that hold memory, the words before "memory"
// ("device", "IPC-mapped"); for the others, the object counted, singular or
// plural ("executable graph", "events").
std::string kind_memory_words(Kind kind);
std::string kind_object_words(Kind kind, uint64_t count);

// Kinds that the driver releases together with their context (cuCtxDestroy,
// primary context reset). Memory from cuMemCreate and the stream-ordered
// allocator is not bound to a context and survives it (cuda.h, cuCtxDestroy).
bool kind_dies_with_context(Kind kind);

}  // namespace cudaleak
