#include "report/gate/caching.h"

#include <optional>

#include "report/gate/pattern.h"

namespace cudaleak::gate {

namespace {

struct AllocatorFrames {
  const char* allocator;
  const char* pattern;  // suppression pattern syntax, on a frame's function
  // Whether its memory is blocks kept for reuse: numba's queue only delays
  // each array's own free, and is emptied before an allocation fails.
  bool keeps_freed_blocks = true;
  // Where the frame's file must lie too, for a name too common alone.
  const char* file = nullptr;
  // Only for resources of this kind (none: any): a frame that also makes the
  // program's own memory names a cache only for what it keeps.
  std::optional<Kind> only = std::nullopt;
};

// Frames of the allocators' own code that hand out cached blocks.
constexpr AllocatorFrames kAllocators[] = {
    // PyTorch: the native caching allocator (cudaMalloc segments, and expandable
    // segments through cuMemCreate/cuMemMap), the cudaMallocAsync backend, and
    // the pinned host caching allocator.
    {"PyTorch caching allocator", "c10::cuda::CUDACachingAllocator::"},
    {"PyTorch caching allocator", "CachingHostAllocator"},
    // CuPy: its device memory pool and pinned memory pool (Cython symbols).
    {"CuPy memory pool", "cupy_4cuda_6memory"},
    {"CuPy memory pool", "cupy_4cuda_13pinned_memory"},
    {"CuPy memory pool", "cupy::cuda::memory"},
    // CuPy's pinned memory pool: a copy from a pinned host buffer
    // (cupy.asarray of cupyx.zeros_pinned) records an event that the pool
    // keeps on its watch list until the block is reused, past the program's
    // end (seen on an H200: cupy/_core/core's _array_default -> Stream.record).
    {"CuPy pinned memory pool", "4cupy_5_core_4core__array_default", true, nullptr, Kind::Event},
    // JAX/XLA: the BFC allocator over the stream executor.
    {"XLA BFC allocator", "BFCAllocator::"},
    {"XLA BFC allocator", "stream_executor::gpu::GpuDriver::VmmAllocate"},
    // Triton's kernels, loaded once as modules and kept for the process's
    // life (torch.compile's Inductor launchers, Triton's own).
    {"Triton kernel cache", "StaticallyLaunchedTritonKernel.load_kernel"},
    {"Triton kernel cache", "CompiledKernel._init_handles"},
    // RAPIDS Memory Manager pools.
    {"RMM pool", "rmm::mr::"},
    // numba-cuda's memory manager: a freed array's memory waits in its
    // deferred-deallocation queue, released in batches; an allocation that
    // fails empties the queue and is tried again, and at exit numba releases
    // the context with the queue still full. Python before 3.11 names the
    // frame without its class.
    {"numba memory manager", "_attempt_allocation", false, "/numba/cuda/cudadrv/"},
};

}  // namespace

namespace {
// The allocator whose frame `f` is, for a resource of `kind` (none: one whose
// kind is not known, which kind-bound entries never claim).
const char* allocator_of(const report::Frame& f, std::optional<Kind> kind = std::nullopt) {
  if (f.function.empty()) return nullptr;
  for (const auto& a : kAllocators)
    if ((!a.only || a.only == kind) && pattern_matches(a.pattern, f.function) &&
        (!a.file || f.file.str().find(a.file) != std::string::npos))
      return a.allocator;
  return nullptr;
}
}  // namespace

std::string caching_allocator_of(const report::LeakGroup& group) {
  for (const auto& f : group.stack)
    if (const char* a = allocator_of(f, group.kind)) return a;
  return "";
}

std::string caching_allocator_of(const std::vector<report::Frame>& stack) {
  for (const auto& f : stack)
    if (const char* a = allocator_of(f)) return a;
  return "";
}

bool in_caching_allocator(const report::Frame& frame) { return allocator_of(frame) != nullptr; }

bool keeps_freed_blocks(const std::string& allocator) {
  for (const auto& a : kAllocators)
    if (allocator == a.allocator) return a.keeps_freed_blocks;
  return false;
}

}  // namespace cudaleak::gate
