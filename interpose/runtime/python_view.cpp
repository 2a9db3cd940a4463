#include "interpose/base/own_threads.h"
#include "interpose/runtime/python_view.h"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <condition_variable>

#include "interpose/track/tracker.h"

namespace cudaleak::python_view {

void* Views::source_worker(void* self) {
  note_own_thread();
  Views& v = *static_cast<Views*>(self);
  std::unique_lock lock(v.mutex_);
  while (true) {
    const auto asked = [&] { return v.requested_ > v.answered_; };
    // With view_interval_ms, a wait that ran its course is a request of its
    // own: the periodic sample, on this thread, never on the program's.
    if (v.interval_ms_ > 0) {
      if (!v.wake_->wait_for(lock, std::chrono::milliseconds(v.interval_ms_), asked) && v.source_) ++v.requested_;
    } else {
      v.wake_->wait(lock, asked);
    }
    if (!asked()) continue;
    uint64_t serving = v.requested_;
    auto fn = v.source_;
    lock.unlock();
    if (fn) fn();  // takes the GIL itself (ctypes); sends the view through cudaleak_impl_python_view
    lock.lock();
    v.answered_ = serving;
    v.wake_->notify_all();
  }
  return nullptr;
}

bool Views::start_worker() {
  if (!wake_) wake_ = new std::condition_variable();
  if (worker_running_) return true;
  pthread_t thread;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);  // the program's signals stay with the program's threads
  worker_running_ = pthread_create(&thread, &attr, source_worker, this) == 0;
  if (worker_running_) name_own_thread(thread, "cudaleak-python");
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  pthread_attr_destroy(&attr);
  return worker_running_;
}

namespace {
// A copy of `kept` into `out` under `mutex`; false when nothing was kept.
template <typename T>
bool copy_kept(std::mutex& mutex, const std::optional<T>& kept, T& out) {
  std::lock_guard lock(mutex);
  if (kept) out = *kept;
  return kept.has_value();
}
}  // namespace

namespace {
uint64_t seen_at() { return tracker::elapsed_ns(); }
}  // namespace

void Views::keep(const report::PyTorchView& view) {
  const uint64_t at = seen_at(), requests = tracker::requests_counted();
  std::lock_guard lock(mutex_);
  latest_ = view;
  for (const auto& [device, lines] : line_growth::lines_of(view))
    lines_.observe("pytorch", device, lines, at, requests);
}
bool Views::latest(report::PyTorchView& out) { return copy_kept(mutex_, latest_, out); }

void Views::keep_cupy(const report::CupyPool& pool) {
  static const std::vector<report::Frame> no_stack;  // the pool is one line: its bytes in use
  const uint64_t at = seen_at(), requests = tracker::requests_counted();
  std::lock_guard lock(mutex_);
  cupy_ = pool;
  lines_.observe("cupy", pool.device, {line_growth::LineBytes{&no_stack, pool.used_bytes}}, at, requests);
}
bool Views::latest_cupy(report::CupyPool& out) { return copy_kept(mutex_, cupy_, out); }

void Views::keep_jax(const report::JaxView& view) {
  const uint64_t at = seen_at(), requests = tracker::requests_counted();
  std::lock_guard lock(mutex_);
  jax_ = view;
  for (const auto& [device, lines] : line_growth::lines_of(view)) lines_.observe("jax", device, lines, at, requests);
}

void Views::configure_lines(uint64_t interval_ns) {
  std::lock_guard lock(mutex_);
  lines_.configure(interval_ns);
}

std::map<int, std::vector<report::SiteGrowth>> Views::line_growth() {
  std::lock_guard lock(mutex_);
  return lines_.snapshot();
}

void Views::set_interval(int ms) {
  std::lock_guard lock(mutex_);
  interval_ms_ = ms;
}
bool Views::latest_jax(report::JaxView& out) { return copy_kept(mutex_, jax_, out); }

bool Views::refresh(int limit_ms) {
  std::unique_lock lock(mutex_);
  // PyTorch's first snapshot in a process takes seconds (about 4 s on an
  // H100 with PyTorch 2.11); later ones, milliseconds.
  int timeout_ms = answered_ ? 2000 : 10000;
  if (limit_ms > 0) timeout_ms = std::min(timeout_ms, limit_ms);
  if (!source_ || !start_worker()) return false;
  uint64_t mine = ++requested_;
  wake_->notify_all();
  return wake_->wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return answered_ >= mine; });
}

void Views::reset_in_child() {
  std::lock_guard lock(mutex_);
  latest_.reset();  // the parent's view says nothing about the child
  cupy_.reset();
  jax_.reset();
  lines_.clear();
  // The worker did not come along; the source (the child's copy of the
  // program's Python) still works, asked through a new worker.
  worker_running_ = false;
  requested_ = answered_ = 0;
  wake_ = nullptr;  // the parent's may be mid-notify: leaked, never reused
}

void Views::set_source(void (*fn)()) {
  std::lock_guard lock(mutex_);
  source_ = fn;
  if (fn && interval_ms_ > 0) start_worker();  // the periodic sample needs the thread from now on
}

}  // namespace cudaleak::python_view
