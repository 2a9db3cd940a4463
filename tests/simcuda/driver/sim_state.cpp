#include "tests/simcuda/driver/sim_state.h"

#include <pthread.h>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace simcuda {

namespace {
// The thread's context stack, as the driver keeps it: empty when a thread
// starts. Trivially destructible, as the driver's own: code that runs at exit
// (after the thread's thread_local objects are destroyed) may still use it.
constexpr size_t kMaxContextDepth = 64;
thread_local CUcontext t_contexts[kMaxContextDepth];
thread_local size_t t_depth = 0;
}  // namespace

size_t parse_size(const char* text, size_t fallback) {
  if (!text || !*text) return fallback;
  char* end = nullptr;
  double value = std::strtod(text, &end);
  // Plain decimals only: strtod would also take "0x10", "1e999", "inf" and "-1".
  if (end == text || std::strspn(text, "0123456789.") != size_t(end - text)) return fallback;
  std::string unit(end);
  size_t scale = 1;
  if (unit == "K" || unit == "KiB" || unit == "k") scale = size_t(1) << 10;
  else if (unit == "M" || unit == "MiB") scale = size_t(1) << 20;
  else if (unit == "G" || unit == "GiB") scale = size_t(1) << 30;
  else if (!unit.empty() && unit != "B") return fallback;
  return size_t(value * double(scale));
}

State& State::get() {
  static State* state = [] {
    auto* s = new State();  // never destroyed: entry points may run during exit
    // The simulated driver keeps working in a child of fork() (host memory), so
    // its lock must not be inherited held by a thread the child does not have.
    pthread_atfork([] { State::get().mutex.lock(); }, [] { State::get().mutex.unlock(); },
                   [] { State::get().mutex.unlock(); });
    return s;
  }();
  return *state;
}

State::State() {
  if (const char* n = std::getenv("CUDALEAK_SIM_DEVICES")) config.devices = std::max(1, std::atoi(n));
  config.memory_per_device = parse_size(std::getenv("CUDALEAK_SIM_MEMORY"), config.memory_per_device);
  if (const char* fail = std::getenv("CUDALEAK_SIM_FAIL")) {
    std::string spec(fail);
    auto first = spec.find(':');
    if (first != std::string::npos) {
      config.fail_api = spec.substr(0, first);
      auto second = spec.find(':', first + 1);
      config.fail_call = std::atol(spec.substr(first + 1, second - first - 1).c_str());
      if (second != std::string::npos) config.fail_code = CUresult(std::atoi(spec.c_str() + second + 1));
    }
  }
  // CUDALEAK_SIM_OTHER_PROCESS=pid:name:size[:device][,pid:name:size[:device]...]
  if (const char* others = std::getenv("CUDALEAK_SIM_OTHER_PROCESS")) {
    std::string list(others), item;
    for (size_t start = 0; start <= list.size();) {
      size_t end = list.find(',', start);
      if (end == std::string::npos) end = list.size();
      item = list.substr(start, end - start);
      start = end + 1;
      size_t a = item.find(':'), b = a == std::string::npos ? a : item.find(':', a + 1);
      if (b == std::string::npos) continue;
      size_t c = item.find(':', b + 1);
      OtherProcess o;
      o.pid = unsigned(std::atol(item.substr(0, a).c_str()));
      o.name = item.substr(a + 1, b - a - 1);
      o.bytes = parse_size(item.substr(b + 1, c == std::string::npos ? std::string::npos : c - b - 1).c_str(), 0);
      o.device = c == std::string::npos ? 0 : std::atoi(item.c_str() + c + 1);
      config.others.push_back(o);
    }
  }
  config.pool_cached = parse_size(std::getenv("CUDALEAK_SIM_POOL_CACHED"), 0);
  devices.resize(size_t(config.devices));
}

size_t State::others_on(int device) const {
  size_t total = 0;
  for (const auto& o : config.others)
    if (o.device == device) total += o.bytes;
  return total;
}

size_t State::limits_on(int device) const {
  size_t total = 0;
  for (const auto& [ctx, l] : limits)
    if (l.device == device)
      for (size_t r : l.reserved) total += r;
  return total;
}

size_t State::available(int device) const {
  size_t taken = devices[size_t(device)].used + others_on(device) + limits_on(device);
  return taken >= config.memory_per_device ? 0 : config.memory_per_device - taken;
}

bool State::should_fail(const char* api) {
  if (config.fail_api.empty() || config.fail_api != api) return false;
  std::lock_guard lock(mutex);
  return ++calls_[api] == config.fail_call;
}

CUresult State::allocate(int device, size_t bytes, CUcontext ctx, bool counted, void** out) {
  std::lock_guard lock(mutex);
  if (counted) {
    if (device < 0 || device >= int(devices.size())) return CUDA_ERROR_INVALID_DEVICE;
    if (bytes > available(device)) return CUDA_ERROR_OUT_OF_MEMORY;
  }
  // Host memory stands in for device memory; untouched pages cost nothing.
  void* p = std::malloc(bytes ? bytes : 1);
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  if (counted) devices[size_t(device)].used += bytes;
  memory[uintptr_t(p)] = Allocation{bytes, device, ctx, counted};
  *out = p;
  return CUDA_SUCCESS;
}

CUresult State::release(uintptr_t address) {
  std::lock_guard lock(mutex);
  auto it = memory.find(address);
  if (it == memory.end()) return CUDA_ERROR_INVALID_VALUE;
  if (it->second.counted) devices[size_t(it->second.device)].used -= it->second.bytes;
  std::free(reinterpret_cast<void*>(address));
  memory.erase(it);
  return CUDA_SUCCESS;
}

Handle* new_handle(Object type, int device, CUcontext ctx, size_t bytes) {
  return new Handle{type, device, ctx, bytes, true};
}

bool valid(const void* handle, Object type) {
  auto* h = static_cast<const Handle*>(handle);
  return h && h->type == type && h->alive;
}

CUcontext current_context() { return t_depth ? t_contexts[t_depth - 1] : nullptr; }
void set_current_context(CUcontext ctx) {
  if (!ctx) {
    pop_context();
  } else if (!t_depth) {
    push_context(ctx);
  } else {
    t_contexts[t_depth - 1] = ctx;
  }
}
void push_context(CUcontext ctx) {
  if (t_depth < kMaxContextDepth) t_contexts[t_depth++] = ctx;
}
CUcontext pop_context() { return t_depth ? t_contexts[--t_depth] : nullptr; }

int device_of(CUcontext ctx) {
  auto* h = reinterpret_cast<Handle*>(ctx);
  return h ? h->device : -1;
}

}  // namespace simcuda
