// Device-side malloc and free (the device_heap option): kernels' calls to
// malloc/new and free/delete, seen through NVIDIA's Compute Sanitizer API
// (docs/usage.md#device-side-allocations). Each live allocation is a
// resource of kind device_heap whose stack is the kernel (a device frame)
// above the host stack of its launch.
#pragma once
namespace cudaleak::device_heap {

// With the option on: loads the Sanitizer API library and subscribes to
// module loads and launches. Must run before the program's first CUDA context
// exists (the preload's initialisation); logs and does nothing when the
// library or the patches cannot be found.
void start();

}  // namespace cudaleak::device_heap
