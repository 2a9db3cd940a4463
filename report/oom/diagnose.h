// Explains an out-of-memory failure in plain words: the likely causes, most
// likely first, each with the numbers behind it (docs/oom.md).
#pragma once
#include <string>
#include <vector>

#include "report/model/report.h"
#include "report/oom/frame_line.h"  // frame_line, part of what this header offers

namespace cudaleak::oom {

std::vector<report::Diagnosis> diagnose(const report::OomEvent& event);

// frame_line of the user_frame of `stack`; `api` when it has none.
std::string where_of(const std::vector<report::Frame>& stack, const std::string& api);
// Where a live-tensor group was made, as the text says it: "from train_step
// (train.py:7)" with PyTorch's per-tensor stacks, "in segments reserved by
// train_step (train.py:7)" when attributed by segment, or why it is unknown.
std::string tensor_origin(const report::TensorGroup& group);
// A live-tensor group as the text lists it: "64.0 MiB in 2 tensors from
// train_step (train.py:7)"; memory PyTorch reserved for itself (its cuBLAS
// workspace) and segments reserved on autograd's thread said as such.
std::string tensor_group_text(const report::TensorGroup& group);
// PyTorch's cuBLAS workspaces, which its allocator counts as allocated but
// which are no tensors of the program's: the group is one, and their bytes
// among `groups`.
bool is_cublas_workspace(const report::TensorGroup& group);
uint64_t cublas_workspace_bytes(const std::vector<report::TensorGroup>& groups);
// "X held by live tensors", or "X held by live tensors and Y by PyTorch's
// cuBLAS workspaces" where `allocated` counts some; `held` is the verb ("is
// held" in a sentence).
std::string held_by_live_tensors(uint64_t allocated, const std::vector<report::TensorGroup>& groups,
                                 const std::string& held = "held");

// Another process on the device as the text names it: "pid 812 (rank 1,
// python)", "pid 812 (python)", "pid 812".
std::string describe_other_process(const report::OtherProcessUsage& other);

// One reservation as the text says it: "512.0 MiB for the device heap
// (malloc_heap_size = 512.0 MiB) on device 0, set by cudaDeviceSetLimit in
// enlarge_heap (app.cu:10)".
std::string describe_reservation(const report::Reservation& reservation);

// Device-side mallocs that returned NULL (a note of type
// device_heap_exhausted): how many, in which kernel launched from where, and
// the device heap limit in effect in that context, with where it was set
// (a reservation of `reservations`) or the default.
std::string describe_heap_exhausted(const report::Note& note, const std::vector<report::Reservation>& reservations);

}  // namespace cudaleak::oom
