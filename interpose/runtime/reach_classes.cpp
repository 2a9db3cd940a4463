// What the reachability scan searches for and whose globals it leaves out
// (reachability.h), apart from the scan so that tests need no process glue.
#include <cctype>
#include <cstring>
#include <iterator>

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

namespace {
const char* base_name(const char* path) {
  const char* base = std::strrchr(path, '/');
  return base ? base + 1 : path;
}
bool starts_with_any(const char* name, const char* const* prefixes, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if (std::strncmp(name, prefixes[i], std::strlen(prefixes[i])) == 0) return true;
  return false;
}
const char* const kCudaLibraries[] = {"libcuda.", "libcudart.",   "libnvidia",   "libcublas", "libcudnn",
                                      "libcufft", "libcusparse",  "libcusolver", "libcurand", "libnccl",
                                      "libnvrtc", "libnvJitLink", "libnvperf",   "libcupti",  "libcudadebugger"};
// What runs between a caller and the function it asked for: the C and C++
// runtimes (std::thread, thrd_create), the loader and the sanitizers' interceptors.
const char* const kGoBetweens[] = {"libc.so",      "ld-linux",    "ld64.so",      "libpthread",
                                   "libstdc++.so", "libgcc_s.so", "libasan.so",   "libtsan.so",
                                   "liblsan.so",   "libubsan.so", "libhwasan.so", "libclang_rt."};
}  // namespace

bool cuda_library(const char* path) {
  return starts_with_any(base_name(path), kCudaLibraries, std::size(kCudaLibraries));
}

bool go_between(const char* path) { return starts_with_any(base_name(path), kGoBetweens, std::size(kGoBetweens)); }

bool library_thread_name(const char* name) {
  static const char* const kPrefixes[] = {"cuda-", "cudaleak-", "NCCL", "nccl"};
  if (starts_with_any(name, kPrefixes, std::size(kPrefixes))) return true;
  // The driver's numbered threads ("cuda00001400006"): "cuda" and 11 hex
  // digits, the 15 characters a thread's name keeps; "cuda0" may be a program's.
  if (std::strncmp(name, "cuda", 4) != 0 || std::strlen(name) != 15) return false;
  for (const char* p = name + 4; *p; ++p)
    if (!std::isxdigit(static_cast<unsigned char>(*p))) return false;
  return true;
}

bool excluded_object(const char* path) {
  static const char* const kPrefixes[] = {
      "libc.so", "ld-linux", "ld64.so", "libcudaleak",
      // The C++ runtime's own state (locales, the exception pool, iostreams):
      // never the program's data, and it leads to the CUDA libraries' blocks.
      "libstdc++.so", "libgcc_s.so", "libm.so",
      // What cudaleak loads privately to unwind and symbolize: their caches are its own.
      "libunwind.so", "libunwind-x86_64", "libdw.so", "libdw-", "libelf.so", "libelf-"};
  return cuda_library(path) || starts_with_any(base_name(path), kPrefixes, std::size(kPrefixes));
}

}  // namespace cudaleak::reachability
