// Live tensors named by the line that reserved their memory. Without
// per-tensor stacks PyTorch's view says how much its live tensors hold but
// not where they were made; cudaleak recorded, with native and Python
// frames, every allocation its segments came from (the segment's cudaMalloc,
// or the cuMemMap that grew an expandable segment). A live block is
// attributed to the tracked allocation whose range holds its address.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "common/record/raw.h"
#include "report/model/report.h"

namespace cudaleak::report {

// A tracked allocation that holds device memory at an address.
struct MemoryRange {
  uint64_t address = 0, bytes = 0;
  uint32_t stack_id = 0;
};
// The live allocations and mappings of `device` in `snapshot`, sorted by address.
std::vector<MemoryRange> memory_ranges(const RawSnapshot& snapshot, int device);

// Live blocks that PyTorch recorded no stack for, by the range that holds them.
struct OwnedBlocks {
  uint32_t stack_id = 0;  // 0: no tracked range holds them
  uint64_t bytes = 0, count = 0, pinning = 0;
};
// Biggest first.
std::vector<OwnedBlocks> blocks_by_owner(const AllocatorDevice& device, const std::vector<MemoryRange>& ranges);

// Replaces `device`'s live-tensor group without a stack by one group per
// owner (by_segment, the owner's stack from `stack_of`); what the segment list
// does not show (it is capped) or no range holds stays without a stack.
void attribute_by_segment(AllocatorDevice& device, const std::vector<OwnedBlocks>& owned,
                          const std::function<std::vector<Frame>(uint32_t stack_id)>& stack_of);

}  // namespace cudaleak::report
