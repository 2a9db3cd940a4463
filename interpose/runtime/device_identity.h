// Which physical GPU a device ordinal of this process is: its UUID from the
// driver. Ordinals are per process (CUDA_VISIBLE_DEVICES), so a job's ranks
// that each say "device 0" are told apart by it, and NVML finds the device
// by it.
#pragma once
#include <string>

#include "interpose/driver/cuda_api.h"

namespace cudaleak::device_identity {

// The driver's UUID of `device`, as read the first time it was asked or
// remembered; false where the driver has none to give (not initialised, an
// ordinal it does not have).
bool uuid_of(int device, CUuuid* uuid);
// Reads and keeps `device`'s UUID while the driver is up (a context made or
// retained on it), for reports written after the driver's teardown.
void remember(int device);
// NVML's name of a UUID: "GPU-" and the 16 bytes as 8-4-4-4-12 hex digits.
std::string uuid_text(const CUuuid& uuid);
// uuid_text of `device`'s UUID, or "" where uuid_of has none.
std::string uuid_text_of(int device);

}  // namespace cudaleak::device_identity
