#include "report/render/reach_text.h"

#include "common/kinds.h"
#include "common/quantities.h"
#include "common/terminal_text.h"
#include "report/model/place_name.h"

namespace cudaleak::render {

using namespace report;  // the model this renderer reads


namespace {

struct Total {
  uint64_t bytes = 0, count = 0;
  void add(const LeakGroup& g) {
    if (kind_holds_memory(g.kind)) add_saturating(bytes, g.bytes);
    count += g.count;
  }
  std::string words() const {
    return (bytes ? format_bytes(bytes) + " in " : "") + count_of(count, "resource", "resources");
  }
};

// "2.0 MiB of device memory in 1 allocation" / "1 stream"
std::string what(const LeakGroup& g) {
  if (!kind_holds_memory(g.kind)) return count_of(g.count, kind_object_words(g.kind, 1), kind_object_words(g.kind, 2));
  return format_bytes(g.bytes) + " of " + kind_memory_words(g.kind) + " memory in " +
         count_of(g.count, "allocation", "allocations");
}

}  // namespace

std::string reach_mark(const LeakGroup& g) {
  switch (g.reachability) {
    case Reachability::DefinitelyLost: return "definitely lost: ";
    case Reachability::NotDetermined: return "not determined whether still referenced: ";
    default: return "";
  }
}

std::string still_reachable_text(const Report& r, const TextOptions& options) {
  std::vector<const LeakGroup*> groups;
  bool counted = false;
  for (const LeakGroup& g : r.leaks)
    if (listed_as_reachable(g)) {
      groups.push_back(&g);
      counted |= g.fails_gate;
    }
  if (groups.empty()) return "";
  std::string out = "\nStill reachable at " + text_of(r.reason) + " (alive and referenced from the program's memory; " +
                    (!counted ? "not counted by the gate: leak_kinds=all counts them"
                     : r.python.version.empty()
                         ? "counted by the gate: leak_kinds=all"
                         : "counted by the gate in a Python process: its heap keeps stale "
                           "copies of freed objects' words; leak_kinds=definite leaves them out") +
                    "):\n";
  size_t shown = 0;
  for (const LeakGroup* g : groups) {
    if (options.max_groups && shown == options.max_groups) {
      out += "  ... " + count_of(groups.size() - shown, "more group", "more groups") + " in the report\n";
      break;
    }
    // Names come from the program: escaped, so that none forges a line.
    out += "  " + what(*g) + ", created by " + printable_name(g->api) + " at " +
           printable_name(where_of(g->stack, g->api)) +
           (g->device >= 0 ? " on device " + std::to_string(g->device) : "") +
           (g->referenced_from.empty() ? "" : ", referenced from " + printable_name(g->referenced_from)) + "\n";
    ++shown;
  }
  return out;
}

std::string reach_totals_text(const Report& r, const std::string& prefix) {
  if (!r.has_reachability) return "";
  Total lost, reachable, unknown;
  for (const LeakGroup& g : r.leaks) {
    if (!g.suppressed_by.empty() || !g.cached_by.empty() || !g.owner.empty() || g.attributed_by_stack) continue;
    if (g.reachability == Reachability::DefinitelyLost) lost.add(g);
    else if (g.reachability == Reachability::StillReachable) reachable.add(g);
    else if (g.reachability == Reachability::NotDetermined) unknown.add(g);
  }
  if (!lost.count && !reachable.count && !unknown.count) return "";
  std::string out = "\n" + prefix + "definitely lost: " + lost.words() + "; still reachable: " + reachable.words();
  if (unknown.count) out += "; not determined: " + unknown.words();
  const ReachabilityScan& s = r.reachability;
  out += " (" + format_bytes(s.bytes_scanned) + " of globals, stacks and heap scanned in " +
         format_duration(s.duration_ns) + (s.complete ? "" : ", incomplete: " + s.note) + ")\n";
  return out;
}

}  // namespace cudaleak::render
