#include "interpose/base/log.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "interpose/base/options_in_effect.h"
#include "common/tty_color.h"

namespace cudaleak {

namespace {

// The stderr the process started with: a duplicate of fd 2 taken at start-up
// (keep_stderr), far above the numbers a program reuses, and what it was. A
// program that closes fd 2 and opens a data file there does not get
// cudaleak's text in that file.
constexpr int kStderrCopyMin = 100;
std::atomic<int> g_stderr{STDERR_FILENO};
dev_t g_stderr_dev = 0;
ino_t g_stderr_ino = 0;

// Whether `fd` is still the stderr the process started with.
bool is_first_stderr(int fd) {
  struct stat st;
  return fstat(fd, &st) == 0 && st.st_dev == g_stderr_dev && st.st_ino == g_stderr_ino;
}

// The start's stderr: the copy, or fd 2 itself where the program closed the
// copy but left fd 2 alone; -1 when neither is that file any more.
int stderr_fd() {
  int copy = g_stderr.load(std::memory_order_acquire);
  if (copy == STDERR_FILENO || is_first_stderr(copy)) return copy;  // STDERR_FILENO: not taken (yet)
  return copy >= 0 && is_first_stderr(STDERR_FILENO) ? STDERR_FILENO : -1;
}

std::atomic<int> g_log_fd{-1};
std::atomic<pid_t> g_log_pid{0};  // the process g_log_fd was opened for
std::atomic<pid_t> g_opening{0};  // the process whose thread is opening it

// stderr, stdout, or log_path.PID of this process. A forked child opens its
// own file and closes its copy of the parent's. One thread opens it; a lock
// left set by the parent (taken when it forked) is stale in the child.
int text_fd() {
  const std::string& path = options().log_path;
  if (path.empty() || path == "stderr") return stderr_fd();
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
    if (fd < 0) {
      // cudaleak's text is never lost: stderr then, and said so once per process.
      int err = errno;
      fd = stderr_fd();
      char line[4200];
      int n = std::snprintf(line, sizeof line, "cudaleak: cannot open log_path %s: %s; writing to stderr instead\n",
                            name, std::strerror(err));
      if (fd >= 0 && n > 0) (void)!write(fd, line, std::min<size_t>(size_t(n), sizeof line - 1));
    }
    int inherited = g_log_fd.exchange(fd, std::memory_order_acq_rel);
    if (inherited > STDERR_FILENO && inherited != g_stderr.load()) close(inherited);  // never the stderr copy
    g_log_pid.store(pid, std::memory_order_release);
  }
  int fd = g_log_fd.load(std::memory_order_acquire);
  g_opening.store(0, std::memory_order_release);
  return fd;
}

void write_all(int fd, const char* data, size_t size) {
  if (fd < 0) return;  // stderr closed, and nothing else to write to
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

void keep_stderr() {
  struct stat st {};
  int copy = fstat(STDERR_FILENO, &st) == 0 ? fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, kStderrCopyMin) : -1;
  if (copy < 0 && errno == EINVAL) copy = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);  // low fd limit
  g_stderr_dev = st.st_dev;
  g_stderr_ino = st.st_ino;
  g_stderr.store(copy, std::memory_order_release);  // -1: the process started without stderr
}

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

bool text_in_color() { return color_wanted(options().color, text_fd()); }

}  // namespace cudaleak
