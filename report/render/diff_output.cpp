#include "report/render/diff_output.h"

#include <cinttypes>
#include <cstdio>

#include "common/enum_names.h"
#include "common/terminal_text.h"
#include "common/quantities.h"
#include "report/analyze/job.h"
#include "report/analyze/job_fold.h"
#include "report/model/json_emit.h"

namespace cudaleak::render {

std::string diff_text(const std::vector<report::SiteChange>& changes) {
  std::string out;
  for (const auto& c : changes) {
    if (c.change == report::Change::Same) continue;
    char line[160];
    std::snprintf(line, sizeof line, "%-7s %-14s %10s -> %-10s  %" PRIu64 " -> %" PRIu64 "  ",
                  report::text_of(c.change).c_str(), report::text_of(c.kind).c_str(), format_bytes(c.old_bytes).c_str(),
                  format_bytes(c.new_bytes).c_str(), c.old_count, c.new_count);
    // The site up to its first NUL character, if it has one, as the text has always shown it.
    out += line;
    out += printable_name(c.site.c_str());  // a name with a newline would forge a row
    // Which ranks of a job leak there now (before, for a site gone).
    const std::vector<int>& ranks = c.change == report::Change::Gone ? c.old_ranks : c.new_ranks;
    if (!ranks.empty())
      out += std::string(ranks.size() == 1 ? "  [rank " : "  [ranks ") + report::rank_list(ranks) + "]";
    out += '\n';
  }
  out += count_of(report::new_or_grown(changes), "leak site new or grown", "leak sites new or grown") + ", " +
         std::to_string(changes.size()) + " compared\n";
  return out;
}

std::string diff_json(const std::vector<report::SiteChange>& changes) {
  std::string out;
  report::schema::Emitter e(out, 1);
  e.begin_array();
  for (const auto& c : changes) {
    e.begin_object();  // members in key order, as every document cudaleak writes
    e.key("change");
    e.string(report::name_of(c.change));
    e.key("kind");
    e.string(report::name_of(c.kind));
    e.key("new_bytes");
    e.value(c.new_bytes);
    e.key("new_count");
    e.value(c.new_count);
    if (!c.new_ranks.empty()) {
      e.key("new_ranks");
      e.begin_array();
      for (int rank : c.new_ranks) e.value(uint64_t(rank));
      e.end_array();
    }
    e.key("old_bytes");
    e.value(c.old_bytes);
    e.key("old_count");
    e.value(c.old_count);
    if (!c.old_ranks.empty()) {
      e.key("old_ranks");
      e.begin_array();
      for (int rank : c.old_ranks) e.value(uint64_t(rank));
      e.end_array();
    }
    e.key("site");
    e.string(c.site);
    e.end_object();
  }
  e.end_array();
  out += '\n';
  return out;
}

}  // namespace cudaleak::render
