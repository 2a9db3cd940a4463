#include "interpose/runtime/unseen_memory.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <atomic>
#include <map>

#include <link.h>
#include <cstring>

#include <unistd.h>

#include "common/kinds.h"
#include "interpose/driver/module_image.h"
#include "interpose/runtime/device_identity.h"
#include "interpose/runtime/limits.h"
#include "interpose/runtime/nvml.h"
#include "interpose/runtime/runtime.h"
#include "common/quantities.h"
#include "interpose/base/log.h"
#include "interpose/track/tracker.h"

namespace cudaleak::unseen_memory {

namespace {

constexpr int kMaxDevices = 64;
constexpr uint64_t kDefaultStackBytes = 1024;  // the driver's per-thread stack at context creation

// 0: no baseline yet; 1: being taken; 2: taken (bytes valid); 3: unknown.
std::array<std::atomic<int>, kMaxDevices> g_state{};
std::array<uint64_t, kMaxDevices> g_baseline{};

template <typename Fn>
Fn driver(std::atomic<Fn>& slot, const char* name, int version) {
  return tracker::cached_driver_function(slot, name, version);
}

// NVML's figure for this process, when it is one a device can hold: a
// figure past the device's whole memory (a counter that wrapped) says
// nothing about memory the calls did not explain.
bool own_bytes(int device, uint64_t* bytes) {
  CUuuid uuid;
  std::string status = "device UUID unavailable";
  if (device_identity::uuid_of(device, &uuid) && nvml::own_bytes(uuid, bytes, &status)) {
    static std::atomic<PFN_cuDeviceTotalMem_v3020> total_mem{nullptr};
    size_t total = 0;
    auto total_fn = driver(total_mem, "cuDeviceTotalMem", 3020);
    if (!total_fn || total_fn(&total, device) != CUDA_SUCCESS || *bytes <= total) return true;
    status = "NVML counts " + format_bytes(*bytes) + " for this process, more than the device's " + format_bytes(total);
  }
  log_verbose("device %d: memory past the seen calls not checked: %s", device, status.c_str());
  return false;
}

uint64_t round_up(uint64_t bytes) { return (bytes + kPageBytes - 1) / kPageBytes * kPageBytes; }

// The stack size limit of `ctx`, read with it made current for a moment.
bool stack_limit_of(CUcontext ctx, size_t* stack) {
  static std::atomic<PFN_cuCtxPushCurrent_v4000> push{nullptr};
  static std::atomic<PFN_cuCtxPopCurrent_v4000> pop{nullptr};
  static std::atomic<PFN_cuCtxGetLimit_v3010> get_limit{nullptr};
  auto push_fn = driver(push, "cuCtxPushCurrent", 4000);
  auto pop_fn = driver(pop, "cuCtxPopCurrent", 4000);
  auto limit_fn = driver(get_limit, "cuCtxGetLimit", 3010);
  if (!push_fn || !pop_fn || !limit_fn || push_fn(ctx) != CUDA_SUCCESS) return false;
  const bool ok = limit_fn(stack, CU_LIMIT_STACK_SIZE) == CUDA_SUCCESS;
  CUcontext popped;
  pop_fn(&popped);
  return ok;
}

// Thread stacks grown past the default in the device's live contexts (each
// reserves its own), by an explicit limit or by the driver for a kernel that
// needs more local memory; false when no context of the device can be read.
bool stack_growth(int device, const report::RawSnapshot& raw, uint64_t* bytes) {
  static std::atomic<PFN_cuDevicePrimaryCtxGetState_v7000> get_state{nullptr};
  static std::atomic<PFN_cuDevicePrimaryCtxRetain_v7000> retain{nullptr};
  static std::atomic<PFN_cuDevicePrimaryCtxRelease_v11000> release{nullptr};
  const uint64_t sms = uint64_t(device_attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device));
  const uint64_t per_sm = uint64_t(device_attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, device));
  auto growth = [&](size_t stack) {
    return stack > kDefaultStackBytes
               ? limit_reserved_bytes(CU_LIMIT_STACK_SIZE, stack - kDefaultStackBytes, sms, per_sm)
               : 0;
  };
  bool read = false;
  *bytes = 0;
  size_t stack = 0;
  for (const Record& r : raw.resources)
    if (r.kind == Kind::Context && r.device == device && !r.torn_down() &&
        stack_limit_of(reinterpret_cast<CUcontext>(r.handle), &stack)) {
      *bytes += growth(stack);
      read = true;
    }
  auto state_fn = driver(get_state, "cuDevicePrimaryCtxGetState", 7000);
  auto retain_fn = driver(retain, "cuDevicePrimaryCtxRetain", 7000);
  auto release_fn = driver(release, "cuDevicePrimaryCtxRelease", 11000);
  unsigned flags = 0;
  int active = 0;
  CUcontext primary;
  if (state_fn && retain_fn && release_fn && state_fn(device, &flags, &active) == CUDA_SUCCESS && active &&
      retain_fn(&primary, device) == CUDA_SUCCESS) {
    if (stack_limit_of(primary, &stack)) {
      *bytes += growth(stack);
      read = true;
    }
    release_fn(device);
  }
  return read;
}

