#include "interpose/base/entry_frame.h"
#include "interpose/runtime/lifecycle.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "interpose/runtime/fork_protocol.h"
#include "interpose/runtime/descriptors.h"
#include "interpose/runtime/launcher_files.h"
#include "common/safe_output.h"
#include "interpose/base/log.h"
#include "interpose/base/phase_timer.h"
#include "interpose/runtime/runtime.h"
#include "interpose/runtime/reporter.h"
#include "interpose/runtime/signals.h"
#include "interpose/runtime/device_heap.h"
#include "interpose/base/real_dlsym.h"
#include "interpose/track/tracker.h"

namespace cudaleak {

namespace {

using State = LifecycleState;

// trace_children=false: programs this process execs do not load cudaleak.
void stop_tracing_children() {
  Dl_info self{};
  const char* preload = std::getenv("LD_PRELOAD");
  if (!preload || !dladdr(reinterpret_cast<void*>(&stop_tracing_children), &self) || !self.dli_fname) return;
  std::string own = self.dli_fname, kept, entry;
  std::string list = preload;
  for (char& c : list)
    if (c == ' ') c = ':';
  std::stringstream in(list);
  while (std::getline(in, entry, ':')) {
    if (entry.empty() || entry == own || entry.ends_with("/" + own.substr(own.rfind('/') + 1))) continue;
    kept += (kept.empty() ? "" : ":") + entry;
  }
  if (kept.empty()) unsetenv("LD_PRELOAD");
  else setenv("LD_PRELOAD", kept.c_str(), 1);
}

// A process that uses CUDA will write a report: it keeps a descriptor for it
// from now on, and tells the launcher it is one of the run's.
void on_first_cuda_use() {
  descriptors::reserve();
  launcher_files::mark_cuda_use();
}

void initialize() {
  keep_stderr();
  Options& options = runtime().options;  // the runtime object is built here, before any hook records
  if (const char* text = std::getenv("CUDALEAK_OPTIONS")) {
    for (const OptionProblem& problem : parse_options(text, options)) {
      log_message("CUDALEAK_OPTIONS: %s (ignored; see `cudaleak options`)", problem.message.c_str());
      if (is_gate_option(problem.key)) runtime().gate.refuse(problem);
    }
  }
  real_dlsym();
  detail::g_process_id.store(getpid(), std::memory_order_relaxed);
  safe_output::mark_run_start();
  launcher_files::forget_replaced_image();
  set_first_cuda_use_observer(on_first_cuda_use);
  if (!options.trace_children) stop_tracing_children();
  signals::install();
  tracker::set_creation_observer(signals::ensure_reporter_thread);
  tracker::configure_growth(uint64_t(std::max(options.growth_interval_ms, 0)) * 1'000'000);
  runtime().python_view.configure_lines(uint64_t(std::max(options.growth_interval_ms, 0)) * 1'000'000);
  runtime().python_view.set_interval(std::max(options.view_interval_ms, 0));
  tracker::configure_stack_collection(size_t(options.stack_collect_at), [](std::vector<uint32_t>& out) {
    runtime().oom.stack_ids(out);
    runtime().growth.stack_ids(out);
    device_heap::stack_ids(out);
  });
#if defined(CUDALEAK_PHASE_TIMING) && defined(__x86_64__)
  phase_timing::name_hooks([](int id) { return hook_name(HookId(id)); });
#endif
  // The run's memory budget is a window from the start: the sites that grow
  // past it are recorded as they do (runtime/budgets.h).
  if (options.limit_memory > 0) tracker::begin_window(uint64_t(options.limit_memory));
  fork_protocol::install();
  device_heap::start();  // before the program's first context: the Sanitizer API subscribes now
  if (options.verbose) log_message("preloaded; options in effect:\n%s", describe_options(options).c_str());
}

}  // namespace

void initialize_once() {
  auto& state = lifecycle_state();
  State expected = State::Uninitialized;
  if (!state.compare_exchange_strong(expected, State::Initializing)) {
    // Another thread initialises; hooks pass through until it is done.
    return;
  }
  try {
    initialize();
    state.store(State::Enabled, std::memory_order_release);
  } catch (...) {
    state.store(State::Disabled, std::memory_order_release);
    log_message("initialisation failed; CUDA calls pass through untracked");
  }
}

void lifecycle_after_fork_in_child() {
  // The child reports only if it uses CUDA itself (docs/usage.md#children).
  forget_cuda_seen();
  if (!options().trace_children) {
    // Not traced: the child neither records nor reports, and takes no signal.
    lifecycle_state().store(State::Untraced, std::memory_order_release);
    signals::release_crash_signals();
  }
  detail::g_process_id.store(getpid(), std::memory_order_relaxed);
}

void exit_now(int status) {
  // What glibc's _exit does; not through the symbol, which is cudaleak's own (process_exit.cpp).
  for (;;) {
    syscall(SYS_exit_group, status);
    syscall(SYS_exit, status);
  }
}

bool in_own_process() { return syscall(SYS_getpid) == detail::g_process_id.load(std::memory_order_relaxed); }

int finish_process() {
  signals::wait_if_terminating();
  auto& state = lifecycle_state();
  LifecycleState expected = LifecycleState::Enabled;
  if (!state.compare_exchange_strong(expected, LifecycleState::Stopping)) {
    if (expected != LifecycleState::Disabled) return -1;  // already finishing, or untraced
  }
  int status = finish_at_exit();
  state.store(LifecycleState::Disabled, std::memory_order_release);
  return status;
}

}  // namespace cudaleak

__attribute__((constructor)) static void cudaleak_start() { cudaleak::ensure_initialized(); }

// Runs after atexit handlers and after the destructors of every library loaded
// after this one, so shutdown-time frees have happened. No CUDA calls here.
__attribute__((destructor)) static void cudaleak_finish() {
  CUDALEAK_ENTRY_FRAME;
  int status = cudaleak::finish_process();
  if (status >= 0) {
    // The leak gate decided (error_exitcode): flush what the program wrote, then end with that status.
    std::fflush(nullptr);
    cudaleak::exit_now(status);
  }
}
