// Several reports (fork children, MPI or torchrun ranks) as one: leak groups
// keep their process and rank, totals add up, timelines stay per process.
//
// A process counts once, however many reports it wrote (an out-of-memory
// report, snapshots, checkpoints, then its exit report): reports of one
// process and run (Process::run_id; for reports without one, the same pid and
// start_unix_ns) are represented by the latest (longest duration_ns), which
// holds all that the earlier ones did that is still alive, and all the
// process's out-of-memory events and timeline. The earlier ones are listed in
// `history` and count in no total.
#pragma once
#include <vector>

#include "report/model/report.h"

namespace cudaleak::report {

Report merge_reports(std::vector<Report> reports);  // moved from: a million allocations are not copied

}  // namespace cudaleak::report
