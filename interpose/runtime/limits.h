// Context limits that make the driver reserve device memory nothing
// allocated: the device heap, thread stacks, the printf buffer, the device
// runtime's pending launches (docs/report-format.md#reservations).
#pragma once
#include "interpose/driver/cuda_api.h"
#include "interpose/driver/hook_table.h"
#include "interpose/track/tracker.h"

namespace cudaleak {

// After a successful cuCtxSetLimit: reads the value the driver settled on and
// records what it reserves, with the call's stack and a mark on the timeline.
void context_limit_set(HookId api, CUlimit limit, tracker::Placement where);

// An attribute of `device` from the driver; 0 when it cannot be read.
int device_attribute(CUdevice_attribute attribute, int device);

// Device memory `value` of `limit` reserves on a device with `sms`
// multiprocessors of `threads_per_sm` resident threads each; 0 when the
// driver's size for it is not known. Stacks: the driver gives every thread the
// device can hold at once its own (measured on an H100: docs/oom.md).
uint64_t limit_reserved_bytes(CUlimit limit, uint64_t value, uint64_t sms, uint64_t threads_per_sm);

}  // namespace cudaleak
