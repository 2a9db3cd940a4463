#include "interpose/base/own_threads.h"
#include "interpose/runtime/live_server.h"

#include <pthread.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>

#include "interpose/base/log.h"
#include "interpose/pyframes/python_frames.h"
#include "interpose/runtime/line_growth.h"
#include "interpose/runtime/reporter.h"
#include "interpose/runtime/runtime.h"
#include "interpose/track/tracker.h"
#include "report/write/in_process.h"

namespace cudaleak::live_server {

namespace {

std::atomic<bool> g_started{false};
std::atomic<int> g_listening{-1};
constexpr size_t kGroupsSent = 40;  // the biggest live groups in a frame
constexpr int kViewWaitMs = 2000;   // the longest a frame waits for a fresh view

int listen_socket() {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  // Abstract: no file to clean up after a crash, and `top` finds it by pid.
  const int n = std::snprintf(address.sun_path + 1, sizeof address.sun_path - 1, "%s%d", kSocketPrefix, int(getpid()));
  const socklen_t length = socklen_t(offsetof(sockaddr_un, sun_path) + 1 + size_t(n));
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), length) != 0 || listen(fd, 4) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Only the process's own user (or root) may read its stacks.
bool same_user(int fd) {
  ucred peer{};
  socklen_t length = sizeof peer;
  return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &length) == 0 && (peer.uid == getuid() || peer.uid == 0);
}

void answer(int fd) {
  timeval limit{2, 0};  // a client that stops reading never holds the thread
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
  char request[16] = {};
  const ssize_t n = recv(fd, request, sizeof request - 1, 0);
  if (n < 5 || std::strncmp(request, "frame", 5) != 0) return;
  std::string text;
  try {
    text = frame_json();
  } catch (...) {
    return;  // never the program's problem
  }
  for (size_t sent = 0; sent < text.size();) {
    const ssize_t w = send(fd, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (w <= 0) {
      if (w < 0 && errno == EINTR) continue;
      return;
    }
    sent += size_t(w);
  }
}

void* serve(void*) {
  note_own_thread();
  while (true) {
    const int listening = g_listening.load();
    if (listening < 0) return nullptr;
    const int fd = accept4(listening, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EBADF || errno == EINVAL || errno == ENOTSOCK) return nullptr;
      const timespec pause{0, 100'000'000};  // out of descriptors: wait for the program to free some
      nanosleep(&pause, nullptr);
      continue;
    }
    if (same_user(fd)) answer(fd);
    close(fd);
  }
}

}  // namespace

std::string frame_json() {
  // Someone watches: a fresh view from the program (on cudaleak's own
  // thread), so that its lines' growth is followed while they do. Bounded:
  // a frame never waits long for a program that holds the GIL.
  runtime().python_view.refresh(kViewWaitMs);
  std::lock_guard serial(runtime().reports.mutex);  // one at a time with reports: they share the symbolizer
  tracker::StacksHeld held;
  report::Capture c;
  c.snapshot = tracker::snapshot();
  c.stacks = tracker::held_stack;
  c.resolver = make_frame_resolver();
  c.symbolized = options().symbolize;
  c.reason = report::Reason::Signal;
  c.tool_version = CUDALEAK_VERSION;
  c.timestamp = std::time(nullptr);
  c.process = report::this_process();
  c.process.start_unix_ns = tracker::start_unix_ns();
  c.process.run_id = tracker::run_id();
  c.timeline = tracker::timeline(&c.timeline_sites);
  for (auto& [device, sites] : tracker::site_growth())
    for (report::DeviceTimeline& d : c.timeline.devices)
      if (d.device == device) d.growth = std::move(sites);
  c.duration_ns = tracker::elapsed_ns();
  if (report::PyTorchView view; runtime().python_view.latest(view)) c.pytorch = std::move(view);
  return report::live_frame_json(std::move(c), kGroupsSent, [](report::Report& r) {
    line_growth::merge_into(r.timeline, runtime().python_view.line_growth());
  });
}

void start() {
  if (!options().live || g_started.exchange(true)) return;
  const int fd = listen_socket();
  if (fd < 0) return;  // the name taken (another process of this pid's namespace): no live view
  g_listening = fd;
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);  // signals stay the program's threads' business
  pthread_t thread;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  const bool started = pthread_create(&thread, &attr, serve, nullptr) == 0;
  if (started) name_own_thread(thread, "cudaleak-live");
  pthread_attr_destroy(&attr);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (!started) {
    g_listening = -1;
    close(fd);
  }
}

void reset_in_child() {
  const int fd = g_listening.exchange(-1);
  if (fd >= 0) close(fd);  // the parent's: its name stays the parent's
  g_started = false;
}

}  // namespace cudaleak::live_server
