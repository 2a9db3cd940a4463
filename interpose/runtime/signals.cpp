#include "interpose/base/own_threads.h"
#include "interpose/runtime/signals.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <time.h>

#include <atomic>
#include <csignal>

#include "interpose/runtime/crash_capture.h"
#include "interpose/runtime/live_server.h"
#include "interpose/base/log.h"
#include "interpose/base/state.h"
#include "interpose/runtime/reporter.h"
#include "interpose/base/hot_path.h"
#include "interpose/base/inside_hook.h"

namespace cudaleak::signals {

namespace {

// The pipe carries one byte per request: kSnapshot, or the number of a
// termination signal to report and then die of.
constexpr char kSnapshot = 0;
int g_pipe[2] = {-1, -1};
std::atomic<bool> g_thread_started{false};
std::atomic<bool> g_termination_handlers{false};
int g_report_signal = 0;

constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr int kTerminationSignals[] = {SIGTERM, SIGINT, SIGHUP};
struct sigaction g_previous[NSIG];
std::atomic<bool> g_crashing{false};
std::atomic<bool> g_terminating{false};

void open_pipe() {
  if (pipe2(g_pipe, O_CLOEXEC) != 0) {
    g_pipe[0] = g_pipe[1] = -1;
    return;
  }
  fcntl(g_pipe[1], F_SETFL, O_NONBLOCK);  // a burst of signals must never block the handler
}

bool send(char byte) { return g_pipe[1] >= 0 && write(g_pipe[1], &byte, 1) == 1; }

void on_report_signal(int) {
  int saved = errno;
  send(kSnapshot);
  errno = saved;
}

// Death by `sig` with its default action, as without cudaleak.
void die_of(int sig) {
  signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  kill(getpid(), sig);
}

// How long a thread waits for the reporter to end the process: the final
// report of a large process takes seconds (symbolization).
constexpr int kTerminationWaitMs = 10000;

// Waits (async-signal-safe) while the reporter writes the termination report
// and then ends the process, so that the program does not go on running, or
// return from main with status 0, as if the signal had not come. Bounded: if
// the report needs a lock the waiting thread holds (a signal that came in the
// middle of a CUDA call), the wait ends and the report completes once the
// thread releases it.
void wait_for_the_end() {
  const timespec step{0, 10 * 1000 * 1000};
  for (int waited = 0; waited < kTerminationWaitMs; waited += 10) nanosleep(&step, nullptr);
}

// SIGTERM, SIGINT, SIGHUP where the program left the default: the reporter
// thread writes the final report, then the process dies of the same signal;
// the interrupted thread waits for that, in the handler, or, where the signal
// landed inside a hook that may hold a lock the report needs, once it leaves
// the hook (inside_hook.h). A second signal while it writes (or none to
// write) ends the process at once.
void on_termination(int sig) {
  int saved = errno;
  if (g_terminating.exchange(true) || !send(char(sig))) {
    signal(sig, SIG_DFL);
    raise(sig);  // blocked while this handler runs: delivered when it returns
  } else if (inside_hook()) {
    detail::g_wait_at_hook_exit.store(true, std::memory_order_relaxed);
  } else {
    wait_for_the_end();
  }
  errno = saved;
}

void* reporter_main(void*) {
  note_own_thread();
  int fd = g_pipe[0];
  char byte;
  while (true) {
    ssize_t n = read(fd, &byte, 1);
    if (n == 1 && byte == kSnapshot) {
      write_report(Reason::Signal);
    } else if (n == 1) {
      finish_on_termination(int(byte));
      die_of(int(byte));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;
    }
  }
  return nullptr;
}

void on_crash(int sig, siginfo_t* info, void* context) {
  // Only async-signal-safe work here (crash_capture.h); the full report is
  // built from the capture after the process has died.
  if (!g_crashing.exchange(true)) crash_capture::write(sig);
  // Hand the signal back exactly as it was before us.
  sigaction(sig, &g_previous[sig], nullptr);
  const struct sigaction& prev = g_previous[sig];
  if ((prev.sa_flags & SA_SIGINFO) && prev.sa_sigaction) {
    prev.sa_sigaction(sig, info, context);
  } else if (prev.sa_handler != SIG_DFL && prev.sa_handler != SIG_IGN) {
    prev.sa_handler(sig);
  } else if (info && info->si_code <= 0) {
    raise(sig);  // sent by kill/raise/abort: pending until we return, then fatal
  }
  // A fault (si_code > 0) recurs when the faulting instruction runs again.
}

bool is_default(int sig, struct sigaction* current) {
  return sigaction(sig, nullptr, current) == 0 && !(current->sa_flags & SA_SIGINFO) && current->sa_handler == SIG_DFL;
}

// Gives `sig` back its default action where cudaleak's handler is still the
// one in place (the program may have put its own since).
void give_back(int sig, void (*ours)(int)) {
  struct sigaction current;
  if (sigaction(sig, nullptr, &current) == 0 && !(current.sa_flags & SA_SIGINFO) && current.sa_handler == ours)
    signal(sig, SIG_DFL);
}

void install_report_signal() {
  struct sigaction current;
  if (g_report_signal <= 0 || !is_default(g_report_signal, &current)) return;
  struct sigaction sa {};
  sa.sa_handler = on_report_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(g_report_signal, &sa, nullptr);
}

void install_termination_handlers() {
  if (!options().termination_report || g_termination_handlers.exchange(true)) return;
  for (int sig : kTerminationSignals) {
    struct sigaction current;
    if (!is_default(sig, &current)) continue;  // the program handles (or ignores) it
    struct sigaction sa {};
    sa.sa_handler = on_termination;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(sig, &sa, nullptr);
  }
}

// A stack overflow leaves no stack to run the crash handler on: the thread
// that loads cudaleak (the main thread) gets an alternate signal stack, unless
// the program gave it one. Never freed: a handler may run on it until exit.
void give_alternate_stack() {
  stack_t current{};
  if (sigaltstack(nullptr, &current) != 0 || !(current.ss_flags & SS_DISABLE)) return;
  constexpr size_t kSize = 256 * 1024;  // the crash writer's frames, with room to spare
  const size_t guard = size_t(sysconf(_SC_PAGESIZE));
  void* memory = mmap(nullptr, kSize + guard, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (memory == MAP_FAILED) return;
  // A page below it that faults, so that overflowing it never writes over
  // whatever is mapped next.
  mprotect(memory, guard, PROT_NONE);
  stack_t ours{};
  ours.ss_sp = static_cast<char*>(memory) + guard;
  ours.ss_size = kSize;
  if (sigaltstack(&ours, nullptr) != 0) munmap(memory, kSize + guard);
}

}  // namespace

void install() {
  open_pipe();
  live_server::reset_in_child();
  crash_capture::prepare();
  g_report_signal = signal_from_name(options().report_signal);
  if (options().crash_report) {
    give_alternate_stack();
    for (int sig : kCrashSignals) {
      if (!is_default(sig, &g_previous[sig])) continue;
      struct sigaction sa {};
      sa.sa_sigaction = on_crash;
      sigemptyset(&sa.sa_mask);
      sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigaction(sig, &sa, nullptr);
    }
  }
}

namespace {
__attribute__((noinline, cold)) void start_reporter_thread() {
  live_server::start();  // once; its own thread, whatever the signals' settings
  if (g_report_signal <= 0 && !options().termination_report) return;
  if (g_thread_started.exchange(true)) return;
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);  // the thread inherits a mask that blocks everything
  pthread_t thread;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  bool started = pthread_create(&thread, &attr, reporter_main, nullptr) == 0;
  if (started) name_own_thread(thread, "cudaleak-report");
  pthread_attr_destroy(&attr);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (!started) {
    log_message("could not start the reporter thread; snapshot and termination reports disabled");
    return;
  }
  // Installed only now, once the process uses CUDA: an interpreter that sets
  // its own SIGINT handler at start-up (Python's KeyboardInterrupt) installs it
  // only over the default, so cudaleak must not be there first; and a process
  // that never uses CUDA (`sleep`, a shell) keeps every default action, so
  // SIGUSR1 still ends it.
  install_report_signal();
  install_termination_handlers();
}
}  // namespace

// Every tracked creation asks: the check beside the record path's code, the
// start in the cold part of the library.
CUDALEAK_HOT_PATH void ensure_reporter_thread() {
  if (g_thread_started.load(std::memory_order_acquire) || g_pipe[0] < 0) return;
  start_reporter_thread();
}

void wait_if_terminating() {
  if (g_terminating.load()) wait_for_the_end();
}

}  // namespace cudaleak::signals

namespace cudaleak::detail {
void wait_at_hook_exit() { signals::wait_if_terminating(); }
}  // namespace cudaleak::detail

namespace cudaleak::signals {

void reset_in_child() {
  // The pipe is shared with the parent: a signal to the child must not wake
  // the parent's reporter. The child gets its own pipe and, lazily, its own thread.
  if (g_pipe[0] >= 0) close(g_pipe[0]);
  if (g_pipe[1] >= 0) close(g_pipe[1]);
  open_pipe();
  live_server::reset_in_child();
  crash_capture::prepare();
  g_thread_started = false;
  g_crashing = false;
  g_terminating = false;
  detail::g_wait_at_hook_exit = false;
  // Taken again only if the child uses CUDA itself (ensure_reporter_thread).
  if (g_report_signal > 0) give_back(g_report_signal, on_report_signal);
  if (g_termination_handlers.exchange(false))
    for (int sig : kTerminationSignals) give_back(sig, on_termination);
}

void release_crash_signals() {
  for (int sig : kCrashSignals) {
    struct sigaction current;
    if (sigaction(sig, nullptr, &current) == 0 && (current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_crash)
      sigaction(sig, &g_previous[sig], nullptr);
  }
}

}  // namespace cudaleak::signals
