// The frames of stacks this process recorded, resolved as its reports resolve
// them. Declared apart from reporter.h, which defines it (reporter.cpp), so
// that what reporter.cpp calls (budgets, out-of-memory events) can resolve
// stacks without including the reporter.
#pragma once
#include <memory>

#include "common/record/raw.h"

namespace cudaleak {

// Native frames by this process's symbols (or its modules only, symbolize=false),
// Python frames by their interned ids.
std::unique_ptr<report::FrameResolver> make_frame_resolver();

}  // namespace cudaleak
