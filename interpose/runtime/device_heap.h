// Device-side malloc and free (the device_heap option): kernels' calls to
// malloc/new and free/delete, seen through NVIDIA's Compute Sanitizer API
// (docs/usage.md#device-side-allocations). Each live allocation is a
// resource of kind device_heap whose stack is the kernel (a device frame)
// above the host stack of its launch.
#pragma once
#include <cstdint>
#include <vector>

namespace cudaleak::device_heap {

// With the option on: loads the Sanitizer API library and subscribes to
// module loads and launches. Must run before the program's first CUDA context
// exists (the preload's initialisation); logs and does nothing when the
// library or the patches cannot be found.
void start();

// Appends the host stack of every launch in flight (its device-side
// allocations are recorded above it when it ends): the stack depot's
// collection keeps them.
void stack_ids(std::vector<uint32_t>& out);

}  // namespace cudaleak::device_heap
