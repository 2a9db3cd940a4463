// One frame of a stack as every report names it: the preload library's frame
// resolver makes it, the report model keeps it in every stack it lists. On
// the floor under both, with the other types recording fills
// (common/record/raw.h), so that recording needs nothing of the report above.
#pragma once
#include <cstdint>

#include "common/record/interned_string.h"

namespace cudaleak::report {

struct Frame {
  uint64_t ip = 0;
  InternedString module;    // path of the object the ip belongs to
  InternedString function;  // demangled; empty when unknown
  InternedString file;      // source file where debug info exists
  int line = 0;
  bool inlined = false;  // inlined into the next frame (same ip)
  bool python = false;   // a Python frame: file, function (qualified name) and line; no module
  bool operator==(const Frame&) const = default;
};

}  // namespace cudaleak::report
