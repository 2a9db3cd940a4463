// PyTorch's view of its allocator, sent by cudaleak_torch.py from inside the
// program (interpose/python/site) through the exported
// cudaleak_impl_python_view(json, when):
//   when "armed"  PyTorch records its allocator state and its out-of-memory
//                 observer is attached (json unused);
//   when "oom"    PyTorch is about to raise OutOfMemoryError: json holds the
//                 view and the request; an OOM event is recorded and reported;
//   when "exit" or "snapshot": json holds the view for the next report;
// cudaleak_impl_jax_view(json, when) does the same for JAX (cudaleak_jax.py:
// "armed" once the program imported jax, "oom" when XLA raised
// RESOURCE_EXHAUSTED, "exit", "snapshot");
// and cudaleak_impl_python_view_source(fn): a function of the program
// (a ctypes callback) that sends a fresh "snapshot" view when called, or null
// to withdraw it (at the program's exit).
// The views are part of the runtime object (runtime.h); the calls are in
// python_view_entries.cpp.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <map>
#include <optional>
#include <vector>

#include "interpose/runtime/line_growth.h"
#include "report/model/report.h"

namespace cudaleak::python_view {

class Views {
 public:
  void keep(const report::PyTorchView& view);
  // The latest view; false when none came.
  bool latest(report::PyTorchView& out);
  // CuPy's pool numbers (cudaleak_impl_cupy_view, sent by cudaleak_cupy.py
  // at exit); false when none came.
  void keep_cupy(const report::CupyPool& pool);
  bool latest_cupy(report::CupyPool& out);
  // JAX's view (cudaleak_impl_jax_view, sent by cudaleak_jax.py at XLA's
  // out-of-memory, at exit and at snapshots); false when none came.
  void keep_jax(const report::JaxView& view);
  bool latest_jax(report::JaxView& out);
  // Asks the program for a fresh view (signal snapshots and reports asked for
  // by the program, where Python can run) and waits for it at most 10 s the
  // first time and 2 s after: the program's source runs on a thread of its
  // own, which takes the GIL like any Python thread, so a program that holds
  // the GIL (or hangs) gets its report with the latest view instead of a
  // wait. True when a fresh view came in time.
  // `limit_ms` (0: none) bounds the wait further.
  bool refresh(int limit_ms = 0);
  void set_source(void (*fn)());
  // Asks the program's source for a fresh view every `ms` milliseconds too
  // (view_interval_ms; 0: only when a report or `top` asks), from the same
  // thread of cudaleak's own, which starts with the source.
  void set_interval(int ms);
  // Each view kept is also an observation of its lines (line_growth.h):
  // their histories, per device, ready for a report's timeline.
  void configure_lines(uint64_t interval_ns);
  std::map<int, std::vector<report::SiteGrowth>> line_growth();

  std::mutex& mutex() { return mutex_; }  // for the fork protocol
  void reset_in_child();

 private:
  static void* source_worker(void* self);
  bool start_worker();  // with mutex_ held

  std::mutex mutex_;  // guards everything below
  std::optional<report::PyTorchView> latest_;
  std::optional<report::CupyPool> cupy_;
  std::optional<report::JaxView> jax_;
  void (*source_)() = nullptr;
  // The thread that calls the source: asked by `requested_`, answered by
  // `answered_` (request numbers), so that a caller that gave up never
  // mistakes an old answer for its own. Never destroyed: the thread may
  // outlive exit handlers.
  std::condition_variable* wake_ = nullptr;
  bool worker_running_ = false;
  uint64_t requested_ = 0, answered_ = 0;
  int interval_ms_ = 0;
  line_growth::Lines lines_;
};

}  // namespace cudaleak::python_view
