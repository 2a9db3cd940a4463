#include "interpose/runtime/marks.h"

namespace cudaleak::marks {

namespace {
constexpr size_t kKept = 4096;  // a loop that checkpoints every step must not grow without bound
}  // namespace

void Log::add(uint64_t now, report::MarkType type, const std::string& name) {
  std::lock_guard lock(mutex_);
  if (list_.size() < kKept) list_.push_back(report::TimelineMark{now, type, name, 0});
}

std::vector<report::TimelineMark> Log::all() {
  std::lock_guard lock(mutex_);
  return list_;
}

// Reads only: the crash handler never allocates (the crashed thread may hold a
// heap lock).
bool Log::visit_if_free(void (*fn)(void* ctx, const report::TimelineMark& mark), void* ctx) {
  if (!mutex_.try_lock()) return false;
  std::lock_guard lock(mutex_, std::adopt_lock);
  for (const auto& m : list_) fn(ctx, m);
  return true;
}

void Log::reset_in_child() { list_.clear(); }  // the child's reports are its own

}  // namespace cudaleak::marks
