// The builder: a raw snapshot (common/record/raw.h) into the report model,
// grouped by kind and stack, with the outermost CUDA API named and frames
// resolved. Policy lives here, not in the preload library that records.
#pragma once
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/record/raw.h"
#include "report/model/report.h"

namespace cudaleak::report {

// The report's name of a CUlimit ("stack_size", "malloc_heap_size", ...).
std::string limit_name(int limit);
// The report's reservation, with its stack resolved.
Reservation resolve_reservation(const RawReservation& raw, std::vector<Frame> stack);

// A resolver that passes every question to `resolver`, which outlives it.
std::unique_ptr<FrameResolver> borrow(FrameResolver& resolver);

// A resolver that answers Python frames (python_frame_ip.h) from `python`
// (index = id - 1) and passes every other address to `native` (may be null).
std::unique_ptr<FrameResolver> with_python_frames(std::unique_ptr<FrameResolver> native, std::vector<Frame> python);

struct BuildOptions {
  size_t max_allocations = 16;  // 0 = all
};

Report build_report(const RawSnapshot& snapshot, const StackLookup& stacks, FrameResolver* resolver,
                    const BuildOptions& options);

// The frames of one interned stack (inline frames expanded).
std::vector<Frame> resolve_stack(std::span<const uint64_t> ips, FrameResolver* resolver);

// The outermost frame of the CUDA API block nearest to the allocation: walking
// outwards from the innermost frame, the last frame named like a public CUDA
// API (cudaMalloc, cuMemAlloc_v2, cublasCreate_v2, ncclCommInitRank...) before
// the first frame that is neither such an API nor inside a CUDA library.
// Falls back to `hook` (the driver entry point) when no frame is named.
std::string outermost_api(const std::vector<Frame>& stack, const std::string& hook);

}  // namespace cudaleak::report
