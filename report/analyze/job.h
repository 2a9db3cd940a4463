// A distributed job read from its processes' reports: which ranks reported,
// which are missing, and where the other ranks stood when one ran out of
// memory. Used by the text report (render/text_report.cpp); the HTML page
// computes the same from the JSON (render/html/summary.js, oom.js).
#pragma once
#include <string>
#include <vector>

#include "report/model/report.h"

namespace cudaleak::report {

// "0-3,5-7": sorted, repeats dropped, runs of three or more as a range.
std::string rank_ranges(std::vector<int> ranks);

struct JobShape {
  int world_size = 0;         // the largest any process stated; 0 unknown
  std::vector<int> ranks;     // that reported, sorted, each once
  std::vector<int> missing;   // below world_size, with no report
  std::vector<int> repeated;  // claimed by more than one process (two jobs in one folder?)
  std::vector<std::string> hosts;
  std::vector<std::string> launchers;
  bool any() const { return !ranks.empty(); }
};
// Of a merged report's processes (a single report: its own process).
JobShape job_shape(const Report& report);

// Another rank when one ran out of memory: its memory on its device at that
// moment (the last timeline point at or before it), per device.
struct RankMoment {
  int rank = -1, pid = 0, device = -1;
  uint64_t bytes = 0;
  bool known = false;   // its timeline covers the moment
  bool failed = false;  // it ran out of memory too (its own event)
  uint64_t failed_ns = 0;
  bool ended = false;  // its process had ended (exit, termination, crash) before the moment
  uint64_t ended_ns = 0;
};
struct JobOom {
  size_t event = 0;  // index in oom_events
  std::vector<RankMoment> others;
};
// For every out-of-memory the program saw (not recovered) in a ranked
// process of a merged report, in time order: the first is the rank that
// failed first.
std::vector<JobOom> job_ooms(const Report& merged);
// Where each other rank stood at one event, by rank.
std::vector<RankMoment> others_at(const Report& merged, size_t event);

}  // namespace cudaleak::report
