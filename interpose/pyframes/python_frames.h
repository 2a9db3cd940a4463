// Python frames in captured stacks. Each Python frame (file, function, line)
// is interned once and stands in a stack as a tagged id (python_frame_ip.h),
// in the place of the eval-loop frame that ran it, as py-spy and memray show
// mixed stacks. Ids stay valid for the life of the process.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "interpose/pyframes/interpreter.h"

namespace cudaleak::pyframes {

// Rewrites `ips` (n native return addresses, innermost first, room for
// `capacity`) with the calling thread's Python frames interleaved; returns the
// new count. A process without Python pays one pointer test.
size_t interleave(uint64_t* ips, size_t n, size_t capacity);
// Whether interleave may add anything: an interpreter is loaded and readable.
// Remembered: every tracked call asks, and the interpreter is looked for once
// per process; false for good after a layout mismatch.
namespace detail {
inline std::atomic<int> g_active{-1};  // -1: not asked yet
bool look_for_interpreter();
}  // namespace detail
inline bool active() {
  int known = detail::g_active.load(std::memory_order_relaxed);
  if (known >= 0) [[likely]]
    return known;
  bool now = detail::look_for_interpreter();
  detail::g_active.store(now, std::memory_order_relaxed);
  return now;
}

struct Frame {
  std::string file;
  std::string function;
  int line = 0;
};

// A kernel's device-side malloc at `pc` (device_heap): a frame named by the
// kernel, interned in the same table under its own key; its id goes into a
// stack as report::device_frame_ip(id). With its source line known (`line`
// > 0, from the cubin's line table) the frame carries it and the calls of one
// line share one frame, so a report groups by kernel and line; else by pc.
uint32_t intern_device_frame(const std::string& kernel, uint64_t pc, const std::string& file = {}, int line = 0);

// Every interned frame; index = id - 1.
std::vector<Frame> frames();

// What the report says about Python (version, frames read or why not).
Status report_status();

// Held across fork() by the fork protocol.
std::mutex& mutex();

// For the crash path: f(id, frame) for every frame; false when the lock was
// not free.
bool visit_if_free(void (*f)(void* context, uint32_t id, const Frame& frame), void* context,
                   bool (*try_lock)(std::mutex&));

}  // namespace cudaleak::pyframes
