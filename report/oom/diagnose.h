// Explains an out-of-memory failure in plain words: the likely causes, most
// likely first, each with the numbers behind it (docs/oom.md).
#pragma once
#include <string>
#include <vector>

#include "report.h"

namespace cudaleak::oom {

std::vector<report::Diagnosis> diagnose(const report::OomEvent& event);

// "function (file.py:line)": the first frame of a live-tensor stack outside
// PyTorch's own code.
std::string user_line(const report::TensorGroup& group);

// The text block the summary prints for one event.
std::string render_event(const report::OomEvent& event);

}  // namespace cudaleak::oom
