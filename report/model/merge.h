// Several reports (fork children, MPI or torchrun ranks) as one: leak groups
// keep their process and rank, totals add up, timelines stay per process.
#pragma once
#include <vector>

#include "report.h"

namespace cudaleak::report {

Report merge_reports(const std::vector<Report>& reports);

}  // namespace cudaleak::report
