// One live CUDA resource as the tracker keeps it: small and fixed-size.
#pragma once
#include <cstdint>

#include "common/kinds.h"
#include "interpose/driver/space.h"
#include "interpose/driver/hook_table.h"

namespace cudaleak {

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
  uint32_t scope = 0;     // the library-handle creation it happened in (library handles: the one they opened)
  int16_t device = -1;
  Kind kind = Kind::Device;
  Space space = Space::DevicePtr;
  HookId api = HookId::Count;
};
static_assert(sizeof(Record) <= 72, "one live resource stays within 72 bytes");

}  // namespace cudaleak
