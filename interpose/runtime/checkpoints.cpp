#include "interpose/runtime/checkpoints.h"

namespace cudaleak::checkpoints {

void Names::set(const std::string& name, uint64_t sequence) {
  std::lock_guard lock(mutex_);
  sequences_[name] = sequence;
}

bool Names::sequence_of(const char* name, uint64_t& out) {
  if (!name) return false;
  std::lock_guard lock(mutex_);
  auto it = sequences_.find(name);
  if (it == sequences_.end()) return false;
  out = it->second;
  return true;
}

}  // namespace cudaleak::checkpoints
