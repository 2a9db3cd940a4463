// Out-of-memory forensics: when a tracked allocation fails with
// out-of-memory, record what held the device at that moment and write a
// report with reason "oom" (once per distinct call site, rate limited).
// Everything is gathered in the failing call's thread, after the real call
// returned: never from the dlsym hook, never at exit.
#pragma once
#include <cstdint>
#include <mutex>
#include <vector>

#include "raw.h"
#include "report.h"
#include "../driver/hook_table.h"
#include "../track/tracker.h"

namespace cudaleak::oom {

void record(HookId api, uint64_t bytes, tracker::Placement where, uint64_t stream);

// PyTorch raised an out-of-memory (its observer ran, in the raising thread):
// `view` is its allocator's state on that device.
inline constexpr const char* kPyTorchApi = "PyTorch caching allocator";
void record_pytorch(const report::AllocatorDevice& view, uint64_t request);
// From then on failed calls are held back for PyTorch's own event.
void attach_pytorch_observer();
bool pytorch_observer_attached();

// The events so far, stacks resolved, each with its diagnosis.
std::vector<report::OomEvent> events(report::FrameResolver* resolver);
void reset_in_child();
std::mutex& mutex();  // for the fork protocol

// "function (file:line)" of the program's frame nearest the allocation.
std::string where_of(const std::vector<report::Frame>& stack, const std::string& api);

}  // namespace cudaleak::oom
