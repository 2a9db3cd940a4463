// `cudaleak diff --format html`: one self-contained page (no script, no
// network) of the leak sites that grew, appeared, shrank and vanished between
// two runs or two snapshots, each with its bytes and counts before and after
// and its stack (from the later run, or the earlier one for a site gone).
#pragma once
#include <string>
#include <vector>

#include "report/analyze/views.h"

namespace cudaleak::render {

std::string diff_html(const std::vector<report::SiteChange>& changes, const std::vector<report::Report>& old_runs,
                      const std::vector<report::Report>& new_runs);

}  // namespace cudaleak::render
