#include "report/model/summary.h"

#include "common/quantities.h"

#include "common/kinds.h"

namespace cudaleak::report {

Summary summarize(const std::vector<LeakGroup>& groups) {
  Summary s;
  for (const LeakGroup& g : groups) {
    // A handle found by stack adds no resource: what it holds is counted in
    // its members' groups, and how many handles there are is not known.
    if (g.attributed_by_stack) continue;
    uint64_t bytes = kind_holds_memory(g.kind) ? g.bytes : 0;
    if (!g.cached_by.empty() && g.suppressed_by.empty()) {
      s.cached_count += g.count;
      add_saturating(s.cached_bytes, bytes);
      s.cached_by[g.cached_by].count += g.count;
      add_saturating(s.cached_by[g.cached_by].bytes, bytes);
    } else if (!g.suppressed_by.empty()) {
      s.suppressed_count += g.count;
      add_saturating(s.suppressed_bytes, bytes);
    } else if (g.reachability == Reachability::StillReachable && g.owner.empty()) {
      // Alive and referenced: not a leak, said apart (a handle's holdings go with it).
      s.reachable_count += g.count;
      add_saturating(s.reachable_bytes, bytes);
    } else {
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
    }
  }
  return s;
}

}  // namespace cudaleak::report
