#include "interpose/runtime/runtime.h"

#include "interpose/pyframes/python_frames.h"
#include "interpose/track/tracker.h"

namespace cudaleak {

Runtime::Runtime() {
  bind_options(options);
  tracker::bind(tracker);
}

Runtime& runtime() {
  static Runtime* r = new Runtime();
  return *r;
}

void Runtime::mark(report::MarkType type, const std::string& name) { marks.add(tracker::elapsed_ns(), type, name); }

void Runtime::lock_all() {
  reports.mutex.lock();
  gate.mutex().lock();
  checkpoints.mutex().lock();
  growth.mutex().lock();
  marks.mutex().lock();
  oom.mutex().lock();
  python_view.mutex().lock();
  pyframes::mutex().lock();
  tracker.lock_all();
}

void Runtime::unlock_all() {
  tracker.unlock_all();
  pyframes::mutex().unlock();
  python_view.mutex().unlock();
  oom.mutex().unlock();
  marks.mutex().unlock();
  growth.mutex().unlock();
  checkpoints.mutex().unlock();
  gate.mutex().unlock();
  reports.mutex.unlock();
}

void Runtime::reset_in_child() {
  tracker.reset_in_child();
  reports.reset_in_child();
  growth.reset_in_child();
  marks.reset_in_child();
  oom.reset_in_child();
  python_view.reset_in_child();
  checkpoints.reset_in_child();
}

}  // namespace cudaleak
