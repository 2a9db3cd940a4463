#include "interpose/runtime/device_identity.h"

#include <atomic>
#include <cstdio>

#include "interpose/track/tracker.h"

namespace cudaleak::device_identity {

namespace {

// UUIDs read while the driver was up, by ordinal: a report written at exit
// may run after the driver's own teardown (XLA's runtime in a JAX process),
// when cuDeviceGetUuid has nothing left to say.
constexpr int kRemembered = 64;
struct Slot {
  std::atomic<bool> ready{false};
  CUuuid uuid{};
};
Slot g_slots[kRemembered];
std::atomic_flag g_writing[kRemembered];

bool ask_driver(int device, CUuuid* uuid) {
  static std::atomic<PFN_cuDeviceGetUuid_v11040> get{nullptr};
  auto fn = tracker::cached_driver_function(get, "cuDeviceGetUuid", 11040);
  return device >= 0 && fn && fn(uuid, device) == CUDA_SUCCESS;
}

void keep(int device, const CUuuid& uuid) {
  if (device < 0 || device >= kRemembered || g_writing[device].test_and_set(std::memory_order_acquire)) return;
  g_slots[device].uuid = uuid;
  g_slots[device].ready.store(true, std::memory_order_release);
}

}  // namespace

void remember(int device) {
  if (device < 0 || device >= kRemembered || g_slots[device].ready.load(std::memory_order_acquire)) return;
  CUuuid uuid;
  if (ask_driver(device, &uuid)) keep(device, uuid);
}

bool uuid_of(int device, CUuuid* uuid) {
  if (device >= 0 && device < kRemembered && g_slots[device].ready.load(std::memory_order_acquire)) {
    *uuid = g_slots[device].uuid;
    return true;
  }
  if (!ask_driver(device, uuid)) return false;
  keep(device, *uuid);
  return true;
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
