// PyTorch's view of its allocator, sent by cudaleak_torch.py from inside the
// program (interpose/python/site) through the exported
// cudaleak_impl_python_view(json, when):
//   when "armed"  PyTorch records its allocator state and its out-of-memory
//                 observer is attached (json unused);
//   when "oom"    PyTorch is about to raise OutOfMemoryError: json holds the
//                 view and the request; an OOM event is recorded and reported;
//   when "exit" or "snapshot": json holds the view for the next report.
#pragma once
#include <mutex>

#include "report.h"

namespace cudaleak::python_view {

// The latest view; false when none came.
bool latest(report::PyTorchView& out);
std::mutex& mutex();  // for the fork protocol
void reset_in_child();

}  // namespace cudaleak::python_view
