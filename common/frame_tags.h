// A Python frame inside a captured stack: stacks are arrays of return
// addresses, and a Python frame takes the place of the interpreter's eval-loop
// frame that ran it as a tagged id. No code address has these top bits (user
// space ends below 2^57), so the tag cannot collide with a native frame.
#pragma once
#include <cstdint>

namespace cudaleak::report {

inline constexpr uint64_t kPythonFrameTag = 0x7079ull << 48;  // "py"
inline constexpr uint64_t kPythonFrameIdMask = (1ull << 48) - 1;

inline bool is_python_frame_ip(uint64_t ip) { return (ip & ~kPythonFrameIdMask) == kPythonFrameTag; }
inline uint64_t python_frame_ip(uint32_t id) { return kPythonFrameTag | id; }
inline uint32_t python_frame_id(uint64_t ip) { return uint32_t(ip & kPythonFrameIdMask); }

// A device frame (a kernel's call to malloc, device_heap) shares the table of
// interned frames under a tag of its own: it is no Python frame.
inline constexpr uint64_t kDeviceFrameTag = 0x6476ull << 48;  // "dv"
inline bool is_device_frame_ip(uint64_t ip) { return (ip & ~kPythonFrameIdMask) == kDeviceFrameTag; }
inline uint64_t device_frame_ip(uint32_t id) { return kDeviceFrameTag | id; }

}  // namespace cudaleak::report
