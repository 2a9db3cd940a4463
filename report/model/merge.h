// Several reports (fork children, MPI or torchrun ranks) as one: leak groups
// keep their process and rank, totals add up, timelines stay per process.
#pragma once
#include <vector>

#include "report.h"

namespace cudaleak::report {

Report merge_reports(std::vector<Report> reports);  // moved from: a million allocations are not copied

}  // namespace cudaleak::report
