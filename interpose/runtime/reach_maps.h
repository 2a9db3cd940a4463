// /proc/self/maps, parsed for the reachability scan: which ranges are
// writable anonymous memory (where the program's data may lie), which are
// the heap and the main thread's stack, and which belong to files.
#pragma once
#include <cstddef>
#include <cstdint>

#include "interpose/runtime/reach_memory.h"

namespace cudaleak::reach {

enum class MapType : uint8_t {
  Anonymous,  // no file: mmap'd memory, thread stacks, arenas ([anon:NAME] too)
  Heap,       // [heap]: malloc's main arena, grown by brk
  Stack,      // [stack]: the main thread's stack
  Special,    // [vdso], [vvar], [vsyscall] and other kernel-named ranges
  File,       // a file's contents (code, data, a mapped file)
};

struct Mapping {
  uint64_t begin = 0, end = 0;
  bool readable = false, writable = false, shared = false;
  MapType type = MapType::Anonymous;
};

// Parses the text of /proc/PID/maps; lines that cannot be parsed are passed
// over. False when `out` could not grow.
bool parse_maps(const char* text, size_t length, MappedArray<Mapping>& out);

// The mapping holding `address` (maps are sorted), or nullptr.
const Mapping* mapping_at(const MappedArray<Mapping>& maps, uint64_t address);

}  // namespace cudaleak::reach
