#include "report/cli/live_client.h"

#include <dlfcn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "report/model/json_io.h"

namespace cudaleak::cli {

namespace {
constexpr const char* kPrefix = "@cudaleak-live.";  // as /proc/net/unix writes the abstract name
}

std::vector<int> live_pids() {
  std::vector<int> pids;
  std::ifstream table("/proc/net/unix");
  std::string line;
  while (std::getline(table, line)) {
    const auto at = line.find(kPrefix);
    if (at == std::string::npos) continue;
    const int pid = std::atoi(line.c_str() + at + std::strlen(kPrefix));
    if (pid > 0 && std::find(pids.begin(), pids.end(), pid) == pids.end()) pids.push_back(pid);
  }
  std::sort(pids.begin(), pids.end());
  return pids;
}

render::LiveProcess fetch_frame(int pid) {
  render::LiveProcess p;
  p.pid = pid;
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return p.problem = "cannot make a socket", p;
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const int n = std::snprintf(address.sun_path + 1, sizeof address.sun_path - 1, "cudaleak-live.%d", pid);
  const socklen_t length = socklen_t(offsetof(sockaddr_un, sun_path) + 1 + size_t(n));
  timeval limit{10, 0};  // a big process symbolizes its first frame for a while
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), length) != 0) {
    close(fd);
    p.problem = "not served (not under cudaleak, live=false, not yet using CUDA, or ended)";
    return p;
  }
  std::string text;
  if (send(fd, "frame\n", 6, MSG_NOSIGNAL) == 6) {
    char buffer[65536];
    ssize_t got;
    while ((got = recv(fd, buffer, sizeof buffer, 0)) > 0) text.append(buffer, size_t(got));
  }
  close(fd);
  if (text.empty()) return p.problem = "no answer (another user's process?)", p;
  try {
    p.frame = report::from_json(text);
  } catch (const std::exception& e) {
    p.problem = std::string("unreadable frame: ") + e.what();
  }
  return p;
}

namespace {
using Return = int;
struct Memory {
  unsigned long long total, free, used;
};
struct ProcessInfo {
  unsigned int pid;
  unsigned long long used;
  unsigned int gpu_instance, compute_instance;
};
}  // namespace

std::vector<render::GpuUsage> gpu_usage() {
  static void* nvml = [] {
    void* h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    auto init = h ? reinterpret_cast<Return (*)()>(dlsym(h, "nvmlInit_v2")) : nullptr;
    return init && init() == 0 ? h : nullptr;
  }();
  std::vector<render::GpuUsage> out;
  if (!nvml) return out;
  auto count_of = reinterpret_cast<Return (*)(unsigned*)>(dlsym(nvml, "nvmlDeviceGetCount_v2"));
  auto handle_of = reinterpret_cast<Return (*)(unsigned, void**)>(dlsym(nvml, "nvmlDeviceGetHandleByIndex_v2"));
  auto memory_of = reinterpret_cast<Return (*)(void*, Memory*)>(dlsym(nvml, "nvmlDeviceGetMemoryInfo"));
  auto processes_of = reinterpret_cast<Return (*)(void*, unsigned*, ProcessInfo*)>(
      dlsym(nvml, "nvmlDeviceGetComputeRunningProcesses_v3"));
  unsigned count = 0;
  if (!count_of || !handle_of || !memory_of || count_of(&count) != 0) return out;
  for (unsigned i = 0; i < count && i < 64; ++i) {
    void* device = nullptr;
    Memory memory{};
    if (handle_of(i, &device) != 0 || memory_of(device, &memory) != 0) continue;
    render::GpuUsage& gpu = out.emplace_back();
    gpu.index = int(i);
    gpu.total = memory.total;
    gpu.used = memory.used;
    ProcessInfo infos[64];
    unsigned n = 64;
    if (processes_of && processes_of(device, &n, infos) == 0)
      for (unsigned k = 0; k < n && k < 64; ++k) gpu.processes.emplace_back(int(infos[k].pid), infos[k].used);
  }
  return out;
}

}  // namespace cudaleak::cli
