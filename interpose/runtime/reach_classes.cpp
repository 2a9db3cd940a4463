// What the reachability scan searches for and whose globals it leaves out
// (reachability.h), apart from the scan so that tests need no process glue.
#include <cstring>

#include "interpose/runtime/reachability.h"

namespace cudaleak::reachability {

Search search_of(Kind kind) {
  switch (kind) {
    case Kind::Device:
    case Kind::Pinned:
    case Kind::Registered:
    case Kind::Managed:
    case Kind::Async:
    case Kind::GraphMemory:
    case Kind::IpcMapping:
    case Kind::Mapping:
    case Kind::VaReservation: return Search::Range;
    // The driver's thread-local state holds the context current on a thread;
    // a kernel's malloc is referenced from device memory, which is not read.
    case Kind::Context:
    case Kind::DeviceHeap: return Search::NotSearched;
    default: return Search::Exact;
  }
}

bool excluded_object(const char* path) {
  const char* base = std::strrchr(path, '/');
  base = base ? base + 1 : path;
  static const char* const kPrefixes[] = {
      "libcuda.", "libcudart.", "libnvidia", "libcublas", "libcudnn", "libcufft", "libcusparse", "libcusolver",
      "libcurand", "libnccl", "libnvrtc", "libnvJitLink", "libnvperf", "libcupti", "libcudadebugger", "libc.so",
      "ld-linux", "ld64.so", "libcudaleak",
      // The C++ runtime's own state (locales, the exception pool, iostreams):
      // never the program's data, and it leads to the CUDA libraries' blocks.
      "libstdc++.so", "libgcc_s.so", "libm.so",
      // What cudaleak loads privately to unwind and symbolize: their caches are its own.
      "libunwind.so", "libunwind-x86_64", "libdw.so", "libdw-", "libelf.so", "libelf-"};
  for (const char* p : kPrefixes)
    if (std::strncmp(base, p, std::strlen(p)) == 0) return true;
  return false;
}

}  // namespace cudaleak::reachability
