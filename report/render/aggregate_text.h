// `cudaleak report --by KEY`: leak groups folded by a key (report/analyze/views.h),
// one row each, biggest first.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "report/analyze/views.h"

namespace cudaleak::render {

// top: at most that many rows (0: all); `by` names the last column.
std::string aggregate_text(const std::vector<report::Aggregate>& rows, const std::string& by, size_t top);

}  // namespace cudaleak::render
