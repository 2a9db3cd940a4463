#include "report/oom/tensor_owners.h"

#include "common/quantities.h"

#include <algorithm>
#include <map>

#include "report/model/frame_owner.h"

namespace cudaleak::report {

namespace {

// Kinds whose handle is the address of device memory the program can use.
bool addressable(Kind kind) {
  switch (kind) {
    case Kind::Device:
    case Kind::Managed:
    case Kind::Async:
    case Kind::Mapping:
    case Kind::GraphMemory: return true;
    default: return false;
  }
}

constexpr int kStateMask = 3;  // AllocatorSegment::blocks: free, allocated, other active
constexpr int kHasFrames = 4;  // PyTorch recorded the block's stack

}  // namespace

std::vector<MemoryRange> memory_ranges(const RawSnapshot& snapshot, int device) {
  std::vector<MemoryRange> out;
  for (const Record& r : snapshot.resources)
    if (!r.torn_down() && r.device == device && addressable(r.kind) && r.bytes)
      out.push_back({r.handle, r.bytes, r.stack_id});
  std::sort(out.begin(), out.end(), [](const MemoryRange& a, const MemoryRange& b) { return a.address < b.address; });
  return out;
}

std::vector<OwnedBlocks> blocks_by_owner(const AllocatorDevice& device, const std::vector<MemoryRange>& ranges) {
  std::map<uint32_t, OwnedBlocks> owners;
  for (const AllocatorSegment& seg : device.segment_list) {
    bool live = false, free = false;
    for (auto [size, state] : seg.blocks) ((state & kStateMask) ? live : free) = true;
    uint64_t at = seg.address;
    for (auto [size, state] : seg.blocks) {
      uint64_t block = at;
      at += size;
      if (!(state & kStateMask) || (state & kHasFrames)) continue;
      // The last range that starts at or below the block, if it reaches it.
      auto it = std::upper_bound(ranges.begin(), ranges.end(), block,
                                 [](uint64_t a, const MemoryRange& r) { return a < r.address; });
      uint32_t id = 0;
      if (it != ranges.begin() && block < std::prev(it)->address + std::prev(it)->bytes) id = std::prev(it)->stack_id;
      OwnedBlocks& o = owners[id];
      o.stack_id = id;
      add_saturating(o.bytes, size);
      ++o.count;
      if (live && free) ++o.pinning;
    }
  }
  std::vector<OwnedBlocks> out;
  for (auto& [id, o] : owners) out.push_back(o);
  std::stable_sort(out.begin(), out.end(),
                   [](const OwnedBlocks& a, const OwnedBlocks& b) { return a.bytes > b.bytes; });
  return out;
}

void attribute_by_segment(AllocatorDevice& device, const std::vector<OwnedBlocks>& owned,
                          const std::function<std::vector<Frame>(uint32_t)>& stack_of) {
  auto unnamed = std::find_if(device.live_tensors.begin(), device.live_tensors.end(),
                              [](const TensorGroup& g) { return g.stack.empty(); });
  if (unnamed == device.live_tensors.end()) return;  // every live tensor has its own stack
  TensorGroup rest = *unnamed;
  device.live_tensors.erase(unnamed);
  std::vector<TensorGroup> named;
  for (const OwnedBlocks& o : owned) {
    if (!o.stack_id) continue;
    TensorGroup g;
    g.bytes = o.bytes;
    g.count = o.count;
    g.pinning_segments = o.pinning;
    g.stack = stack_of(o.stack_id);
    g.by_segment = true;
    if (g.stack.empty()) continue;
    // The view's own group may be capped or rounded: never more than it says.
    g.bytes = std::min(g.bytes, rest.bytes);
    g.count = std::min(g.count, rest.count);
    g.pinning_segments = std::min(g.pinning_segments, rest.pinning_segments);
    rest.bytes -= g.bytes;
    rest.count -= g.count;
    rest.pinning_segments -= g.pinning_segments;
    named.push_back(std::move(g));
  }
  // Segments reserved from one line by different paths inside the allocator
  // (a first try, a retry after freeing its cache) are one group: the line's.
  auto same_line = [](const TensorGroup& a, const TensorGroup& b) {
    const Frame* x = report::user_frame(a.stack);
    const Frame* y = report::user_frame(b.stack);
    return x && y ? x->function == y->function && x->file == y->file && x->line == y->line : a.stack == b.stack;
  };
  std::vector<TensorGroup> merged;
  for (TensorGroup& g : named) {
    auto same = std::find_if(merged.begin(), merged.end(), [&](const TensorGroup& m) { return same_line(m, g); });
    if (same == merged.end()) {
      merged.push_back(std::move(g));
    } else {
      add_saturating(same->bytes, g.bytes);
      same->count += g.count;
      same->pinning_segments += g.pinning_segments;
    }
  }
  if (rest.bytes || rest.count) merged.push_back(std::move(rest));
  for (TensorGroup& g : merged) device.live_tensors.push_back(std::move(g));
  std::stable_sort(device.live_tensors.begin(), device.live_tensors.end(),
                   [](const TensorGroup& a, const TensorGroup& b) { return a.bytes > b.bytes; });
}

}  // namespace cudaleak::report
