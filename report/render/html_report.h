// One self-contained HTML file for a report: the report's JSON embedded, the
// page's script and styles inline, no network access (docs/reading-reports.md).
#pragma once
#include <string>

#include "report/model/report.h"

namespace cudaleak::render {
inline constexpr size_t kHtmlAllocationsPerGroup = 16;
std::string html_report(report::Report report);
}  // namespace cudaleak::render