// Whether the process loaded a library known to take device memory through
// the driver in ways no tracked call names: NVIDIA's math and communication
// libraries load thousands of kernels lazily and keep workspaces; PyTorch,
// JAX, CuPy and Triton carry such libraries and JIT-compiled modules. On an
// H100 a PyTorch process held 130-220 MiB that no seen call explains.
bool loads_libraries_with_hidden_memory() {
  static constexpr const char* kNames[] = {"libcublas",     "libcudnn",      "libnccl",       "libcufft",
                                           "libcusparse",   "libcusolver",   "libcurand",     "libnvrtc",
                                           "libnvJitLink",  "libcupti",      "libtorch_cuda", "libc10_cuda",
                                           "xla_extension", "jaxlib",        "cupy",          "triton",
                                           "libnvinfer",    "libonnxruntime"};
  bool found = false;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        const char* name = info->dlpi_name ? info->dlpi_name : "";
        for (const char* known : kNames)
          if (std::strstr(name, known)) {
            *static_cast<bool*>(data) = true;
            return 1;
          }
        return 0;
      },
      &found);
  return found;
}

// What the device's default memory pool keeps beyond what is allocated from
// it. Pools the program created are not asked (a handle the program may
// have destroyed is never passed to the driver): their device is not checked.
uint64_t default_pool_cache(int device) {
  static std::atomic<PFN_cuMemPoolGetAttribute_v11020> get_attr{nullptr};
  static std::atomic<PFN_cuDeviceGetDefaultMemPool_v11020> get_default{nullptr};
  auto attr = driver(get_attr, "cuMemPoolGetAttribute", 11020);
  auto fn = driver(get_default, "cuDeviceGetDefaultMemPool", 11020);
  CUmemoryPool pool;
  cuuint64_t reserved = 0, used = 0;
  if (!attr || !fn || fn(&pool, device) != CUDA_SUCCESS ||
      attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &reserved) != CUDA_SUCCESS ||
      attr(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used) != CUDA_SUCCESS)
    return 0;
  return reserved > used ? reserved - used : 0;
}

bool has_own_pool(int device, const report::RawSnapshot& raw) {
  for (const auto& r : raw.resources)
    if (r.kind == Kind::Pool && r.device == device && !r.torn_down()) return true;
  return false;
}

