// One live CUDA resource as the tracker keeps it: small and fixed-size.
#pragma once
#include <cstdint>

#include "kinds.h"
#include "../hooks/hook_table.h"

namespace cudaleak {

// Handle namespaces: a key is unique within one. Device pointers from
// cuMemAlloc, cuMemAllocManaged and the stream-ordered allocator share one,
// because cuMemFree_v2 and cuMemFreeAsync release any of them.
enum class Space : uint8_t {
  DevicePtr, HostPtr, Registered, Pool, Vmm, VaReservation, Mapping,
  Array, Mipmapped, Context, GreenContext, Stream, Event,
};

struct Record {
  uint64_t handle = 0;
  uint64_t bytes = 0;
  uint64_t sequence = 0;
  uint64_t time_ns = 0;
  uint64_t context = 0;
  uint64_t stream = 0;
  uint32_t stack_id = 0;
  uint32_t thread = 0;
  uint32_t refcount = 1;  // vmm handles: cuMemRetainAllocationHandle adds one
  int16_t device = -1;
  Kind kind = Kind::Device;
  Space space = Space::DevicePtr;
  HookId api = HookId::Count;
};

}  // namespace cudaleak
