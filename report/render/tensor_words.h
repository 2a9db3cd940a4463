// PyTorch's live tensors as the text names them: where a group was made, a
// group's line, the biggest groups in one sentence.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "report/model/report.h"

namespace cudaleak::render {

// Where a live-tensor group was made, as the text says it: "from train_step
// (train.py:7)" with PyTorch's per-tensor stacks, "in segments reserved by
// train_step (train.py:7)" when attributed by segment, or why it is unknown.
std::string tensor_origin(const report::TensorGroup& group);
// A live-tensor group as the text lists it: "64.0 MiB in 2 tensors from
// train_step (train.py:7)"; memory PyTorch reserved for itself (its cuBLAS
// workspace) and segments reserved on autograd's thread said as such.
std::string tensor_group_text(const report::TensorGroup& group);
// The three biggest of `groups`, "; " between them, groups that a reader
// would see as one line (the same origin, told apart only by frames deeper
// than the line) folded together.
std::string tensor_groups_text(const std::vector<const report::TensorGroup*>& groups);
// "X held by live tensors", or "X held by live tensors and Y by PyTorch's
// cuBLAS workspaces" where `allocated` counts some; `held` is the verb ("is
// held" in a sentence).
std::string held_by_live_tensors(uint64_t allocated, const std::vector<report::TensorGroup>& groups,
                                 const std::string& held = "held");
// The five biggest groups of live tensors, a line each, with the history
// of those that grew across snapshots.
std::string live_tensor_lines(const std::vector<report::TensorGroup>& groups);

}  // namespace cudaleak::render
