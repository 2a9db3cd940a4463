// Explains an out-of-memory failure in plain words: the likely causes, most
// likely first, each with the numbers behind it (docs/oom.md).
#pragma once
#include <string>
#include <vector>

#include "report.h"

namespace cudaleak::oom {

std::vector<report::Diagnosis> diagnose(const report::OomEvent& event);

// The user's frame in a stack: the first of the program's frames outside
// PyTorch's own Python code (torch/...); nullptr when there is none.
const report::Frame* user_frame(const std::vector<report::Frame>& stack);
// "function (file.py:line)" of a live-tensor group's user frame.
std::string user_line(const report::TensorGroup& group);

// The text block the summary prints for one event.
std::string render_event(const report::OomEvent& event);

}  // namespace cudaleak::oom
