#include "signals.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <csignal>

#include "lifecycle.h"
#include "log.h"
#include "reporter.h"

namespace cudaleak::signals {

namespace {

int g_pipe[2] = {-1, -1};
std::atomic<bool> g_thread_started{false};
int g_report_signal = 0;

constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction g_previous[NSIG];
std::atomic<bool> g_crashing{false};

void open_pipe() {
  if (pipe2(g_pipe, O_CLOEXEC) != 0) {
    g_pipe[0] = g_pipe[1] = -1;
    return;
  }
  fcntl(g_pipe[1], F_SETFL, O_NONBLOCK);  // a burst of signals must never block the handler
}

void on_report_signal(int) {
  int saved = errno;
  char byte = 1;
  if (g_pipe[1] >= 0) {
    ssize_t ignored = write(g_pipe[1], &byte, 1);
    (void)ignored;
  }
  errno = saved;
}

void* reporter_main(void*) {
  int fd = g_pipe[0];
  char byte;
  while (true) {
    ssize_t n = read(fd, &byte, 1);
    if (n == 1) write_report(Reason::Signal);
    else if (n < 0 && errno == EINTR) continue;
    else break;
  }
  return nullptr;
}

void on_crash(int sig, siginfo_t* info, void* context) {
  if (!g_crashing.exchange(true)) write_report(Reason::Crash);
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
  return sigaction(sig, nullptr, current) == 0 && !(current->sa_flags & SA_SIGINFO) &&
         current->sa_handler == SIG_DFL;
}

}  // namespace

void install() {
  open_pipe();
  g_report_signal = signal_from_name(options().report_signal);
  struct sigaction current;
  if (g_report_signal > 0 && g_pipe[0] >= 0 && is_default(g_report_signal, &current)) {
    struct sigaction sa{};
    sa.sa_handler = on_report_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(g_report_signal, &sa, nullptr);
  }
  if (options().crash_report) {
    for (int sig : kCrashSignals) {
      if (!is_default(sig, &g_previous[sig])) continue;
      struct sigaction sa{};
      sa.sa_sigaction = on_crash;
      sigemptyset(&sa.sa_mask);
      sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigaction(sig, &sa, nullptr);
    }
  }
}

void ensure_reporter_thread() {
  if (g_thread_started.load(std::memory_order_acquire) || g_report_signal <= 0 || g_pipe[0] < 0) return;
  if (g_thread_started.exchange(true)) return;
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);  // the thread inherits a mask that blocks everything
  pthread_t thread;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  if (pthread_create(&thread, &attr, reporter_main, nullptr) != 0)
    log_message("could not start the reporter thread; snapshot signal disabled");
  pthread_attr_destroy(&attr);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

void reset_in_child() {
  // The pipe is shared with the parent: a signal to the child must not wake
  // the parent's reporter. The child gets its own pipe and, lazily, its own thread.
  if (g_pipe[0] >= 0) close(g_pipe[0]);
  if (g_pipe[1] >= 0) close(g_pipe[1]);
  open_pipe();
  g_thread_started = false;
  g_crashing = false;
}

}  // namespace cudaleak::signals
