// The text block an out-of-memory event prints: the failed call and where it
// came from, the retries before it, the likely causes (report/oom/diagnose.h)
// most likely first, and how the device stood.
#pragma once
#include <string>

#include "report/model/report.h"

namespace cudaleak::oom {

std::string render_event(const report::OomEvent& event);
// The five biggest groups of live tensors, a line each, with the history
// of those that grew across snapshots.
std::string live_tensor_lines(const std::vector<report::TensorGroup>& groups);

}  // namespace cudaleak::oom
