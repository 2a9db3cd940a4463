#include "fork_protocol.h"

#include <pthread.h>

#include <mutex>

#include "checkpoints.h"
#include "gate_config.h"
#include "growth.h"
#include "lifecycle.h"
#include "marks.h"
#include "oom.h"
#include "python_view.h"
#include "reporter.h"
#include "signals.h"
#include "../pyframes/python_frames.h"
#include "../track/tracker.h"

namespace cudaleak::fork_protocol {

namespace {

void prepare() {
  report_mutex().lock();
  gate_config_mutex().lock();
  checkpoints::mutex().lock();
  growth::mutex().lock();
  marks::mutex().lock();
  oom::mutex().lock();
  python_view::mutex().lock();
  pyframes::mutex().lock();
  tracker::lock_all();
}

void release_all() {
  tracker::unlock_all();
  pyframes::mutex().unlock();
  python_view::mutex().unlock();
  oom::mutex().unlock();
  marks::mutex().unlock();
  growth::mutex().unlock();
  checkpoints::mutex().unlock();
  gate_config_mutex().unlock();
  report_mutex().unlock();
}

void parent() { release_all(); }

void child() {
  release_all();
  tracker::reset_in_child();
  signals::reset_in_child();
  reset_reporter_in_child();
  growth::reset_in_child();
  marks::reset_in_child();
  oom::reset_in_child();
  python_view::reset_in_child();
  checkpoints::reset_in_child();
  lifecycle_after_fork_in_child();
}

}  // namespace

void install() { pthread_atfork(prepare, parent, child); }

}  // namespace cudaleak::fork_protocol
