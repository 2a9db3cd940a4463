// One CUDA resource, the same record from the hook that creates it to the
// report: the tracker keeps it while it lives (small and fixed-size: the
// registry holds one per live resource), a snapshot copies it, the builder
// groups records by kind and stack, and the report lists each under its group
// (Allocation). Names are indices: `api` and `teardown` into the names of
// the snapshot that carries the record (RawSnapshot::names).
#pragma once
#include <cstdint>

#include "common/kinds.h"
#include "common/space.h"

namespace cudaleak {

inline constexpr uint16_t kNoName = 0xffff;

struct Record {
  uint64_t handle = 0;  // device or host address, or handle ("address" in the report)
  uint64_t bytes = 0;
  uint64_t sequence = 0;  // order of creation across the process, from 1
  uint64_t time_ns = 0;   // since the tracker started
  uint64_t context = 0;
  uint64_t stream = 0;  // graph_memory: the graph it belongs to
  uint32_t stack_id = 0;
  uint32_t thread = 0;    // kernel thread id of the creating thread
  uint32_t refcount = 1;  // vmm handles: cuMemRetainAllocationHandle adds one
  uint32_t scope = 0;     // the library-handle creation it happened in (library handles: the one they opened)
  // int8: CUDA numbers at most a few dozen devices; the byte it frees names
  // the pool of stream-ordered memory without growing the record.
  int8_t device = -1;
  uint8_t pool = 0;  // async memory from a pool the program created: its slot in the tracker's pool ledger; 0 none
  Kind kind = Kind::Device;
  Space space = Space::DevicePtr;
  uint16_t api = kNoName;       // the entry point that created it (the preload library's HookId)
  uint16_t teardown = kNoName;  // what tore it down with its context; kNoName while it lives
  bool torn_down() const { return teardown != kNoName; }
  bool operator==(const Record&) const = default;
};
static_assert(sizeof(Record) <= 72, "one live resource stays within 72 bytes");

}  // namespace cudaleak
