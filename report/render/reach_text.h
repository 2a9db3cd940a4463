// Lost or still reachable in words (docs/ci.md#lost-or-still-reachable):
// the mark a leak group's headline carries, the still reachable groups listed
// apart, one line each with what refers to them, and the totals of each class.
#pragma once
#include <string>
#include <vector>

#include "report/model/report.h"
#include "report/render/text_options.h"

namespace cudaleak::render {

// What begins a leak group's headline: "definitely lost: ", "not determined
// whether still referenced: ", or "" (still reachable, or no scan), as
// LeakSanitizer's "Direct leak of".
std::string reach_mark(const report::LeakGroup& g);

// Whether the text lists the group apart as still reachable, not among the leaks.
inline bool listed_as_reachable(const report::LeakGroup& g) {
  return g.reachability == report::Reachability::StillReachable && g.suppressed_by.empty() && g.cached_by.empty() &&
         g.owner.empty();
}

// "Still reachable at exit (...):" and a line per group; empty when none.
std::string still_reachable_text(const report::Report& r, const TextOptions& options);

// "==12==cudaleak: definitely lost: 4.0 MiB in 1 resource; still reachable:
// 2.0 MiB in 1 resource (referenced from the program's memory; 1.2 MiB
// scanned in 3 ms)"; empty when the report had no scan.
std::string reach_totals_text(const report::Report& r, const std::string& prefix);

}  // namespace cudaleak::render
