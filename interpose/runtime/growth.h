// Growth detection across observations (checkpoints and snapshot reports): a
// leak group whose count rose at least twice over the last 16 observations
// and now, and never fell, is flagged as growing, with its counts.
#pragma once
#include <mutex>

#include "raw.h"
#include "report.h"

namespace cudaleak::growth {

// Records the live count of every group (kind, stack, device) now.
void observe(const report::RawSnapshot& snapshot);
// Fills count_history and growing for each group of `report`.
void annotate(report::Report& report);
// The same for PyTorch's live-tensor groups (device, Python stack), by bytes:
// each fresh view at a snapshot or report the program asked for is one
// observation; annotate fills bytes_history and growing.
void observe_tensors(const report::PyTorchView& view);
void annotate_tensors(report::PyTorchView& view);
void reset_in_child();
std::mutex& mutex();  // for the fork protocol

}  // namespace cudaleak::growth
