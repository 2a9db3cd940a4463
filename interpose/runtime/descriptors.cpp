#include "interpose/runtime/descriptors.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

namespace cudaleak::descriptors {

namespace {

constexpr rlim_t kExtra = 64;

// The reserved descriptor and what it names; -1 when none is held.
std::atomic<int> g_fd{-1};
dev_t g_dev = 0;
ino_t g_ino = 0;

// The system call, not glibc's memfd_create (2.27): the preload runs on older glibc too.
int anonymous_file() { return int(syscall(SYS_memfd_create, "cudaleak-reserved-descriptor", 1u /* MFD_CLOEXEC */)); }

void release() {
  const int fd = g_fd.exchange(-1);
  struct stat st;
  if (fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == g_dev && st.st_ino == g_ino) close(fd);
}

bool raise_limit(rlimit& old) {
  if (getrlimit(RLIMIT_NOFILE, &old) != 0 || old.rlim_cur == RLIM_INFINITY) return false;
  rlimit wider = old;
  wider.rlim_cur = old.rlim_cur + kExtra;
  if (old.rlim_max != RLIM_INFINITY && wider.rlim_cur > old.rlim_max) {
    wider.rlim_max = wider.rlim_cur;  // past the hard limit: only with CAP_SYS_RESOURCE
    if (setrlimit(RLIMIT_NOFILE, &wider) == 0) return true;
    wider.rlim_cur = wider.rlim_max = old.rlim_max;
    if (wider.rlim_cur == old.rlim_cur) return false;
  }
  return setrlimit(RLIMIT_NOFILE, &wider) == 0;
}

}  // namespace

void reserve() {
  if (g_fd.load() >= 0) return;
  const int saved = errno;
  int fd = anonymous_file();
  rlimit limit;
  if (fd >= 0 && getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur > 4 &&
      rlim_t(fd) < limit.rlim_cur - 1) {
    // At the top, where the program's next open would come last, if ever.
    const int high = fcntl(fd, F_DUPFD_CLOEXEC, int(limit.rlim_cur - 1));
    if (high >= 0) close(fd), fd = high;
  }
  struct stat st;
  if (fd >= 0 && fstat(fd, &st) == 0) {
    g_dev = st.st_dev;
    g_ino = st.st_ino;
    g_fd.store(fd);
  } else if (fd >= 0) {
    close(fd);
  }
  errno = saved;
}

Headroom::Headroom() {
  const int saved = errno;
  raised_ = raise_limit(old_);
  released_ = g_fd.load() >= 0;
  if (released_) release();
  errno = saved;
}

Headroom::~Headroom() {
  const int saved = errno;
  if (raised_) setrlimit(RLIMIT_NOFILE, &old_);
  if (released_) reserve();
  errno = saved;
}

}  // namespace cudaleak::descriptors
