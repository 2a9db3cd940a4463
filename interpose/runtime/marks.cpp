#include "marks.h"

#include "../track/tracker.h"

namespace cudaleak::marks {

namespace {
constexpr size_t kKept = 4096;  // a loop that checkpoints every step must not grow without bound

// Constant-initialised, so that the crash handler never constructs anything
// (no allocation under a heap lock the crashed thread may hold); the list is
// made by the first mark and never destroyed (reports run during exit).
std::mutex g_mutex;
std::vector<report::TimelineMark>* g_list = nullptr;
}  // namespace

std::mutex& mutex() { return g_mutex; }

void add(const char* type, const std::string& name) {
  uint64_t now = tracker::elapsed_ns();
  std::lock_guard lock(g_mutex);
  if (!g_list) g_list = new std::vector<report::TimelineMark>();
  if (g_list->size() < kKept) g_list->push_back(report::TimelineMark{now, type, name, 0});
}

std::vector<report::TimelineMark> all() {
  std::lock_guard lock(g_mutex);
  return g_list ? *g_list : std::vector<report::TimelineMark>{};
}

bool visit_if_free(void (*fn)(void* ctx, const report::TimelineMark& mark), void* ctx) {
  if (!g_mutex.try_lock()) return false;
  std::lock_guard lock(g_mutex, std::adopt_lock);
  if (g_list)
    for (const auto& m : *g_list) fn(ctx, m);
  return true;
}

void reset_in_child() {
  if (g_list) g_list->clear();  // the child's reports are its own
}  // the child's reports are its own

}  // namespace cudaleak::marks
