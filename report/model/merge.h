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
//
// Leak groups of a job's ranks are read against each other: the groups of
// several ranks at one site (kind, API, stack by function and line, gate
// state) become one group that lists each rank's share in `ranks`, so that a
// leak on 7 of 8 ranks is one group. Out-of-memory events and device
// timelines keep their rank, and the other processes an out-of-memory event
// names get the rank of the merged process with that pid on the same host.
#pragma once
#include <vector>

#include "report/model/report.h"

namespace cudaleak::report {

Report merge_reports(std::vector<Report> reports);

// Where a report's times count from: its process's start, or for a merged
// report its earliest process's; 0 when the report does not say.
uint64_t start_of(const Report& report);

// The latest report of each process (the one merge_reports counts), in the
// order given; the superseded ones are appended to `history`. Reports already
// merged are kept as they are; a process's own report beside a merge that
// holds it is dropped (the same report twice).
std::vector<Report> latest_of_each_process(
    std::vector<Report> reports,
    std::vector<ProcessSummary>& history);  // moved from: a million allocations are not copied

}  // namespace cudaleak::report
