// Other processes on a device, from NVML loaded lazily (dlopen of
// libnvidia-ml.so.1 on first use, never from the dlsym hook). Degrades to a
// status string when NVML is missing, the device is not found, or the values
// are not available (containers, MIG).
#pragma once
#include <string>
#include <vector>

#include "interpose/driver/cuda_api.h"
#include "report/model/report.h"

namespace cudaleak::nvml {

// Processes other than this one using the device with `uuid`; `status` is
// "ok" or why the list is unknown.
std::vector<report::OtherProcessUsage> other_processes(const CUuuid& uuid, std::string* status);

// The device memory NVML counts for this process on the device with `uuid`;
// false with `status` saying why when unknown (no NVML, a container listing
// host pids, a value NVML does not give).
bool own_bytes(const CUuuid& uuid, uint64_t* bytes, std::string* status);

}  // namespace cudaleak::nvml
