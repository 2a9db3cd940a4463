#include "python_view.h"

#include <pthread.h>

#include <chrono>
#include <csignal>
#include <condition_variable>
#include <cstring>

#include "json_io.h"
#include "lifecycle.h"
#include "../base/log.h"
#include "oom.h"

namespace cudaleak::python_view {

namespace {

using Source = void (*)();

std::mutex g_mutex;  // guards everything below
report::PyTorchView* g_latest = nullptr;  // none yet; never destroyed: reports run during exit
report::CupyPool* g_cupy = nullptr;       // the same for CuPy's numbers
Source g_source = nullptr;
// The thread that calls the source: asked by `requested`, answered by
// `answered` (request numbers), so that a caller that gave up never mistakes
// an old answer for its own.
std::condition_variable* g_wake = nullptr;  // never destroyed: the thread may outlive exit handlers
bool g_worker_running = false;
uint64_t g_requested = 0, g_answered = 0;

void* source_worker(void*) {
  std::unique_lock lock(g_mutex);
  while (true) {
    g_wake->wait(lock, [] { return g_requested > g_answered; });
    uint64_t serving = g_requested;
    Source fn = g_source;
    lock.unlock();
    if (fn) fn();  // takes the GIL itself (ctypes); sends the view through cudaleak_impl_python_view
    lock.lock();
    g_answered = serving;
    g_wake->notify_all();
  }
  return nullptr;
}

void keep(const report::PyTorchView& view) {
  std::lock_guard lock(g_mutex);
  if (!g_latest) g_latest = new report::PyTorchView();
  *g_latest = view;
}

}  // namespace

bool latest(report::PyTorchView& out) {
  std::lock_guard lock(g_mutex);
  if (!g_latest) return false;
  out = *g_latest;
  return true;
}

void keep_cupy(const report::CupyPool& pool) {
  std::lock_guard lock(g_mutex);
  if (!g_cupy) g_cupy = new report::CupyPool();
  *g_cupy = pool;
}

bool latest_cupy(report::CupyPool& out) {
  std::lock_guard lock(g_mutex);
  if (!g_cupy) return false;
  out = *g_cupy;
  return true;
}

bool refresh() {
  std::unique_lock lock(g_mutex);
  // PyTorch's first snapshot in a process takes seconds (about 4 s on an
  // H100 with PyTorch 2.11); later ones, milliseconds.
  const int timeout_ms = g_answered ? 2000 : 10000;
  if (!g_source) return false;
  if (!g_wake) g_wake = new std::condition_variable();
  if (!g_worker_running) {
    pthread_t thread;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);  // the program's signals stay with the program's threads
    g_worker_running = pthread_create(&thread, &attr, source_worker, nullptr) == 0;
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    pthread_attr_destroy(&attr);
    if (!g_worker_running) return false;
  }
  uint64_t mine = ++g_requested;
  g_wake->notify_all();
  return g_wake->wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return g_answered >= mine; });
}

std::mutex& mutex() { return g_mutex; }

void reset_in_child() {
  std::lock_guard lock(g_mutex);
  delete g_latest;  // the parent's view says nothing about the child
  g_latest = nullptr;
  delete g_cupy;
  g_cupy = nullptr;
  // The worker did not come along; the source (the child's copy of the
  // program's Python) still works, asked through a new worker.
  g_worker_running = false;
  g_requested = g_answered = 0;
  g_wake = nullptr;  // the parent's may be mid-notify: leaked, never reused
}

void set_source(void (*fn)()) {
  std::lock_guard lock(g_mutex);
  g_source = fn;
}

}  // namespace cudaleak::python_view

using namespace cudaleak;

// Called from Python (ctypes): the function that sends a fresh view, or null.
extern "C" __attribute__((visibility("default"))) int cudaleak_impl_python_view_source(void (*fn)()) {
  if (!tracking_enabled() && fn) return -1;
  python_view::set_source(fn);
  return 0;
}

// Called from Python (ctypes) with the GIL held; returns 0 when taken.
extern "C" __attribute__((visibility("default"))) int cudaleak_impl_python_view(const char* json, const char* when) {
  if (!json || !when || !tracking_enabled()) return -1;
  try {
    if (std::strcmp(when, "armed") == 0) {
      oom::attach_pytorch_observer();
      return 0;
    }
    report::PyTorchOom info;
    report::PyTorchView view = report::pytorch_view_from_json(json, &info);
    view.when = when;
    python_view::keep(view);
    if (std::strcmp(when, "oom") == 0) {
      const report::AllocatorDevice* device = view.device(info.device);
      report::AllocatorDevice empty;
      empty.device = info.device;
      oom::record_pytorch(device ? *device : empty, info.request);
    }
    return 0;
  } catch (const std::exception& e) {
    log_message("a PyTorch view could not be read: %s", e.what());
    return -1;
  }
}

// Called from Python (ctypes) with the GIL held; returns 0 when taken.
extern "C" __attribute__((visibility("default"))) int cudaleak_impl_cupy_view(const char* json, const char* when) {
  if (!json || !when || !tracking_enabled()) return -1;
  try {
    report::CupyPool pool = report::cupy_pool_from_json(json);
    pool.when = when;
    python_view::keep_cupy(pool);
    return 0;
  } catch (const std::exception& e) {
    log_message("CuPy pool numbers could not be read: %s", e.what());
    return -1;
  }
}
