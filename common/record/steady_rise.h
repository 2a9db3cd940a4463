#pragma once
// The one rule for "growing" over a series of observations: the recording
// side marks a group growing by it, and the text applies it again to groups
// it shows as one line.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cudaleak::record {

// Across the kept observations (oldest first) and now, the value rose at
// least twice and never fell.
inline bool rose_steadily(const std::vector<uint64_t>& history, uint64_t now) {
  int rises = 0;
  bool fell = false;
  for (size_t i = 0; i < history.size(); ++i) {
    const uint64_t next = i + 1 < history.size() ? history[i + 1] : now;
    rises += next > history[i];
    fell |= next < history[i];
  }
  return rises >= 2 && !fell;
}

}  // namespace cudaleak::record
