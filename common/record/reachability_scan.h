// What the reachability scan of the preload library (interpose/runtime/
// reachability.h) looked at: filled into the raw snapshot where it ran, and
// reported as such (Report::reachability).
#pragma once
#include <cstdint>
#include <string>

namespace cudaleak::report {

// What the reachability scan looked at (docs/report-format.md#reachability).
struct ReachabilityScan {
  bool complete = true;  // false: it stopped at its limit; what it had not found is not determined
  std::string note;      // why not complete, or what it could not see
  uint64_t bytes_scanned = 0;
  uint64_t duration_ns = 0;
  uint64_t roots = 0;    // ranges scanned first: globals and stacks
  uint64_t threads = 0;  // stacks scanned from their thread's stack pointer
  uint64_t threads_unseen =
      0;  // running threads whose stack pointer was not known: every stack-like mapping scanned whole
  uint64_t heap_blocks = 0;  // blocks of memory followed from the roots
  bool operator==(const ReachabilityScan&) const = default;
};

}  // namespace cudaleak::report
