// Moments the program marked on the timeline: named checkpoints and snapshot
// reports, with their time since the tracker started. Part of the runtime
// object (runtime.h).
#pragma once
#include <mutex>
#include <string>
#include <vector>

#include "report/model/report.h"

namespace cudaleak::marks {

class Log {
 public:
  // `now`: tracker::elapsed_ns(). Keeps the first 4096 marks.
  void add(uint64_t now, report::MarkType type, const std::string& name);
  std::vector<report::TimelineMark> all();
  // For the crash handler: fn(ctx, mark) for each mark, oldest first, when the
  // lock is free (false when it is held, maybe by the crashed thread).
  bool visit_if_free(void (*fn)(void* ctx, const report::TimelineMark& mark), void* ctx);

  std::mutex& mutex() { return mutex_; }  // for the fork protocol
  void reset_in_child();

 private:
  std::mutex mutex_;  // guards list_
  std::vector<report::TimelineMark> list_;
};

}  // namespace cudaleak::marks
