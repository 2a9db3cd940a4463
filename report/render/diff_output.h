// `cudaleak diff`: leak sites compared between two runs (report/analyze/views.h),
// as lines for a person and as JSON for a script.
#pragma once
#include <string>
#include <vector>

#include "report/analyze/views.h"

namespace cudaleak::render {

// One line per site that changed, then how many are new or grown of how many compared.
std::string diff_text(const std::vector<report::SiteChange>& changes);
// An array of every site compared, one object each, with a newline after it
// (docs/reading-reports.md).
std::string diff_json(const std::vector<report::SiteChange>& changes);

}  // namespace cudaleak::render