std::string check_now(const report::RawSnapshot& raw) {
  for (int d = 0; d < kMaxDevices; ++d) {
    if (g_state[size_t(d)].load(std::memory_order_acquire) != 2) continue;
    uint64_t now = 0, stack = 0;
    if (has_own_pool(d, raw)) {
      log_verbose("device %d: memory past the seen calls not checked: the program's own memory pools", d);
      continue;
    }
    if (!own_bytes(d, &now)) continue;
    if (!stack_growth(d, raw, &stack)) {
      log_verbose("device %d: memory past the seen calls not checked: no live context to read its stack size from", d);
      continue;
    }
    const uint64_t slack = loads_libraries_with_hidden_memory() ? kLibrarySlackBytes : kSlackBytes;
    uint64_t explained = slack + stack + default_pool_cache(d);
    for (const Record& r : raw.resources) {
      if (r.torn_down() || r.device != d) continue;
      if (kind_holds_memory(r.kind)) explained += round_up(r.bytes);
      if (r.kind == Kind::Module || r.kind == Kind::Library) explained += kPerModuleBytes;
    }
    std::map<int, uint64_t> limits;  // the latest setting of each limit holds
    bool heap = false;
    for (const report::RawReservation& v : raw.reservations)
      if (v.device == d) {
        limits[v.limit] = v.bytes;
        heap |= v.limit == CU_LIMIT_MALLOC_HEAP_SIZE;
      }
    for (const auto& [limit, bytes] : limits)
      explained += limit == CU_LIMIT_STACK_SIZE ? 0 : bytes;  // stacks: read above
    // The first kernel that calls malloc sets up the heap beyond its size
    // (about 140 MiB more on an H100), at the default size too.
    if (heap || module_image::device_malloc_loaded()) explained += 256ull << 20;
    const uint64_t grown = now > g_baseline[size_t(d)] ? now - g_baseline[size_t(d)] : 0;
    log_verbose(
        "device %d: this process holds %llu bytes, %llu more than when its first context appeared; the seen "
        "calls explain %llu",
        d, static_cast<unsigned long long>(now), static_cast<unsigned long long>(grown),
        static_cast<unsigned long long>(explained));
    if (grown > explained) {
      const uint64_t unseen = grown - explained + slack;
      return "device " + std::to_string(d) + " holds about " + format_bytes(unseen) +
             " more than the calls cudaleak saw can explain (NVML counts " + format_bytes(now) +
             " for this process): memory was allocated by calls cudaleak did not see (a driver entry point found "
             "in the driver's ELF symbol table?)";
    }
  }
  return "";
}

// Measured once more by an exit handler, registered when the first baseline
// is taken: that is after the CUDA runtime registered its own, so it runs
// before the runtime tears its contexts down (the report comes later still).
// Plain storage: it is read after static destructors may have run.
std::atomic<bool> g_measured_at_exit{false};
// The process whose baselines these are: a forked child inherits them and
// the exit handler, but its memory is its own (and CUDA unusable in it).
std::atomic<pid_t> g_owner{0};
char g_verdict_at_exit[640];

void measure_at_exit() {
  if (g_owner.load() != getpid()) return;
  try {
    std::string verdict = check_now(tracker::snapshot());
    std::snprintf(g_verdict_at_exit, sizeof g_verdict_at_exit, "%s", verdict.c_str());
    g_measured_at_exit.store(true, std::memory_order_release);
  } catch (...) {
  }
}

}  // namespace

bool wanted() {
  static const bool wanted = runtime().gate.asked() ||
                             (std::getenv("CUDALEAK_GATE_DIR") && *std::getenv("CUDALEAK_GATE_DIR"));
  return wanted;
}

void context_appeared(int device) {
  if (device < 0 || device >= kMaxDevices) return;
  int expected = 0;
  if (!g_state[size_t(device)].compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) return;
  uint64_t bytes = 0;
  bool known = false;
  try {
    known = own_bytes(device, &bytes);
  } catch (...) {
  }
  g_baseline[size_t(device)] = bytes;
  g_state[size_t(device)].store(known ? 2 : 3, std::memory_order_release);
  static std::atomic<bool> registered{false};
  if (known && !registered.exchange(true)) {
    g_owner.store(getpid());
    std::atexit(measure_at_exit);
  }
}

std::string check(const report::RawSnapshot& raw) {
  if (g_owner.load() != getpid()) return "";
  if (g_measured_at_exit.load(std::memory_order_acquire)) return g_verdict_at_exit;
  return check_now(raw);
}

}  // namespace cudaleak::unseen_memory
