// CI renderings of a run's reports (one report per process):
// JUnit XML, one test suite per process and one test case per leak group
// (failed when the gate counts it, skipped when suppressed or in the baseline);
// SARIF 2.1.0, one result per leak group the gate counts, located at the
// program's own frame nearest the allocation.
#pragma once
#include <string>
#include <vector>

#include "report.h"

namespace cudaleak::render {

std::string junit_xml(const std::vector<report::Report>& reports);
std::string sarif_json(const std::vector<report::Report>& reports);

}  // namespace cudaleak::render
