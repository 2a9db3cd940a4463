#include "lifecycle.h"

#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "fork_protocol.h"
#include "io/safe_output.h"
#include "log.h"
#include "oom.h"
#include "reporter.h"
#include "signals.h"
#include "../hooks/dlsym_override.h"
#include "../track/tracker.h"

namespace cudaleak {

namespace {

enum class State : int { Uninitialized, Initializing, Enabled, Stopping, Disabled };
std::atomic<State> g_state{State::Uninitialized};
std::atomic<bool> g_cuda_seen{false};
std::atomic<bool> g_failure_logged{false};
// Built on first use: the library constructor can run before this file's
// static initialisers, and hooks can run after static destructors.
Options& mutable_options() {
  static Options* o = new Options();
  return *o;
}

// trace_children=false: programs this process execs do not load cudaleak.
void stop_tracing_children() {
  Dl_info self{};
  const char* preload = std::getenv("LD_PRELOAD");
  if (!preload || !dladdr(reinterpret_cast<void*>(&stop_tracing_children), &self) || !self.dli_fname) return;
  std::string own = self.dli_fname, kept, entry;
  std::string list = preload;
  for (char& c : list) if (c == ' ') c = ':';
  std::stringstream in(list);
  while (std::getline(in, entry, ':')) {
    if (entry.empty() || entry == own || entry.ends_with("/" + own.substr(own.rfind('/') + 1))) continue;
    kept += (kept.empty() ? "" : ":") + entry;
  }
  if (kept.empty()) unsetenv("LD_PRELOAD");
  else setenv("LD_PRELOAD", kept.c_str(), 1);
}

void initialize() {
  if (const char* text = std::getenv("CUDALEAK_OPTIONS")) {
    for (const std::string& problem : parse_options(text, mutable_options()))
      log_message("CUDALEAK_OPTIONS: %s (ignored; see `cudaleak run --help`)", problem.c_str());
  }
  real_dlsym();
  safe_output::mark_run_start();
  if (!mutable_options().trace_children) stop_tracing_children();
  signals::install();
  fork_protocol::install();
  if (mutable_options().verbose)
    log_message("preloaded; options in effect:\n%s", describe_options(mutable_options()).c_str());
}

}  // namespace

void ensure_initialized() {
  State s = g_state.load(std::memory_order_acquire);
  if (s != State::Uninitialized) return;
  State expected = State::Uninitialized;
  if (!g_state.compare_exchange_strong(expected, State::Initializing)) {
    // Another thread initialises; hooks pass through until it is done.
    return;
  }
  try {
    initialize();
    g_state.store(State::Enabled, std::memory_order_release);
  } catch (...) {
    g_state.store(State::Disabled, std::memory_order_release);
    log_message("initialisation failed; CUDA calls pass through untracked");
  }
}

bool tracking_enabled() { return g_state.load(std::memory_order_acquire) == State::Enabled; }
bool internal_failure_happened() { return g_failure_logged.load(); }
const Options& options() { return mutable_options(); }

void internal_failure(const char* what) {
  g_state.store(State::Disabled, std::memory_order_release);
  if (!g_failure_logged.exchange(true))
    log_message("internal error while %s; tracking stopped, CUDA calls pass through untouched", what);
}

void note_cuda_seen() { g_cuda_seen.store(true, std::memory_order_relaxed); }
bool cuda_seen() { return g_cuda_seen.load(std::memory_order_relaxed); }

void lifecycle_after_fork_in_child() {
  if (!options().trace_children) {
    // Not traced: the child neither records nor reports.
    g_state.store(State::Disabled, std::memory_order_release);
    g_cuda_seen.store(false);
  }
}

}  // namespace cudaleak

__attribute__((constructor)) static void cudaleak_start() { cudaleak::ensure_initialized(); }

// Runs after atexit handlers and after the destructors of every library loaded
// after this one, so shutdown-time frees have happened. No CUDA calls here.
__attribute__((destructor)) static void cudaleak_finish() {
  using namespace cudaleak;
  State expected = State::Enabled;
  if (!g_state.compare_exchange_strong(expected, State::Stopping)) {
    if (expected != State::Disabled) return;
  }
  int status = finish_at_exit();
  g_state.store(State::Disabled, std::memory_order_release);
  if (status >= 0) {
    // The leak gate decided (error_exitcode): flush what the program wrote, then end with that status.
    std::fflush(nullptr);
    _exit(status);
  }
}
