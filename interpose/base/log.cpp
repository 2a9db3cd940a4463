#include "log.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>

#include "state.h"
#include "text_summary.h"

namespace cudaleak {

namespace {

std::atomic<int> g_log_fd{-1};
std::atomic<pid_t> g_log_pid{0};   // the process g_log_fd was opened for
std::atomic<pid_t> g_opening{0};   // the process whose thread is opening it

// stderr, stdout, or log_path.PID of this process. A forked child opens its
// own file and closes its copy of the parent's. One thread opens it; a lock
// left set by the parent (taken when it forked) is stale in the child.
int text_fd() {
  const std::string& path = options().log_path;
  if (path.empty() || path == "stderr") return STDERR_FILENO;
  if (path == "stdout") return STDOUT_FILENO;
  pid_t pid = getpid();
  if (g_log_pid.load(std::memory_order_acquire) == pid) return g_log_fd.load(std::memory_order_acquire);
  for (;;) {
    pid_t holder = g_opening.load(std::memory_order_acquire);
    if (holder == pid) {
      sched_yield();
      continue;
    }
    if (g_opening.compare_exchange_weak(holder, pid, std::memory_order_acq_rel)) break;
  }
  if (g_log_pid.load(std::memory_order_acquire) != pid) {
    char name[4096];
    std::snprintf(name, sizeof name, "%s.%d", path.c_str(), int(pid));
    int fd = open(name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) fd = STDERR_FILENO;  // cudaleak's text is never lost: stderr then
    int inherited = g_log_fd.exchange(fd, std::memory_order_acq_rel);
    if (inherited > STDERR_FILENO) close(inherited);
    g_log_pid.store(pid, std::memory_order_release);
  }
  int fd = g_log_fd.load(std::memory_order_acquire);
  g_opening.store(0, std::memory_order_release);
  return fd;
}

void write_all(int fd, const char* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += size_t(n);
  }
}

void vlog(const char* format, va_list args) {
  int saved = errno;
  char buf[1024];
  int n = std::snprintf(buf, sizeof buf, "cudaleak: ");
  n += std::vsnprintf(buf + n, sizeof buf - size_t(n), format, args);
  if (n >= int(sizeof buf) - 1) n = int(sizeof buf) - 2;
  buf[n++] = '\n';
  write_all(text_fd(), buf, size_t(n));
  errno = saved;
}

}  // namespace

void log_message(const char* format, ...) {
  va_list args;
  va_start(args, format);
  vlog(format, args);
  va_end(args);
}

void log_verbose(const char* format, ...) {
  if (!options().verbose) return;
  va_list args;
  va_start(args, format);
  vlog(format, args);
  va_end(args);
}

void write_text(const char* data, size_t size) {
  int saved = errno;
  write_all(text_fd(), data, size);
  errno = saved;
}

bool text_in_color() { return report::color_wanted(options().color, text_fd()); }

}  // namespace cudaleak
