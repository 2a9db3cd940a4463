#include "common/kinds.h"

#include <array>

namespace cudaleak {

namespace {
constexpr std::array<std::string_view, kKindCount> kNames = {"device",
                                                             "pinned",
                                                             "registered",
                                                             "managed",
                                                             "async",
                                                             "pool",
                                                             "vmm",
                                                             "va_reservation",
                                                             "mapping",
                                                             "array",
                                                             "context",
                                                             "stream",
                                                             "event",
                                                             "graph",
                                                             "graph_exec",
                                                             "graph_memory",
                                                             "module",
                                                             "library",
                                                             "texture",
                                                             "surface",
                                                             "ipc_mapping",
                                                             "external_memory",
                                                             "external_semaphore",
                                                             "library_handle",
                                                             "device_heap"};
}

std::string_view kind_name(Kind kind) { return kNames[static_cast<size_t>(kind)]; }

std::optional<Kind> kind_from_name(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<Kind>(i);
  return std::nullopt;
}

std::string kind_memory_words(Kind kind) {
  switch (kind) {
    case Kind::GraphMemory: return "graph";
    case Kind::IpcMapping: return "IPC-mapped";
    case Kind::DeviceHeap: return "device-heap";
    default: return std::string(kind_name(kind));
  }
}

std::string kind_object_words(Kind kind, uint64_t count) {
  const char* one = nullptr;
  switch (kind) {
    case Kind::GraphExec: one = "executable graph"; break;
    case Kind::VaReservation: one = "virtual address reservation"; break;
    case Kind::Pool: one = "memory pool"; break;
    case Kind::ExternalMemory: one = "external memory object"; break;
    case Kind::ExternalSemaphore: one = "external semaphore"; break;
    case Kind::LibraryHandle: one = "library handle"; break;
    case Kind::Library: one = "CUDA library"; break;
    default: break;
  }
  std::string words = one ? one : std::string(kind_name(kind));
  return count == 1 ? words : words + "s";
}

bool kind_dies_with_context(Kind kind) {
  switch (kind) {
    case Kind::Device:
    case Kind::Pinned:
    case Kind::Registered:
    case Kind::Managed:
    case Kind::Array:
    case Kind::Stream:
    case Kind::Event:
    case Kind::GraphExec:
    case Kind::Module:
    case Kind::Texture:
    case Kind::Surface:
    case Kind::ExternalMemory:
    case Kind::ExternalSemaphore:
    case Kind::DeviceHeap: return true;
    default: return false;
  }
}

}  // namespace cudaleak
