// Simulated NVML (libnvidia-ml.so.1): the simulated devices, found by the UUID
// the simulated driver reports, with this process and the simulated other
// processes (CUDALEAK_SIM_OTHER_PROCESS) as their compute processes.
// Usage per device is read from the simulated driver's state;
// CUDALEAK_SIM_NVML_PROCESS_BYTES replaces this process's figure (a real
// NVML's per-process count can be wrong, e.g. a counter that wrapped).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "interpose/runtime/nvml_abi.h"
#include "tests/simcuda/driver/sim_cuda.h"
#include "tests/simcuda/driver/sim_state.h"

#define NVML_EXPORT extern "C" __attribute__((visibility("default")))

using simcuda::State;

namespace {
// Handles are device ordinal + 1 disguised as pointers.
nvmlDevice_t handle_of(int device) { return reinterpret_cast<nvmlDevice_t>(uintptr_t(device + 1)); }
int device_of(nvmlDevice_t h) { return int(reinterpret_cast<uintptr_t>(h)) - 1; }
}  // namespace

NVML_EXPORT nvmlReturn_t nvmlInit_v2() { return NVML_SUCCESS; }
NVML_EXPORT nvmlReturn_t nvmlShutdown() { return NVML_SUCCESS; }

NVML_EXPORT nvmlReturn_t nvmlDeviceGetHandleByUUID(const char* uuid, nvmlDevice_t* device) {
  // "GPU-" + the 16 bytes of cuDeviceGetUuid in 8-4-4-4-12 hex; the last byte is the ordinal.
  if (!uuid || !device || std::strncmp(uuid, "GPU-", 4) != 0 || std::strlen(uuid) != 40) return NVML_ERROR_NOT_FOUND;
  unsigned last = 0;
  std::sscanf(uuid + 38, "%2x", &last);
  if (int(last) >= State::get().config.devices) return NVML_ERROR_NOT_FOUND;
  *device = handle_of(int(last));
  return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t* memory) {
  auto& sim = State::get();
  int d = device_of(device);
  if (!memory || d < 0 || d >= sim.config.devices) return NVML_ERROR_NOT_FOUND;
  std::lock_guard lock(sim.mutex);
  memory->total = sim.config.memory_per_device;
  memory->free = sim.available(d);
  memory->used = memory->total - memory->free;
  return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device, unsigned int* count,
                                                                 nvmlProcessInfo_t* infos) {
  auto& sim = State::get();
  int d = device_of(device);
  if (!count || d < 0 || d >= sim.config.devices) return NVML_ERROR_NOT_FOUND;
  std::lock_guard lock(sim.mutex);
  unsigned n = 1;
  for (const auto& o : sim.config.others) n += o.device == d;
  if (*count < n || !infos) {
    *count = n;
    return NVML_ERROR_INSUFFICIENT_SIZE;
  }
  unsigned long long own = sim.devices[size_t(d)].used;
  if (const char* forced = std::getenv("CUDALEAK_SIM_NVML_PROCESS_BYTES")) own = std::strtoull(forced, nullptr, 10);
  infos[0] = nvmlProcessInfo_t{unsigned(getpid()), own, 0, 0};
  unsigned i = 1;
  for (const auto& o : sim.config.others)
    if (o.device == d) infos[i++] = nvmlProcessInfo_t{o.pid, o.bytes, 0, 0};
  *count = n;
  return NVML_SUCCESS;
}

NVML_EXPORT nvmlReturn_t nvmlSystemGetProcessName(unsigned int pid, char* name, unsigned int length) {
  if (!name || length == 0) return NVML_ERROR_NOT_FOUND;
  for (const auto& o : State::get().config.others)
    if (o.pid == pid) {
      std::snprintf(name, length, "%s", o.name.c_str());
      return NVML_SUCCESS;
    }
  if (pid == unsigned(getpid())) {
    std::snprintf(name, length, "(this process)");
    return NVML_SUCCESS;
  }
  return NVML_ERROR_NOT_FOUND;
}
