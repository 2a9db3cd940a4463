#include "interpose/runtime/device_identity.h"

#include <atomic>
#include <cstdio>

#include "interpose/track/tracker.h"

namespace cudaleak::device_identity {

bool uuid_of(int device, CUuuid* uuid) {
  static std::atomic<PFN_cuDeviceGetUuid_v11040> get{nullptr};
  auto fn = tracker::cached_driver_function(get, "cuDeviceGetUuid", 11040);
  return device >= 0 && fn && fn(uuid, device) == CUDA_SUCCESS;
}

std::string uuid_text(const CUuuid& uuid) {
  std::string s = "GPU-";
  char hex[3];
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(uuid.bytes[i]));
    s += hex;
  }
  return s;
}

std::string uuid_text_of(int device) {
  CUuuid uuid;
  return uuid_of(device, &uuid) ? uuid_text(uuid) : std::string();
}

}  // namespace cudaleak::device_identity
