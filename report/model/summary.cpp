#include "report/model/summary.h"

#include "common/quantities.h"

#include "common/kinds.h"

namespace cudaleak::report {

CountedAs counted_as(const LeakGroup& g) {
  if (g.attributed_by_stack) return CountedAs::NoResource;
  if (!g.cached_by.empty() && g.suppressed_by.empty()) return CountedAs::Cached;
  if (!g.suppressed_by.empty()) return CountedAs::Suppressed;
  if (g.reachability == Reachability::StillReachable && g.owner.empty()) return CountedAs::StillReachable;
  return CountedAs::Leaked;
}

Summary summarize(const std::vector<LeakGroup>& groups) {
  Summary s;
  for (const LeakGroup& g : groups) {
    uint64_t bytes = kind_holds_memory(g.kind) ? g.bytes : 0;
    switch (counted_as(g)) {
      case CountedAs::NoResource: break;
      case CountedAs::Cached:
        s.cached_count += g.count;
        add_saturating(s.cached_bytes, bytes);
        s.cached_by[g.cached_by].count += g.count;
        add_saturating(s.cached_by[g.cached_by].bytes, bytes);
        break;
      case CountedAs::Suppressed:
        s.suppressed_count += g.count;
        add_saturating(s.suppressed_bytes, bytes);
        break;
      case CountedAs::StillReachable:
        s.reachable_count += g.count;
        add_saturating(s.reachable_bytes, bytes);
        break;
      case CountedAs::Leaked:
        s.leaked_count += g.count;
        add_saturating(s.leaked_bytes, bytes);
        s.by_kind[g.kind].count += g.count;
        add_saturating(s.by_kind[g.kind].bytes, g.bytes);
        // What leaked pools keep reserved is no allocation of the program's:
        // said beside the leaked bytes, not in them.
        if (g.has_pool && g.pool.reserved) {
          add_saturating(s.pool_reserved_bytes, g.pool.reserved);
          s.pool_reserved_count += g.count;
        }
        break;
    }
  }
  return s;
}

}  // namespace cudaleak::report
