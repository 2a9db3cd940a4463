#include "interpose/runtime/nvml.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <mutex>

#include "interpose/runtime/device_identity.h"
#include "interpose/runtime/nvml_abi.h"
#include "interpose/base/real_dlsym.h"
#include "report/symbols/launcher_env.h"

namespace cudaleak::nvml {

namespace {

struct Nvml {
  nvmlDeviceGetHandleByUUID_fn by_uuid = nullptr;
  nvmlDeviceGetComputeRunningProcesses_v3_fn processes = nullptr;
  nvmlSystemGetProcessName_fn process_name = nullptr;
  std::string problem;
};

const Nvml& load() {
  static Nvml n;
  static std::once_flag once;
  std::call_once(once, [] {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      n.problem = "libnvidia-ml.so.1 not found";
      return;
    }
    auto sym = [&](const char* name) { return real_dlsym() ? real_dlsym()(lib, name) : nullptr; };
    auto init = reinterpret_cast<nvmlInit_v2_fn>(sym("nvmlInit_v2"));
    n.by_uuid = reinterpret_cast<nvmlDeviceGetHandleByUUID_fn>(sym("nvmlDeviceGetHandleByUUID"));
    n.processes = reinterpret_cast<nvmlDeviceGetComputeRunningProcesses_v3_fn>(
        sym("nvmlDeviceGetComputeRunningProcesses_v3"));
    n.process_name = reinterpret_cast<nvmlSystemGetProcessName_fn>(sym("nvmlSystemGetProcessName"));
    if (!init || !n.by_uuid || !n.processes) {
      n.problem = "NVML lacks the functions needed";
      n.by_uuid = nullptr;
      return;
    }
    if (int r = init(); r != NVML_SUCCESS) {
      n.problem = "nvmlInit failed (" + std::to_string(r) + ")";
      n.by_uuid = nullptr;
    }
  });
  return n;
}

// The device's compute processes, or false with `status` set.
bool list_processes(const CUuuid& uuid, std::vector<nvmlProcessInfo_t>& infos, std::string* status) {
  const Nvml& n = load();
  if (!n.by_uuid) {
    *status = n.problem;
    return false;
  }
  nvmlDevice_t device;
  if (n.by_uuid(device_identity::uuid_text(uuid).c_str(), &device) != NVML_SUCCESS) {
    *status = "device " + device_identity::uuid_text(uuid) + " not found by NVML";
    return false;
  }
  infos.resize(8);
  unsigned count = unsigned(infos.size());
  int r = n.processes(device, &count, infos.data());
  if (r == NVML_ERROR_INSUFFICIENT_SIZE) {
    infos.resize(count + 8);
    count = unsigned(infos.size());
    r = n.processes(device, &count, infos.data());
  }
  if (r != NVML_SUCCESS) {
    *status = "process list unavailable (NVML error " + std::to_string(r) + ")";
    return false;
  }
  infos.resize(count);
  return true;
}

}  // namespace

std::vector<report::OtherProcessUsage> other_processes(const CUuuid& uuid, std::string* status) {
  std::vector<report::OtherProcessUsage> out;
  std::vector<nvmlProcessInfo_t> infos;
  if (!list_processes(uuid, infos, status)) return out;
  const Nvml& n = load();
  const unsigned count = unsigned(infos.size());
  bool self_listed = false;
  for (unsigned i = 0; i < count; ++i) {
    if (infos[i].pid == unsigned(getpid())) {
      self_listed = true;
      continue;
    }
    report::OtherProcessUsage o;
    o.pid = int(infos[i].pid);
    o.bytes_known = infos[i].usedGpuMemory != NVML_VALUE_NOT_AVAILABLE;
    o.bytes = o.bytes_known ? infos[i].usedGpuMemory : 0;
    char name[256] = "";
    if (n.process_name && n.process_name(infos[i].pid, name, sizeof name) == NVML_SUCCESS) o.name = name;
    out.push_back(o);
  }
  // Another rank of the same job on this device: its launcher's variables say
  // which, read only where NVML's pids are this namespace's.
  if (self_listed)
    for (report::OtherProcessUsage& o : out) o.rank = symbols::rank_of_process(o.pid);
  // In a container NVML may list host pids: this process is then among the others.
  *status = self_listed || count == 0 ? "ok" : "ok (this process not found by pid: host pids?)";
  return out;
}

bool own_bytes(const CUuuid& uuid, uint64_t* bytes, std::string* status) {
  std::vector<nvmlProcessInfo_t> infos;
  if (!list_processes(uuid, infos, status)) return false;
  for (const nvmlProcessInfo_t& p : infos)
    if (p.pid == unsigned(getpid())) {
      if (p.usedGpuMemory == NVML_VALUE_NOT_AVAILABLE) {
        *status = "NVML gives no memory figure for this process";
        return false;
      }
      *bytes = p.usedGpuMemory;
      return true;
    }
  *status = "this process is not in NVML's list (a container listing host pids?)";
  return false;
}

}  // namespace cudaleak::nvml
