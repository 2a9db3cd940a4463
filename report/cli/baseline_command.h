// `cudaleak baseline REPORT... -o FILE`: the unsuppressed leak sites of the
// reports, as a baseline for later gated runs (--baseline FILE).
#pragma once
#include <string>
#include <vector>

namespace cudaleak::cli {
int write_baseline(const std::vector<std::string>& reports, const std::string& output);
}
