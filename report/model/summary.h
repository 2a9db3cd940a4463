// The summary of a report is a function of its groups: one rule, used by the
// builder, the suppressions, the filters and merge.
#pragma once
#include <vector>

#include "report/model/report.h"

namespace cudaleak::report {

// Where a group counts in the summary: exactly one place. A handle found by
// stack adds no resource (its members' groups count what it holds); what is
// alive and referenced (still reachable, and no handle's member) is said
// apart from the leaks.
enum class CountedAs { Leaked, Cached, Suppressed, StillReachable, NoResource };
CountedAs counted_as(const LeakGroup& group);

// A group counts once: as cached (held by a caching allocator, not
// suppressed), as suppressed, or as leaked, by kind. Only kinds that hold
// memory add bytes to the totals; reservations and mappings describe address
// space over memory counted elsewhere.
Summary summarize(const std::vector<LeakGroup>& groups);

}  // namespace cudaleak::report
