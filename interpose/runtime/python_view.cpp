#include "interpose/runtime/python_view.h"

#include <pthread.h>

#include <chrono>
#include <csignal>
#include <condition_variable>

namespace cudaleak::python_view {

void* Views::source_worker(void* self) {
  Views& v = *static_cast<Views*>(self);
  std::unique_lock lock(v.mutex_);
  while (true) {
    v.wake_->wait(lock, [&] { return v.requested_ > v.answered_; });
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

namespace {
// A copy of `kept` into `out` under `mutex`; false when nothing was kept.
template <typename T>
bool copy_kept(std::mutex& mutex, const std::optional<T>& kept, T& out) {
  std::lock_guard lock(mutex);
  if (kept) out = *kept;
  return kept.has_value();
}
}  // namespace

void Views::keep(const report::PyTorchView& view) {
  std::lock_guard lock(mutex_);
  latest_ = view;
}
bool Views::latest(report::PyTorchView& out) { return copy_kept(mutex_, latest_, out); }

void Views::keep_cupy(const report::CupyPool& pool) {
  std::lock_guard lock(mutex_);
  cupy_ = pool;
}
bool Views::latest_cupy(report::CupyPool& out) { return copy_kept(mutex_, cupy_, out); }

void Views::keep_jax(const report::JaxView& view) {
  std::lock_guard lock(mutex_);
  jax_ = view;
}
bool Views::latest_jax(report::JaxView& out) { return copy_kept(mutex_, jax_, out); }

bool Views::refresh() {
  std::unique_lock lock(mutex_);
  // PyTorch's first snapshot in a process takes seconds (about 4 s on an
  // H100 with PyTorch 2.11); later ones, milliseconds.
  const int timeout_ms = answered_ ? 2000 : 10000;
  if (!source_) return false;
  if (!wake_) wake_ = new std::condition_variable();
  if (!worker_running_) {
    pthread_t thread;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);  // the program's signals stay with the program's threads
    worker_running_ = pthread_create(&thread, &attr, source_worker, this) == 0;
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    pthread_attr_destroy(&attr);
    if (!worker_running_) return false;
  }
  uint64_t mine = ++requested_;
  wake_->notify_all();
  return wake_->wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return answered_ >= mine; });
}

void Views::reset_in_child() {
  std::lock_guard lock(mutex_);
  latest_.reset();  // the parent's view says nothing about the child
  cupy_.reset();
  jax_.reset();
  // The worker did not come along; the source (the child's copy of the
  // program's Python) still works, asked through a new worker.
  worker_running_ = false;
  requested_ = answered_ = 0;
  wake_ = nullptr;  // the parent's may be mid-notify: leaked, never reused
}

void Views::set_source(void (*fn)()) {
  std::lock_guard lock(mutex_);
  source_ = fn;
}

}  // namespace cudaleak::python_view
