#include "report/render/aggregate_text.h"

#include <cinttypes>
#include <cstdio>

#include "common/enum_names.h"
#include "common/quantities.h"
#include "common/terminal_text.h"

namespace cudaleak::render {

std::string aggregate_text(const std::vector<report::Aggregate>& rows, const std::string& by, size_t top) {
  std::string out = "bytes        count  groups  kinds            " + by + "\n";
  size_t shown = 0;
  for (const auto& a : rows) {
    if (top && shown++ == top) break;
    std::string kinds;
    for (Kind k : a.kinds) kinds += (kinds.empty() ? "" : ",") + report::text_of(k);
    char line[96];
    std::snprintf(line, sizeof line, "%-12s %5" PRIu64 "  %6zu  %-16s ", format_bytes(a.bytes).c_str(), a.count,
                  a.groups, kinds.c_str());
    out += line + printable_name(a.key) + "\n";  // a name with a newline would forge a row
  }
  return out;
}

}  // namespace cudaleak::render
