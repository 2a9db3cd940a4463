// Decides why an out-of-memory happened: the likely causes, most likely
// first, each with the bytes it explains and what its sentence names (the
// sites, lines, processes, reservations; docs/oom.md). The words are
// report/render/'s (cause_words.h).
#pragma once
#include <cstdint>
#include <vector>

#include "report/model/report.h"

namespace cudaleak::oom {

std::vector<report::Diagnosis> diagnose(const report::OomEvent& event);

// PyTorch's cuBLAS workspaces, which its allocator counts as allocated but
// which are no tensors of the program's: the group is one, and their bytes
// among `groups`.
bool is_cublas_workspace(const report::TensorGroup& group);
uint64_t cublas_workspace_bytes(const std::vector<report::TensorGroup>& groups);
// Memory reserved on autograd's own threads, which run the backward pass and
// no Python code: a group by segment with no line of the program
// (`programs_line` false) whose stack shows autograd's engine.
bool reserved_by_backward(const report::TensorGroup& group, bool programs_line);
// A failure on autograd's own thread, with no frame of the program: the
// backward node that asked (e.g. "PowBackward0"), "autograd" where none is
// named; "" for any other stack.
std::string backward_node(const std::vector<report::Frame>& stack);

}  // namespace cudaleak::oom
