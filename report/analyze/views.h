// Ways to look at a report: filters, regrouping, and the difference between
// two runs. Used by `cudaleak report` and `cudaleak diff`.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "report/model/report.h"

namespace cudaleak::report {

struct Filter {
  std::vector<Kind> kinds;  // any of; empty = all
  std::optional<int> device;
  uint64_t min_bytes = 0;
  std::string module;    // pattern (suppression syntax) on any frame's module
  std::string function;  // pattern on any frame's function
  bool include_suppressed = false;
  // Only these ranks of a job, any of; empty = all. A group of several ranks
  // keeps only their shares (its bytes and count theirs).
  std::vector<int> ranks;
};

// The report with only the groups that pass, totals recomputed.
Report filter_report(Report report, const Filter& filter);  // moved from, as merge_reports

// Leak groups folded by a key: "stack" (as recorded), "function" / "module" /
// "file" (of the program's frame nearest the allocation), "kind", or "rank"
// (each rank's share of every group; "pid N" for a process without a rank).
struct Aggregate {
  std::string key;
  uint64_t bytes = 0;
  uint64_t count = 0;
  size_t groups = 0;
  std::vector<Kind> kinds;
};
std::vector<Aggregate> aggregate(const Report& report, const std::string& by);  // throws std::invalid_argument

// The user's frame nearest the allocation (report/model/frame_owner.h), a
// stripped program's nameless frame included: the first outside CUDA, the
// system and the interpreter, or for a ctypes call the Python function that
// made it; where the stack has none, the nearest installed code's frame that
// says where; nullptr if none.
const Frame* allocation_frame(const LeakGroup& group);

// Leak sites compared between two runs, matched by site identity.
struct SiteChange {
  std::string site;
  Kind kind = Kind::Device;
  Change change = Change::Same;
  uint64_t old_bytes = 0, new_bytes = 0, old_count = 0, new_count = 0;
  std::vector<int> old_ranks, new_ranks;  // the job's ranks that leaked there, sorted; empty without ranks
};
// Each side counts each process once, by its latest report (merge.h).
std::vector<SiteChange> diff_reports(const std::vector<Report>& old_runs, const std::vector<Report>& new_runs);
// How many are new or grown: what makes `cudaleak diff` exit with 1.
size_t new_or_grown(const std::vector<SiteChange>& changes);

}  // namespace cudaleak::report
